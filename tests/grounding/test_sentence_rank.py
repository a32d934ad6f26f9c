"""Which sentences of a source the offline answerer may quote (grounding.quotable.quotable)."""

from __future__ import annotations

from grounding.quotable import quotable


def test_a_sentence_about_the_document_itself_is_not_quotable():
    # "How do I cancel the transit benefit?" was answered "This page outlines how to sign up for and how to cancel
    # the transit benefit." (the development set): where the answer is, not what it is
    assert not quotable("This page outlines how to sign up for and how to cancel the transit benefit.", "sentence")
    assert not quotable("This guide explains how and why we use chat at work.", "sentence")
    assert quotable("This benefit is cancelled by clicking Withdraw from the program.", "sentence")
    assert quotable("This page's owner is the travel team, reachable at travel@example.org.", "sentence")


def test_a_lower_case_list_item_is_quoted_after_its_lead_in(embedder):
    # "Will I have to enter my PIN when I run sudo on my GSA Mac?" (the development set): the item "when running the
    # sudo command in the terminal" opens in lower case and was dropped as a fragment cut by a chunk boundary
    from grounding.context import plan_context
    from grounding.extractive import ExtractiveAnswerer
    from grounding.sentence_rank import rank_sentences, with_sentences
    from grounding.tokens import counter_for
    from grounding.types import Candidate, Chunk

    text = ("Your laptop asks for your card and PIN instead of a password. Card + PIN authentication will be "
            "required:\n- at login\n- when unlocking your screensaver\n- when running the sudo command in the "
            "terminal\n\nThe reader plugs into any USB-C port.")
    page = Candidate(Chunk(chunk_id=1, document_id=1, title="Smart cards", section="Using the card", version="v1",
                           date="", text=text, tokens=len(text.split()), version_id=1), score=0.03, dense=0.6)
    question = "Will I have to enter my PIN when I run sudo on my laptop?"
    plan = plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))
    ranked = rank_sentences(question, with_sentences(plan, embedder), embedder)
    assert ranked[0].text == "Card + PIN authentication will be required: when running the sudo command in the terminal"
    assert "Card + PIN authentication will be required: at login" in [s.text for s in ranked]
    answer = ExtractiveAnswerer(embedder).compose(question, plan)
    assert "required: when running the sudo command in the terminal [S1]." in answer


def test_a_question_asking_what_a_term_means_is_answered_by_its_definition(embedder):
    """s15, the 18F glossary: "What does ADR mean?" quoted "There is an article about ADRs on the 18F blog" before
    "ADR - Architecture Decision Record"; the demo handbook's "What counts as confidential data?" quoted only an
    incident naming confidential data. A sentence opening by defining the asked term gains in ranking."""
    from grounding.sentence_cues import defined_term, defines
    from tests.grounding.helpers import make_page, offline_answer

    assert defined_term("What counts as confidential data?") == "confidential data"
    assert defined_term("What does ADR mean?") == "ADR" and defined_term("What is the meal allowance?") == ""
    assert defines("confidential data", "Confidential – customer contracts, unreleased robot designs.")
    assert not defines("confidential data", "Sending Confidential data to the wrong person")
    glossary = make_page(1, "Glossary", "", "- **ADR** - Architecture Decision Record. A written record of choices "
                                            "made by people involved in the creation of software. There is an "
                                            "article about ADRs on the 18F blog.\n- **AcqDiv** - The TTS Acquisition "
                                            "Division.")
    answer = offline_answer(embedder, "What does ADR mean?", glossary)
    assert answer.replace("**", "").startswith("ADR - Architecture Decision Record [S1]."), answer


def test_a_piece_stopping_on_a_comma_is_not_quoted_alone():
    """s15, the 18F handbook: "Who approves my timecard?" opened with "Submitting and approving timecards and leave
    approvals: OLU refresh courses," (a table cell's piece); a list item ending on a semicolon is still quotable."""
    from grounding.quotable import quotable

    assert not quotable("Submitting and approving timecards and leave approvals: OLU refresh courses,", "sentence")
    assert quotable("Use a hardware security key as your primary MFA method;", "item")
    assert quotable("Prefix: g-; Meaning: guild", "row")


def test_a_sentence_two_pages_state_is_quoted_from_the_page_the_question_names(embedder):
    """s17, the calibration conversation q202 (and q016): "What's the most advanced sick leave I can request?" quoted
    "You can request up to 240 hours of advanced sick leave." from the "Leave types" overview, whose context made it
    closer, not from the "Advanced sick leave" page stating it in the same words, which the question names."""
    from grounding.context import plan_context
    from grounding.lexical import content_terms
    from grounding.sentence_cues import named_page_labels, on_named_pages
    from grounding.sentence_rank import rank_sentences, with_sentences
    from grounding.tokens import counter_for
    from tests.grounding.helpers import make_page

    assert on_named_pages([("A.", "S1", 0.9), ("A.", "S2", 0.8), ("B.", "S2", 0.85)], frozenset({"S2"})) == \
        [0.9, 0.9 + 1e-6, 0.85]  # only a copy of a sentence another page states is raised, to the best copy's score
    assert on_named_pages([("A.", "S1", 0.9), ("A.", "S2", 0.8)], frozenset()) == [0.9, 0.8]
    question = "What's the most advanced sick leave I can request?"
    overview = make_page(1, "Leave types", "Taking advanced leave",
                         "You may take advanced sick leave when you have run out of sick leave. You can request up "
                         "to 240 hours of advanced sick leave.")
    page = make_page(2, "Advanced sick leave", "", "Paperwork is needed. You can request up to 240 hours of "
                                                   "advanced sick leave.")
    plan = with_sentences(plan_context(question=question, candidates=[overview, page], system_prompt="Answer.",
                                       counter=counter_for("extractive")), embedder)
    named = named_page_labels(plan.sources, content_terms(question))
    assert [plan.source_map[label].title for label in named] == ["Advanced sick leave"]
    ranked = rank_sentences(question, plan, embedder)
    assert ranked[0].text == "You can request up to 240 hours of advanced sick leave."
    assert plan.source_map[ranked[0].label].title == "Advanced sick leave"


def test_a_list_item_asking_a_question_is_not_quotable():
    """The s23 conversation set (f23c-21): the FAS speaker guide's checklist item "Is there a fee to attend? Is the
    fee waived for government attendees/speakers?" was quoted as the answer to "Can we offer them a speaking fee?"."""
    assert not quotable("Is there a fee to attend?", "item")
    assert not quotable("Is the fee waived for government attendees/speakers?", "item")
    assert not quotable('Who approves the "travel request?"', "item")
    assert quotable("Ask your supervisor whether the fee is waived for government attendees.", "item")
