"""Follow-up questions: is a question retrieved on its own, or with what it refers to in the conversation?

A question that stands on its own ("How long is paid parental leave?" after a question on hotels) is retrieved as
it is; a referring or elliptical one ("and for contractors?", "does that apply abroad?", "do they expire?", "Can I
carry unused days over?" after a question on military leave days) is retrieved with the previous question's terms.
The decision reads measured signals (see :func:`follow_up`): an elliptical opener, a referring word, a content word
shared with the previous question, how many content words the question has, and, when the only signal is a word
that may not refer at all ("it", "that", "there"), whether the question alone retrieves confidently. Rules and the
threshold were set on the calibration conversations of the 18F golden set; the model still receives the question
unchanged, only retrieval uses the query.

Query rewriting for conversational search: Vakulenko et al. 2021, "Question Rewriting for Conversational Question
Answering"; here offline, by term expansion (the model-backed rewrite is grounding.llm_checks.LLMQueryRewriter).
No Django imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

from grounding.lexical import content_terms
from grounding.followup_signals import (DETERMINED, EXPLETIVE, OBJECT_IT, OPENER, REFERRING, SUBJECT, SWITCH, WEAK,
                                       preamble_it)
from grounding.question_parts import specifics

#: Terms that say how much or how long rather than what about: sharing one does not tie two questions together.
GENERIC = content_terms("day days week weeks month months year years time times hour hours many much long often "
                        "get gets need needs use work employee employees staff gsa tts after before until per")
#: Words of a question that are never carried into a follow-up's query ("What's", "I'm").
_CONTRACTION = re.compile(r"^(?:what|who|where|when|how|why|which|it|that|there|i|you|we|they)['’](?:s|m|re|ve|d|ll)$",
                          re.I)
#: The best sentence relevance (cosine, grounding.ranking) at or above which a question that only has a weak
#: referring word, or fewer than SHORT content words, is taken to stand on its own. The calibration conversations of
#: the 18F golden set put their one such question at 0.74 and nothing between 0.55 and 0.74; 0.6 rather than 0.62
#: lets the demo handbook's "How long must passwords be?" (0.616, asked after a question on core hours) stand alone.
CONFIDENT = 0.6
#: A question with fewer content words than this cannot stand on its own.
SHORT = 3
#: How much more confidently (grounding.ranking.relevance of the best candidate) a short question without any
#: referring word, which alone does not retrieve confidently, must retrieve with the previous question's terms to be
#: taken as referring back; below it the question changes the topic. Measured on the development conversations and
#: the demo handbook's new-user run (s13): follow-ups gain 0.18-0.33 ("How long is the ride?" after the BART fare,
#: 18f_dev d070, 0.31; "Who is eligible?" after parental leave 0.33, "Do I need a doctor's note?" after sick days
#: 0.25, "Who pays for repairs?" after the laptop cycle 0.18), topic switches at most 0.05 ("What is the mileage
#: rate?" after a PTO question -0.04, "Who approves expenses?" 0.04, "Is there parking?" 0.04; every standalone
#: second turn of the calibration half and the development set at most 0.05). The calibration half has no such
#: question.
GAIN = 0.1


@dataclass(frozen=True)
class FollowUp:
    """The retrieval decision for one question.

    Attributes:
        query: what retrieval searches (the question, or the question plus the previous question's terms).
        refers: True when the question is retrieved with what it refers to.
        signal: why: "first" (no previous question), "opener", "referring", "shared", "short" (fewer than SHORT
            content words and no retrieval confidence to decide), "weak" (a weak referring word or a short
            question, and an unconfident retrieval of the question alone), "confident" (such a question, but it
            alone retrieves confidently), "unrelated" (a short question without any referring word, retrieved
            unconfidently alone, and hardly better with the previous question's terms: GAIN), "standalone", "switch"
            (it opens by saying it changes the topic: ``grounding.followup_signals.SWITCH``; the query leaves that
            opening out).
    """

    query: str
    refers: bool
    signal: str


#: Words that ask rather than name a subject ("What is ...", "How much ...").
ASKING_WORDS = content_terms("what which who whom when where why how much many long often soon far")


#: Words naming an attribute of a thing rather than the thing ("Is there a maximum value?", "What's the limit?",
#: "Is there a budget for it?"): a question naming nothing else asks about the previous question's subject.
ATTRIBUTES = content_terms("maximum minimum limit cap amount value cost price fee deadline total rate budget size "
                           "length number")


#: Words asking whom to turn to ("Who do I contact?", "Who can I talk to?", "Who do I call?"): a question naming nothing
#: else asks whom to turn to about the previous question's subject. Alone it retrieves the handbook's general contact
#: lines, and the previous question's terms, which describe a situation ("I lost my laptop on the train"), need not
#: retrieve better, so the retrieval gain (GAIN) cannot tell (the s24 round's run on the demo handbook: after the lost
#: laptop it quoted the People Operations contact). "report" is not one: "Who do I report to?" asks for a manager.
TURN_TO = content_terms("contact ask call email notify inform reach talk speak")


def own_terms(question: str) -> frozenset[str]:
    """The content terms a question names of its own subject: not its asking words nor GENERIC ones ("Can I work
    from home?" -> {"home"}; "Do they expire?" -> {"expir"})."""
    return content_terms(question) - GENERIC - ASKING_WORDS


def refers_back(question: str) -> bool:
    """True when ``question`` has a sure sign of continuing the conversation: an elliptical opener or a referring
    word ("they", "those", "the same", "it" not in "is it OK"), not only a confidence probe's verdict."""
    return elliptical(question) or bool(REFERRING.search(question)) \
        or bool(WEAK.search(EXPLETIVE.sub(" ", question)))


def elliptical(question: str) -> bool:
    """True when ``question`` continues the one before it with an elliptical opener ("and for contractors?", "what
    about sick days?", "In Denver?"): it asks what that question asked, of something else."""
    return bool(OPENER.search(question))


def _signal(question: str, previous: str) -> str:
    """The follow-up signal of ``question`` after the ``previous`` question (see :class:`FollowUp`), "uncertain" when
    it rests on a weak referring word only (then the question alone's retrieval confidence decides), "bare" for a
    short question without any referring word (then its confidence, and how much the previous question's terms
    add to it, decide)."""
    terms = content_terms(question)
    shared = terms & content_terms(previous) - content_terms("after before until")
    if SWITCH.match(question):
        return "switch"
    if OPENER.search(question):
        return "opener"
    if REFERRING.search(question):
        return "referring"
    if (mine := own_terms(question)) and mine <= TURN_TO:
        return "referring"  # "Who do I contact?": about what the previous question asked
    if (it := OBJECT_IT.search(question)) and len(own_terms(question)) <= SHORT + 1 \
            and not DETERMINED.search(question[:it.start()]):
        # a short question doing something with "it" ("Do I have to change it every 90 days?" after the password's
        # length): alone it retrieved "You must change it immediately if ..." confidently, on the shared pronoun (the
        # s30 round's new user on the demo handbook: no "No."); a longer one, or one naming a thing before "it" ("can
        # I delete a message once I've posted it?", 18f_dev's d044), may say what "it" is itself
        return "referring"
    if preamble_it(question) is not None:
        # the asker's situation before the question does something with "it" ("I might not touch it for a few months.
        # How often do I need to sign in ...?" after "Where do I log in to Qualtrics?"): the thing was named before,
        # in the conversation (fresh38's f38-v01, a development set, was retrieved on its own and quoted another
        # tool's password rule)
        return "referring"
    if SUBJECT.search(EXPLETIVE.sub(" ", question)):
        # "Is that paid out if I leave GSA?" after a question on credit hours: alone it retrieves the comp time
        # sentence confidently, so its confidence cannot say it stands alone; what it asks about is named before
        return "referring"
    if not shared - GENERIC and set(specifics(question)) - set(specifics(previous)):
        # it names its own subject ("How much is a Divvy day pass in Chicago?" after a question on badge days): a
        # generic word shared ("day") does not tie it to the previous question
        return "standalone"
    weak = bool(WEAK.search(EXPLETIVE.sub(" ", question)))
    if shared - GENERIC and not weak and len(terms) >= SHORT + 2 \
            and set(specifics(question)) - set(specifics(previous)):
        # a long question naming a subject of its own that the previous one did not name, with no referring word,
        # and one topic word in common ("What does an 18F Path Analysis usually deliver?" after "How often does 18F
        # leadership review the project health reports?"): the shared word may only be the setting both are asked
        # in, so how confidently it alone retrieves decides
        return "uncertain"
    if shared - GENERIC:
        return "shared"  # a topic word of the previous question
    if shared and len(terms) <= SHORT + 1:
        # a generic one ("days") in a short question: "Can I carry unused days over?" refers back, "How many vacation
        # days do I get?" after "What happens on Day 1?" does not (the demo, s17: it was retrieved with "happens 1"
        # and quoted the sick days credited on "January 1"); how confidently it retrieves alone decides
        return "bare"
    if len(terms) < SHORT:
        # a short question with a weak referring word refers back ("How long does that take?"); without one it may
        # stand on its own ("How long must passwords be?", "How many sick days do I get?"): how confidently it
        # alone retrieves decides, as for a longer question whose only signal is a weak referring word
        return "short" if weak else "bare"
    return "uncertain" if weak else "standalone"


def probe_queries(question: str, previous_questions: Sequence[str]) -> tuple[str, ...]:
    """The queries whose retrieval confidence :func:`follow_up` may ask for, so a caller that retrieves
    asynchronously can measure them first: () when the decision needs none; the question alone when its only signal
    is a weak referring word; the question alone and the question with the previous question's terms when it is
    short and has no referring word at all."""
    if not previous_questions:
        return ()
    previous = _resolved(previous_questions)
    signal = _signal(question, previous)
    if signal == "bare":
        return question, _expanded(question, previous)
    return (question,) if signal == "uncertain" else ()


def needs_confidence(question: str, previous_questions: Sequence[str]) -> bool:
    """True when :func:`follow_up` would ask for a retrieval confidence (:func:`probe_queries`)."""
    return bool(probe_queries(question, previous_questions))


def follow_up(question: str, previous_questions: Sequence[str], *,
              confidence: Callable[[str], float] | None = None) -> FollowUp:
    """Decide how ``question`` is retrieved after ``previous_questions`` (oldest first).

    Args:
        confidence: the best relevance a query retrieves (e.g. the best-sentence cosine of its top candidate),
            asked of the queries :func:`probe_queries` names: the question alone, when the decision rests on a weak
            referring word (without it such a question is taken to refer back when it has fewer than SHORT + 2
            content words), and also the question with the previous question's terms, for a short question without
            any referring word (without it such a question refers back).
    """
    if not previous_questions:
        return FollowUp(question, False, "first")
    previous = _resolved(previous_questions)
    signal = _signal(question, previous)
    if signal == "bare":
        if confidence is None:
            signal = "short"
        elif (alone := confidence(question)) >= CONFIDENT:
            signal = "confident"
        else:
            signal = "weak" if confidence(_expanded(question, previous)) - alone >= GAIN else "unrelated"
    elif signal == "uncertain":
        if confidence is not None:
            signal = "confident" if confidence(question) >= CONFIDENT else "weak"
        elif len(content_terms(question)) < SHORT:
            signal = "short"
        else:
            signal = "weak" if len(content_terms(question)) < SHORT + 2 else "confident"
    if signal == "switch":
        return FollowUp(SWITCH.sub("", question, count=1) or question, False, signal)
    if signal in ("confident", "standalone", "unrelated"):
        return FollowUp(question, False, signal)
    return FollowUp(_expanded(question, previous), True, signal)


#: How many earlier questions a chain of follow-ups is resolved through ("What is the hotel limit?" / "What about in
#: Seattle?" / "And what was it in 2024?").
CHAIN = 4


def _resolved(previous_questions: Sequence[str]) -> str:
    """The previous question as retrieval read it: with what it referred to when it was itself a follow-up by a sure
    signal (an elliptical opener, a referring word, a shared topic word, a weak referring word in a short question:
    not one a confidence probe decided, which history does not keep), through up to CHAIN questions. "And what was
    it in 2024?" after "What about in Seattle?" after "What is the hotel limit?" is retrieved with "Seattle" and
    "hotel limit" (the s13 new-user run: with "Seattle" alone it found nothing and was refused); "How do I request
    it?" after "Is there a budget for it?" after "What home office equipment can I get?" with "home office" (the s23
    new-user run: with "budget" alone it was refused)."""
    chain = list(previous_questions[-CHAIN:])
    text = chain[0]
    for earlier, later in zip(chain, chain[1:]):
        text = _expanded(later, text) if _signal(later, earlier) in ("opener", "referring", "shared", "short") \
            else later
    return text


def _expanded(question: str, previous: str) -> str:
    """The question followed by the previous question's content words it lacks, less the words the question
    replaces: "Is there a similar limit for sick leave?" after "How much annual leave can I carry over?" drops
    "annual" (the question names "sick" before the same "leave")."""
    terms = content_terms(question)
    words = re.findall(r"[A-Za-z0-9$%][\w$%'’-]*", previous)
    replaced = set()
    for i, word in enumerate(words[1:], 1):
        if content_terms(word) & terms:  # a head the question shares: the word before it in the previous question
            before = words[i - 1]  # is replaced when the question puts another word before that head
            mine = re.search(rf"(\S+)\s+{re.escape(word)}\b", question, re.I)
            if mine and content_terms(mine.group(1)) and not content_terms(mine.group(1)) & content_terms(before):
                replaced.add(before.lower())
    replaced |= _parallel_arguments(question, previous)
    extra = [w for w in dict.fromkeys(w for w in words if content_terms(w) and not _CONTRACTION.match(w))
             if not (content_terms(w) & terms) and w.lower() not in replaced]
    return f"{question} {' '.join(extra)}".strip() if extra else question


#: A preposition and the words after it up to punctuation (at most three): "for Solutions", "in New York City". The
#: particle of a phrasal verb is none ("sign in so I don't get locked out" puts nothing in place of "log in to
#: Qualtrics": fresh38's f38-v01, a development set, lost "Qualtrics" from its query).
_PHRASE = (r"(?<!\blog )(?<!\bsign )(?<!\bcheck )(?<!\bfill )(?<!\bturn )(?<!\bhand )(?<!\bopt )(?<!\bplug )"
           r"(?<!\bclock )(?<!\blogged )(?<!\bsigned )(?<!\bfilled )(?<!\bturned )"
           r"\b(for|in|at|on|from|with)\s+((?:[A-Za-z0-9$][\w$'’&-]*\s*){1,3})")


def _parallel_arguments(question: str, previous: str) -> set[str]:
    """The previous question's words (lower case) that the question puts another argument in place of, after the
    same preposition: "How about for Solutions?" after "Who is TTS Outreach's point person for 18F?" replaces "18F"
    (fresh16's f16-c07, a development set: the query kept "18F" and found "2015: 18F joins TTS Solutions"); "What
    about in Seattle?" after "... in New York?" replaces "New York". Words both name are kept, a pronoun ("on it")
    refers back and replaces nothing (fresh23c's f23c-03), and a time ("in 2024") stands beside a place ("in
    Seattle"), not in place of it."""
    mine = {m.group(1).lower(): m.group(2) for m in re.finditer(_PHRASE, question, re.I)}
    out: set[str] = set()
    for m in re.finditer(_PHRASE, previous, re.I):
        own = mine.get(m.group(1).lower())
        if own and content_terms(own) and not content_terms(own) & content_terms(m.group(2)) \
                and bool(_TIME.search(own)) == bool(_TIME.search(m.group(2))):
            out |= {w.lower() for w in m.group(2).split() if content_terms(w)}
    return out


#: An argument naming a time ("in 2024", "in FY25", "in March", "on the last day"): it stands beside a place or a
#: thing ("on meals"), not in place of it.
_TIME = re.compile(r"\b(?:(?:19|20)\d\d|FY\s?\d+|january|february|march|april|may|june|july|august|september|"
                   r"october|november|december|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|days?|weekdays?|weeks?|"
                   r"weekends?|months?|years?|mornings?|evenings?|nights?)\b", re.I)


def retrieval_query(question: str, previous_questions: Sequence[str]) -> str:
    """The query retrieval uses for ``question`` (offline; see :func:`follow_up`, without a confidence probe)."""
    return follow_up(question, previous_questions).query
