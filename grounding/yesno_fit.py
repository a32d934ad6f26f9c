"""Yes/no questions: whether a sentence fits what is asked closely enough to settle it (the s16 round's rules, from
the wrong openers of the development data). Each reads the asking clause (grounding.yesno_asking.asking_clause) and
one sentence; grounding.yesno.opener calls them.

No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import content_terms, stem
from grounding.yesno_action import action_unstated, asked_actions
from grounding.yesno_count import NUMBER_WORDS

#: The capacity a rule is stated for ("If you're invited ... in your personal capacity, ...").
_CAPACITY = re.compile(r"\bin\s+(?:your|their|one['’]s|his|her|an?)\s+(personal|official|private|individual|own|"
                       r"professional|work)\s+capacity\b", re.I)


def capacity_unstated(question: str, sentence: str) -> bool:
    """True when ``sentence`` states its rule for a capacity ("If you're invited to Slack workspaces in your personal
    capacity, you must join those workspaces with a personal email address") that the question does not name: the
    rule holds for that capacity only, and "Another agency invited me to its Slack workspace for a project. Should I
    sign up with my personal email?" asks about another (the dev set's d095 opened a wrong "Yes.")."""
    m = _CAPACITY.search(sentence)
    return bool(m) and not re.search(rf"\b{m.group(1)}\s+capacity\b", question, re.I)


_NUMBER = r"(\d+|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
#: A minimum count ("at least two performance reviews").
_MINIMUM = re.compile(rf"\b(?:at least|a minimum of|minimum of|no fewer than|no less than)\s+{_NUMBER}\s+"
                      r"([a-z]+(?:\s+[a-z]+){0,2})", re.I)
#: A count the question states ("one performance review"; joined to its noun: "a three-night work trip", fresh37's
#: f37-y07 against "Laundry expenses, if official travel is at least 4 nights").
_COUNT = re.compile(rf"\b{_NUMBER}(?:\s+|-)([a-z]+(?:\s+[a-z]+){{0,2}})", re.I)


def _value(word: str) -> float:
    """A count written in digits or as a number word ("two" -> 2)."""
    return float(word) if word.isdigit() else float(NUMBER_WORDS.get(word.lower(), -1))


def below_minimum(question: str, sentence: str) -> bool:
    """True when ``sentence`` states a minimum count of something ("at least two performance reviews each fiscal
    year") and the question asks about fewer of the same thing ("Is one performance review a year enough?"; a noun
    of the question's counted phrase names a noun of the minimum's, by stem): the asked count does not meet it
    (fresh6's y6-009 opened a wrong "Yes.")."""
    for m in _MINIMUM.finditer(sentence):
        needed, things = _value(m.group(1)), {stem(w) for w in content_terms(m.group(2))}
        for q in _COUNT.finditer(question):
            asked = _value(q.group(1))
            if 0 <= asked < needed and {stem(w) for w in content_terms(q.group(2))} & things:
                return True
    return False


#: A question asking about all of something ("Is all of the training ... mandatory?", "Are all the courses ...").
_ALL = re.compile(r"^\s*(?:is|are|do|does)\s+(?:all|every)\b", re.I)
#: A sentence saying a predicate holds of some of it only ("..., some of which are mandatory").
_SOME = re.compile(r"\b(?:some|only some|a few|several)\s+of\s+(?:which|them|these|those|the)\b([^.;]*)", re.I)


def some_for_all(clause: str, sentence: str) -> bool:
    """True when the asking ``clause`` asks whether something holds of all of a thing and ``sentence`` says it holds
    of some of it, naming the asked predicate after "some of ..." ("Is all of the training TTSC staff take
    mandatory?" / "TTSC staff have various training obligations, some of which are mandatory"): the answer is no
    (fresh6's y6-014 opened a wrong "Yes.")."""
    m = _SOME.search(sentence)
    if not _ALL.match(clause) or not m:
        return False
    words = content_terms(clause)
    return bool(words and content_terms(m.group(1)) & words)


#: "somewhere other than X", "anyone other than X" in a question: it asks about everything but X.
_OTHER_THAN = re.compile(r"\b(?:other than|besides|apart from|except)\s+([^?]+)", re.I)
_EXCEPTING = re.compile(r"\b(?:other than|besides|apart from|except|excluding|not)\b|n['’]t\b", re.I)


def names_excluded(clause: str, sentence: str) -> bool:
    """True when the asking ``clause`` asks about everything but something ("Are the required annual courses run
    somewhere other than GSA's Online University?") and ``sentence`` names that something without excepting or
    negating anything ("Required courses are conducted through GSA's Online University"): a sentence that would say
    yes of the named place says no of every other (fresh6's y6-016 opened a wrong "Yes.")."""
    m = _OTHER_THAN.search(clause)
    if not m or _EXCEPTING.search(sentence):
        return False
    excluded = content_terms(m.group(1))
    return bool(excluded) and excluded <= content_terms(sentence)


#: A sentence's "before" (or "after"), splitting the act it states from the one that comes later (earlier).
_BEFORE = re.compile(r"\b(?:before|prior to|after)\b", re.I)


def other_act_ordered(clause: str, sentence: str) -> bool:
    """True when the asking ``clause`` asks whether an act comes before (after) another ("Does 18F start project work
    before the IAA is signed?") and ``sentence`` orders some other act with that one ("Before we draft and sign an
    IAA ..., 18F usually spends a few hours meeting with the client"): the act the sentence puts first is not the
    asked one (a candidate verb of the question, grounding.yesno_action.asked_actions, not stated in the sentence's
    part outside its "before" phrase), so it settles nothing (fresh5's y5-005 and dev_s15's ds15-015)."""
    if not _BEFORE.search(clause) or not (m := _BEFORE.search(sentence)):
        return False
    if sentence[:m.start()].strip():
        main = sentence[:m.start()]
    else:
        rest = sentence[m.end():]
        main = rest.split(",", 1)[1] if "," in rest else ""
    verbs = _verbs(clause)
    return bool(verbs) and not all(_states(v, main) for v in verbs)


#: Words after a subject that asked_actions may take for a verb but that only quantify ("join every group").
_QUANTIFIERS = frozenset("every each all any some no the a an".split())


def _verbs(clause: str) -> tuple[str, ...]:
    """The candidate verbs of the asking ``clause`` (grounding.yesno_action.asked_actions) less quantifiers."""
    return tuple(v for v in asked_actions(clause) if v not in _QUANTIFIERS)


def _states(verb: str, text: str) -> bool:
    """True when ``text`` states ``verb`` in some form (grounding.yesno_action.action_unstated on a one-verb clause)."""
    return not action_unstated(f"Can I {verb} it?", text)


#: A definition: a subject, a copula, a noun phrase, then a relative word ("Affinity groups are spaces where ...").
_DEFINITION = re.compile(r"^\s*(?:[\w'’-]+\s+){1,4}(?:is|are)\s+(?:an?\s+|the\s+)?(?:[\w'’-]+\s+){0,3}[\w'’-]+\s+"
                         r"(?:where|in which|through which|that|which|who|for)\b", re.I)


def defines_only(clause: str, sentence: str) -> bool:
    """True when ``sentence`` defines something ("Affinity groups are spaces where employees of similar identities
    can talk freely ...") and does not state the action the asking ``clause`` asks about ("Can any TTS employee join
    every affinity group?": "join"): a definition says what a thing is, not who may do what with it (fresh5's
    y5-015 opened a wrong "Yes.")."""
    verbs = _verbs(clause)
    return bool(_DEFINITION.match(sentence)) and bool(verbs) and not all(_states(v, sentence) for v in verbs)


#: A negated requirement ("You do not need to change ...", "you don't have to ...", "is not required").
_NO_NEED = re.compile(r"\b(?:do|does|did|will)\s+not\s+(?:need|have)\s+to\b|\b(?:don|doesn|didn|won)['’]t\s+"
                      r"(?:need|have)\s+to\b|\bnot\s+(?:required|necessary|mandatory)\b|\bno\s+need\s+to\b", re.I)
#: Any other negation cue.
_OTHER_NEGATION = re.compile(r"\b(?:never|cannot|no|none|nothing|nor|unable|without)\b|can['’]t\b|mustn['’]t\b|"
                             r"\bmay\s+not\b|\bmust\s+not\b|\bshould\s+not\b|shouldn['’]t\b", re.I)


def unneeded_other_act(clause: str, sentence: str) -> bool:
    """True when the asking ``clause`` asks whether an act is allowed ("Can I write my password down?"), and the only
    negation of ``sentence`` says another act is not required ("You do not need to change your password on a
    schedule"): what one need not do says nothing of what one may do (the demo handbook opened a wrong "No.")."""
    if not re.match(r"^\s*(?:can|could|may)\b", clause, re.I) or not _NO_NEED.search(sentence):
        return False
    if _OTHER_NEGATION.search(_NO_NEED.sub(" ", sentence)):
        return False
    verbs = _verbs(clause)
    unneeded = [m.group(1) for m in _NO_NEED_OF.finditer(sentence)]
    # the act not required is one the question names ("Can I earn credit hours by staying late?" / "You are not
    # required to stay late, but ..."): the sentence speaks of it
    if any(_states(u, clause) for u in unneeded):
        return False
    return bool(verbs) and not any(_states(v, sentence) for v in verbs)


#: A closing ", not" phrase with a preposition ("create new projects as 18F, not as yourself").
_CLOSING_CONTRAST = re.compile(r",\s*not\s+(?:as|by|for|from|under|with)\s+([\w'’-]+(?:\s+[\w'’-]+)?)"
                               r"(?=\s*(?:[.;,)]|$))", re.I)
#: The asker's words for "you", "yourself" in a sentence.
_ASKER = re.compile(r"\b(?:I|me|my|myself|mine|own)\b", re.I)


def unasked_contrast(clause: str, text: str) -> str:
    """``text`` without a closing ", not as ..." phrase naming nothing the asking ``clause`` names ("Can any staff
    member create a repo in the organization?" / "Anybody can create repos in the organization and you should
    create projects as the organization, not as yourself": the phrase sets one way against another, it negates no
    predicate; fresh5's y5-001 opened a wrong "No."). Kept when the question names it ("Should I create the repo
    under my own account?": "yourself" is the asker)."""
    def keep_or_drop(m: re.Match) -> str:
        named = content_terms(m.group(1)) & content_terms(clause)
        asker = re.search(r"\byou(?:rself|r)?\b", m.group(1), re.I) and _ASKER.search(clause)
        return m.group(0) if named or asker else ""
    return _CLOSING_CONTRAST.sub(keep_or_drop, text)


#: The verb a negated requirement is of ("do not need to *change*").
_NO_NEED_OF = re.compile(r"(?:need|have|required|necessary|mandatory)\s+to\s+([a-z]+)", re.I)


#: Whose a thing is: the asker's own, or the employer's.
_OWN = r"(?:personal|own|home|private)"
_EMPLOYER = r"(?:company|work|government|office|agency|gsa|federal|government-issued|company-issued|issued)"
_OWNED = re.compile(rf"\b({_OWN}|{_EMPLOYER})\s+([a-z]+)", re.I)


def other_owner(clause: str, sentence: str) -> bool:
    """True when the asking ``clause`` asks about the asker's own thing ("Can I use my personal laptop for work?") and
    ``sentence`` speaks of the employer's one only ("Do not let family members or housemates use your company
    laptop"), or the other way round: a rule about the one says nothing of the other (the demo handbook opened a
    wrong "No." from it). Read on the noun right after the owner word, by stem."""
    def owned(text: str) -> dict[str, set[bool]]:
        out: dict[str, set[bool]] = {}
        for m in _OWNED.finditer(text):
            out.setdefault(stem(m.group(2).lower()), set()).add(bool(re.fullmatch(_OWN, m.group(1), re.I)))
        return out
    asked, said = owned(clause), owned(sentence)
    return any(noun in said and not said[noun] & mine for noun, mine in asked.items())


#: A question asking whether one thing counts as another ("Can emails count as supporting documentation for my
#: review?"): the thing, and what it would count as.
_COUNTS_AS = re.compile(r"^\s*(?:can|could|does|do|would|will)\s+(?P<thing>.+?)\s+(?:count|qualify|be\s+used)\s+as\s+"
                        r"(?P<kind>[^?]+)", re.I)
#: A sentence listing what a kind includes ("Examples of supporting documentation include emails, ...").
_INCLUDES = re.compile(r"^\s*(?:examples|types|kinds|forms)?\s*(?:of\s+)?(?P<kind>.+?)\s+(?:include|includes|"
                       r"can include|may include|could include)\s+(?P<items>.+)$", re.I)


def listed_as_kind(clause: str, sentence: str) -> bool:
    """True when the asking ``clause`` asks whether something counts as a kind of thing ("Can emails count as
    supporting documentation for my review?") and ``sentence`` lists that thing among what the kind includes
    ("Examples of supporting documentation include emails, written performance counseling, ..."): a yes, which a
    permission reading of "can" missed (dev_s15's ds15-022 had no opener)."""
    asked, said = _COUNTS_AS.match(clause), _INCLUDES.match(sentence)
    if not asked or not said:
        return False
    thing, kind = content_terms(asked.group("thing")), content_terms(asked.group("kind"))
    return bool(thing) and bool(kind & content_terms(said.group("kind"))) and thing <= content_terms(said.group("items"))


#: A phrase before the question proper, up to its comma ("As a supervisor, should I ...?").
_ADJUNCT = r"(?:[^,?]{1,40},\s*)?"
#: A requirement a question asks ("Should I still add ...?", "Do I have to add ...?").
_ASKS_DUTY = re.compile(rf"^\s*{_ADJUNCT}(?:should|must|shall)\b|\b(?:have|has|need|needs)\s+to\b", re.I)
#: An emphatic frame before an imperative's verb ("Be sure to balance it with taking time off").
_EMPHATIC = re.compile(r"^\s*(?:be\s+sure|make\s+sure|remember|always\s+remember)\s+to\s+", re.I)


def orders_asked_act(clause: str, sentence: str) -> bool:
    """True when the asking ``clause`` asks whether an act is required ("Should I still add the card to my Concur
    profile?") and ``sentence`` is an imperative opening with that act's verb ("Add your travel card to your Concur
    profile"), after a leading condition or not, its verb after an emphatic frame or not ("Be sure to balance it
    with taking time off", fresh13's f13-y10): an instruction states the requirement (dev_s15's ds15-009 had no
    opener). A negated imperative ("Don't add ...") opens otherwise and is not one."""
    verbs = _verbs(clause)
    main = _EMPHATIC.sub("", _LEADING_CONDITION.sub("", sentence, count=1), count=1)
    first = main.split(maxsplit=1)[0].lower() if main.strip() else ""
    if not verbs and (m := _DUTY_VERB.search(clause)):
        # a light verb ("make") names the act only with its object: the imperative names a word of it too
        verb = (m.group(1) or m.group(2)).lower()
        verbs = (verb,) if (content_terms(clause) - {stem(verb)}) & content_terms(main) else ()
    return bool(_ASKS_DUTY.search(clause)) and bool(verbs) and first in verbs


#: The verb right after a duty asked of the asker ("Should I *make* the interpreters co-hosts?", "Do I have to *get*
#: ..."), light verbs included: an imperative opening with it ("Make interpreters co-hosts of the meeting") orders
#: the act asked (fresh2's f2005 had no opener).
_DUTY_VERB = re.compile(rf"^\s*{_ADJUNCT}(?:should|must|shall)\s+(?:i|we)\s+([a-z]+)\b|"
                        r"\b(?:i|we)\s+(?:have|need)\s+to\s+([a-z]+)\b", re.I)
#: A leading condition with its comma ("If you want to attend a training event, discuss it with ...").
_LEADING_CONDITION = re.compile(r"^\s*(?:if|when|whenever|before|after)\b[^,;:]*[,;:]\s*", re.I)


#: The words a question asks a requirement with, whose antonym ("optional") a sentence may state.
_REQUIRING = frozenset(stem(w) for w in "must required mandatory necessary need".split())
_AUXILIARIES = frozenset("am is are was were be do does did have has had i you we".split())


def requirement_flip_fits(clause: str, asked: str, sentence: str) -> bool:
    """True when the asking ``clause`` asks whether something is required (``asked``, the word of it that
    grounding.polarity.antonym set against the sentence's: "required", "must") and ``sentence``, stating its
    antonym ("optional"), names every word of the thing asked about but the asked verbs and the -ing words
    ("Am I required to create a multi-day calendar event saying where I'm working from?" / "[Optional] Some folks
    also create a multi-day event on their calendars"; "Do I have to attach supporting documents to my performance
    review?" / "Supporting documentation ... is optional for the performance review process"): whether it is
    required is what the sentence says of that thing (fresh6's y6-002 and dev_s15's ds15-021 had no opener). A
    permission ("allowed" / "forbidden") still needs every word: "Smoking is forbidden inside" does not answer "Is
    smoking allowed outside?"."""
    if stem(asked.lower()) not in _REQUIRING:
        return False
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", clause)
    skipped = {stem(w.lower()) for w in words if w.lower().endswith("ing") or w.lower() in _AUXILIARIES}
    skipped |= {stem(v) for v in _verbs(clause)}
    thing = content_terms(clause) - content_terms(asked) - _REQUIRING - skipped
    return bool(thing) and thing <= content_terms(sentence)
