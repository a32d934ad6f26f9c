"""A group of people a question asks about (contractors, interns, part-time staff) pins its fact as a place does
(grounding.question_parts.specifics): a rule for employees does not answer for contractors. From a new user's
questions on the demo handbook (s9)."""

from grounding.question_parts import is_group, mentions, specifics
from tests.grounding.helpers import make_page, offline_answer

PTO = ("This policy explains how full-time employees earn, request and use paid time off (PTO). Part-time employees "
       "accrue PTO pro rata based on their scheduled hours. Employees accrue 1.5 days of paid time off per month, "
       "which adds up to 18 days per calendar year.")
SICK = "Full-time employees receive 10 paid sick days per calendar year. Sick days do not carry over."


def test_a_group_asked_about_is_a_specific_and_an_actor_is_not():
    assert specifics("Do contractors get paid time off?") == ["contractors"]
    assert specifics("As a contractor, can I join the guild?") == ["contractor"]
    assert specifics("If I come back part-time, do I earn leave?") == ["part-time"]
    # someone the asker deals with, or a compound, pins nothing
    assert specifics("Can I give a contractor on my project admin rights?") == []
    assert specifics("Do I need my supervisor's approval?") == []
    assert specifics("Which password manager do we recommend?") == []
    assert is_group("interns") and not is_group("Denver")


def test_a_group_is_named_in_the_singular_and_the_plural():
    assert mentions("A contractor may join the guild.", "contractors")
    assert mentions("Contractors may join the guild.", "contractor")
    assert not mentions("Employees accrue PTO.", "contractors")
    assert not mentions("Non-contractors only.", "contractors")


def test_a_yes_no_question_about_a_group_no_source_names_says_so(embedder):
    # the user sees what the documents describe and that they say nothing about contractors, not "Yes." from the
    # employees' accrual
    answer = offline_answer(embedder, "Do contractors get paid time off?",
                            make_page(1, "Paid Time Off", "Accrual", PTO))
    assert not answer.startswith(("Yes.", "No."))
    assert "do not say anything about contractors" in answer
    # the same question about a group the policy names is answered
    answer = offline_answer(embedder, "Do part-time employees get paid time off?",
                            make_page(1, "Paid Time Off", "Accrual", PTO))
    assert "pro rata" in answer


def test_a_value_question_about_a_group_the_source_does_not_name_is_not_answered_with_everyones_value(embedder):
    answer = offline_answer(embedder, "How many sick days do interns get?", make_page(1, "Sick Leave", "Sick days",
                                                                                       SICK))
    assert "do not say anything about interns" in answer
    assert "10 paid sick days" not in answer.split("but")[-1]


REMOTE = ("Remote employees receive a one-time home office stipend of $750 for a desk, chair, monitor or other "
          "ergonomic equipment. Hybrid employees receive a one-time stipend of $400. Fully remote employees are "
          "reimbursed up to $50 per month for home internet. Hybrid employees are not eligible for the internet "
          "reimbursement.")


def test_a_sentence_denying_the_asked_value_to_the_group_answers_it(embedder):
    # the user reads that hybrid employees are not eligible, not the $400 stipend as if it were the internet figure
    from grounding.denials import denies

    question = "How much is the internet reimbursement for hybrid employees?"
    assert denies(question, "Hybrid employees are not eligible for the internet reimbursement.")
    assert not denies(question, "Remote employees are not eligible for the internet reimbursement.")  # other group
    assert not denies(question, "Hybrid employees receive a one-time stipend of $400.")  # no denial
    answer = offline_answer(embedder, question, make_page(1, "Remote Work", "Home office setup", REMOTE))
    assert "Hybrid employees are not eligible for the internet reimbursement [S1]" in answer


# --- the breaker's cases (s9) ---------------------------------------------------------------------------------------

def test_a_page_naming_the_group_elsewhere_does_not_make_another_groups_sentence_theirs(embedder):
    from grounding.subject_check import pins
    from grounding.types import Source

    page = Source(label="S1", chunk_ids=(1,), document_id=1, title="Paid Time Off", section="Accrual", version="v1",
                  date="", text="Employees accrue 1.5 days of PTO per month. Contractors must follow the building "
                                "security policy.", score=0.0, tokens=1)
    assert not pins(page, "Employees accrue 1.5 days of PTO per month.", "contractors")
    assert pins(page, "Contractors must follow the building security policy.", "contractors")
    assert pins(page, "All employees get 11 paid holidays.", "part-time")  # a sentence about everyone
    assert pins(page, "Every employee may claim a home office stipend of $500.", "hybrid")
    assert pins(page, "Full-time employees receive 10 sick days.", "Denver") is False
    answer = offline_answer(embedder, "Do contractors get paid time off?", make_page(1, "Paid Time Off", "Accrual",
                            page.text))
    assert not answer.startswith(("Yes.", "No."))
    answer = offline_answer(embedder, "How many sick days do interns get?", make_page(
        1, "Sick Leave", "Sick days", "Full-time employees receive 10 sick days per year. Interns start on the first "
                                      "Monday of June."))
    assert "10 sick days" not in answer or "do not" in answer


def test_a_sentence_about_everyone_answers_a_group_and_group_words_have_their_forms(embedder):
    answer = offline_answer(embedder, "As a part-time employee, how many paid holidays do I get?", make_page(
        1, "Holidays", "Paid holidays", "All employees get 11 paid federal holidays each year."))
    assert "All employees get 11 paid federal holidays each year [S1]" in answer
    assert specifics("I'm a contractor. Do I get paid time off?") == ["contractor"]
    assert mentions("Part time employees get paid holidays.", "part-time")
    assert mentions("Part-timers get paid holidays.", "part-time")
    assert mentions("paid days for volunteering", "volunteers")
    assert mentions("supervisory staff", "supervisors")
    assert not mentions("international travel", "interns")
    assert specifics("Can student interns telework?") == ["interns"]


def test_a_denial_answers_alone_and_only_for_a_question_that_names_whom(embedder):
    from grounding.denials import denies

    assert not denies("What is the internet reimbursement?", "Contractors are not eligible for the internet "
                                                             "reimbursement.")
    answer = offline_answer(embedder, "How much is the internet reimbursement for hybrid employees?",
                            make_page(1, "Remote Work", "Home office setup", REMOTE))
    assert answer.startswith("Hybrid employees are not eligible for the internet reimbursement [S1]")
    assert "$400" not in answer and "$50" not in answer


def test_a_sentence_on_the_asked_topic_for_the_group_answers_with_the_general_value_it_qualifies(embedder):
    # s9: "As a part-time employee, how much PTO do I earn?" was refused as saying nothing about part-time, over a
    # page saying part-time employees accrue PTO pro rata
    answer = offline_answer(embedder, "As a part-time employee, how much PTO do I earn?",
                            make_page(1, "Paid Time Off", "Accrual", PTO))
    assert answer.startswith("Part-time employees accrue PTO pro rata based on their scheduled hours [S1].")
    assert "1.5 days of paid time off per month" in answer


def test_a_yes_no_answer_quoting_a_page_that_never_names_the_group_says_so_first(embedder):
    # another planned page names contractors; the one quoted does not: the answer says its sentence is not said of
    # them, not "Yes." and not nothing
    security = make_page(2, "Security", "Badges", "Contractors must wear their badges in the office at all times.")
    answer = offline_answer(embedder, "Do contractors get paid time off?", make_page(1, "Paid Time Off", "Accrual",
                            PTO.replace("Part-time employees accrue PTO pro rata based on their scheduled hours. ",
                                        "")), security)
    assert answer.startswith("The documents do not say this for contractors; they say:")


def test_non_supervisors_are_a_group_a_rule_for_supervisors_does_not_answer(embedder):
    """18F calibration: "Non-supervisors buy professional liability insurance too. How much of it can I, as a regular
    employee, get reimbursed?" was answered with the supervisors' reimbursement."""
    question = ("Non-supervisors buy professional liability insurance too. How much of it can I, as a regular "
                "employee, get reimbursed?")
    assert specifics(question) == ["non-supervisors"] and is_group("non-supervisory")
    assert not mentions("Supervisors may be reimbursed for up to half the cost.", "non-supervisors")
    assert mentions("Non-supervisory staff may apply.", "non-supervisors")
    text = offline_answer(embedder, question, make_page(1, "Insurance", "Liability insurance",
                                                        "Supervisors may be reimbursed for up to half the cost of "
                                                        "professional liability insurance, up to $150."))
    assert "$150" not in text and "non-supervisors" in text, text
