"""A yes/no question asking whether a thing exists at all ("Is there ...?", "Does the company offer ...?")."""

from __future__ import annotations

from tests.grounding.helpers import make_page, offline_answer


def test_is_there_a_thing_granted_to_some_and_denied_to_others_opens_with_yes(embedder):
    """"Is there an internet reimbursement?": one group gets it, another not; there is one (the s18 new-user run on
    the demo handbook opened "No." from the sentence denying it to hybrid employees)."""
    page = make_page(1, "Remote and Hybrid Work Policy", "Internet",
                     "Fully remote employees are reimbursed up to $50 per month for home internet. Hybrid employees "
                     "are not eligible for the internet reimbursement.")
    answer = offline_answer(embedder, "Is there an internet reimbursement?", page)
    assert answer.startswith("Yes. Fully remote employees are reimbursed up to $50"), answer


def test_a_sentence_not_naming_the_thing_asked_to_exist_settles_nothing(embedder):
    """The s21 new-user run on the demo handbook: "Is there a monthly phone stipend for remote employees?" opened
    "Yes." from the home internet reimbursement under "Stipend · Internet"; the handbook has no phone stipend. A
    sentence naming only part of the thing ("stipend" in its section, no "phone") answers neither way."""
    from grounding.subject_check import existent_unsaid

    page = make_page(1, "Remote and Hybrid Work Policy", "Home office setup > Stipend · Internet",
                     "Remote employees receive a one-time home office stipend of $750. Fully remote employees are "
                     "reimbursed up to $50 per month for home internet.")
    answer = offline_answer(embedder, "Is there a monthly phone stipend for remote employees?", page)
    assert not answer.startswith(("Yes", "No")) and "$50 per month" in answer, answer
    assert existent_unsaid("Is there a monthly phone stipend for remote employees?",
                           "Stipend · Internet\nFully remote employees are reimbursed up to $50 per month.") == ["phone"]
    assert existent_unsaid("Is there an internet reimbursement?",
                           "Fully remote employees are reimbursed up to $50 per month for home internet.") == []
    assert existent_unsaid("Can I get a phone?", "Phones are issued on request.") == []  # not existential


def test_a_no_to_an_existential_question_needs_the_head_noun_named():
    """A denial may name the thing in other words ("Is there extra approval paperwork ...?" / "... does not have this
    additional paperwork", development question d115), not without its head noun ("Is there a limit on how many
    people can join?" is not answered no by "If someone is unable to join ..."; fresh19y u03)."""
    from grounding.subject_check import existent_unsaid

    question = "Is there extra approval paperwork for advanced annual leave?"
    denial = "Advanced annual leave does not have this additional paperwork."
    assert existent_unsaid(question, denial) == ["extra", "approval"]
    assert existent_unsaid(question, denial, head_only=True) == []
    assert existent_unsaid("Is there a limit on how many people can join a Google Meet call?",
                           "If someone is unable to join using their computer, they can dial in.",
                           head_only=True) == ["limit"]
