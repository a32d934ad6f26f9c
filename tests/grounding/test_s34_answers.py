"""Rules of the s34 round from development questions (each test names the item it came from; none is from the 18F
test half). Texts are made up unless they quote the question."""

from __future__ import annotations

from grounding.asked_forms import asked_form, contrasted, states_form
from grounding.yesno_caps import asks_limit, denies_limit, denying_sentence, speaks_of_limit
from tests.grounding.helpers import make_page, offline_answer

ABSTAINED = "but they do not state"


def test_f34_y16_a_question_whether_there_is_a_limit_is_read_as_such():
    """fresh34's f34-y16 and f34-u04 (a development set), fresh19's f19y-u02 and f19y-u03: "Is there a cap on ...?",
    "Is there a word limit for ...?", "Does the program have a maximum ...?" ask whether a limit exists; a question
    about a thing without a limit word does not."""
    assert asks_limit("Is there a cap on how many sick leave hours I can build up over my career?")
    assert asks_limit("Is there a word limit for TTS blog posts?")
    assert asks_limit("I travel a lot. Does the hotel program have a maximum nightly rate?")
    assert not asks_limit("Is there a cafeteria in the building?")
    assert not asks_limit("What is the cap on award leave?")  # asks the value, not whether there is one
    assert denies_limit("There is no maximum amount of sick leave you can accrue.")
    assert denies_limit("Employees may take unlimited unpaid breaks.") and denies_limit("Donations are not capped.")
    assert not denies_limit("You can carry over a maximum of 240 hours.")
    assert speaks_of_limit("You can request up to 240 hours of advanced sick leave.")
    assert not speaks_of_limit("Weather and Safety Leave does not count against any of your other leave balances.")


def test_f34_y16_the_sentence_denying_a_limit_on_the_thing_asked_settles_no(embedder):
    """fresh34's f34-y16: "Is there a cap on how many sick leave hours I can build up over my career?" was quoted
    without an opener over closer sentences counting other sick leave ("up to 240 hours of advanced sick leave");
    "There is no maximum amount of sick leave you can accrue" says No. A denial about another thing (its words not
    the question's) settles nothing."""
    question = "Is there a cap on how many sick leave hours I can build up over my career?"
    assert denying_sentence(question, ["You can request up to 240 hours of advanced sick leave.",
                                       "There is no limit on how many guests can attend.",
                                       "There is no maximum amount of sick leave you can accrue."]) == 2
    assert denying_sentence(question, ["There is no limit on how many guests can attend."]) is None
    page = make_page(1, "Leave", "Sick leave", "All employees accrue four hours of sick leave per pay period. You "
                     "can request up to 240 hours of advanced sick leave. There is no maximum amount of sick leave "
                     "you can accrue, and unused sick leave carries over every year.")
    answer = offline_answer(embedder, "Is there a cap on how many sick leave hours I can build up?", page)
    assert answer.startswith("No. There is no maximum amount of sick leave you can accrue"), answer


def test_f34_u04_sentences_stating_no_limit_of_any_kind_do_not_answer_whether_there_is_one(embedder):
    """fresh34's f34-u04: "Is there a yearly cap on how many hours of Weather and Safety Leave I can receive?" was
    answered with the page's sentences on that leave, none stating or denying a limit ("does not count against any
    of your other leave balances"). The documents cover the leave, not a limit on it: the answer says so."""
    page = make_page(1, "Leave", "Weather and safety leave", "Storm leave is granted when the office closes for "
                     "severe weather. Storm leave is entered in the timesheet under code 094. Storm leave does not "
                     "count against any of your other leave balances.")
    other = make_page(2, "Travel", "Lodging", "The maximum nightly hotel rate is set by the city's per diem.")
    question = "Is there a yearly cap on how many hours of storm leave I can receive?"
    answer = offline_answer(embedder, question, page, other)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Leave") \
        and "whether there is a limit" in answer, answer
    # over the storm leave page alone, no source names a limit in any words: nothing about a cap
    assert "anything about cap" in offline_answer(embedder, question, page)


def test_f34_u03_a_form_asked_after_a_leading_condition_is_still_asked():
    """fresh34's f34-u03: "If GSA's Incident Response team doesn't acknowledge my report, what phone number do I
    call to reach them directly?" asks for a phone number as much as "What phone number do I call?" (it was answered
    with "the numbers listed in Section 3.1.1 of the guide"); a condition that asks nothing is no form."""
    assert asked_form("If GSA's Incident Response team doesn't acknowledge my report, what phone number do I call "
                      "to reach them directly?") == "phone number"
    assert asked_form("When the desk is closed, which e-mail address do I write to?") == "e-mail address"
    assert asked_form("If I am sick, can I call in?") is None


def test_f34_u19_a_day_of_the_week_asked_needs_a_day_of_the_week(embedder):
    """fresh34's f34-u19: "On what day of the week is the TTSC All Hands held?" was answered with the table row
    giving "60 minutes every other month". A day of the week asked is stated by a weekday ("Mondays", "weekdays",
    "daily"); the refusal names it."""
    assert asked_form("On what day of the week is the TTSC All Hands held?") == "day of the week"
    assert asked_form("Which weekday is the demo?") == "day of the week"
    assert asked_form("What day is Juneteenth?") is None  # a date answers that
    assert states_form("day of the week", "Timing: 45 minutes Mondays") and states_form("day of the week", "daily")
    assert not states_form("day of the week", "Timing: 60 minutes every other month")
    page = make_page(1, "Internal communications", "Meetings", "The Studio All Hands shares updates with all staff. "
                     "The Studio All Hands lasts 60 minutes every other month. Recordings are archived.")
    answer = offline_answer(embedder, "On what day of the week is the Studio All Hands held?", page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe") \
        and "the day of the week" in answer, answer


def test_f34_u08_a_closing_time_does_not_answer_when_a_place_opens():
    """fresh34's f34-u08: "What time does the cafeteria at 50 UN Plaza open for breakfast?" was answered with "they
    close at 2 pm". Opening and closing are the two ends of a place's hours; "open season" or "open source" name
    things, and are not the place's opening."""
    assert contrasted("What time does the cafeteria open for breakfast?",
                      "Official hours (they say they close at 2 pm, but they usually close down around 1:50 pm)") \
        == "open"
    assert contrasted("When does the office open?", "The office is open from 8 to 5 and closes on holidays.") is None
    assert contrasted("When does open season end?", "It closes on December 9.") is None
    assert contrasted("Can I use open source code?", "Closed systems need an ATO.") is None



def test_f34_u17_do_i_have_to_asks_whether_something_is_required():
    """fresh34's f34-u17: "If the court pays me a juror fee while I'm on court leave, do I have to turn that money
    over to GSA?" was quoted "You can receive Court Leave for however long you serve on a jury" without an opener.
    "Do I have to ...?", "Does my team need to ...?" and "Must I ...?" ask whether something is required: sentences
    that state no requirement and name none of the action's words do not settle it. One naming the action may
    settle it without a requirement word (fresh2's f2018 and f2015, development items, were answered so and stay
    answered)."""
    from grounding.asked_holder import unsettled_requirement

    question = "If the court pays me a juror fee while I'm on court leave, do I have to turn that money over to GSA?"
    assert unsettled_requirement(question, ["You can receive Court Leave for however long you serve on a jury."])
    assert unsettled_requirement("Does my team need to file a form?", ["Reports are kept in the drive."])
    assert unsettled_requirement("Must I bring ID?", ["The office opens at 8."])
    assert not unsettled_requirement("Do new hires need to bring ID?", ["You must bring two forms of ID."])
    assert not unsettled_requirement("Do I have to install the Citrix client on my laptop?",
                                     ["If you are connecting from a GSA Laptop you will already have the Citrix "
                                      "Client installed."])
    assert not unsettled_requirement("Do I have any leave left?", ["Leave balances are in the timesheet."])

def test_f34_u17_an_unsettled_requirement_after_a_condition_is_refused(embedder):
    """fresh34's f34-u17 composed: the page covers court leave, not what happens to a juror fee."""
    page = make_page(1, "Leave", "Court leave", "You can receive court leave for however long you serve on a jury. "
                     "Court leave is entered in the timesheet under its own code.")
    answer = offline_answer(embedder, "If the court pays me a juror fee while I'm on court leave, do I have to turn "
                            "that money over to the agency?", page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Leave") \
        and "whether it is required" in answer, answer


def test_f34_u01_a_slack_channel_asked_needs_a_channel(embedder):
    """fresh34's f34-u01: "Which Slack channel should I use to ask other TTS supervisors how they handle performance
    reviews with union employees?" was answered "Discuss Slack team expectations with your supervisor". A channel
    asked is stated by a channel name ("#18F-BD"), not by a number after "#" ("Line #1145"); the refusal names it."""
    assert asked_form("Which Slack channel does business development use?") == "Slack channel"
    assert asked_form("What channel do I post outages in?") == "Slack channel"
    assert states_form("Slack channel", "Join #18F-BD for leads.") and states_form("Slack channel", "Ask in #iaa")
    assert not states_form("Slack channel", "COE /Non-Billable Hours (Line #1145)")
    page = make_page(1, "Slack", "Norms", "Slack is where most of our conversations happen. Discuss Slack team "
                     "expectations with your supervisor. Supervisors share tips with each other often.")
    answer = offline_answer(embedder, "Which Slack channel should I use to ask other supervisors for tips?", page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe") \
        and "the Slack channel" in answer, answer
    named = make_page(2, "Slack", "Channels", "Supervisors ask each other for tips in #supervisors-chat.")
    assert "#supervisors-chat" in offline_answer(embedder, "Which Slack channel should I use to ask other supervisors "
                                                 "for tips?", page, named)


def test_f34_u03_a_phone_number_far_below_the_best_sentence_is_not_quoted_for_it(embedder):
    """fresh34's f34-u03, f34-u19 and f34-u02: when no chosen sentence states the form asked, one that does is
    quoted for it only within grounding.extractive_specifics.FORM_REACH of the best sentence; another desk's number
    ("Call them at 866-450-5250"), scoring far below the sentence on the team asked about, was quoted as the IR team's.
    A number stated by a sentence as close as the best is quoted."""
    question = "What phone number do I call to reach the Incident Office when my report goes unacknowledged?"
    security = make_page(1, "Security incidents", "Reporting", "Report every incident to the Incident Office at once. "
                         "If the Incident Office does not acknowledge your report, phone the Incident Office via the "
                         "numbers listed in Section 3 of the security guide.")
    # the item scores 0.11 below the best sentence: within the type spread, beyond FORM_REACH
    helpdesk = make_page(2, "IT help", "Getting help", "For other reports, contact the Help Desk:\n\n"
                         "- Call them at 866-555-0100\n- Open a ticket in the portal")
    answer = offline_answer(embedder, question, security, helpdesk)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe") and "the phone number" in answer, answer
    stated = make_page(3, "Security incidents", "Contacts", "Call the Incident Office at 866-555-0199 when your "
                       "report is not acknowledged.")
    answer = offline_answer(embedder, question, security, helpdesk, stated)
    assert "866-555-0199" in answer and not answer.startswith("INSUFFICIENT_EVIDENCE"), answer


def test_s34_demo_a_sentence_saying_the_asked_thing_is_not_done_answers_whether_there_is_a_limit(embedder):
    """The s34 round's new-user run on the demo handbook: "Is there a cap on how much sick leave I can carry over?"
    was refused ("whether there is a limit") over "Sick days do not carry over and are not paid out on departure":
    no carry-over at all answers it. A sentence denying another verb ("does not count against ...") does not."""
    from grounding.yesno_caps import denies_asked_action

    question = "Is there a cap on how much sick leave I can carry over?"
    assert denies_asked_action(question, "Sick days do not carry over and are not paid out on departure.")
    assert denies_asked_action(question, "Unused sick leave can't be carried over.")
    assert not denies_asked_action(question, "Sick leave does not count against your other balances.")
    page = make_page(1, "Paid Time Off and Holidays", "Sick leave", "Sick leave is separate from PTO. Every employee "
                     "receives 10 paid sick days per calendar year. Sick days do not carry over and are not paid out "
                     "on departure.")
    pto = make_page(2, "Paid Time Off and Holidays", "Carryover", "Up to 5 unused PTO days carry over into the next "
                    "year. Once you reach the cap you stop accruing.")
    answer = offline_answer(embedder, question, page, pto)
    assert "Sick days do not carry over" in answer and not answer.startswith("INSUFFICIENT_EVIDENCE"), answer
