"""A quoted sentence must hold what the question asks for, not only its topic (s19 refusal pass): who holds a role,
a value its asked noun implies, and, for a yes/no question nothing settles, more than one of the things it is
about."""

from __future__ import annotations

from grounding.asked_holder import (asks_role_holder, implied_value, names_a_person, states_implied, thin_cover,
                                    unheld, unnamed_thing, unsettled_requirement)
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.source_types import Source
from grounding.subject_check import subject_terms
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk


def _source(text: str, title: str = "Parental Leave Policy", section: str = "Pay and benefits") -> Source:
    return Source(label="S1", chunk_ids=(1,), document_id=1, title=title, section=section, version="v1", date="",
                  text=text, score=0.5, tokens=20)


def test_a_question_asking_who_holds_a_role_is_told_apart_from_other_who_questions():
    assert asks_role_holder("Who is the director of the Market Development and Partnerships Division?")
    assert asks_role_holder("Who is the current director of product at 18F?")
    assert asks_role_holder("Who leads the GSA Incident Response team?")
    assert asks_role_holder("Which leadership member receives the email notification?")
    assert asks_role_holder("My laptop broke. Who is my supervisor's manager?")  # the asking clause decides
    # who does something, or a tool named by a role word, is not a role's holder
    assert not asks_role_holder("Who approves a trip abroad?")
    assert not asks_role_holder("Who is eligible for parental leave?")
    assert not asks_role_holder("Who owns the TTSC Handbook?")
    assert not asks_role_holder("Which password manager do we recommend?")


def test_a_role_is_held_only_by_a_named_person():
    question = "Who is the current director of product at 18F?"
    # what the role does, or a team's mailbox, names nobody
    assert not names_a_person("The Director represents the chapter on the Senior Management Team of 18F.", question)
    assert not names_a_person("Contact the GSA Incident Response (IR) Team at gsa-ir@gsa.gov.",
                              "Who leads the GSA Incident Response team?")
    assert not names_a_person("Your Workforce Relations HR Specialist can advise which paperwork is needed.",
                              "Who is the Workforce Relations HR Specialist for TTS employees?")
    # a personal name or a personal e-mail address does
    assert names_a_person("Reach out to our OSC liaison Marcia Simms.", question)
    assert names_a_person("Questions go to jane.doe@gsa.gov.", question)
    assert names_a_person("The point of contact is Dave Lamb.", question)


def test_an_asked_noun_that_implies_a_value_needs_that_value():
    assert implied_value("What budget is set aside for the TTS Senior Cybersecurity Advisor role?") == "amount"
    assert implied_value("What GS grade is the TTS Senior Cybersecurity Advisor position?") == "grade"
    assert implied_value("What system did staff use for leave requests?") is None
    assert not states_implied("amount", "The Senior Cybersecurity Advisor will lead the security program.")
    assert states_implied("amount", "The program has a budget of $250,000 a year.")
    assert states_implied("grade", "The position is a GS-15 in the Front Office.")
    assert not states_implied("grade", "The advisor reports to the TTS Director.")


def test_unheld_names_what_the_refusal_says_is_not_stated():
    assert unheld("Who leads the GSA Incident Response team?", "person",
                  ["Contact the GSA Incident Response (IR) Team at gsa-ir@gsa.gov."]) == "who holds that role"
    assert unheld("Who leads the GSA Incident Response team?", "person",
                  ["The team is led by Pat Morgan."]) is None
    assert unheld("What budget is set aside for the advisor role?", "other",
                  ["The advisor will work with TTS leadership."]) == "the amount"
    assert unheld("What floor is the office on?", "other", ["We sit on the 9th floor."]) is None


def test_a_yes_no_question_whose_sentences_name_at_most_one_of_its_things_is_thin():
    """The demo handbook's "Does Tallgrass match 401(k) contributions?" quoted the parental-leave top-up: the
    sentence names only the company."""
    top_up = _source("Where a state program pays benefits, Tallgrass tops up your pay so you receive 100% of your "
                     "base salary.")
    question = "Does Tallgrass match 401(k) contributions?"
    subject = subject_terms(question)
    assert "401(k)" in thin_cover(question, subject, [(top_up.text, top_up)], [top_up])
    # a sentence naming two of the things asked about is left alone (other words may settle it)
    donated = _source("Coworkers can donate annual leave to you through the VLTP after a medical emergency.",
                      title="Leave", section="Donated leave")
    asked = "If I have a medical emergency and run out of leave, can coworkers give me some of theirs?"
    assert thin_cover(asked, subject_terms(asked), [(donated.text, donated)], [donated]) == []
    # what is missed must include a thing no planned source talks about: a source naming them elsewhere may settle it
    elsewhere = _source("Tallgrass matches 401(k) contributions up to 4% of salary.", title="Benefits")
    assert thin_cover(question, subject, [(top_up.text, top_up)], [top_up, elsewhere]) == []
    # the asker's action and filler words do not count as missed things
    qualtrics = _source("Qualtrics is available to TTS staff through a GSA license.", title="Qualtrics")
    asked = "Can any TTS employee use Qualtrics without paying for it?"
    assert thin_cover(asked, subject_terms(asked), [(qualtrics.text, qualtrics)], [qualtrics]) == []


def _plan(question: str, text: str, title: str):
    page = Candidate(Chunk(chunk_id=1, document_id=1, title=title, section="", version="v1", date="", text=text,
                           tokens=40, version_id=1), score=0.03, dense=0.6)
    return plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))


def test_the_offline_answer_refuses_a_role_question_the_page_names_nobody_for(embedder):
    text = ("The Director represents the chapter on the Senior Management Team of 18F. The Director is responsible "
            "for the strategic planning of the chapter, including hiring.")
    question = "Who is the current director of product at 18F?"
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, text, "Product"))
    assert answer.startswith("INSUFFICIENT_EVIDENCE") and "who holds that role" in answer, answer
    named = text + " The current Director of Product is Robin Carter."
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, named, "Product"))
    assert "Robin Carter" in answer and not answer.startswith("INSUFFICIENT_EVIDENCE"), answer


def test_a_question_asking_whether_something_is_mandatory_needs_a_sentence_stating_a_requirement():
    """fresh7's "Is filling out the TTS Exit Interview Questionnaire mandatory?" was answered with a step of the
    supervisor's checklist ("Provide TTS Exit Interview Questionnaire to offboarding employee")."""
    question = "Is filling out the TTS Exit Interview Questionnaire mandatory?"
    assert unsettled_requirement(question, ["Provide TTS Exit Interview Questionnaire to offboarding employee."])
    assert not unsettled_requirement(question, ["The exit interview questionnaire is optional."])
    assert not unsettled_requirement(question, ["Every departing employee must fill out the questionnaire."])
    # a question asking no requirement is not checked
    assert not unsettled_requirement("Is the questionnaire anonymous?", ["Provide the questionnaire."])


def test_a_what_is_question_needs_a_quoted_sentence_naming_a_word_of_the_asked_thing():
    """fresh19r's "What is the largest honorarium ...?" was answered with free attendance at a conference."""
    question = "What is the largest honorarium a GSA employee may accept for speaking at a conference?"
    attendance = ("The employee's acceptance of an offer of free attendance at the event on the day of the "
                  "presentation is permissible.")
    assert unnamed_thing(question, [(attendance, _source(attendance, "Speaking at events", "Conference fees"))]) \
        == "largest honorarium"
    named = "Employees may not accept an honorarium for speaking on their official duties."
    assert unnamed_thing(question, [(named, _source(named, "Speaking at events", "Gifts"))]) is None
    # the source's section naming it counts too
    assert unnamed_thing(question, [(attendance, _source(attendance, "Speaking at events", "Honorarium rules"))]) \
        is None
    # nor does a sentence stating a value, which often gives the thing without naming it (an address for a ZIP code)
    address = "Address: 230 S. Dearborn St. 60604"
    assert unnamed_thing("What's the ZIP code of the Chicago office?", [(address, _source(address, "Offices"))]) is None
    # only "What is the X ...?" questions are read
    assert unnamed_thing("How much can I accept for speaking?", [(attendance, _source(attendance))]) is None


def test_the_offline_answer_refuses_a_what_is_question_no_quoted_sentence_names_the_thing_of(embedder):
    question = "What is the largest honorarium a GSA employee may accept for speaking at a conference?"
    text = ("A GSA employee speaking at a conference on behalf of the agency may accept free attendance at the "
            "conference on the day of the presentation. Conference speaking requests need approval.")
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, text, "Speaking at conferences"))
    assert answer.startswith("INSUFFICIENT_EVIDENCE") and "largest honorarium" in answer, answer
    stated = text + " The largest honorarium a GSA employee may accept for speaking at a conference is $200."
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, stated, "Speaking at conferences"))
    assert "$200" in answer and not answer.startswith("INSUFFICIENT_EVIDENCE"), answer


def test_the_offline_answer_refuses_a_rate_question_answered_by_a_cap_at_any_time(embedder):
    question = "How many credit hours can I earn in a single pay period?"
    text = ("Only people on flexible work schedules can earn and use credit hours. You can have up to 24 credit "
            "hours accrued, at any given time.")
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, text, "Credit hours"))
    assert answer.startswith("INSUFFICIENT_EVIDENCE") and "per pay period" in answer, answer
    stated = text + " You can earn up to 8 credit hours in a single pay period."
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, stated, "Credit hours"))
    assert "8 credit hours" in answer and not answer.startswith("INSUFFICIENT_EVIDENCE"), answer
