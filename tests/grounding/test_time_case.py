"""grounding.time_case: a sentence holding the time case a question names ("after 5 years") first."""

from __future__ import annotations

from grounding.scored_sentences import ScoredSentence
from grounding.time_case import time_case_first, time_cases

CARRY = ScoredSentence("Up to 5 unused PTO days carry over into the next calendar year.", "S1", 0.874)
TENURE = ScoredSentence("After five full years of service, the accrual rate rises to 2 days per month.", "S1", 0.70)
NOTICE = ScoredSentence("Requests of three days or fewer need at least 5 business days' notice.", "S2", 0.68)


def test_time_cases_read_number_words_as_digits_and_words_between():
    assert time_cases(TENURE.text) == {("after", "5", "year")}
    assert time_cases("Claims more than two weeks old are refused") == {("more than", "2", "week")}
    assert time_cases("within 30 days of the trip") == {("within", "30", "day")}
    assert time_cases("after one year") == frozenset()  # "one" is as often a pronoun as a count
    assert time_cases("after 5 years of service, within the month") == {("after", "5", "year")}


def test_the_sentence_holding_the_asked_case_comes_first_within_reach():
    out = time_case_first([CARRY, NOTICE, TENURE], "How many PTO days do I get? and after 5 years?")
    assert out[0].text == TENURE.text and out[0].score == CARRY.score
    assert [s.text for s in out[1:]] == [CARRY.text, NOTICE.text]


def test_ranking_is_kept_when_the_best_holds_it_none_does_or_it_is_far():
    assert time_case_first([TENURE, CARRY], "and after 5 years?") == [TENURE, CARRY]
    assert time_case_first([CARRY, NOTICE], "and after 5 years?") == [CARRY, NOTICE]  # another bound or unit
    far = ScoredSentence(TENURE.text, "S1", 0.5)
    assert time_case_first([CARRY, far], "and after 5 years?") == [CARRY, far]
    assert time_case_first([CARRY, TENURE], "How many PTO days do I get?") == [CARRY, TENURE]
