"""A question asking who holds a role ("Who is the decision maker for ...?") ranks the sentence saying who holds it
("The requester's first line supervisor will be the decision maker (DM)") with the definition bonus
(grounding.sentence_cues.asked_role, names_role_holder)."""

from __future__ import annotations

from grounding.sentence_cues import asked_role, names_role_holder
from tests.grounding.helpers import make_page, offline_answer

#: the 18F reasonable accommodations page, as the s28 new user's office files asked it
RA = ("A reasonable accommodation (RA) is a modification or adjustment to a job, a work environment, or a hiring "
      "process, based on a medical condition. An RA can be a verbal or written request. RA requests can also go to "
      "TTS’ Local Reasonable Accommodation Coordinator (LRAC). If current staff can provide an effective "
      "accommodation, the decision maker will consider that option. The requester’s first line supervisor will be "
      "the decision maker (DM) for the RA request.")


def test_the_role_a_question_asks_the_holder_of():
    assert asked_role("Who is the decision maker for a reasonable accommodation request?") == "decision maker"
    assert asked_role("Who will be my approver when I travel?") == "approver"
    assert asked_role("What is the decision maker's role?") == ""
    holder = "The requester’s first line supervisor will be the decision maker (DM) for the RA request."
    assert names_role_holder("decision maker", holder)
    assert not names_role_holder("decision maker", "If staff can help, the decision maker will consider that option.")


def test_who_holds_a_role_is_answered_by_the_sentence_naming_the_holder(embedder):
    # before: the decision maker's duties were quoted and the sentence naming who decides was not
    answer = offline_answer(embedder, "Who is the decision maker for a reasonable accommodation request?",
                            make_page(1, "Reasonable accommodations", "Requesting an RA", RA))
    assert "The requester’s first line supervisor will be the decision maker (DM) for the RA request [S1]." in answer
