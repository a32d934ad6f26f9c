"""Writing the extractive answer: quoted sentences with their citations, composed as an answer.

- a quoted sentence ends with the label of its source: "Laptops are replaced every 36 months [S1].";
- a yes/no answer opens with "Yes." or "No." when a cited sentence settles it;
- a table row is given as "column: value" pairs (the row's text as grounding.sentence_data reads it);
- a list is given as its lead-in and its items, each item cited;
- a comparison quotes the sentence of each side, each with its citation;
- when the documents cover the topic but not the asked fact, the answer says so, naming what they cover with its
  citations: "The documents describe <what> [S1], but they do not state <the asked fact>." It begins with
  ABSTAIN_TOKEN, so it counts as an abstention (grounding.answer keeps its text and citations).

Quoted text never carries a live citation marker of its own (grounding.prompt_sources.neutralise_markers). No Django
imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.asked_times import asks_clock
from grounding.lexical import asks_about_future, asks_about_past, period_year
from grounding.notes import concerns_answer, names_what_changed
from grounding.prompt import ABSTAIN_TOKEN
from grounding.prompt_sources import neutralise_markers
from grounding.types import ContextPlan, Source

#: How the missing fact is named in a topic-only abstention, per answer type (grounding.answer_types).
MISSING = {"amount": "the amount", "percent": "the percentage", "duration": "the duration or time limit",
           "frequency": "how often", "date": "the date or deadline", "count": "the number",
           "quantity": "the amount or limit", "person": "the person or team", "list": "the list",
           "yesno": "whether the answer is yes or no", "other": "the answer"}


def missing(kind: str, question: str) -> str:
    """How the fact ``question`` asks is named in a topic-only abstention: :data:`MISSING`'s name for its answer type
    ``kind``, "the time of day" for a date question asking at what time (grounding.asked_times.asks_clock)."""
    if kind == "date" and asks_clock(question):
        return "the time of day"
    return MISSING.get(kind, "the answer")


#: A sentence ending with an abbreviation ("4:00 p.m.", "U.S.", "etc."): its last full stop belongs to the word.
_ENDS_WITH_ABBREVIATION = re.compile(r"(?:\b(?:[A-Za-z]\.){2,}|\b(?:etc|Inc|Ltd|Co|Corp|Jr|Sr|St|vs|approx)\.)$")
#: Words from which a quoted text without its closing punctuation is a piece of a sentence cut by a chunk boundary
#: or by the sentence splitter's pre-cut (grounding.chunking, grounding.sentences), not a label or a list item.
CUT_WORDS = 25
#: A clause boundary a cut sentence is quoted up to: a comma, semicolon, colon or dash followed by a space.
_CLAUSE_END = re.compile(r"[,;:]\s|\s[–—-]\s")
#: Closing punctuation of a whole sentence (a closing quote or bracket after it included), or a closing bracket or
#: quote ending a list item ('... or Agency Bureau code (in this case, "4700")' was cut to "... (in this case …":
#: fresh36's f36-v02).
_CLOSED = re.compile(r"[.!?…][\"'”’)\]]*$|[\"”’]?[)\]][\"”’]?$")


def whole_or_marked(text: str) -> str:
    """``text`` as it may be quoted: unchanged when it is a whole sentence (it ends with closing punctuation) or short
    (a label, a list item); a piece of a longer sentence cut mid-way (CUT_WORDS words or more, no closing
    punctuation) is cut back to its last clause boundary in its second half, or kept whole when it has none, and ends
    with a visible ellipsis "…", never with a full stop that would pass it off as the whole sentence. A table row
    read as "column: value" pairs (:func:`is_row_pairs`) is whole: cut at its last "; " it lost the column asked
    ("Meeting: 18F GMT ...; Attendees: ...; Timing …" for "When does the 18F GMT meet?")."""
    text = text.strip()
    if not text or _CLOSED.search(text) or len(text.split()) < CUT_WORDS or is_row_pairs(text):
        return text
    boundaries = [m.start() for m in _CLAUSE_END.finditer(text) if m.start() >= len(text) // 2]
    body = text[:boundaries[-1]] if boundaries else text
    return body.rstrip(" ,;:–—-") + " …"


def is_row_pairs(text: str) -> bool:
    """True when ``text`` is a table row read as "column: value" pairs (grounding.sentence_data): two pairs or more,
    joined by "; ", each a short column name (six words at most) before ": "."""
    pairs = text.split("; ")
    return len(pairs) >= 2 and all(": " in p and 0 < len(p.partition(": ")[0].split()) <= 6 for p in pairs)


def cited(text: str, label: str) -> str:
    """One quoted sentence with its citation before its end punctuation: "X is 5 [S1].". A piece of a sentence cut
    mid-way ends with "…" before its citation (:func:`whole_or_marked`): "X is 5, and Y … [S1].". A sentence ending
    with an abbreviation keeps it whole and takes its citation after it ("... every Friday at 4:00 p.m. [S1]"):
    cutting the full stop off made it "4:00 p.m [S1]"."""
    text = whole_or_marked(neutralise_markers(text))  # a quoted "[S2]" in a document must not become a citation
    if not text:
        return ""
    if text.endswith(" …"):
        return f"{text} [{label}]."
    if _ENDS_WITH_ABBREVIATION.search(text):
        return f"{text} [{label}]"
    end = text[-1] if text[-1] in ".!?" else "."
    body = text[:-1].rstrip() if text[-1] in ".!?" else text
    return f"{body} [{label}]{end}"


def sentences(quoted: Sequence[tuple[str, str]], opener: str = "") -> str:
    """Quoted (text, label) sentences as one paragraph, after ``opener`` ("Yes." / "No.") when given."""
    parts = [cited(text, label) for text, label in quoted]
    return " ".join(([opener] if opener else []) + [p for p in parts if p])


def bulleted(lead: str, items: Sequence[str], label: str, opener: str = "") -> str:
    """A list answer: the lead-in sentence (cited; "The kit includes:" keeps its colon) and one cited line per item."""
    head = neutralise_markers(lead).strip()
    if head:
        head = f"{head[:-1].rstrip()} [{label}]:" if head.endswith(":") else cited(head, label)
    lines = [f"- {cited(item, label)}" for item in items if item.strip()]
    top = " ".join(p for p in (opener, head) if p)
    return "\n".join(([top, ""] if top else []) + lines)


def _what(source: Source) -> str:
    """How a source is named in a topic-only abstention: its title and the last heading of its section."""
    section = source.section.split(" > ")[-1].strip() if source.section else ""
    name = source.title.strip() or "a document"
    return f"{name} ({section})" if section and section.lower() != name.lower() else name


def unanswered(part: str) -> str:
    """The line ending an answer to a message of several questions that says which one no quoted sentence answers
    ('I found no answer in the documents to: "How far ahead of my last day should I start offboarding?"'), the part
    as the user wrote it, its first letter capitalised, with a question mark: the answer says what it leaves out
    rather than passing for an answer to the whole message."""
    asked = part.strip().rstrip("?.!,;: ")
    return f'I found no answer in the documents to: "{asked[:1].upper()}{asked[1:]}?"'


def topic_only(covering: Sequence[Source], missing: str) -> str:
    """The abstention that names what the documents cover: ABSTAIN_TOKEN, then "The documents describe <title
    (section)> [S1] and <...> [S2], but they do not state <missing>." (``missing`` as MISSING gives it, or "anything
    about Denver")."""
    named: list[str] = []
    seen: set[str] = set()
    for source in covering:
        what = _what(source)
        if what in seen:
            continue
        seen.add(what)
        named.append(f"{neutralise_markers(what)} [{source.label}]")
    if not named:
        return ABSTAIN_TOKEN
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    verb = "say" if missing.startswith("anything") else "state"
    return f"{ABSTAIN_TOKEN}: The documents describe {listed}, but they do not {verb} {missing}."


def period_gap(question: str, quoted: Sequence[tuple[str, Source]], planned: Sequence[Source]) -> str:
    """The sentence that says the answer is not from the period the question asks about, or "".

    "What was the rate in 2023?" answered from a version dated 2024 or later (the first quoted source's date is in a
    later year), when no planned version of that document is dated in 2023 and neither the quoted sentences nor the
    source's title name the year (a 2024 page may say what held in 2023): "No version from 2023 is held: this answer
    is from the version dated 2024-03-01 [S1]." ``quoted``: (sentence text, source) in answer order.

    "What will the rate be in 2030?" (grounding.lexical.asks_about_future), when no quoted sentence names that year:
    "The documents do not state a value for 2030; what follows is from the current version (dated 2025-01-01)." (the
    current value follows; superseded ones are not quoted as answers, grounding.sentence_rank)."""
    if quoted and asks_about_future(question):
        return _future_gap(period_year(question), quoted)
    year = period_year(question) if asks_about_past(question) else ""
    if not year or not quoted:
        return ""
    text, first = quoted[0]
    if not first.date[:4].isdigit() or first.date[:4] <= year:
        return ""
    if any(year in t or year in s.title for t, s in quoted):
        return ""
    if any(s.document_id == first.document_id and s.date.startswith(year) for s in planned):
        return ""
    return (f"No version from {year} is held: this answer is from the version dated {first.date} "
            f"[{first.label}].")


def _future_gap(year: str, quoted: Sequence[tuple[str, Source]]) -> str:
    """The lead of an answer to a question about a later year that no quoted sentence or title names (see
    :func:`period_gap`), "" when one does."""
    if any(year in t or year in s.title for t, s in quoted):
        return ""
    first = quoted[0][1]
    dated = f" (dated {first.date})" if first.date else ""
    return f"The documents do not state a value for {year}; what follows is from the current version{dated}."


def note_lines(plan: ContextPlan, labels: set[str], quoted: Sequence[str] = (), asked: str = "") -> list[str]:
    """The offline answer's word on the contradiction notes that concern the sources it quotes: "Note that the
    sources disagree: ... [S1][S2]." between two documents, "Note that this changed: ... [S1][S2]." between a
    document and its superseded version (a revision is not a disagreement of the sources; the superseded side is
    named as such, and the current side of a version note as the current version: "S1 (the current version) says
    ... $225 ... but S3 (a superseded version) says $200"; dates are in the chips and the notes).

    ``quoted``: the sentences the answer quotes; when given, a note is said only when it concerns what they say
    (grounding.notes.concerns_answer) or names what the question ``asked`` names and they do not (a version note
    on a name a revision rewrote or removed: grounding.notes.names_what_changed), else whenever it concerns a quoted
    source."""
    said = " ".join(quoted)
    out = []
    for note in plan.notes:
        if note.kind == "injection" or not labels & set(note.labels):
            continue
        if quoted and not concerns_answer(note.text, said) and not (
                note.kind == "version_superseded" and names_what_changed(note.text, asked, said)):
            continue  # a disagreement about another of the source's values
        markers = "".join(f"[{label}]" for label in note.labels if label in plan.source_map)
        # the note as said (its own variable: ``said``, the answer's text, is read again for the next note)
        text = re.sub(r" \((?:\d{4}-\d{2}-\d{2}|undated)([^)]*)\)",
                      lambda m: " (a superseded version)" if "superseded" in m.group(1) else "",
                      neutralise_markers(note.text)).rstrip(".")
        first = plan.source_map.get(note.labels[0])
        if note.kind == "version_superseded" and first is not None and first.status != "superseded":
            # which value is the current one: an answer about a past year quotes both ("$200 ... $225")
            text = re.sub(rf"^{re.escape(first.label)} says\b", f"{first.label} (the current version) says", text)
        lead = "this changed" if note.kind == "version_superseded" else "the sources disagree"
        out.append(f"Note that {lead}: {text} {markers}.")
    return out
