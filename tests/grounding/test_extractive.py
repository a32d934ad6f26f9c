"""The offline extractive answerer composes answers (grounding.extractive): the sentence it rests on states what the
question asks for, or the answer says what the documents cover and abstains; yes/no answers open with Yes or No;
comparisons give both values with their citations; table rows come as "column: value" pairs; lists as lists; never a
heading, a question or a lead-in as an answer sentence. Pages here are written for the tests (demo-style)."""

from __future__ import annotations

import functools

import pytest

from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.prompt import ABSTAIN_TOKEN
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk
from tests.grounding.helpers import answered


@pytest.fixture(scope="module")
def answer(embedder):
    return functools.partial(answered, embedder)


BOUNTY = ("Bug bounty program", "Rewards", "The bug bounty program pays security researchers who report "
          "vulnerabilities in GSA systems. Bounties depend on the severity of the finding and on the system affected.")
MEALS = ("Travel", "Meals", "Meal costs are reimbursed when you travel for work and stay overnight.\n"
         "The daily meal allowance is $65 for each full day of travel.")


def test_when_no_close_sentence_states_the_asked_amount_the_answer_names_what_the_documents_cover(answer):
    text, verified = answer("What is the biggest bounty a security researcher can be paid?", BOUNTY)
    assert text.startswith(ABSTAIN_TOKEN)
    assert verified.abstained is True
    assert verified.text == ("The documents describe Bug bounty program (Rewards) [S1], but they do not state the "
                             "amount.")
    assert [c.label for c in verified.citations] == ["S1"]  # what they cover, cited


def test_the_answer_rests_on_the_sentence_that_states_the_asked_amount(answer):
    text, verified = answer("How much is the daily meal allowance?", MEALS)
    assert text.startswith("The daily meal allowance is $65") and "[S1]" in text and not verified.abstained


def test_a_question_pinned_to_a_place_the_documents_do_not_name_abstains(answer):
    regions = ("Offices", "Regions", "The Chicago office is in GSA region 5. The New York office is in region 2.")
    text, verified = answer("Which GSA region number is the Denver office in?", regions)
    assert verified.abstained and verified.text.endswith("but they do not say anything about Denver.")


def test_a_yes_no_answer_opens_with_no_when_the_deciding_sentence_is_negated(answer):
    leaving = ("Leaving", "Your benefits", "If you leave, award leave is not paid out.\n"
               "Award leave expires one year after it is issued.")
    text, _ = answer("Is award leave paid out when I leave?", leaving)
    assert text.startswith("No. If you leave, award leave is not paid out [S1].")


def test_a_yes_no_answer_opens_with_yes_when_the_deciding_sentence_affirms(answer):
    miles = ("Travel", "Flights", "You may keep frequent flyer miles earned on business trips.\n"
             "Book economy class for all flights.")
    text, _ = answer("Can I keep frequent flyer miles from business trips?", miles)
    assert text.startswith("Yes. You may keep frequent flyer miles earned on business trips [S1].")


def test_a_yes_no_answer_opens_with_yes_or_no_only_when_its_sentence_names_what_the_question_asks_about(answer):
    # "Is 1Password approved?" is not settled by a sentence about password managers in general: no "Yes."
    passwords = ("Passwords", "Password managers", "You must use a password manager for your work accounts.\n"
                 "We recommend KeePassXC, which is open source and runs on every operating system.")
    text, verified = answer("Is 1Password one of our approved password managers?", passwords)
    assert not text.startswith(("Yes.", "No.")) and "[S1]" in text
    named = ("Passwords", "Password managers", "You must use a password manager for your work accounts.\n"
             "1Password is not an approved password manager; use KeePassXC instead.")
    text, _ = answer("Is 1Password one of our approved password managers?", named)
    assert text.startswith("No. 1Password is not an approved password manager")


def test_no_yes_from_a_sentence_about_another_kind_of_what_is_asked_or_naming_too_little_of_it(answer):
    # a new user's questions on the demo handbook: "Yes." on a sentence that says otherwise or nothing about it
    flights = ("Travel", "Flights", "Book economy class for all flights.\n"
               "Flights longer than 6 hours of continuous flying time may be booked in premium economy.")
    text, _ = answer("Can I book business class on a 4-hour flight?", flights)
    assert not text.startswith(("Yes.", "No.")) and text.startswith("Book economy class for all flights [S1].")
    pay = ("Leave", "Parental leave", "Where a state program pays benefits, the company tops up your pay so you "
           "receive 100% of your base salary.")
    text, _ = answer("Does the company offer a 401(k) match?", pay)
    assert not text.startswith("Yes.")
    pto = ("Leave", "PTO", "Up to 5 unused PTO days carry over into the next calendar year; any balance above 5 days "
           "is forfeited on January 1.")
    text, _ = answer("Can I carry over 10 unused PTO days into next year?", pto)
    assert text.startswith("No. Up to 5 unused PTO days carry over")


def test_a_comparison_states_both_values_with_their_citations(answer):
    laptop = ("Laptops", "Login password", "Your laptop login password must be at least 16 characters long.\n"
              "Change it through the IT portal.")
    phone = ("Phones", "Passcode", "Your work phone passcode must be longer than 14 characters.\n"
             "Activate Find My iPhone.")
    text, verified = answer("Which has to be longer: my laptop login password or my work phone passcode?",
                            laptop, phone)
    assert "at least 16 characters long [S1]" in text and "longer than 14 characters [S2]" in text
    assert {c.label for c in verified.citations} == {"S1", "S2"}


def test_a_table_lookup_gives_the_row_as_column_value_pairs(answer):
    table = ("Utilization", "Targets", "Targets depend on how many people you supervise:\n"
             "Number of direct reports | Utilization target\n0 | 80%\n4 | 60%\n8 | 40%")
    text, _ = answer("I supervise four people. What utilization percentage am I expected to hit?", table)
    assert text.startswith("Number of direct reports: 4; Utilization target: 60% [S1].")


def test_a_list_question_gets_the_list_each_item_cited(answer):
    kit = ("Equipment", "Remote kit", "Remote workers can order a home kit.\nThe remote kit includes:\n- Monitor\n"
           "- Keyboard\n- Mouse\n- Headset")
    text, _ = answer("What comes in the remote worker home kit?", kit)
    assert text.splitlines() == ["The remote kit includes [S1]:", "", "- Monitor [S1].", "- Keyboard [S1].",
                                 "- Mouse [S1].", "- Headset [S1]."]


def test_never_a_heading_a_question_or_a_lead_in_as_an_answer_sentence(answer):
    faq = ("Leave", "Requesting leave", "How do I request leave?\nRequesting leave\nYou will need:\n"
           "- A completed leave form\nSubmit leave requests at least three business days in advance.")
    text, _ = answer("How far in advance must I request leave?", faq)
    assert text == "Submit leave requests at least three business days in advance [S1]."


def test_a_label_and_its_value_written_as_two_list_items_are_read_together(answer):
    timelines = ("Conferences", "Approval timelines", "Request approval ahead of time:\n"
                 "- Conference events that cost more than $2,500\n- Three to five weeks\n"
                 "- Training that costs less than $2,500\n- Ten days to two weeks")
    text, _ = answer("How far ahead must I request a conference that costs more than $2,500?", timelines)
    assert text.startswith("Conference events that cost more than $2,500: Three to five weeks [S1].")


def test_a_case_listed_under_the_value_it_takes_is_read_with_its_lead_in(answer):
    timelines = ("Events", "Booking ahead", "Book as early as you can.\n"
                 "- Two weeks in advance for:\n- Workshops that cost less than $900\n- Webinars with a fee\n"
                 "- Six weeks in advance for:\n- Summits that cost more than $900")
    text, _ = answer("How far ahead must I book a summit that costs more than $900?", timelines)
    assert text.startswith("Six weeks in advance for: Summits that cost more than $900 [S1].")


def test_a_comparison_with_than_gives_the_value_of_each_side(answer):
    timelines = ("Events", "Booking ahead", "Book as early as you can.\n"
                 "- Two weeks in advance for:\n- Workshops that cost less than $900\n- Webinars with a fee\n"
                 "- Six weeks in advance for:\n- Summits that cost more than $900")
    text, verified = answer("How much earlier do I need to book a summit that costs over $900 than a workshop under "
                            "$900?", timelines)
    assert "Six weeks in advance for: Summits that cost more than $900 [S1]" in text
    assert "Two weeks in advance for: Workshops that cost less than $900 [S1]" in text and not verified.abstained


def test_a_comparison_side_is_the_sentence_about_what_is_compared_not_any_value_near_its_name(answer):
    laptop = ("Laptops", "Login password", "Laptop passwords must be 16 characters.\n"
              "Change it through the IT portal.")
    phone = ("Phones", "Rules", "Every employee is issued a work phone.\n"
             "If you don't receive your work phone on day one, you'll need to use a personal phone.\n"
             "Set a passcode on it. It must be longer than 12 characters and mix letters and numbers.")
    text, _ = answer("Which has to be longer: my laptop password or my work phone passcode?", laptop, phone)
    assert "16 characters [S1]" in text and "longer than 12 characters and mix letters and numbers [S2]" in text
    assert "day one" not in text


def test_a_comparison_side_pinned_by_a_name_the_documents_do_not_hold_is_not_answered(answer):
    chicago = ("Travel Chicago", "Hotels", "The nightly hotel limit in Chicago is $250.")
    seattle = ("Travel Seattle", "Hotels", "The nightly hotel limit in Seattle is $220.")
    text, verified = answer("Which city has the higher nightly hotel limit, Chicago or Seattle?", chicago, seattle)
    assert "$250 [S1]" in text and "$220 [S2]" in text and not verified.abstained
    text, verified = answer("Which city has the higher nightly hotel limit, Chicago or Denver?", chicago, seattle)
    assert verified.abstained and "$220" not in text


def test_like_is_compared_with_like():
    from grounding.comparison import parallel as _parallel
    from grounding.sentence_rank import ScoredSentence

    short = ScoredSentence("Under 3 years: 4 hours per pay period", "S1", 0.7, kind="item")
    long_ = ScoredSentence("15+ years: 8 hours per pay period", "S1", 0.7, kind="item")
    date = ScoredSentence("For example, the leave year ends on December 31st.", "S2", 0.7)
    other = ScoredSentence("You can receive 15 military leave days each year.", "S3", 0.8)
    assert _parallel(short, long_) == pytest.approx(0.35)  # one source, one list, two durations
    assert _parallel(date, other) == 0.0  # running sentences of two sources, a date and a duration
    laptop = ScoredSentence("Passwords must be 16 characters.", "S1", 0.7)
    phone = ScoredSentence("It must be longer than 14 characters.", "S2", 0.7)
    assert _parallel(laptop, phone) == pytest.approx(0.1)  # two numbers of one unit


def test_two_questions_in_one_message_get_an_answer_each(answer):
    leave = ("Parental leave", "Length", "Eligible employees receive 16 weeks of paid parental leave.\n"
             "Your manager approves the leave schedule.")
    text, _ = answer("How many weeks of parental leave do I get, and who approves the schedule?", leave)
    assert "16 weeks of paid parental leave [S1]" in text and "Your manager approves the leave schedule [S1]" in text


def test_each_part_gets_the_sentence_naming_its_own_subject(answer):
    # the worked example's sentences hold the second part's numbers and the first part's words: the second part is
    # answered by the sentence naming what it asks about (advanced vacation), not by a closer one that does not
    vacation = ("Vacation", "Advanced vacation", "New staff earn 5 vacation leave hours per month.\n"
                "For example: you earn 5 vacation leave hours per month and there are 3 months left in the year.\n"
                "You will earn 15 more vacation leave hours (3 months x 5 hours per month).\n"
                "Therefore, you can request up to 15 advanced vacation leave hours.")
    text, verified = answer("I'm new here. How many vacation leave hours do I earn per month, and with 3 months left "
                            "in the year how much advanced vacation leave could I request?", vacation)
    assert "Therefore, you can request up to 15 advanced vacation leave hours [S1]." in text
    assert not verified.abstained


def test_a_part_gets_the_rule_whose_condition_is_the_askers_situation(answer):
    # "leave" is everywhere in these sentences: the rule for someone leaving wins by its condition, not its words
    bonus = ("Bonus days", "Bonus days", "You can check the amount of bonus leave you got last year in the leave "
             "portal.\nBonus leave expires one year after it is granted.\nIf you leave, bonus leave is not paid out.")
    vacation = ("Vacation", "Vacation", "Your unused vacation will be paid out.")
    text, _ = answer("I'm leaving the agency next month. What happens to my vacation balance, and what about the "
                     "bonus leave I got last year?", vacation, bonus)
    assert text == "Your unused vacation will be paid out [S1]. If you leave, bonus leave is not paid out [S2]."


def test_a_sentence_that_names_the_questions_fiscal_year_is_preferred_to_a_closer_one_that_does_not(answer):
    # two versions of a page: the question pins FY23, so the sentence naming FY23 is quoted, not the newer value
    current = ("Overtime", "Salary limit", "If you make the maximum salary ($191,900 in 2024), you cannot receive "
               "comp time.")
    older = ("Overtime", "Salary limit", "The maximum salary for comp time was $183,500 in FY23.")
    text, verified = answer("What was the maximum salary for comp time in FY23?", current, older)
    assert "$183,500" in verified.text and "$191,900" not in verified.text and not verified.abstained


def test_a_statement_two_pages_word_alike_is_quoted_once(answer):
    """A near-duplicate (most of the shorter sentence's content words in the other) is not a second answer sentence;
    each part of a two-part question gets a sentence of its own; a yes/no question is decided by the main clause, not
    by a negation in a leading condition it does not ask about."""
    leaving = ("Leaving", "Annual leave", "If you are staying in the federal government and you are not taking a "
               "break in employment, your annual leave will be automatically transferred to your next agency.")
    offboarding = ("Offboarding", "Leave balances", "If your next role is still within the federal government and "
                   "you are not taking a break in service, your annual leave will be automatically transferred to "
                   "your next agency. Award leave is not paid out and does not transfer.")
    text, _ = answer("What happens to my annual leave when I change agencies?", leaving, offboarding)
    assert text.count("automatically transferred") == 1
    text, verified = answer("What happens to my annual leave when I change agencies, and what about award leave?",
                            leaving, offboarding)
    assert text.count("automatically transferred") == 1
    assert "Award leave is not paid out and does not transfer" in text and not verified.abstained
    text, _ = answer("Does my annual leave transfer to my next agency?", leaving, offboarding)
    assert text.startswith("Yes. ") and text.count("automatically transferred") == 1


def test_sentences_that_state_different_values_are_never_near_duplicates():
    from grounding.quoting import repeats as _repeats
    from grounding.sentence_rank import ScoredSentence

    chosen = [ScoredSentence("You can request up to 240 hours of advanced sick leave.", "S1", 0.9)]
    assert not _repeats("Therefore, you can request up to 104 advanced sick leave hours.", chosen)
    assert _repeats("Therefore, you can request up to 240 advanced sick leave hours.", chosen)


def test_a_list_question_gets_the_sub_headings_the_best_sentence_announces(answer):
    desks = ("Workplace", "Desk types", "The office offers all 3 types of desks.\nStanding\n"
             "- Raised to elbow height for the whole day.\nSitting\n- Comes with an adjustable chair.\nShared\n"
             "- Booked by the hour at reception.")
    text, _ = answer("Which types of desks does the office offer?", desks)
    assert text.splitlines() == ["The office offers all 3 types of desks [S1].", "", "- Standing [S1].",
                                 "- Sitting [S1].", "- Shared [S1]."]


def test_a_lists_lead_in_is_never_a_fragment_cut_by_a_chunk_boundary(answer):
    steps = ("Security", "Reporting", "password or token committed to a repository)\n"
             "- Write down the time you noticed the incident\n- Keep every log file untouched\n"
             "- Tell the security team in the incident channel")
    text, _ = answer("What steps should I take to report a security incident?", steps)
    assert text.splitlines()[0] == "- Write down the time you noticed the incident [S1]."
    assert "committed to a repository" not in text


def _outlined(embedder, question: str, title: str, section: str, text: str, outline: tuple[str, ...]) -> str:
    chunk = Chunk(chunk_id=1, document_id=1, title=title, section=section, version="v1", date="", text=text,
                  tokens=len(text.split()), version_id=1, outline=outline)
    plan = plan_context(question=question, candidates=[Candidate(chunk, score=0.03, dense=0.6)],
                        system_prompt="Answer.", counter=counter_for("extractive"))
    return ExtractiveAnswerer(embedder).compose(question, plan)


def test_a_counted_list_of_sub_sections_written_across_chunks_is_given_whole(embedder):
    outline = ("Desks > Desk types > Standing", "Desks > Desk types > Sitting", "Desks > Desk types > Shared")
    text = ("The office offers all 3 types of desks.\nStanding\n- Raised to elbow height for the whole day.\n"
            "Sitting\n- Comes with an adjustable chair.")  # "Shared" is written in the next chunk
    answer = _outlined(embedder, "Which types of desks does the office offer?", "Workplace", "Desks > Desk types",
                       text, outline)
    assert answer.splitlines() == ["The office offers all 3 types of desks [S1].", "", "- Standing [S1].",
                                   "- Sitting [S1].", "- Shared [S1]."]


def test_a_question_naming_a_glossary_gets_the_glossarys_sub_headings(embedder):
    outline = ("Glossary > Uptime", "Glossary > Secrecy", "Glossary > Soundness")
    text = ("Every incident report names which of the terms this incident glossary defines it concerns.\n"
            "Secrecy\nMeans private data stays private.")
    answer = _outlined(embedder, "Which three terms does the incident glossary define?", "Incidents",
                       "Glossary > Uptime · Secrecy", text, outline)
    assert answer.splitlines() == ["Incidents, Glossary [S1]:", "", "- Uptime [S1].", "- Secrecy [S1].",
                                   "- Soundness [S1]."]


def test_sub_headings_over_a_written_list_give_way_to_that_list(embedder):
    """The s21 new-user run: "What are the ways I can report a harassment concern?" was answered with the headings
    under "How to report" ("Reporting channels", "Anonymous reporting", "Managers' duty to report") quoted as its
    items, while the list of channels is written under the first of them."""
    outline = ("How to report > Reporting channels", "How to report > Anonymous reporting",
               "How to report > Managers' duty to report")
    text = ("You can report a concern through any of these channels; choose the one you are most comfortable with:\n"
            "- Your manager, or any manager you trust.\n- People Operations, at conduct@tallgrass.example.\n"
            "- The EthicsLine, an independent third-party hotline.\nAnonymous reporting\nYou can report harassment "
            "anonymously through the EthicsLine.\nManagers' duty to report\nAny manager who receives a report must "
            "forward it to People Operations within 24 hours.")
    answer = _outlined(embedder, "What are the ways I can report a harassment concern?",
                       "Code of Conduct and Harassment Reporting",
                       "How to report > Reporting channels · Anonymous reporting · Managers' duty to report", text,
                       outline)
    lines = answer.splitlines()
    assert lines[0] == ("You can report a concern through any of these channels; choose the one you are most "
                        "comfortable with [S1]:"), answer
    assert lines[2:] == ["- Your manager, or any manager you trust [S1].",
                         "- People Operations, at conduct@tallgrass.example [S1].",
                         "- The EthicsLine, an independent third-party hotline [S1]."], answer
    assert "- Anonymous reporting" not in answer


def test_a_question_about_an_earlier_version_is_answered_from_that_version_first(embedder):
    # a new user's "What was the mileage rate under the January 2024 travel policy?" was refused: the sentence
    # "It replaces the January 2024 version" matched the period's words better than any stated rate
    def version(i, status, label, date, text):
        return Candidate(Chunk(chunk_id=i, document_id=1, title="Travel policy", section="Ground transportation",
                               version=label, date=date, text=text, tokens=len(text.split()), version_id=i,
                               status=status), score=0.03, dense=0.6)

    current = version(1, "current", "2025-03", "2025-03-01", "It replaces the January 2024 version of this policy.\n"
                      "When you drive your personal car for business, mileage is reimbursed at $0.70 per mile.")
    old = version(2, "superseded", "2024-01", "2024-01-15",
                  "When you drive your personal car for business, mileage is reimbursed at $0.67 per mile.")
    answerer = ExtractiveAnswerer(embedder)
    for question in ("What was the mileage rate under the January 2024 travel policy?",
                     "What was the mileage rate in 2024?", "What was the mileage rate in the old travel policy?"):
        plan = plan_context(question=question, candidates=[current, old], system_prompt="Answer.",
                            counter=counter_for("extractive"))
        text = answerer.compose(question, plan)
        assert "$0.67 per mile" in text.split("[")[0], (question, text)  # the earlier value leads
    plan = plan_context(question="What is the mileage rate?", candidates=[current, old], system_prompt="Answer.",
                        counter=counter_for("extractive"))
    assert "$0.70 per mile" in answerer.compose("What is the mileage rate?", plan).split("[")[0]


def test_a_follow_up_on_a_new_topic_is_answered_from_its_own_words_not_the_previous_topics(embedder):
    # a breaker's "How much is the mileage rate?" after "What is the hotel limit in Boston?" got the hotel limit: it
    # was retrieved with the previous question's words, which then chose the sentence
    def page(i, section, text):
        return Candidate(Chunk(chunk_id=i, document_id=i, title="Travel policy", section=section, version="v1",
                               date="", text=text, tokens=len(text.split()), version_id=i), score=0.03, dense=0.6)

    hotel = page(1, "Lodging", "The nightly hotel limit is $225 in most cities. In Boston the limit is $325 per night.")
    miles = page(2, "Ground transportation", "When you drive your own car for business, mileage is reimbursed at "
                                             "$0.70 per mile.")
    asked = "How much is the mileage rate?"
    plan = plan_context(question=asked, candidates=[hotel, miles], system_prompt="Answer.",
                        counter=counter_for("extractive"))
    text = ExtractiveAnswerer(embedder).compose(f"{asked} hotel limit Boston", plan)
    assert text.startswith("When you drive your own car for business, mileage is reimbursed at $0.70 per mile")


def test_a_question_after_a_long_story_is_matched_by_its_asking_sentence_when_the_whole_message_is_not(embedder):
    """ConditionalQA-style messages tell the asker's story before the question; its words dilute the match, and an
    answer the documents hold was refused. When the whole message matches nothing well enough, the asking sentence
    alone is matched (here the threshold is raised so that the story decides)."""
    story = ("My daughter starts school next week and my husband is recovering from knee surgery, so the whole "
             "family is busy. My manager asked me to visit our partners in another city. How much is the daily meal "
             "allowance?")
    candidates = [Candidate(Chunk(chunk_id=1, document_id=1, title=MEALS[0], section=MEALS[1], version="v1",
                                  date="", text=MEALS[2], tokens=30, version_id=1), score=0.03, dense=0.6)]
    plan = plan_context(question=story, candidates=candidates, system_prompt="Answer.",
                        counter=counter_for("extractive"))
    # the whole message scores about 0.9 here, the question 1.3 (both with the section heading "Meals" bonus)
    strict = ExtractiveAnswerer(embedder, threshold=1.0)
    assert strict.rank(story, plan)[0].score < 1.0
    text = strict.compose(story, plan)
    assert text.startswith("The daily meal allowance is $65") and "[S1]" in text
    assert ExtractiveAnswerer(embedder, threshold=1.5).compose(story, plan).startswith(ABSTAIN_TOKEN)


@pytest.mark.parametrize("message", ["Hi! How much is the daily meal allowance?",
                                     "Quick question: how much is the daily meal allowance?",
                                     "xyzzy How much is the daily meal allowance?",
                                     "<b>How much is the daily meal allowance?</b>",
                                     "[INST] How much is the daily meal allowance? [/INST]"])
def test_a_greeting_or_lead_in_before_the_question_does_not_refuse_it(embedder, message):
    """A breaker's "Hi! What is the mileage rate?" got "they do not say anything about Hi", and "Quick question:",
    a stray word or markup before the question diluted the match below the threshold ("I could not find the
    answer"). The greeting names nothing, and the question's own clause is matched when the message is not.
    (The threshold is raised so that the lead-in decides on this one short page.)"""
    from grounding.question_parts import specifics

    assert specifics(message) == []
    candidates = [Candidate(Chunk(chunk_id=1, document_id=1, title=MEALS[0], section=MEALS[1], version="v1",
                                  date="", text=MEALS[2], tokens=30, version_id=1), score=0.03, dense=0.6)]
    plan = plan_context(question=message, candidates=candidates, system_prompt="Answer.",
                        counter=counter_for("extractive"))
    question = "How much is the daily meal allowance?"
    own = ExtractiveAnswerer(embedder).rank(question, plan)[0].score
    strict = ExtractiveAnswerer(embedder, threshold=own - 0.01)
    assert strict.rank(message, plan)[0].score < strict.threshold
    assert strict.compose(message, plan).startswith("The daily meal allowance is $65")


def test_the_asking_parts_of_a_message():
    from grounding.answer_types import asking_parts

    assert asking_parts("Quick question: what is the mileage rate?") == ["what is the mileage rate?"]
    assert asking_parts("<b>What is the mileage rate?</b>") == ["What is the mileage rate?"]
    assert asking_parts("I joined six months ago. Can I use parental leave?") == ["Can I use parental leave?"]
    assert asking_parts("What is the mileage rate?") == []


def test_sub_headings_with_prose_under_them_are_given_with_their_first_sentences(embedder):
    """The s22 new-user run: "What are the password rules?" listed the three sub-headings of "Passwords" and none of
    the rules written under them."""
    outline = ("Passwords > Password requirements", "Passwords > Password manager", "Passwords > Password changes")
    text = ("Password requirements\nAll passwords must be at least 14 characters long. Use a passphrase.\n"
            "Password manager\nEvery employee must store work passwords in 1Password.\n"
            "Password changes\nYou do not need to change your password on a schedule.")
    answer = _outlined(embedder, "What are the password rules?", "Security and Passwords",
                       "Passwords > Password requirements · Password manager · Password changes", text, outline)
    assert answer.splitlines() == [
        "Security and Passwords, Passwords [S1]:", "",
        "- Password requirements: All passwords must be at least 14 characters long [S1].",
        "- Password manager: Every employee must store work passwords in 1Password [S1].",
        "- Password changes: You do not need to change your password on a schedule [S1]."], answer
