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
