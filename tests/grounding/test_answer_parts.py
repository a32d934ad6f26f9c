"""Messages asking several things at once, answered part by part by the offline answerer (s6 round; rules written on
the calibration half of the 18F golden set, the development set and the demo handbook, never on the test half)."""

from __future__ import annotations

from grounding.question_parts import question_parts
from grounding.sentence_cues import asked_numbers
from tests.grounding.helpers import make_page, offline_answer


def test_each_question_sentence_of_a_message_is_a_part():
    # "How much PTO do I get? Do sick days carry over?" was read as its last question only (a yes/no question)
    assert question_parts("How much PTO do I get? Do sick days carry over?") == (
        "", ["How much PTO do I get?", "Do sick days carry over?"])
    # a statement among them is the preamble; "And" only joins the second question to the first
    assert question_parts("My badge reader says the card is not trusted. What should I try? And what if I forgot "
                          "my card at home?") == ("My badge reader says the card is not trusted.",
                                                  ["What should I try?", "what if I forgot my card at home?"])
    # one question and a statement: one part, as before
    assert question_parts("Is 1Password approved? I want to use it.") == (
        "", ["Is 1Password approved? I want to use it."])


def test_a_leading_condition_of_the_first_part_frames_every_part():
    lead, parts = question_parts("If I switch to a compressed schedule, how many hours do I get for a holiday, and "
                                 "what's the longest day I can work?")
    assert lead == "If I switch to a compressed schedule"
    assert parts == ["how many hours do I get for a holiday", "what's the longest day I can work?"]
    # a setting frames its own part only
    lead, parts = question_parts("On the transit application, what code goes in the form, and what do I click to "
                                 "stop the benefit?")
    assert lead == "" and parts[0].startswith("On the transit application")


def test_a_yes_no_part_opens_with_its_answer_and_a_referring_part_is_asked_about_the_previous_one(embedder):
    leave = make_page(1, "Paid Time Off and Holidays", "Sick leave",
                  "Every employee receives 10 paid sick days per calendar year, credited on January 1. "
                  "Sick days do not carry over and are not paid out on departure.")
    other = make_page(2, "Travel", "Hotels", "Hotel stays are booked through the travel desk and paid by card.")
    text = offline_answer(embedder, "How many sick days do I get? Do they carry over?", leave, other)
    assert text == ("Every employee receives 10 paid sick days per calendar year, credited on January 1 [S1]. "
                    "No. Sick days do not carry over and are not paid out on departure [S1].")


def test_a_part_naming_a_place_is_answered_from_what_is_said_of_that_place(embedder):
    # "..., and what does parking at 355 McAllister cost per hour?" was answered with another city's garage prices:
    # the street number earned the sentence that only gives the address a bonus, and the part ignored the place
    assert asked_numbers("What does parking at 355 McAllister cost per hour?") == frozenset()
    assert asked_numbers("I supervise 4 people. How many reviews do I write?") == frozenset({"4"})
    nice = make_page(1, "Nice office", "Getting here",
                 "The tram fare is €1.70 for one hour of travel.\n"
                 "If you drive, you may park at 12 Rue Neuve.\n"
                 "Fees at 12 Rue Neuve vary from €2.50 to €4 per hour.")
    lyon = make_page(2, "Lyon office", "Parking", "Parking at nearby garages tends to cost €14 for the first hour.")
    text = offline_answer(embedder, "How much is a tram fare in Nice, and what does parking at 12 Rue Neuve cost per hour?",
                   nice, lyon)
    assert "€1.70" in text and "€2.50 to €4 per hour [S1]" in text
    assert "€14" not in text


def test_a_closing_condition_is_not_what_a_part_asks_for_and_a_weak_it_does_not_refer_back(embedder):
    # "The software I need isn't approved yet. What do I submit to GSA IT, and what else do I file if it costs
    # money?" (the development set): the second part was read as asking for an amount ("costs") and, for its "it",
    # matched with the first part's words; nothing answered it
    from grounding.answer_types import question_type
    from grounding.extractive_parts import with_referent

    assert question_type("what else do I file if it costs money?") == "other"
    assert question_type("How much does it cost if I cancel?") == "amount"
    assert with_referent("what else do I file if it costs money?", ["What do I submit to IT"]) == (
        "what else do I file if it costs money?")
    assert with_referent("Do they carry over?", ["How many sick days do I get?"]) != "Do they carry over?"
    page = make_page(1, "Software", "Requesting software",
                 "If the software is not already approved, submit a Software Review Request to have it reviewed by "
                 "IT. If there will be a cost associated with the software you are submitting for review, you will "
                 "need to also submit a Micropurchase request. Almost all software in use needs to be approved.")
    text = offline_answer(embedder, "The software I need isn't approved yet. What do I submit to IT, and what else do I "
                             "file if it costs money?", page)
    assert "Software Review Request" in text and "Micropurchase request [S1]" in text


def test_a_part_that_is_only_a_question_word_asks_it_of_the_part_before(embedder):
    """The s12 breaker's run on the demo handbook: "How many PTO days carry over, and by when?" was read as one
    question and answered with the carry-over sentence only; "by when?" asks the deadline of the carried-over days."""
    assert question_parts("How many PTO days carry over, and by when?") == ("", ["How many PTO days carry over",
                                                                                "by when?"])
    assert question_parts("Who approves trips, and for how long?")[1] == ["Who approves trips", "for how long?"]
    assert question_parts("How many days carry over and by when do they have to be used?")[1] == [
        "How many days carry over", "by when do they have to be used?"]
    # "and" inside a name, and a short piece that is not a question word, do not split
    assert question_parts("What is the R and D budget?")[1] == ["What is the R and D budget?"]
    assert question_parts("Which trains and buses run late?")[1] == ["Which trains and buses run late?"]
    leave = make_page(1, "Leave", "Carryover",
                      "Up to 4 unused leave days carry over into the next year; any balance above 4 days is forfeited "
                      "on January 1. Carried-over days must be used by April 30 or they expire.")
    other = make_page(2, "Travel", "Hotels", "Hotel stays are booked through the travel desk by Friday.")
    text = offline_answer(embedder, "How many leave days carry over, and by when?", leave, other)
    assert text == ("Up to 4 unused leave days carry over into the next year; any balance above 4 days is forfeited "
                    "on January 1 [S1]. Carried-over days must be used by April 30 or they expire [S1].")
