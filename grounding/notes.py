"""The contradiction-note policy: which detected conflicts become context notes of an answer, and how notes follow
their sources when a plan is labelled again.

    conflicts (grounding.contradictions.detect_conflicts over the planned sources)
      -> relevant_notes(conflicts, query): only disagreements about what the question asks, each strong enough
      -> notes in the plan (counted in the token budget) -> relabel_notes when the re-made plan's labels moved

Pure functions over grounding types; no Django.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from grounding.contradictions import Conflict
from grounding.lexical import content_terms
from grounding.types import ContextPlan, Note

__all__ = ["GENERIC_TERMS", "NEGATION_NOTE_SIMILARITY", "NOTE_SIMILARITY", "relabel_notes", "relevant_notes"]

#: Words that say how much or how often rather than what about ("days per year"): a note sharing only these with
#: the question is about something else (a meal allowance "per day" under a question on vacation days per year).
GENERIC_TERMS = content_terms("per day days daily week weeks weekly month months monthly year years yearly annual "
                              "annually time times hour hours minute minutes many much get gets need needs")

#: Aligned sentences of two different documents must be at least this similar for their clash to become a note. The
#: detector's own threshold (0.45) is tuned for recall on the public sets; on handbook text most clashes below 0.6
#: compare sentences about different things (measured on 20 demo-handbook questions: 15 of 20 notes false at 0.45,
#: 4 at 0.6). Two versions of one document are always compared.
NOTE_SIMILARITY = 0.6
#: A polarity clash between two different documents is the least reliable kind ("sick days do not carry over" vs
#: "you continue to accrue sick days" align at about 0.6 but do not contradict): it needs closer sentences.
NEGATION_NOTE_SIMILARITY = 0.75


def relevant_notes(conflicts: Sequence[Conflict], query: str) -> list[Note]:
    """Notes of the conflicts whose sentences share content words with the question (two, or one for a one-word
    question), at least one of them not among GENERIC_TERMS when the question has such words: a disagreement
    elsewhere in a source is not what the reader asked about. A conflict between two documents also needs aligned
    sentences at least NOTE_SIMILARITY close (NEGATION_NOTE_SIMILARITY for a polarity clash).

    Args:
        conflicts: the detector's conflicts, in its order.
        query: the retrieval query (the question, with a follow-up's borrowed words).
    Returns:
        the kept conflicts' notes (kind, labels, text), in the conflicts' order.
    """
    terms = content_terms(query)
    distinctive = (terms - GENERIC_TERMS) or terms
    need = min(2, len(terms))

    def shared(c: Conflict) -> frozenset[str]:
        return terms & (content_terms(c.sentences[0]) | content_terms(c.sentences[1]))

    return [c.as_note() for c in conflicts
            if len(common := shared(c)) >= need and common & distinctive
            and (c.kind == "version_superseded"
                 or c.similarity >= (NEGATION_NOTE_SIMILARITY if c.kind == "negation" else NOTE_SIMILARITY))]


def relabel_notes(notes: Sequence[Note], old: ContextPlan, new: ContextPlan) -> list[Note]:
    """Notes of ``old``'s labels expressed in ``new``'s labels (through the chunks the labels stand for); a note whose
    sources are not both in ``new`` is dropped. The labels named in the note's text are renamed too."""
    to_chunk = {s.label: s.chunk_id for s in old.sources}
    to_label = {s.chunk_id: s.label for s in new.sources}
    out = []
    for note in notes:
        mapping = {lab: to_label.get(to_chunk.get(lab, -1)) for lab in note.labels}
        if not all(mapping.values()):
            continue
        text = re.sub(r"\bS\d{1,3}\b", lambda m: mapping.get(m.group(0), m.group(0)), note.text)
        out.append(replace(note, labels=tuple(mapping[lab] for lab in note.labels), text=text))
    return out
