"""grounding.residual_cases: which sentences state the rule for the cases a document does not list."""

from __future__ import annotations

import pytest

from grounding.residual_cases import general_opener, states_residual_rule


@pytest.mark.parametrize("text,expected", [
    ("The nightly hotel limit is $225 per night before taxes in most cities.", True),
    ("Mileage is paid at $0.70 per mile in all other states.", True),
    ("Everywhere else, the standard rate applies.", True),
    ("The rates are described elsewhere in this handbook.", False),
    ("For any other location, ask the travel team.", True),
    ("In high-cost cities (New York, Boston) the limit is $325 per night.", False),
    ("Most employees work in Lincoln.", False),
    ("Other offices are closed on Fridays.", False),
    ("See the pages for other regions for more details.", False),
    ("We work for our partners at other agencies.", False),
])
def test_a_rule_for_the_unlisted_cases_is_recognised(text, expected):
    assert states_residual_rule(text) is expected


def test_the_opener_names_the_cases_the_documents_do_not():
    assert general_opener(["Denver"]) == "The documents say nothing specific about Denver; in general:"
    assert general_opener(["Denver", "Austin"]) == \
        "The documents say nothing specific about Denver or Austin; in general:"
