"""Sentences read with what frames them (grounding.sentence_leads, grounding.sentence_rank): a list item with its
lead-in, a sentence with its section's heading, a worked example's numbers, and the sentences saying what happens
when an event does not happen (grounding.event_cases.failures_first)."""

from __future__ import annotations

from grounding.event_cases import failures_first
from grounding.sentence_data import sentence_data
from grounding.sentence_leads import heading_of, lead_of
from grounding.sentence_rank import ScoredSentence
from tests.grounding.helpers import make_page, offline_answer

#: the 18F leave page as the s16 round found it: a worked example of advanced leave naming "earn" and "annual leave
#: hours" outranked the accrual list, whose items name neither and whose lead-in says "accrues"
LEAVE = ("Annual leave\nYou may use annual leave for any reason. Annual leave accrues based on how long you've worked "
         "for the federal government:\n- Fewer than 3 years: 4 hours per pay period\n- Between 3 and 15 years: 6 "
         "hours per pay period\n- 15+ years: 8 hours per pay period\nYou can carry over a maximum of 240 annual "
         "leave hours, from one leave year to the next.")
ADVANCED = ("Advanced annual leave\nYou can only take advanced annual leave in the amount that you would earn back "
            "by the end of the current leave year.\nFor example: It is June 19th, and the leave year ends on "
            "December 31st. You earn 4 annual leave hours per pay period and there are 14 pay periods left until "
            "December 31st. You will earn 56 more annual leave hours (14 pay periods x 4 hours per pay period).")


def test_a_list_item_knows_its_lead_in_and_a_sentence_its_heading(embedder):
    data = sentence_data([[(LEAVE, "")]], embedder)[0][0]
    texts = list(data.texts)
    item = texts.index("Between 3 and 15 years: 6 hours per pay period")
    assert data.texts[lead_of(data, item)].startswith("Annual leave accrues")
    assert lead_of(data, texts.index("You may use annual leave for any reason.")) is None
    assert heading_of(data, item) == "Annual leave"
    assert heading_of(data, 0, "Leave > Types of leave · Use or lose") == "Types of leave"


def test_an_amount_question_is_answered_by_the_list_its_lead_in_names_not_by_a_worked_example(embedder):
    answer = offline_answer(embedder, "How much annual leave do I earn?",
                            make_page(1, "Leave", "Taking advanced leave", ADVANCED),
                            make_page(2, "Leave", "Types of leave", LEAVE))
    assert answer.startswith("Fewer than 3 years: 4 hours per pay period [S"), answer
    assert "56 more annual leave hours" not in answer


def test_what_happens_if_an_event_does_not_happen_is_answered_by_the_sentence_stating_its_negative():
    ranked = [ScoredSentence("You must return your old laptop within 14 days of receiving the new one.", "S1", 0.75),
              ScoredSentence("Unreturned equipment may be deducted from your final pay.", "S2", 0.4),
              ScoredSentence("IT provides a loaner laptop within 1 business day.", "S1", 0.5)]
    lifted = failures_first(ranked, "return")
    assert max(lifted, key=lambda s: s.score).text.startswith("Unreturned equipment")
    assert abs(lifted[1].score - 0.9) < 1e-9  # 0.15 above the best other: beyond the answerer's spread
    assert [s.score for s in lifted][0] == 0.75 and lifted[2].score == 0.5
    assert failures_first(ranked[:1], "return") == ranked[:1]


def test_the_demo_laptop_question_quotes_what_happens_to_unreturned_equipment_first(embedder):
    laptop = make_page(1, "Equipment and Laptop Policy", "Laptop refresh",
                       "Laptops are replaced on a 36-month refresh cycle. You must return your old laptop within 14 "
                       "days of receiving the new one.")
    leaving = make_page(2, "Equipment and Laptop Policy", "Returning equipment when you leave",
                        "When you leave, return your laptop, badge and any peripherals within 10 business days of "
                        "your last day. Remote employees receive a prepaid shipping box. Unreturned equipment may be "
                        "deducted from your final pay where local law allows.")
    answer = offline_answer(embedder, "What happens if I don't return my laptop?", laptop, leaving)
    assert answer.startswith("Unreturned equipment may be deducted from your final pay"), answer
    assert "within 14 days" not in answer  # the rule that it must be returned is not padded on


def test_a_lead_in_stating_a_duration_is_quoted_with_its_first_item(embedder):
    """"Can a detail be extended beyond its first 120 days?" (the development set): the sentence saying so ends with
    a colon ("... for another 120 days (240 days total), provided that:") and was never a candidate."""
    from grounding.quotable import quoted_text

    details = ("Details typically last for 120 days. The detail can be extended for another 120 days (240 days "
               "total), provided that:\n- The detailee and both supervisors all agree\n- The detail is not a "
               "temporary promotion\nIf you typically work more than 8 hours on a day which falls on a holiday, you "
               "have a few options:\n- Take annual leave for the extra hours")
    data = sentence_data([[(details, "")]], embedder)[0][0]
    quoted = [quoted_text(data, i) for i in range(len(data.texts))]
    assert ("The detail can be extended for another 120 days (240 days total), provided that: The detailee and both "
            "supervisors all agree; The detail is not a temporary promotion.") in quoted
    assert not any(q.startswith("If you typically work") for q in quoted)  # its 8 hours only bound the case
    answer = offline_answer(embedder, "Can a detail be extended beyond its first 120 days?",
                            make_page(1, "Details", "Extending a detail", details))
    assert "can be extended for another 120 days" in answer, answer


def test_a_definition_question_is_not_answered_by_an_instance_of_another_term(embedder):
    """The demo handbook's "What counts as confidential data?" opened with "Sending Confidential data to the wrong
    person", an item of the section "What counts as an incident"; the classification's definition came second."""
    incidents = make_page(1, "Security", "Reporting a security incident > What counts as an incident",
                          "- A lost or stolen laptop, phone or YubiKey\n- Sending Confidential data to the wrong "
                          "person\n- Any malware warning on a company device")
    classes = make_page(2, "Security", "Data classification",
                        "Every document has a classification.\n- Public – press releases, the website.\n- "
                        "Confidential – customer contracts, unreleased robot designs.\n- Restricted – firmware "
                        "signing keys, employee medical data.")
    answer = offline_answer(embedder, "What counts as confidential data?", incidents, classes)
    assert answer.replace("**", "").startswith("Confidential – customer contracts"), answer


def test_a_long_lead_in_is_quoted_with_its_items_not_cut_back_to_its_colon(embedder):
    """The FMLA page in the DOCX and PDF of the 18F office set answered "How many weeks of leave does FMLA give?" with
    "FMLA entitles you to take up to 12 weeks of unpaid leave per 12 month period for the following … [S1]." (the s16
    round): its lead-in quoted with its first item only was long enough to be cut back to its colon. The lead-in is
    now quoted with its items up to a word limit, the rest marked with an ellipsis, and ends as a whole sentence."""
    from grounding.sentence_leads import with_items
    from grounding.quotable import quoted_text

    fmla = ("FMLA entitles you to take up to 12 weeks of unpaid leave per 12 month period for the following:\n"
            "- The birth or care of a child\n- An adoption or foster care placement of a child\n"
            "- The care of a spouse/son/daughter/parent with a serious health condition\n"
            "- Your serious health condition\n- Handling issues that arise when your spouse, child, or parent is on "
            "active duty in the Armed Forces.\nYou can take up to 26 weeks of unpaid FMLA to care for a servicemember.")
    data = sentence_data([[(fmla, "")]], embedder)[0][0]
    quoted = quoted_text(data, 0)
    assert quoted == ("FMLA entitles you to take up to 12 weeks of unpaid leave per 12 month period for the following: "
                      "The birth or care of a child; An adoption or foster care placement of a child; The care of a "
                      "spouse/son/daughter/parent with a serious health condition; Your serious health condition; …")
    assert with_items(data, 0, lambda t: True, limit=1000).endswith("in the Armed Forces.")
    assert with_items(data, 0, lambda t: "adoption" not in t) == (
        "FMLA entitles you to take up to 12 weeks of unpaid leave per 12 month period for the following: The birth or "
        "care of a child; …")
    assert with_items(data, 0, lambda t: False) == ""
    answer = offline_answer(embedder, "How many weeks of leave does FMLA give?",
                            make_page(1, "Family Medical Leave Act (FMLA)", "About FMLA", fmla))
    assert answer.startswith("FMLA entitles you to take up to 12 weeks of unpaid leave per 12 month period for the "
                             "following: The birth or care of a child;"), answer
    assert "following … [S1]" not in answer


#: a first-week timetable (written for the test, after the demo handbook's): the day's times sit under "Day 1", the
#: sentences before it name the start date with durations
WEEK = ("Before day one\nYour laptop ships 5 business days before your start date. Your buddy meets you every day "
        "of your first week.\nDay 1 (Monday)\n- 9:00 a.m. – Arrive at reception.\n- 11:00 a.m. – Badge photo.\n"
        "Day 2 (Tuesday)\n- 10:00 a.m. – Company orientation.")


def test_a_question_naming_its_day_by_an_ordinal_and_asking_a_time_is_answered_from_that_days_times(embedder):
    # the s22 new-user run: "What time does my first day start?" quoted the laptop's shipping date and the guide's
    # introduction; "my first day" names Day 1, and "what time" asks for a time of day
    answer = offline_answer(embedder, "What time does my first day start?", make_page(1, "Your first week", "", WEEK))
    assert answer.startswith(("9:00 a.m.", "11:00 a.m.")), answer
    assert "10:00 a.m." not in answer and "5 business days" not in answer, answer


def test_a_lead_in_offering_a_choice_is_quoted_with_its_items(embedder):
    """The demo's code of conduct: "You can report a concern through any of these channels; ...:" was never quoted
    (a lead-in stating no value), so "How can I report a concern?" got only the anonymous EthicsLine; and the 18F
    accessibility page's "Accessibility Review/Audit via one of the following options:" holds the GSA 508 Coordinator
    (f23c-18, the s23 conversation set). A lead-in naming no choice stays out."""
    from grounding.quotable import quoted_text

    text = ("You can report a concern through any of these channels; choose the one you are most comfortable with:\n"
            "- Your manager, or any manager you trust.\n- People Operations, at conduct@tallgrass.example.\n"
            "- The EthicsLine, an independent third-party hotline.\nPlease bring the following:\n- Your badge")
    data = sentence_data([[(text, "")]], embedder)[0][0]
    quoted = [quoted_text(data, i) for i in range(len(data.texts))]
    assert quoted[0] == ("You can report a concern through any of these channels; choose the one you are most "
                         "comfortable with: Your manager, or any manager you trust; People Operations, at "
                         "conduct@tallgrass.example; The EthicsLine, an independent third-party hotline.")
    assert not any(q.startswith("Please bring") for q in quoted)
