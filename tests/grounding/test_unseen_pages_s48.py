"""The s48 breaker's clean pages (an expenses policy, two office guides, payroll, a holiday list), asked as a new user
would: what the offline answerer says, checked against each page's own sentence. Each was refused or answered wrong
before this round."""

from __future__ import annotations

from tests.grounding.helpers import make_page, offline_answer

EXPENSES = make_page(1, "Travel and Expenses Policy", "Mileage",
                     "Use of a personal car is reimbursed at 67 cents per mile. Tolls are reimbursed; parking fines "
                     "are not.")
LONDON = make_page(2, "London Office Guide", "Opening hours · Parking",
                   "The London office is open from 8:30 to 18:00, Monday to Friday.\n\nParking at the London office "
                   "costs £15 per day and must be booked the day before.")
DENVER = make_page(3, "Denver Office Guide", "Opening hours · Parking",
                   "The Denver office is open from 7:00 to 17:00, Monday to Friday.\n\nParking at the Denver office is "
                   "free for employees.")
PAYROLL = make_page(4, "Payroll", "Payday · Payslips",
                    "Salaries are paid on the 25th of each month. When the 25th falls on a weekend, salaries are paid "
                    "on the last working day before it.\n\nPayslips are available in the HR portal from the 23rd of "
                    "each month.")
HOLIDAYS = make_page(5, "Company Holidays 2025", "",
                     "The company observes five holidays in 2025.\n\nEach employee also gets 2 floating holidays per "
                     "year, which do not carry over.")


def test_the_mileage_rate_is_the_rate_per_mile(embedder):
    """"What is the mileage rate?" was refused: no word of the question is in "... 67 cents per mile"."""
    assert offline_answer(embedder, "What is the mileage rate?", EXPENSES, LONDON).startswith(
        "Use of a personal car is reimbursed at 67 cents per mile [S1].")


def test_an_office_open_monday_to_friday_is_not_open_on_saturdays(embedder):
    """"Is the London office open on Saturdays?" opened "Yes." on "... open from 8:30 to 18:00, Monday to Friday"."""
    assert offline_answer(embedder, "Is the London office open on Saturdays?", LONDON, DENVER).startswith(
        "No. The London office is open from 8:30 to 18:00, Monday to Friday [S1].")
    assert offline_answer(embedder, "Is the Denver office open on Fridays?", DENVER, LONDON).startswith("Yes.")


def test_free_parking_and_a_day_of_the_month_are_answers(embedder):
    """"How much does parking cost in Denver?" and "When are payslips available?" were refused ("they do not state
    the amount" / "the date or deadline")."""
    assert offline_answer(embedder, "How much does parking cost in Denver?", DENVER, LONDON).startswith(
        "Parking at the Denver office is free for employees [S1].")
    assert offline_answer(embedder, "When are payslips available?", PAYROLL).startswith(
        "Payslips are available in the HR portal from the 23rd of each month [S1].")
    assert "paid on the 25th of each month [S1]" in offline_answer(embedder, "When is payday?", PAYROLL)


def test_a_count_of_something_else_does_not_answer_how_many_employees(embedder):
    """"How many employees does the company have?" got "Each employee also gets 2 floating holidays per year"."""
    answer = offline_answer(embedder, "How many employees does the company have?", HOLIDAYS, PAYROLL)
    assert "2 floating holidays" not in answer.split("but they do not state")[0] and "do not state the number" in answer


def test_a_department_named_by_one_word_is_a_team_that_approves(embedder):
    """"Who approves an expense claim over $2,000?" got only "Your line manager approves expense claims": "Claims
    over $2,000 also need approval from Finance" was not read as naming a team (one capitalised word)."""
    faq = make_page(6, "Expenses FAQ", "Who approves my claim?",
                    "Your line manager approves expense claims. Claims over $2,000 also need approval from Finance.")
    answer = offline_answer(embedder, "Who approves an expense claim over $2,000?", faq)
    assert "Claims over $2,000 also need approval from Finance [S1]" in answer, answer


def test_a_short_sentence_giving_a_number_is_quoted(embedder):
    """"What is the helpdesk extension?" got "The IT helpdesk is staffed from 8:00 to 20:00 on weekdays": the sentence
    after it, "Call extension 2222.", had three words, and only sentences of four words or more were quoted."""
    faq = make_page(7, "IT Helpdesk FAQ", "What are the helpdesk hours?",
                    "The IT helpdesk is staffed from 8:00 to 20:00 on weekdays. Call extension 2222.")
    assert "Call extension 2222 [S1]." in offline_answer(embedder, "What is the helpdesk extension?", faq)


def test_a_value_asked_of_another_size_or_length_is_answered_no(embedder):
    """"Is dental reimbursed at 100%?" opened "Yes. Dental treatment is reimbursed at 80% ..." and "Does probation last
    one week?" "Yes. The probation period is 6 months": a percentage closing the question, and a length asked in
    other units than the page's (compared in days), were not read as the value asked."""
    dental = make_page(8, "Dental Plan", "", "Dental treatment is reimbursed at 80% up to $1,000 per year.")
    probation = make_page(9, "New Starter Onboarding", "Probation",
                          "The probation period is 6 months. It can be extended once by up to 3 months.")
    assert offline_answer(embedder, "Is dental reimbursed at 100%?", dental).startswith("No. Dental treatment")
    assert offline_answer(embedder, "Is dental reimbursed at 80%?", dental).startswith("Yes. Dental treatment")
    assert offline_answer(embedder, "Does probation last one week?", probation).startswith(
        "No. The probation period is 6 months [S1].")
    assert offline_answer(embedder, "Does probation last 6 months?", probation).startswith("Yes.")


def test_lengths_in_business_days_are_not_converted():
    """Ten business days are two weeks: a length in business days is compared only with one in days."""
    from grounding.yesno_count import value_differs
    assert not value_differs("Does the notice last 2 weeks?", "Give 10 business days of notice.")
    assert not value_differs("Is the review done within 30 days?", "Reviews finish within one month.")
