"""The per-sentence support check (grounding/support.py): values, meaning, citations, coverage."""

from __future__ import annotations

import numpy as np
import pytest

from grounding.answer_sentences import is_factual
from grounding.support import check_support
from grounding.support_report import DEFAULT, SentenceSupport, SupportReport, SupportThresholds, grade, regrade

SOURCES = {
    "S1": "Remote work. Employees may work from home on Fridays with their manager's approval. "
          "The office is closed on public holidays.",
    "S2": "Meals. The daily meal allowance is $65 when travelling. Receipts are required for claims over $25.",
    "S3": "Passwords. A password must be longer than 12 characters and must not be reused.",
}


class Counting:
    """Wraps an embedder and counts its calls."""

    def __init__(self, inner) -> None:
        self.inner, self.calls, self.name, self.dim = inner, 0, inner.name, inner.dim

    def embed(self, texts):
        self.calls += 1
        return self.inner.embed(texts)


def only(report: SupportReport) -> SentenceSupport:
    assert len(report.sentences) == 1, report
    return report.sentences[0]


# --- values --------------------------------------------------------------------------------------------------------

def test_a_value_absent_from_the_cited_source_is_unsupported(embedder):
    s = only(check_support("The limit is $65 [S1].", {"S1": "The daily meal limit is $50."}, embedder))
    assert s.status == "unsupported" and s.missing_values == ("$65",)
    assert s.reason == "the value $65 is not in S1" and s.labels == ("S1",)


def test_a_value_present_in_the_cited_source_passes(embedder):
    s = only(check_support("The daily meal limit is $65 [S1].", {"S1": "The daily meal limit is $65."}, embedder))
    assert s.status == "supported" and s.missing_values == () and s.similarity > 0.95


def test_missing_value_reason_names_the_value_with_its_unit(embedder):
    s = only(check_support("Passwords must be longer than 14 characters [S3].", SOURCES, embedder))
    assert s.status == "unsupported" and s.missing_values == ("14",)
    assert s.reason == "the value 14 characters is not in S3"


def test_values_may_come_from_any_cited_source_and_number_words_match_digits(embedder):
    text = "Meals are covered up to sixty-five dollars a day and passwords need over 12 characters [S2][S3]."
    s = only(check_support(text, SOURCES, embedder))
    assert s.missing_values == () and s.labels == ("S2", "S3")


def test_two_missing_values_from_two_cited_sources(embedder):
    s = only(check_support("Meals are $70 a day and receipts start at $30 [S1, S2].", SOURCES, embedder))
    assert s.status == "unsupported" and s.missing_values == ("$70", "$30")
    assert s.reason == "the values $70 and $30 are not in S1 or S2"


def test_the_pronoun_one_is_not_a_value(embedder):
    s = only(check_support("One option is to work from home on Fridays [S1].", SOURCES, embedder))
    assert s.missing_values == () and s.status == "supported"


# --- meaning -------------------------------------------------------------------------------------------------------

def test_paraphrase_is_supported_and_unrelated_sentence_is_unsupported(embedder):
    para = only(check_support("Staff can work remotely on Fridays if their manager agrees [S1].", SOURCES, embedder))
    unrelated = only(check_support("The cafeteria serves vegetarian lunch every Tuesday [S1].", SOURCES, embedder))
    assert para.status == "supported" and para.similarity >= DEFAULT.supported + 0.05
    assert unrelated.status == "unsupported" and unrelated.similarity < DEFAULT.weak - 0.1
    assert unrelated.reason == f"closest source sentence similarity {unrelated.similarity:.2f} (S1)"


def test_similarity_is_the_best_over_the_cited_sources_only(embedder):
    # The matching sentence is in S2, but the sentence cites S1 only.
    wrong = only(check_support("The daily meal allowance is $65 when travelling [S1].", SOURCES, embedder))
    right = only(check_support("The daily meal allowance is $65 when travelling [S1][S2].", SOURCES, embedder))
    assert wrong.status == "unsupported" and wrong.missing_values == ("$65",)
    assert right.status == "supported" and right.reason.endswith("(S2)") and right.similarity > 0.99


class Table:
    """A fake embedder with fixed unit vectors per text (unknown texts get the last axis)."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = {k: np.asarray(v, dtype=np.float32) / np.linalg.norm(v) for k, v in vectors.items()}
        self.name, self.dim = "table", 3

    def embed(self, texts):
        return np.stack([self.vectors.get(t, np.asarray([0, 0, 1], dtype=np.float32)) for t in texts])


def test_a_sentence_fusing_two_adjacent_source_sentences_matches_their_window():
    fake = Table({"Alpha holds.": [1, 0, 0], "Beta holds.": [0, 1, 0], "Alpha and beta hold.": [1, 1, 0]})
    s = only(check_support("Alpha and beta hold [S1].", {"S1": "Alpha holds. Beta holds."}, fake))
    assert s.similarity == pytest.approx(1.0, abs=1e-6)  # the window, not a single sentence (0.71)
    apart = only(check_support("Alpha and beta hold [S1].", {"S1": "Alpha holds.\nGamma.\nBeta holds."}, fake))
    assert apart.similarity == pytest.approx(2 ** -0.5, abs=1e-6)  # not adjacent: no window joins them


# --- citations, coverage, sentence boundaries ----------------------------------------------------------------------

def test_an_uncited_factual_sentence_is_uncited(embedder):
    report = check_support("Employees may work from home on Fridays.", SOURCES, embedder)
    assert only(report) == SentenceSupport("Employees may work from home on Fridays.", (), "uncited", "no citation",
                                           0.0, ())
    assert report.coverage == 0.0


def test_a_sentence_citing_only_unknown_labels_is_uncited(embedder):
    s = only(check_support("Employees may work from home on Fridays [S9].", SOURCES, embedder))
    assert s.status == "uncited" and s.reason == "cites S9, which is not a source of this answer"


def test_coverage_is_the_share_of_factual_sentences_with_a_valid_citation(embedder):
    text = ("Employees may work from home on Fridays [S1]. The office is closed on public holidays. "
            "The daily meal allowance is $65 [S2]. Receipts are needed for claims over $25 [S7].")
    report = check_support(text, SOURCES, embedder)
    assert [s.status for s in report.sentences] == ["supported", "uncited", "supported", "uncited"]
    assert report.coverage == 0.5


def test_a_marker_after_the_final_period_belongs_to_that_sentence(embedder):
    text = "The daily meal allowance is $65 when travelling. [S2] Employees may work from home on Fridays. [S1]"
    report = check_support(text, SOURCES, embedder)
    assert [(s.text, s.labels, s.status) for s in report.sentences] == [
        ("The daily meal allowance is $65 when travelling.", ("S2",), "supported"),
        ("Employees may work from home on Fridays.", ("S1",), "supported"),
    ]
    assert report.coverage == 1.0


def test_a_marker_after_a_cut_ellipsis_cites_the_quote_before_it(embedder):
    """pysbd cuts "... on Fridays .. [S1]." after the first "."; the rest (punctuation and the marker) ends that
    sentence, so the quote is cited rather than counted as an uncited claim."""
    text = "The handbook says employees may work from home on Fridays .. [S1]. The daily meal allowance is $65 [S2]."
    report = check_support(text, SOURCES, embedder)
    assert [(s.labels, s.status) for s in report.sentences] == [(("S1",), "supported"), (("S2",), "supported")]
    assert report.sentences[0].text.startswith("The handbook says employees may work from home on Fridays")
    assert report.coverage == 1.0


def test_non_factual_sentences_are_left_out_of_the_sentences_and_the_coverage(embedder):
    text = ("Meals:\n- The daily meal allowance is $65 [S2].\nWhat about lodging? The documents do not say how "
            "lodging is paid. I could not find anything about parking.\n## Remote work\nEmployees may work from "
            "home on Fridays.")
    report = check_support(text, SOURCES, embedder)
    assert [(s.text, s.status) for s in report.sentences] == [
        ("The daily meal allowance is $65.", "supported"),
        ("Employees may work from home on Fridays.", "uncited"),
    ]
    assert report.coverage == 0.5


def test_an_answer_without_factual_sentences_has_full_coverage_and_no_model_call(embedder):
    counting = Counting(embedder)
    report = check_support("Summary:\nWhy do you ask? The sources don't mention it.", SOURCES, counting)
    assert report == SupportReport(sentences=(), coverage=1.0) and counting.calls == 0


@pytest.mark.parametrize("sentence,factual", [
    ("Meals:", False), ("Summary", False), ("1.", False), ("## The allowance is $65", False),
    ("Is the allowance $65?", False), ("The documents do not specify a limit for lodging.", False),
    ("The provided sources don't mention parking.", False), ("There is no information about parking.", False),
    ("Parking is not mentioned in the documents.", False),
    ("It is $65.", True), ("- The allowance is $65 a day.", True), ("Lodging is paid by the company.", True),
    ("The policy does not cover dental implants.", True), ("Options include: ballet, tango and salsa.", True),
    ("Options include:", False), ("The allowance for meals is the following:", False),
])
def test_is_factual(sentence, factual):
    assert is_factual(sentence) is factual


def test_a_short_sentence_is_a_claim_when_it_is_cited(embedder):
    assert not is_factual("Travel is covered.") and is_factual("Travel is covered.", cited=True)
    assert not is_factual("Why is that?", cited=True) and not is_factual("Options include:", cited=True)
    report = check_support("Yes. Travel is covered [S2].", SOURCES, embedder)
    assert [(s.text, s.labels) for s in report.sentences] == [("Travel is covered.", ("S2",))]


def test_one_embedding_call_per_answer(embedder):
    counting = Counting(embedder)
    text = "Staff can work from home on Fridays [S1]. The meal allowance is $65 [S2]. Passwords exceed 12 [S3]."
    report = check_support(text, SOURCES, counting)
    assert counting.calls == 1 and len(report.sentences) == 3


# --- thresholds and shapes -----------------------------------------------------------------------------------------

def test_grade_and_regrade_follow_the_thresholds(embedder):
    t = SupportThresholds(supported=0.7, weak=0.5)
    assert [grade(x, t) for x in (0.7, 0.69, 0.5, 0.49)] == ["supported", "weak", "weak", "unsupported"]
    report = check_support("Staff can work remotely on Fridays if their manager agrees [S1]. The limit is $99 [S2]. "
                           "Lodging is always free of charge.", SOURCES, embedder)
    strict = regrade(report, SupportThresholds(supported=0.99, weak=0.98))
    assert [s.status for s in strict.sentences] == ["unsupported", "unsupported", "uncited"]
    assert strict.sentences[0].similarity == report.sentences[0].similarity and strict.coverage == report.coverage


@pytest.mark.parametrize("supported,weak", [(0.5, 0.6), (1.2, 0.5), (0.5, -1.5)])
def test_thresholds_validate_themselves(supported, weak):
    with pytest.raises(ValueError):
        SupportThresholds(supported=supported, weak=weak)


def test_bad_inputs_raise():
    with pytest.raises(TypeError):
        check_support(None, SOURCES, Table({}))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check_support("X is 5 [S1].", {"S1": 5}, Table({}))  # type: ignore[dict-item]


def test_as_dict_shapes(embedder):
    report = check_support("The limit is $65 [S1].", {"S1": "The daily meal limit is $50."}, embedder)
    out = report.as_dict()
    assert set(out) == {"sentences", "coverage", "judge"} and out["coverage"] == 1.0
    (s,) = out["sentences"]
    assert set(s) == {"text", "labels", "status", "reason", "similarity", "missing_values", "in_source", "answers"}
    assert s["labels"] == ["S1"] and s["missing_values"] == ["$65"] and isinstance(s["similarity"], float)


# --- in the source, and answering the question (issue 18, item 3) -------------------------------------------------

def test_each_sentence_says_apart_whether_it_is_in_its_source_and_whether_it_answers_the_question(embedder):
    answer = ("The daily meal allowance is $65 when travelling [S2]. Receipts are required for claims [S2]. "
              "Employees may work from home on Fridays [S1].")
    report = check_support(answer, SOURCES, embedder, question="How much is the daily meal allowance?")
    allowance, receipts, remote = report.sentences
    assert (allowance.in_source, allowance.answers) == (True, True)
    assert (receipts.in_source, receipts.answers) == (True, False)  # in its source, but states no amount
    assert remote.answers is False
    assert report.as_dict()["sentences"][1]["answers"] is False and report.as_dict()["sentences"][0]["in_source"]
    wrong = only(check_support("The daily meal allowance is $99 [S2].", SOURCES, embedder,
                               question="How much is the daily meal allowance?"))
    assert (wrong.in_source, wrong.answers) == (False, True)  # states an amount, not the source's


def test_answers_is_not_judged_for_a_question_that_asks_for_nothing_checkable(embedder):
    s = only(check_support("Employees may work from home on Fridays [S1].", SOURCES, embedder,
                           question="Can I work from home?"))
    assert s.answers is None and only(check_support("Employees may work from home on Fridays [S1].", SOURCES,
                                                    embedder)).answers is None


def test_the_report_says_its_grades_come_from_the_similarity_check(embedder):
    report = check_support("Employees may work from home on Fridays [S1].", SOURCES, embedder)
    assert report.judge == "similarity" and report.as_dict()["judge"] == "similarity"
