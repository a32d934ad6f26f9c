"""Rules of the s33 round from development questions (each test names the item it came from; none is from the 18F
test half). Texts are made up unless they quote the question."""

from __future__ import annotations

from grounding.table_lookup import looks_up_row
from tests.grounding.helpers import make_page, offline_answer

ROW = "Work type: Extended out of office (more than 3 weeks); CoE feds: ?; 18F: 1810"


def test_q121_a_question_looks_up_a_row_by_its_key_words_and_a_column():
    """The calibration half's q121 and fresh7's f7-a11: the question names a column ("18F") and every content word
    of the row's key, in its own order and forms; naming the key without a column, or a column without every key
    word, looks nothing up."""
    assert looks_up_row("Which Tock code do 18F staff use for an extended out of office of more than 3 weeks?", ROW)
    assert looks_up_row("Which Tock code should 18F staff use for business development time?",
                        "Work type: Business development; CoE feds: 1434; 18F: 1811")
    assert not looks_up_row("Which Tock code do I use for an extended out of office of more than 3 weeks?", ROW)
    assert not looks_up_row("Which Tock code do 18F staff use when out of office?", ROW)  # "extended", "weeks" unsaid
    assert not looks_up_row("Which code do 18F staff use?", "Work type: ; 18F: 1810")  # no key


def test_q121_the_row_looked_up_is_the_answer_not_the_list_under_a_heading_the_question_names(embedder):
    """The calibration half's q121 ("Which Tock code should 18F staff use for business development time?") and
    fresh7's f7-a11 were answered with the list under the Tock page's "18F" heading (its words "Tock" and "18F"
    name that heading), though the best sentence was the table row they look up ("Work type: Business development;
    CoE feds: 1434; 18F: 1811"): "18F" read as a numbered heading the question names (as "Day 3"). A looked-up row
    is the answer."""
    question = "Which Pulse code should 2GX staff use for conference travel?"
    listed = make_page(1, "Pulse", "2GX", "2GX staff record their time with these codes:\n"
                       "- 2GX project work - #210: The projects you are staffed on.\n"
                       "- 2GX non-project work - #211: Activities for 2GX that fit no other code.\n"
                       "- 2GX out of office - #212: Any time you are away from work.")
    table = make_page(2, "Recording time in Pulse", "Common nonbillable codes",
                      "Work type | Hub staff | 2GX\nConference travel | 3301 | 4410\nHiring | 3302 | 4411\n"
                      "Staffing | NA | 4412")
    answer = offline_answer(embedder, question, listed, table)
    assert answer.startswith("Work type: Conference travel; Hub staff: 3301; 2GX: 4410"), answer


def test_f19r_v10_a_size_of_data_states_the_limit_asked(embedder):
    """fresh19's f19r-v10 (a development set): "What is the file size limit of Intelink's IntelDocs?" was refused as
    stating no limit over "The service has a file size limit of 100MB and folder limit of 1GB.": "100MB" was no
    number (its unit glued to it). A size of data states a quantity, glued or spaced; a name with a number in it
    does not."""
    from grounding.answer_types import states

    assert states("quantity", "The service has a file size limit of 100MB and folder limit of 1GB.")
    assert states("quantity", "Each mailbox holds 50 GB.") and states("quantity", "Attachments up to 25 megabytes.")
    assert not states("quantity", "Use the MB3 form.")
    page = make_page(1, "File sharing", "DocVault", "DocVault is where project files are kept. The service has an "
                     "upload size limit of 250MB per file and a folder limit of 2GB.")
    answer = offline_answer(embedder, "What is the upload size limit of DocVault?", page)
    assert answer.startswith("The service has an upload size limit of 250MB per file"), answer


def test_f11_c01_a_quoted_sentence_is_read_with_the_one_it_goes_on_from(embedder):
    """fresh11's f11-c01 (a development set): "How long must a leadership role search stay open for nominations, at
    the least?" was refused as stating no duration "for role search stay" over "That deadline should be a minimum of
    five days and preferably longer.": the sentence before it ("All leadership role searches will have a
    deadline."), as close to the question, names the search and the quoted one does not. The quoted sentence goes
    on about what that one names ("That deadline"): read together, they state it. (The page's sentences, quoted.)"""
    page = make_page(1, "18F Leadership Candidate Guide", "Nominations", "All leadership role searches will have a "
                     "deadline. That deadline should be a minimum of five days and preferably longer. There should be "
                     "enough time for everyone to consider whether they want to apply or nominate a colleague.")
    answer = offline_answer(embedder, "How long must a leadership role search stay open for nominations, at the "
                            "least?", page)
    # and it is quoted with it (the sentence it points back to, grounding.quoting.with_value)
    assert answer.startswith("All leadership role searches will have a deadline. That deadline should be a minimum "
                             "of five days"), answer


def test_f16_the_holder_of_a_role_is_read_from_the_keyed_list_of_the_team_asked_about(embedder):
    """fresh16 (a development set): "Who is the Director of TTS Outreach?" was refused ("they do not state who holds
    that role"): sentences on other pages naming the Outreach Director but no person ranked first, and the TTS
    Outreach page's list of point persons ("- Director - Star Vanamali", "- 18F - ...") ranked below them. The keyed
    item whose key the question names, naming a person, on the page of the team the question names, answers; on
    another team's page, or with nobody named, the refusal stands."""
    team = make_page(1, "Data Office", "Team", "The Data Office is responsible for the agency's data strategy. It sets "
                     "the standards every team follows when it publishes data.\nThe office has a point person for "
                     "each business unit, and they should be your first point of contact.\n- Director - Mara "
                     "Quintero\n- Benefits - Olu Adeyemi\n- Payments - Lin Cho\n- Grants - Vacant")
    approvals = make_page(2, "Speaking requests", "Approvals", "Before you publish a dataset, get approval from your "
                          "manager and the Data Office Director. The Data Office Director signs off on every public "
                          "release.")
    records = make_page(3, "Records Office", "About", "The Records Office keeps the agency's records. Its director "
                        "reports to the chief operating officer.")
    answer = offline_answer(embedder, "Who is the Director of the Data Office?", team, approvals, records)
    assert answer.startswith("Director - Mara Quintero [S1]"), answer
    answer = offline_answer(embedder, "Who is the Director of the Records Office?", team, approvals, records)
    assert answer.startswith("INSUFFICIENT_EVIDENCE") and "who holds that role" in answer, answer


def test_f11_c14_hedges_and_its_name_no_subject():
    """fresh11's f11-c14 and f11-c08 (a development set): "How much time does an 18F working group usually take?"
    was refused as stating no duration "for usually", and "When should a project team hold its Project Reflection?"
    named "its" among what is asked about: a hedge or a possessive pronoun names no subject."""
    from grounding.subject_check import subject_terms

    assert subject_terms("How much time does a working group usually take?") == {"group", "take"}
    assert "it" not in subject_terms("When should a project team hold its Project Reflection?")
    assert {"project", "reflect"} <= subject_terms("When should a project team hold its Project Reflection?")


def test_f11_c12_a_sentence_is_read_with_the_next_one_pointing_back_to_it_and_stating_the_value(embedder):
    """fresh11's f11-c12 (a development set): "How soon will I hear back after a leadership role competition closes?"
    was refused as stating no duration: the best sentence ("You should get a message shortly after the competition
    closes.") states none, and the one going on from it ("It could take a couple of days!") ranked too low to be
    quoted alone. A sentence is read with the next one in its paragraph when that one points back to it and states
    the asked value."""
    page = make_page(1, "Award nominations", "After the deadline", "Nominations close at the end of the month. You "
                     "should get an email shortly after nominations close. It could take a couple of weeks! The "
                     "committee announces the winners at the all-hands meeting.")
    answer = offline_answer(embedder, "How soon will I hear back after award nominations close?", page)
    assert "You should get an email shortly after nominations close. It could take a couple of weeks [S1]!" in answer, \
        answer


def test_dc_15_a_noun_naming_the_asked_value_is_no_thing_a_close_sentence_tells_apart(embedder):
    """The development set's dc-15: "On travel days, what fraction of the meals and incidentals rate do I get?" was
    refused "for rate" over "... plus the 75% of the meal allowance for the following day": a close sentence naming
    the "rate" (the M&IE allowance's definition) was taken for one about another thing. A noun naming the asked
    value ("rate", "amount", "fraction") tells nothing apart; a noun naming a thing still does."""
    from grounding.asked_attribute import missed_specifics
    from grounding.types import Source

    source = Source(label="S1", chunk_ids=(1,), document_id=1, title="Parking", section="Allowance", version="v1",
                    date="", text="", score=0.6, tokens=10)
    quoted = [("On weekend days you get 50% of the parking allowance.", source)]
    close = [("The parking allowance is a fixed daily rate set by the city.", source)]
    assert missed_specifics("On weekend days, what fraction of the parking rate do I get?", quoted, close) == []
    close = [("Garage fees are reimbursed at a fixed daily rate set by the city.", source)]
    assert missed_specifics("On weekend days, what fraction of the garage fees do I get?", quoted, close) == \
        ["garage fees"]


def test_f33_a02_a_pronoun_contraction_opening_a_message_names_nothing():
    """fresh33's f33-a02 (written at the end of the s33 round, then a development set): "We're planning moderated
    usability sessions ... What hourly compensation rate does the IAA user research attachment set for those
    sessions?" was refused "they do not say anything about We": "We" of "We're" was read as a name, the message's
    opening word being compared with its contraction. A possessive name opening a message still names it."""
    from grounding.question_parts import specifics

    assert specifics("We're planning a workshop with the public. What rate does the IAA attachment set?") == []
    assert specifics("I'm in Denver. What is the hotel limit?") == ["Denver"]
    assert specifics("Denver's office: what is the hotel limit?") == ["Denver"]


def test_f33_a15_a_role_being_filled_names_no_group_asked_about():
    """fresh33's f33-a15: "I'm setting up interviews for an open 18F supervisor role. How long should each interview
    calendar hold be?" was refused "the amount or limit for supervisor": "supervisor" of "supervisor role" was read
    as the group of people the question asks about (as in "Do supervisors get ...?"). A group word naming a role,
    position or job being filled is none."""
    from grounding.question_parts import specifics

    assert specifics("I'm hiring for an open supervisor role. How long should each interview be?") == []
    assert specifics("We have two contractor positions open. Who approves the posting?") == []
    assert specifics("Do supervisors get extra training?") == ["supervisors"]
    assert specifics("I'm a supervisor. How much training do I need?") == ["supervisor"]
