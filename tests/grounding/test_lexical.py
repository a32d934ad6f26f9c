"""The one home of lexical helpers (grounding/lexical.py) and of values with units (grounding/values.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from grounding.lexical import (STOP_WORDS, asks_about_past, bm25_tokens, content_terms, is_negation, negation_cues,
                               period_year, stem, tokens)
from grounding.value_compare import same_value
from grounding.values import typed_values, value_keys

ROOT = Path(__file__).resolve().parents[2]


def test_tokens_keep_values_and_inner_apostrophes_and_hyphens_with_offsets():
    text = "The employee's $1,200.50 high-cost allowance isn't 5% of COVID-19 pay."
    assert [w for w, _, _ in tokens(text)] == ["the", "employee's", "$1,200.50", "high-cost", "allowance", "isn't",
                                               "5%", "of", "covid-19", "pay"]
    assert all(text[s:e].lower() == w for w, s, e in tokens(text))


def test_one_stemmer_strips_possessives_and_reads_curly_apostrophes():
    assert stem("Employee's") == stem("employee’s") == stem("employees") == "employe"
    assert stem("equality") == "equal"


def test_content_terms_drop_stop_words_split_hyphens_and_stem():
    assert content_terms("How many vacation days do I get in a year?") == {"vacat", "day", "year"}
    # prepositions that carry a question's meaning are content words: a deadline "within" some days
    assert content_terms("Within how many days are requests acknowledged?") == {"within", "day", "request",
                                                                               "acknowledg"}
    assert "within" in content_terms("The DM acknowledges a request within three calendar days of receipt.")
    assert content_terms("the high-cost cities") == {"high", "cost", "citi"}
    assert content_terms("$65 or 5%") == {"$65", "5%"}


def test_the_stop_list_holds_function_words_question_words_and_lucenes_list():
    lucene = {"a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no",
              "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to",
              "was", "will", "with"}
    assert lucene <= STOP_WORDS
    assert {"what", "how", "please", "per", "before", "after"} <= STOP_WORDS
    assert not {"leave", "allowance", "hotel", "days"} & STOP_WORDS


def test_bm25_tokens_use_lucenes_stop_list_and_the_same_stemmer():
    assert bm25_tokens(["What is the nightly hotel limit in most cities?"]) == [["what", "night", "hotel", "limit",
                                                                                "most", "citi"]]
    assert bm25_tokens(["within 30 days"]) == [["within", "30", "day"]]


def test_bm25_tokens_keep_single_digits_that_number_a_thing():
    # bm25s's default pattern keeps words of two or more characters: "Day 3" was the term "day" alone
    assert bm25_tokens(["What happens on Day 3?"]) == [["what", "happen", "day", "3"]]
    assert bm25_tokens(["Step 2 of form SF-50, a 5% raise"]) == [["step", "2", "form", "sf", "50", "5", "rais"]]
    assert bm25_tokens(["a b I x 7"]) == [["7"]]  # single letters are still not terms


def test_negation_cues_read_contractions_and_not_number_abbreviations():
    assert negation_cues("Contractors may not use the lounge and can't park.") == 2
    assert negation_cues("It is n't allowed.") == 1  # tokenised text
    assert negation_cues("No. 100 Squadron flew in 1918.") == 0
    assert negation_cues("You can request Leave Without Pay (LWOP).") == 0  # a name, not a negation
    assert negation_cues("The library isn't just for mandatory trainings.") == 0  # "not just" adds
    assert negation_cues("Don't forget to submit it. Do not hesitate to ask.") == 0  # asks to do it
    assert negation_cues("No. Please don't save hours.") == 1  # the answer "No." negates nothing
    assert is_negation("never") and is_negation("doesn't") and not is_negation("note")


@pytest.mark.parametrize("question,past", [
    ("What was the meal allowance in 2024?", True), ("What was the previous hotel limit?", True),
    ("Has the deadline changed?", True), ("What is the meal allowance?", False),
    # "before" a time or a version asks about the past; before an action or one's own event asks what to do first
    # (18F fresh15 m04, development data: "Who should I check with before enabling a Slack-to-Google Docs plugin?")
    ("What was the limit before the update?", True), ("What did it say before 2020?", True),
    ("Who should I check with before enabling a plugin?", False), ("Who do I tell before I travel?", False),
    ("What must I file before my trip?", False),
    # the s28 breaker: superseded versions answered ordinary questions asking before an event or whether a case
    # changes the answer; and "change my ENT password" (the development sets) is a change the asker makes
    ("Do I need to notify GSA before personal international travel?", False),
    ("Does 18F start project work before the IAA is signed?", False),
    ("Does that change if I only take four weeks of it?", False), ("How often do I have to change my password?", False),
    ("Did the mileage rate change?", True), ("What changed in the leave policy?", True),
    ("What salary did the page give before it was updated?", True), ("What was the rule before the new policy?", True),
])
def test_the_past_question_cue(question, past):
    assert asks_about_past(question) is past


def test_typed_values_give_kind_number_slot_and_rate():
    (meal,) = typed_values("The daily meal allowance is $65 per day.")
    assert (meal.kind, meal.number, meal.text, meal.rate, meal.keys) == ("amount:$", 65.0, "$65", "day", ("$65",))
    assert meal.context == {"allow", "day"}
    (big,) = typed_values("WhatsApp was bought for about US$19.3 billion.")
    assert (big.kind, big.number, big.hedged, big.precision) == ("amount:$", pytest.approx(1.93e10), True, 8)
    kinds = [(v.kind, v.text) for v in typed_values(
        "Submit within 30 business days, two weeks or sixty-five minutes; GS-15 staff at 10:30 on Feb. 19, 2014 "
        "pay 5 percent to 3,559 people in their 13th year.")]
    assert kinds == [("duration", "30 business days"), ("duration", "two weeks"), ("duration", "sixty-five minutes"),
                     ("code", "GS-15"), ("time", "10:30"), ("date", "Feb. 19, 2014"), ("percent", "5 percent"),
                     ("qty:peopl", "3,559 people"), ("ordinal", "13th")]
    assert [v.number for v in typed_values("two weeks and sixty-five minutes")] == [14.0, pytest.approx(65 / 1440)]


def test_a_rate_needs_a_word_after_the_article():
    assert [v.rate for v in typed_values("$120 a person, 2,000 meters above the sea")] == ["person", ""]


def test_value_keys_are_the_values_as_normalised_strings():
    assert value_keys("Pay is 5 percent, up to $3,000 by Feb. 19, 2014.") == {"5%", "$3000", "19", "2014"}
    assert value_keys("two weeks, twenty one days, one week") == {"2", "21", "1"}
    assert value_keys("GS-15 at 10:30, ratio 1:1, version 1.2.3") == {"gs-15", "10:30", "1:1", "1.2.3"}
    assert value_keys("No one can tell which one.") == frozenset()  # a lone "one" is a pronoun, not a value
    assert value_keys("As reported [12], see [the 3 rules](http://x)") == {"3"}  # a reference marker is no value


def test_same_value_is_rounding_hedge_and_unit_aware():
    a, b = typed_values("about 3,600 people")[0], typed_values("3,559 people")[0]
    assert a.kind == b.kind == "qty:peopl" and same_value(a, b)
    assert same_value(typed_values("$19 billion")[0], typed_values("$19.3 billion")[0])
    assert same_value(typed_values("two weeks")[0], typed_values("14 days")[0])
    assert not same_value(typed_values("$65 per day")[0], typed_values("$65 per person")[0])
    assert not same_value(typed_values("GS-14")[0], typed_values("GS-15")[0])


def test_no_private_name_is_imported_across_modules():
    """A name with a leading underscore belongs to its module: no product module imports one from another."""
    offenders = []
    for package in ("grounding", "knowledge", "chat", "api", "config"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                    offenders += [f"{path.relative_to(ROOT)}: {node.module}.{a.name}" for a in node.names
                                  if a.name.startswith("_")]
    assert offenders == []


def test_the_words_naming_a_period_are_not_what_a_question_about_the_past_asks():
    from grounding.lexical import period_year, without_period

    assert without_period("What was the mileage rate under the January 2024 travel policy?") == (
        "What was the mileage rate under the travel policy?")
    assert without_period("What did the old policy say?") == "What did the policy say?"
    assert without_period("What was the cap in FY23?") == "What was the cap in FY23?"  # stated with values
    assert period_year("What was the allowance in 2024?") == "2024" and period_year("the old policy") == ""


def test_a_query_is_cut_into_bm25_tokens_once_and_as_the_index_cuts_it():
    from grounding.lexical import bm25_query_tokens

    bm25_query_tokens.cache_clear()
    query = "What is the nightly hotel limit in most cities?"
    assert bm25_query_tokens(query) == tuple(bm25_tokens([query])[0])
    bm25_query_tokens(query)
    assert bm25_query_tokens.cache_info().hits == 1


def test_a_year_bounding_the_period_names_no_version():
    """"before March 2025" asks what held until the version of March 2025 (grounding.lexical.period_year)."""
    from grounding.lexical import period_year

    assert period_year("What was the mileage rate before March 2025?") == ""
    assert period_year("Before 1 March 2025, what was the rate?") == ""
    assert period_year("What was the mileage rate in 2024?") == "2024"


def test_a_stop_word_with_a_possessive_s_is_no_content_term():
    """"what's the number?" named "what" of its own (its "'s" was taken off after the stop words were dropped), so
    the follow-up was retrieved alone and refused (the s48 demo conversation)."""
    assert content_terms("what's the number?") == content_terms("what is the number?") == {"number"}
    assert content_terms("It’s the employee's laptop") == {"employe", "laptop"}


def test_before_closing_a_past_question_asks_about_the_past():
    assert asks_about_past("what was it before?")
    assert asks_about_past("How much were they before")
    assert not asks_about_past("Do I need approval before?")
    assert not asks_about_past("What was I supposed to do before the trip?")


def test_an_amount_of_four_digits_names_no_year():
    """"and a domestic trip costing $2000?" was answered "No version from 2000 is held: ..." (the s48 new-user run)."""
    assert period_year("and a domestic trip costing $2000?") == ""
    assert not asks_about_past("Is a £1999 laptop allowed?")
    assert period_year("What was the allowance in 2024?") == "2024"
