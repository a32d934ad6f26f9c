"""A question asking what to do is answered first with a sentence that says what to do (the demo handbook, s18
new-user run: "I lost my laptop. What should I do?" got only sentences restating the situation)."""

from __future__ import annotations

from grounding.action_answers import action_first, asks_action, says_action
from tests.grounding.helpers import make_page, offline_answer


def test_a_question_asking_what_to_do_is_told_apart():
    assert asks_action("I lost my laptop. What should I do?")
    assert asks_action("What do I need to do if my badge is lost?")
    assert asks_action("What are the next steps after approval?")
    assert not asks_action("What is the nightly hotel limit?")
    assert not asks_action("What should I bring on my first day?")


def test_a_sentence_saying_what_to_do_opens_with_an_imperative_or_an_obligation():
    assert says_action("Report it in #sec-incidents within 1 hour, then file a police report.")
    assert says_action("Contact your manager before you book.")
    assert says_action("You must return your old laptop within 14 days.")
    assert not says_action("A lost or stolen laptop is a security incident.")
    assert not says_action("Travel must be approved.")  # not said to the reader
    assert not says_action("The IT Help Desk replaces laptops every four years.")


def test_the_closest_sentence_saying_what_to_do_goes_first_within_reach():
    ranked = [("A lost laptop is a security incident.", 0.9), ("Report it within 1 hour.", 0.75),
              ("Return the old laptop within 14 days.", 0.5)]
    text, score = (lambda s: s[0]), (lambda s: s[1])
    assert action_first(ranked[:1], ranked, text, 0.7, score, 3) == [ranked[1], ranked[0]]
    assert action_first(ranked[:1], ranked, text, 0.8, score, 3) == ranked[:1]  # none close enough
    assert action_first(ranked[1:2], ranked, text, 0.7, score, 3) == ranked[1:2]  # already first


def test_i_lost_my_laptop_what_should_i_do_is_answered_with_what_to_do(embedder):
    page = make_page(1, "Equipment and Laptop Policy", "Loss or theft",
                     "A lost or stolen laptop is a security incident. Report it in #sec-incidents within 1 hour, then "
                     "file a police report within 48 hours if the laptop was stolen, and send the report number to "
                     "the IT Help Desk. IT will remotely lock and wipe the device.")
    answer = offline_answer(embedder, "I lost my laptop. What should I do?", page)
    assert answer.startswith("Report it in #sec-incidents within 1 hour"), answer

