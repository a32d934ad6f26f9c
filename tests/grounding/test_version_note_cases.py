"""Version notes on a condition a revision dropped (issue 18 point 6): the old version split a rule into cases under a
conditional lead-in ("what happens depends on whether you are exempt or non-exempt:" and one item per case), the
current version states one case for everyone. The note quotes the old lead-in with the cases the current sentence no
longer states, from where the revision changed the sentence (18F overtime page, 2023-04-27 -> now; the s17 round's
development question v009 of the fresh version set)."""

from __future__ import annotations

from grounding.clash import Finding
from grounding.conflict import note_text, past_common_start
from grounding.contradictions import detect_conflicts
from grounding.notes import concerns, relevant_notes
from grounding.rewording import as_cases, conditional, merged
from grounding.types import Source

QUESTION = "I'm a non-exempt employee. What happens to my comp time when it expires?"
NOW = "When you reach the expiration date, you will forfeit the leave."
LEAD = ("When you reach the expiration date, what happens depends on whether you are an exempt or non-exempt "
        "employee:")
EXEMPT = "- If you are exempt: you will forfeit the leave."
NON_EXEMPT = ("- If you are non-exempt: you will be paid out the hours (at the overtime pay rate that was in effect "
              "when you earned the hours).")
OLD = ["Comp time expires one year (26 pay periods) after it is earned.", LEAD, EXEMPT, NON_EXEMPT]


def source(label: str, text: str, *, version: int, date: str, status: str) -> Source:
    return Source(label=label, chunk_ids=(int(label[1:]),), document_id=3, title="Overtime", section="", version="",
                  date=date, text=text, score=0.5, tokens=80, status=status, version_id=version)


def test_an_old_case_item_is_read_with_its_conditional_lead_in_and_the_other_cases():
    quoted, changed, lead = as_cases(NOW, OLD, 2)
    assert lead == 1 and changed is not None
    assert quoted.startswith(LEAD) and "be paid out the hours" in quoted
    assert "If you are exempt" not in quoted  # the case the current sentence still states is not quoted again


def test_an_item_under_a_lead_in_without_a_condition_is_read_alone():
    """"Annual leave accrues based on how long you have worked:" lists values, not cases of a condition: an item
    that a current item restates ("Fewer than 3 years: 4 hours per pay period") is no dropped condition."""
    old = ["Annual leave accrues based on how long you have worked for the government:",
           "- Fewer than 3 years: 4 hours per pay period", "- Between 3 and 15 years: 6 hours per pay period"]
    assert not conditional(old[0])
    assert as_cases("Fewer than 3 years: 4 hours per pay period", old, 1) == (old[1], None, 1)


def test_a_current_list_item_is_not_read_against_the_old_cases():
    assert as_cases("- If you are exempt: you will forfeit the leave.", OLD, 2) == (EXEMPT, None, 2)


def test_a_plain_old_sentence_is_not_read_as_a_case():
    assert as_cases(NOW, OLD, 0) == (OLD[0], None, 0)


def test_the_dropped_condition_is_the_pairs_note_when_the_question_is_about_it(embedder):
    current = source("S1", "Comp time expires one year (26 pay periods) after it is earned. " + NOW +
                     " If you leave GSA, your comp time will be paid out.", version=9, date="", status="current")
    old = source("S2", "\n".join(OLD + ["If you leave GSA, your comp time will follow the parameters above: either "
                                        "forfeited or paid out, depending on your exemption status."]),
                 version=5, date="2023-04-27", status="superseded")
    conflicts = detect_conflicts([current, old], embedder, focus=QUESTION, concerns=concerns(QUESTION))
    (note,) = relevant_notes(conflicts, QUESTION)
    assert "be paid out the hours" in note.text and "forfeit the leave" in note.text


def test_a_long_rewritten_sentence_is_quoted_from_where_the_revision_changed_it():
    cases = LEAD + " " + NON_EXEMPT.lstrip("- ")
    assert past_common_start(NOW, cases) == ("…you will forfeit the leave.",
                                             "…" + cases.split("date, ", 1)[1])
    assert past_common_start("Short one.", "Short two.") == ("Short one.", "Short two.")  # short: quoted whole


def test_the_note_text_of_a_dropped_condition_names_the_old_case():
    first = source("S1", NOW, version=9, date="", status="current")
    second = source("S2", LEAD, version=5, date="2023-04-27", status="superseded")
    cases = LEAD + " " + NON_EXEMPT.lstrip("- ")
    text = note_text(first, second, Finding("value_mismatch", ("a", "b"), rule="reworded"), NOW, cases)
    assert "you will be paid out the hours" in text


def test_of_two_equally_firm_changes_of_one_revision_the_one_clearly_closer_to_the_question_is_kept():
    from grounding.contradictions import RELEVANCE_LEAD, _firmer

    reworded_ = Finding("value_mismatch", ("a", "b"), rule="reworded")
    kept = (reworded_, 0.89, "If you leave GSA, ...", "If you leave GSA, ...", 0.67)
    assert _firmer(reworded_, 0.81, kept, True)  # the expiry change, asked about, replaces the leaving change
    assert not _firmer(reworded_, 0.67 + RELEVANCE_LEAD / 2, kept, True)  # a near tie: the first stays
    assert not _firmer(reworded_, 0.95, kept, False)  # two documents: the first of equals stays


def test_two_old_sentences_joined_into_one_by_a_revision_are_no_change():
    """The credit hours example: the revision joined "You are not required to stay late, but you are in a productive
    headspace ..." and "You can talk to your supervisor and ask to work 1 more hour ..." into one sentence; read
    against the second alone, its "not" looked like a negation the revision added (calibration q054's note)."""
    now = ["You are not required to stay late, but if you are in a productive headspace and want to work an extra hour "
           "to finish work, you can ask your supervisor about working 1 more hour, therefore receiving 1 credit hour."]
    old = ["You are on a Gliding schedule, and you work 8 hours every day.",
           "You are not required to stay late, but you are in a productive headspace and want to work an extra hour to "
           "finish your project.",
           "You can talk to your supervisor and ask to work 1 more hour, therefore receiving 1 credit hour."]
    assert merged(now, 0, old, 2)
    old_code = ["Military leave is 15 days a year.", "Request the leave using Code 50 - Regular Military Leave."]
    # a changed code stays a change whatever its neighbour says
    assert not merged(["Request the leave using Code 51 - Regular Military."], 0, old_code, 1)


MILITARY = ('S1 says "for a two-week annual training or any other first-use of your 15 paid days, request the leave '
            'using Code 51 - Regular Military" but S2 (2022-09-27, superseded) says "for a two-week annual training or '
            'any other first-use of your 15 paid days, request the leave using Code 50 - Regular Military Leave".')


def test_only_the_values_a_revision_changed_make_its_note_concern_an_answer():
    from grounding.notes import changed_values, concerns_answer

    assert changed_values(MILITARY) == {"51", "50"}
    # the 15 days both versions state: an answer on carrying days over is not about the code's revision
    assert not concerns_answer(MILITARY, "You can carry over a maximum of 15 days into the next fiscal year [S1].")
    assert concerns_answer(MILITARY, "For a first use, request the leave using Code 51 - Regular Military [S1].")
    same = 'S1 says "you get 15 days" but S2 says "you do not get 15 days".'  # no value changed: every value counts
    assert concerns_answer(same, "You get 15 days [S1].")


def test_a_note_quoted_from_where_the_revision_changed_it_still_matches_the_answer_quoting_it():
    from grounding.notes import concerns_answer

    note = ('S1 says "…you will be paid out the hours at the overtime rate, within 30 days" but S2 (2023-04-27, '
            'superseded) says "…you will forfeit the hours, within 60 days".')
    assert concerns_answer(note, "When you leave, you will be paid out the hours at the overtime rate [S1].")
