"""The list a sentence announces: "GSA allows all 5 types of flexible schedules." / "You will need the following:"
followed, in the same source, by list items or by sub-headings (one heading per kind of thing, each with its own
text), so that a list question is answered with the list, not with the sentence that announces it.

    announces_list("The office offers three kinds of desks.")       -> 3
    announces_list("Bring the following:")                           -> 0 (a list of unknown length)
    announces_list("Desks are assigned daily.")                      -> None
    announced_items(texts, kinds, position)                          -> ["Standing", "Sitting", "Shared"]

A list written across several chunks is named from the document's outline (its section paths, stored with each
version at ingestion; :func:`outline_of`, :func:`outline_near`): the chunk that announces "all 5 types" knows the
names of the five sub-sections even when three of them are written in chunks the plan does not hold
(:func:`announced_list`), and a question naming a section ("the glossary") gets its sub-headings
(:func:`headed_list`).

Written from the shapes of announced lists in Markdown pages (a count and a collective noun, "the following", a
lead-in ending with a colon, sub-headings); no rule names a word of a particular document. No Django imports.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from grounding.answer_types import question_sentence
from grounding.lexical import content_terms

#: Count words and their numbers ("three" -> 3), zero to twelve.
COUNT_WORDS = {w: i for i, w in
               enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
#: Collective nouns a count announces a list of ("5 types of", "three kinds of", "four pieces of paperwork").
_COLLECTIVE = (r"(?:types|kinds|sorts|forms|categories|classes|options|choices|ways|methods|steps|stages|phases|"
               r"levels|tiers|pieces|items|things|parts|components|elements|properties|principles|documents|"
               r"requirements|criteria|conditions|tools|topics|areas|groups|roles|values|rules|questions|sections)")
_COUNTED = re.compile(rf"\b(\d{{1,2}}|{'|'.join(COUNT_WORDS)})\s+(?:[\w-]+\s+){{0,2}}?{_COLLECTIVE}\b", re.I)
_FOLLOWING = re.compile(r"\b(?:the following|as follows|listed below|below are|are listed below)\b", re.I)

#: Sentences of running text allowed between an announcing sentence and the first item or sub-heading it announces
#: ("GSA allows all 5 types of flexible schedules. For schedules that change ...: you should ... ." then the types).
MAX_GAP = 2


#: The plural noun a list question asks for: "What are the channels for ...?" -> channels, "What types of card
#: readers ...?" -> readers, "What are SOL's initiatives?" -> initiatives (the first plural word after the question
#: word, a determiner, a possessive and a "kinds of" left out; words in -ss or -us and verbs in -s are no plurals).
_ASKED_PLURAL = re.compile(r"^(?:what|which)\s+(?:(?:are|were)\s+)?(?:(?:the|my|our|your|its|their|some|all)\s+)?"
                           r"(?:[\w.-]+['’]s\s+)?"
                           r"(?:(?:kinds|types|sorts|forms|categories)\s+of\s+)?(?:[\w-]+\s+){0,3}?"
                           r"(?!(?:does|is|was|has|goes|says)\b)([a-z]+[^su\W]s)\b", re.I)


def asked_plural(question: str) -> frozenset[str]:
    """The content term (grounding.lexical.content_terms) of the plural noun a list question asks for, when it names
    what is listed ("channels", "goals", "readers"); empty when none is found or it is a collective noun that names
    no topic ("options", "steps", "things": _COLLECTIVE). Read in the asking sentence (grounding.answer_types.
    question_sentence): "I'm new to agile at 18F. What recurring meetings should I expect ...?" asks for meetings
    (fresh37's f37-l09)."""
    m = _ASKED_PLURAL.match(question_sentence(question))
    if not m or re.fullmatch(_COLLECTIVE, m.group(1), re.I):
        return frozenset()
    return content_terms(m.group(1))


#: The words asking for the kinds of a thing ("What types are there?", "What kinds of leads ...?"), one term each.
KIND_TERMS = content_terms("kinds types sorts categories levels")
_ASKS_KINDS = re.compile(r"^(?:what|which)\s+(?:(?:are|were)\s+(?:the\s+)?)?(?:kinds|types|sorts|categories)\b", re.I)


def asks_kinds(question: str) -> bool:
    """True when the asking sentence of ``question`` asks for the kinds of a thing ("What types are there?", "Which
    kinds of leads do they take?"): a lead-in naming kinds ("There are three kinds of FSA:", "We accept varying
    levels of leads including:") announces what is asked, whatever word it uses for them (fresh37's f37-l03)."""
    return bool(_ASKS_KINDS.match(question_sentence(question)))


def announces_list(text: str) -> int | None:
    """How many things a sentence announces: the count before a collective noun ("all 5 types of", "three kinds
    of"; 2..12), 0 when it announces a list of unknown length ("the following", "listed below", a lead-in ending
    with ":"), None when it announces none."""
    m = _COUNTED.search(text)
    if m:
        word = m.group(1).lower()
        count = int(word) if word.isdigit() else COUNT_WORDS[word]
        if 2 <= count <= 12:
            return count
    if _FOLLOWING.search(text) or text.rstrip().endswith(":"):
        return 0
    return None


#: A paragraph opening with a numbered label ("1. Organizational level: Practices and activities ..."): a list written
#: as numbered paragraphs, each with its own text (and list items) under the label.
_NUMBERED_LABEL = re.compile(r"^(\d{1,2})[.)]\s+([^:.?!]{2,60}?):\s")
#: A count before any plural noun ("four sources of inclusiveness"): a list announced only when numbered labels
#: follow it (:func:`numbered_labels`), since "14 pay periods" counts no list.
_COUNTED_ANY = re.compile(rf"\b(\d{{1,2}}|{'|'.join(COUNT_WORDS)})\s+(?:[\w-]+\s+){{0,2}}?[a-z]+[^su\W]s\b", re.I)


def numbered_labels(texts: Sequence[str], kinds: Sequence[str], position: int) -> list[str]:
    """The labels of numbered paragraphs right after the sentence at ``position`` ("1. Organizational level: ...",
    "2. Management: ...", with list items or sentences of their own between them): the first one next to it, the
    others numbered on in order, up to a heading or a number out of sequence; [] when fewer than two."""
    labels: list[str] = []
    for at in range(position + 1, len(texts)):
        if kinds[at] == "heading":
            break
        m = _NUMBERED_LABEL.match(texts[at]) if kinds[at] in ("sentence", "lead") else None
        if m is None:
            if not labels:
                break  # the first label must follow the announcing sentence directly
            continue
        if int(m.group(1)) != len(labels) + 1:
            break
        labels.append(m.group(2).strip())
    return labels if len(labels) >= 2 else []


def _following(texts: Sequence[str], kinds: Sequence[str], position: int) -> tuple[str, list[str]]:
    """What follows the sentence at ``position`` (at most MAX_GAP sentences of running text between): ("item", the
    run of consecutive list items), ("row", the rows of a table, its header row left out: "Tallgrass observes the
    following 11 paid company holidays." then a table of them), ("heading", each heading that has text of its own
    under it, in order, without repeats), or ("", [])."""
    start, gap = position + 1, 0
    while start < len(kinds) and kinds[start] == "sentence" and gap < MAX_GAP:
        start, gap = start + 1, gap + 1
    if start >= len(kinds):
        return "", []
    if kinds[start] == "header" and start + 1 < len(kinds) and kinds[start + 1] == "row":
        start += 1  # a table: its rows are what is listed, its header row names the columns
    if kinds[start] in ("item", "row"):
        end = start
        while end < len(kinds) and kinds[end] == kinds[start]:
            end += 1
        return kinds[start], list(texts[start:end])
    if kinds[start] != "heading":
        return "", []
    headings: list[str] = []
    for i in range(start, len(kinds)):
        if kinds[i] == "heading" and texts[i] not in headings and i + 1 < len(kinds) and kinds[i + 1] != "heading":
            headings.append(texts[i])  # a heading with text of its own under it (not one repeated by a merge)
    return "heading", headings


def _count_of(word: str) -> int:
    """A count word or number as an int (0 outside 2..12: no list's count)."""
    count = int(word) if word.isdigit() else COUNT_WORDS.get(word.lower(), 0)
    return count if 2 <= count <= 12 else 0


def announced_items(texts: Sequence[str], kinds: Sequence[str], position: int) -> list[str]:
    """The items the sentence at ``position`` announces, read from the sentences that follow it in the same source
    (``texts`` and ``kinds`` as grounding.sentence_data gives them):

    - list items right after it (at most MAX_GAP sentences of running text between): the run of consecutive items;
      or the rows of a table right after it;
    - else sub-headings after it: each heading that has text of its own under it, its text skipped, in order,
      without repeats (a heading repeated where two chunks were merged), up to the announced count;
    - numbered paragraphs right after it (:func:`numbered_labels`) come first: their labels, up to the count; a
      count before any plural noun ("four sources of inclusiveness") announces them too.

    [] when the sentence announces no list (:func:`announces_list`), or fewer than two items follow it.
    """
    if not 0 <= position < len(texts):
        return []
    count = announces_list(texts[position])
    if count is not None or (m := _COUNTED_ANY.search(texts[position])):
        labels = numbered_labels(texts, kinds, position)
        if labels:  # numbered paragraphs: their labels, not the list items under the first of them
            wanted = count if count is not None else _count_of(m.group(1))
            return labels[:wanted] if wanted else labels
    if count is None:
        return []
    _, items = _following(texts, kinds, position)
    items = items[:count] if count else items
    return items if len(items) >= 2 else []


# --- a document's outline: the sub-headings a chunk's text does not hold -------------------------------------------

#: Most section paths kept of a document's outline for one chunk (a chunk of the document lead would carry them all).
MAX_OUTLINE = 60


def outline_of(sections: Iterable[Sequence[str]]) -> tuple[str, ...]:
    """A document's outline: the distinct section paths of its blocks in document order, each joined with " > "
    (grounding.parsing.Block.section, outermost heading first); the document lead (no heading) left out."""
    return tuple(dict.fromkeys(" > ".join(s) for s in sections if s))


def outline_near(outline: Sequence[str], section: str, limit: int = MAX_OUTLINE) -> tuple[str, ...]:
    """The part of a document's outline (:func:`outline_of`) that a chunk labelled ``section`` sits in
    (grounding.chunking.section_label: the common prefix of the sections it covers, then their next headings joined
    by " · "): the paths below that prefix, at most two levels deeper, in order, at most ``limit`` of them. So a
    chunk holding the start of a section carries the names of all its sub-sections, also those written in later
    chunks."""
    prefix = section.split(" · ")[0].rsplit(" > ", 1)[0] if " · " in section else section
    depth = len(prefix.split(" > ")) if prefix else 0
    near = [p for p in outline
            if (not prefix or p.startswith(prefix + " > ")) and len(p.split(" > ")) - depth <= 2]
    return tuple(near[:limit])


def sub_headings(outline: Sequence[str], heading: str) -> list[str]:
    """The headings of the sections directly below the section whose own heading is ``heading`` (compared without
    case and surrounding space; the section itself need not be a path of ``outline``, its sub-sections' paths name
    it), in document order; [] when the outline has no such section."""
    key = heading.strip().lower()
    out: list[str] = []
    for path in outline:
        parts = [h.strip() for h in path.split(" > ")]
        for above, below in zip(parts, parts[1:]):
            if above.lower() == key and below and below not in out:
                out.append(below)
    return out


def _parent_headings(outline: Sequence[str], section: str, found: Sequence[str]) -> list[str]:
    """Headings whose sub-sections may be the announced list: those of a chunk's section label (its last
    headings, and the heading above them) and the parents of the sub-headings already found in its text."""
    last = section.rsplit(" > ", 1)
    heads = [h.strip() for h in last[-1].split(" · ")] + ([last[0].rsplit(" > ", 1)[-1]] if len(last) > 1 else [])
    for item in found:
        heads += [p.rsplit(" > ", 2)[-2] for p in outline if p.endswith(" > " + item) and p.count(" > ") >= 1]
    return [h for h in dict.fromkeys(heads) if h]


def announced_list(texts: Sequence[str], kinds: Sequence[str], position: int, *, outline: Sequence[str] = (),
                   section: str = "") -> list[str]:
    """The list the sentence at ``position`` announces (:func:`announced_items`); when what follows it are
    sub-headings, or nothing, and the document's outline near the chunk (``outline``, :func:`outline_near`; its
    section label ``section``) has a section whose sub-sections hold those found and are exactly as many as the
    sentence announces (any number more for "the following" when some are found), the names of all its
    sub-sections: a list written across several chunks ("GSA allows all 5 types ..." with two types in this chunk,
    three in the next ones).
    [] when the sentence announces no list or none is found."""
    items = announced_items(texts, kinds, position)
    if items and numbered_labels(texts, kinds, position):
        return items  # numbered paragraphs' labels: the list is written here, not as sub-sections
    count = announces_list(texts[position]) if 0 <= position < len(texts) else None
    shape, found = _following(texts, kinds, position) if count is not None else ("", [])
    if count is None or not outline or shape in ("item", "row") or (count == 0 and not found):
        # no list announced, no outline, the list is list items or table rows, or "the following" with nothing of it
        # in the text
        # (its items may be list items of the next chunk): what the text holds
        return items
    for parent in _parent_headings(outline, section, found):
        children = sub_headings(outline, parent)
        if len(children) > len(items) and len(children) >= 2 and all(i in children for i in found) and (
                count == 0 or len(children) == count):
            return children
    return items


_QUESTION_COUNT = re.compile(rf"\b(\d{{1,2}}|{'|'.join(COUNT_WORDS)})\s+(?:[\w-]+\s+){{0,2}}?\w+s\b", re.I)


def headed_list(question: str, outline: Sequence[str], title: str = "") -> tuple[str, list[str]] | None:
    """A list question answered by a section's sub-headings ("Which three properties does the glossary define?":
    the headings under "Glossary"): the section of ``outline`` whose own heading's content words are all in the
    question (of those, one naming the most of its words), with at least two sub-sections, in a document whose
    ``title`` shares a content word with the question; when the question counts what it asks for ("three
    properties"), the section with exactly that many.
    (heading, sub-headings), or None."""
    asked = content_terms(question)
    if not asked or not (content_terms(title) & asked):
        return None
    m = _QUESTION_COUNT.search(question)
    word = m.group(1).lower() if m else ""
    count = int(word) if word.isdigit() else COUNT_WORDS.get(word, 0)
    headings = dict.fromkeys(h.strip() for path in outline for h in path.split(" > "))  # parents need no path
    plural = asked_plural(question)
    # a heading of three or more words naming the plural asked for may name one word the question does not, when no
    # heading's words are all in it ("Triggers that inhibit receiving feedback" for "What kinds of triggers make
    # feedback hard to receive?": fresh38's f38-l06, a development set, quoted a supervisor's list of questions)
    # of the headings whose words are all in the question, only the ones naming most of it: "What are the steps to
    # request parental leave?" is about "Requesting leave" (its items), not the sub-headings of "How much leave"
    # (the s45 new-user run on the demo handbook)
    named = [len(content_terms(h)) for h in headings if content_terms(h) and content_terms(h) <= asked]
    most = max(named, default=0)
    for loose in (False, True):
        for heading in headings:
            own = content_terms(heading)
            if not own or not (own <= asked and len(own) == most or loose and len(own) >= 3 and len(own - asked) == 1
                               and plural <= own and plural):
                continue
            children = sub_headings(outline, heading)
            if len(children) >= 2 and (count < 2 or len(children) == count):
                return heading, children
    return None
