"""Rules of the s31 round from the fresh31 development set (evaluation/golden/18f_fresh31.jsonl, written by a helper
from 31 random handbook pages): each test names the item it came from. Texts are made up unless they quote the
question."""

from __future__ import annotations

from grounding.answer_types import question_type
from grounding.comparison_sides import comparison_sides
from grounding.question_parts import specifics

F31_26 = ("Who gets back to me faster: the Events Team after I raise a question on my conference request, or the "
          "Office of Acquisition after I submit an intake form for a purchase over $10,000?")


def test_f31_26_two_long_sides_after_a_colon_are_each_asked_whole():
    sides = comparison_sides(F31_26)
    assert sides is not None
    assert sides.queries == (
        "Who gets back to me faster: the Events Team after I raise a question on my conference request?",
        "Who gets back to me faster: the Office of Acquisition after I submit an intake form for a purchase over "
        "$10,000?")
    # a short side after a colon is read as before
    assert comparison_sides("Which is a quicker train ride: SFO to the SF office, or Midway to the Chicago "
                            "office?").phrases == ("SFO to the SF office", "Midway to the Chicago office")


def test_f31_26_who_gets_back_faster_asks_how_long_not_for_a_person():
    assert question_type(sides_first := comparison_sides(F31_26).queries[0]) == "duration", sides_first
    assert question_type("Who approves my travel request?") == "person"
    assert question_type("Who pays more, the agency or the employee?") != "duration"


def test_f31_26_the_head_noun_of_an_organisation_pins_no_source():
    # "Office" of "the Office of Acquisition": the page writes "OA"; "Events" still pins the Events Team's pages
    assert specifics("Who answers faster, the Office of Acquisition or the Events Team?") == ["Acquisition", "Events"]
    assert specifics("What is the nightly hotel limit in Denver?") == ["Denver"]
