"""How a yes/no answer opens (grounding.yesno.opener): "No.", "Yes." or no opener when the deciding sentence does not
settle the question. The cases are a breaker's and a new user's on made-up policies and the demo handbook (none from
the 18F golden set's test half)."""

from __future__ import annotations

import pytest

from grounding.yesno import opener


@pytest.mark.parametrize("question,sentence,expected", [
    # a rule on one side of a quantity of the asker's unit says nothing of the asker's case...
    ("Can I book premium economy for a 4 hour flight?",
     "Flights longer than 6 hours of continuous flying time may be booked in premium economy.", ""),
    ("Can I accept a gift worth $50 from a supplier?", "Do not accept gifts or hospitality worth more than $75.", ""),
    # ... unless the question passes a limit, or lacks a required time, or asks whether something is required of a
    # quantity under the bound the requirement starts from (the s30 round: the demo's new user expected "No." for "a
    # $15 lunch"; grounding.yesno_count.requirement_not_reached)
    ("Do I need a receipt for a $10 expense?", "An itemised receipt is required for any expense of $25 or more.",
     "No."),
    ("Can I carry over 10 unused PTO days into next year?", "Up to 5 unused PTO days carry over into the next year.",
     "No."),
    ("I joined six months ago. Can I use parental leave?", "You need at least 12 months of service to use it.",
     "No."),
    # f23c-03 (the s23 conversation set): the requirement in another unit than the asker's time
    ("I joined the federal government six months ago. Can I go on FMLA yet?",
     "To be eligible for FMLA, you must have at least one year of federal service.", "No."),
    ("I joined two years ago. Can I go on FMLA yet?",
     "To be eligible for FMLA, you must have at least one year of federal service.", "Yes."),
    # an antonym of the asked word turns the answer when the sentence names the rest of what is asked
    ("Is the office open on Sundays?", "The office is closed on Sundays.", "No."),
    ("Is smoking allowed inside the building?", "Smoking is forbidden inside the building.", "No."),
    ("Is personal use of the company laptop forbidden?", "Limited personal use of company laptops is allowed.", "No."),
    ("Is smoking allowed outside?", "Smoking is forbidden inside the building.", ""),
    # plain cases
    ("Is annual leave paid out when I leave?", "Your annual leave will be paid out.", "Yes."),
    ("Is award leave paid out when I leave?", "If you leave, award leave is not paid out.", "No."),
    ("Can I book business class on a 4-hour flight?", "Book economy class for all flights.", ""),
])
def test_a_yes_no_answer_opens_only_with_what_its_sentence_settles(question, sentence, expected):
    assert opener(question, sentence) == expected


@pytest.mark.parametrize("question,sentence,expected", [
    # a vague plural ("several", "a few") passes a limit of one (the s5 development set's finding)
    ("Does a cloud permit stay valid for several years?", "When a cloud permit is granted, it is limited to one "
     "year only.", "No."),
    ("Can I take a few days of jury leave?", "Jury leave is limited to one day only.", "No."),
    # ... and a quantity before the noun is another amount of the same thing, not another kind of it
    ("Is a cloud permit valid for one year?", "When a cloud permit is granted, it is valid for one year.", "Yes."),
])
def test_a_vague_plural_passes_a_limit_of_one_and_a_quantity_is_not_another_kind(question, sentence, expected):
    assert opener(question, sentence) == expected


def test_the_section_heading_counts_toward_what_the_sentence_names():
    # "You do not need a membership to access these" names too little of the asking clause on its own; under the
    # heading "Gym > Showers and lockers" it is about what is asked
    question = "Can I use the showers and lockers without paying for the gym?"
    sentence = "You do not need a membership to access these."
    assert opener(question, sentence) == ""
    assert opener(question, sentence, context="Gym > Showers and lockers") == "Yes."
    assert opener(question, sentence, context="Parking > Permits") == ""


@pytest.mark.parametrize("question,sentence,expected", [
    # a negation in the sentence's closing condition is the case it holds in, not its answer (as the question's
    # closing condition is dropped from its asking clause)
    ("Can I join a guild's chat channel even if I'm not a member of the guild?",
     "Feel free to join any guild chat channel, even if you are not a member of the guild.", "Yes."),
    ("Is award leave paid out when I leave?", "Award leave is not paid out if you leave the agency.", "No."),
    ("Can I telework from abroad?", "You may not telework from abroad unless your director approves it.", "No."),
])
def test_a_negated_closing_condition_of_the_sentence_does_not_turn_the_answer(question, sentence, expected):
    assert opener(question, sentence) == expected


@pytest.mark.parametrize("question,sentence,expected", [
    # the new user's doctor's note: the note is asked for only past 3 days; a bare "Yes." dropped the condition
    ("Do I need a doctor's note for sick leave?",
     "If you are sick for more than 3 consecutive working days, People Operations may ask for a doctor's note.",
     "In some cases."),
    # the asker's own quantity decides as before (a requirement past their 2 days settles nothing)
    ("Do I need a doctor's note if I'm sick for 2 days?",
     "If you are sick for more than 3 consecutive working days, People Operations may ask for a doctor's note.", ""),
    # a condition the question states, or one without a threshold, keeps the plain answer
    ("If I leave GSA, will my comp time be paid out?", "If you leave GSA, your comp time will be paid out.", "Yes."),
])
def test_a_yes_that_holds_only_past_an_unstated_threshold_says_in_some_cases(question, sentence, expected):
    assert opener(question, sentence) == expected


@pytest.mark.parametrize("question, sentence, expected", [
    # s6 new user: a sentence about the subject that does not state what is asked of it settles nothing
    ("Is lunch free for employees?", "Lunch costs $6 for employees and $9 for guests.", ""),
    ("Is coffee free for employees?", "Coffee is free for everyone.", "Yes."),
    ("Will the bicycle stipend change next year?",
     "Employees who commute by bicycle at least three days a week receive a monthly bicycle stipend of $40.", ""),
    ("Is alcohol reimbursed?", "Alcohol is not reimbursed unless it is part of an approved customer event.", "No."),
    ("Alongside paid parental leave, am I allowed to use annual and sick leave?",
     "You can also use annual and sick leave for parental leave reasons.", "Yes."),  # "can" grants what is asked
])
def test_yes_needs_the_sentence_to_state_the_questions_predicate(question, sentence, expected):
    assert opener(question, sentence) == expected


@pytest.mark.parametrize("question, sentence, expected", [
    ("Are there more than 100 bicycle parking spaces?", "There are 24 spaces, assigned first come, first served.",
     "No."),
    ("Are there more than 10 bicycle parking spaces?", "There are 24 spaces, assigned first come, first served.",
     "Yes."),
    ("Is the stipend at least $40?", "Employees receive a monthly bicycle stipend of $40.", "Yes."),
    ("Are there fewer than 20 spaces?", "There are 24 spaces in the garage.", "No."),
    ("Are there more than 100 spaces?", "Secure bicycle parking is available in the basement garage.", ""),
])
def test_a_count_compared_with_a_number_is_decided_by_the_stated_count(question, sentence, expected):
    assert opener(question, sentence) == expected


def test_the_offline_answer_to_a_count_comparison_rests_on_the_sentence_stating_the_count(embedder):
    """s6 new user: "Are there more than 100 bicycle parking spaces?" got "Yes." from the sentence about the garage;
    the sentence stating 24 spaces decides it, and opens the answer."""
    from grounding.context import plan_context
    from grounding.extractive import ExtractiveAnswerer
    from grounding.tokens import counter_for
    from grounding.types import Candidate, Chunk

    text = ("Secure bicycle parking is available in the basement garage of the Lincoln office. There are 24 spaces, "
            "assigned first come, first served.")
    page = Candidate(Chunk(chunk_id=1, document_id=1, title="Bicycle Commuting Policy", section="Parking",
                           version="v1", date="", text=text, tokens=30, version_id=1), score=0.03, dense=0.6)
    question = "Are there more than 100 bicycle parking spaces?"
    plan = plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))
    assert ExtractiveAnswerer(embedder).compose(question, plan).startswith(
        "No. There are 24 spaces, assigned first come, first served [S1].")


# --- a deciding sentence the sources disagree on -------------------------------------------------------------------

_NOTE_TEXT = ('S1 says "please note, GSA IT does not provide wireless peripherals" but S2 says "GSA can also provide '
              'a wireless keyboard and a mouse".')


def test_a_sentence_a_contradiction_note_quotes_is_disputed_a_version_note_is_not():
    from grounding.conflict import disputed
    from grounding.types import Note

    sentence = "GSA can also provide a wireless keyboard and a mouse."
    assert disputed(sentence, "S2", [Note(kind="negation", labels=("S1", "S2"), text=_NOTE_TEXT)])
    assert not disputed(sentence, "S3", [Note(kind="negation", labels=("S1", "S2"), text=_NOTE_TEXT)])
    assert not disputed(sentence, "S2", [Note(kind="version_superseded", labels=("S2", "S1"), text=_NOTE_TEXT)])
    assert not disputed("Ask the help desk for a monitor.", "S2",
                        [Note(kind="negation", labels=("S1", "S2"), text=_NOTE_TEXT)])


def test_a_sentence_whose_value_alone_a_note_names_is_disputed():
    """The s46 breaker: "Is the expense report deadline 30 days?" opened "No." from "You have 60 days after you get
    back to submit your expense report" (S2), which the note names only by its value: "... but S2 says 60 days."."""
    from grounding.conflict import disputed
    from grounding.types import Note

    note = Note(kind="value_mismatch", labels=("S1", "S2"),
                text='S1 says "Expense reports must be submitted within 30 days of returning from a trip" but S2 says '
                     '60 days.')
    assert disputed("You have 60 days after you get back to submit your expense report.", "S2", [note])
    assert disputed("Expense reports must be submitted within 30 days of returning from a trip.", "S1", [note])
    assert not disputed("Receipts are kept for 7 years.", "S2", [note])
    assert not disputed("You have 60 days after you get back to submit your expense report.", "S3", [note])


def test_a_yes_no_question_the_sources_disagree_on_gets_both_sides_and_no_opener(embedder):
    # the user sees the quoted sentence and the note that the sources disagree, not a confident "Yes." that the
    # note then contradicts
    from dataclasses import replace

    from grounding.context import plan_context
    from grounding.extractive import ExtractiveAnswerer
    from grounding.tokens import counter_for
    from grounding.types import Note
    from tests.grounding.helpers import make_page

    question = "Will GSA IT send me a wireless mouse and keyboard?"
    pages = [make_page(1, "Equipment", "Peripherals", "Please note, GSA IT does not provide wireless peripherals. "
                                                      "Wired ones are shipped with your laptop."),
             make_page(2, "Remote work", "Equipment", "GSA can also provide a wireless keyboard and a mouse. Ask the "
                                                      "help desk for a monitor.")]
    plan = plan_context(question=question, candidates=pages, system_prompt="Answer.",
                        counter=counter_for("extractive"))
    answerer = ExtractiveAnswerer(embedder)
    assert answerer.compose(question, plan).startswith("Yes.")  # without the note, the sentence settles it
    noted = replace(plan, notes=(Note(kind="negation", labels=("S1", "S2"), text=_NOTE_TEXT),))
    answer = answerer.compose(question, noted)
    assert not answer.startswith(("Yes.", "No."))
    assert "wireless keyboard and a mouse [S2]" in answer and "Note that the sources disagree" in answer


def _scored(text: str, label: str, score: float, precision: float):
    from grounding.sentence_rank import ScoredSentence

    return ScoredSentence(text=text, label=label, score=score, kind="sentence", cosine=score, overlap=0.0,
                          values=(), position=0, precision=precision)


def _source(label: str, title: str, section: str):
    from grounding.types import Source

    return Source(label=label, chunk_ids=(int(label[1:]),), document_id=int(label[1:]), title=title,
                  section=section, version="v1", date="", text="", score=0.0, tokens=1)


def test_when_the_closest_sentence_settles_nothing_another_chosen_one_naming_the_question_decides():
    # the user reads "No." and the sentence that says so first, not three quotes to weigh up themselves. Scores as
    # the 18F handbook's pages gave them (development file, d010)
    from grounding.extractive import ExtractiveAnswerer
    from grounding.extractive_yesno import decided

    question = "Can I request my annual leave in Tock?"
    chosen = [_scored("You will submit a leave request, using the same general steps that you use for annual and "
                      "sick leave.", "S2", 0.878, 0.19),
              _scored("You may use annual leave for any reason.", "S1", 0.849, 0.29),
              _scored("You cannot request paid time off in Tock (see the Leave page for guidance on requesting paid "
                      "time off using HR Links).", "S3", 0.841, 0.12)]
    sources = {"S1": _source("S1", "Leave types", "Reasons someone can take leave"),
               "S2": _source("S2", "HR Links", "Using leave"),
               "S3": _source("S3", "Tock", "Tocking for Out of Office time")}
    ordered, said = decided(ExtractiveAnswerer(scan_coverage=0.75), question, chosen, sources)
    assert said == "No." and ordered[0].label == "S3" and len(ordered) == 3
    # the closest sentence (about annual leave, on a page that does not name Tock) settles nothing by itself (the
    # scan by a denial's anchored negation, scan_margin, turned off too: it finds the same sentence)
    ordered, said = decided(ExtractiveAnswerer(scan_coverage=2.0, scan_margin=-1.0), question, chosen, sources)
    assert said == "" and ordered[0].label == "S1"


def test_a_sentence_naming_too_little_of_the_question_does_not_decide_it_in_the_closest_ones_place(embedder):
    from tests.grounding.helpers import make_page, offline_answer

    flights = make_page(1, "Travel", "Flights", "Book economy class for all flights. Flights longer than 6 hours of "
                                                "continuous flying time may be booked in premium economy.")
    answer = offline_answer(embedder, "Can I book business class on a 4-hour flight?", flights)
    assert not answer.startswith(("Yes.", "No."))


def test_a_settled_question_quotes_the_deciding_sentence_without_unrelated_ones():
    # s9 new user: "No. Alcohol is not reimbursed ..." was followed by the deadline for expense reports
    from grounding.extractive import ExtractiveAnswerer
    from grounding.extractive_yesno import decided

    question = "Can I expense alcohol on a business trip?"
    chosen = [_scored("Alcohol is not reimbursed unless it is part of an approved customer dinner.", "S1", 0.9, 0.4),
              _scored("Submit expense reports in Ledgerly within 30 days of the expense.", "S1", 0.85, 0.2),
              _scored("Alcohol on a business trip is never reimbursed.", "S2", 0.84, 0.6)]
    sources = {"S1": _source("S1", "Travel and Expenses Policy", "Meals"),
               "S2": _source("S2", "Travel and Expenses Policy", "Trips")}
    ordered, said = decided(ExtractiveAnswerer(), question, chosen, sources)
    assert said == "No."
    assert [s.text for s in ordered] == [chosen[0].text, chosen[2].text]  # the one naming the question stays


def test_a_close_sentence_denying_what_is_asked_decides_no_when_the_closest_settles_nothing():
    # dev d112: the denial holds few of the question's words ("teammates", "credited"), so no coverage rule finds
    # it; its negation names "authors" right after it, and it scores within scan_margin of the closest
    from grounding.extractive import ExtractiveAnswerer
    from grounding.extractive_yesno import decided

    question = "Should teammates who only edited my blog post be credited as authors?"
    chosen = [_scored("The authors listed on a blog post should be only the people who have actively contributed "
                      "significant portions of text to the blog post.", "S1", 0.788, 0.15),
              _scored("Team members who contributed editing, criticism, quotes, images, or small amounts of text "
                      "should not be included as authors.", "S2", 0.707, 0.10)]
    sources = {"S1": _source("S1", "Blogging guide", "Authorship"), "S2": _source("S2", "Blogging guide", "Authorship")}
    ordered, said = decided(ExtractiveAnswerer(), question, chosen, sources)
    assert said == "No." and ordered[0].label == "S2"
    # farther below the closest than scan_margin, it decides nothing
    ordered, said = decided(ExtractiveAnswerer(scan_margin=0.05), question, chosen, sources)
    assert said == "" and ordered[0].label == "S1"


def test_a_close_sentence_denying_something_beside_the_question_does_not_decide_it():
    # the s11 fresh set's f007: "cannot access the rest of the TTS workspace" is no answer to whether adding
    # partners is free (a wrong "No." when any close negated sentence could decide)
    from grounding.extractive import ExtractiveAnswerer
    from grounding.extractive_yesno import decided

    question = "Is it free to add our agency partners to our Mural workspace?"
    chosen = [_scored("The benefit of adding your partner as a guest and not an anonymous user is that you will be "
                      "able to see what contributions they are making to a Mural.", "S1", 0.800, 0.17),
              _scored("They cannot access the rest of the TTS workspace, but you can invite them to view and edit "
                      "your Mural.", "S1", 0.784, 0.14)]
    sources = {"S1": _source("S1", "Mural", "Inviting partners")}
    ordered, said = decided(ExtractiveAnswerer(), question, chosen, sources)
    assert said == ""


@pytest.mark.parametrize("question, sentence, expected", [
    # the s22 new-user run on the demo handbook: "Yes." dropped the $25 bound
    ("Do I need receipts for everything?", "An itemised receipt is required for any expense of $25 or more.",
     "In some cases."),
    ("Does every trip need approval from Finance?",
     "Trips with an estimated total cost above $3,000 also need approval from Finance.", "In some cases."),
    # a rule for everyone, bounded by nothing, stays a plain yes; a question stating its quantity is not this rule's
    # (the threshold rules leave this one without an opener, as before)
    ("Do all employees get paid sick days?", "Every employee receives 10 paid sick days per calendar year.", "Yes."),
    ("Do I need receipts for every expense over $30?",
     "An itemised receipt is required for any expense of $25 or more.", ""),
])
def test_a_rule_for_everything_held_only_past_a_quantity_opens_in_some_cases(question, sentence, expected):
    assert opener(question, sentence) == expected


def test_a_case_set_apart_is_named_only_by_a_sentence_naming_it_so():
    from grounding.yesno_asking import names_set_apart

    question = "Can I work remotely from another country?"
    assert names_set_apart(question, "Working from another country, even for one day, requires approval.")
    assert names_set_apart("Can I move to a different team?", "Moving to different teams needs a manager's yes.")
    assert not names_set_apart(question, "You may work from anywhere in the country where you are employed.")
    # "the other recipients" is the rest of a known group, not a case set apart
    assert not names_set_apart("Do the other recipients sign it before I do?",
                               "The form is sent to the other recipients in order.")


@pytest.mark.parametrize("question,sentence,expected", [
    # the s27 new-user run on the demo handbook opened "Yes." here
    ("Do I get more parental leave if I have twins?",
     "The amount of leave is the same whether you welcome one child or several at the same time.", "No."),
    ("Do part-timers get less parental leave?", "Parental leave is the same for all employees.", "No."),
    ("Do I get extra PTO after five years?", "Your PTO accrual does not change with tenure.", "No."),
    # a sentence granting the difference is no sameness
    ("Do I get more parental leave if I have twins?",
     "Parents of twins receive an extra 2 weeks of parental leave.", "Yes."),
])
def test_a_sentence_saying_it_is_the_same_whatever_the_case_says_no_to_more_or_less(question, sentence, expected):
    assert opener(question, sentence) == expected
