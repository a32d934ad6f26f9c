"""The contradiction detector over planned sources [18.8]: value mismatches, negation, versions, the bounded judge."""

from __future__ import annotations

import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from grounding.clash import Finding, clash
from grounding.polarity import negated_only_in_case, negated_only_until
from grounding.conflict import Conflict
from grounding.contradictions import detect_conflicts
from grounding.value_compare import same_value
from grounding.values import typed_values
from grounding.dedup import dedup_exact, dedup_near
from grounding.types import Note, Source
from tests.grounding.helpers import cand


def src(label: str, text: str, *, doc: int, version: int | None = None, date: str = "",
        status: str = "current") -> Source:
    n = int(label[1:])
    return Source(label=label, chunk_ids=(n,), document_id=doc, title=f"Doc {doc}", section="", version="",
                  date=date, text=text, score=0.5, tokens=20, status=status,
                  version_id=version if version is not None else doc * 100)


class CountingEmbedder:
    """The real embedder, counting calls and texts."""

    def __init__(self, inner) -> None:
        self.inner, self.calls, self.texts = inner, 0, 0
        self.name, self.dim = inner.name, inner.dim

    def embed(self, texts):
        self.calls += 1
        self.texts += len(texts)
        return self.inner.embed(texts)


def test_a_reported_clause_opening_with_a_capital_is_quoted(embedder):
    # the s12 new-user run: "S1 says Submit expense reports in Ledgerly within 30 days ... but S2 ... says 60 days"
    new = src("S1", "Submit expense reports in Ledgerly within 30 days.", doc=7, version=2, date="2025-03-01")
    old = src("S2", "Submit expense reports in Ledgerly within 60 days.", doc=7, version=1,
              date="2024-01-15", status="superseded")
    (c,) = detect_conflicts([new, old], embedder)
    assert c.text == ('S1 (2025-03-01) says "Submit expense reports in Ledgerly within 30 days" but S2 (2024-01-15, '
                      'superseded) says 60 days.')


def test_value_mismatch_between_two_versions_with_one_superseded_is_version_superseded(embedder):
    new = src("S1", "Meals while travelling. The daily meal allowance is $65.", doc=7, version=2,
              date="2025-03-01")
    old = src("S3", "Meals while travelling. The daily meal allowance is $50.", doc=7, version=1,
              date="2024-01-15", status="superseded")
    other = src("S2", "Lodging is booked through the travel desk.", doc=9)
    conflicts = detect_conflicts([old, other, new], embedder)
    assert len(conflicts) == 1
    c = conflicts[0]
    assert c.kind == "version_superseded"
    assert c.labels == ("S1", "S3")  # the current version first
    assert c.values == ("$65", "$50")
    assert c.sentences == ("The daily meal allowance is $65.", "The daily meal allowance is $50.")
    assert c.text == "S1 (2025-03-01) says the daily meal allowance is $65 but S3 (2024-01-15, superseded) says $50."
    assert c.as_note() == Note(kind="version_superseded", labels=("S1", "S3"), text=c.text)


def test_value_mismatch_between_two_documents_is_value_mismatch(embedder):
    conflicts = detect_conflicts([src("S1", "Refunds are accepted within 30 days of purchase.", doc=1),
                                  src("S2", "Refunds are accepted within 45 days of purchase.", doc=2)], embedder)
    assert [(c.kind, c.labels, c.values) for c in conflicts] == [("value_mismatch", ("S1", "S2"),
                                                                  ("30 days", "45 days"))]
    assert "S1" in conflicts[0].text and "S2" in conflicts[0].text and "45 days" in conflicts[0].text


def test_negation_is_flagged(embedder):
    conflicts = detect_conflicts([src("S1", "Contractors may use the lounge.", doc=1),
                                  src("S2", "Contractors may not use the lounge.", doc=2)], embedder)
    assert len(conflicts) == 1
    c = conflicts[0]
    assert c.kind == "negation" and c.labels == ("S1", "S2") and c.values == ("affirmative", "not")
    assert c.text == 'S1 says "Contractors may use the lounge" but S2 says "Contractors may not use the lounge".'


def test_agreeing_pair_worded_differently_is_not_flagged(embedder):
    assert detect_conflicts([src("S1", "The allowance is $65 per day.", doc=1),
                             src("S2", "Each travel day you get $65 for meals.", doc=2)], embedder) == []


def test_rounded_and_hedged_values_agree(embedder):
    assert detect_conflicts([src("S1", "Facebook bought WhatsApp for $19 billion in 2014.", doc=1),
                             src("S2", "In 2014 Facebook bought WhatsApp for about $19.3 billion.", doc=2)],
                            embedder) == []
    a, b = typed_values("about 3,600 people")[0], typed_values("3,559 people")[0]
    assert a.kind == b.kind == "qty:peopl" and same_value(a, b)


def test_same_version_sources_are_never_paired(embedder):
    counting = CountingEmbedder(embedder)
    one_version = [src("S1", "The daily meal allowance is $65.", doc=3, version=5),
                   src("S2", "The daily meal allowance is $50.", doc=3, version=5)]
    assert detect_conflicts(one_version, counting) == []
    assert counting.calls == 0  # no candidate pair: nothing is embedded


def test_all_sentences_are_embedded_in_one_call(embedder):
    counting = CountingEmbedder(embedder)
    sources = [src(f"S{i}", f"Section {i} covers travel. The daily meal allowance is ${50 + i}. Receipts are "
                            f"kept for {i} years.", doc=i) for i in range(1, 6)]
    conflicts = detect_conflicts(sources, counting)
    assert counting.calls == 1 and counting.texts == 15
    assert len(conflicts) == 10  # every pair of the five documents, once each
    assert len({c.labels for c in conflicts}) == 10


def test_entity_swapped_in_the_same_sentence_is_flagged(embedder):
    conflicts = detect_conflicts([
        src("S1", "The service was acquired by Facebook in February 2014 for approximately US$19.3 billion.", doc=1),
        src("S2", "The service was acquired by Apple in February 2014 for approximately US$19.3 billion.", doc=2),
    ], embedder)
    assert [(c.kind, c.values) for c in conflicts] == [("value_mismatch", ("Facebook", "Apple"))]


def test_one_rule_of_two_whole_classes_is_not_a_swapped_name(embedder):
    """A subject after "all", "each", "every" or "any" is a whole class: the same rule of another class does not
    contradict it (fresh2's f2023 and fresh6's y6-003 noted "S2 says Figma", "S2 says TTSC staff"; made-up
    words). A name swapped in a subject without a quantifier still swaps."""
    assert detect_conflicts([
        src("S1", "All Parks staff are responsible for keeping the visitor log.", doc=1),
        src("S2", "All Finance employees are responsible for keeping the visitor log.", doc=2),
    ], embedder) == []
    assert detect_conflicts([
        src("S1", "Each Trello board is treated like a new software request, and must undergo a security review.",
            doc=1),
        src("S2", "Otherwise, each Miro board is treated like a new software request, and must undergo a security "
                  "review.", doc=2),
    ], embedder) == []
    assert clash("The Parks team is responsible for keeping the visitor log.",
                 "The Finance team is responsible for keeping the visitor log.") \
        == Finding("value_mismatch", ("Parks", "Finance"), rule="name")


def test_a_verb_opening_a_clause_after_a_colon_is_not_a_swapped_name(embedder):
    """ "Studio Cloud: Submit a Software Request" is an instruction under a label: "Submit" is capitalised because
    it opens the clause (fresh2's f2026 noted "S2 says Submit"; made-up words)."""
    assert detect_conflicts([
        src("S1", "- The full Studio Cloud Suite by submitting a Software Request through the IT Help Desk.", doc=1),
        src("S2", "- Acme Studio Cloud: Submit a Software Request through the IT Help Desk.", doc=2),
    ], embedder) == []
    assert clash("- The full Studio Cloud Suite by submitting a Software Request through the IT Help Desk.",
                 "- Acme Studio Cloud: Submit a Software Request through the IT Help Desk.") is None


def test_a_compound_of_a_name_and_a_table_row_are_not_a_swapped_name():
    """ "Acme-themed templates" are Acme templates; a row's label and value ("Location | 50 Main Plaza") is no
    name (the development set's d067 and the conversation set's dc-03 noted "S6 says San Francisco"; fresh20m's
    f20-m04 "S5 says F"; made-up words). A swapped name stays a swap."""
    assert clash("- Acme-themed templates: Access document and slide templates through Acme's Visual Guide.",
                 "- Acme templates: You can get our document and slide templates through Acme's Visual Guide.") is None
    assert clash("Location | 50 Main Plaza", "- Springfield (Main Plaza)") is None
    assert clash("The Springfield office is at 50 Main Plaza.", "The Shelbyville office is at 50 Main Plaza.") \
        == Finding("value_mismatch", ("Springfield", "Shelbyville"), rule="name")


def test_a_name_kept_with_words_added_is_not_a_swapped_name():
    """ "Acme IR" / "Acme's Incident Response (IR) team": the name is kept (the fresh23c conversation f23c-32 noted
    "S2 says GSA"; made-up words)."""
    assert clash("If you clicked a link, follow these steps to report to Acme's Incident Response (IR) team:",
                 "If you clicked a link, follow these steps to report to Acme IR:") is None


@pytest.mark.parametrize("negated", [
    "If the tool is not already approved, submit a review request to the IT desk.",
    "*Note: If you don't have a badge yet, ask the front desk for a visitor pass.",
    "For all visitors who are not staff, the front desk issues a badge.",   # fresh15's f15-m01
])
def test_a_negation_only_in_a_leading_condition_is_no_polarity_clash(negated):
    """A sentence whose negations all stand in its leading condition states what holds in a case: it denies nothing
    (fresh6's y6-011, fresh5's y5-011 and the development set's d037 had such notes; made-up words)."""
    assert negated_only_in_case(negated)
    assert clash("The IT desk keeps a list of approved tools and badges.", negated) is None


def test_a_negation_in_the_main_clause_still_clashes():
    assert not negated_only_in_case("If you travel, you may not use the lounge.")
    # a negated relative clause outside the leading phrase carries the claim (ConflictQA's calibration half)
    assert not negated_only_in_case("Rabbits mostly eat carrots, which are not root vegetables.")
    assert clash("Contractors may use the lounge.", "If they travel, contractors may not use the lounge.") \
        == Finding("negation", ("affirmative", "not"), rule="predicate")


def test_two_steps_opening_with_different_verbs_are_not_a_swapped_name(embedder):
    """A line's first words are capitalised because they open it; before an article they are a verb, two steps of a
    procedure, not two names for one thing (the s20 round's held-out fresh20m set, f20-m01 and f20-m02: "S1 says
    "Submitting a mid year progress review" but S4 says Acknowledge"). A name opening the line still swaps."""
    assert detect_conflicts([
        src("S1", "- Acknowledge a Mid-Year Progress Review in HR Links", doc=1),
        src("S2", "- Complete a Mid-Year Progress Review in HR Links", doc=2),
        src("S3", "- Create & Submit a Mid-Year Progress Review in HR Links", doc=3),
    ], embedder) == []
    conflicts = detect_conflicts([
        src("S1", "Facebook acquired the messaging service in February 2014.", doc=1),
        src("S2", "Apple acquired the messaging service in February 2014.", doc=2),
    ], embedder)
    assert [(c.kind, c.values) for c in conflicts] == [("value_mismatch", ("Facebook", "Apple"))]


def test_a_swapped_label_names_two_subjects_not_a_contradiction(embedder):
    """Two lines that differ only in the label that opens them ("Key: value", a table row's first cell) say the same
    value about two subjects: no note (found on the 18F development set: a contacts list and an office page gave
    "the sources disagree: S2 says Listserv but S3 says New York City"). A name swapped after the label still is."""
    assert detect_conflicts([
        src("S1", "New York City: 18f-nyc@gsa.gov for the office list.", doc=1),
        src("S2", "Listserv | 18f-nyc@gsa.gov for the office list.", doc=2),
        src("S3", "Boston: meals are $75 per day on travel.", doc=3),
        src("S4", "Denver: meals are $75 per day on travel.", doc=4),
    ], embedder) == []
    conflicts = detect_conflicts([
        src("S1", "Travel approver: Jane Smith signs every request.", doc=1),
        src("S2", "Travel approver: John Doe signs every request.", doc=2),
    ], embedder)
    assert [(c.kind, c.values) for c in conflicts] == [("value_mismatch", ("Jane Smith", "John Doe"))]


def test_a_name_the_sentence_opens_with_after_in_or_the_names_two_subjects(embedder):
    """The s47 breaker: "In Glasgow the nightly hotel limit is £110." and "In Bristol the nightly hotel limit is £110."
    were noted "S1 says in Glasgow the nightly hotel limit is £110 but S3 says Bristol", and two offices opening at
    07:30 ("The Hull office ..." / "The York office ...") likewise: the same value of two places. A name swapped after
    the verb is still a contradiction."""
    assert detect_conflicts([
        src("S1", "In Glasgow the nightly hotel limit is £110.", doc=1),
        src("S2", "In Bristol the nightly hotel limit is £110.", doc=2),
        src("S3", "The Hull office opens at 07:30 on weekdays.", doc=3),
        src("S4", "The York office opens at 07:30 on weekdays.", doc=4),
    ], embedder) == []
    conflicts = detect_conflicts([
        src("S1", "In 2024 the travel desk was moved to Glasgow for all staff.", doc=1),
        src("S2", "In 2024 the travel desk was moved to Bristol for all staff.", doc=2),
    ], embedder)
    assert [(c.kind, c.values) for c in conflicts] == [("value_mismatch", ("Glasgow", "Bristol"))]


def test_a_heading_or_header_row_is_not_set_against_another_documents_sentence():
    """A heading names a topic and states nothing another document could deny (fresh's f004 and fresh9's v9-022,
    development sets: "S1 says "Share your calendar outside of GSA" but S2 says "... cannot share event details"";
    fresh20m's f20-m06: an employee's and a supervisor's checklist header rows as a swapped name)."""
    assert clash("Share your calendar outside of GSA",
                 "Note: GSA personal calendars cannot share event details outside of GSA.") is None
    assert clash("Employee checklist | Employee mid year performance management steps",
                 "End-of-Year Supervisor checklist | End-of-year Supervisor performance management steps") is None
    # a claim without a full stop still clashes: a negation makes it one, and two versions of one document compare
    # their list items (a revised item is what the revision changed)
    assert clash("Don't share your calendar outside of GSA",
                 "You can share your calendar outside of GSA.") is not None
    assert clash("Share your calendar outside of GSA",
                 "You cannot share your calendar outside of GSA.", versions=True) is not None


AIRFARE = ("Please note that in most cases, **government contract airfare does not ticket until 72 hours before "
           "departure**, so you may not receive official confirmation of your itinerary until then.")


def test_not_until_with_the_same_time_is_no_polarity_clash():
    """"Does not ticket until 72 hours before departure" says when ticketing happens: against "occurs 48-72 hours
    before departure" it agrees (the development comparisons' cd018 had a note). With another time it still
    differs."""
    assert negated_only_until(AIRFARE)
    assert negated_only_until("You will not be charged until the trip is booked.")
    assert not negated_only_until("You do not need approval. Wait until Monday.")
    assert not negated_only_until("It is not available until Monday, and you cannot cancel it.")
    assert clash(AIRFARE, '"Ticketing" usually occurs approximately 48-72 hours before departure in the case of '
                          'government contract flights.') is None
    assert clash(AIRFARE, '"Ticketing" usually occurs approximately 24 hours before departure in the case of '
                          'government contract flights.') is not None


def test_judge_is_called_at_most_max_judged_times(embedder):
    texts = ["Remote work requires approval from your manager.",
             "Working remotely needs your manager's approval.",
             "Your manager has to approve remote work.",
             "Remote work is approved by the employee's manager.",
             "Managers approve requests to work remotely.",
             "Approval for remote work comes from your manager."]
    sources = [src(f"S{i + 1}", t, doc=i + 1) for i, t in enumerate(texts)]
    calls: list[tuple[str, str]] = []

    def judge(a: str, b: str) -> str:
        calls.append((a, b))
        return "One says the manager approves, the other does not."

    conflicts = detect_conflicts(sources, embedder, judge=judge, max_judged=3)
    assert len(calls) == 3  # 15 candidate pairs, 3 calls
    assert [c.kind for c in conflicts] == ["judged"] * 3
    assert all(c.text.endswith("disagree: One says the manager approves, the other does not.") for c in conflicts)
    calls.clear()
    assert detect_conflicts(sources, embedder, judge=judge, max_judged=0) == [] and calls == []


def test_judge_is_not_asked_about_pairs_the_rules_flagged(embedder):
    calls = []
    conflicts = detect_conflicts([src("S1", "Contractors may use the lounge.", doc=1),
                                  src("S2", "Contractors may not use the lounge.", doc=2)], embedder,
                                 judge=lambda a, b: calls.append((a, b)) or None)
    assert [c.kind for c in conflicts] == ["negation"] and calls == []


def test_near_duplicates_that_differ_only_in_a_number_are_flagged(embedder):
    chunk = ("Annual leave. Full-time employees accrue {} hours of annual leave per pay period, credited at the end "
             "of each period. Leave must be requested in the leave system and approved by your supervisor before it "
             "is taken. Unused leave carries over to the next year up to the ceiling set by policy.")
    texts = [chunk.format(4), chunk.format(6)]
    vectors = embedder.embed(texts)
    assert float(vectors[0] @ vectors[1]) >= 0.95  # a near-duplicate pair for dedup
    cands = [cand(1, texts[0], 0.8, doc=1), cand(2, texts[1], 0.7, doc=2)]
    cands = [replace(c, vector=v) for c, v in zip(cands, vectors)]
    near = dedup_near(dedup_exact(cands).kept)
    assert near.conflicts == ((1, 2),) and len(near.kept) == 2  # kept both, reported as a conflict candidate
    conflicts = detect_conflicts([src("S1", texts[0], doc=1), src("S2", texts[1], doc=2)], embedder)
    assert [(c.kind, c.values) for c in conflicts] == [("value_mismatch", ("4 hours", "6 hours"))]


def test_the_same_sentence_typed_with_other_apostrophes_is_no_contradiction(embedder):
    """A page and another page quoting it, one typed with typographic apostrophes ("GSA’s", "you’re") and one with
    ASCII ones, say the same thing (found on the 18F development set, d116: "the sources disagree: S1 says ... GSA's
    Qualtrics account but S2 says GSA’s"); so do "D.C." and "DC" (d066: "S1 says Washington, D.C. | 1800 F St. NW
    but S6 says DC"). A real change next to such a word still is one."""
    assert detect_conflicts([
        src("S1", "For example: if you're working with NIH, you cannot collect data for NIH using GSA's Qualtrics "
                  "account.", doc=1),
        src("S2", "For example: if you’re working with NIH, you cannot collect data for NIH using GSA’s Qualtrics "
                  "account.", doc=2),
    ], embedder) == []
    assert detect_conflicts([  # d066: a contacts table and a welcome page
        src("S1", "Washington, D.C. | 1800 F St. NW. 20405 | 11 | Office Guide", doc=1),
        src("S2", "Washington, DC (1800 F St NW) | 11 | Office Guide", doc=2),
    ], embedder) == []
    conflicts = detect_conflicts([
        src("S1", "The service was acquired by Facebook’s parent in February 2014 for approximately $19 billion.",
            doc=1),
        src("S2", "The service was acquired by Apple's parent in February 2014 for approximately $19 billion.",
            doc=2),
    ], embedder)
    assert [(c.kind, c.values) for c in conflicts] == [("value_mismatch", ("Facebook’s", "Apple's"))]


def test_results_are_deterministic_and_sorted_by_labels(embedder):
    sources = [src("S2", "Contractors may not use the lounge.", doc=2),
               src("S1", "Contractors may use the lounge.", doc=1),
               src("S3", "The lounge is open to contractors.", doc=3)]
    first = detect_conflicts(sources, embedder)
    again = detect_conflicts(list(reversed(sources)), embedder)
    assert first == again
    numbers = [sorted(int(x[1:]) for x in c.labels) for c in first]
    assert numbers == sorted(numbers) and len(first) >= 1
    assert all(isinstance(c, Conflict) for c in first)


@pytest.mark.parametrize("kwargs", [{"similarity": 0.0}, {"similarity": 1.5}, {"max_pairs": -1},
                                    {"max_judged": -1}])
def test_bad_arguments_raise(embedder, kwargs):
    with pytest.raises(ValueError):
        detect_conflicts([src("S1", "a b c", doc=1), src("S2", "d e f", doc=2)], embedder, **kwargs)


def test_duplicate_labels_raise(embedder):
    with pytest.raises(ValueError):
        detect_conflicts([src("S1", "a b c", doc=1), src("S1", "d e f", doc=2)], embedder)


def test_conflict_validates_itself():
    with pytest.raises(ValueError):
        Conflict(labels=("S1", "S1"), kind="negation", text="x", sentences=("a", "b"), values=("", ""))
    with pytest.raises(ValueError):
        Conflict(labels=("S1", "S2"), kind="other",  # type: ignore[arg-type]
                 text="x", sentences=("a", "b"), values=("", ""))


def test_fake_embedder_shapes_are_enough():
    """The detector only needs L2-normalised rows: a bag-of-words embedder drives it without the model."""

    class Bag:
        name, dim = "bag", 64

        def embed(self, texts):
            out = np.zeros((len(texts), self.dim), dtype=np.float32)
            for i, t in enumerate(texts):
                for w in t.lower().replace(".", "").split():
                    out[i, zlib.crc32(w.encode()) % self.dim] += 1
            return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)

    conflicts = detect_conflicts([src("S1", "The daily meal allowance is $65.", doc=1),
                                  src("S2", "The daily meal allowance is $50.", doc=2)], Bag())
    assert [c.values for c in conflicts] == [("$65", "$50")]


# --- true notes: same subject, same attribute, different values (issue 18, item 6) --------------------------------

DEMO = Path(__file__).resolve().parents[2] / "demo" / "corpus"
OVERTIME = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "18f-handbook" / "versions" / "overtime"


def paragraph(path: Path, needle: str) -> str:
    """The paragraph of a Markdown file holding ``needle``."""
    return next(p for p in path.read_text().split("\n\n") if needle in p).strip()


def test_different_cities_are_different_subjects_not_a_contradiction(embedder):
    conflicts = detect_conflicts([src("S1", "Meals on trips. The meal allowance in Boston is $75 per day.", doc=1),
                                  src("S2", "Meals on trips. The meal allowance in Denver is $60 per day.", doc=2)],
                                 embedder, focus="What is the meal allowance?")
    assert conflicts == []


def test_the_same_city_with_two_values_is_a_contradiction(embedder):
    conflicts = detect_conflicts([src("S1", "The meal allowance in Boston is $75 per day.", doc=1),
                                  src("S2", "The meal allowance in Boston is $60 per day.", doc=2)], embedder)
    assert [(c.kind, c.values) for c in conflicts] == [("value_mismatch", ("$75", "$60"))]


@pytest.mark.parametrize("focus,values", [
    ("What is the hotel limit in New York?", ("$325", "$300")),
    ("What is the nightly hotel limit in most cities?", ("$225", "$200")),
    ("", ("$325", "$300")),  # no question: the best-aligned pair of sentences
])
def test_the_hotel_limit_note_gives_each_version_the_value_of_its_aligned_sentence(embedder, focus, values):
    """The demo's lodging paragraph: $225 in most cities and $325 in high-cost cities (2025), $200 and $300 (2024).
    High-cost cities and most cities are two subjects: $325 is never set against $200 (it was, for a question on
    New York, before sentences were aligned with their counterpart only)."""
    new = src("S1", paragraph(DEMO / "travel-expenses.md", "nightly hotel limit"), doc=7, version=2,
              date="2025-03-01")
    old = src("S2", paragraph(DEMO / "archive" / "travel-expenses-2024.md", "nightly hotel limit"), doc=7, version=1,
              date="2024-01-15", status="superseded")
    (c,) = detect_conflicts([new, old], embedder, focus=focus)
    assert (c.kind, c.labels, c.values) == ("version_superseded", ("S1", "S2"), values)
    assert f"says {values[1]}." in c.text and values[0] in c.text


def test_two_agreements_durations_are_not_a_contradiction(embedder):
    prime = src("S1", "Prime membership. This Agreement will remain in effect for 12 months from the date you sign "
                      "up, and renews automatically.", doc=1)
    kindle = src("S2", "Kindle Unlimited. This Agreement will remain in effect for 30 days from the date you sign "
                       "up, and renews automatically.", doc=2)
    assert detect_conflicts([prime, kindle], embedder) == []
    # the same sentence in two versions of one agreement is a change of its duration
    older = replace(prime, label="S3", text=prime.text.replace("12 months", "30 days"), version_id=50,
                    status="superseded", date="2023-01-01")
    newer = replace(prime, date="2024-01-01")
    assert [c.values for c in detect_conflicts([newer, older], embedder)] == [("12 months", "30 days")]


def test_different_roles_with_opposite_permissions_are_not_a_contradiction(embedder):
    assert detect_conflicts([src("S1", "Contractors may use the lounge.", doc=1),
                             src("S2", "Employees may not use the lounge.", doc=2)], embedder) == []


def test_different_years_between_two_documents_are_different_subjects(embedder):
    assert detect_conflicts([src("S1", "In 2023 the daily meal allowance was $50.", doc=1),
                             src("S2", "In 2024 the daily meal allowance is $65.", doc=2)], embedder) == []


def test_a_version_note_compares_with_the_version_just_before_the_current_one(embedder):
    """Real 18F overtime revisions: the maximum salary was $176,300 (FY22), then $183,500 (FY23), then $191,900
    (2024). With all three planned, the note sets $191,900 against $183,500, never against $176,300."""
    needle = "maximum"
    current = src("S1", paragraph(OVERTIME / "2024-11-26_9e1c326.md", "$191,900 in 2024"), doc=5, version=14,
                  date="2024-11-26")
    previous = src("S2", paragraph(OVERTIME / "2024-10-16_d3610ff.md", needle), doc=5, version=12,
                   date="2024-10-16", status="superseded")
    oldest = src("S3", paragraph(OVERTIME / "2022-10-14_a1bc576.md", needle), doc=5, version=1, date="2022-10-14",
                 status="superseded")
    assert "$183,500" in previous.text and "$176,300" in oldest.text
    for order in ([current, previous, oldest], [oldest, current, previous]):
        conflicts = detect_conflicts(order, embedder, focus="What is the maximum salary for overtime?")
        assert [(c.kind, c.labels, c.values) for c in conflicts] == [
            ("version_superseded", ("S1", "S2"), ("$191,900", "$183,500"))]


def test_a_sentence_the_previous_version_states_alike_is_not_compared_with_older_ones(embedder):
    current = src("S1", "The daily meal allowance is $65.", doc=3, version=3, date="2025-03-01")
    previous = src("S2", "The daily meal allowance is $65.", doc=3, version=2, date="2024-06-01",
                   status="superseded")
    oldest = src("S3", "The daily meal allowance is $50.", doc=3, version=1, date="2023-01-01", status="superseded")
    assert detect_conflicts([current, previous, oldest], embedder) == []  # the change happened before the previous


SUBJECTS = ["The meal allowance", "The nightly hotel limit", "The laptop budget", "The daily per diem"]
QUALIFIERS = ["", " in Boston", " in Denver", " for contractors", " for employees", " in most cities"]
AMOUNTS = ["$50", "$65", "$75", "$200", "$225", "$300", "$325"]
sentence_st = st.builds(lambda s, q, v, tail: f"{s}{q} is {v} per day{tail}.", st.sampled_from(SUBJECTS),
                        st.sampled_from(QUALIFIERS), st.sampled_from(AMOUNTS),
                        st.sampled_from(["", " before taxes", " of travel"]))
passage_st = st.lists(sentence_st, min_size=1, max_size=3).map(" ".join)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(passage_st, min_size=2, max_size=4), versions=st.booleans())
def test_property_a_notes_values_each_occur_in_the_sentence_of_the_source_it_names(embedder, texts, versions):
    sources = [src(f"S{k + 1}", t, doc=1 if versions else k + 1, version=k + 1, date=f"202{k}-01-01",
                   status="current" if k == len(texts) - 1 or not versions else "superseded")
               for k, t in enumerate(texts)]
    by_label = {s.label: " ".join(s.text.split()) for s in sources}
    for c in detect_conflicts(sources, embedder):
        for label, sentence, value in zip(c.labels, c.sentences, c.values):
            assert value in sentence and " ".join(sentence.split()) in by_label[label]
        assert c.labels[0] in c.text and c.labels[1] in c.text
        if c.rule in ("value", "loose value", "name"):
            assert c.text.endswith(f"says {c.values[1]}.") and c.values[0] in c.text


def test_a_revision_that_changes_a_code_in_a_kept_sentence_is_noted_and_an_editorial_one_is_not(embedder):
    """The 18F leave page, 2022 and now: "Code 50 - Regular Military Leave" became "Code 51 - Regular Military"."""
    kept = ("For a two-week annual training or any other first-use of your 15 paid days, request the leave using "
            "Code {}.")
    current = src("S1", "Military leave. " + kept.format("51 - Regular Military"), doc=2, version=9,
                  date="2024-12-11")
    old = src("S2", "Military leave. " + kept.format("50 - Regular Military Leave"), doc=2, version=3,
              date="2022-09-27", status="superseded")
    (c,) = detect_conflicts([current, old], embedder, focus="Which code do I use to request military leave?")
    assert (c.kind, c.rule, c.values) == ("version_superseded", "reworded",
                                          ("51 - Regular Military", "50 - Regular Military Leave"))
    assert c.relevance > 0.5 and "Code 51 - Regular Military" in c.text and "Code 50" in c.text
    editorial = replace(old, text="Military leave. You can take up to 15 paid days of military leave a year.")
    rewrite = replace(current, text="Military leave. Employees may take up to 15 paid days of military leave a year.")
    assert detect_conflicts([rewrite, editorial], embedder) == []  # "You can take" / "Employees may take"


def test_pairs_the_question_does_not_concern_are_not_examined(embedder):
    """grounding.notes.concerns: an aligned pair that could not make a note about the question (no distinctive word of
    it; between two documents, fewer than two of its words or sentences less than 0.6 close) is skipped before the
    rules run (and before the judge sees it); a pair about the question is still found, with the same conflict."""
    from grounding.notes import concerns

    meals = [src("S1", "The meal allowance is $65 per day. Refunds are accepted within 30 days.", doc=1),
             src("S2", "The meal allowance is $50 per day. Refunds are accepted within 45 days.", doc=2)]
    asked_calls: list[tuple[str, str]] = []

    def judge(a: str, b: str) -> None:
        asked_calls.append((a, b))

    everything = detect_conflicts(meals, embedder)
    asked = "How many days until refunds are no longer accepted?"
    about_refunds = detect_conflicts(meals, embedder, focus=asked, concerns=concerns(asked))
    assert [c.values for c in everything] == [("$65", "$50")]  # the first aligned clash of the pair
    assert [c.values for c in about_refunds] == [("30 days", "45 days")]
    assert detect_conflicts(meals, embedder, focus="Where do I park?", concerns=concerns("Where do I park?"),
                            judge=judge) == []
    assert asked_calls == []  # nothing about parking was aligned, so the judge was not asked either
    assert concerns("")(frozenset({"anything"}), similarity=0.1, relevance=0.0, versions=False)  # no content words


def test_concerns_asks_what_relevant_notes_asks():
    from grounding.notes import concerns

    test = concerns("What is the nightly hotel limit in New York?")
    hotel = frozenset({"hotel", "limit", "night", "new", "york", "325"})
    assert test(hotel, similarity=0.7, relevance=0.5, versions=False)
    assert not test(hotel, similarity=0.55, relevance=0.5, versions=False)  # two documents: not close enough
    assert not test(frozenset({"hotel", "book"}), similarity=0.9, relevance=0.5, versions=False)  # one word shared
    assert test(frozenset({"hotel", "book"}), similarity=0.3, relevance=0.65, versions=True)  # a version, close
    assert not test(frozenset({"hotel", "book"}), similarity=0.9, relevance=0.5, versions=True)
    assert not test(frozenset({"meal", "allow"}), similarity=0.99, relevance=0.9, versions=True)  # nothing asked


def test_a_word_after_a_privative_is_not_opposed_to_its_negative_prefixed_form():
    """ "outside of a dedicated workspace" says what "a non-workspace" says (fresh8's y8-008 noted them as opposed;
    made-up words); a plain word and its negative-prefixed form still are."""
    assert clash("You may join a call from a bus or from a non-workspace; that should be rare.",
                 "Joining calls from a bus or outside of a dedicated workspace should be rare.") is None
    assert clash("Contractors are eligible.", "Contractors are ineligible.") \
        == Finding("negation", ("eligible", "ineligible"), rule="antonym")
