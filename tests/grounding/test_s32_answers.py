"""Rules of the s32 round from development questions (each test names the item it came from; none is from the 18F
test half). Texts are made up unless they quote the question."""

from __future__ import annotations

from grounding.answer_types import states
from grounding.counted import counts
from tests.grounding.helpers import make_page, offline_answer


def test_f11_c11_a_number_before_the_capitalised_thing_asked_counts_it(embedder):
    """fresh11's f11-c11: "How many Federal Information Centers did TTS's roots start with in 1966?" was refused
    ("they do not state the number") over "... a nationwide network of 26 Federal Information Centers": a number
    before capitalised words reads as part of a name ("355 McAllister Street"), so no count was stated; the count of
    the very thing the question counts is one."""
    question = "How many Regional Service Hubs did the program open with in 2009?"
    text = ("The program dates back to 2009 and a network of 14 Regional Service Hubs that people could visit for "
            "help with their benefits.")
    assert not states("count", text) and counts("Hubs", text)  # read as a name; counted by what is asked
    answer = offline_answer(embedder, question, make_page(1, "History", "Our history", text))
    assert answer.startswith("The program dates back to 2009 and a network of 14 Regional Service Hubs"), answer
    # a number of a name still counts nothing asked
    other = make_page(1, "Offices", "Address", "Our office is at 355 McAllister Street in San Francisco, where the "
                      "program opened its first Regional Service Hub.")
    answer = offline_answer(embedder, "How many Regional Service Hubs are in San Francisco?", other)
    assert answer.startswith("INSUFFICIENT_EVIDENCE"), answer


def test_f11_c11_only_a_number_before_the_noun_counts_it_as_a_name_would():
    """d080 (dev, near miss): "How many business cards can I order at one time?" must stay refused over "Your business
    cards will arrive 7-10 business days after that": a number after the noun (a label's value: "Spaces: 24") is
    not read as the count of a capitalised thing."""
    text = "Your business cards will arrive 7-10 business days after that."
    assert not counts("cards", text, after=False)
    # (after the noun, a number counts it only as a label's value: "Business cards: 250", not after a verb, s48)
    assert not counts("cards", text)
    assert counts("cards", "Business cards: 250 per order") and not counts("cards", "Business cards: 250", after=False)
    assert counts("Centers", "a network of 26 Federal Information Centers", after=False)


def test_f13r_u16_a_number_glued_to_letters_is_a_name_not_a_count():
    """fresh13r's f13r-u16 (near miss, s32): "How many product managers are in the 18F Product chapter?" read "an 18F
    product manager" as 18 product managers once a number before the counted noun counted it (f11-c11): "18F" is a
    name, as "2FA" or "10th" are no counts."""
    assert not counts("managers", "The guide outlines what an 18F product manager drives towards.", after=False)
    assert not counts("keys", "Set up 2FA keys.") and counts("keys", "You get 2 keys.")


def test_d100_the_sentence_for_the_case_the_question_states_decides_a_yes_no_question(embedder):
    """The dev set's d100: "If I only use GitHub through the website, do I have to set up commit signing?" quoted "If
    you only use GitHub from the web interface, you do not need to configure signing" without an opener: the
    sentence after it, on the other case ("If you do any work with git repos on your local computer, however, you
    need to set up commit signing"), decided, as it states the asked act in the question's words, and settled
    nothing for the asker's case. Of sentences each stating its case, the one for the question's case decides."""
    from grounding.yesno_reach import case_shared

    question = "If I only edit the wiki in the browser, do I have to install the desktop client?"
    mine = "If you only edit the wiki in your browser, you do not need the desktop client."
    other = "If you work with wiki files on your laptop, however, you need to install the desktop client."
    assert case_shared(question, "do I have to install the desktop client?", mine) == 5  # only, edit, wiki, in, browser
    assert case_shared(question, "do I have to install the desktop client?", other) == 1  # wiki
    answer = offline_answer(embedder, question, make_page(1, "Wiki", "Editing", f"{mine} {other}"))
    assert answer.startswith("No. If you only edit the wiki in your browser"), answer
