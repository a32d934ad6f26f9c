"""What a yes/no question asks, read apart from the asker's situation and from what describes a noun
(grounding.yesno, grounding.yesno_scope). Made-up policies written after the fresh3 and fresh2 sets' wrong openers
(f3003, f3004, f3022, f2020; fresh3 is development data in the s15 round); none is from the 18F golden test half."""

from __future__ import annotations

import pytest

from grounding.yesno import asking_clause, deciding_clause, opener
from grounding.yesno_scope import ASKS_PERMISSION, concession_or_main, modality_unstated


def test_a_concession_is_chosen_by_what_is_asked_not_by_the_askers_situation():
    # f3004: the situation ("invited to ... channels") shares words with the concession, not with what is asked
    question = "I got added to a lot of mailing lists. Do I have to stay on all of them?"
    sentence = "Though you may get added to mailing lists, you don't have to stay on them."
    assert deciding_clause(question, sentence) == "you don't have to stay on them."
    assert opener(question, sentence) == "No."
    # the concession still decides when it is what is asked about
    assert concession_or_main("Can I share all my calendar events?",
                              "Although you can't share all your calendar events, you can share free times") \
        == " you can't share all your calendar events"


@pytest.mark.parametrize("sentence,unstated", [
    ("After the award, you may need to modify the contract.", True),      # a possible requirement
    ("After the award, you might have to modify the contract.", True),
    ("After the award, you may modify the contract.", False),             # a permission
])
def test_a_possible_requirement_grants_no_permission(sentence, unstated):
    assert modality_unstated("can our product lead modify the contract?", sentence) is unstated


def test_a_modal_after_a_leading_prepositional_phrase_asks_permission():
    # f2020: "Under the ... guidance, can I travel ...?" was read as asking no permission
    assert ASKS_PERMISSION.search("Under the 2021 guidance, can I travel to a conference?")
    assert opener("Under the 2021 guidance, can I travel to a conference?",
                  "More details on the travel threshold are included in this guidance.") == ""
    # a clause before the comma is not such a phrase (a question's part split at "and")
    assert not ASKS_PERMISSION.search("is turned into a guest, do they keep their messages?")


def test_a_negation_saying_where_someone_is_not_describes_a_noun():
    # f3003: "channels they're not in" says which channels, in the question and in the sentence alike
    question = "Can I mention a teammate in a channel they're not in?"
    assert "not" not in asking_clause(question)
    assert opener(question, "You can also mention them in channels they're not in, and they get a notice.") == "Yes."
    assert opener(question, "You cannot mention teammates in channels they are not in.") == "No."
    # a main clause negated by its own subject stays negated
    assert opener("Can I mention a teammate in a channel?", "You are not in a position to mention them.") == "No."


def test_a_trailing_even_if_condition_is_left_out_of_the_asking_clause_with_its_even():
    # ConditionalQA calibration record 61: "even" was left behind as a content word the sentence had to name
    from grounding.yesno_asking import asking_clause, asking_coverage
    question = "Can i nominate her for honorary award even if she does not live in UK?"
    assert asking_clause(question) == "Can i nominate her for honorary award?"
    assert asking_coverage(question, "Anyone can nominate someone for an honour.") == 0.25
    assert asking_clause("Do I get paid if I don't finish?") == "Do I get paid?"


def test_a_condition_between_a_leading_phrase_and_the_main_clause_is_left_out():
    # fresh13's f13-y10 (a development set): the asking clause was "As a supervisor?", every word of what is asked
    # dropped with the condition
    assert asking_clause("As a supervisor, if my team goes through a crunch, should I balance it with time off?") \
        == "As a supervisor, should I balance it with time off?"
    assert asking_clause("Do I get paid if I don't finish?") == "Do I get paid?"
