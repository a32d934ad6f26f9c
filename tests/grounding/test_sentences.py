"""Sentence splitting (grounding.sentences): inline code keeps its punctuation to itself, a time its time zone."""

from __future__ import annotations

from grounding.sentences import split_sentences


def test_a_full_stop_inside_inline_code_ends_no_sentence():
    # the 18F development set (d044): "... you can edit the text and leave a `.` or a note ..." was split after the
    # code's full stop, and the answer quoted "you can edit the text and leave a [S3]."
    text = ("You aren't able to delete a message: instead, you can edit the text and leave a `.` or a note such as "
            "`wrong channel.` After 5 minutes, you cannot edit or delete your message.")
    assert split_sentences(text) == [
        "You aren't able to delete a message: instead, you can edit the text and leave a `.` or a note such as "
        "`wrong channel.`",
        "After 5 minutes, you cannot edit or delete your message."]


def test_code_with_question_and_exclamation_marks_and_plain_sentences_around_it():
    assert split_sentences("Type `y?` or `n!` at the prompt. Then run `make test`. Done? Yes!") == [
        "Type `y?` or `n!` at the prompt.", "Then run `make test`.", "Done?", "Yes!"]
    # no code: pysbd's split as before
    assert split_sentences("Book early. Flights cost less. Ask Dr. Smith.") == [
        "Book early.", "Flights cost less.", "Ask Dr. Smith."]


def test_a_time_before_its_time_zone_ends_no_sentence():
    # the demo handbook's core hours ("10:00 a.m. to 3:00 p.m. Central Time, Monday through Friday") were split after
    # "p.m.", and an answer quoted "Central Time, Monday through Friday [S2]." (the s12 new-user run)
    assert split_sentences("Be available from 10:00 a.m. to 3:00 p.m. Central Time, Monday through Friday. Outside "
                           "core hours, arrange your schedule.") == [
        "Be available from 10:00 a.m. to 3:00 p.m. Central Time, Monday through Friday.",
        "Outside core hours, arrange your schedule."]
    assert split_sentences("The call starts at 9 a.m. ET on Monday. It ends at 5 p.m. Then we leave.") == [
        "The call starts at 9 a.m. ET on Monday.", "It ends at 5 p.m.", "Then we leave."]
