"""Quoting one sentence in an extractive answer: whether it says again what a chosen sentence says (a near-duplicate,
a piece of it), a list item or label read with the value it is listed under or with, and the sentence that goes on to
state the value of one that names the subject.

Used by grounding.extractive (one answer's sentences) and grounding.comparison (a comparison's two sides). No Django
imports.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from grounding.answer_types import states
from grounding.lexical import content_terms
from grounding.quotable import quotable
from grounding.sentence_cues import POINTS_BACK
from grounding.sentence_leads import heading_of, with_items
from grounding.sentence_rank import ScoredSentence
from grounding.types import ContextPlan, Source
from grounding.values import value_keys

__all__ = ["CONTINUATION_REACH", "NEAR_DUPLICATE_SHARE", "continuation", "goes_on", "list_after", "names_again",
           "refers_back", "repeats", "same_words", "under_heading", "with_antecedent", "with_list_after", "with_value"]


def same_words(text: str) -> str:
    """``text`` lower-cased with every run of non-word characters made one space: two sentences with equal keys say
    the same words."""
    return re.sub(r"\W+", " ", text.lower()).strip()


#: Share of the shorter sentence's content words (at least 5 of them) found in the other from which two sentences are
#: near-duplicates: the same statement worded again, often by another page ("If you are staying in the federal
#: government ..., it will be automatically transferred to your next agency" / "If your next role is still within
#: the federal government ..., it will be automatically transferred ...", 18F calibration half).
NEAR_DUPLICATE_SHARE = 0.75


def repeats(text: str, chosen: Sequence[ScoredSentence]) -> bool:
    """True when ``text`` says again what a chosen sentence says: the same words, one the start of the other (a
    sentence and its piece cut by a chunk boundary), ``text`` whole inside a chosen text read with the sentence after
    it ("Talent sends out a weekly TTS-wide email with all open roles. This goes out on Tuesday’s.", grounding.quoting
    .with_value: fresh39's f39-u12, a development set, quoted "This goes out on Tuesday’s" twice), or a near-duplicate
    (the same values, grounding.values.value_keys, and NEAR_DUPLICATE_SHARE of the content words of the shorter one)."""
    key, terms = same_words(text), content_terms(text)
    for c in chosen:
        other_key = same_words(c.text)
        if key.startswith(other_key) or other_key.startswith(key) or f" {key} " in f" {other_key} ":
            return True
        if value_keys(text) != value_keys(c.text):
            continue  # "up to 240 hours of advanced sick leave" / "up to 104 advanced sick leave hours": two facts
        other = content_terms(c.text)
        shorter = min(len(terms), len(other))
        if shorter >= 5 and len(terms & other) >= NEAR_DUPLICATE_SHARE * shorter:
            return True
    return False


def with_value(s: ScoredSentence, plan: ContextPlan, kind: str) -> ScoredSentence:
    """``s`` read with the value it is listed under or with; else ``s`` unchanged.

    A list item that does not state what ``kind`` asks for (a value: an amount, a duration, a date, a count ...; not
    a person) is read after the lead-in of its list when that one states it and no item in between does ("Three to
    five weeks in advance for:" / "Conference events that cost more than $2,500": the value written first, its cases
    as sub-items). Else a list item or sentence is read with the next sentence when that one is a short list item
    stating it ("Conference events that cost more than $2,500" / "Three to five weeks": a label and its value
    written as two items), or when that one, in the same paragraph, points back to it and states it ("You should get a
    message shortly after the competition closes." / "It could take a couple of days!").
    """
    source = plan.source_map.get(s.label)
    data = source.sentences if source is not None else None
    if data is None or s.kind not in ("item", "sentence") or states(kind, s.text):
        return s
    if s.kind == "item" and kind != "person":  # a value, not a name: "... in HR Links, ensure that you:" names no one
        i = s.position - 1
        while i >= 0 and data.kinds[i] == "item" and not states(kind, data.texts[i]):
            i -= 1
        if i >= 0 and data.kinds[i] == "lead" and states(kind, data.texts[i]):
            return replace(s, text=f"{data.texts[i].rstrip(':; ')}: {s.text}")
    if s.position + 1 >= len(data):
        return s
    following, its_kind = data.texts[s.position + 1], data.kinds[s.position + 1]
    if s.kind == "sentence" and its_kind == "sentence" and POINTS_BACK.match(following) \
            and states(kind, following) and _in_paragraph(source, s.position, s.position + 1):
        # "You should get a message shortly after the competition closes." / "It could take a couple of days!"
        # (fresh11's f11-c12, a development set: "How soon will I hear back ...?" was refused, the second one ranking
        # lower)
        return replace(s, text=f"{s.text} {following}")
    if its_kind != "item" or len(following.split()) > 8 or not states(kind, following):
        return s
    return replace(s, text=f"{s.text.rstrip('.:;, ')}: {following}")


#: A word that makes a list item a statement of its own ("You can share ...", "Laptops are replaced ...").
_STATES = re.compile(r"\b(?:is|are|was|were|can|cannot|can't|must|may|might|should|will|would|do|does|did|has|have|"
                     r"had)\b", re.I)


def under_heading(s: ScoredSentence, plan: ContextPlan) -> ScoredSentence:
    """``s`` read after the heading of its list when it is a bare noun phrase that only that heading gives a
    meaning; else ``s`` unchanged.

    A list item with no lead-in of its own and no closing punctuation ("Upgrades to business or first class (except
    as allowed above)" under "Non-reimbursable expenses", the demo handbook) is no statement: quoted alone for "Can I
    fly business class?" it read as if upgrades were allowed (the s22 round's new-user run). It is quoted as
    "<heading>: <item>", the heading being the last one written before it in its source's text (not the section path,
    which names only the first section of a merged source; a list opening its chunk stands under the chunk's own
    heading, grounding.sentence_leads.heading_of), unless the item already holds every content word of the
    heading or the heading is a question. An item ending with a full stop is a sentence and is quoted as it stands.
    """
    source = plan.source_map.get(s.label)
    data = source.sentences if source is not None else None
    text = s.text.rstrip()
    if data is None or s.kind != "item" or text.endswith((".", "!", "?", ":", ";")) \
            or s.position >= len(data.texts) or data.texts[s.position] != s.text:
        return s
    i = s.position - 1
    while i >= 0 and data.kinds[i] == "item":
        i -= 1
    if (i >= 0 and data.kinds[i] != "heading") or (i < 0 and _STATES.search(text)):
        return s  # a lead-in introduces it (grounding.quotable.quoted_text), or nothing does
    # the list opens the chunk: its heading is the chunk's own, in the section path, not in the text ("What counts
    # as an incident" > "- A lost or stolen laptop, phone or YubiKey" was quoted bare, the s27 new-user run); an
    # item stating something with its own verb ("You can share specific event invites ...") needs no heading
    heading = (data.texts[i] if i >= 0 else heading_of(data, s.position, source.section, source.sections))
    heading = heading.strip().lstrip("#").strip().rstrip(":")
    if not heading or heading.endswith("?") or content_terms(heading) <= content_terms(text):
        return s
    return replace(s, text=f"{heading}: {text}")


#: How many sentences after one naming a subject its value may come, in the same paragraph (:func:`continuation`).
CONTINUATION_REACH = 2


def continuation(s: ScoredSentence, plan: ContextPlan, kind: str,
                 ranked: Sequence[ScoredSentence]) -> ScoredSentence | None:
    """The sentence that goes on to state what ``kind`` asks for after ``s``, which names the subject but not the
    value; None when there is none.

    It is a sentence of ``ranked`` (the quotable sentences ranked for the question) from the same source, at most
    CONTINUATION_REACH sentences after ``s`` and in the same paragraph (no blank line between them), the first that
    states ``kind`` (grounding.answer_types.states): "But if you do drive, you may park at 355 McAllister Street. The
    hours for this underground parking structure are 6 a.m. to midnight M-F. Fees vary but $4.50 to $2.00 per hour
    ..." (the 18F development set, d033). Returned with the better of the two scores (it answers for ``s``).
    """
    source = plan.source_map.get(s.label)
    data = source.sentences if source is not None else None
    if data is None or states(kind, s.text) or s.position >= len(data.spans):
        return None
    by_position = {c.position: c for c in ranked if c.label == s.label}
    for position in range(s.position + 1, min(s.position + 1 + CONTINUATION_REACH, len(data.spans))):
        if not _in_paragraph(source, s.position, position):
            return None  # another paragraph
        following = by_position.get(position)
        if following is not None and following.kind == "sentence" and states(kind, following.text):
            return replace(following, score=max(s.score, following.score))
    return None


def _in_paragraph(source: Source, first: int, then: int) -> bool:
    """True when sentence ``then`` of ``source``'s sentence data is written in the same paragraph as sentence
    ``first`` before it (no blank line between them)."""
    spans = source.sentences.spans
    return "\n\n" not in source.text[spans[first][1]:spans[then][0]]


#: The words a sentence opens with when it refers back to the subject of the sentence before it.
_BACK = frozenset({"it", "this", "that", "these", "those", "they", "such"})


#: A share of a named thing ("75% of the daily allowance", "half of your remaining PTO"): its noun phrase.
_SHARE = re.compile(r"\b(?:\d+(?:\.\d+)?\s?%|half|a\s+(?:third|quarter))\s+of\s+(?:the|your|this|that)\s+"
                    r"((?:[A-Za-z-]+\s+){0,2}[A-Za-z-]+)", re.I)


def refers_back(then: str, first: str) -> bool:
    """True when sentence ``then`` opens by naming the subject of ``first`` again: a pronoun or a demonstrative ("It
    covers ...", "This limit ..."), or "The" and a noun ``first`` names ("The allowance covers ..." after "The daily
    meal allowance is $65 ..."), or a share of a thing ``first`` names ("you receive 75% of the daily allowance": the
    s46 new-user trial's "daily meal allowance on the last day" was refused). "You'll be asked if ..." refers back to
    nothing."""
    words = re.findall(r"[A-Za-z']+", then)[:2]
    if not words:
        return False
    if words[0].lower() in _BACK:
        return True
    if any(content_terms(m.group(1)) & content_terms(first) for m in _SHARE.finditer(then)):
        return True
    return words[0].lower() == "the" and len(words) > 1 and bool(content_terms(words[1]) & content_terms(first))


def goes_on(first: ScoredSentence, then: ScoredSentence, plan: ContextPlan) -> bool:
    """True when ``then`` is one of the CONTINUATION_REACH sentences after ``first`` in the same source and the same
    paragraph, and opens by naming ``first``'s subject again (:func:`refers_back`): it goes on about what ``first`` is
    about ("The daily meal allowance is $65 per day of travel." / "The allowance covers breakfast, lunch, dinner and
    snacks ..."). False when either is not a sentence of its source's sentence data."""
    source = plan.source_map.get(first.label)
    data = source.sentences if source is not None else None
    if data is None or then.label != first.label or not first.position < then.position < len(data.spans) \
            or then.position - first.position > CONTINUATION_REACH:
        return False
    return _in_paragraph(source, first.position, then.position) and refers_back(then.text, first.text)


def with_list_after(chosen: Sequence[ScoredSentence], plan: ContextPlan, limit: int, *,
                    reasons: bool = False) -> list[ScoredSentence]:
    """``chosen`` (an answer's sentences, best first) with the list its first sentence goes on into
    (:func:`list_after`) second, or the first sentence quoted with the items right after it (``reasons``: the
    question asks why), at most ``limit`` sentences; ``chosen`` unchanged when there is none or it is quoted
    already."""
    listed = list_after(chosen[0], plan, reasons=reasons) if chosen else None
    if listed is None:
        return list(chosen)
    if (listed.label, listed.position) == (chosen[0].label, chosen[0].position):
        return [listed, *chosen[1:]]
    if repeats(listed.text, chosen):
        return list(chosen)
    return [chosen[0], listed] + [c for c in chosen[1:] if c.position != listed.position or
                                  c.label != listed.label][:limit - 2]


def list_after(s: ScoredSentence, plan: ContextPlan, *, reasons: bool = False) -> ScoredSentence | None:
    """The list that ``s`` goes on into, quoted as its lead-in with its items ("The standard models are:
    Engineering and robotics roles: 16-inch MacBook Pro ...; All other roles: 14-inch MacBook Air ...", grounding.
    sentence_leads.with_items), when the sentence right after ``s`` in its source, in the same paragraph, is a
    lead-in followed by items; else None. "What laptop will I get?" quoted "Every employee receives one company
    laptop on their first day." and a sentence on returning an old laptop, not the models listed after it (the
    s22 round's new-user run on the demo handbook). With ``reasons`` (the question asks why), ``s`` itself quoted
    with the items right after it, when it is a sentence and items follow it: "Slack Connect is preferred over
    adding partners as guests: It offloads user management to the partner; ..." for "Why is that better than just
    making them guests?" (fresh39's f39-v04, a development set, quoted the sentence alone)."""
    source = plan.source_map.get(s.label)
    data = source.sentences if source is not None else None
    i = s.position + 1
    if reasons and data is not None and s.kind == "sentence" and i < len(data.texts) \
            and data.texts[s.position] == s.text and data.kinds[i] == "item":
        text = with_items(data, s.position, lambda t: quotable(t, "row", screened=data.screened))
        lead = s.text.rstrip(" :;")
        if text and lead.endswith(".") and text.startswith(f"{lead}: "):
            text = f"{lead[:-1]}: {text[len(lead) + 2:]}"  # "... as guests: It offloads ...", not "guests.: It"
        return replace(s, text=text) if text else None
    if data is None or s.kind != "sentence" or i + 1 >= len(data.texts) or data.texts[s.position] != s.text \
            or data.kinds[i] != "lead" or data.kinds[i + 1] != "item" or not _in_paragraph(source, s.position, i) \
            or not quotable(data.texts[i].rstrip(": "), "sentence", screened=data.screened):
        return None
    text = with_items(data, i, lambda t: quotable(t, "row", screened=data.screened))
    return replace(s, text=text, kind="lead", position=i) if text else None


def in_reading_order(chosen: Sequence[ScoredSentence]) -> list[ScoredSentence]:
    """``chosen`` with each sentence that points back to the one before it in its source (:func:`refers_back`, or a
    verb and its pronoun object: "Report it in #sec-incidents within 1 hour ...") placed after that one when both are
    chosen: "Details typically last for 120 days. The detail can be extended for another 120 days ..." reads as the
    page does. Otherwise the order is kept. (The offline answer leaves the order to a question asking what to do:
    "Report it in #sec-incidents within 1 hour" answers "What should I do if I lose my laptop?" first.)"""
    out = list(chosen)
    for s in chosen:
        before = next((b for b in out if b.label == s.label and b.position == s.position - 1), None)
        if before is None or out.index(before) < out.index(s) or \
                not (refers_back(s.text, before.text) or POINTS_BACK.match(s.text)):
            continue
        out.remove(before)
        out.insert(out.index(s), before)
    return out


#: A sentence opening with a participle adjective of a verb the sentence before it has ("Carried-over days must be
#: used by March 31" after "Up to 5 unused PTO days carry over ..."): it names that sentence's subject again.
_PARTICIPLE_OPENING = re.compile(r"^([A-Za-z]+ed)(?:-(?:over|out|in|up|back|off|forward))?\b")


#: A sentence opening by naming what the sentence before it says ("This is called the “time-in-grade” requirement").
_NAMING_OPENING = re.compile(r"^(?:this|that|these|it)\s+(?:is|are)\s+(?:also\s+)?(?:called|known\s+as|referred\s+to\s+"
                             r"as|termed)\b", re.I)


#: A sentence opening with a phrase that points at the case the sentence before it states ("For these meetings,
#: approval of both the Commissioner ... " after "... internal meetings that require the travel of more than six
#: employees or will cost more than $10,000": fresh38's f38-v10, a development set, quoted the approval alone).
_CASE_OPENING = re.compile(r"^(?:for|in|under|with|during|at)\s+(?:these|those|such)\s+(?:[a-z-]+\s+){0,2}?[a-z-]+s\b"
                           r"\s*,", re.I)


def names_again(then: str, first: str) -> bool:
    """True when sentence ``then`` opens with a participle of a verb ``first`` has ("Carried-over days ..." after
    "... days carry over ..."), or names what ``first`` says ("This is called the “time-in-grade” requirement" after
    "employees must be at their current GS level for one year ...": the s28 new user's office files quoted the name
    without the rule): what it is about is what ``first`` says."""
    if _NAMING_OPENING.match(then.strip()) or _CASE_OPENING.match(then.strip()):
        return True
    opening = _PARTICIPLE_OPENING.match(then.strip())
    return bool(opening) and bool(content_terms(opening.group(1)) & content_terms(first))


def with_antecedent(chosen: Sequence[ScoredSentence], ranked: Sequence[ScoredSentence],
                    plan: ContextPlan) -> list[ScoredSentence]:
    """``chosen`` with the sentence right before its first one in its source put before it, when the first opens
    with a participle of that sentence's verb (:func:`names_again`) in the same paragraph and it is not quoted
    already: "Can I carry them over?" after vacation days chose "Carried-over days must be used by March 31 or they
    expire." alone, without "Up to 5 unused PTO days carry over into the next calendar year ..." (the s24 round's
    demo run). Nothing chosen gives way. (Any sentence naming the one before it again, "The information above was
    sourced ...", "It also offers ...", was tried too: it changed 18 development answers and lost two right ones,
    f20r-v08 and f20c-12.)"""
    if not chosen:
        return list(chosen)
    first = chosen[0]
    before = next((s for s in ranked if s.label == first.label and s.position == first.position - 1), None)
    source = plan.source_map.get(first.label)
    if before is None or source is None or source.sentences is None or before.kind != "sentence" \
            or any(c.label == before.label and c.position == before.position for c in chosen) \
            or not _in_paragraph(source, before.position, first.position) or not names_again(first.text, before.text):
        return list(chosen)
    return [before] + list(chosen)
