"""Choosing the sentences that state what a question asks for (grounding.answer_types: an amount, a duration, a date,
a count, a person or team), for the offline extractive answerer (grounding.extractive). No Django imports."""

from __future__ import annotations

import re
from typing import Sequence

from grounding.asked_attribute import (asks_lead_time, asks_own_deadline, names_another_person, states_lead_time,
                                      states_only_processing)
from grounding.asked_forms import lasts_other, measures_other, repeats_only, states_form
from grounding.answer_types import CHECKED_TYPES, question_sentence, states
from grounding.counted import counted_noun, counts, given_count
from grounding.denials import denies
from grounding.followup import GENERIC
from grounding.lexical import content_terms
from grounding.periods import other_period
from grounding.question_parts import blank_cell
from grounding.quoting import repeats, with_value
from grounding.sentence_leads import heading_of, lead_of
from grounding.sentence_rank import ScoredSentence
from grounding.asked_times import asks_clock, asks_delay, asks_held, rates_only, states_clock
from grounding.typed_values import (asks_calendar, asks_time_taken, asks_window, proportional_only, recurs,
                                   states_calendar, states_time_taken, states_window)
from grounding.types import ContextPlan
from grounding.yesno_caps import speaks_of_limit
from grounding.yesno_count import share_of_asked

__all__ = ["measures_asked", "typed_sentences"]

#: A question asking whom to e-mail ("Who at GSA OCFO do I email it to?").
_EMAIL_ASKED = re.compile(r"\be-?mail\b", re.I)
#: A value question naming the bound it asks for ("What's the maximum page count allowed for a federal resume?").
_NAMES_BOUND = re.compile(r"\b(?:maximum|minimum)\b", re.I)

#: A duration and what it measures: "16 weeks of fully paid parental leave" -> "fully paid parental leave"; one word
#: may stand between the number and its unit ("12 unpaid weeks of FMLA" -> "FMLA").
_MEASURE_OF = re.compile(r"\b(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                         r"fifteen|twenty|thirty)\s+(?:[a-z]+\s+)?(?:hour|day|week|month|year)s?\s+of\s+"
                         r"((?:[\w'’-]+\s+){0,4}[\w'’-]+)", re.I)
#: Words of a "how long" question that are not what it asks the length of.
_ASKING = content_terms("how long take takes last lasts get gets give gives have has")
#: The kind of time a "how many weeks of X does Y give?" question counts (X), apart from what gives it (Y).
_KIND_ASKED = re.compile(r"\bhow (?:many|much)\s+(?:hour|day|week|month|year)s?\s+of\s+(.+?)\s+(?:do|does|did|"
                         r"can|could|is|are|was|were|will|would|should|may|might|must)\b", re.I)


def measures_asked(question: str, sentence: str) -> bool:
    """True when ``sentence`` states a duration *of* everything a "how long" question asks the length of ("How long
    is parental leave?" / "Eligible employees receive 16 weeks of fully paid parental leave"): the duration is the
    asked thing's own length, not a deadline or a window around it ("must be taken within 12 months of the child's
    birth"). The s13 new-user run: that answer quoted the window, the phased return and the eligibility, never the
    16 weeks. A question naming the kind of time apart from what gives it ("How many weeks of leave does FMLA
    give?") asks the length of the giver's ("12 unpaid weeks of FMLA"; the s14 office round), when it names one."""
    asked = content_terms(question_sentence(question)) - GENERIC - _ASKING
    kind = _KIND_ASKED.search(question_sentence(question))
    if kind and asked - content_terms(kind.group(1)):
        asked -= content_terms(kind.group(1))
    return bool(asked) and any(asked <= content_terms(m.group(1)) for m in _MEASURE_OF.finditer(sentence))


def _read_under(sentence: ScoredSentence, plan: ContextPlan | None) -> str:
    """A sentence's text; a list item's with its list's lead-in and the heading it sits under (either may state
    what the item leaves implicit: "Request approval ahead of time:" / "Two weeks")."""
    if sentence.kind != "item" or plan is None or (source := plan.source_map.get(sentence.label)) is None \
            or (data := source.sentences) is None:
        return sentence.text
    i = sentence.position
    if not (0 <= i < len(data.texts)) or not (data.texts[i] in sentence.text or sentence.text in data.texts[i]):
        return sentence.text  # (a label read with its value, grounding.quoting.with_value, holds its own text)
    lead = lead_of(data, i)
    heading = heading_of(data, i, source.section, source.sections)
    return "\n".join(t for t in (heading, data.texts[lead] if lead is not None else "", sentence.text) if t)


def typed_sentences(ranked: Sequence[ScoredSentence], kind: str, *, limit: int, question: str = "",
                    plan: ContextPlan | None = None, threshold: float, spread: float,
                    type_spread: float, context: str = "") -> list[ScoredSentence]:
    """The best sentence stating what a question of ``kind`` asks for (within ``type_spread`` of the best), then
    up to ``limit`` - 1 more within ``spread`` of it that state it too; [] when none does. A table row that
    leaves blank the column the question names states nothing, nor an amount per another period than the one
    asked for (grounding.periods.other_period: a 24-hour pass for an annual membership). A label whose value is
    the next short list item ("Conference events that cost more than $2,500" / "Three to five weeks") is read
    with it. A question asking a lead time ("How many days ahead ...?") is not answered by a prose sentence
    stating none (grounding.asked_attribute.states_lead_time), nor by a list item that states none, read with its
    lead-in and heading ("You are entitled to 12 weeks of paid time off for the birth" does not say how many days
    before the birth to ask), nor by a lead-in stating none ("FMLA entitles you to take up to 12 weeks of unpaid
    leave ... for the following:" for "How many days before my FMLA leave starts do I have to notify my supervisor?",
    fresh37's f37-u01). A question asking how soon the asker must do a thing is not answered by the time another
    party takes (grounding.asked_attribute.states_only_processing). A sentence denying the asked value to the case
    asked about (grounding.denials.denies; ``context``: the previous question an elliptical follow-up asks again) is
    kept as the answer. ``threshold``, ``spread`` and ``type_spread`` are
    the answerer's (grounding.extractive.ExtractiveAnswerer), in the ranking's score units
    (grounding.sentence_rank)."""
    if not ranked:
        return []
    best = ranked[0].score
    check = kind in CHECKED_TYPES
    pool = [s for s in ranked if s.score >= max(threshold, best - (type_spread if check else spread))]
    if check and plan is not None:
        pool = [s if states(kind, s.text) else with_value(s, plan, kind) for s in pool]
    own_deadline = kind == "duration" and asks_own_deadline(question)
    calendar = kind == "date" and asks_calendar(question_sentence(question))  # "What day and time is it held?"
    held = calendar and asks_held(question_sentence(question))
    clock = calendar and asks_clock(question_sentence(question))  # "What time ...?": not a weekday alone
    delay = kind == "duration" and asks_delay(question_sentence(question))
    noun = counted_noun(question) if kind in ("count", "quantity") else ""
    # how long something takes is not stated by how often something recurs (fresh35's f35-u08), and a maximum or
    # a minimum asked is stated by a sentence speaking of a limit ("my resume was 7 pages long" states no maximum
    # page count: fresh35's f35-u18)
    taken = kind == "duration" and asks_time_taken(question_sentence(question))
    bound = check and bool(_NAMES_BOUND.search(question_sentence(question)))
    pool = [s for s in pool if (not check or (states(kind, s.text) and (not taken or states_time_taken(s.text))
                                              and (not bound or speaks_of_limit(s.text, question)))
                                or denies(question, s.text, context=context)
                                # a number right before the capitalised thing counted ("26 Federal Information
                                # Centers"), which states() reads as part of a name
                                or (kind == "count" and bool(noun) and counts(noun, s.text, after=False))
                                # "75% of the daily allowance" for the allowance asked again on the last day
                                or (context and share_of_asked(context, s.text)))
            and not (s.kind == "row" and blank_cell(question, s.text))
            and not (kind == "amount" and other_period(question, s.text))
            # a duration that is no lead time, for a question asking how far ahead ("8 hours for a holiday"); a list
            # item or a table row is read under a lead-in or a header that may state it ("Request approval ahead
            # of time:")
            and not (kind == "duration" and s.kind in ("sentence", "item", "lead") and asks_lead_time(question)
                     and not states_lead_time(_read_under(s, plan)))
            # the time another party takes ("will be reviewed in 3-5 business days") for how soon the asker must act
            and not (kind == "duration" and own_deadline and states_only_processing(s.text))
            # an event's time ("Once you have submitted a referral, ...") for "What day and time is it held?"
            and not (calendar and not states_calendar(s.text, held=held))
            and not (clock and not states_clock(s.text))
            # an accrual rate ("4 hours per pay period") for how long after an event something happens
            and not (delay and rates_only(s.text))
            # a person or team who is only the one the question names ("Who is the HR Specialist?" / "Contact your
            # HR Specialist"): nobody is named
            and not (kind == "person" and not names_another_person(question, s.text))
            # the hours of another thing than the one asked ("24 credit hours" for "hours of comp time")
            and not (kind in ("duration", "quantity", "count") and measures_other(question, s.text))
            # the length of another thing ("this 30-minute overview of privacy" for how long a review takes)
            and not (kind in ("duration", "quantity") and (lasts_other(question, s.text)
                                                           or repeats_only(question, s.text)))
            # a count of another thing than the one asked ("How many desks ...?" / "GSA region: 2")
            and not (kind in ("count", "quantity") and not counts(noun, s.text))]
    if not pool and noun:
        # no close sentence states the count, but one further down counts exactly the thing asked about: "(Tallgrass
        # issues two YubiKeys to every employee)" inside a sentence on security keys, for "How many YubiKeys do I
        # get?" (the s30 round's new user on the demo handbook was refused)
        pool = [s for s in ranked if s.score >= threshold and states(kind, s.text) and counts(noun, s.text)
                and not given_count(noun, s.text) and (not bound or speaks_of_limit(s.text, question))][:1]
    if not pool:
        return []
    if check and (denying := [s for s in pool if denies(question, s.text, context=context)]):
        # the asked value is denied to the asked group: that is the answer, and another value is not
        pool = denying
    elif kind == "frequency" and not recurs(pool[0].text) and (recurring := [s for s in pool if recurs(s.text)]):
        # "How often do we get a new laptop?": "a 36-month refresh cycle", not "within 14 days of receiving the new
        # one" (the s30 new user's demo run)
        pool = recurring[:1] + [s for s in pool if s is not recurring[0]]
    elif kind == "person" and _EMAIL_ASKED.search(question_sentence(question)) \
            and not states_form("e-mail address", pool[0].text) \
            and (mailed := [s for s in pool if states_form("e-mail address", s.text)]):
        # whom to e-mail: the sentence giving an address ("email it to dennis.mcnamara@gsa.gov at the GSA OCFO"), not
        # the one on what the office does ("If GSA OCFO signs off on the decision document ...": fresh36's f36-a10)
        pool = mailed[:1] + [s for s in pool if s is not mailed[0]]
    elif kind == "duration" and asks_window(question) and not states_window(pool[0].text) \
            and (windows := [s for s in pool if states_window(s.text)]):
        # "How long do I have to use it?" after parental leave: "within 12 months of the child's birth", not the
        # blocks of at least 2 weeks it may be taken in (the s30 new user's demo run)
        pool = windows[:1] + [s for s in pool if s is not windows[0]]
    elif kind == "duration" and (measured := [s for s in pool if measures_asked(question, s.text)]):
        pool = measured[:1] + [s for s in pool if s is not measured[0]]  # the asked thing's own length first
    elif kind in ("count", "quantity") and given_count(noun, pool[0].text) and \
            (stated := [s for s in pool if not given_count(noun, s.text)]):
        # "beyond the six sessions" refers to a count that "You can receive six free sessions" states
        pool = stated[:1] + [s for s in pool if s is not stated[0]]
    floor = max(threshold, pool[0].score - spread)
    chosen: list[ScoredSentence] = []
    for s in pool:
        if s.score < floor or len(chosen) >= limit:
            break
        if not repeats(s.text, chosen):
            chosen.append(s)
    if check and (proportional_only(chosen[0].text) or context and share_of_asked(context, chosen[0].text)) and (
            base := next((s for s in pool if s not in chosen and not proportional_only(s.text)
                          and states(kind, s.text)), None)) is not None:
        # "accrue PTO pro rata based on their scheduled hours", "75% of the daily allowance" for the last day: a
        # share of the value the pool states after it
        chosen = [chosen[0], base] + [s for s in chosen[1:] if s is not base][:limit - 2]
    return chosen
