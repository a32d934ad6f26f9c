"""Whether a sentence that would open a yes/no answer with "Yes." or "No." speaks to what is asked and to the asker's
case, and which of its clauses answers (grounding.yesno reads the polarity of that clause).

- A leading condition other than the situation the question states ("If you do any work with git repos on your
  local computer, you need to set up commit signing" for "If I only use GitHub through the website, do I have to
  set up commit signing?"): the rule holds for another case than the asker's, so it settles nothing
  (:func:`condition_unmet`).
- A sentence opening with a connective that makes it the alternative to the sentence before ("Instead, they should
  be published on TTS websites"): what it says is what to do *instead of* the asked thing (:func:`contrasted`); it
  settles neither "Yes." nor "No.".
- A sentence of two clauses joined by "; however," or ", but" of which one holds every word of the question's
  asking clause that the other does, and more ("You are allowed to have advanced leave; however, you cannot borrow
  more leave than you would earn"): that clause answers; the other adds a limit (grounding.yesno_answering.answering_clause).
- A sentence opening with a concessive clause ("Although you can't share all of your events outside GSA, you can
  share your free / busy times"): the clause about what is asked decides, the main one unless the concession holds
  more of the question's words (:func:`concession_or_main`; the s11 fresh yes/no set, f004).
- A question negated ("... without paying for it?") and a sentence that is not, naming nothing of what the question
  negates: the sentence says nothing of it, so no "No." (:func:`negated_part_unstated`).
- A question asking permission or a requirement ("Can I ...?", "Do I have to ...?") and a sentence stating neither
  ("Can I commit an API key?" / "Signing your commits requires a pair of keys" states a requirement of something
  else): no "Yes." (:func:`modality_unstated`); a question asking only a requirement and a sentence negating
  something else ("Do I have to add my comp hours myself?" / "HR Links is not connecting comp hours to your
  timesheet"): no "No." (:func:`requirement_unstated`). The modality words are closed-class (modal verbs and
  their adjectives), the modality feature of de Marneffe et al. 2008.
- A question asking permission and a sentence prohibiting what it asks with a word that is no negation cue ("Can I
  delete a message once I've posted it?" / "Users are prohibited from deleting messages"): "No."
  (:func:`prohibits_asked`), as a negated permission would say.

No Django imports.
"""

from __future__ import annotations

import re
from typing import Callable

from grounding.lexical import content_terms
from grounding.yesno_asking import negated_head

#: Negation cues (de Marneffe et al. 2008, "Finding Contradictions in Text": polarity by negation words).
NEGATION = re.compile(r"\b(?:not|no|never|none|nothing|neither|nor|cannot|without|unable)\b|n['’]t\b"
                      # verbs that negate the action they take as object ("Can contractors skip the security
                      # policy?" asks whether they may not follow it; "You may skip the survey")
                      r"|\b(?:skip|skips|skipped|skipping|waive|waives|waived|bypass|bypasses|bypassed|opt\s+out)\b",
                      re.I)
#: A noun phrase set against another by "and not a/an" ("adding your partner as a guest and not an anonymous user"):
#: it picks one of two things, it negates no predicate (the s11 fresh yes/no set, f007).
NOUN_CONTRAST = re.compile(r"\band not an?\s+[\w-]+(?:\s+[\w-]+)?", re.I)
#: A clause describing a noun by where someone is not, its preposition left at its end ("mention them in channels
#: they're not in, and ..."): it says which channels, it negates nothing of the main clause (the s14 fresh3 set's
#: f3003 opened "No." to "Can I mention a teammate in a channel they're not in?" from it).
STRANDED_NEGATION = re.compile(r"(?<=\w)\s+(?:I|you|we|they|he|she)(?:['’](?:re|s|m)\s+not|\s+(?:are|is|am|was|were)"
                               r"(?:n['’]t|\s+not))\s+(?:in|on|at|part\s+of|a\s+member\s+of|invited\s+to)"
                               r"(?=\s*(?:[,.;:)!?]|\band\b|\bor\b|$))", re.I)

#: How similar (a sentence-embedding cosine, -1..1) a leading condition must be to the question, when it shares no
#: content word with the question's situation, to be read as the asker's case all the same (a paraphrase: "If you
#: are a new parent" / "I just had a baby"). On the 18F calibration half and development file every condition of a
#: right "Yes." to a question stating a situation shares a content word with it (none needs this); the one that
#: shares none and is another case than the asker's has 0.51 ("you do any work with git repos on your local
#: computer" / "If I only use GitHub through the website").
CONDITION_SIMILARITY = 0.6

#: A leading condition: "If ...,", "When ...," up to the first comma, semicolon or colon (the sentence's main clause
#: follows).
_LEADING_CONDITION = re.compile(r"^\s*(?:if|when|whenever)\b([^,;:]*)[,;:]\s*\S", re.I)

#: A sentence opening as the alternative to the one before it.
_CONTRAST_OPENER = re.compile(r"^\s*(?:instead|otherwise|rather)\b", re.I)



def condition_unmet(question: str, asking: str, sentence: str, similarity: Callable[[str, str], float] | None = None,
                    *, floor: float = CONDITION_SIMILARITY) -> bool:
    """True when ``sentence`` opens with a condition ("If ...,", "When ...,") and the question states a situation of
    its own (content terms outside its asking clause ``asking``, grounding.yesno.asking_clause: "If I only use GitHub
    through the website, ...") that shares no content word with the condition (grounding.lexical.content_terms)
    and, when ``similarity`` (a function of two texts returning their cosine) is given, is under ``floor`` similar
    to it; or that shares a content word with it and exactly one of the two is negated ("Do I have to tell GSA about
    international travel if I don't hold a clearance?" / "If you are traveling internationally and hold a security
    clearance, you are required to notify GSA"). False for a sentence without a leading condition, and for a question
    stating no situation: "Does my annual
    leave transfer?" is answered by "If you are staying in the federal government ..., your annual leave will be
    transferred" for the usual case."""
    m = _LEADING_CONDITION.match(sentence)
    if not m:
        return False
    condition = content_terms(m.group(1))
    situation = content_terms(question) - content_terms(asking)
    if condition & situation:
        # the same case, unless one of the two negates it ("... if I don't hold a clearance?" / "If you are
        # traveling internationally and hold a security clearance, you are required to notify GSA")
        return negates_terms(question, condition & situation) != bool(NEGATION.search(m.group(1)))
    if not condition or not situation:
        return False
    return similarity is None or similarity(m.group(1), question) < floor


def negates_terms(text: str, terms: frozenset[str]) -> bool:
    """True when a negation cue in ``text`` has one of ``terms`` among the four words after it ("if I don't hold a
    clearance" negates "hold", "clearance"; "the comp time I haven't used" negates neither "leave" nor "GSA")."""
    return any(content_terms(" ".join(text[m.end():].split()[:4])) & terms for m in NEGATION.finditer(text))


def contrasted(sentence: str) -> bool:
    """True when ``sentence`` opens with "Instead", "Otherwise" or "Rather": it states the alternative to what the
    sentence before it says, and affirms or denies nothing about that."""
    return bool(_CONTRAST_OPENER.match(sentence))


#: A leading concessive clause with its comma ("Although you can't share all of your events, ").
_CONCESSIVE = re.compile(r"^\s*(?:although|though|even though|whereas)\b([^,;:]*),\s*(?=\S)", re.I)


def concession_or_main(question: str, sentence: str) -> str:
    """Of a sentence opening with a concessive clause ("Although you can't share all of your calendar events with
    people outside GSA, you can share your free / busy times"), the clause about what the question asks: the main
    clause (it asserts) unless the concession holds more of the question's content words ("Can I share all my
    calendar events ...?" is answered by what is conceded: no). Any other sentence as it is."""
    m = _CONCESSIVE.match(sentence)
    if not m:
        return sentence
    asked = content_terms(question)
    main, conceded = sentence[m.end():], m.group(1)
    return main if len(content_terms(main) & asked) >= len(content_terms(conceded) & asked) else conceded




#: What a yes/no question asks of its subject, read from its asking clause: whether it may (permission: "Can I ...?",
#: "Am I allowed to ...?", "Is it okay to ...?") or must (requirement: "Do I need to ...?", "Does it have to ...?",
#: "Should I ...?") do what it names. A question asking neither ("Is bike parking free?", "Will I get paid ...?")
#: is not read for it.
#: A prepositional phrase opening a question, closed by a comma ("Under the July 2021 travel guidance, can I
#: travel ...?"): the modal after it opens the asking clause (a clause before the comma, "is turned into a guest,
#: can they ...", is not such a phrase).
LEADING_PHRASE = (r"(?:(?:under|for|during|in|on|at|after|before|per|according\s+to|with|without|as|from|since|by|"
                  r"within|outside|inside)\b[^,?]*,\s*)")
ASKS_PERMISSION = re.compile(rf"^\s*{LEADING_PHRASE}?(?:can|could|may)\b|\b(?:allowed|permitted|okay|ok|fine|able|"
                             r"eligible)\b", re.I)
_ASKS_REQUIREMENT = re.compile(rf"^\s*{LEADING_PHRASE}?(?:must|should|shall)\b|\b(?:need|needs|have to|has to|"
                               r"required|mandatory|"
                               r"necessary|obligated)\b", re.I)
_HAVE_TO = re.compile(r"\b(?:have|has|need|needs)\s+to\b", re.I)


def as_must(asking: str) -> str:
    """The asking clause with a requirement asked by "have to" or "need to" written "must" ("Do I have to attach
    documents?" -> "Do I must attach documents?"), so that grounding.polarity reads "optional" as its opposite
    ("Supporting documentation is optional" answered "Yes." to it: the s15 round's development question ds15-021)."""
    return _HAVE_TO.sub("must", asking)


#: How a sentence grants or denies permission, or states a requirement or its absence ("optional") (its modality
#: words, de Marneffe et al. 2008's modality feature).
_STATES_PERMISSION = re.compile(r"\b(?:can|could|may|allowed|allows?|permitted|permits?|permission|able|free to|"
                                r"okay|ok|fine|eligible|available|welcome|get to|entitled|prohibit|prohibits|"
                                r"prohibited|forbid|forbids|forbidden|banned)\b|can['’]t|cannot", re.I)
STATES_REQUIREMENT = re.compile(r"\b(?:must|need|needs|needed|requires?|required|requirement|have to|has to|"
                                r"mandatory|necessary|should|expected|obligated|shall|optional|voluntary|skip|waived?|"
                                r"opt\s+out)\b", re.I)
#: A requirement said to be possible ("you may need to modify the contract", "you might have to"): it grants no
#: permission (the s14 fresh3 set's f3022 opened "Yes." to "can our product lead modify it?" from it).
_POSSIBLE_NEED = re.compile(r"\b(?:may|might|could)\s+(?:also\s+)?(?:need|have|be\s+required|be\s+asked)\s+to\b", re.I)
#: A clause of what follows something else ("before it can be used", "until it is approved").
_LATER = re.compile(r"\b(?:before|until|till)\b[^,;.]*", re.I)
#: A prohibition in the imperative ("Do not turn off your computer", "Please don't include it in Slack"): it denies
#: permission and states a requirement at once.
_PROHIBITION = re.compile(r"^\s*(?:please\s+)?(?:do not|don['’]t|never)\b", re.I)
#: A negation in a question asking permission ("Can I archive it without asking for approval?", "Can I skip ...?"):
#: it asks whether something is not required, which a sentence stating a requirement settles.
_WITHOUT = re.compile(r"\b(?:without|not|skip|no)\b|n['’]t\b", re.I)


def modality_unstated(asking: str, sentence: str) -> bool:
    """True when the asking clause ``asking`` (grounding.yesno.asking_clause) asks permission or a requirement and
    ``sentence`` states neither that nor, for a question asking permission without something ("Can I archive it
    without approval?" / "No approval is needed to archive"), a requirement: "Can I commit an API key into the
    repository?" is not answered yes by "Signing your commits requires creating a pair of keys", nor "Does our office
    have to pay for the interpreter?" by "An interpreter can be provided". A prohibition in the imperative ("Do not
    turn off your computer") states both; a permission said only in a clause of what follows something else ("this
    software will need to be purchased before it can be used") or in its leading condition grants nothing. The
    sentence then settles no "Yes." (for "No.", see :func:`requirement_unstated`)."""
    permission = bool(ASKS_PERMISSION.search(asking))
    requirement = bool(_ASKS_REQUIREMENT.search(asking))
    if not (permission or requirement) or _prohibits(sentence):
        return False
    if requirement and STATES_REQUIREMENT.search(sentence):
        return False
    # a permission said only of what follows something else ("... will need to be purchased before it can be used")
    # or in the sentence's leading condition ("If GSA does not have any available licenses, ...") is not granted
    if permission and (_STATES_PERMISSION.search(_LATER.sub(" ", _CONDITION_OPENING.sub("", _POSSIBLE_NEED.sub(
            " ", sentence), count=1)))
                       or (_WITHOUT.search(asking) and STATES_REQUIREMENT.search(sentence))
                       or _action_stated(asking, sentence)):
        return False
    return True


#: "Can I ...", "May we ...": the modal and its subject before the asked action.
_MODAL_SUBJECT = re.compile(r"^\s*(?:can|could|may)\s+(?:i|we|you|they|he|she|[\w-]+)\s+", re.I)


def _action_stated(asking: str, sentence: str) -> bool:
    """True when a "Can I <action>?" question's action (at least two content words) is all stated by the sentence:
    "Can I carry over unused PTO?" / "Up to 5 unused PTO days carry over into the next calendar year" says the
    days do carry over, no modal needed (s11 new user on the demo handbook), where "Can I commit an API key into the
    repository?" / "Signing your commits requires a pair of keys" states another action."""
    m = _MODAL_SUBJECT.match(asking)
    if not m:
        return False
    action = content_terms(asking[m.end():])
    return len(action) >= 2 and action <= content_terms(sentence)


def negated_part_unstated(asking: str, clause: str) -> bool:
    """True when the asking clause ``asking`` is negated, the sentence's deciding ``clause`` (grounding.yesno.
    deciding_clause) is not, and the clause names none of what the question negates (the content terms after its
    negation cue): "Can any employee use Qualtrics without paying for it?" is not answered no by "The Qualtrics page
    has detailed information on how to request a license", which says nothing of paying; nor, after "without", the
    action left undone ("without directly contacting our employer" / "... your employer must start negotiating"). The
    polarities differ only because the sentence does not speak of what is negated; it settles no "No."."""
    m = NEGATION.search(asking)
    if not m or NEGATION.search(clause):
        return False
    negated = content_terms(asking[m.end():])
    if not negated:
        return False
    said = content_terms(clause)
    # after "without", the action left undone must itself be named: "Can we request this agreement without directly
    # contacting our employer?" is not answered no by "... your employer must start negotiating with you", which
    # names the employer but not contacting them (ConditionalQA calibration record 241). (A verb cue, "skip the
    # security policy", negates itself: what follows is its object.)
    head = negated_head(asking[m.end():]) if m.group(0).lower() == "without" else None
    # ... and what it is done for or to: "without asking for approval" is not answered no by "Feel free to do so
    # yourself, or ask #admins-github for help", which asks for help (the development set's d016); an adverb in
    # "-ly" names no part of the act
    acted = content_terms(" ".join(w for w in asking[m.end():].split() if not w.lower().endswith("ly")))
    return not negated & said or (head is not None and (head not in said or not acted <= said))


def requirement_unstated(asking: str, sentence: str) -> bool:
    """True when the asking clause asks only whether something is required ("Do I have to add my comp time to my
    timesheet myself?") and ``sentence`` states no requirement nor a prohibition in the imperative: its negation
    ("HR Links is not connecting comp time hours to your timesheet") is of something else than the requirement
    asked, so it settles no "No.". (A question asking permission is answered no by a plain negated fact as well:
    "Can I expense alcohol?" / "Alcohol is not reimbursed.")"""
    return bool(_ASKS_REQUIREMENT.search(asking)) and not ASKS_PERMISSION.search(asking) \
        and not _prohibits(sentence) and not STATES_REQUIREMENT.search(sentence)


def _prohibits(sentence: str) -> bool:
    """True when ``sentence``'s main clause (after a leading condition) is a prohibition in the imperative: "If you
    detect unusual activity on your computer, DO NOT turn off your computer"; or when a parenthesis of it is one:
    "You can sign into your account using your GSA email login credentials (do not sign in with SSO)" (the fresh
    yes/no set's f020, fresh2's f2021)."""
    return bool(_PROHIBITION.match(_CONDITION_OPENING.sub("", sentence, count=1))) \
        or any(_PROHIBITION.match(inner) for inner in _PARENTHESIS.findall(sentence))


#: The text of a parenthesis.
_PARENTHESIS = re.compile(r"\(([^()]*)\)")


#: A leading condition with its comma ("If you detect unusual activity, ").
_CONDITION_OPENING = re.compile(r"^\s*(?:if|when|whenever)\b[^,;:]*[,;:]\s*", re.I)


#: Words that deny a permission without a negation cue.
_PROHIBITED = re.compile(r"\b(?:prohibited|forbidden|banned|barred|disallowed)\b", re.I)
_WORDS = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def prohibits_asked(asking: str, sentence: str) -> bool:
    """True when the asking clause asks permission ("Can I delete a message?") and ``sentence`` prohibits what it asks:
    a prohibition word (prohibited, forbidden, banned, barred, disallowed) with a content word of the asking clause
    within four words of it on either side ("Users are prohibited from deleting messages", "Smoking is forbidden
    indoors" for "May I smoke indoors?" does not: "smoking"/"smoke" share their stem, so it does)."""
    if not ASKS_PERMISSION.search(asking) or not _PROHIBITED.search(sentence):
        return False
    asked = content_terms(asking)
    words = _WORDS.findall(sentence)
    for i, word in enumerate(words):
        if _PROHIBITED.fullmatch(word) and content_terms(" ".join(words[max(0, i - 4):i] + words[i + 1:i + 5])) & asked:
            return True
    return False
