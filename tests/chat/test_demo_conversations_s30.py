"""Two-turn conversations on the demo handbook that the s29 round's notes recorded as wrong (`manage.py ask Q1 Q2
--domain handbook --json`, as a new user tries them): what the user reads in the second answer."""

from __future__ import annotations

from tests.chat.test_demo_answers import _ask


def test_do_they_carry_over_after_paid_time_off_is_yes_from_the_pto_rule(demo_domain, capsys):
    """It opened "No. Sick days do not carry over ...": sick days are another kind of the days "they" stands for.
    The handbook says up to 5 unused PTO days carry over."""
    first, second = _ask(capsys, "How many days of paid time off do I get?", "Do they carry over?")
    assert "18 days" in first["answer"]
    assert second["answer"].startswith("Yes. Up to 5 unused PTO days carry over"), second["answer"]
    assert not second["abstained"]


def test_the_meal_allowance_on_the_last_day_is_the_75_percent_share(demo_domain, capsys):
    """It repeated the $65 of a full day: the last day of a trip gets 75% of the daily allowance, which comes first,
    with the allowance it is a share of."""
    _, last = _ask(capsys, "What is the daily meal allowance?", "And on the last day of travel?")
    assert last["answer"].startswith("On the first and last day of a trip you receive 75% of the daily allowance")
    assert "$65" in last["answer"]


def test_what_about_the_first_day_after_the_meal_allowance_is_not_the_onboarding_timetable(demo_domain, capsys):
    """An elliptical follow-up asks the value asked before for another case: "What about the first day?" quoted the
    first week's Day 1 timetable (its heading names the day)."""
    _, first_day = _ask(capsys, "What is the daily meal allowance?", "What about the first day?")
    assert "75% of the daily allowance" in first_day["answer"]
    assert "onboarding buddy" not in first_day["answer"] and "9:00 a.m." not in first_day["answer"]


def test_and_on_day_2_after_day_1_still_lists_the_days_programme(demo_domain, capsys):
    """The rule above applies to a value asked again, not to a list: "And on Day 2?" after "What happens on Day 1?"
    gives Day 2's items."""
    _, day2 = _ask(capsys, "What happens on Day 1?", "And on Day 2?")
    assert "Company orientation with People Operations" in day2["answer"], day2["answer"]


def test_how_many_yubikeys_is_the_count_stated_inside_a_sentence_on_security_keys(demo_domain, capsys):
    """The s30 new-user run: refused ("they do not state the number"); the handbook says "(Tallgrass issues two
    YubiKeys to every employee)" in a sentence on the primary MFA method, ranked below two sentences stating none."""
    (answer,) = _ask(capsys, "How many YubiKeys do I get?")
    assert not answer["abstained"] and "two YubiKeys to every employee" in answer["answer"], answer["answer"]


def test_how_many_of_a_thing_no_sentence_counts_is_still_refused(demo_domain, capsys):
    """The widened search for a count takes only a sentence counting the very thing asked: the handbook counts no
    badges (it says when the badge comes)."""
    (answer,) = _ask(capsys, "How many badges do I get?")
    assert answer["abstained"] and "do not state the number" in answer["answer"], answer["answer"]


def test_changing_it_every_90_days_after_the_password_length_is_a_no(demo_domain, capsys):
    """The s30 new-user run: "it" stands for the password; alone the question found "You must change it immediately
    if ..." and opened with nothing. The handbook says "You do not need to change your password on a schedule"."""
    _, change = _ask(capsys, "How long does my password need to be?", "Do I have to change it every 90 days?")
    assert change["answer"].startswith("No. You do not need to change your password on a schedule"), change["answer"]


def test_who_to_ask_if_mine_cannot_run_the_tools_is_the_early_replacement_rule(demo_domain, capsys):
    """The s30 new-user run: refused; "mine" stands for the laptop asked about before, and the handbook says "Early
    replacement is possible when a laptop can no longer run required engineering tools; your manager submits the
    request to the IT Help Desk"."""
    _, who = _ask(capsys, "How often do we get a new laptop?", "Who do I ask if mine can't run our engineering tools "
                                                                 "anymore?")
    assert not who["abstained"] and "your manager submits the request" in who["answer"], who["answer"]


def test_how_often_we_get_a_new_laptop_leads_with_the_refresh_cycle(demo_domain, capsys):
    """The s30 new-user run led with the 14 days to return the old laptop, a time limit, not how often."""
    (answer,) = _ask(capsys, "How often do we get a new laptop?")
    assert answer["answer"].startswith("Laptops are replaced on a 36-month refresh cycle"), answer["answer"]


def test_how_long_i_have_to_use_parental_leave_is_the_12_month_window(demo_domain, capsys):
    """The s30 new-user run answered with the blocks the leave may be taken in; the handbook says "Parental leave
    must be taken within 12 months of the child's birth, adoption or placement"."""
    _, window = _ask(capsys, "Do foster parents get parental leave?", "How long do I have to use it?")
    assert window["answer"].startswith("Parental leave must be taken within 12 months"), window["answer"]


def test_whom_to_ask_about_an_expense_report_is_the_travel_policys_contact(demo_domain, capsys):
    """The s30 new-user run: refused "they do not state the person or team for report", though "Questions about this
    policy go to the Finance team ..." speaks of the whole travel and expenses policy, expense reports included."""
    (answer,) = _ask(capsys, "Who should I contact with a question about my expense report?")
    assert not answer["abstained"] and "Finance team" in answer["answer"], answer["answer"]


def test_who_approves_a_week_off_is_the_manager_from_the_pto_page(demo_domain, capsys):
    """The s30 new-user run refused "who approves it?" after the notice a week off needs: on the page the previous
    answer cited, "Your manager approves or declines a request within 3 business days" holds the follow-up's own
    word, though it scores under the threshold."""
    _, who = _ask(capsys, "how much notice do I need to take a week off?", "who approves it?")
    assert who["answer"].startswith("Your manager approves or declines a request"), who["answer"]


def test_a_receipt_for_a_15_dollar_lunch_is_a_no(demo_domain, capsys):
    """The s30 new-user run quoted "An itemised receipt is required for any expense of $25 or more" without an
    opener; $15 does not reach the bound."""
    _, receipt = _ask(capsys, "how long do I have to submit expenses after a trip?",
                      "do I need a receipt for a $15 lunch?")
    assert receipt["answer"].startswith("No. An itemised receipt is required for any expense of $25 or more"), \
        receipt["answer"]
