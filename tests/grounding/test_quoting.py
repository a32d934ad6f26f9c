"""One quoted sentence of an extractive answer (grounding.quoting): a list item read with the value it is listed
under or with. Pages here are written for the tests."""

from __future__ import annotations

from grounding.context import plan_context
from grounding.quoting import under_heading, with_value
from grounding.sentence_rank import ScoredSentence, with_sentences
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk


def _plan(embedder, text: str):
    chunk = Chunk(chunk_id=1, document_id=1, title="Page", section="Section", version="v1", date="", text=text,
                  tokens=len(text.split()), version_id=1)
    plan = plan_context(question="q", candidates=[Candidate(chunk, score=0.03, dense=0.6)], system_prompt="A.",
                        counter=counter_for("extractive"))
    return with_sentences(plan, embedder)


def _item(plan, text: str) -> ScoredSentence:
    data = plan.sources[0].sentences
    i = data.texts.index(text)
    return ScoredSentence(text, plan.sources[0].label, 0.8, kind=data.kinds[i], position=i)


def test_an_item_is_read_after_the_lead_in_that_states_its_value(embedder):
    plan = _plan(embedder, "Book ahead:\n- Two weeks in advance for:\n- Workshops under $900\n- Webinars\n"
                           "- Six weeks in advance for:\n- Summits over $900")
    assert with_value(_item(plan, "Summits over $900"), plan, "duration").text == (
        "Six weeks in advance for: Summits over $900")
    assert with_value(_item(plan, "Webinars"), plan, "duration").text == "Two weeks in advance for: Webinars"


def test_an_item_is_not_read_with_a_lead_in_past_an_item_stating_a_value_of_its_own(embedder):
    plan = _plan(embedder, "- Two weeks in advance for:\n- Workshops under $900\n- Ten days to two weeks\n"
                           "- Webinars with a fee\n- Six weeks in advance for:")
    assert with_value(_item(plan, "Webinars with a fee"), plan, "duration").text == "Webinars with a fee"


def test_a_person_is_never_read_from_a_lead_in(embedder):
    # "HR Links" reads as a team name; the lead-in says where, not who approves
    plan = _plan(embedder, "- Before entering the hours in HR Links, please ensure that you:\n"
                           "- Have completed the approval paperwork for advanced leave")
    item = _item(plan, "Have completed the approval paperwork for advanced leave")
    assert with_value(item, plan, "person").text == item.text


def test_a_bare_noun_phrase_item_is_read_after_its_heading(embedder):
    # the demo handbook's "Non-reimbursable expenses" list: quoted alone, "Upgrades to business or first class"
    # read as if upgrades were allowed
    plan = _plan(embedder, "## Flights\n\n- Book economy class for all flights.\n\n## Non-reimbursable expenses\n\n"
                           "- Upgrades to business or first class\n- Traffic or parking fines")
    assert under_heading(_item(plan, "Upgrades to business or first class"), plan).text == (
        "Non-reimbursable expenses: Upgrades to business or first class")
    assert under_heading(_item(plan, "Traffic or parking fines"), plan).text == (
        "Non-reimbursable expenses: Traffic or parking fines")
    # an item written as a sentence (its full stop) stands as it is
    assert under_heading(_item(plan, "Book economy class for all flights."), plan).text == (
        "Book economy class for all flights.")


def test_an_item_is_not_read_after_a_heading_it_repeats_a_question_heading_or_a_lead_in(embedder):
    plan = _plan(embedder, "## Parking fines\n\n- Parking fines you get on a trip\n\n## Can I get a refund?\n\n"
                           "- Refunds for unused tickets\n\nThese are paid back:\n- Taxi fares within the city")
    for item in ("Parking fines you get on a trip", "Refunds for unused tickets", "Taxi fares within the city"):
        assert under_heading(_item(plan, item), plan).text == item


def test_a_sentence_refers_back_by_a_pronoun_or_the_noun_of_the_one_before():
    from grounding.quoting import refers_back

    first = "The daily meal allowance is $65 per day of travel."
    assert refers_back("The allowance covers breakfast, lunch, dinner and snacks.", first)
    assert refers_back("It covers breakfast, lunch and dinner.", first)
    assert not refers_back("The hotel limit is $225.", first)
    # the 18F calibration half's probationary period (q181): the check-in's next item names the period, not the
    # check-in
    assert not refers_back("You’ll be asked if the new employee should continue past their probationary period.",
                           "TTS will remind you to do a check-in with the new employee six months after their start.")


def test_an_amount_asked_of_what_the_next_sentence_says_it_covers_is_answered_not_refused(embedder):
    # the s22 new-user run: "the amount for dinner" was said not to be stated
    from tests.grounding.helpers import make_page, offline_answer

    meals = ("The daily meal allowance is $65 per day of travel. The allowance covers breakfast, lunch and dinner when "
             "travelling.\n\nAlcohol is not reimbursed.")
    answer = offline_answer(embedder, "How much can I spend on dinner when travelling?",
                            make_page(1, "Travel and Expenses Policy", "Meals", meals))
    assert answer == ("The daily meal allowance is $65 per day of travel [S1]. The allowance covers breakfast, lunch "
                      "and dinner when travelling [S1]."), answer


def test_a_sentence_going_on_into_a_list_is_answered_with_the_list(embedder):
    # the s22 new-user run on the demo handbook: "What laptop will I get?" quoted the first sentence and a sentence on
    # returning an old laptop, not the models listed after it
    from tests.grounding.helpers import make_page, offline_answer

    laptops = ("Every employee receives one company laptop on their first day. The standard models are:\n"
               "- Engineering roles: 16-inch MacBook Pro with 36 GB of memory.\n"
               "- All other roles: 14-inch MacBook Air with 16 GB of memory.\n\n"
               "You must return your old laptop within 14 days of receiving a new one.")
    answer = offline_answer(embedder, "What laptop will I get?", make_page(1, "Equipment", "Laptops", laptops))
    assert answer.startswith("Every employee receives one company laptop on their first day [S1]. The standard models "
                             "are: Engineering roles: 16-inch MacBook Pro with 36 GB of memory; All other roles: "
                             "14-inch MacBook Air with 16 GB of memory [S1]."), answer


def test_a_sentence_pointing_back_is_quoted_after_the_one_it_points_to():
    """"Report it in #sec-incidents within 1 hour ..." ranked first for "What should I do if I lose my laptop?" (the
    demo handbook): quoted first, its "it" stood for nothing said."""
    from grounding.quoting import in_reading_order

    lost = ScoredSentence("A lost or stolen laptop is a security incident.", "S1", 0.9, position=4)
    report = ScoredSentence("Report it in #sec-incidents within 1 hour.", "S1", 1.0, position=5)
    kit = ScoredSentence("GSA IT can provide you with a remote kit.", "S2", 0.95, position=3)
    models = ScoredSentence("The standard models are listed below.", "S2", 0.8, position=2)
    assert in_reading_order([report, kit, lost]) == [lost, report, kit]
    # "GSA IT ..." names no pronoun; a sentence of another source or not right after keeps its place
    assert in_reading_order([kit, models]) == [kit, models]
    assert in_reading_order([report, ScoredSentence(lost.text, "S2", 0.9, position=4)])[0] is report


def test_a_list_opening_its_chunk_is_read_after_the_chunks_own_heading(embedder):
    # the s27 new-user run: the chunk's heading is in its section path, not its text, so "A lost or stolen laptop,
    # phone or YubiKey" was quoted bare; an item stating something with its own verb needs no heading
    text = "- A lost or stolen laptop, phone or YubiKey\n- You can share event invites with partners"
    chunk = Chunk(chunk_id=1, document_id=1, title="Security", section="Reporting > What counts as an incident",
                  version="v1", date="", text=text, tokens=20, version_id=1)
    plan = with_sentences(plan_context(question="q", candidates=[Candidate(chunk, score=0.03, dense=0.6)],
                                       system_prompt="A.", counter=counter_for("extractive")), embedder)
    assert under_heading(_item(plan, "A lost or stolen laptop, phone or YubiKey"), plan).text == (
        "What counts as an incident: A lost or stolen laptop, phone or YubiKey")
    assert under_heading(_item(plan, "You can share event invites with partners"), plan).text == (
        "You can share event invites with partners")
