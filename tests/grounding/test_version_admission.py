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


def test_a_swapped_name_is_reported_whole():
    """The 18F transit page's DC coordinator changed from "CO-Transit Subsidy" to "FAS-Transit Subsidy"; the version
    note said the old page "says CO-Transit" (the swapped word only). Both names are reported whole; a one-word swap
    is reported as before."""
    from grounding.clash import clash

    found = clash("- Transit Coordinator: - DC employees: FAS-Transit Subsidy",
                  "- Transit Coordinator: - DC employees: CO-Transit Subsidy", versions=True)
    assert found is not None and found.rule == "name"
    assert found.values == ("FAS-Transit Subsidy", "CO-Transit Subsidy")
    bought = clash("The company was acquired by Facebook in 2012.", "The company was acquired by Apple in 2012.")
    assert bought is not None and bought.values == ("Facebook", "Apple")
    # a name ends at punctuation: "(United Nations Plaza)" is not part of "San Francisco"
    office = clash("The office is in New York (United Nations Plaza).",
                   "The office is in San Francisco (United Nations Plaza).")
    assert office is not None and office.values == ("New York", "San Francisco")


def test_a_superseded_near_copy_of_a_current_passage_is_merged_into_the_current_one():
    """Near-duplicate removal kept the better-scored chunk: a 2019 transit chunk (dense 0.63) took in its current
    near-copy (0.55), and the current passage was cited as a superseded version. The current copy is kept."""
    from grounding.dedup import dedup_near

    vector = unit(1, 0, 0, 0)
    old = version(30, "DC employees: Central Office FAS Transit Subsidy", 0.63, vector, date="2019-02-12", vid=5,
                  status="superseded")
    new = version(31, "DC employees: Central Office FAS Transit Subsidy.", 0.55, vector, date="", vid=9,
                  status="current")
    out = dedup_near([(old, (30,)), (new, (31,))])
    assert [(c.chunk.chunk_id, ids) for c, ids in out.kept] == [(31, (31, 30))]


def test_an_older_version_stays_out_when_the_version_just_before_is_retrieved():
    """The 18F leave page (calibration, "How much annual leave can I carry over into the new year?"): the 2022
    version's copy of a passage took no place, and the 2017 version's wording of it entered and made a note against
    2017 rather than the version just before. Only the newest retrieved superseded version of a document is read."""
    v2022 = version(40, "Advanced annual leave. For example: ... You will earn 84 more annual leave hours.", 0.64,
                    unit(0.9, 0, 0.44, 0), date="2022-09-27", vid=4, status="superseded")
    v2017 = version(41, "An employee may only take advanced annual leave, and it may not exceed 80 hours.", 0.60,
                    unit(0, 0.8, 0.6, 0), date="2017-09-20", vid=2, status="superseded")
    kept, dropped = admit_versions(CURRENT + [v2022, v2017], "How many more annual leave hours do you earn?")
    assert [c.chunk.chunk_id for c in kept] == [10, 40, 11]
    assert [d.chunk_id for d in dropped] == [41]
