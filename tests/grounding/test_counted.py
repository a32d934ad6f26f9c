"""A count answers a count question only when it counts the asked thing (grounding.counted)."""

from grounding.counted import counted_noun, counts, given_count
from tests.grounding.helpers import make_page, offline_answer

OFFICE = ("Location: New York City, NY; Address: One World Trade Center, 10007; GSA region: 2. "
          "The office is on floor 55. Visitors sign in at the lobby desk.")
SLACK = ("Slack includes a function called Connect that creates shared channels between two Slack workplaces: "
         "members of both Slacks can be part of the channel. Private channels can only be searched by their "
         "members.")


def test_the_counted_noun_is_the_head_of_the_phrase_after_how_many_or_number_of():
    assert counted_noun("How many personal development courses does GSA's Online University offer?") == "courses"
    assert counted_noun("How many guests can I bring into the office?") == "guests"
    assert counted_noun("What's the maximum number of members in a private Slack channel?") == "members"
    assert counted_noun("How many desks are there in the New York office?") == "desks"
    assert counted_noun("What time does the office open?") == ""


def test_a_number_counts_the_noun_it_stands_before_or_labels():
    assert counts("courses", "It also offers over 2,000 personal development courses including:")
    assert counts("channels", "Fun fact: TTS has over 1,000 channels in its workspace!")
    assert counts("spaces", "Spaces: 24")
    assert counts("members", "The number of members is 10.")
    assert counts("desk", "There are 40 desks on the floor.")  # singular and plural alike


def test_a_number_of_something_else_counts_nothing_asked():
    assert not counts("desks", OFFICE)  # a region, a floor, a ZIP code
    assert not counts("members", "members of two Slacks can join")  # counts Slacks
    assert not counts("members", "shared channels between two Slack workplaces: members can join")
    assert not counts("guests", "Escort your guests at all times.")  # no number at all


def test_nothing_to_check_when_the_question_names_no_counted_thing():
    assert counts("", "anything")


def test_how_many_desks_over_an_office_page_says_the_number_is_not_stated(embedder):
    # the user sees what the page covers and that it does not state the number, not the region number as an answer
    answer = offline_answer(embedder, "How many desks are there in the New York office?",
                            make_page(1, "New York City", "Office", OFFICE))
    assert "do not state the number" in answer
    assert "GSA region: 2" not in answer


def test_the_count_of_the_asked_thing_still_answers(embedder):
    page = make_page(1, "Slack", "Channels", "Fun fact: TTS has over 1,000 channels in its workspace! " + SLACK)
    answer = offline_answer(embedder, "How many Slack channels does TTS have?", page)
    assert "over 1,000 channels" in answer and "[S1]" in answer


def test_a_count_under_another_name_or_in_other_words_still_counts():
    # the breaker's cases (s9): these were refused as not stating the number
    assert counts("guests", "You may bring up to twenty-five guests.")
    assert counts(counted_noun("How many people can attend the all-hands?"), "The hall seats up to 50 attendees.")
    assert counts("people", "The room holds 12 persons.")
    assert counts("holidays", "Federal holidays (11 in total) are paid.")


def test_a_count_after_the_is_given_not_stated():
    assert given_count("sessions", "EAP counselors can provide referrals beyond the six sessions, based on need.")
    assert given_count("hour", "If you receive an award after hitting the 80 hour cap, your award will be monetary.")
    assert not given_count("sessions", "You can receive six free sessions for you or family members.")
    assert not given_count("sessions", "The program offers six sessions; beyond the six sessions, ask for a referral.")
    assert not given_count("sessions", "Sessions are free.")  # no count at all
    assert not given_count("", "beyond the six sessions")


def test_how_many_quotes_the_sentence_stating_the_count_before_one_referring_to_it(embedder):
    # the fresh23 conversation f23c-16 (a development set): the user sees the sentence that states "six free
    # sessions" first, not only the one that mentions "the six sessions" in passing
    page = make_page(1, "Benefits", "Employee Assistance Program",
                     "The Employee Assistance Program (EAP) is a free support resource for employees. You can receive "
                     "six free sessions for you or family members living in your household. EAP counselors can "
                     "provide referrals for counseling beyond the six sessions, based on your needs.")
    answer = offline_answer(embedder, "How many free counseling sessions does the Employee Assistance Program "
                                      "give me?", page)
    assert answer.startswith("You can receive six free sessions"), answer


def test_a_word_for_people_in_general_counts_people_of_one_kind():
    # fresh9's v9-020 (a development set): the user sees the PRA rule, not "they do not state the number"
    noun = counted_noun("How many members of the public can I survey before the survey needs PRA approval?")
    assert noun == "members"
    assert counts(noun, "If you're collecting feedback from more than 10 people outside of the Federal Government, "
                        "your survey will need to go through PRA approval.")
    assert not counts("employees", "The room seats 50 attendees.")  # another kind of people is not a hypernym
    assert not counts("members", "There are 12 desks for visitors.")
