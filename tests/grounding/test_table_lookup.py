"""Table lookups by row and column (grounding.table_lookup; s17 round, issue 18 point 4): the retrieved chunk holding
the row a question looks up is moved up so the plan reads it, and the row outranks prose when the question names
its column too. Written from the calibration half of the 18F golden set (a Tock code by work type and team), never
from its test half."""

from __future__ import annotations

from grounding.table_lookup import looked_up_row, names_row_column, promote_looked_up_rows

CODES = ("Common codes\n"
         "Work type | CoE feds | 18F\n"
         "TTSC change management work | 1947 | 1976\n"
         "Business development | 1434 | 1811\n"
         "Staffing | NA | 1812")


def test_a_question_naming_a_rows_key_and_a_column_looks_that_row_up():
    question = "Which Tock code should 18F staff use for business development time?"
    assert looked_up_row(question, CODES) == "Business development | 1434 | 1811"


def test_a_question_naming_a_row_but_no_column_looks_nothing_up():
    assert looked_up_row("How does business development work?", CODES) == ""
    assert looked_up_row("What does 18F do for staffing?", "Intro\nStaffing is weekly.\n18F | CoE") == ""


def test_a_piped_markdown_table_is_read_with_its_emphasis_and_separator_line_skipped():
    table = "| Area | CoE | 18F |\n|---|---|---|\n| **Partners** | OCIO | A program office |"
    assert looked_up_row("Which partners does 18F work with?", table) == "| **Partners** | OCIO | A program office |"


def test_a_number_as_row_key_names_no_row():
    table = "Reports | Target | Hours\n4 | 60% | 18-24 hours"
    assert looked_up_row("With 4 reports, what is the target?", table) == ""


def test_the_candidate_holding_the_looked_up_row_moves_behind_the_first():
    question = "Which Tock code do CoE feds use for staffing?"
    texts = ["Tock is our time tracker.", "Bill weekly.", "Codes change.", CODES, "Other page."]
    assert promote_looked_up_rows(question, texts, lambda t: t) == [texts[0], CODES, *texts[1:3], texts[4]]


def test_a_candidate_already_near_the_top_or_no_looked_up_row_keeps_the_order():
    texts = [CODES, "Tock is our time tracker.", "Bill weekly."]
    assert promote_looked_up_rows("Which code do CoE feds use for staffing?", texts, lambda t: t) == texts
    plain = ["a", "b", "c", CODES]
    assert promote_looked_up_rows("How does staffing work?", plain, lambda t: t) == plain


def test_a_row_read_as_pairs_names_its_column_when_the_question_names_one_other_than_the_key():
    row = "Work type: Business development; CoE feds: 1434; 18F: 1811"
    assert names_row_column("Which code should 18F staff use for business development?", row)
    assert not names_row_column("Which code is used for business development?", row)
    assert not names_row_column("What is a work type?", row)


def test_the_row_whose_key_and_column_the_question_names_outranks_prose_on_the_topic(embedder):
    # calibration q121: "Which Tock code should 18F staff use for business development time?" quoted the prose of a
    # catch-all code ("18F Non-Billable Work - #968: Time spent working on activities for 18F ...") over the row
    from grounding.context import plan_context
    from grounding.sentence_rank import rank_sentences, with_sentences
    from grounding.tokens import counter_for
    from grounding.types import Candidate, Chunk

    text = ("- 18F Non-Billable Work - #968: Time spent working on activities for 18F that do not fit in other Tock "
            "code categories.\n\n" + CODES)
    page = Candidate(Chunk(chunk_id=1, document_id=1, title="Tock", section="Quick reference", version="v1",
                           date="", text=text, tokens=len(text.split()), version_id=1), score=0.03, dense=0.6)
    question = "Which Tock code should 18F staff use for business development time?"
    plan = plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))
    ranked = rank_sentences(question, with_sentences(plan, embedder), embedder)
    assert ranked[0].text == "Work type: Business development; CoE feds: 1434; 18F: 1811"


def test_a_long_table_row_read_as_pairs_is_quoted_whole_with_its_last_column():
    # fresh12 (looked at after its final measurement, so development data): "When does the 18F GMT meet?" quoted
    # "Meeting: 18F GMT ...; Attendees: ...; Timing … [S1]": cut at its last "; " as a piece of a sentence, the row
    # lost the column asked
    from grounding.compose import cited, is_row_pairs

    row = ("Meeting: 18F GMT To share updates and work through management issues; Attendees: Supervisors, directors, "
           "and representatives from Account Management and Acquisitions; Timing: 30 minutes on Thursdays")
    assert is_row_pairs(row)
    assert cited(row, "S1") == row + " [S1]."


def test_a_long_piece_of_prose_with_a_colon_is_still_cut_and_marked():
    from grounding.compose import cited, is_row_pairs

    prose = ("Note: the committee meets every week to review the requests it has received, and it decides on each "
             "of them; the supervisor is told of the decision within a day and then the agreements team, which "
             "drafts the documents for the agency")
    assert not is_row_pairs(prose)
    assert cited(prose, "S1").endswith(" … [S1].")


def test_a_text_without_any_table_looks_up_no_row():
    from grounding.table_lookup import looked_up_row
    assert looked_up_row("Which Tock code should 18F staff use for business development?",
                         "Business development time is logged under its own code for 18F staff.") == ""
