"""What one part of a two-part message asks for when no checked answer type says it ("where ...?", "what <named
attribute> ...?", a prefix quoted as written), and a part whose own words single out a sentence the message's
preamble drowned (s17 round; written on the development set of the 18F golden set, never on its test half)."""

from __future__ import annotations

from grounding.extractive_parts import decisive
from grounding.lexical import content_terms
from grounding.part_cues import asked_label, asks_place, cued, quoted_prefixes, states_label, states_place
from grounding.sentence_rank import ScoredSentence
from tests.grounding.helpers import make_page, offline_answer


def scored(*pairs: tuple[str, float]) -> list[ScoredSentence]:
    return [ScoredSentence(text=text, label="S1", score=score) for text, score in pairs]


def test_a_where_part_asks_for_a_place_and_a_sentence_naming_an_address_a_channel_or_a_go_to_states_one():
    assert asks_place("where do I go to change my ENT password?")
    assert asks_place("and where do I ask to be added?")
    assert not asks_place("What format is my account name in")
    assert states_place("Go to reset.gsa.gov to change your password.")
    assert states_place("(Ask #admins-github to) add the members to the team.")
    assert states_place("Write to tts-travel@gsa.gov with questions.")
    assert not states_place("You must change your ENT password every 90 days.")
    assert not states_place("We give #1 priority to security.")  # a number sign before a digit is no channel


def test_a_where_part_is_answered_by_the_close_sentence_naming_a_place_not_the_best_one_naming_none():
    # "What format is my ENT account name in, and where do I go to change my ENT password?" quoted the 90-day rule
    ranked = scored(("You must change your ENT password immediately and every 90 days thereafter.", 1.02),
                    ("If you need to reset your ENT password, follow these instructions.", 0.89),
                    ("Go to reset.gsa.gov to change your password.", 0.81))
    assert cued(ranked, "where do I go to change my ENT password?").text.startswith("Go to reset.gsa.gov")
    # too far below the best, it does not answer
    far = scored(("You must change your ENT password every 90 days.", 1.02), ("Go to reset.gsa.gov.", 0.70))
    assert cued(far, "where do I go to change my ENT password?") is None


def test_a_part_asking_an_attribute_by_name_is_answered_by_the_label_naming_it():
    # "On the transit benefit application, what organization code goes in the program application" quoted the
    # form's name, not "Organization Code: Q - Federal Acquisition Service"
    part = "On the transit benefit application, what organization code goes in the program application"
    assert asked_label(part) == content_terms("organization code")
    assert asked_label("what do I click later to stop the benefit?") == frozenset()
    assert asked_label("what else do I file if it costs money?") == frozenset()
    assert states_label(asked_label(part), "Organization Code: Q - Federal Acquisition Service")
    assert states_label(asked_label(part), "Agency: GSA; Organization code: Q")
    assert not states_label(asked_label(part), "Fill out the Transit Benefit Program Application")
    ranked = scored(('Fill out "Transit Benefit Program Application"', 0.93),
                    ("Organization Code: Q - Federal Acquisition Service", 0.84))
    assert cued(ranked, part).text.startswith("Organization Code")


def test_a_prefix_quoted_in_a_part_picks_the_row_holding_it_even_just_under_the_threshold():
    # "What do Slack channels starting with wg- mean, ...?" quoted "Slack is used at TTS ..."
    assert quoted_prefixes("What do Slack channels starting with wg- mean") == ["wg-"]
    assert quoted_prefixes("How do I sign in to Login.gov?") == []
    ranked = scored(("Slack is used at TTS as a means of daily communication.", 0.78),
                    ("prefix/suffix: swg-x; description: Something else", 0.70),
                    ("prefix/suffix: wg-; description: Working groups", 0.61))
    assert cued(ranked, "What do Slack channels starting with wg- mean").text.endswith("Working groups")
    # a part asking none of these is left to the type check
    assert cued(ranked, "what do I click later to stop the benefit?") is None


def test_a_part_is_matched_on_its_own_words_only_when_they_single_out_one_sentence():
    # "We're inviting an outside speaker ... who do we coordinate with for after-hours security?": with the
    # preamble, the Office of Mission Assurance sentence was not among the best; on its own it led by 0.21
    with_preamble = scored(("Have each outside speaker sign an agreement.", 0.70))
    alone = scored(("coordinate with the Office of Mission Assurance", 1.01), ("If you're based in SF ...", 0.80))
    assert decisive(alone, with_preamble)
    # a near tie on its own words keeps the preamble's ranking ("I'm leaving federal service ...")
    assert not decisive(scored(("Exhausted all leave balances", 0.85), ("Your Annual Leave will be paid out.", 0.82)),
                        scored(("If you are staying in the federal government ...", 0.85)))
    assert not decisive([], with_preamble)


def test_a_where_part_of_a_message_quotes_the_sentence_naming_where_to_go(embedder):
    page = make_page(1, "Logging in", "Passwords",
                     "Your account name is in the form FirstnameLastname.\n"
                     "You must change your password immediately after you start and every 90 days thereafter.\n"
                     "Go to reset.example.gov to change your password.")
    text = offline_answer(embedder, "What format is my account name in, and where do I go to change my password?",
                          page)
    assert "FirstnameLastname" in text and "reset.example.gov" in text


def test_a_part_asking_what_something_is_called_is_answered_by_the_close_sentence_giving_a_term_in_quotes():
    # s20 (fresh15 m06): "..., and what is the COR called in relation to the contracting officer?" quoted the COR's
    # duties; the sentence naming it the contracting officer's "eyes and ears" was close
    from grounding.part_cues import asks_name, states_name
    assert asks_name("what is the COR called in relation to the contracting officer?")
    assert asks_name("and what do we call the weekly check-in?")
    assert not asks_name("What is the COR?") and not asks_name("how long is the review?")
    assert states_name("The COR serves as the contracting officer’s “eyes and ears.”")
    assert not states_name("The COR helps the CO administer the contract.")
    ranked = scored(("The COR helps the Contracting Officer administer and manage the contract.", 0.90),
                    ("The COR serves as the contracting officer’s “eyes and ears.”", 0.80))
    assert "eyes and ears" in cued(ranked, "what is the COR called in relation to the contracting officer?").text


def test_a_which_part_answered_by_an_item_describing_a_thing_gets_the_item_naming_it_first():
    # s20 (fresh15 m08): "..., and which AirTable interface lets me see TTSC events and milestones?" quoted only the
    # description item under "- TTSC calendar"
    from grounding.part_cues import named_item
    texts = ["TTSC combined base", "Viewing data about 18F and CoE operations together.", "TTSC calendar",
             "Staff to see TTSC events, organizational milestones, etc."]
    kinds = ["item"] * 4
    hit = ScoredSentence(text=texts[3], label="S1", score=0.9, kind="item", position=3)
    part = "which AirTable interface lets me see TTSC events and milestones?"
    assert named_item(texts, kinds, hit, part) == "TTSC calendar"
    # a description after a sentence, a "how often" part, or a short hit: nothing added
    assert named_item(texts, kinds, ScoredSentence(text=texts[1], label="S1", score=0.9, kind="item", position=1),
                      "how often is the base updated?") is None
    assert named_item(texts[:2] + ["The calendar is shared."] + texts[3:], kinds, hit, part) is None
    assert named_item(texts, kinds, ScoredSentence(text=texts[2], label="S1", score=0.9, kind="item", position=2),
                      part) is None
