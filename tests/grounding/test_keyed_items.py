"""The item of a keyed list a question looks up (grounding.keyed_items): "Who is the point person for Solutions?"
over a sentence announcing one point person per unit, then "Unit - Person" items. From the 18F development set
fresh15 (f15-m02); texts are made up for the tests."""

from __future__ import annotations

import pytest

from grounding.keyed_items import item_key, keyed_item
from tests.grounding.helpers import make_page, offline_answer

TEXTS = ["The front desk has a contact for each of the three buildings.", "North - Ana Ruiz",
         "South - Ben Okafor", "Annex - Vacant", "Ask the desk if a contact is away."]
KINDS = ["sentence", "item", "item", "item", "sentence"]


@pytest.mark.parametrize("text, key", [
    ("South - Ben Okafor", "South"), ("Fax: 202-555-0100", "Fax"), ("Trust-based: Is this a task?", "Trust-based"),
    ("Bring a photo ID to reception.", ""), ("A very long key of more than five words - value", ""),
])
def test_item_key_is_the_short_key_before_a_dash_or_colon(text, key):
    assert item_key(text) == key


def test_the_item_whose_key_the_question_names_is_looked_up():
    assert keyed_item(TEXTS, KINDS, 0, "Who is the front desk contact for the South building?") == 2


@pytest.mark.parametrize("question", [
    "Who is the front desk contact?",  # names no key
    "Who is the contact for the North and South buildings?",  # names two keys: not one lookup
])
def test_no_item_is_looked_up_unless_the_question_names_exactly_one_key(question):
    assert keyed_item(TEXTS, KINDS, 0, question) is None


def test_prose_items_or_a_short_run_are_no_keyed_list():
    prose = ["Bring these on day one.", "A photo ID for the South desk", "Your signed offer", "A laptop bag"]
    assert keyed_item(prose, ["sentence", "item", "item", "item"], 0, "What do I bring to the South desk?") is None
    assert keyed_item(TEXTS[:3], KINDS[:3], 0, "Who is the contact for South?") is None


def test_the_answer_quotes_the_looked_up_item_after_the_sentence(embedder):
    page = make_page(1, "Front desk", "Contacts",
                     "The front desk has a contact for each of the three buildings.\n\n"
                     "- North - Ana Ruiz\n- South - Ben Okafor\n- Annex - Vacant\n")
    text = offline_answer(embedder, "Who is the front desk contact for the South building?", page)
    assert "South - Ben Okafor [S1]" in text, text
    assert "Ana Ruiz" not in text


#: A keyed list the best sentence sums up after it, its keys told apart by one term each (the shape of f23c-14, a
#: development conversation of the fresh23c set: "What's the end-of-year performance award for someone rated Level
#: 5?" then "What about Level 4?"); made-up text.
SUMMED = ["Bonuses are paid as follows:", "Tier 5 reviews: Up to 4% of pay, or 40 hours off.",
          "Tier 4 reviews: Up to 2% of pay, or 20 hours off.", "\"Top 3\" reviews: Up to 1% of pay.",
          "The final bonus amounts for Tier 5, Tier 4 and Tier 3 reviews are set when every review is complete."]
SUMMED_KINDS = ["sentence", "item", "item", "item", "sentence"]


@pytest.mark.parametrize("question, at", [
    ("What bonus does someone rated Tier 5 get?", 1),  # "5" tells the key from its siblings; "tier" is half of it
    ("What about Tier 4?", 2),
    ("What bonus does a Tier reviewer get?", None),  # no telling term named: every key would do
    ("What do Tier 4 and Tier 5 get?", None),  # two keys named
])
def test_f23c_14_the_item_before_a_summing_sentence_is_looked_up_by_the_term_that_tells_its_key(question, at):
    assert keyed_item(SUMMED, SUMMED_KINDS, 4, question) == at

