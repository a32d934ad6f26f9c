"""Rules of the s40 round from development questions (fresh40's f40-m/v/t/l/y/a/u items, the split "fresh40" of
evaluation/golden/18f_fresh40.jsonl; each test names the item it came from; none is from the 18F test half or
fresh40's held part). Texts are made up unless they quote the question or the handbook page it was written from."""

from __future__ import annotations

from grounding.extractive_yesno import asks_existence
from tests.grounding.helpers import make_page, offline_answer

MOTHERS_ROOM = ("There's a mother's (aka lactation) room on the 54th floor on the southeast side. It has outlets, a "
                "sink, and a fridge. Ideally you should book time in the room with BookIt.")
CHICAGO_ROOMS = ("In Chicago, you can book rooms using BookIt. Most TTS Chicago-area staff work remotely full-time. "
                 "However, you will often find Ethan Heppner (TTS Tech Operations) working from the Hub on the 35th "
                 "floor Wednesdays.")


def test_f40_u10_whether_a_thing_exists_in_a_named_place_is_not_answered_from_another_places_page(embedder):
    """fresh40's f40-u10: "Is there a lactation or nursing room in the Chicago JCK building?" opened with the New
    York office's "There's a mother's (aka lactation) room on the 54th floor": the Chicago page says nothing of one."""
    new_york = make_page(1, "New York City", "Where are the... > Mother’s rooms", MOTHERS_ROOM)
    chicago = make_page(2, "Chicago", "How do I...? > Book rooms for meetings?", CHICAGO_ROOMS)
    text = offline_answer(embedder, "Is there a lactation or nursing room in the Chicago JCK building?",
                          new_york, chicago)
    assert "54th floor" not in text and "for Chicago" in text, text
    # asked of the place the page is about, it is answered
    text = offline_answer(embedder, "Is there a mother's room in the New York office?", new_york, chicago)
    assert text.startswith("Yes.") and "54th floor" in text, text


def test_f40_u10_asks_existence_reads_the_question_after_the_askers_situation():
    assert asks_existence("Is there a lactation or nursing room in the Chicago JCK building?")
    assert asks_existence("I just had a baby. Is there a nursing room at 1800 F?")
    assert not asks_existence("Do I have to book the mother's room?")
    assert not asks_existence("Can I book the mother's room for a call?")

