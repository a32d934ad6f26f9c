"""Rules of the s35 round from development questions and the calibration half (each test names the item it came
from; none is from the 18F test half). Texts are made up unless they quote the question."""

from __future__ import annotations

from dataclasses import replace

from grounding.answer_types import question_type
from grounding.clash import Finding, clash
from grounding.context import plan_context
from grounding.contradictions import detect_conflicts
from grounding.counted import counted_noun
from grounding.extractive import ExtractiveAnswerer
from grounding.memory import MemoryTurn
from grounding.quotable import quotable
from grounding.tokens import counter_for
from grounding.typed_values import asks_time_taken, states_time_taken
from grounding.types import Source
from grounding.yesno_caps import asks_limit, speaks_of_limit
from tests.grounding.helpers import make_page, offline_answer


def _follow_up_plan(previous: str, asked: str, *pages):
    """The plan of the follow-up ``asked`` after ``previous`` (one user turn of history)."""
    counter = counter_for("extractive")
    return plan_context(question=asked, candidates=list(pages), system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", previous, counter.count(previous))])


def test_q207_a_follow_up_asking_for_a_similar_limit_is_settled_by_the_sentence_denying_one(embedder):
    """The calibration half's q207: "Is there a similar limit for sick leave?" after "How much annual leave can I
    carry over into the new year?" quoted three sentences counting other sick leave ("up to 13 days ... for family
    health needs") and not "There is no maximum amount of sick leave you can accrue", which answers it: No."""
    previous = "How much annual leave can I carry over into the new year?"
    asked = "Is there a similar limit for sick leave?"
    page = make_page(1, "Leave", "Sick leave", "You can use up to 13 days of sick leave per year for family health "
                     "needs and bereavement. You can use sick leave for your physical and mental health needs. "
                     "There is no maximum amount of sick leave you can accrue, and accrued sick leave transfers "
                     "with you.")
    annual = make_page(2, "Leave", "Annual leave", "You can carry over a maximum of 240 annual leave hours from one "
                       "leave year to the next.")
    text = ExtractiveAnswerer(embedder).compose(f"{asked} annual leave carry new year",
                                                _follow_up_plan(previous, asked, page, annual))
    assert text.startswith("No. There is no maximum amount of sick leave you can accrue"), text
    # a follow-up asking whether its case differs, with no sentence denying a limit on it, still opens with nothing
    other = ExtractiveAnswerer(embedder).compose(f"{asked} annual leave carry new year",
                                                 _follow_up_plan(previous, "Is it different for sick leave?", page,
                                                                 annual))
    assert not other.startswith(("Yes", "No")), other


def test_f35_u08_how_long_something_takes_is_not_stated_by_how_often_something_recurs(embedder):
    """fresh35's f35-u08 (a development set): "How long does GSA OCFO usually take to decide on it?" was answered
    with "... approves 18F billing the non-federal entity on a monthly cadence, ..." (a frequency, which a duration
    question accepts for "How long is it valid?" / "annually"). The time something takes needs a span of time."""
    assert asks_time_taken("How long does GSA OCFO usually take to decide on it?")
    assert asks_time_taken("How long do business cards take to arrive?")
    assert not asks_time_taken("How long is the PTA valid?")
    assert states_time_taken("Blue Line trains take about 50 minutes.")
    assert states_time_taken("Finance reviews it within 3 business days.")
    assert not states_time_taken("OCFO approves billing the partner on a monthly cadence.")
    page = make_page(1, "Agreements", "Advance payment", "If the finance office signs off on the waiver request, it "
                     "approves billing the partner on a monthly cadence. The finance office needs the partner's "
                     "budget to decide on a waiver request.")
    answer = offline_answer(embedder, "We need a waiver for a city partner. How long does the finance office usually "
                            "take to decide on a waiver request?", page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Agreements") \
        and "do not state the duration" in answer, answer
    timed = make_page(2, "Agreements", "Advance payment", "The finance office decides on a waiver request within 10 "
                      "business days.")
    assert "within 10 business days" in offline_answer(embedder, "How long does the finance office usually take to "
                                                       "decide on a waiver request?", page, timed)


def test_f35_u18_a_maximum_asked_is_stated_by_a_sentence_speaking_of_a_limit(embedder):
    """fresh35's f35-u18: "What's the maximum page count allowed for a federal resume?" was answered "When I
    applied, my resume was 7 pages long": a count of pages, no maximum. "page count" counts pages."""
    assert counted_noun("What's the maximum page count allowed for a federal resume?") == "page"
    assert counted_noun("Does the count include weekends?") == "" and counted_noun("What is the total count?") == ""
    page = make_page(1, "Resumes", "Writing a federal resume", "Federal resumes are long. When I applied, my resume "
                     "was 7 pages long. Put your most recent job first.")
    question = "What's the maximum page count allowed for a federal resume?"
    answer = offline_answer(embedder, question, page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Resumes"), answer
    limited = make_page(2, "Resumes", "Length", "A federal resume may be at most 5 pages long.")
    assert "at most 5 pages" in offline_answer(embedder, question, page, limited)


def test_f35_u16_whether_there_is_a_minimum_needs_a_lower_bound(embedder):
    """fresh35's f35-u16: "Is there a minimum project budget an opportunity needs before 18F moves it to the
    Qualified stage?" asks whether a limit exists ("minimum" is a limit word), and "there are a limited number of us"
    states no lower bound: the documents cover the lifecycle, not a minimum budget."""
    question = "Is there a minimum project budget an opportunity needs before it moves to the Qualified stage?"
    assert asks_limit(question)
    assert not speaks_of_limit("There are a limited number of us.", question)
    assert speaks_of_limit("There are a limited number of us.")  # a limit of some kind
    assert speaks_of_limit("Projects need a budget of at least $50,000.", question)
    assert speaks_of_limit("There is no minimum budget.", question)
    page = make_page(1, "Project lifecycle", "Opportunities", "Projects begin as opportunities. An opportunity "
                     "moves to the Qualified stage after a meeting with the partner. We are resource-constrained, "
                     "and there are a limited number of us.")
    answer = offline_answer(embedder, question, page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Project lifecycle") \
        and "whether there is a limit" in answer, answer


def test_f35_u10_a_thing_asked_after_the_askers_situation_is_not_answered_by_where_it_is_found(embedder):
    """fresh35's f35-u10: "I'm heading to the Chicago office tomorrow. What's the keycode for the TTS space on the
    35th floor?" was answered "The keycode is pinned in #chitown.": the check that a quoted sentence only says where
    the thing is found ran only on questions without a sentence of situation before them."""
    page = make_page(1, "Chicago", "Getting in", "TTS uses space on the 35th floor. The keycode is pinned in "
                     "#chitown. Visitors sign in at the front desk.")
    answer = offline_answer(embedder, "I'm heading to the Chicago office tomorrow. What's the keycode for the TTS "
                            "space on the 35th floor?", page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Chicago") \
        and "the keycode itself, only where it is found" in answer, answer


def test_f35_u11_opening_hours_asked_are_a_time():
    """fresh35's f35-u11: "What hours is the supply center in the DC GSA building open?" was typed "other" and
    answered with sentences on the supply center stating no time; opening hours are a time of day."""
    assert question_type("I need a few notebooks. What hours is the supply center in the DC GSA building open?") \
        == "date"
    assert question_type("What are the library's business hours?") == "date"
    assert question_type("What hours should I bill on a 4-day week?") != "date"


def test_f35_a05_a_list_item_stopping_before_its_object_is_quoted_with_the_items_under_it(embedder):
    """fresh35's f35-a05: "What should I pick for Software Name?" (on a Mac) was answered "Requesting a license: For
    Software Name, select", a fragment: the items nested under it (flattened by parsing) give what to select, each
    quoted after it, and it is not quoted alone."""
    assert not quotable("For Software Name, select", "item")
    assert not quotable("Bring the following", "item") and quotable("Bring your laptop and charger", "item")
    assert quotable("Choose the right leave type", "item")  # a noun ending a whole item
    page = make_page(1, "Office", "Requesting a license", "- Open a software request through the service portal\n"
                     "- For Software Name, select\n"
                     "- for Macs: Office Suite (Mac Client only) 2019: Approved\n"
                     "- for PCs: Office Suite (Windows Client only) 2019: Approved")
    answer = offline_answer(embedder, "I'm on a Mac and filling out the software request for Office. What should I "
                            "pick for Software Name?", page)
    assert "For Software Name, select: for Macs: Office Suite (Mac Client only) 2019: Approved" in answer, answer
    assert "select [S1]" not in answer


def test_f35_u11_a_time_asked_after_the_askers_situation_is_checked_against_the_thing_asked(embedder):
    """fresh35's f35-u11: "I need a few notebooks. What hours is the supply center in the DC GSA building open?" was
    answered "the building closes at 6 pm": the check that the quoted sentences name the thing asked (the supply
    center) ran only on questions without a sentence of situation before them."""
    supplies = make_page(1, "GSA internal tools", "Office supplies", "The D.C. office has a supply center on the "
                         "first floor of the GSA building. The supply center offers paper, pens, notebooks, and other "
                         "basic office supplies (many of which can also be found in printer rooms throughout the "
                         "building).")
    building = make_page(2, "Washington, D.C.", "How do I... > Access the building after hours", "Please note that "
                         "the building closes at 6 pm, a GSA badge is required for after hours access and no visitors "
                         "are permitted.")
    question = "What hours is the supply center in the DC GSA building open?"
    for asked in (question, f"I need a few notebooks. {question}"):
        answer = offline_answer(embedder, asked, supplies, building)
        assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe GSA internal tools") \
            and "for supply center" in answer, (asked, answer)


def test_f35_u12_a_thing_named_after_the_askers_situation_is_told_apart_by_its_whole_name(embedder):
    """fresh35's f35-u12: "A partner can't use Google Drive. What's the file size limit if we share files through
    Max.gov?" was answered with another service's limit ("The service has a file size limit of 100MB"): the check
    that a close sentence names what the quoted ones do not ran only on questions without a sentence of situation
    before them. The refusal names "Max.gov" whole, not "gov"."""
    max_page = make_page(1, "Sensitive information", "OMB MAX", "MAX Drive is good for sending a one-off file to a "
                         "partner. Files can be shared on Max.gov with people outside the government.")
    tools = make_page(2, "Collaboration tools", "Sharing files", "Intelink is a file sharing service for agencies. "
                      "The service has a file size limit of 100MB and folder limit of 1GB.")
    answer = offline_answer(embedder, "A partner can't use Google Drive. What's the file size limit if we share "
                            "files through Max.gov?", max_page, tools)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe") \
        and answer.rstrip(".").endswith("for Max.gov"), answer


def test_f35_a02_the_process_of_a_thing_is_that_thing(embedder):
    """fresh35's f35-a02: "We're starting an IAA with a new partner agency. Roughly how long does the agreement
    process take, best case and worst case?" was refused "for process" once the check above read questions after a
    situation: "Some agreements can take as few as 10 days" is about the agreement process."""
    page = make_page(1, "Agreements", "Timeline", "The agreement process starts when the partner sends a draft. Some "
                     "agreements can take as few as 10 days, while others take up to 90 days.")
    answer = offline_answer(embedder, "We're starting an IAA with a new partner agency. Roughly how long does the "
                            "agreement process take, best case and worst case?", page)
    assert "as few as 10 days, while others take up to 90 days" in answer, answer


def test_f23c_10_a_follow_up_asking_whether_there_is_a_limit_needs_a_sentence_speaking_of_one(embedder):
    """fresh23c's f23c-10 (a development set): "Is there a monthly dollar cap on how much it covers?" after "I take
    the train to the office every day. Am I eligible for the transit subsidy?" was answered with pointers ("See the
    Transit Subsidy Handbook page"): no sentence states or denies a limit, and the refusal that says so ran only on
    questions standing alone."""
    previous = "I take the train to the office every day. Am I eligible for the transit subsidy?"
    asked = "Is there a monthly dollar cap on how much it covers?"
    page = make_page(1, "Transit benefit", "Enrolling", "All employees who take public transit to work are eligible "
                     "for the transit subsidy. See the Transit Subsidy Handbook page for how to enroll. Other regions "
                     "consult the transit subsidy coordinators list.")
    text = ExtractiveAnswerer(embedder).compose(f"{asked} transit subsidy", _follow_up_plan(previous, asked, page))
    assert text.startswith("INSUFFICIENT_EVIDENCE: The documents describe Transit benefit") \
        and "whether there is a limit" in text, text
    capped = make_page(2, "Transit benefit", "Amount", "The transit subsidy covers up to $325 a month.")
    text = ExtractiveAnswerer(embedder).compose(f"{asked} transit subsidy",
                                                _follow_up_plan(previous, asked, page, capped))
    assert "up to $325 a month" in text, text


def _page_source(label: str, title: str, section: str, text: str, doc: int) -> Source:
    return Source(label=label, chunk_ids=(doc,), document_id=doc, title=title, section=section, version="", date="",
                  text=text, score=0.5, tokens=20, status="current", version_id=doc * 100)


def test_f35_u04_one_rule_stated_by_two_pages_each_of_its_own_subject_is_no_contradiction(embedder):
    """fresh35's f35-u04 noted "S1 says you can use Docusign templates for Paid Parental Leave ... but S2 says
    VLTP": the parental leave page and the leave transfer program's page each state the rule of their own program.
    A swapped name that each page's title or section names is two subjects; the same swap between two pages about
    neither still contradicts."""
    ppl = _page_source("S1", "Paid parental leave", "Requesting leave", "You can use Docusign templates for Paid "
                       "Parental Leave to fill out the forms and request the right signatures.", 1)
    vltp = _page_source("S2", "Voluntary Leave Transfer Program", "Enrolling in VLTP", "You can use Docusign "
                        "templates for VLTP to fill out the forms and request the right signatures.", 2)
    assert detect_conflicts([ppl, vltp], embedder) == []
    neither = [replace(ppl, title="Forms", section="Signatures"), replace(vltp, title="Forms", section="Templates")]
    assert [c.values for c in detect_conflicts(neither, embedder)] == [("Paid Parental Leave", "VLTP")]


def test_f31_05_names_moved_within_a_sentence_are_not_swapped():
    """fresh31's f31-05 (a development set) noted "S1 says "GSA officially launched 18F on March 19, 2014" but S2
    says 18F was": the two sentences say one thing with the names in other places."""
    assert clash("GSA officially launched 18F on March 19, 2014.",
                 "18F was officially launched within GSA on March 19, 2014.") is None
    assert clash("Acme officially launched Nimbus on March 19, 2014.",
                 "Acme officially launched Cirrus on March 19, 2014.") \
        == Finding("value_mismatch", ("Nimbus", "Cirrus"), rule="name")


def test_f19r_u10_names_quoted_as_examples_are_not_swapped():
    """fresh19's f19r-u10 (a development set) noted "... you cannot be listed in the agenda as “Dominic Sale,
    TTS/GSA.” but S2 says Sally Smith": each page quotes a made-up name as an example."""
    assert clash("You can include your team in your bio, but you cannot be listed in the agenda as “Dominic Sale, "
                 "TTS/GSA.”", "You can include your team in your bio, but you cannot be listed in the agenda as "
                 "“Sally Smith, TTS/GSA.”") is None
    assert clash("You cannot be listed in the agenda by Dominic Sale.", "You cannot be listed in the agenda by Sally "
                 "Smith.") is not None


def test_f35_u02_two_schedules_labelled_by_their_frequency_are_two_subjects():
    """fresh35's f35-u02 (and fresh13r's f13r-v02, fresh15's f15-m09) noted "S2 says "Bi-weekly: Meet with your
    supervisor" but S4 says Once a week (ideally": each line's label, closing a bracket before its colon, is what the
    line is about on its own page's schedule."""
    assert clash("- Bi-weekly: Meet with your supervisor.", "- Once a week (ideally): meet with your supervisor.") \
        is None
    assert clash("Acme (Boston) acquired Nimbus.", "Acme (Boston) acquired Cirrus.") \
        == Finding("value_mismatch", ("Nimbus", "Cirrus"), rule="name")


def test_f3013_a_sentence_condemning_an_act_agrees_with_one_forbidding_it():
    """fresh3's f3013 (a development set) noted "S1 says "Don't work overtime without prior approval" but S2 says
    "Working overtime without prior approval violates the Antideficiency Act"": both say no to the same act."""
    assert clash("- Don’t work overtime without prior approval.",
                 "Working overtime without prior approval violates the Antideficiency Act.") is None
    assert clash("Contractors may not use GSA laptops.", "Contractors may use GSA laptops.") \
        == Finding("negation", ("not", "affirmative"), rule="predicate")


def test_f19y_y14_a_polarity_clash_between_two_exclusive_cases_is_no_contradiction():
    """fresh19's f19y-y14 (a development set) noted "S1 says "... you are not representing GSA when speaking in your
    personal capacity" but S5 says "Speaking externally in your official capacity ... you are representing GSA"":
    the personal and the official capacity are two cases, each with its own rule. The same sentence said and denied
    is still a contradiction."""
    assert clash("Bottom line is that it should be clear that you are not representing GSA when speaking in your "
                 "personal capacity.", "Speaking externally in your official capacity is a privilege, as you are "
                 "representing GSA and your fellow TTSers.") is None
    assert clash("Personal devices may not be used for GSA work.", "Personal devices may be used for GSA work.") \
        == Finding("negation", ("not", "affirmative"), rule="predicate")


def test_f19r_u10_a_long_quotation_reports_a_claim_whose_swapped_name_still_contradicts():
    """Only a short quotation (six words at most) is a sample: RGB's counterfactual passages swap the name inside a
    quoted announcement ("“Facebook announced today that it has reached an agreement to acquire Instagram ..."),
    which the s35 round's first reading of quotes stopped flagging."""
    assert clash("Apr 9, 2012 ... “Facebook announced today that it has reached an agreement to acquire Instagram, a "
                 "fun, popular photo-sharing app for mobile devices.", "Apr 9, 2012 ... “Apple announced today that "
                 "it has reached an agreement to acquire Instagram, a fun, popular photo-sharing app for mobile "
                 "devices.") == Finding("value_mismatch", ("Facebook", "Apple"), rule="name")
