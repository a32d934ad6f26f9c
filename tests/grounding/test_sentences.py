"""Sentence splitting (grounding.sentences): inline code keeps its punctuation to itself."""

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
