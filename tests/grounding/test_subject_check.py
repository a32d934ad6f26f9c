"""A question whose subject no planned source names is not answered from sources about something else (s6 new user:
"When is the gym open?" got the cafeteria's opening hours)."""

from __future__ import annotations

from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.subject_check import unnamed_existent, unnamed_object, unnamed_subject, unsaid_subject
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk

CAFETERIA = ("The office cafeteria is open from 7:30 a.m. to 2:00 p.m. on weekdays. Lunch costs $6 for employees and "
             "$9 for guests. Coffee is free for everyone.")


def _plan(question: str, text: str, title: str = "Cafeteria Rules"):
    page = Candidate(Chunk(chunk_id=1, document_id=1, title=title, section="", version="v1", date="", text=text,
                           tokens=40, version_id=1), score=0.03, dense=0.6)
    return plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))


def test_a_subject_no_source_names_is_what_the_question_lacks():
    plan = _plan("When is the gym open?", CAFETERIA)
    assert unnamed_subject("When is the gym open?", plan.sources) == ["gym"]  # "open" is the predicate
    assert unnamed_subject("When is the cafeteria open?", plan.sources) == []
    # one subject word named anywhere is enough: the question may use other words than the documents
    assert unnamed_subject("How much does the staff lunch cost?", plan.sources) == []
    assert unnamed_subject("How long is it open?", plan.sources) == []  # nothing but generic words and a predicate


def test_the_offline_answer_says_what_the_documents_describe_instead_of_another_subjects_hours(embedder):
    answer = ExtractiveAnswerer(embedder).compose("When is the gym open?", _plan("When is the gym open?", CAFETERIA))
    assert "7:30" not in answer and "do not say anything about gym" in answer and "Cafeteria Rules [S1]" in answer
    answer = ExtractiveAnswerer(embedder).compose("When is the cafeteria open?",
                                                  _plan("When is the cafeteria open?", CAFETERIA))
    assert answer.startswith("The office cafeteria is open from 7:30 a.m. to 2:00 p.m. on weekdays [S1]")


OFFICE = ("All employees must be available during core hours of 10:00 a.m. to 3:00 p.m. Central Time.\n"
          "Visitors to the Austin office sign in at the front desk.")


def test_an_answer_whose_quoted_sentences_name_nothing_asked_about_is_a_topic_only_refusal(embedder):
    """The s12 breaker on the demo handbook: "What time does the office cafeteria open?" was answered with the core
    hours and a first-day schedule: pages naming the office, quoted where they do not."""
    plan = _plan("What time does the office cafeteria open?", OFFICE, title="Working hours")
    core = [(OFFICE.splitlines()[0].removesuffix("."), plan.sources[0])]
    assert unsaid_subject("What time does the office cafeteria open?", core) == ["office", "cafeteria"]
    # one subject word in the quoted sentence, or in its page's title or section path, is enough
    assert unsaid_subject("What time does the office open?",
                          [("The Austin office is open from 8:00 a.m. on weekdays.", plan.sources[0])]) == []
    assert unsaid_subject("When are the core hours?", core) == []
    assert unsaid_subject("What time must I be available for working?", core) == []  # "Working hours" (title)
    # a story before the question is not what is asked about
    assert unsaid_subject("My cat is sick. When must I be available?", core) == []
    # the page names the office, so the subject is not unnamed by every source: what is quoted decides
    assert unnamed_subject("What time does the office cafeteria open?", plan.sources) == []
    answer = ExtractiveAnswerer(embedder).compose("What time does the office cafeteria open?", plan)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Working hours [S1], but they do not say "
                             "anything about office cafeteria."), answer


def test_an_existential_question_about_something_no_source_names_is_refused():
    """The s13 new-user run: "Is there a cafeteria at the office?" opened "Yes. Book the room on the office
    calendar" (the lactation room): "office" is named, the thing asked to exist is not."""
    plan = _plan("Is there a cafeteria at the office?", OFFICE, title="Working hours")
    assert unnamed_subject("Is there a cafeteria at the office?", plan.sources) == []  # "office" is named
    assert unnamed_existent("Is there a cafeteria at the office?", plan.sources) == ["cafeteria"]
    assert unnamed_existent("Are there any free lockers in the office?", plan.sources) == ["free", "lockers"]
    assert unnamed_existent("Is there a front desk at the office?", plan.sources) == []  # named
    assert unnamed_existent("Is there a way to work from home?", plan.sources) == []  # names no particular thing
    # a remedy for the trouble told names no thing either (the fresh23c conversation f23c-08 was refused)
    assert unnamed_existent("The office keeps closing early on Fridays. Is there a fix?", plan.sources) == []
    assert unnamed_existent("Is there a workaround?", plan.sources) == []
    assert unnamed_existent("When does the office open?", plan.sources) == []  # not existential


def test_a_refusal_names_the_subject_not_the_askers_action():
    """The s15 new-user run: "How much can I spend on a team dinner?" was refused "... do not say anything about spend
    team dinner"; the asker's verb stays a subject word for the check, but the refusal names the thing asked about."""
    from grounding.types import Source

    meals = Source(label="S1", chunk_ids=(1,), document_id=1, title="Travel and Expenses Policy", section="Meals",
                   version="v1", date="", text="The daily meal allowance is $65 per day of travel.", score=0.5,
                   tokens=12)
    assert unsaid_subject("How much can I spend on a team dinner?", [(meals.text, meals)]) == ["team", "dinner"]
    assert unsaid_subject("What can I buy?", [(meals.text, meals)]) == ["buy"]  # nothing else to name


def test_a_subject_named_only_in_the_documents_keywords_is_named():
    """The demo handbook's "How many vacation days do I get?" was refused ("they do not say anything about
    vacation"): the paid time off page never writes "vacation", but its front matter lists it among its keywords,
    the author's words for what the page is about. A keyword of another page does not name it."""
    from dataclasses import replace

    from grounding.parsing import keywords_of

    text = "Employees accrue 1.5 days of paid time off per month, which adds up to 18 days per calendar year."
    plan = _plan("How many vacation days do I get?", text, title="Paid Time Off")
    assert unnamed_subject("How many vacation days do I get?", plan.sources) == ["vacation"]
    keyworded = [replace(s, keywords=keywords_of({"keywords": ["PTO", "Vacation", "sick days"]})) for s in plan.sources]
    assert unnamed_subject("How many vacation days do I get?", keyworded) == []
    assert unsaid_subject("How many vacation days do I get?", [(text, keyworded[0])]) == []
    assert unnamed_subject("When is the gym open?", keyworded) == ["gym"]
    # keywords name a subject only as a whole: "office days" does not name the office cafeteria
    hybrid = [replace(s, keywords=("remote work", "office days")) for s in plan.sources]
    assert unsaid_subject("What time does the office cafeteria open?", [(text, hybrid[0])]) == ["office", "cafeteria"]
    assert unnamed_subject("How many office days are required?", hybrid) == []


def test_front_matter_keywords_are_read_as_a_comma_separated_string_or_a_list():
    from grounding.parsing import MAX_KEYWORDS, keywords_of

    # the 18F handbook writes them as one string; the demo handbook as a YAML list; "tags" are read too
    assert keywords_of({"keywords": "leave, request, Parental  Leave,, leave"}) == ("leave", "request", "parental leave")
    assert keywords_of({"keywords": ["PTO", "vacation"], "tags": ["hr", 2024]}) == ("pto", "vacation", "hr", "2024")
    assert keywords_of({"title": "No keywords"}) == () and keywords_of({"keywords": {"a": 1}}) == ()
    assert keywords_of({"keywords": ["x" * 61, None, "ok"]}) == ("ok",)  # too long to be a keyword, or not text
    assert len(keywords_of({"keywords": [f"k{i}" for i in range(100)]})) == MAX_KEYWORDS


def test_a_subject_with_digits_is_named_as_the_asker_wrote_it():
    # the s27 new-user run on the demo handbook: "How much is the 401k match?" was refused as "they do not say
    # anything about k match"
    plan = _plan("How much is the 401k match?", CAFETERIA)
    assert unnamed_subject("How much is the 401k match?", plan.sources) == ["401k", "match"]
    assert unnamed_subject("Is there a 401(k) plan?", plan.sources) == ["401(k)", "plan"]


def test_what_happens_and_a_negated_auxiliary_name_no_subject(embedder):
    # the s28 breaker on the 18F VLTP page: "What happens to donated hours I don't use?" (after a question on VLTP)
    # was refused "they do not say anything about happens don't"; "donated" is the question's predicate
    vltp = ("You can check how many donated hours you've received in HR Links. All unused VLTP hours will be returned "
            "to the colleagues that donated to you.")
    question = "What happens to donated hours I don't use?"
    plan = _plan(question, vltp, title="Voluntary Leave Transfer Program")
    assert unnamed_subject(question, plan.sources) == []
    assert unsaid_subject(question, [(vltp, plan.sources[0])]) == []
    answer = ExtractiveAnswerer(embedder).compose(question, plan)
    assert "All unused VLTP hours will be returned to the colleagues that donated to you [S1]." in answer
    # a question about something the page does not name is still refused by its own words
    assert unnamed_subject("What happens to my parking pass when I don't use it?", plan.sources) == \
        ["parking", "pass"]


def test_a_thing_a_permission_question_asks_to_bring_is_named_or_the_question_is_refused():
    plan = _plan("Am I allowed to bring my dog to the cafeteria?", CAFETERIA)
    assert unnamed_object("Am I allowed to bring my dog to the cafeteria?", plan.sources) == ["dog"]
    assert unnamed_object("Can I bring my coffee to the cafeteria?", plan.sources) == []  # "Coffee is free"
    assert unnamed_object("Can I pay by card?", plan.sources) == []  # not a thing brought, kept or used


def test_a_refusal_names_no_spoken_filler_words():
    """The s30 new user's demo run: "am I gonna get in trouble?" was refused "they do not say anything about am gonna
    trouble"; the refusal names "trouble" only."""
    from grounding.types import Source

    security = Source(label="S1", chunk_ids=(1,), document_id=1, title="Security", section="Reporting", version="v1",
                      date="", text="Report any suspected incident within 1 hour.", score=0.5, tokens=10)
    assert unsaid_subject("am I gonna get in trouble?", [(security.text, security)]) == ["trouble"]


def test_a_refusal_names_what_is_not_mentioned_as_the_question_phrases_it():
    """The s44 new-user trial: "Does Tallgrass offer a 401(k) match?" was refused "... they do not say anything about
    offer 401(k) match", and "What happens if my manager doesn't respond?" "... about manager respond": the words
    were joined as a list. The refusal takes the question's own stretch of words, without a verb before the thing."""
    from grounding.question_parts import as_phrased

    assert as_phrased(["offer", "401(k)", "match"], "Does Tallgrass offer a 401(k) match?") == "a 401(k) match"
    assert as_phrased(["manager", "respond"], "What happens if my manager doesn't respond?") == \
        "manager doesn't respond"
    assert as_phrased(["gym"], "When is the gym open?") == "gym"
    assert as_phrased(["directors", "film", "Lahu", "Ke", "Rang"], 'Who were the directors of the film "Lahu Ke Do '
                      'Rang"?') == 'directors of the film "Lahu Ke Do Rang"'
    assert as_phrased(["film", "Lahu"], 'Which year was the film "Lahu Ke Do Rang" made?') == "film Lahu"
    # a stretch longer than eight words, or a word the question does not hold as written, keeps the list
    assert as_phrased(["wifi", "password"], "Where is the wifi network that guests use, and who sets its password "
                                            "each month?") == "wifi password"
    assert as_phrased(["cafe"], "When does the cafeteria open?") == "cafe"
