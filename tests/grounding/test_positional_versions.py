"""Version notes found by position (issue 18 point 6): a revision that rewrote a passage between sentences it kept
puts its new sentences in the place of the old ones, however little their words overlap ("We recommend using
KeePassXC" / "1Password and KeePassX are password managers approved", cosine about 0.5), and a list deleted or
changed under its lead-in names the items removed and added (18F password page, 2016 and 2022 -> now; calibration
q150, development questions v006-v007 of the fresh version set)."""

from __future__ import annotations

from grounding.clash import Finding
from grounding.conflict import note_text
from grounding.contradictions import detect_conflicts
from grounding.notes import concerns, relevant_notes
from grounding.positional import gaps, list_change, list_items, renamed, rewritten
from grounding.types import Source

BEFORE = "There's a secret to dealing with passwords: use a password manager to store your passwords."
AFTER = "You can use your password manager to generate a random unique password for each service you use."
NOW = "We recommend using KeePassXC which is open source and runs on Windows, MacOS and Linux."
OLD = "1Password and KeePassX are password managers approved for work at 18F."


def source(label: str, text: str, *, version: int, date: str, status: str) -> Source:
    return Source(label=label, chunk_ids=(int(label[1:]),), document_id=7, title="Passwords", section="", version="",
                  date=date, text=text, score=0.5, tokens=80, status=status, version_id=version)


def test_sentences_between_the_same_kept_neighbours_form_a_gap():
    current = [BEFORE, NOW, "You can install KeePassXC from the GSA Self-Service app.", AFTER]
    old = [BEFORE, OLD, "KeePassX is free.", AFTER]
    assert gaps(current, old) == [(range(1, 3), range(1, 3))]


def test_a_passage_at_the_edge_of_a_chunk_is_no_gap():
    """What stood before the first sentence of a planned chunk is not known."""
    assert gaps([NOW, AFTER], [OLD, AFTER]) == []


def test_a_name_swapped_for_another_is_a_rename_but_a_name_only_added_is_not():
    assert renamed(NOW, OLD) is not None
    assert renamed("You can use up to 13 days of sick leave for bereavement.",
                   "If approved for FMLA, you can use up to 12 weeks of sick leave.") is None


def test_the_rewritten_pair_of_a_gap_is_the_one_the_question_is_about():
    current = [BEFORE, NOW, AFTER]
    old = [BEFORE, OLD, "KeePassX is free.", AFTER]
    weight = {(1, 1): 1.2, (1, 2): 0.9}
    pairs = rewritten(current, old, gaps(current, old)[0], lambda a, b: weight[(a, b)])
    assert pairs[0][:2] == (1, 1)


def test_two_sentences_a_revision_joined_are_not_a_rewrite():
    current = [BEFORE, "You are not required to stay late, but if you want to work an extra hour, you can ask your "
               "supervisor about working 1 more hour.", AFTER]
    old = [BEFORE, "You are not required to stay late, but if you want to work an extra hour.",
           "You can ask your supervisor about working 1 more hour.", AFTER]
    assert rewritten(current, old, gaps(current, old)[0], lambda a, b: 1.0) == []


LEAD = "Password managers approved for work at GSA:"
OLD_TEXT = f"{BEFORE}\n{LEAD}\n\n- KeePassXC\n- Google Sheets\n\n{NOW}"
NOW_TEXT = f"{BEFORE}\n{NOW}"


def test_the_items_of_a_lead_in_are_read_from_the_text():
    assert list_items(OLD_TEXT, LEAD) == ["KeePassXC", "Google Sheets"]
    assert list_items(NOW_TEXT, LEAD) == []


def test_a_list_deleted_between_kept_sentences_names_its_items_as_removed():
    assert list_change([BEFORE, NOW], [BEFORE, LEAD, NOW], NOW_TEXT, OLD_TEXT) == (1, "KeePassXC; Google Sheets", "")


def test_items_changed_under_the_same_lead_in_are_named_removed_and_added():
    now_text = f"{BEFORE}\n{LEAD}\n- KeePassXC\n- 1Password\n{NOW}"
    assert list_change([BEFORE, LEAD, NOW], [BEFORE, LEAD, NOW], now_text, OLD_TEXT) == (1, "Google Sheets",
                                                                                         "1Password")


def test_a_list_moved_elsewhere_in_the_current_version_is_not_removed():
    now_text = f"{BEFORE}\n{NOW}\nUse one of these:\n- KeePassXC\n- Google Sheets"
    assert list_change([BEFORE, NOW, "Use one of these:"], [BEFORE, LEAD, NOW], now_text, OLD_TEXT) is None


def test_the_note_of_a_removed_list_quotes_its_lead_in_and_items():
    first = source("S1", NOW_TEXT, version=9, date="", status="current")
    second = source("S2", OLD_TEXT, version=5, date="2022-11-30", status="superseded")
    text = note_text(first, second, Finding("value_mismatch", ("", "KeePassXC; Google Sheets"), rule="list"),
                     LEAD, LEAD)
    assert "Google Sheets" in text and "no longer" in text


def test_a_rewritten_passage_is_noted_when_the_question_names_the_old_name(embedder):
    question = "Is 1Password one of our approved password managers?"
    current = source("S1", "\n".join([BEFORE, NOW, AFTER]), version=9, date="", status="current")
    old = source("S2", "\n".join([BEFORE, OLD, "KeePassX is free.", AFTER]), version=5, date="2016-12-09",
                 status="superseded")
    conflicts = detect_conflicts([current, old], embedder, focus=question, concerns=concerns(question))
    (note,) = relevant_notes(conflicts, question)
    assert "1Password and KeePassX" in note.text


def test_a_value_changed_between_two_sentences_of_a_gap_is_no_rewrite():
    """A revision that dropped one rule and added another in its place states two rules (calibration q073)."""
    current = [BEFORE, "You can use up to 13 days (104 hours) per year of your sick leave for bereavement.", AFTER]
    old = [BEFORE, "If approved for FMLA, you can use up to 12 weeks of sick leave to care for your family member.",
           AFTER]
    assert rewritten(current, old, gaps(current, old)[0], lambda a, b: 1.0) == []


def test_a_version_note_on_a_name_the_question_names_and_the_answer_does_not_is_said():
    from grounding.notes import names_what_changed
    note = 'S1 says "we recommend using KeePassXC" but S2 (2016-12-09, superseded) says "1Password and KeePassX ..."'
    assert names_what_changed(note, "Is 1Password one of our approved password managers?", "Use a password manager.")
    assert not names_what_changed(note, "Is 1Password approved?", "1Password and KeePassX are approved.")
    assert not names_what_changed(note, "Which password managers are approved?", "Use a password manager.")
