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
    # what to do, right after the sentence its "it" points back to (the s27 new-user run: "Report it" led the answer)
    assert answer.startswith("A lost or stolen laptop is a security incident [S1]. Report it in #sec-incidents "
                             "within 1 hour"), answer



def test_the_sentence_saying_what_to_do_that_continues_a_chosen_one_goes_first_below_the_floor():
    """"Report it ..." right after the chosen sentence it points back to is taken even when its own score is low:
    its pronoun leaves the laptop to the sentence before it (the s24 round: "I lost my laptop on the train. What
    should I do?" on the demo handbook scored it 0.603, under the 0.62 floor, and got the situation restated)."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class S:
        text: str
        score: float
        position: int

    event, report = S("A lost laptop is a security incident.", 0.67, 4), S("Report it within 1 hour.", 0.60, 5)
    other = S("Return the old laptop within 14 days.", 0.58, 9)
    ranked = [event, report, other]
    at = {event.position}
    continues = (lambda s: s.position - 1 in at and s.text.startswith("Report it"))
    text, score = (lambda s: s.text), (lambda s: s.score)
    assert action_first([event], ranked, text, 0.62, score, 3) == [event]  # below the floor, nothing continues
    assert action_first([event], ranked, text, 0.62, score, 3, continues=continues) == [report, event]
    # a sentence saying what to do that does not continue a chosen one still needs the floor
    assert action_first([event], [event, other], text, 0.62, score, 3, continues=continues) == [event]
    # the sentence it points back to goes right before it (the s27 new-user run)
    item = S("A lost or stolen laptop, phone or YubiKey", 0.70, 1)
    antecedent = (lambda s: event if s is report else None)
    assert action_first([item, event], ranked, text, 0.62, score, 3, continues=continues,
                        antecedent=antecedent) == [event, report, item]


def test_i_lost_my_laptop_on_the_train_is_answered_with_what_to_do(embedder):
    """The demo handbook's two pages, as the s24 round's run asked them: the situation "on the train" lowers every
    sentence's score, and the incident list's item and the event sentence outrank "Report it ..."."""
    laptop = make_page(1, "Equipment and Laptop Policy", "Damage, loss and theft > Loss or theft",
                       "Report damage to the IT Help Desk through #it-help or by calling extension 4357. IT provides "
                       "a loaner laptop within 1 business day while yours is repaired.\n\nA lost or stolen laptop is "
                       "a security incident. Report it in #sec-incidents within 1 hour, then file a police report "
                       "within 48 hours if the laptop was stolen, and send the report number to the IT Help Desk. "
                       "IT will remotely lock and wipe the device.")
    incident = make_page(2, "Security, Passwords and Incident Reporting", "What counts as an incident",
                         "- A lost or stolen laptop, phone or YubiKey\n- Clicking a suspicious link or entering "
                         "credentials on an unfamiliar page\n- Sending Confidential data to the wrong person")
    answer = offline_answer(embedder, "I lost my laptop on the train. What should I do?", laptop, incident)
    # what to do, right after the sentence its "it" points back to (the s27 new-user run: "Report it" led the answer)
    assert answer.startswith("A lost or stolen laptop is a security incident [S1]. Report it in #sec-incidents "
                             "within 1 hour"), answer
