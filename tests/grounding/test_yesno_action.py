"""The action a yes/no question asks about (grounding.yesno_action) and the deciding sentence chosen by it
(grounding.extractive_yesno.decided). The cases are made-up policies written after the fresh3 set's wrong openers
(f3001: "Yes." to deleting a message from the sentence on editing one; f3019: "Yes." to submitting a checklist from
the sentence on filling it in), fresh3 being development data in the s15 round; none is from the 18F golden test
half."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grounding.extractive import ExtractiveAnswerer
from grounding.extractive_yesno import decided
from grounding.sentence_rank import ScoredSentence
from grounding.types import Source
from grounding.yesno_action import action_unstated, asked_actions


@pytest.mark.parametrize("clause,actions", [
    ("Can I delete the message?", ("delete",)),
    ("Do teams have to submit the expense checklist?", ("submit",)),        # past "have to", a bare noun subject
    ("Does NIST's Risk Management Framework apply to contractors?", ("apply",)),  # a capitalised name
    ("Under the 2021 guidance, can I travel to a conference?", ("travel",)),  # a leading phrase closed by a comma
    ("Am I allowed to work abroad?", ("work",)),
    ("Can our product lead modify it?", ("lead", "modify")),                # a noun or the verb: both candidates
    ("Is lunch free?", ()),                                                 # a copula question: no action
    ("Do I get paid for overtime?", ()),                                    # a light verb names no action
    ("Do I need a doctor's note?", ()),                                     # "need" with an object, no verb after
])
def test_the_asked_action_is_read_by_position(clause, actions):
    assert asked_actions(clause) == actions


@pytest.mark.parametrize("sentence,unstated", [
    ("You can edit a message for 5 minutes after it is posted.", True),    # another action on the same thing
    ("You aren't able to delete a message.", False),
    ("Deletion of messages is not possible.", False),                       # the verb's noun
    ("Messages are deleted after 90 days.", False),
])
def test_a_sentence_states_the_action_in_any_form(sentence, unstated):
    assert action_unstated("Can I delete the message?", sentence) is unstated


def test_an_irregular_past_states_its_verb():
    assert not action_unstated("Do I pay for the badge?", "The badge is paid by your office.")


def _scored(text: str, score: float, precision: float, position: int, label: str = "S1") -> ScoredSentence:
    return ScoredSentence(text=text, label=label, score=score, kind="sentence", cosine=score, overlap=0.0,
                          values=(), position=position, precision=precision)


def _sources(*labels: str) -> dict[str, Source]:
    return {label: Source(label=label, chunk_ids=(1,), document_id=1, title="Chat", section="Messages",
                          version="v1", date="", text="", score=0.0, tokens=1) for label in labels}


def test_the_sentence_stating_the_asked_action_decides_over_a_closer_one_stating_another():
    question = "I posted in the wrong channel. Can I delete the message?"
    edit = _scored("You can edit a message for 5 minutes after it is posted.", 0.92, 0.5, 3)
    delete = _scored("You aren't able to delete a message once it is posted.", 0.88, 0.3, 7)
    ordered, said = decided(ExtractiveAnswerer(), question, [edit, delete], _sources("S1"))
    assert said == "No." and ordered[0] is delete
    # no sentence stating the action: the closest decides as before
    ordered, said = decided(ExtractiveAnswerer(), question, [edit], _sources("S1"))
    assert ordered[0] is edit


def test_a_sentence_stating_the_action_of_another_thing_does_not_replace_the_closest():
    # "use" is stated, but of other leave: it does not hold the question's "parental" that the closest holds
    question = "Can I already use parental leave?"
    access = _scored("You need 12 months of service in order to access parental leave.", 0.92, 0.5, 1)
    other = _scored("You can also use annual leave for family reasons.", 0.88, 0.5, 4, "S2")
    ordered, _ = decided(ExtractiveAnswerer(), question, [access, other], _sources("S1", "S2"))
    assert ordered[0] is access


def test_a_sentence_pointing_back_with_a_demonstrative_holds_what_the_earlier_one_names():
    # "this form" three sentences after the one naming the travel checklist: it speaks of the checklist
    question = "Do teams have to submit the travel checklist?"
    fill = _scored("Travel checklist: each team must document its trips by filling in the travel checklist.",
                   0.92, 0.6, 10)
    submit = _scored("Teams don't need to submit this form, but they must keep a copy.", 0.91, 0.3, 13)
    ordered, said = decided(ExtractiveAnswerer(), question, [fill, submit], _sources("S1"))
    assert said == "No." and ordered[0] is submit
    # too far back, the demonstrative is not read as the checklist
    ordered, _ = decided(ExtractiveAnswerer(), question, [fill, replace(submit, position=20)], _sources("S1"))
    assert ordered[0] is fill
