"""A part of a two-part message that the ranking with the message's preamble, or the threshold, leaves unanswered
(s18 round, issue 18 item 4; written on the calibration half and the development sets of the 18F golden set, never
on its test half): the part on its own words, a part just under the threshold beside one above it, the sentence
right after a best one that names the subject, "and above what ...?" as a part, a contact asked as a place, and a
"which <noun>" part answered by the sentence naming one by name."""

from __future__ import annotations

from grounding.extractive_parts import PART_MARGIN, following, parts_answer
from grounding.part_cues import asked_noun, asks_place, cued, names_instance
from grounding.question_parts import question_parts
from grounding.sentence_rank import ScoredSentence
from grounding.types import ContextPlan


def scored(*pairs: tuple[str, float], label: str = "S1") -> list[ScoredSentence]:
    return [ScoredSentence(text=text, label=label, score=score, position=i) for i, (text, score) in enumerate(pairs)]


class FakeAnswerer:
    """The thresholds of grounding.extractive.ExtractiveAnswerer and a ranking looked up by query."""

    threshold, spread, type_spread, condition_bonus, max_sentences = 0.62, 0.12, 0.2, 0.05, 3

    def __init__(self, rankings: dict[str, list[ScoredSentence]], default: list[ScoredSentence] = ()) -> None:
        self.rankings, self.default = rankings, list(default)

    def rank(self, query: str, plan: ContextPlan) -> list[ScoredSentence]:
        return self.rankings.get(query, self.default)


PLAN = ContextPlan(question="", sources=())


def test_a_preposition_before_the_question_word_opens_a_part():
    lead, parts = question_parts("After my intake form is accepted, who will OA introduce me to, and above what "
                                 "contract size does a CPARS evaluation apply?")
    assert parts == ["who will OA introduce me to", "above what contract size does a CPARS evaluation apply?"]
    assert question_parts("How many days can I telework, and on which days must I be in the office?")[1] == [
        "How many days can I telework", "on which days must I be in the office?"]
    assert question_parts("What is the rate for hotels and meals?")[1] == ["What is the rate for hotels and meals?"]


def test_an_elliptical_part_after_an_embedded_infinitival_question_continues_it():
    # 18F development set fresh15 (f15-l03): "what to delegate and to whom" is one embedded question, not two parts
    assert question_parts("What dimensions can I weigh when deciding what to delegate and to whom?")[1] == [
        "What dimensions can I weigh when deciding what to delegate and to whom?"]
    assert question_parts("Can you tell me how to apply and by when?")[1] == [
        "Can you tell me how to apply and by when?"]
    # an elliptical part after a main question still asks it of that question
    assert question_parts("How do I apply for telework, and by when?")[1] == ["How do I apply for telework",
                                                                             "by when?"]


def test_a_part_the_preamble_ranks_nothing_for_is_answered_on_its_own_words():
    # "I pushed an API key to GitHub. How fast do I have to report it, ...": the preamble's words rank the GitHub
    # advice first and no sentence close to it states a duration; on its own words the one-hour rule is close
    preamble = "I pushed an API key to a public GitHub repo."
    part = "How fast do I have to report it"
    other = scored(("Responders may work for up to eight person-hours without worrying about billing.", 0.68),
                   label="S2")
    answerer = FakeAnswerer({
        f"{preamble} {part}": scored(("It's easy to accidentally push secrets to GitHub.", 0.66),
                                     ("Tell git to use SSH keys instead of GPG keys.", 0.60)),
        part: scored(("See reporting other incidents.", 0.59),
                     ("Send an email to the service desk within 1 hour of identifying an incident.", 0.45)),
    }, default=other)
    second = "how much time can people spend fixing it without worrying about billing?"
    text, chosen = parts_answer(answerer, PLAN, [part, second], preamble)
    assert "within 1 hour" in text and "eight person-hours" in text
    # the part's own best is just under the threshold: the fallback reads it only within PART_MARGIN
    far = FakeAnswerer({f"{preamble} {part}": answerer.rankings[f"{preamble} {part}"],
                        part: scored(("See reporting other incidents.", 0.62 - PART_MARGIN - 0.01),
                                     ("Send an email within 1 hour of identifying an incident.", 0.45))}, default=other)
    assert "within 1 hour" not in parts_answer(far, PLAN, [part, second], preamble)[0]


def test_a_part_just_under_the_threshold_is_answered_only_beside_an_answered_part_and_by_a_sentence_naming_it():
    first, second = "Who do I call to book a hotel", "where do technical questions about Concur go?"
    hotel = scored(("Call AdTrav at (877) 472-6716 to reserve your hotel.", 0.88))
    concur = scored(("The TTS Travel Team answers most questions about travel in Concur.", 0.58),
                    ("You can go to the Travel tab of Concur to make reservations.", 0.44),
                    ("*Please direct technical questions about Concur to the Service Desk at desk@gsa.gov.", 0.39))
    text, chosen = parts_answer(FakeAnswerer({first: hotel, second: concur}), PLAN, [first, second], "")
    assert "AdTrav" in text and "desk@gsa.gov" in text and "Travel tab" not in text
    # alone, a part under the threshold is no answer
    assert parts_answer(FakeAnswerer({second: concur}), PLAN, ["Who runs the desk", second], "") is None


def test_the_sentence_after_a_best_one_naming_the_subject_states_what_it_asks():
    ranked = scored(("TTSC pulse check surveys have been conducted separately within 18F and CoE.", 1.02),
                    ("These help us identify areas for improving employee experience.", 0.57),
                    ("Surveys are conducted three or four times per year.", 0.61))
    assert following(ranked, "frequency")[0].text.startswith("Surveys are conducted")
    assert following(ranked, "other") == []  # no checked type: nothing to tell it by
    # the best sentence states a frequency itself: it answers
    assert following(scored(("Surveys run every month.", 1.0), ("They run three times a year.", 0.6)),
                     "frequency") == []
    # three sentences on is another paragraph's
    far = scored(("Pulse checks are run by 18F.", 1.0), ("a", 0.5), ("b", 0.5), ("They run four times per year.", 0.6))
    assert following(far, "frequency") == []


def test_a_part_asking_how_to_reach_someone_asks_for_a_place_to_write_to():
    assert asks_place("What address do I email with travel questions")
    assert asks_place("how do I reach the Talent team about hiring?")
    assert asks_place("and how can I contact the help desk?")
    assert not asks_place("how do I request annual leave?")
    ranked = scored(("If you are a remote worker, enter your home address into the Remit Address field.", 0.70),
                    ("You can reach them via email at tts-travel@gsa.gov or in the #travel channel.", 0.64))
    assert cued(ranked, "What address do I email with travel questions").text.startswith("You can reach them")


def test_a_which_part_is_answered_by_the_sentence_naming_an_instance_of_its_noun_by_name():
    assert asked_noun("Which shared calendar should I put my time off on") == "calendar"
    assert asked_noun("which line do I put vacation days on?") == "line"
    assert asked_noun("what else do I file") == ""
    assert names_instance("line", "Tock any out of office time to Tock line #670, Out of Office.")
    assert names_instance("calendar", 'Add an event on the Google calendar "18F Out of Office".')
    assert not names_instance("calendar", "There is also a shared calendar.")
    ranked = scored(("There is also a shared calendar.", 0.70),
                    ('18F Out of office: add an event on the Google calendar "18F Out of Office".', 0.63))
    assert cued(ranked, "Which shared calendar should I put my time off on").text.startswith("18F Out of office")


def test_a_part_asking_an_email_address_prefers_a_sentence_holding_one_over_a_channel():
    # "..., and what address reaches the whole Outreach team?" quoted ": This channel is not managed by ..."
    part = "what address reaches the whole Outreach team?"
    ranked = scored((": This channel is not managed by the Outreach team.", 0.80),
                    ("You can also reach the whole team at tts-outreach@gsa.gov.", 0.70))
    assert cued(ranked, part).text.endswith("tts-outreach@gsa.gov.")
    # a "where" part not asking for an e-mail takes the best place
    assert cued(ranked, "where do I ask the Outreach team?").text.startswith(": This channel")
