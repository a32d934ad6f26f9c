"""False contradiction and version notes of the s42 round (issue 18 point 6: a note only when two passages make a claim
about the same subject and the same attribute with different values). Each test is named by the development item
whose answer carried the false note (fresh3, fresh36, fresh40, fresh41, fresh20's near misses: development sets,
none of them a test half); each checks that the true note beside it is still made."""

from __future__ import annotations

from grounding.clash import clash
from grounding.positional import gaps, renamed, rewritten
from grounding.rewording import reworded

RANGE = "- For procurements between micro-purchase threshold and $25,000:"
THRESHOLD = ("If you are within TTS and your procurement need costs more than the micro-purchase threshold ($10,000), "
             "please visit the Procurement over $10k section in the handbook.")


def test_f41_a02_a_range_whose_low_bound_is_named_states_no_value_of_that_bound():
    """"between micro-purchase threshold and $25,000" ends a range at $25,000; it does not say the threshold is
    $25,000, and "the micro-purchase threshold ($10,000)" lies within it: no note "S1 says $25,000 but S3 says
    $10,000"."""
    assert clash(RANGE, THRESHOLD) is None


def test_f36_a07_the_range_read_either_way_round_and_ranges_of_other_ends_still_differ():
    assert clash(THRESHOLD, RANGE) is None
    finding = clash("For procurements between the micro-purchase threshold and $25,000, the board reviews them.",
                    "For procurements between the micro-purchase threshold and $30,000, the board reviews them.")
    assert finding is not None and finding.values == ("between the micro-purchase threshold and $25,000",
                                                      "between the micro-purchase threshold and $30,000")
    assert clash("For purchases between the threshold and $25,000, the board reviews them.",
                 "For purchases of $40,000, the board reviews them.") is not None  # beyond the range's end


PASSWORDS = ("As you set up your {} accounts and devices, we have three requirements for making passwords that reduce "
             "security risks: use a password manager, use unique passwords, and use stronger passwords.")


def test_f3024_a_revision_renaming_whose_accounts_is_no_version_change():
    """The 2016 page said "your 18F accounts", the current one "your TTS accounts": the same rule of the renamed
    organisation's accounts, not a value the revision changed ("S2 (a superseded version) says 18F" was noted
    against the whole sentence)."""
    now, old = PASSWORDS.format("TTS"), PASSWORDS.format("18F")
    assert clash(now, old, versions=True) is None
    assert reworded(now, old) is None
    assert renamed(now, old) is None


def test_f40_m10_an_owner_renamed_in_a_gap_is_no_rewrite_but_a_code_or_a_name_swapped_still_is():
    before, after = "Follow the steps below to create and maintain secure passwords.", "1. Use a password manager."
    now, old = [before, PASSWORDS.format("TTS"), after], [before, PASSWORDS.format("18F"), after]
    assert rewritten(now, old, gaps(now, old)[0], lambda a, b: 1.0) == []
    assert reworded("Use T-TECH TRANSFORMATION SERVICE as your organizational code.",
                    "Use TTS (T) or 18F (TE) as your organizational code.") is not None
    assert clash("The company was acquired by Facebook in 2012.", "The company was acquired by Apple in 2012.")


TRANSIT_NOW = ["To receive a transit subsidy, you need to enroll using the process below.",
               "The step-by-step guidance below is specific to TTS employees:",
               "Use T-TECH TRANSFORMATION SERVICE as your organizational code.",
               "Make sure to select the Transit Coordinator in the Region in which you reside - this information is "
               "listed in the online form.",
               "- Go to https://transitapp.ost.dot.gov/"]
TRANSIT_OLD = ["To receive a transit subsidy, you need to enroll using the process below.",
               "Use TTS (T) or 18F (TE) as your organizational code.",
               "Instructions differ slightly for each office location; see our office tour guides for more "
               "information.",
               "Make sure to select the Transit Coordinator in the Region in which you reside.",
               "This information is listed in the online form.",
               "- Go to https://transitapp.ost.dot.gov/"]


def test_f36_a05_a_sentence_the_revision_kept_is_no_rewrite_of_its_neighbour():
    """The current page joined "Make sure to select the Transit Coordinator ... reside." and "This information is
    listed in the online form." into one sentence; asked about the Transit Coordinator, the note set that sentence
    against the old "Use TTS (T) or 18F (TE) as your organizational code". The rewrite of the gap is the
    organisational code's, whichever pair the question is closest to."""
    gap = gaps(TRANSIT_NOW, TRANSIT_OLD)[0]
    closest = {(3, 1): 2.0}  # the question about the coordinator is closest to the joined sentence
    pairs = rewritten(TRANSIT_NOW, TRANSIT_OLD, gap, lambda a, b: closest.get((a, b), 1.0))
    assert [(a, b) for a, b, _ in pairs] == [(2, 1)]


def test_f41_a05_a_verb_opening_a_line_before_its_preposition_is_no_swapped_name():
    """"Visit Concur at travel.gsa.gov." / "- Log into Concur travel.gsa.gov." say one thing: the answer noted that the
    sources disagree, "S1 says Visit Concur but S2 says Log into Concur". Names opening a sentence still swap."""
    assert clash("Visit Concur at travel.gsa.gov.", "- Log into Concur travel.gsa.gov.") is None
    swapped = clash("Facebook acquired Instagram in 2012.", "Apple acquired Instagram in 2012.")
    assert swapped is not None and swapped.values == ("Facebook", "Apple")
    assert clash("Bank of America acquired the firm in 2012.", "Wells Fargo acquired the firm in 2012.") is not None
