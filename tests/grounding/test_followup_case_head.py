"""An elliptical follow-up naming a case of several words ("What about my personal phone?") is answered by a sentence
naming the case's noun, not by one naming only its qualifier of the previous question's noun (fresh23c's f23c-19, a
development set: "Personal laptops cannot be connected ..." was the whole answer)."""

from __future__ import annotations

from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.followup import follow_up
from grounding.followup_reading import case_head, names_head, new_case
from grounding.memory import MemoryTurn
from grounding.tokens import counter_for
from tests.grounding.helpers import make_page

PREVIOUS = "Am I allowed to plug my own laptop into the network when I'm working at a GSA office?"


def test_the_head_of_a_case_of_several_words():
    asked = "What about my personal phone?"
    assert case_head(asked, new_case(asked, PREVIOUS)) == "phone"
    # a case of one word has no head to prefer
    assert case_head("And for contractors?", new_case("And for contractors?", PREVIOUS)) == ""


def test_a_compound_or_a_plural_names_the_head():
    assert names_head("phone", "Only approved smartphones and tablets can be connected.")
    assert names_head("phone", "If you need help with your phone, call us.")
    assert not names_head("phone", "Personal laptops cannot be connected.")
    assert not names_head("pass", "Your passport must be valid.")


def test_f23c_19_the_phone_rule_answers_what_about_my_personal_phone(embedder):
    asked = "What about my personal phone?"
    pages = [make_page(1, "Network", "Connecting devices",
                       "Personal laptops cannot be connected directly to the GSA network at any GSA facility. "
                       "Please note, only approved smartphones and tablets can be connected to the GSA network."),
             make_page(2, "Onboarding", "Equipment", "Your laptop should be ready before your first day.")]
    counter = counter_for("extractive")
    plan = plan_context(question=asked, candidates=pages, system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", PREVIOUS, counter.count(PREVIOUS))])
    text = ExtractiveAnswerer(embedder).compose(follow_up(asked, [PREVIOUS]).query, plan)
    assert "only approved smartphones and tablets" in text, text
