"""How the offline answerer ranks and opens the answer to a follow-up retrieved with the previous question's words
(grounding.followup_reading.carried_terms, grounding.followup_reading.relating, grounding.sentence_rank.rank_sentences).

s17, the calibration conversation q202: "Is it different for term employees?" after "What's the most advanced sick
leave I can request?" was ranked with "advanced sick leave request" carried from the previous question; those words,
and "different", chose "Advanced annual leave and advanced sick leave have different rules." over the sentence on term
employees, and the answer opened "Yes." on it."""

from __future__ import annotations

from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.followup_reading import carried_terms, relating
from grounding.lexical import content_terms
from grounding.memory import MemoryTurn
from grounding.sentence_rank import rank_sentences, with_sentences
from grounding.tokens import counter_for
from tests.grounding.helpers import make_page

PREVIOUS = "What is the most advanced sick leave I can request?"
ASKED = "Is it different for term employees?"
QUERY = f"{ASKED} advanced sick leave request"
PAGE = make_page(1, "Leave", "Advanced leave",
                 "Advanced annual leave and advanced sick leave have different rules. You can request up to 240 "
                 "hours of advanced sick leave. If you are a term employee, you can request up to the total amount "
                 "that you will earn during the rest of your term.")


def _plan():
    counter = counter_for("extractive")
    return plan_context(question=ASKED, candidates=[PAGE], system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", PREVIOUS, counter.count(PREVIOUS))])


def test_the_words_a_follow_up_carries_from_the_previous_question_are_the_querys_tail():
    assert carried_terms(QUERY, ASKED) == content_terms("advanced sick leave request")
    assert carried_terms(ASKED, ASKED) == frozenset()  # a question retrieved on its own carries nothing
    assert carried_terms(QUERY, "") == frozenset()
    # an elliptical follow-up is ranked with the previous question as what is asked: nothing is carried beyond it
    assert carried_terms("And for contractors? leave", "What is the leave? And for contractors?") == frozenset()


def test_a_follow_up_is_ranked_by_its_own_words_before_the_words_it_carries(embedder):
    ranked = rank_sentences(QUERY, with_sentences(_plan(), embedder), embedder, asked=ASKED)
    assert ranked[0].text.startswith("If you are a term employee"), [s.text for s in ranked]


def test_a_follow_up_asking_whether_its_case_differs_gets_no_yes_or_no_opener(embedder):
    assert relating(ASKED) and relating("Is there a similar limit for sick leave?")
    assert relating("Is that the same for contractors?") and not relating("Do they expire?")
    text = ExtractiveAnswerer(embedder).compose(QUERY, _plan())
    assert not text.startswith(("Yes", "No")), text
    assert "rest of your term" in text


def test_a_follow_up_with_its_own_asking_word_does_not_take_the_previous_questions_answer_type(embedder):
    """s17, read from the fresh11 conversations after their final run: "And how does it make decisions?" after "How
    often does the TTS Digital Council meet?" took the previous question's type (a frequency) and was refused ("do
    not state how often"); "And for contractors?" has no asking word of its own and still asks what was asked."""
    from grounding.followup import follow_up
    from grounding.followup_reading import asks_its_own

    assert asks_its_own("And how does it make decisions?") and asks_its_own("Who decides?")
    assert not asks_its_own("And for contractors?") and not asks_its_own("What about longer projects?")
    previous, asked = "How often does the council meet?", "And how does it make decisions?"
    page = make_page(1, "Council", "Procedures", "The council meets weekly for an hour. Decisions are made by "
                                                 "majority rule. Each team has one vote.")
    counter = counter_for("extractive")
    plan = plan_context(question=asked, candidates=[page], system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", previous, counter.count(previous))])
    text = ExtractiveAnswerer(embedder).compose(follow_up(asked, [previous]).query, plan)
    assert text.startswith("Decisions are made by majority rule"), text


def test_a_pronoun_standing_for_people_named_before_is_detected():
    """The demo's s14 conversation "What is the home office stipend?", "and for remote employees?", "Do they get
    internet reimbursed?": with the carried words at half weight the hybrid employees' sentence came first and the
    answer opened "No."; "they" stands for the remote employees, whose carried words then count fully (the whole
    conversation is tests/chat/test_demo_answers.py::test_a_follow_up_on_remote_employees_is_answered_for_remote_
    employees, on the demo handbook's pages)."""
    from grounding.followup_reading import stands_for_carried

    assert stands_for_carried("Do they get internet reimbursed?") and stands_for_carried("Is their leave paid?")
    assert not stands_for_carried("Is it different for term employees?") and not stands_for_carried("Then what?")


def test_a_follow_up_asking_whether_its_case_is_the_same_is_answered_no_by_a_share_of_the_whole(embedder):
    """"Is it the same on the first day?" after "What is the meal allowance?" (the demo's s14 run): a sentence giving
    the case a share of the whole ("75% of the daily allowance") settles it, so the relating follow-up keeps "No."."""
    from grounding.followup import follow_up

    previous, asked = "What is the meal allowance?", "Is it the same on the first day?"
    page = make_page(1, "Travel", "Meals", "The daily meal allowance is $65 per day of travel. On the first and last "
                     "day of a trip you receive 75% of the daily allowance.")
    counter = counter_for("extractive")
    plan = plan_context(question=asked, candidates=[page], system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", previous, counter.count(previous))])
    text = ExtractiveAnswerer(embedder).compose(follow_up(asked, [previous]).query, plan)
    assert text.startswith("No. On the first and last day of a trip you receive 75%"), text


def test_a_question_sharing_only_a_generic_word_with_the_previous_one_is_decided_by_its_own_retrieval():
    """The demo (s17): "How many vacation days do I get?" after "What happens on Day 1?" shared only "day" and was
    retrieved with "happens 1", which quoted the sick days credited on "January 1". A generic shared word now leaves
    the decision to how confidently the question retrieves alone; a topic word still ties it."""
    from grounding.followup import follow_up

    confident = {"How many vacation days do I get?": 0.55}
    decided = follow_up("How many vacation days do I get?", ["What happens on Day 1?"],
                        confidence=lambda q: confident.get(q, 0.56))
    assert not decided.refers and decided.query == "How many vacation days do I get?"
    # probed: the carried words add what the question alone lacks, so it refers back
    probe = {"Can I carry unused days over?": 0.4}
    assert follow_up("Can I carry unused days over?", ["How many days of military leave do reservists get?"],
                     confidence=lambda q: probe.get(q, 0.7)).refers
    assert follow_up("Do they expire?", ["How many vacation days do I get?"]).refers
    assert follow_up("How many vacation days carry over?", ["How many vacation days do I get?"]).refers
