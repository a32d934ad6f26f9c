"""One message asking two things of the demo handbook, as a new user asks it (`manage.py ask "..." --domain handbook
--json`): what the user reads."""

from __future__ import annotations

from tests.chat.test_demo_answers import _ask


def test_how_much_pto_and_does_it_carry_over_answers_both_parts_from_the_pto_rules(demo_domain, capsys):
    """The s38 notes: answered with the accrual and the policy's opening sentence, which names earning PTO and not
    carrying it over ("does it carry over?" had its one sentence above the threshold there). Then, reading the
    sentences naming "carry" close to that best one, "Sick days do not carry over" was taken: sick days are not the
    paid time off "it" stands for. The PTO rule ("PTO" is defined as paid time off on the page) answers it."""
    (answer,) = _ask(capsys, "How much paid time off do I earn, and does it carry over?")
    text = answer["answer"]
    assert "1.5 days of paid time off per month" in text, text
    assert "Up to 5 unused PTO days carry over into the next calendar year" in text, text
    assert "Sick days" not in text and "This policy explains" not in text, text
    assert not answer["abstained"]
