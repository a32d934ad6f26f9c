"""A source's values read from what ingestion stored of its chunks (grounding.support_store) equal those found in
its text (grounding.support_values.source_values), or are not read at all: never different."""

from __future__ import annotations

import random

import numpy as np

from grounding.context_merge import joined_text
from grounding.support import check_support
from grounding.support_store import VALUES_VERSION, chunk_values, joined_values, plan_values, reads_by_lines
from grounding.support_values import source_keys, source_values, values_of_keys
from grounding.types import Chunk, ContextPlan, Source


def test_a_chunk_row_holds_its_values_and_its_lines_values():
    text = "Meals: $65.00 a day.\nHotels up to 5 percent over the limit [S2].\nNo values here."
    row = chunk_values(text)
    assert row == {"v": VALUES_VERSION, "all": ["$65.00", "5%"], "lines": [[0, ["$65.00"]], [1, ["5%"]]]}
    assert values_of_keys(row["all"]) == source_values(text) == (frozenset({"$65", "5%"}), frozenset({"65", "5"}))


def test_a_value_across_a_line_break_keeps_a_chunk_from_being_read_by_lines():
    assert not reads_by_lines("Effective March\n5, 2020 the policy changed.")  # one date across the break
    assert not reads_by_lines("The limit is $\n65 a day.")
    assert not reads_by_lines("cited [\n3] here")  # a citation marker blanked across the break
    assert reads_by_lines("Effective March 5, 2020.\nThe limit is $65 a day.")
    assert "lines" not in chunk_values("Effective March\n5, 2020 the policy changed.")


def test_a_join_a_value_could_cross_is_not_read_from_the_rows():
    texts = ["The yearly increase is capped at 5", "% of the base salary for every employee in the program."]
    joined = joined_text(tuple(texts))[0]
    assert source_keys(joined) == {"5%"} and source_keys(texts[0]) == {"5"}  # one percentage across the join
    assert joined_values(texts, [chunk_values(t) for t in texts]) is None
    lower = ["The committee may", "2020 be asked again about the rules of the program."]
    assert source_keys(joined_text(tuple(lower))[0]) == set() and source_keys(lower[1]) == {"2020"}  # the verb
    assert joined_values(lower, [chunk_values(t) for t in lower]) is None


def test_a_join_at_a_sentence_end_is_read_from_the_rows():
    texts = ["The daily meal allowance is $65 per day.", "Hotels are booked two weeks ahead at most 20% over."]
    got = joined_values(texts, [chunk_values(t) for t in texts])
    assert got is not None and got[0] == joined_text(tuple(texts))[0]
    assert got[1] == source_keys(got[0]) == {"$65", "2", "20%"}


def test_rows_of_another_version_or_missing_are_not_read():
    texts = ["The daily meal allowance is $65 per day.", "Hotels are booked two weeks ahead."]
    rows = [chunk_values(t) for t in texts]
    assert joined_values(texts, [rows[0], {**rows[1], "v": VALUES_VERSION + 1}]) is None
    assert joined_values(texts, [rows[0], None]) is None


#: Line pieces whose joins a value may or may not cross (dates, amounts, percentages, durations, quantities, labels,
#: citation markers, plain prose), for the randomised comparison below.
_PIECES = ["March", "Jan.", "5,", "2020", "$", "65", "$65", "per", "cent", "percent", "%", "5th", "two", "weeks",
           "business", "days", "million", "people", "[", "12", "]", "[3]", "S2", "GS-15", "10:30", "may", "2021",
           "The limit is", "Meals are paid.", "see below:", "- item", "| a | b |", "twenty", "one", "Ｍarch", "．",
           "2020%", "3]", "[4", "5 March,", "Feb.", "65.", "10"]


def _text(rng: random.Random) -> str:
    lines = [" ".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(1, 4))]
    return "\n".join(lines)


def test_joined_values_are_those_of_the_joined_text_or_not_read():
    rng = random.Random(20)
    read = 0
    for _ in range(6_000):  # 20,000 in the s12 round: the same rules held; fewer keep the suite inside its budget
        texts = [_text(rng) for _ in range(rng.randint(2, 3))]
        got = joined_values(texts, [chunk_values(t) for t in texts])
        if got is not None:
            read += 1
            assert got[0] == joined_text(tuple(texts))[0]
            assert got[1] == source_keys(got[0]), texts
    assert read > 600  # the comparison is not vacuous


def test_overlap_cut_at_a_line_start_reads_the_lines_after_it():
    first = "Intro line without values.\nThe shared sentence says 40 hours a week."
    second = "The shared sentence says 40 hours a week.\nThen $15 for each extra hour."
    got = joined_values([first, second], [chunk_values(first), chunk_values(second)])
    text = joined_text((first, second))[0]
    assert text.count("The shared sentence") == 1  # the overlap was cut
    assert got == (text, source_keys(text)) and got[1] == {"40", "$15"}


def _chunk(cid: int, ordinal: int, text: str) -> Chunk:
    return Chunk(chunk_id=cid, document_id=1, title="T", section="S", version="1", date="", text=text, tokens=10,
                 ordinal=ordinal, version_id=7)


def test_plan_values_reads_single_and_joined_sources_and_leaves_out_the_others():
    a = _chunk(1, 0, "The daily meal allowance is $65 per day.")
    b = _chunk(2, 1, "Hotels are booked two weeks ahead.")
    c = _chunk(3, 5, "Parking costs $12.")
    merged = joined_text((a.text, b.text))[0]

    def source(label: str, ids: tuple[int, ...], text: str) -> Source:
        return Source(label=label, chunk_ids=ids, document_id=1, title="T", section="S", version="1", date="",
                      text=text, score=0.5, tokens=10, version_id=7)

    plan = ContextPlan(question="q", sources=(source("S1", (1,), a.text), source("S2", (2, 1), merged),
                                              source("S3", (3,), "Parking costs [withheld].")))
    rows = {i: chunk_values(x.text) for i, x in ((1, a), (2, b), (3, c))}
    got = plan_values(plan, {1: a, 2: b, 3: c}, rows)
    assert got == {"S1": source_values(a.text), "S2": source_values(merged)}
    assert plan_values(plan, {1: a, 2: b, 3: c}, {}) == {}  # an index without stored values: all read from text


def test_check_support_with_stored_values_uses_them():
    class Flat:
        def embed(self, texts):
            return np.ones((len(texts), 4), np.float32) / 2.0

    sources = {"S1": "The daily meal allowance is $65 per day."}
    answer = "The allowance is $65 a day [S1]."
    assert check_support(answer, sources, Flat()).sentences[0].status == "supported"
    wrong = {"S1": (frozenset({"$50"}), frozenset({"50"}))}  # what a stale row would say: it is read, not re-found
    assert check_support(answer, sources, Flat(), stored_values=wrong).sentences[0].status == "unsupported"
