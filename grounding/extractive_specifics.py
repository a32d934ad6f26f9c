"""What the extractive answerer (grounding.extractive) checks of the specifics a question names: the sentences that
name its city, grade or group, the abstention that names what the documents cover when none does, and the check
that no sentence as close as the quoted ones names what is asked about while they do not. No Django imports.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from grounding import compose
from grounding.answer_types import CHECKED_TYPES, question_sentence
from grounding.antecedent_names import named_elsewhere
from grounding.keyed_items import looked_up_item
from grounding.asked_attribute import NEAR, missed_specifics
from grounding.asked_frame import clashing_frame
from grounding.asked_holder import unnamed_thing
from grounding.asked_forms import asked_form, asked_thing, asks_what_it_is, contrasted_phrase, points_elsewhere, states_form
from grounding.embeddings import Embedder
from grounding.followup import GENERIC
from grounding.lexical import content_terms
from grounding.part_cues import named_instance
from grounding.question_parts import as_written, is_group
from grounding.quoting import goes_on, repeats
from grounding.residual_cases import ResidualCase, states_residual_rule
from grounding.sentence_leads import lead_of, part_elsewhere
from grounding.sentence_rank import ScoredSentence, source_sentences
from grounding.subject_check import names_in_source, pins
from grounding.typed_values import proportional_only, typed_values
from grounding.types import ContextPlan, Source

if TYPE_CHECKING:
    from grounding.extractive import ExtractiveAnswerer


#: How far below the best sentence (score units of grounding.sentence_rank) a sentence stating the phone number,
#: e-mail address, weekday or channel asked may be quoted for it when no chosen sentence states one
#: (:func:`with_stated_form`). 0.05 (s34 round, on development sets): the address asked, pulled in so, scores 0.03
#: below the best (fresh31's f31-50: "... tts.agreements@gsa.gov"); another desk's number 0.13 below the sentence on
#: the team asked about (fresh34's f34-u03: "Call them at 866-450-5250"), the Friday of a timesheet deadline 0.07
#: below the meeting whose weekday was asked (f34-u19), the benefits inbox 0.17 below the sentences on the HR
#: specialist whose address was asked (f34-u02). Within the type spread (0.2), all four were quoted.
FORM_REACH = 0.05


def covering(ranked: Sequence[ScoredSentence], sources: dict[str, Source]) -> list[Source]:
    """The sources of the best sentences (at most two, from the best four), which a topic-only abstention names."""
    labels = list(dict.fromkeys(s.label for s in ranked[:4]))[:2]
    return [sources[label] for label in labels if label in sources]


def specific_sentences(answerer: ExtractiveAnswerer, ranked: Sequence[ScoredSentence], kind: str, asked: str,
                       names: Sequence[str], plan: ContextPlan, context: str = ""
                       ) -> list[ScoredSentence] | ResidualCase | str:
    """The sentences an answer rests on (at most ``answerer.max_sentences``), preferring those that name the
    question's specifics ``names`` (a city, a grade, a fiscal year: grounding.question_parts.specifics), or whose
    source does, when one of them is within ``answerer.type_spread`` of the best; or the topic-only abstention text
    (a str) when no close sentence states the asked type (``kind``), or the sentence that does is not said of a
    name asked about; or, when the best sentence states the rule for the cases it does not list ("in most cities")
    and the question asks about a place it does not name, those sentences as a grounding.residual_cases.ResidualCase.
    ``context``: the previous question, when ``asked`` asks it again for another case (a sentence denying the value
    to that case answers it, grounding.denials.denies)."""
    sources = plan.source_map
    pinned = [s for s in ranked if all(pins(sources[s.label], s.text, n) for n in names)]
    chosen: list[ScoredSentence] = []
    if names and pinned and pinned[0].score >= ranked[0].score - answerer.type_spread \
            and not proportional_only(pinned[0].text):  # a share ("pro rata") is quoted with what it is a share of
        chosen = answerer._typed(pinned, kind, limit=answerer.max_sentences, question=asked, plan=plan,
                                 context=context)
    if chosen:
        return with_stated_form(asked, chosen, ranked, plan, floor=ranked[0].score - FORM_REACH,
                                limit=answerer.max_sentences)
    if kind not in ("yesno", "list") and ranked and (looked := looked_up_item(plan, ranked[0], asked,
                                                                              getattr(answerer, "embedder", None))):
        # the keyed item the question looks up after the best sentence states what is asked ("South - Ben Okafor")
        ranked = [ranked[0], looked] + [s for s in ranked[1:] if (s.label, s.text) != (looked.label, looked.text)]
    if kind == "other" and not context and (hit := named_instance(ranked, question_sentence(asked))) is not None \
            and hit is not ranked[0] and hit.score >= answerer.threshold:
        # a close sentence naming an instance of the thing the question asks for by name, as a part of a message is
        # answered (grounding.part_cues: "What agency code should they give the interpreter?" / "... or Agency
        # Bureau (AB) code (GSA's AB code is 4700)", fresh36's f36-v02). Not a label naming it: "Home office stipend:
        # receipts due in Ledgerly within 90 days" for "What home office stipend do I get?" (the demo's test)
        ranked = [hit] + [s for s in ranked if s is not hit]
    chosen = answerer._typed(ranked, kind, limit=answerer.max_sentences, question=asked, plan=plan,
                             context=context)
    if not chosen:
        return compose.topic_only(covering(ranked, sources), compose.missing(kind, asked))
    chosen = with_stated_form(asked, chosen, ranked, plan, floor=ranked[0].score - FORM_REACH,
                              limit=answerer.max_sentences)
    missing = [name for name in names if not pins(sources[chosen[0].label], chosen[0].text, name)]
    if not missing:
        return chosen
    # a sentence naming the group asked about on the asked topic ("Part-time employees accrue PTO pro rata ...")
    # answers with the general value it qualifies ("Employees accrue 1.5 days ..."); without one, the documents do
    # not say it for them
    own = content_terms(asked) - GENERIC - content_terms(" ".join(missing))
    # (or, a share stated on the page of the value it is a share of: "vacation days" asked, "PTO" stated)
    related = [s for s in pinned if s.score >= answerer.threshold and (
        content_terms(s.text) & own or proportional_only(s.text)
        and sources[s.label].title == sources[chosen[0].label].title)]
    if not any(is_group(n) for n in missing) and kind != "yesno" and states_residual_rule(chosen[0].text):
        # "What is the nightly hotel limit in Denver?" / "... $225 per night before taxes in most cities. In
        # high-cost cities (New York, ...) the limit is $325": the rule for the cities not listed answers (quoted
        # as the general rule: grounding.residual_cases)
        return ResidualCase(chosen, tuple(as_written(n, asked) for n in missing))
    if not (related and all(is_group(n) for n in missing)):
        # "anything about X" only for a name no planned source names; one a planned source names (another page of
        # the New York office) lacks the asked fact: "the amount for New York"
        unsaid = [n for n in missing if not any(names_in_source(src, n) for src in plan.sources)]
        return compose.topic_only(covering(ranked, sources),
                                  "anything about " + " or ".join(unsaid) if unsaid else
                                  f"{compose.missing(kind, asked)} for "
                                  + " or ".join(as_written(n, asked) for n in missing))
    return [related[0]] + [s for s in chosen if not repeats(s.text, [related[0]])][:1]


def with_named_follower(answerer: ExtractiveAnswerer, asked: str, chosen: Sequence[ScoredSentence],
                        ranked: Sequence[ScoredSentence], plan: ContextPlan) -> list[ScoredSentence]:
    """``chosen`` with a sentence above ``answerer.threshold`` that names what the question asks about, which no
    chosen sentence names, when it goes on in the paragraph of a chosen one (not only one as close as
    :func:`missed_case` reads closeness: "That project became 18F ..." after "In December 2013, eight PIFs left the
    fellowship ...", 0.06 under it, fresh39's f39-a04)
    (grounding.quoting.goes_on): placed right after that one, the last chosen sentences giving way to keep at most
    ``answerer.max_sentences``. Such a sentence does not tell another thing apart from the quoted one; it says what
    the quoted one covers: "The daily meal allowance is $65 per day of travel." / "The allowance covers breakfast,
    lunch, dinner and snacks ..." answers "How much can I spend on dinner when travelling?", which was refused as
    "the amount for dinner" not stated (the s22 round's new-user run on the demo handbook). ``chosen`` unchanged when
    there is none."""
    sources = plan.source_map
    quoted = [(s.text, sources[s.label]) for s in chosen]
    for s in ranked:
        if s.score < answerer.threshold:
            break
        before = next((k for k, c in enumerate(chosen) if goes_on(c, s, plan)), None)
        if before is None or s in chosen or not missed_specifics(asked, quoted, [(s.text, sources[s.label])]):
            continue
        return (list(chosen[:before + 1]) + [s] + list(chosen[before + 1:]))[:max(answerer.max_sentences, before + 2)]
    return list(chosen)


#: A sentence speaking of the whole page it is on ("Questions about this policy go to ...").
_WHOLE_PAGE = re.compile(r"\bthis (?:policy|page|document|handbook|guide)\b", re.I)


def missed_case(answerer: ExtractiveAnswerer, asked: str, kind: str, chosen: Sequence[ScoredSentence],
                ranked: Sequence[ScoredSentence], plan: ContextPlan) -> str | None:
    """The topic-only abstention text when a sentence as close as the quoted ones (within
    grounding.asked_attribute.NEAR of the first, and above ``answerer.threshold``) names what is asked about ("the
    probationary period") and they do not: they answer another thing (a six-month check-in), and the documents do
    not state it (grounding.asked_attribute.missed_specifics); or when the first quoted sentence is about the other
    end of a pair the question asks one end of ("first paycheck" for "final paycheck":
    grounding.asked_forms.contrasted); None when the quoted sentences stand."""
    sources = plan.source_map
    # a quoted sentence going on about what the sentence before it names ("All leadership role searches will have a
    # deadline." / "That deadline should be a minimum of five days ...") is read with it: that one names what is
    # asked for the quoted one (fresh11's f11-c01, a development set, was refused "for role search stay")
    before = {(s.label, s.position): next((c for c in ranked if goes_on(c, s, plan)), None) for s in chosen}
    led = {(c.label, c.position) for c in before.values() if c is not None}
    close = [(s.text, sources[s.label]) for s in ranked
             if s not in chosen and (s.label, s.position) not in led
             and s.score >= max(answerer.threshold, chosen[0].score - NEAR)]
    # a sentence speaking of its whole page ("Questions about this policy go to the Finance team ...") covers what
    # the page says: the expense reports of the travel policy (the s30 new user's demo run was refused "they do not
    # state the person or team for report")
    def read(s: ScoredSentence) -> str:
        text = with_lead(s, sources[s.label], answerer.embedder)
        led_by = before[(s.label, s.position)]
        return f"{led_by.text} {text}" if led_by is not None else text

    quoted = [(sources[s.label].text if _WHOLE_PAGE.search(s.text) else read(s), sources[s.label]) for s in chosen]
    if missed := missed_specifics(asked, quoted, close):
        return compose.topic_only(covering(ranked, sources),
                                  f"{compose.missing(kind, asked)} for {' or '.join(missed)}")
    if other := contrasted_phrase(asked, quoted[0][0]):
        # "final paycheck" asked, "your first paycheck" quoted: the other end of the pair (grounding.asked_forms)
        return compose.topic_only(covering(ranked, sources), f"{compose.missing(kind, asked)} for {other}")
    return None


def value_about_other(asked: str, kind: str, chosen: Sequence[ScoredSentence], ranked: Sequence[ScoredSentence],
                      plan: ContextPlan) -> str | None:
    """The topic-only abstention text when a question of a checked type (an amount, a duration, a count, ...) is
    answered by sentences about a neighbouring thing: none of them, nor its title or section, names a word of the
    thing a "What is the X ...?" question asks and none states a value with a figure ("the largest honorarium"
    asked, free attendance at the event quoted: grounding.asked_holder.unnamed_thing); or the first value they state
    holds over another period than the asked rate's ("How many credit hours can I earn in a single pay period?" /
    "up to 24 credit hours accrued, at any given time": grounding.asked_frame.clashing_frame); or the first quoted
    sentence refers back to another named thing than the asked one (grounding.antecedent_names.named_elsewhere). None
    when the quoted sentences stand."""
    if kind not in CHECKED_TYPES:
        return None
    sources = plan.source_map
    if thing := unnamed_thing(asked, [(s.text, sources[s.label]) for s in chosen]):
        return compose.topic_only(covering(ranked, sources), f"anything about the {thing}")
    valued = [s.text for s in chosen if typed_values(s.text)]
    if valued and (period := clashing_frame(asked, valued)):
        return compose.topic_only(covering(ranked, sources), f"{compose.missing(kind, asked)} per {period}")
    if part := part_elsewhere(asked, [t for s in chosen for t in (s.text, sources[s.label].section)]):
        # "How long does the Phase 2 documentation review take?" / "Phase 3 should take two weeks" (f40-u06)
        return compose.topic_only(covering(ranked, sources), f"{compose.missing(kind, asked)} for {part}")
    if chosen and (names := named_elsewhere(asked, chosen[0], plan)):
        # "The service has a file size limit of 100MB" right after "Intelink's IntelDocs ..." for Max.gov asked
        return compose.topic_only(covering(ranked, sources),
                                  f"{compose.missing(kind, asked)} for {' or '.join(names)}")
    return None


#: A sentence pointing back at the address or number the sentence before it gives: "Also use this email if ...".
_POINTS_BACK = re.compile(r"\b(?:this|that|the\s+same|the\s+above)\s+(?:e-?mail(?:\s+address)?|address|inbox|"
                          r"(?:phone\s+)?number|line|alias)\b", re.I)


def with_stated_form(asked: str, chosen: Sequence[ScoredSentence], ranked: Sequence[ScoredSentence],
                     plan: ContextPlan, *, floor: float, limit: int) -> list[ScoredSentence]:
    """``chosen`` made to hold the phone number, e-mail address, weekday or channel the question asks for
    (grounding.asked_forms.asked_form) when no chosen sentence holds one: a chosen sentence pointing back at it
    ("Also use this email if you'd like to submit ... for all hiring and onboarding related questions.") is read
    after the sentence before it in its source that gives it ("jointts@gsa.gov - for applicants, candidates, ...");
    else the best ranked sentence scoring ``floor`` or more (score units of grounding.sentence_rank) that holds one
    leads, the last chosen giving way to keep at most ``limit``. Without either, or when the question asks for no
    such form or a chosen sentence holds one, ``chosen`` unchanged (:func:`unstated_form` then abstains). From the
    s31 round's fresh31 set (f31-44, f31-50: "Which email address ...?" refused though the address was planned)."""
    form = asked_form(asked)
    if form is None or any(states_form(form, s.text) for s in chosen):
        return list(chosen)
    for n, s in enumerate(chosen):
        source = plan.source_map.get(s.label)
        data = source.sentences if source is not None else None
        if data is None or not _POINTS_BACK.search(s.text) or not 0 < s.position < len(data.texts) \
                or data.texts[s.position] != s.text or not states_form(form, data.texts[s.position - 1]):
            continue
        return [*chosen[:n], replace(s, text=f"{data.texts[s.position - 1]} {s.text}"), *chosen[n + 1:]]
    stating = next((s for s in ranked if s.score >= floor and states_form(form, s.text)), None)
    return list(chosen) if stating is None else [stating, *chosen][:limit]


def unstated_form(asked: str, kind: str, chosen: Sequence[ScoredSentence], ranked: Sequence[ScoredSentence],
                  plan: ContextPlan) -> str | None:
    """The topic-only abstention text when the question asks for a phone number, an e-mail address, a day of the
    week or a Slack channel (grounding.asked_forms.asked_form) and no quoted sentence holds one ("you can phone the
    IR team via the numbers listed in Section 3.1.1 of the guide"), or when a question of ``kind`` "other" asks what
    a thing is and every quoted sentence naming it only says where it is found
    (grounding.asked_forms.points_elsewhere); None otherwise."""
    form = asked_form(asked)
    if form is not None and not any(states_form(form, s.text) for s in chosen):
        return compose.topic_only(covering(ranked, plan.source_map), f"the {form}")
    # the thing by its head noun: "the door keycode" is "The keycode is pinned in #chitown" (fresh39's f39-u04, a
    # development set, was answered with where it is pinned)
    head = asked_thing(asked).split()[-1:] if kind == "other" and asks_what_it_is(asked) else []
    thing = content_terms(" ".join(head)) - GENERIC
    naming = [s for s in chosen if thing and thing <= content_terms(s.text)]
    if naming and all(points_elsewhere(s.text) for s in naming):
        # "the registration code can be found on the GSA InSight page": where it is, not what it is (the other
        # quoted sentences do not name it)
        return compose.topic_only(covering(ranked, plan.source_map),
                                  f"the {asked_thing(asked)} itself, only where it is found")
    return None


def with_lead(sentence: ScoredSentence, source: Source, embedder: Embedder | None) -> str:
    """A quoted sentence's text, read with its list's lead-in when it is a list item ("Fewer than 3 years: 4 hours per
    pay period" under "Full-time employees accrue annual leave as follows:"): what the item is about is said there."""
    data = source_sentences(source, embedder)
    i = sentence.position
    if not (0 <= i < len(data.texts)) or data.texts[i] != sentence.text or (lead := lead_of(data, i)) is None:
        return sentence.text
    return f"{data.texts[lead]} {sentence.text}"
