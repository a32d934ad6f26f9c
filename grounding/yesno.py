"""Yes/no questions: what a sentence answers them with. The question is read by its asking clause (without the
asker's situation: conditions, clauses describing its nouns; grounding.yesno_asking); a sentence says no when
exactly one of the two is negated (its own leading condition left out when the question is not about it), when it
states a limit the question asks to pass, or a requirement of more time than the asker has (grounding.yesno_limits);
a sentence about another kind of what is asked ("economy class" for "business class") or naming too little of it
settles nothing (grounding.extractive then quotes it without an opener).

No Django imports.
"""

from __future__ import annotations

import re
from typing import Callable

from grounding.answer_types import question_sentence
from grounding.lexical import content_terms
from grounding.polarity import antonym
from grounding.yesno_asking import CONDITION, asking_clause, asking_coverage
from grounding.yesno_clauses import (RELATIVE_CLAUSE, bounded_prohibition, excepts_asked, nominal_unstated,
                                    refers_elsewhere)
from grounding.yesno_count import (COMPARED as _COMPARED, THRESHOLD as _THRESHOLD, compared_count,
                                   passes_stated_bound, requirement_not_reached, same_across, share_answer,
                                   value_differs)
from grounding.yesno_fit import (below_minimum, capacity_unstated, defines_only, listed_as_kind, names_excluded,
                                 orders_asked_act, other_act_ordered, other_owner, requirement_flip_fits, some_for_all,
                                 unasked_contrast, unneeded_other_act)
from grounding.yesno_hedges import SOME_CASES, WITH_APPROVAL, bounded_for_all, conditional_on_threshold
from grounding.yesno_kind import other_subject, substituted_in
from grounding.yesno_limits import most_stated, over_limit, requirement_unmet
from grounding.yesno_inverted import required_instead, turned, unlimited_grant
from grounding.yesno_negation import joins_contrasted, order_reversed, rejected_alternative, without_idioms
from grounding.yesno_predicate import cost_denied, cost_read_as_free, predicate_unstated, restriction_unstated
from grounding.yesno_roles import negated_only_in_purpose, purpose_elsewhere, subject_only_acted_on
from grounding.yesno_reach import (approval_required, if_unstated, illustrates, matching_case, only_if_unmet,
                                   only_if_unstated, other_named_case, restricts_everyone, unasked_without)
from grounding.yesno_schedule import hours_differ, rate_differs, weekday_differs
from grounding.yesno_answering import answering_clause
from grounding.yesno_scope import (NEGATION, NOUN_CONTRAST, STRANDED_NEGATION, as_must,
                                   concession_or_main, condition_unmet, contrasted, modality_unstated,
                                   negated_part_unstated, negates_terms, prohibits_asked, requirement_unstated)


#: A condition closing a sentence: ", even if you are not ...", " unless approved", " when you travel".
_SENTENCE_TRAILING_CONDITION = re.compile(r"(?<=\w)[,\s]+(?:even\s+)?(?:if|unless|when|whenever|while|as long as|in case)"
                                          r"\b[^.;:!?]*", re.I)


#: An exception closing a sentence (", except expenses for which ...", " other than ...") and a parenthesis of
#: examples ("(e.g. vendor does not accept ...)"; one restating the rule, "(i.e. your start/stop times don't change
#: ...)", stays).
_EXCEPTION = re.compile(r"[,\s]+(?:except|excepting|other than|apart from)\b.*$|\s*\((?:e\.g\.|for example)[^()]*\)",
                        re.I)
_EXCEPT = re.compile(r"\b(?:except|other than|apart from)\b", re.I)


def deciding_clause(question: str, sentence: str) -> str:
    """The part of ``sentence`` whose negation decides a yes/no question: the sentence without a trailing condition
    (", even if you are not part of the group": the case, not the answer) nor a closing exception or a parenthesis
    of examples (unless the question asks about an exception), and without a leading condition
    whose negation is about something the question does not mention ("If you are not taking a break in employment,
    your annual leave will be transferred" decides "Does my annual leave transfer?" by its main clause: yes). A
    condition negating a word of the question stays ("Does it transfer if I take a break?") unless the question
    negates it too ("... without a break in service"). Of a leading concessive
    clause and its main clause, the one about what is asked (grounding.yesno_scope.concession_or_main). Of two clauses, the
    one that answers the question (grounding.yesno_answering.answering_clause: "You are allowed to have advanced leave;
    however, you cannot borrow more ..." decides "Am I allowed to have advanced leave?" by its first)."""
    sentence = answering_clause(asking_clause(question), sentence)
    # a trailing condition is the case the rule holds in, as the question's own is (asking_clause drops it): its
    # negation ("Feel free to join, even if you are not part of the group") is not the answer's
    sentence = _SENTENCE_TRAILING_CONDITION.sub("", sentence) or sentence
    if not _EXCEPT.search(question):
        # an exception's negation ("..., except expenses for which it is impractical (e.g. vendor does not accept
        # the card)") is the exception's, not the rule's
        sentence = _EXCEPTION.sub("", sentence) or sentence
    sentence = concession_or_main(asking_clause(question), sentence)
    m = CONDITION.match(sentence)
    if not m:
        return sentence
    negation = NEGATION.search(m.group(0))
    shared = content_terms(m.group(0)[negation.end():]) & content_terms(question) if negation else frozenset()
    # a condition negating what the question's situation negates too ("... without a break in service, does my sick
    # leave transfer?" / "If ... you are not taking a break in service, it will be transferred") is the asker's case
    if negation is None or (shared and not negates_terms(question, shared)):
        return sentence
    return sentence[m.end():]


def substituted(question: str, sentence: str) -> bool:
    """True when ``sentence`` speaks of what the yes/no ``question`` names, but as another kind of it
    (grounding.yesno_kind.substituted_in, read on the question's asking clause): "Can I fly business class?" / "Book
    economy class for all flights". Such a sentence settles nothing about what was asked."""
    return substituted_in(asking_clause(question), sentence)


def says_no(question: str, sentence: str) -> bool:
    """True when ``sentence`` answers the yes/no ``question`` with no.

    Exactly one of the two is negated ("Is award leave paid out?" / "Award leave is not paid out." -> True; "Can't I
    ...?" / "You cannot ..." -> False), the question read without its conditions and noun-describing clauses
    (:func:`asking_clause`), the sentence without a leading condition the question is not about
    (:func:`deciding_clause`; a noun phrase set against another, "as a guest and not an anonymous user", a
    "without" phrase naming nothing the question does, grounding.yesno_reach.unasked_without, and "not just",
    "whether or not", "no later than", grounding.yesno_negation.without_idioms, negate nothing); or
    the sentence states a limit the question asks to pass (:func:`over_limit`); or the sentence states a
    requirement of more time than the question says the asker has ("I joined six months ago. Can I use it?" / "You
    need to have been an employee for 12 months")."""
    if requirement_unmet(question, sentence) or over_limit(question, sentence):
        return True
    # "not just", "whether or not", "no later than" negate no predicate (grounding.yesno_negation)
    asking, sentence = without_idioms(asking_clause(question)), without_idioms(sentence)
    # a relative clause set off by commas describes its noun: its negation is not the main clause's
    # (grounding.yesno_clauses.RELATIVE_CLAUSE)
    clause = unasked_without(asking, NOUN_CONTRAST.sub(" ", STRANDED_NEGATION.sub("", RELATIVE_CLAUSE.sub(
        ",", unasked_contrast(asking, deciding_clause(question, sentence))))))
    return bool(NEGATION.search(asking)) != bool(NEGATION.search(clause))


def threshold_applies(question: str, sentence: str) -> bool:
    """True when the sentence's rule holds on one side of a quantity and the question states a quantity of the same
    unit ("a 4 hour flight" / "Flights longer than 6 hours may ..."; "a gift worth $50" / "gifts worth more than
    $75"): the sentence's polarity then says nothing of the asker's case unless the question passes a limit
    (:func:`over_limit`)."""
    if not _THRESHOLD.search(sentence):
        return False
    asked, stated = most_stated(question_sentence(question)), most_stated(sentence)
    return bool(asked.keys() & stated.keys())


def opener(question: str, sentence: str, *, yes_coverage: float = 0.25, context: str = "",
           similarity: Callable[[str, str], float] | None = None) -> str:
    """How a yes/no answer resting on ``sentence`` opens: "No.", "Yes." or "" (the sentences are quoted without an
    opener) when the sentence does not settle the question.

    - a limit the question passes (in numbers or in words), or a requirement of more time than the asker has, says
      "No." (:func:`over_limit`, grounding.yesno_count.passes_stated_bound, :func:`requirement_unmet`), as does a
      sentence restricting who to a question about everyone (grounding.yesno_reach.restricts_everyone) or putting
      what is asked in the other order to an event (grounding.yesno_negation.order_reversed); any other
      rule on one side of a quantity of the question's unit settles nothing (:func:`threshold_applies`); a cost
      denied ("at no cost") says "No." to whether one must pay (grounding.yesno_predicate.cost_denied);
    - a question asking whether its case is the same (or differs) is answered no (yes) by a sentence giving that case,
      every content word of the asking clause named, a share of something (grounding.yesno_count.share_answer); one
      asking whether its case gets more or less is answered no by a sentence saying it is the same whatever the case
      (grounding.yesno_count.same_across);
    - an antonym of the asking clause's word ("open" / "closed", "allowed" / "forbidden", grounding.polarity.
      antonym) turns the sentence's polarity, when the sentence names everything else the asking clause does
      ("Is smoking allowed outside?" is not settled by "Smoking is forbidden inside");
    - a sentence opening as the alternative to the one before ("Instead, ...") or whose main clause's subject is
      another than the question's ("your comp time" for "my award leave") settles nothing
      (grounding.yesno_scope.contrasted, grounding.yesno_kind.other_subject);
    - a sentence naming the asked thing only as the alternative it rejects ("... to Talent rather than to the
      managers"), or setting the question's subject and what it asks in two clauses against each other ("X does A,
      whereas Y does B" for "Does X do B?"), says "No." (grounding.yesno_negation);
    - otherwise :func:`says_no` (or a prohibition of what a question asking permission asks: grounding.yesno_scope.
      prohibits_asked), unless the sentence opens with another kind of what is asked as its subject (grounding.
      yesno_kind.substituted_in, opening=True: "Sick days do not carry over" for "Can I carry over
      unused vacation days?", the s48 new-user run's wrong "No."), or names
      nothing of what a negated question negates
      (grounding.yesno_scope.negated_part_unstated) or the question asks only whether something is required and the
      sentence states no requirement (grounding.yesno_scope.requirement_unstated);
    - a question asking whether doing without something is fine is answered as the requirement it turns round, the
      opener turned (not by a rule under a leading condition: "If you do any work with git repos on your local
      computer, you need to set up commit signing" is another case than the asker's, often); a sentence saying there
      is no limit on how many times one may do what is asked says "Yes." (grounding.yesno_inverted);
    - "Yes." only from a sentence about the same kind of what is asked (:func:`substituted`) naming at least
      ``yes_coverage`` of the asking clause (:func:`asking_coverage`), counted on the sentence with ``context``, the
      heading path of the section it stands in ("You do not need a gym membership to access these" under "Locker
      rooms and showers" names the showers the question asks about); a yes that holds only past a threshold the
      question does not state opens "In some cases." (:func:`conditional_on_threshold`); nor from a sentence whose
      leading condition is another case than the situation the question states (grounding.yesno_scope.
      condition_unmet, with ``similarity``, a cosine of two texts), nor when the question asks permission or a
      requirement and the sentence's answering clause states neither (grounding.yesno_scope.modality_unstated:
      "Can I commit an API key?" / "Signing your commits requires a pair of keys"), nor from an example
      (grounding.yesno_reach.illustrates: the case it tells holds under its own conditions), nor from a rule holding
      only, or holding if, under a condition the question names nothing of (grounding.yesno_reach.only_if_unstated,
      if_unstated);
    - a yes to a permission that the sentence makes depend on an approval the question does not name opens "Yes,
      with approval." (grounding.yesno_reach.approval_required).
    """
    if (required := required_instead(question)) is not None:  # "Is it okay if I don't ...?" (grounding.yesno_inverted)
        return "" if CONDITION.match(sentence) else turned(opener(required, sentence, yes_coverage=yes_coverage,
                                                                  context=context, similarity=similarity))
    clause = asking_clause(question)
    sentence = _LABEL.sub("", sentence, count=1)  # "NOTE: If you are attending ..." opens with its condition
    sentence = cost_read_as_free(clause, sentence)  # "do not cost any money" says "free" (grounding.yesno_predicate)
    sentence = matching_case(question, clause, sentence)  # of parallel cases, the asker's (grounding.yesno_reach)
    if capacity_unstated(question, sentence) or other_named_case(question, sentence):
        return ""  # a capacity or a named case the question does not name (grounding.yesno_fit, yesno_reach)
    if over_limit(question, sentence) or requirement_unmet(question, sentence) \
            or passes_stated_bound(question, sentence) or restricts_everyone(clause, sentence) \
            or only_if_unmet(question, sentence) or below_minimum(question, sentence) \
            or some_for_all(clause, sentence) or order_reversed(clause, sentence) \
            or requirement_not_reached(question, sentence):
        return "No."
    if cost_denied(clause, sentence) and asking_coverage(question, f"{context}\n{sentence}") >= yes_coverage:
        return "No."  # "Do I have to pay to take the training?" / "... access the training at no cost"
    if threshold_applies(question, sentence) or refers_elsewhere(sentence) or excepts_asked(clause, sentence):
        return ""  # a rule on one side of the asker's quantity; a cross-reference; a rule excepting what is asked
    compared = compared_count(question, sentence)
    if compared or _COMPARED.search(question_sentence(question)):
        return compared  # a count compared with a number is settled only by a sentence stating that count
    shared = share_answer(question, sentence)
    if shared and not substituted(question, sentence) and asking_coverage(question, f"{context}\n{sentence}") == 1.0:
        return shared  # "Is it the same on the first day?" / "On the first and last day ... 75% of the allowance"
    if same_across(question, sentence) and not substituted(question, sentence) \
            and asking_coverage(question, f"{context}\n{sentence}") >= yes_coverage:
        return "No."  # "Do I get more leave if I have twins?" / "... the same whether you welcome one child or several"
    if (value_differs(question, sentence) or rate_differs(question, sentence) or hours_differ(question, sentence)
            or weekday_differs(question, sentence)) \
            and not substituted(question, sentence) \
            and asking_coverage(question, f"{context}\n{sentence}") >= yes_coverage:
        return "No."  # "Is the daily meal allowance $50?" / "... is $65 per day"; "... once per month?" / "... once
        # per quarter" (grounding.yesno_schedule); "Are core hours 9 to 5?" / "... 10:00 a.m. to 3:00 p.m."; "...
        # on Mondays?" / "... on Fridays"
    flip = antonym(as_must(clause), deciding_clause(question, sentence))
    if flip is not None:
        # the flipped verb's particle goes with it ("paid out" / "forfeited")
        particle = re.search(rf"\b{re.escape(flip[0])}\s+(out|over|up|off|back|down)\b", clause, re.I)
        rest = content_terms(clause) - content_terms(flip[0]) - content_terms(particle.group(1) if particle else "")
        if not rest <= content_terms(sentence) and not requirement_flip_fits(clause, flip[0], sentence):
            return ""
    if contrasted(sentence) or other_subject(clause, sentence):
        return ""  # an alternative to what the sentence before says; or a predicate said of another subject
    if rejected_alternative(clause, sentence) or joins_contrasted(clause, sentence):
        return "No."  # "... to Talent rather than to the managers"; "X does A, whereas Y does B" (yesno_negation)
    if unlimited_grant(question, sentence):
        return "Yes."  # "Can I resubmit it more than once?" / "There is no limit on how many times you can resubmit"
    answering = answering_clause(clause, sentence)
    no = says_no(question, sentence) != (flip is not None) or (flip is None and prohibits_asked(clause, answering))
    if no:
        return "" if (flip is None and negated_part_unstated(clause, deciding_clause(question, sentence))) \
            or requirement_unstated(clause, answering) or negated_only_in_purpose(clause, sentence) \
            or bounded_prohibition(question, sentence) or unneeded_other_act(clause, sentence) \
            or names_excluded(clause, sentence) or other_owner(clause, sentence) \
            or substituted_in(clause, sentence, opening=True) else "No."  # "Sick days do not carry over" (vacation)
    # the coverage is counted on the main clause: a question named only in the sentence's leading condition is the
    # case another rule holds in ("If you previously used FMLA ..., those hours would be subtracted from the 12
    # weeks you can take for PPL" does not answer "Can I take FMLA in my first month?")
    main = sentence[m.end():] if (m := CONDITION.match(sentence)) and sentence[m.end():].strip() else sentence
    if substituted(question, sentence) or asking_coverage(question, f"{context}\n{main}") < yes_coverage \
            or predicate_unstated(clause, f"{context}\n{sentence}") or restriction_unstated(clause, sentence) \
            or nominal_unstated(clause, f"{context}\n{sentence}"):
        return ""
    if conditional_on_threshold(question, sentence) or bounded_for_all(question, sentence):
        return SOME_CASES
    if listed_as_kind(clause, sentence):
        return "Yes."  # "Can emails count as supporting documentation?" / "Examples of ... include emails, ..."
    if condition_unmet(question, clause, sentence, similarity) \
            or (modality_unstated(clause, answering) and not orders_asked_act(clause, sentence)) \
            or purpose_elsewhere(question, sentence) or subject_only_acted_on(clause, sentence) \
            or illustrates(sentence) or other_act_ordered(clause, sentence) or defines_only(clause, sentence) \
            or only_if_unstated(question, sentence) or if_unstated(question, sentence):
        return ""
    if names_excluded(clause, sentence):
        return "No."  # "somewhere other than GSA's Online University?" / "... conducted through GSA's Online University"
    return WITH_APPROVAL if approval_required(clause, answering) else "Yes."


#: A label opening a sentence ("NOTE:", "Important -", "Tip:").
_LABEL = re.compile(r"^\s*(?:please note|note|important|tip|reminder|nb)\s*[:\-–—]\s*", re.I)
