"""Whether a sentence that would say "Yes." to a yes/no question speaks to the asker's case (grounding.yesno_scope),
and the openers grounding.yesno.opener gives with it. Made-up policies, written for these tests (none from the 18F
golden set)."""

from __future__ import annotations

import pytest

from grounding.yesno_statement import states_something
from grounding.yesno import opener, substituted
from grounding.yesno_answering import answering_clause
from grounding.yesno_scope import (concession_or_main, condition_unmet, contrasted, modality_unstated,
                                   prohibits_asked)


def test_a_leading_condition_sharing_no_word_with_the_askers_situation_is_another_case():
    question = "If I only use the website, do I have to set up commit signing?"
    asking = "do I have to set up commit signing?"
    sentence = "If you work with repositories on your local computer, you need to set up commit signing."
    assert condition_unmet(question, asking, sentence)
    assert condition_unmet(question, asking, sentence, lambda a, b: 0.3)
    # a paraphrase of the asker's case, as similar as the floor asks, is read as it
    assert not condition_unmet(question, asking, sentence, lambda a, b: 0.9)


def test_a_condition_the_question_states_or_a_question_stating_no_situation_leaves_the_sentence_as_it_is():
    assert not condition_unmet("If I leave the company, is my comp time paid out?", "is my comp time paid out?",
                               "If you leave the company, your comp time will be paid out.")
    # no situation stated: the condition is the usual case
    assert not condition_unmet("Does my annual leave transfer?", "Does my annual leave transfer?",
                               "If you stay in government service, your annual leave will be transferred.")
    assert not condition_unmet("If I leave, is my comp time paid out?", "is my comp time paid out?",
                               "Your comp time will be paid out when you leave.")


def test_a_sentence_opening_as_the_alternative_to_the_one_before_is_contrasted():
    assert contrasted("Instead, they should be published on the website and linked from the channel.")
    assert contrasted("Otherwise, ask your supervisor.")
    assert not contrasted("Publish them on the website instead.")


def test_the_clause_holding_more_of_what_is_asked_answers():
    sentence = "You are allowed to bring a guest; however, you cannot bring more than one guest a month."
    assert answering_clause("Am I allowed to bring a guest?", sentence) == "You are allowed to bring a guest"
    # each clause holds a word of the question that the other lacks: the sentence stays whole
    both = "A plan is no longer required for requests, but a form is required for most training requests."
    assert answering_clause("Do I still need a plan to request a training?", both) == both
    assert answering_clause("Is parking free?", "Parking is free.") == "Parking is free."


@pytest.mark.parametrize("asking,sentence,unstated", [
    ("Can I commit an API key into the repository?", "Signing your commits requires a pair of keys.", True),
    ("Does my office have to pay for the interpreter?", "An interpreter can be provided for meetings.", True),
    ("Can I share my public key?", "Your public key may be shared widely.", False),
    ("Am I allowed to bring a guest?", "Guests are welcome on Fridays.", False),
    ("Do I need to enroll?", "You must enroll before the first of the month.", False),
    # permission without something is settled by whether that something is required
    ("Can I archive a repository without approval?", "No approval is needed to archive a repository.", False),
    # a question asking neither is not read for it
    ("Is bike parking free?", "Bike parking is free.", False),
])
def test_a_question_asking_permission_or_a_requirement_needs_a_sentence_stating_one(asking, sentence, unstated):
    assert modality_unstated(asking, sentence) is unstated


@pytest.mark.parametrize("question,sentence,expected", [
    ("Am I allowed to bring a guest to the gym?",
     "You are allowed to bring a guest to the gym; however, you cannot bring more than one guest a month.", "Yes."),
    ("Is award leave paid out when I leave?",
     "Award leave is not paid out; however, you keep your annual leave.", "No."),
    ("Do I have to set up commit signing?", "You need to set up commit signing.", "Yes."),
    ("If I only use the website, do I have to set up commit signing?",
     "If you work with repositories on your local computer, you need to set up commit signing.", ""),
    ("Is it fine to post private documents in a public channel?",
     "Instead, they should be published on the website and linked from the channel.", ""),
    ("Can I commit an API key into the repository?", "Signing your commits requires creating a pair of keys.", ""),
    ("Can I commit an API key into the repository?", "You can never commit an API key into a repository.", "No."),
    ("Can a contractor be a full Slack member?", "Contractors can be added as full members.", "Yes."),
])
def test_openers_with_the_askers_case_read(question, sentence, expected):
    assert opener(question, sentence, similarity=lambda a, b: 0.3) == expected


def test_a_word_the_question_says_too_is_not_another_kind():
    assert not substituted("Can a contractor be a full Slack member?", "Contractors can be added as full members.")
    assert substituted("Can I fly business class?", "Book economy class for all flights.")


def test_an_indirect_question_states_nothing():
    assert not states_something("Whether the requested accommodation would be effective")
    assert states_something("The requested accommodation must be effective.")
    assert not states_something("Putting sensitive data in a public Slack channel")
    # a gerund subject with its verb states (s14 new user: "Can I work from another country?")
    assert states_something("Working from another country, even for one day, requires approval from People Operations.")
    assert states_something("Sharing passwords is never allowed, even with your supervisor.")
    assert states_something("Nothing is reimbursed without a receipt from the vendor.")


def test_a_negated_question_is_not_answered_no_by_a_sentence_silent_on_what_it_negates():
    from grounding.yesno_scope import negated_part_unstated
    asking = "Can any employee use the survey tool without paying for it?"
    assert negated_part_unstated(asking, "The survey tool page explains how to request a license.")
    assert not negated_part_unstated(asking, "You must pay for a license to use the survey tool.")
    assert not negated_part_unstated(asking, "Any employee may use the survey tool for free, not only admins.")
    assert not negated_part_unstated("Can I use the survey tool?", "The page explains how to request a license.")
    assert opener(asking, "The survey tool page explains how to request a license.") == ""
    assert opener("Can I archive a repository without approval?", "Archiving a repository requires approval.") \
        == "No."


def test_a_negated_question_needs_its_negated_predicate_named_not_only_a_noun_after_it():
    # ConditionalQA calibration record 241: "employer" is named, "contacting" is not
    from grounding.yesno_scope import negated_part_unstated
    asking = "Can we request this agreement without directly contacting our employer?"
    sentence = "If more than 40% of employees have requested an agreement, your employer must start negotiating."
    assert negated_part_unstated(asking, sentence)
    assert opener(asking, sentence) == ""
    assert not negated_part_unstated(asking, "You can request it by writing to the committee, so your employer is "
                                             "contacted by them.")
    assert opener("Can I archive a repository without approval?", "Archiving a repository requires approval.") \
        == "No."


def test_an_abbreviation_of_the_asked_word_is_not_another_kind():
    assert not substituted("Can my manager make an accommodation request for me?",
                           "Your manager can make the RA request on your behalf.")
    assert substituted("Can my manager make an accommodation request for me?",
                       "Your manager can make the travel request on your behalf.")


@pytest.mark.parametrize("question,sentence,expected", [
    # what the sentence negates is not what is asked: no "No."
    ("Do I have to add the comp time I earned to my timesheet myself?",
     "The time system is not connecting comp time hours to your timesheet.", ""),
    # a prohibition in the imperative answers a permission or a requirement question
    ("Should I turn off my laptop right away?", "Do not turn off your computer.", "No."),
    ("Am I allowed to delete a message?", "Please don't delete messages.", "No."),
    ("Do I have to fill out the form?", "You do not need to fill out the form.", "No."),
    ("Is smoking allowed inside the building?", "Smoking is forbidden inside the building.", "No."),
    ("Is the security training mandatory?", "The security training is optional.", "No."),
    ("Is a doctor's note required for one sick day?", "A doctor's note is not required for one sick day.", "No."),
    # a negation describing a noun of the question is not the question's
    ("Can a fed who isn't on our project be invited to our public channels?",
     "Feds with .gov addresses can be invited into public channels.", "Yes."),
])
def test_a_no_rests_on_a_negation_of_what_is_asked(question, sentence, expected):
    assert opener(question, sentence) == expected


def test_a_prohibition_after_a_leading_condition_still_answers_and_a_contrasted_sentence_settles_nothing():
    assert opener("If I spot odd activity on my laptop, should I shut it down?",
                  "If you detect any unusual activity on your computer, DO NOT turn off your computer.") == "No."
    assert opener("Is it fine to post internal documents that aren't public only in a public channel?",
                  "Instead, they should be published on the website so that access to the channel isn't required.") \
        == ""


def test_a_prohibition_of_what_a_permission_question_asks_says_no():
    """"Prohibited", "forbidden", "banned" deny a permission without a negation cue: the answer opened "Yes." before
    (found on the 18F development set, d044: "can I delete a message once I've posted it?" / "Users are prohibited
    from deleting messages" got "Yes."). A prohibition of something else settles nothing; a question asking a
    requirement is not answered by it."""
    assert opener("Can I delete a message once I've posted it?",
                  "Members are prohibited from deleting messages in the team channel.") == "No."
    assert opener("May I smoke on the loading dock?", "Smoking is forbidden on the loading dock.") == "No."
    assert prohibits_asked("Can I park a bicycle in the lobby?", "Bicycles are banned from the lobby.")
    assert not prohibits_asked("Can I bring my dog to the office?", "Smoking is prohibited in the building.")
    assert opener("Can I bring my dog to the office?", "Smoking is prohibited in the building.") != "No."
    assert not prohibits_asked("Do I have to delete old messages?", "Members are prohibited from deleting messages.")



def test_a_sentence_stating_the_asked_action_itself_answers_a_permission_question():
    """"Can I carry over unused PTO?" / "Up to 5 unused PTO days carry over into the next calendar year": the days do
    carry over, no modal needed (the demo handbook, s11 new user: no opener). A sentence naming another action still
    settles no "Yes."."""
    assert opener("Can I roll over unused vacation days?",
                  "Up to 3 unused vacation days roll over into the next year.") == "Yes."
    assert not modality_unstated("Can I roll over unused vacation days?",
                                 "Up to 3 unused vacation days roll over into the next year.")
    assert modality_unstated("Can I commit an API key into the repository?",
                             "Signing your commits requires creating a pair of keys.")


def test_of_a_concession_and_its_main_clause_the_one_about_what_is_asked_decides():
    """"Although ..., ..." concedes one thing and asserts another: "Can I share my free/busy times?" was answered "No."
    from the conceded clause's negation (s11 fresh yes/no set, f004, a made-up policy here); a question about what
    is conceded is still answered by it."""
    sentence = ("Although you can't share your whole mailbox with people outside the company, you can share your "
                "free / busy times.")
    assert opener("Can I share my free/busy times with people outside the company?", sentence) == "Yes."
    assert opener("Can I share my whole mailbox with people outside the company?", sentence) == "No."
    assert concession_or_main("Can I share my free/busy times?", sentence) == "you can share your free / busy times."
    assert concession_or_main("Is it free?", "It is free.") == "It is free."


def test_an_instruction_to_find_out_a_noun_contrast_and_an_unstated_it_predicate_settle_nothing():
    """From the s11 fresh yes/no set (made-up policies here): "See if your partner is able to view ..." is a step to
    check, not a permission (f005, it opened "Yes."); "as a guest and not an anonymous user" picks one of two things
    and negates nothing, and "Is it free to ...?" asks "free", which a sentence on another benefit does not state
    (f007, it opened "No.")."""
    assert not states_something("See if your partner is able to view your calendar events.")
    assert not states_something("Check whether the tool is approved before you install it.")
    assert states_something("Partners are able to view your calendar events.")
    benefit = "The benefit of adding a partner as a guest and not an anonymous user is that you see their edits."
    assert opener("Is it free to add partners to our whiteboard?", benefit) == ""
    assert opener("Is it free to park at the office?", "Parking is free for employees at the office.") == "Yes."



def test_a_without_phrase_negates_only_what_it_names():
    """s14 new user on the demo handbook: "Can I work from another country?" opened "No." from "... without additional
    approval": the negation is of the approval, which the question does not ask about."""
    from grounding.yesno import says_no
    from grounding.yesno_reach import unasked_without

    sentence = ("You may work from anywhere in the country where you are employed for up to 30 calendar days per "
                "year without additional approval, as long as you can keep core hours.")
    assert not says_no("Can I work from home for a month?", sentence)
    assert "approval" in unasked_without("Can I work from home without approval?", sentence)
    assert says_no("Can I expense it?", "Nothing is reimbursed without a receipt from the vendor.")


def test_a_permission_that_needs_an_approval_opens_as_a_conditional_yes():
    from grounding.yesno import opener

    sentence = ("Working from another country, even for one day, requires approval from People Operations at least 3 "
                "weeks in advance because of tax and immigration rules.")
    assert opener("Can I work from another country?", sentence) == "Yes, with approval."
    # a question naming the approval is answered by the polarity as it is
    assert opener("Do I need approval to work from another country?", sentence) == "Yes."


def test_a_question_word_said_of_another_noun_does_not_name_the_same_kind():
    """s14 new user on the demo handbook: "Can I use my personal laptop for work?" opened "Yes." from "Limited personal
    use ... is allowed, but company laptops are company property": "personal" is said of the use, and the laptops it
    names are the company's."""
    sentence = ("Limited personal use, such as checking personal email or browsing the news, is allowed, but company "
                "laptops are company property and Fleetwise activity logs may be reviewed by the Security team.")
    assert substituted("Can I use my personal laptop for work?", sentence)
    assert opener("Can I use my personal laptop for work?", sentence) == ""
    # the word said elsewhere and qualifying nothing there still names the same kind
    assert not substituted("Can a family member or friend make an accommodation request on my behalf?",
                           "Employees can also have a family member, friend, healthcare professional, or another "
                           "representative make the RA request on their behalf.")
    assert not substituted("Can I use my personal laptop?", "Personal laptops may never be used to access systems.")


def test_a_question_word_said_of_another_noun_is_not_the_askers_qualifier():
    """A development question on the demo handbook: "Can I use my personal tablet to check work email?" opened "Yes."
    from "Limited personal use, such as checking personal email ...": the question's "personal" is said of the
    tablet, so "personal email" is another kind than its "work email"."""
    sentence = ("Limited personal use, such as checking personal email or browsing the news, is allowed, but company "
                "laptops are company property.")
    assert substituted("Can I use my personal tablet to check work email?", sentence)
    assert not substituted("Can a contractor be a full Slack member?", "Contractors can be added as full members.")


@pytest.mark.parametrize("question,sentence,expected", [
    # a verb that negates the action it takes is a negation cue ("skip" = not follow)
    ("Can contractors skip the security policy?", "Every employee, contractor and intern must follow this policy.",
     "No."),
    ("Can I skip the onboarding survey?", "You may skip the onboarding survey.", "Yes."),
    ("Do I have to fill in the onboarding survey?", "You may skip the onboarding survey.", "No."),
])
def test_a_verb_negating_its_action_turns_the_answer(question, sentence, expected):
    assert opener(question, sentence) == expected


@pytest.mark.parametrize("question,sentence,expected", [
    # development questions on the 18F leave pages (s14), answered wrongly before
    ("Do I have to tell GSA about international travel if I don't hold a clearance?",
     "If you are traveling internationally and hold a security clearance, you are required to notify GSA.", ""),
    ("If I hold a security clearance, do I need to notify GSA before traveling abroad?",
     "If you are traveling internationally and hold a security clearance, you are required to notify GSA.", "Yes."),
    # a negation in the question about something else than the condition's case
    ("I'm an exempt employee leaving GSA. Will the comp time I haven't used be forfeited?",
     "If you leave GSA, any unused travel comp time will be forfeited.", "Yes."),
    # a predicate word inside a name states nothing
    ("Is FMLA leave paid?", "You have to be eligible for FMLA to receive Paid Parental Leave (PPL).", ""),
    ("Is annual leave paid out when I leave TTS?", "Your Annual Leave will be paid out.", "Yes."),
])
def test_a_condition_negated_on_one_side_or_a_name_settles_nothing(question, sentence, expected):
    assert opener(question, sentence) == expected


@pytest.mark.parametrize("question,sentence,expected", [
    # development questions on the 18F leave pages (s14), opened "Yes." before
    ("Can I take FMLA in my first month at GSA?", "If you previously used FMLA within the past 12 months of your "
     "parental leave period, those hours would be subtracted from the 12 weeks you can take for PPL.", ""),
    ("Can I take more advanced annual leave than I will earn back this leave year?", "You can only take advanced "
     "annual leave in the amount that you would earn back by the end of the current leave year.", "No."),
    ("Can anyone earn credit hours?", "Credit hours: Yes, you can earn/use credit hours if you are on a flexible "
     "schedule.", "No."),
    ("Can anyone join the call?", "Anyone can join the call; only the host can record it.", "Yes."),
])
def test_a_bound_in_words_a_restriction_of_who_or_a_case_named_only_in_a_condition(question, sentence, expected):
    assert opener(question, sentence) == expected


def test_an_example_settles_no_yes_but_an_example_of_a_prohibition_still_says_no():
    """A development question on the 18F FMLA page (s14): "Is FMLA leave paid?" opened "Yes." from an example of
    someone paid during FMLA through their sick leave."""
    assert opener("Is FMLA leave paid?", "For example: you went on FMLA for 4 weeks in March 2022 to care for a "
                   "seriously ill family member, and you used your accrued Sick Leave in order to be paid during this "
                   "time.") == ""
    assert opener("Can I use GSA's Qualtrics account to collect survey data for NIH?", "For example: if you're "
                  "working with NIH, you cannot collect data for NIH using GSA's Qualtrics account.") == "No."


@pytest.mark.parametrize("question,sentence,expected", [
    # development questions on the 18F travel guide (s14), each opened with the wrong Yes or No before
    ("If I spend less than my M&IE allowance, do I have to give the difference back?", "If you spent less than the "
     "allowance, you get to keep the difference, and if you spend more, you must pay the difference.", ""),
    ("If I spend more than my M&IE allowance, do I have to pay the difference?", "If you spent less than the "
     "allowance, you get to keep the difference, and if you spend more, you must pay the difference.", "Yes."),
    ("Can I get a cash advance from an ATM before my trip is approved?", "You may use your travel card to get a cash "
     "advance from an ATM, but only if your authorization to travel has been approved.", "No."),
    ("Is the travel card mandatory for travel expenses?", "Use of the GSA travel card is mandatory for all expenses "
     "as per the Federal Travel Regulation, except expenses for which it is impractical (e.g., vendor does not "
     "accept the travel card).", "Yes."),
])
def test_the_askers_case_an_unmet_only_if_and_an_exceptions_negation(question, sentence, expected):
    assert opener(question, sentence) == expected


@pytest.mark.parametrize("question,sentence,expected", [
    # development questions on the 18F leaving page (s14), each opened with the wrong Yes or No before
    ("Will my award leave be paid out when I leave GSA?", "If you leave GSA, your comp time will be paid out.", ""),
    ("Will my award leave be paid out when I leave GSA?", "If you leave TTS, award leave is not paid out.", "No."),
    ("If I move to another agency without a break in service, does my sick leave transfer?", "If your next role is "
     "still within the federal government and you are not taking a break in service, it will be automatically "
     "transferred to your next agency.", ""),
    ("Does my annual leave transfer if I take a break in service?", "If your next role is still within the federal "
     "government and you are not taking a break in service, it will be automatically transferred.", "No."),
    # a demonstrative subject refers back in the asker's own words
    ("If I get called for jury duty, does that time come out of my annual leave?", "When you are called to jury "
     "duty, your absence is marked as Court Leave and does not count against any of your other leave balances.",
     "No."),
])
def test_another_subject_or_a_condition_the_asker_negates_too(question, sentence, expected):
    assert opener(question, sentence) == expected


def test_the_case_of_a_sentence_that_is_the_askers_decides():
    """A development question on the 18F leave page (s14): the clause before the asker's case ("There is no maximum
    amount of sick leave you can accrue") opened "No."."""
    assert opener("If I move to another agency without a break in service, does my sick leave transfer?",
                  "There is no maximum amount of sick leave you can accrue, and if you've transferred to TTS from "
                  "another federal agency, your accrued sick leave will transfer with you.") == "Yes."


@pytest.mark.parametrize("question,sentence,expected", [
    # development questions on the 18F schedules and conferences pages (s14): a restating parenthesis keeps its
    # negation (it is the rule), a label before a condition is no part of it, a "won't" describing a noun is the
    # asker's situation
    ("On a fixed schedule, do my start and stop times change between pay periods?", "Once set, the times are fixed "
     "(i.e. your start/stop times don’t change from one pay period to the next).", "No."),
    ("Do I need to fill out the Event Request form to attend a free virtual event where I won't speak?", "NOTE: If "
     "you are attending a free virtual event and will NOT be speaking, you do not need to fill out the Event Request "
     "Google Form above.", "No."),
])
def test_a_restating_parenthesis_a_label_and_a_relative_wont(question, sentence, expected):
    assert opener(question, sentence) == expected


def test_a_permission_said_only_after_something_else_or_in_the_condition_grants_nothing():
    """A development question on the 18F software page (s14) opened "Yes." from "... will need to be purchased
    before it can be used"."""
    sentence = ("If GSA does not have any available licenses for this software, you and your supervisor will receive "
                "an email informing you that this software will need to be purchased before it can be used.")
    assert opener("If GSA has no spare licenses, can I use the software right away?", sentence) == ""
    assert opener("Can I use the tool?", "You can use the tool before your training starts.") == "Yes."


def test_a_rule_holding_only_under_a_condition_the_question_names_nothing_of_settles_no_yes():
    # ConditionalQA calibration record 19: the asker (working part time, renting privately) is not in supported
    # housing, and the question says nothing of it: "Yes." told them the opposite of the page
    from grounding.yesno_reach import only_if_unstated
    sentence = ("You can only make a new claim for Housing Benefit if either of the following apply: you’re in "
                "supported, sheltered or temporary housing.")
    question = ("I am 24, single and currently working only part time. I am unable to meet my private housing rent. "
                "Would I be entitled to claim Housing Benefit?")
    assert only_if_unstated(question, sentence)
    assert opener(question, sentence) == ""
    # the question names the condition: the rule answers it
    assert not only_if_unstated("I live in supported housing. Can I claim Housing Benefit?", sentence)
    # a condition of approval is the approval rule's ("Yes, with approval.")
    assert not only_if_unstated("Can I work remotely?", "You may work remotely only if your manager approves it.")
    assert opener("Can I bring my dog to the office?",
                  "You can bring a dog to the office only if it is registered with facilities.") == ""


def test_a_rule_holding_if_a_condition_the_question_names_nothing_of_settles_neither_way():
    """The s21 new-user run on the demo handbook: "Do I have to change my password every 90 days?" opened "Yes." from
    "You must change it immediately if you suspect it has been exposed, ...": the rule holds in other cases than the
    one asked; "You do not need to change your password on a schedule." answers no."""
    from grounding.yesno_reach import if_unstated
    rule = ("You must change it immediately if you suspect it has been exposed, if the Security team asks you to, or "
            "if you typed it into a phishing page.")
    question = "Do I have to change my password every 90 days?"
    assert if_unstated(question, rule) and opener(question, rule) == ""
    assert opener(question, "You do not need to change your password on a schedule.") == "No."
    # the question names the condition: the rule answers it
    assert not if_unstated("Do I have to change my password if I typed it into a phishing page?", rule)
    # "when" says when the rule holds, not whether: left alone
    assert not if_unstated("Do I have to wear a badge?", "You must wear your badge when you are in the office.")
    # a condition of approval is the approval rule's ("Yes, with approval.")
    assert not if_unstated("Can I work from abroad?", "You may work from abroad if your manager approves it.")


def test_a_compound_ending_with_the_asked_word_is_the_same_kind():
    # "telephone" ends with "phone": no other kind of dial-in (the s19 fresh yes/no set's f19y-y02, in made-up words)
    assert not substituted("Do town hall calls include phone dial-in numbers?",
                           "All town hall calls include telephone dial-in numbers by default.")
    assert opener("Do town hall calls include phone dial-in numbers?",
                  "All town hall calls include telephone dial-in numbers by default.") == "Yes."
    assert substituted("Do town hall calls include phone dial-in numbers?",
                       "All town hall calls include video dial-in numbers by default.")


def test_a_word_of_extent_before_the_noun_is_no_other_kind():
    # "whole folders" are folders (f19y-y06)
    assert not substituted("Do new files in a shared team folder keep the folder's settings?",
                           "You can share whole folders, and new files in a folder keep the settings of the folder.")


@pytest.mark.parametrize("question,sentence,said", [
    # a prohibition in the imperative inside a parenthesis (the fresh set's f020, in made-up words)
    ("Should I log in to the wiki with my badge?",
     "You can log in to the wiki with your staff email (do not log in with your badge).", "No."),
    ("Should I log in to the wiki with my badge?", "You can log in to the wiki with your staff email.", ""),
])
def test_a_prohibition_in_a_parenthesis_says_no(question, sentence, said):
    assert opener(question, sentence) == said


def test_a_condition_naming_another_case_than_the_asked_one_settles_nothing():
    from grounding.yesno_reach import other_named_case

    # the development set's d109: the user saw "Yes." from the Windows PC's screen reader for a question on a Mac
    question = "Does a GSA Mac come with a screen reader already on it?"
    windows = "If you receive a Windows PC, you can request the JAWS Screen Reader software via the GSA IT Service Desk."
    assert other_named_case(question, windows)
    assert opener(question, windows) == ""
    assert not other_named_case(question, "If you receive a Mac, the VoiceOver app is already pre-installed.")
    # the condition names what the question names (TTS): the asker's case (fresh's f009)
    assert not other_named_case("If I set my Mural room to public, can anyone at TTS view it?",
                                "If rooms within the TTS group are set to public, anyone at TTS can view them.")
    assert not other_named_case("Can I use Zoom?", "If you are in a meeting, you can use Zoom.")  # no name in it


def test_after_without_what_the_act_is_for_must_be_named_too():
    # the development set's d016: the user saw "No." for archiving a repository without asking for approval, from a
    # sentence that tells them to do it themselves or ask for help
    from grounding.yesno_scope import negated_part_unstated

    asking = "Can I archive an old GitHub repo myself without asking for approval?"
    feel_free = "Feel free to do so yourself, or ask #admins-github for help."
    assert negated_part_unstated(asking, feel_free)
    assert opener(asking, feel_free) != "No."
    assert not negated_part_unstated(asking, "You must ask for approval before you archive a repo.")
