"""A frequency question is answered first by a sentence saying how often (grounding.typed_values.recurs), not by a
time limit (the s30 new user's demo run: "How often do we get a new laptop?" led with "You must return your old laptop
within 14 days of receiving the new one"); a question asking how long one has to do something, by the window it must
happen in (grounding.typed_values.states_window)."""

from __future__ import annotations

from grounding.typed_values import asks_window, recurs, states_window


def test_a_frequency_or_a_cycle_recurs():
    assert recurs("Timecards are due every Friday.")
    assert recurs("Laptops are replaced on a 36-month refresh cycle.")
    assert recurs("The council meets weekly.")
    assert recurs("You do not need to change your password on a schedule.")


def test_a_time_limit_or_a_lead_time_does_not():
    assert not recurs("You must return your old laptop within 14 days of receiving the new one.")
    assert not recurs("Submit reports no later than 30 days after the trip.")
    assert not recurs("Request it at least 4 weeks ahead.")
    assert not recurs("Contact the help desk.")


def test_how_long_one_has_to_do_something_asks_a_window():
    assert asks_window("How long do I have to use it?")
    assert asks_window("How many days does my manager have to approve a request?")
    assert not asks_window("How long is parental leave?")
    assert states_window("Parental leave must be taken within 12 months of the child's birth.")
    assert states_window("Submit it no later than 30 days after the trip.")
    assert not states_window("You may take it in up to three separate blocks of at least 2 weeks each.")
