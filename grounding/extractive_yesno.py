"""Yes/no questions in the offline answer: which of the chosen sentences decides the question, and the opener it
gives ("Yes.", "No." or "" when none settles it; what a sentence says is read by grounding.yesno), or the refusal
when nothing settles it and the sentences are about something else.

No Django imports.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Sequence

from grounding import compose
from grounding.answer_types import question_sentence
from grounding.asked_holder import thin_cover, unsettled_requirement
from grounding.conflict import disputed
from grounding.embeddings import default_embedder
from grounding.faq_replies import page_reply, reply_opener
from grounding.extractive_specifics import covering
from grounding.followup_reading import relating
from grounding.lexical import content_terms
from grounding.question_parts import as_phrased, specifics
from grounding.quoting import with_antecedent
from grounding.sentence_rank import ScoredSentence
from grounding.subject_check import existent_unsaid, names_in_source, pins, subject_terms
from grounding.types import ContextPlan, Note, Source
from grounding.yesno import asking_clause, asking_coverage, compared_count
from grounding.yesno_action import action_unstated
from grounding.yesno_clauses import excepts_asked
from grounding.yesno_anchor import anchored_negation
from grounding.yesno_caps import (asks_fee, asks_limit, denies_asked_action, denying_sentence, limit_of_other_action,
                                  speaks_of_fee, speaks_of_limit)
from grounding.yesno_count import share_answer, states_asked_unit
from grounding.yesno_excluded import EXCLUDING, excluded_item
from grounding.yesno_kind import other_kind_of_referent
from grounding.yesno import opener as yes_no_opener
from grounding.yesno_asking import EXISTENTIAL, names_set_apart
from grounding.yesno_predicate import asked_subject
from grounding.yesno_reach import CASE_OPENING, case_shared
from grounding.yesno_statement import states_something

if TYPE_CHECKING:
    from grounding.extractive import ExtractiveAnswerer


def decided(answerer: ExtractiveAnswerer, question: str, chosen: Sequence[ScoredSentence], sources: dict[str, Source],
            notes: Sequence[Note] = ()) -> tuple[list[ScoredSentence], str]:
    """A yes/no question's sentences with the deciding one first, and its opener ("Yes.", "No." or "" when no
    sentence settles the question; grounding.yesno). A deciding sentence that a contradiction note among
    ``notes`` sets against another source's settles nothing: the sources disagree on it, and the answer quotes
    both sides with the note rather than open with one of them. ``answerer`` gives the thresholds (settle,
    scan_coverage, yes_coverage, precision_weight: grounding.extractive.ExtractiveAnswerer)."""
    # the deciding sentence: the closest match whose own words are the question's (precision), so "award
    # leave is not paid out" does not decide a question on annual leave; a label ("Court leave") decides nothing
    deciding = max(chosen, key=lambda s: (states_something(s.text), s.score + answerer.precision_weight * s.precision))
    # ... but of sentences each stating the case it holds for ("If you only use GitHub from the web interface, ..." /
    # "If you do any work with git repos on your local computer, ..."), the one whose case is the situation the
    # question states ("If I only use GitHub through the website, ...?"): the dev set's d100 was quoted unsettled
    clause = asking_clause(question)
    cases = {id(s): case_shared(question, clause, s.text) for s in chosen}
    if CASE_OPENING.match(deciding.text):
        best = max(chosen, key=lambda s: cases[id(s)])
        if cases[id(best)] > cases[id(deciding)] and states_something(best.text) \
                and sum(cases[id(s)] == cases[id(best)] for s in chosen) == 1:
            deciding = best
    # a question comparing a count with a number ("more than 100 spaces?") is decided by the sentence stating
    # that count ("There are 24 spaces"), when one of the chosen does
    counted = [s for s in chosen if compared_count(question, s.text)]
    if counted and not compared_count(question, deciding.text):
        deciding = counted[0]
    # a question asking whether something is a value ("Is the carry-over limit 10 days?") is decided by a sentence
    # stating a number of that unit ("Up to 5 unused PTO days carry over"), when one of the chosen does
    valued = [s for s in chosen if states_asked_unit(question, s.text)]
    if not counted and valued and not states_asked_unit(question, deciding.text):
        deciding = valued[0]
    if not counted and len(valued) > 1:
        # ... the one naming most of what the question names besides the value it tests: "Is the stipend for remote
        # workers $400?" is about remote workers' stipend ("Remote employees receive ... $750"), not about whatever
        # states $400 ("Hybrid employees receive a one-time stipend of $400": the s45 new-user run, no opener)
        topic = {t for t in content_terms(clause) if not any(ch.isdigit() for ch in t)}
        held = {id(s): len(topic & content_terms(s.text)) for s in valued}
        best = max(valued, key=lambda s: held[id(s)])
        if held[id(best)] > held.get(id(deciding), -1) and sum(held[id(s)] == held[id(best)] for s in valued) == 1:
            deciding = best
    # a list item the heading it is listed under excludes, holding a phrase of the question word for word ("Traffic
    # or parking fines" under "Non-reimbursable expenses", for "Are parking fines reimbursed?":
    # grounding.yesno_excluded)
    excluded = None if counted or valued else excluded_item(question, chosen, sources)
    if excluded is not None:
        return _focused(question, [excluded] + [o for o in chosen if o is not excluded], sources, "No."), "No."
    # a chosen sentence naming the whole subject the question asks about when the closest names part of it ("any
    # unused travel comp time will be forfeited" / "your comp time will be paid out", for "Is unused travel comp time
    # paid out when I leave?": the s28 new user's wrong "Yes.") is about the asked kind: it decides, if it settles
    subject = asked_subject(clause)
    fuller = [s for s in chosen if s is not deciding and subject <= content_terms(s.text) and states_something(s.text)
              and not subject <= content_terms(deciding.text) and s.score >= answerer.settle] if subject else []
    for s in ([] if counted or valued else fuller):
        said = settles(answerer, question, s, sources, notes)
        if said:
            return _focused(question, [s] + [o for o in chosen if o is not s], sources, said), said
    # a question about a case set apart ("from another country") is decided by the chosen sentence naming it so
    # ("Working from another country ... requires approval"), not by the closest one on the usual case ("anywhere in
    # the country where you are employed")
    apart = [s for s in chosen if names_set_apart(question, s.text) and states_something(s.text)]
    if not counted and not valued and apart:
        # ... and only by such a sentence: the usual case's rule says nothing of it (when the one naming it does
        # not settle the question, the answer quotes it first, without an opener)
        for s in sorted(apart, key=lambda s: -(s.score + answerer.precision_weight * s.precision)):
            said = settles(answerer, question, s, sources, notes) if s.score >= answerer.settle else ""
            if said:
                return _focused(question, [s] + [o for o in chosen if o is not s], sources, said), said
        return [apart[0]] + [o for o in chosen if o is not apart[0]], ""
    ordered = [deciding] + [s for s in chosen if s is not deciding]
    # a chosen sentence stating a rule of everything but what is asked ("All federal information systems (except
    # ... national security systems) are subject to NIST's RMF") says the rule does not reach it: no other chosen
    # sentence's polarity answers (grounding.yesno_clauses.excepts_asked)
    if any(s.score >= answerer.settle and excepts_asked(clause, s.text) for s in chosen):
        return ordered, ""
    # a question asking about an action ("Can I delete the message?") is not settled by a closest sentence stating
    # another one ("You can edit a message ... for 5 minutes") when a chosen one states that action and holds the
    # question's words the closest holds ("You aren't able to delete a message"): that one decides, if it settles
    # the question; then no sentence stating another action does (grounding.yesno_action)
    stating = [] if counted or valued else _stating_action(question, deciding, chosen, sources)
    stating = [s for s in stating if cases[id(s)] >= cases[id(deciding)]]  # not one stating another case's rule
    for s in sorted(stating, key=lambda s: -(s.score + answerer.precision_weight * s.precision)):
        said = settles(answerer, question, s, sources, notes) \
            if s.score >= answerer.settle and states_something(s.text) else ""
        if said:
            return _focused(question, [s] + [o for o in ordered if o is not s], sources, said), said
    said = settles(answerer, question, deciding, sources, notes) \
        if deciding.score >= answerer.settle and states_something(deciding.text) and not stating else ""
    if said == "No." and EXISTENTIAL.search(clause):
        # "Is there an internet reimbursement?": a chosen sentence granting it to some ("Fully remote employees are
        # reimbursed up to $50 per month for home internet") says there is one, whatever another denies to others
        # ("Hybrid employees are not eligible for the internet reimbursement": the s18 new-user run's wrong "No.")
        for s in ordered[1:]:
            if s.score >= answerer.settle and states_something(s.text) \
                    and settles(answerer, question, s, sources, notes) == "Yes.":
                return _focused(question, [s] + [o for o in ordered if o is not s], sources, "Yes."), "Yes."
    if said or counted:
        return _focused(question, ordered, sources, said), said
    # the closest sentence settles nothing: another chosen one that matches the question as well, names at
    # least ``scan_coverage`` of what it asks and settles it decides it ("You cannot request paid time off in
    # Tock" after "You may use annual leave for any reason", for "Can I request my annual leave in Tock?")
    for s in ordered[1:]:
        if s.score >= answerer.settle and states_something(s.text) \
                and not (stating and action_unstated(clause, s.text)) and asking_coverage(
                question, f"{sources[s.label].section}\n{s.text}") >= answerer.scan_coverage:
            said = settles(answerer, question, s, sources, notes)
            if said:
                return _focused(question, [s] + [o for o in ordered if o is not s], sources, said), said
    # or one matching the question about as closely as the closest (within ``scan_margin`` of its score) that says
    # no by a negation whose scope names what is asked (grounding.yesno_anchor): a paraphrase names few of the
    # question's words ("Team members who contributed editing ... should not be included as authors" for "Should
    # teammates who only edited my blog post be credited as authors?"). Only "No.": on the dev, calibration and
    # spent fresh yes/no sets a "Yes." or a "No." read this way without an anchored negation is wrong as often as
    # right (s19).
    for s in ordered[1:]:
        if s.score >= max(answerer.settle, deciding.score - answerer.scan_margin) and states_something(s.text) \
                and not (stating and action_unstated(clause, s.text)) and anchored_negation(clause, s.text) \
                and settles(answerer, question, s, sources, notes) == "No.":
            return _focused(question, [s] + [o for o in ordered if o is not s], sources, "No."), "No."
    return ordered, ""


def _stating_action(question: str, closest: ScoredSentence, chosen: Sequence[ScoredSentence],
                    sources: dict[str, Source]) -> list[ScoredSentence]:
    """The chosen statements that state the action the question asks about (grounding.yesno_action) when ``closest``
    does not, each holding every content term of the asking clause that ``closest`` holds (both read with their
    section path): "You can also use annual and sick leave" does not replace "You need to have been a federal
    employee for 12 months in order to access Paid Parental Leave" for "Can I already use paid parental leave?".
    Empty when ``closest`` states the action or no chosen sentence qualifies."""
    clause = asking_clause(question)
    if not action_unstated(clause, closest.text):
        return []
    asked = content_terms(clause)
    read = {id(s): content_terms(f"{sources[s.label].section}\n{s.text}") for s in chosen}
    held = asked & read[id(closest)]
    return [s for s in chosen if states_something(s.text) and not action_unstated(clause, s.text)
            and held <= read[id(s)] | (read[id(closest)] if _refers_back(s, closest) else frozenset())]


def _refers_back(sentence: ScoredSentence, before: ScoredSentence) -> bool:
    """True when ``sentence`` comes shortly after ``before`` in the same source (at most ``_BACK`` sentences) and
    names a noun with a demonstrative ("Teams don't need to submit *this justification*", three sentences after the
    one on the justification checklist): it speaks of what ``before`` names."""
    return sentence.label == before.label and 0 < sentence.position - before.position <= _BACK \
        and bool(_DEMONSTRATIVE.search(sentence.text))


#: How many sentences back a demonstrative reaches.
_BACK = 3


#: A noun phrase pointing back ("this justification", "these forms", "such requests").
_DEMONSTRATIVE = re.compile(r"\b(?:this|these|that|those|such)\s+[a-z]{3,}", re.I)


def settles(answerer: ExtractiveAnswerer, question: str, sentence: ScoredSentence, sources: dict[str, Source],
            notes: Sequence[Note]) -> str:
    """The opener ``sentence`` gives a yes/no question ("Yes.", "No.", or "" when it settles nothing)."""
    # a sentence settles the question only when it (or its source) names what the question pins its fact with:
    # "Is 1Password approved?" is not settled by a sentence about password managers in general; nor when the
    # sources disagree on it
    source = sources[sentence.label]
    if not all(pins(source, sentence.text, n) for n in specifics(question)) \
            or disputed(sentence.text, sentence.label, notes):
        return ""
    if sentence.kind == "item" and EXCLUDING.search(source.section_of(sentence.text).split(" > ")[-1]):
        # an item of a list of exclusions is said no to by its heading, not by itself: "Upgrades to business or
        # first class" under "Non-reimbursable expenses" opened "Yes." to "Can I fly business class?" (s13 new user)
        return ""
    # grounding.yesno: a limit passed says no; a rule on one side of the asker's quantity, another kind of what
    # is asked or too little of it named settles nothing (quoted without an opener)
    said = yes_no_opener(question, sentence.text, yes_coverage=answerer.yes_coverage, context=source.section,
                         similarity=_similarity(answerer))
    if said and existent_unsaid(question, f"{source.section_of(sentence.text)}\n{sentence.text}",
                                head_only=not said.startswith("Yes")):
        # a sentence not naming what an existential question asks exists settles it neither way: "Is there a
        # monthly phone stipend?" / "... $50 per month for home internet" (under "Stipend"); a no needs its head
        # noun named ("Is there a limit on ...?" is not answered no by a sentence saying some cannot join)
        return ""
    return said


def _similarity(answerer: ExtractiveAnswerer) -> Callable[[str, str], float]:
    """The cosine of two texts' sentence vectors (the answerer's embedder, else the bundled MiniLM), -1..1."""
    def similarity(a: str, b: str) -> float:
        vectors = (answerer.embedder or default_embedder()).embed([a, b])
        return float(vectors[0] @ vectors[1])
    return similarity


def _focused(question: str, ordered: list[ScoredSentence], sources: dict[str, Source], said: str,
             *, coverage: float = 0.5) -> list[ScoredSentence]:
    """A settled question's sentences: the deciding one, then only the others naming at least ``coverage`` of the
    asking clause's content terms (with their section path), or the sentence right after it in its source: "No.
    Alcohol is not reimbursed ..." is not followed by "Submit expense reports in Ledgerly within 30 days" (s9 new
    user). Unsettled, all are kept."""
    if not said:
        return ordered
    first = ordered[0]
    return ordered[:1] + [s for s in ordered[1:]
                          if asking_coverage(question, f"{sources[s.label].section}\n{s.text}") >= coverage
                          # the sentence right after the deciding one carries its condition as often as not ("Dogs
                          # are allowed on Fridays. Pets must be registered a week before the visit.")
                          or (s.label == first.label and s.position == first.position + 1)]


def yes_no_answer(answerer: ExtractiveAnswerer, asked: str, chosen: Sequence[ScoredSentence],
                  ranked: Sequence[ScoredSentence], plan: ContextPlan, *, context: str, alone: bool,
                  groups: Sequence[str]) -> tuple[list[ScoredSentence], str] | str:
    """A yes/no question's sentences and opener (:func:`decided`), or the topic-only abstention text (a str) when
    nothing settles it and the sentences are about something else.

    A count compared with a number ("more than 100 spaces?") is decided by the sentence stating the count: one that
    matches well enough to be quoted at all joins the chosen when none of them states it. A follow-up asking whether
    its case differs ("Is it different for term employees?", ``context`` the previous question) gets no opener
    unless a share of the whole settles it ("75% of"). A question standing alone (``alone``) that nothing settles is
    refused when the sentences are about something else (grounding.asked_holder.thin_cover: "Does Tallgrass match
    401(k) contributions?" / topping up parental-leave pay) or leave a requirement unsettled; a group the question
    names (``groups``: "contractors") that no quoted source names opens "The documents do not say this for
    contractors; they say:"."""
    sources = plan.source_map
    if asks_limit(asked):
        close = [s for s in ranked if s.score >= max(answerer.threshold, ranked[0].score - answerer.type_spread)]
        denying = denying_sentence(asked, [s.text for s in close])
        if denying is not None and not disputed(close[denying].text, close[denying].label, plan.notes):
            # "Is there a cap on how many sick leave hours I can build up?": "There is no maximum amount of sick
            # leave you can accrue" says No, though closer sentences count other sick leave (fresh34's f34-y16); as
            # a follow-up too, naming what it asks of ("Is there a similar limit for sick leave?" after the annual
            # leave carried over: the calibration half's q207)
            return [close[denying]] + [s for s in chosen if s is not close[denying]][:answerer.max_sentences - 1], "No."
    counting = [s for s in ranked if s.score >= answerer.threshold and compared_count(asked, s.text)]
    if counting and not any(compared_count(asked, s.text) for s in chosen):
        chosen = [counting[0]] + list(chosen)[:answerer.max_sentences - 1]
    chosen, opener = decided(answerer, asked, chosen, sources, plan.notes)
    replied = next(((s, r) for s in chosen if (r := page_reply(s, plan, asked, answerer.embedder))), None)
    if replied and opener in ("", reply_opener(replied[1])):  # the page's own "Generally, no." before its reason
        chosen, opener = [replied[0]] + [s for s in chosen if s is not replied[0]], replied[1]
    if opener and other_kind_of_referent(asked, context, chosen[0].text):
        # "Do they carry over?" after a question on days of paid time off is not settled by "Sick days do not carry
        # over": another kind of what "they" stands for decides nothing; the others may, and it is quoted last
        own = [s for s in chosen if not other_kind_of_referent(asked, context, s.text)]
        again, opener = decided(answerer, asked, own, sources, plan.notes) if own else ([], "")
        chosen = again + [s for s in chosen if all(s is not o for o in own)]
    if opener and len(fuller := with_antecedent(chosen, ranked, plan)) > len(chosen) \
            and settles(answerer, asked, fuller[0], sources, plan.notes) == opener:
        # "Carried-over days must be used by March 31" presupposes the sentence before it, which states the act asked
        # about ("Up to 5 unused PTO days carry over ..."): when that one says the same, it comes first ("Required
        # courses are conducted through GSA's Online University" is not said the other way by the one before it,
        # fresh6's y6-016)
        chosen = fuller
    if context and relating(asked) and not any(share_answer(asked, s.text) for s in chosen):
        opener = ""
    if asks_fee(asked) and not any(speaks_of_fee(s.text) for s in chosen):  # whatever they say yes to (f36-u05)
        return compose.topic_only(covering(ranked, sources), "whether there is a fee")
    quoted = [(s.text, sources[s.label]) for s in chosen]
    if not opener and alone and \
            (thin := thin_cover(asked, subject_terms(question_sentence(asked)), quoted, plan.sources)):
        return compose.topic_only(covering(ranked, sources), "anything about " + as_phrased(thin, asked))
    if not opener and asks_limit(asked):
        limits = [s.text for s in chosen if speaks_of_limit(s.text, asked) or denies_asked_action(asked, s.text)]
        if not limits or limit_of_other_action(asked, limits, [s.text for s in plan.sources]):
            # "Is there a word limit for blog posts?" over sentences stating no limit of any kind (fresh34's f34-u04),
            # after a situation or as a follow-up too (fresh23c's f23c-10); one saying the asked thing is not done
            # at all answers ("Sick days do not carry over"); one limiting another action does not (f40-u05)
            return compose.topic_only(covering(ranked, sources), "whether there is a limit")
    if not opener and alone and unsettled_requirement(asked, [s.text for s in chosen]):
        return compose.topic_only(covering(ranked, sources), "whether it is required")
    unsaid = [n for n in groups if not any(names_in_source(sources[s.label], n) for s in chosen)]
    if not opener and unsaid:  # a page on employees that never names contractors: not said of them
        opener = f"The documents do not say this for {' or '.join(unsaid)}; they say:"
    return chosen, opener
