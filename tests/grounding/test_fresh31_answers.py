"""Rules of the s31 round from the fresh31 development set (evaluation/golden/18f_fresh31.jsonl, written by a helper
from 31 random handbook pages): each test names the item it came from. Texts are made up unless they quote the
question."""

from __future__ import annotations

from grounding.answer_types import question_type, states, typed_values
from grounding.asked_forms import contrasted
from grounding.comparison_sides import comparison_sides
from grounding.question_parts import specifics
from grounding.typed_values import asks_calendar, states_calendar
from grounding.yesno import opener
from grounding.yesno_asking import asking_clause
from grounding.yesno_inverted import required_instead
from tests.grounding.helpers import make_page, offline_answer

F31_26 = ("Who gets back to me faster: the Events Team after I raise a question on my conference request, or the "
          "Office of Acquisition after I submit an intake form for a purchase over $10,000?")


def test_f31_26_two_long_sides_after_a_colon_are_each_asked_whole():
    sides = comparison_sides(F31_26)
    assert sides is not None
    assert sides.queries == (
        "Who gets back to me faster: the Events Team after I raise a question on my conference request?",
        "Who gets back to me faster: the Office of Acquisition after I submit an intake form for a purchase over "
        "$10,000?")
    # a short side after a colon is read as before
    assert comparison_sides("Which is a quicker train ride: SFO to the SF office, or Midway to the Chicago "
                            "office?").phrases == ("SFO to the SF office", "Midway to the Chicago office")


def test_f31_26_who_gets_back_faster_asks_how_long_not_for_a_person():
    assert question_type(sides_first := comparison_sides(F31_26).queries[0]) == "duration", sides_first
    assert question_type("Who approves my travel request?") == "person"
    assert question_type("Who pays more, the agency or the employee?") != "duration"


def test_f31_26_the_head_noun_of_an_organisation_pins_no_source():
    # "Office" of "the Office of Acquisition": the page writes "OA"; "Events" still pins the Events Team's pages
    assert specifics("Who answers faster, the Office of Acquisition or the Events Team?") == ["Acquisition", "Events"]
    assert specifics("What is the nightly hotel limit in Denver?") == ["Denver"]


def test_f31_07_seconds_are_a_duration_not_a_count():
    # "how long do I have to paste it before the clipboard is cleared?" was refused: "10 seconds" read as a count
    assert typed_values("KeePassXC clears the clipboard after 10 seconds.") == ("duration:10 seconds",)
    assert typed_values("You will have 1 second to react.") == ("duration:1 second",)
    assert states("duration", "KeePassXC clears the clipboard after 10 seconds.")


def test_f31_39_a_qualifier_the_question_negates_with_non_is_not_answered_by_its_positive():
    question = "How long does a full (non-interim) Secret clearance take to come through?"
    assert contrasted(question, "1-2 months for a new Secret (interim) clearance.") == "non-interim"
    assert contrasted(question, "6-8 months for a new non-interim Secret clearance.") is None  # says the asked case
    assert contrasted(question, "A Secret clearance takes 4-6 months.") is None  # names neither
    # the question naming both sides asks about both
    assert contrasted("Do interim and non-interim clearances take as long?", "Interim clearances take 1 month.") is None


def test_f31_39_the_offline_answer_refuses_the_negated_case(embedder):
    question = "How long does a full (non-interim) Secret clearance take to come through?"
    page = make_page(1, "Clearances", "Timelines", "Clearances take time to process.\n\n"
                     "- 1-2 months for a new Secret (interim) clearance.\n"
                     "- 6-8 months for a new Top Secret clearance.\n")
    text = offline_answer(embedder, question, page)
    assert text.startswith("INSUFFICIENT_EVIDENCE") and "non-interim" in text, text


def test_f31_43_a_question_naming_a_day_or_time_needs_one_not_an_event():
    assert asks_calendar("What day and time is the monthly Info Session held?")
    assert asks_calendar("What time does my first day start?")
    assert not asks_calendar("When is the Info Session held?")  # an event's time answers "When ...?"
    invite = "Once you have submitted a referral, we will invite the person to our monthly Info Session."
    assert states("date", invite) and not states_calendar(invite)
    assert states_calendar("Info Sessions are held the first Tuesday of the month at 2 p.m.")
    assert states_calendar("Submit it within 5 business days.")


def test_f31_43_the_offline_answer_refuses_an_event_for_a_day_and_time(embedder):
    question = "What day and time is the Recruiting team's monthly Info Session held?"
    page = make_page(1, "Recruiting", "Referrals", "Once you have submitted a referral, a recruiting team member "
                     "will reach out and invite the person to our monthly Info Session.\n\n"
                     "We share information about every office at the Info Session.\n")
    text = offline_answer(embedder, question, page)
    assert text.startswith("INSUFFICIENT_EVIDENCE"), text
    held = page.chunk.text + "\nThe Info Session is held on the first Tuesday of each month at 2 p.m. Eastern.\n"
    text = offline_answer(embedder, question, make_page(1, "Recruiting", "Referrals", held))
    assert "first Tuesday of each month at 2 p.m." in text, text


def test_f31_18_a_condition_naming_only_the_organisation_is_not_met_by_a_question_naming_it():
    question = ("We're working on a project for the Department of Labor. Can I use GSA's Qualtrics license to run a "
                "survey of their users for them?")
    sentence = ("Qualtrics can only be used if you're collecting feedback that is directly helping GSA; not another "
                "agency.")
    assert opener(question, sentence) == ""  # was "Yes.": the question names GSA, not the condition
    # a question naming the condition's own words still gets its yes
    assert opener("Can I use Qualtrics when I'm collecting feedback that helps GSA?", sentence) == "Yes."


def test_f31_11_is_it_okay_if_i_dont_is_answered_as_the_requirement_it_turns_round():
    question = ("I only ever edit our repos through github.com in my browser. Is it okay if I don't set up commit "
                "signing?")
    assert required_instead(question) == ("I only ever edit our repos through github.com in my browser. Do I need to "
                                          "set up commit signing?")
    assert opener(question, "You do not need to set up commit signing.") == "Yes."
    assert opener(question, "Setting up commit signing is optional.") == "Yes."
    # a rule under a leading condition is often another case than the asker's: no opener from it (f31-11's first
    # sentence, "If you do any work with git repos on your local computer, you need to set up commit signing", read
    # "No." for an asker editing in the browser)
    assert opener(question, "If you only use GitHub from the web interface, you do not need to configure signing.") \
        == ""
    assert opener("Is it okay if I don't set up commit signing?",
                  "You must set up commit signing before your first commit.") == "No."
    assert required_instead("Is it okay to set up commit signing later?") is None


def test_f31_14_no_limit_on_how_many_times_grants_the_asked_act():
    sentence = "There is no limit on how many times you can resubmit your timesheet."
    assert opener("Can I resubmit my HR Links timesheet more than once if I keep finding mistakes in it?",
                  sentence) == "Yes."  # was "No." (and the clause was cut at "once")
    assert opener("Is there a limit on how many times I can resubmit my timesheet?", sentence) == "No."
    assert asking_clause("Can I resubmit my timesheet more than once if I keep finding mistakes?") == \
        "Can I resubmit my timesheet more than once?"



def test_f31_29_a_lower_case_item_stating_something_under_a_sentence_is_quoted(embedder):
    page = make_page(1, "Cloud accounts", "Password policy",
                     "When changing your password, keep these in mind since the console will not remind you.\n\n"
                     "- minimum 16 characters\n- must be different than the previous 24 passwords\n"
                     "- passwords expire after 90 days\n")
    text = offline_answer(embedder, "How often do the cloud account passwords expire?", page)
    assert "passwords expire after 90 days [S1]" in text, text
    assert "minimum 16 characters" not in text  # a noun phrase states nothing of its own
    assert "must be different" not in text  # nor a predicate whose subject is said elsewhere
