"""A range of values is one value to the contradiction rules (grounding.clash): its low bound is not compared alone, a
single value within the other sentence's range does not differ from it, and a note quotes the whole range."""

from __future__ import annotations

from grounding.clash import clash
from grounding.contradictions import detect_conflicts
from grounding.notes import relevant_notes

from .test_contradictions import src

#: the fresh20c set's f20c-08 (a development set): two pages' durations of different things, read as "2" and "4"
SPEAKING = "Most approvals will take 2–3 weeks to complete."
DETAIL = "Please note: it can take 4-6 weeks to process a detail, if an interagency agreement (IAA) is needed."


def test_the_low_bound_of_a_range_is_not_compared_as_a_bare_number():
    # before: "S2 says most approvals will take 2–3 weeks to complete but S6 says 4." (a firm value clash)
    finding = clash(SPEAKING, DETAIL)
    assert (finding.values, finding.rule) == (("2–3 weeks", "4-6 weeks"), "loose value")


def test_a_value_within_the_others_range_does_not_differ_and_a_note_quotes_the_range():
    assert clash("Approvals take 2 weeks to complete.", SPEAKING) is None
    assert clash("The fee is $10 to $20 per person.", "The fee is $15 per person.") is None
    assert clash("Approvals take 5 weeks to complete.", SPEAKING).values == ("5 weeks", "2–3 weeks")
    assert clash("The fee is $10 to $20 per person.", "The fee is $25 per person.").values == ("$10 to $20", "$25")
    assert clash("The fee is $65 per day.", "The fee is $50 per day.").values == ("$65", "$50")
    # two ranges with other bounds differ, whole (ConflictQA's first Boeing 737 record, read in tests/evaluation)
    assert clash("The cost of a Boeing 737 ranges from $50 million to $100 million.",
                 "The cost of a Boeing 737 ranges from $51.5 million to $87 million.").values == \
        ("$50 million to $100 million", "$51.5 million to $87 million")


def test_two_pages_durations_of_different_things_make_no_note(embedder):
    question = "How long can approval for a DETO arrangement take?"
    sources = [src("S1", SPEAKING, doc=1), src("S2", DETAIL, doc=2)]
    conflicts = detect_conflicts(sources, embedder, focus=question)
    # the whole ranges, compared on one shared word only: a loose finding, which makes no note
    assert [(c.rule, c.text) for c in conflicts] == [
        ("loose value", "S1 says most approvals will take 2–3 weeks to complete but S2 says 4-6 weeks.")]
    assert relevant_notes(conflicts, question) == []


def test_a_heading_line_states_no_names_another_sentence_swaps():
    # the s28 re-chunked 18F domain (fresh23c's f23c-07, and fresh20m's f20-m04 "S2 says F UX"): a chunk's heading
    # line was set against a list item as a swapped name
    assert clash("- Details to/from another agency", "Timeline for Detailing to Another Agency") is None
    # a sentence still swaps its names (RGB's rewrites)
    assert clash("Facebook acquired Instagram in 2012.", "Apple acquired Instagram in 2012.").values == \
        ("Facebook", "Apple")
