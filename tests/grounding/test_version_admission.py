"""Which superseded versions enter the context so that a version note can compare the current version with the one
just before it (grounding.dedup.admit_versions; issue 18 point 6, the s13 round's fresh version questions)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from grounding.dedup import admit_versions

from .helpers import cand


def unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def version(cid: int, text: str, dense: float, vector: np.ndarray, *, date: str, vid: int, status: str):
    c = cand(cid, text, dense, doc=2, date=date)
    return replace(c, chunk=replace(c.chunk, status=status, version_id=vid), vector=vector)


CURRENT = [version(10, "Advanced annual leave. For example: ... You will earn 56 more annual leave hours. Other text.",
                   0.66, unit(1, 0, 0, 0), date="", vid=9, status="current"),
           version(11, "Parental bereavement leave is two weeks. Term employees may see an error in HR Links.",
                   0.60, unit(0, 1, 0, 0), date="", vid=9, status="current")]


def test_a_passage_moved_into_another_chunk_is_admitted_when_it_is_about_the_question():
    """The 2023 leave page held the advanced-leave example ("84 more annual leave hours") in a chunk of its own; the
    current page holds it inside a longer chunk (chunk cosine 0.67, below OLDER_WORDING). It is as close to the
    question as the current page's best chunk, so it enters the context, ahead of a less relevant old chunk of the
    same version that only rewords a current chunk (the old code admitted that one and dropped the example)."""
    moved = version(20, "For example: ... You will earn 84 more annual leave hours.", 0.66,
                    unit(0.67, 0, 0.74, 0), date="2023-01-30", vid=5, status="superseded")
    reworded = version(21, "Term employees may see an error in HR Links about advanced leave.", 0.55,
                       unit(0, 0.9, 0, 0.44), date="2023-01-30", vid=5, status="superseded")
    kept, dropped = admit_versions(CURRENT + [moved, reworded], "How many more annual leave hours do you earn?",
                                   limit=1)
    assert [c.chunk.chunk_id for c in kept] == [10, 20, 11]  # right after the document's most relevant chunk
    assert [d.chunk_id for d in dropped] == [21]


def test_an_old_chunk_far_from_the_question_and_from_every_current_chunk_stays_out():
    far = version(22, "Holidays are listed on OPM's site.", 0.40, unit(0, 0, 0, 1), date="2023-01-30", vid=5,
                  status="superseded")
    kept, dropped = admit_versions(CURRENT + [far], "How many more annual leave hours do you earn?")
    assert [c.chunk.chunk_id for c in kept] == [10, 11] and [d.chunk_id for d in dropped] == [22]


def test_an_old_chunk_with_the_text_of_a_retrieved_current_chunk_takes_no_place():
    """An unchanged passage of the older version (the same text as a retrieved current chunk, once normalised) has
    nothing to note: it is not admitted, even when it is close to another current chunk, and the place goes to an
    old chunk that differs (the old code admitted the copy through its cosine to the other chunk)."""
    copy = version(23, "Parental bereavement leave is two weeks.  Term employees may see an error in HR Links.",
                   0.70, unit(0.8, 0.6, 0, 0), date="2023-01-30", vid=5, status="superseded")
    copy = replace(copy, chunk=replace(copy.chunk, text=CURRENT[1].chunk.text.replace(". ", ".  ")))
    changed = version(24, "Advanced annual leave. For example: ... You will earn 84 more annual leave hours.", 0.62,
                      unit(0.9, 0, 0.44, 0), date="2023-01-30", vid=5, status="superseded")
    kept, dropped = admit_versions(CURRENT + [copy, changed], "How many more annual leave hours do you earn?",
                                   limit=1)
    assert [c.chunk.chunk_id for c in kept] == [10, 24, 11]
    assert [d.chunk_id for d in dropped] == [23]
