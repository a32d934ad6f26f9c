"""The other cases of a value (grounding.answer_cases): a question naming no case gets every case its source states.
Made-up policies, written for these tests."""

from __future__ import annotations

from grounding.answer_cases import with_other_cases
from grounding.sentence_rank import ScoredSentence

MOST = ScoredSentence("The nightly hotel limit is $180 per night in most cities.", "S1", 1.10)
HIGH = ScoredSentence("In high-cost cities (Oslo, Zurich) the limit is $290 per night.", "S1", 0.87)
RESTATED = ScoredSentence("Hotels are limited to $180 per night.", "S1", 0.95)
OTHER_SOURCE = ScoredSentence("The conference hotel limit is $400 per night.", "S2", 0.90)
NO_VALUE = ScoredSentence("If a conference hotel costs more, note the reason.", "S1", 0.80)
LOW = ScoredSentence("Airport hotels have a limit of $150 per night.", "S1", 0.60)


def test_a_value_for_one_case_comes_with_the_other_cases_of_its_source():
    ranked = [MOST, RESTATED, OTHER_SOURCE, HIGH, NO_VALUE, LOW]
    assert with_other_cases([MOST], ranked, "amount", "What is the hotel limit?", reach=0.24, threshold=0.62, limit=3) == [MOST, HIGH]


def test_nothing_is_added_beyond_the_floor_the_limit_or_for_another_kind():
    ranked = [MOST, HIGH, LOW]
    assert with_other_cases([MOST], ranked, "amount", "What is the hotel limit?", reach=0.15, threshold=0.62, limit=3) == [MOST]
    assert with_other_cases([MOST], ranked, "amount", "What is the hotel limit?", reach=0.6, threshold=0.5, limit=1) == [MOST]
    assert with_other_cases([MOST], ranked, "yesno", "Is there a hotel limit?", reach=0.6, threshold=0.5, limit=3) == [MOST]
    # "other" is read as the amount the best sentence states ("What hotel stipend do I get?")
    assert with_other_cases([MOST], ranked, "other", "What hotel limit applies?", reach=0.24, threshold=0.62, limit=3) == [MOST, HIGH]


def test_a_sentence_without_the_attribute_the_best_answers_with_is_no_other_case():
    unrelated = ScoredSentence("Meals are reimbursed at $70 per day.", "S1", 0.95)
    assert with_other_cases([MOST], [MOST, unrelated], "amount", "What is the hotel limit?", reach=0.6,
                            threshold=0.5, limit=3) == [MOST]


def test_an_also_sentence_comes_with_the_rule_it_adds_to():
    """"Trips abroad also need approval from your department head" is not the whole answer to "Who approves a trip
    abroad?": the rule beside it in the source ("All trips must be approved by your manager") comes first, even
    matched below the threshold; a rule far from it in the source does not."""
    also = ScoredSentence("Trips abroad also need approval from your department head.", "S1", 0.70, position=4)
    base = ScoredSentence("All trips must be approved by your manager.", "S1", 0.60, position=3)
    far = ScoredSentence("Expense reports on trips are approved by the finance team.", "S1", 0.65, position=12)
    ranked = [also, far, base]
    assert with_other_cases([also], ranked, "person", "Who approves a trip abroad?", reach=0.24, threshold=0.62,
                            limit=3) == [base, also]


def test_a_duration_for_one_case_comes_with_the_list_item_written_alike_next_to_it():
    """The s22 new-user run: "How much notice do I need to give before taking vacation?" gave the notice for short
    requests only; the item for longer ones (scored under the threshold) stands next to it, written alike. Durations
    are no CASE_KINDS: another duration of the page, or an item not written alike, stays out."""
    short = ScoredSentence("Requests of three days or fewer need at least 5 business days' notice.", "S1", 0.62,
                           kind="item", position=4)
    long = ScoredSentence("Requests longer than three days need at least 4 weeks' notice.", "S1", 0.59, kind="item",
                          position=5)
    manager = ScoredSentence("Your manager answers within 3 business days.", "S1", 0.58, kind="item", position=6)
    other = ScoredSentence("Laptops are replaced every 36 months.", "S1", 0.61, kind="sentence", position=9)
    question = "How much notice do I need to give before taking vacation?"
    assert with_other_cases([short], [short, other, long, manager], "duration", question, reach=0.24, threshold=0.62,
                            limit=3) == [short, long]
    assert with_other_cases([long], [long, manager], "duration", question, reach=0.24, threshold=0.62,
                            limit=3) == [long]  # "Your manager ..." is not written alike
