"""The offline extractive answerer: the sentences of the planned sources that answer the question, each cited, composed
as an answer.

It is the default every new user meets (no model key needed). Sentences are ranked by grounding.sentence_rank (the
vectors stored at ingestion; only the question is embedded). Then:

1. below ``threshold`` the answer is an abstention;
2. a comparison ("X or Y?", "X versus Y", "how much earlier X than Y?") quotes, for each side, the sentence that
   states what that side asks for and is about that side (grounding.comparison); a message with two questions ("How
   long ..., and who ...?") answers each part with a sentence naming that part's own subject;
3. otherwise the answer rests on the best sentence that states what the question asks for (an amount, a duration, a
   date, a count, a percentage, a person or team: grounding.answer_types) and that is in a source naming the
   question's specifics (a city, a program, a grade); when the documents cover the topic but none of the close
   sentences states the asked fact (or the table row that matches best leaves the asked column blank), the answer
   says so, naming what they cover, and counts as an abstention;
4. a yes/no question opens with "Yes." or "No." when the deciding sentence settles it (its match with the question is
   strong; negation-aware); a list question gives the list; a table row comes as "column: value" pairs.

Thresholds were tuned on the calibration half of the 18F golden set. No Django imports.
"""

from __future__ import annotations

import asyncio
import re
from typing import AsyncIterator, Sequence

from grounding import compose
from grounding.action_answers import action_first, asks_action
from grounding.answer_cases import with_other_cases
from grounding.asked_attribute import other_kind
from grounding.answer_types import (CHECKED_TYPES, asking_parts, asks_why, is_comparison, question_sentence,
                                     question_type)
from grounding.comparison import side_sentences
from grounding.embeddings import Embedder, default_embedder
from grounding.prompt import ABSTAIN_TOKEN, Prompt
from grounding.followup import GENERIC, elliptical
from grounding.followup_reading import added_case, asks_its_own, covers_case
from grounding.lexical import asks_about_past, content_terms, without_period
from grounding.extractive_lists import list_answer
from grounding.keyed_items import held_role_item, looked_up_item
from grounding.section_lists import section_list, section_passage
from grounding.extractive_parts import parts_answer
from grounding.extractive_turns import in_conversation, own_subject
from grounding.extractive_typed import typed_sentences
from grounding.extractive_specifics import (covering, missed_case, specific_sentences, unstated_form,
                                             value_about_other, with_named_follower)
from grounding.near_ties import preferred_first
from grounding.extractive_yesno import yes_no_answer
from grounding.abroad_cases import abroad_first, asked_countries
from grounding.fronted_topic import with_fronted_topic
from grounding.phrase_match import phrase_first
from grounding.time_case import time_case_first
from grounding.yesno_membership import closed_list_no
from grounding.yesno_asking import asks_existence
from grounding.providers import Done, Event, TextDelta
from grounding.comparison_sides import Sides, comparison_sides
from grounding.comparison_verdict import verdict
from grounding.quoting import in_reading_order, under_heading, with_antecedent, with_list_after
from grounding.question_parts import as_phrased, blank_cell, is_group, question_parts, specifics
from grounding.residual_cases import ResidualCase, general_opener
from grounding.sentence_cues import continues_one, pointed_back
from grounding.sentence_rank import ScoredSentence, rank_sentences, reads_period, with_sentences
from grounding.table_lookup import looks_up_row, with_row_first
from grounding.types import ContextPlan
from grounding.asked_holder import HOLDER, unheld
from grounding.subject_check import names_in_source, unnamed_existent, unnamed_object, unnamed_subject, unsaid_subject


class ExtractiveAnswerer:
    """Offline answerer (see the module docstring).

    Args:
        embedder: the question's embedder (default: the bundled MiniLM).
        threshold: best sentence score below which the answer abstains.
        spread: sentences within this of the best one may join the answer.
        type_spread: how far below the best sentence the answer may look for a sentence that states the asked type.
        settle: the deciding sentence's score at or above which it settles a yes/no question.
        own_terms: content words (not grounding.followup.GENERIC) from which a follow-up retrieved with the previous
            question's words, whose best sentence names none of them, is answered from its own words when they alone
            find a sentence above ``threshold``.
        yes_coverage: the share of the asking clause's content terms a deciding sentence must hold to open with
            "Yes." (grounding.yesno.asking_coverage). 0.25: under every right "Yes." of the 18F calibration half but
            one (a label sentence, 0.0) and over a new user's wrong "Yes." to a 401(k) question on the demo handbook
            (0.20); another wrong one there (0.33) is not told apart by it.
        precision_weight: weight of a sentence's precision (its own terms found in the question) when the deciding
            sentence of a yes/no question is chosen among the close ones.
        scan_coverage: when the deciding sentence settles nothing, the share of the asking clause's content terms
            another chosen sentence (with its section path) must hold to decide the question instead
            (grounding.extractive_yesno). 0.75: on the calibration half and the development file the two such
            sentences that settle a question rightly hold 0.75 and 0.8; "Flights longer than 6 hours may be
            booked in premium economy" holds 0.4 of "Can I book business class on a 4-hour flight?".
        scan_margin: or, holding less of it, when its score is within this of the deciding sentence's and it says no by
            a negation naming what is asked (grounding.yesno_anchor). 0.1: on dev, calibration and the spent fresh
            yes/no sets, 0.05 finds 2 such "No." openers, 0.1 finds 6 (all right), 0.2 adds a wrong one.
        max_sentences: most sentences quoted for one question (or one part of it).
        condition_bonus: added to a sentence, for a part of a two-part message, when its leading condition matches
            what the message's preamble says of the asker (grounding.question_parts.condition_matches).
        overlap_weight, quantity_bonus: see grounding.sentence_rank.
        piece_words: words per streamed piece.
    """

    name = "extractive"
    label = "Extractive answer (offline): sentences quoted from the sources"

    def __init__(self, embedder: Embedder | None = None, *, threshold: float = 0.62, spread: float = 0.12,
                 type_spread: float = 0.2, settle: float = 0.62, yes_coverage: float = 0.25, own_terms: int = 2,
                 precision_weight: float = 0.3, scan_coverage: float = 0.75, scan_margin: float = 0.1,
                 max_sentences: int = 3,
                 condition_bonus: float = 0.05,
                 overlap_weight: float = 0.3, quantity_bonus: float = 0.08, piece_words: int = 3) -> None:
        self.embedder = embedder
        self.threshold = threshold
        self.spread = spread
        self.type_spread = type_spread
        self.settle = settle
        self.yes_coverage = yes_coverage
        self.own_terms = own_terms
        self.precision_weight = precision_weight
        self.scan_coverage = scan_coverage
        self.scan_margin = scan_margin
        self.max_sentences = max_sentences
        self.condition_bonus = condition_bonus
        self.overlap_weight = overlap_weight
        self.quantity_bonus = quantity_bonus
        self.piece_words = piece_words

    def rank(self, question: str, plan: ContextPlan) -> list[ScoredSentence]:
        """All quotable sentences of the plan's sources, best first (grounding.sentence_rank; CPU-bound: call it off
        the event loop)."""
        return rank_sentences(question, plan, self.embedder, overlap_weight=self.overlap_weight,
                              quantity_bonus=self.quantity_bonus)

    def compose(self, question: str, plan: ContextPlan) -> str:
        """The full answer text (or the abstention text). ``question`` is what sentences are matched against (the
        retrieval query: a follow-up carries what it refers to); what is asked is read from ``plan.question``."""
        asked = plan.question or question
        context = question[len(asked):].strip() if question.startswith(asked) else ""
        asked = with_fronted_topic(asked)  # "what about floating holidays, do those carry over?" asks a yes/no
        plan = with_sentences(plan, self.embedder)  # each source's sentences read (and embedded) once per answer
        lead, parts = question_parts(asked)
        sides = comparison_sides(asked) if is_comparison(asked) else None  # (read once: the parts need it too)
        if len(parts) > 1 and sides is None:  # (a comparison without two sides, "X ..., versus how ...?", too)
            return self._parts(plan, parts, f"{lead} {context}".strip(), situation=lead)
        # a question about an earlier version is matched without the words naming the period (they pick the version)
        matched = without_period(question) if reads_period(asked, plan.sources) else question
        vector = (self.embedder or default_embedder()).embed([matched or question])[0]
        turn = in_conversation(self, question, asked, context, plan, vector)
        if turn is None:
            return ABSTAIN_TOKEN
        ranked, question, previous, continues, topic = turn
        if not context and (not ranked or ranked[0].score < self.threshold):
            # a question after a story of the asker's situation, or after a greeting or a lead-in ("Quick question:",
            # markup), matched by nothing: those words dilute the match with the sentence that answers the question,
            # so the asking part alone is matched too, and the better kept (only then: where the whole message
            # matches, the situation decides the answer)
            for asking in asking_parts(asked):
                alone = rank_sentences(asking, plan, self.embedder, overlap_weight=self.overlap_weight,
                                       quantity_bonus=self.quantity_bonus)
                if alone and (not ranked or alone[0].score > ranked[0].score):
                    ranked = alone
        kind = question_type(asked)
        # "What about the first day?" after the meal allowance asks for the allowance that day, not the day's list
        again_asked = bool(context) and elliptical(asked) and not asks_its_own(asked) \
            and bool(previous) and question_type(previous) in CHECKED_TYPES
        ranked = with_row_first(ranked, asked)  # a row the question looks up, just under a sentence on the topic
        ranked = preferred_first(ranked, asked)  # near ties settled by what is asked (grounding.near_ties)
        if sides is None:  # (a comparison's sides keep the order asked)
            ranked = time_case_first(ranked, asked)  # "and after 5 years?": "After five full years ..."
        if kind == "yesno":  # "Can I use my personal laptop ...?": the sentence on "personal laptops" decides
            ranked = phrase_first(ranked, asked)  # (not "How many PTO days ...?" / "unused PTO days carry over")
        looked_up = bool(ranked) and ranked[0].kind == "row" and looks_up_row(asked, ranked[0].text)
        if ranked and kind in ("list", "other") and not again_asked and not looked_up and \
                (named := section_list(plan, asked, self.embedder, [s.label for s in ranked], best=ranked[0].text)
                 or section_passage(plan, asked, self.embedder, [s.label for s in ranked], best=ranked[0].text)):
            # "What happens on Day 1?": the list under the heading it names, whose items share none of its words;
            # "What happens on Day 3?": the prose of its sub-sections
            return self._finish(plan, named[0], named[1], asked)
        # "Can I work from Spain ...?": the rule for another country, when no source names the one asked about
        abroad = asked_countries(asked, plan.sources) if not context and ranked else []
        if abroad:
            ranked = abroad_first(ranked)
        elif not context and ranked and (unnamed := unnamed_subject(asked, plan.sources) or unnamed_existent(
                asked, plan.sources) or unnamed_object(asked, plan.sources)):
            # no planned source names what is asked about ("When is the gym open?" over a cafeteria page)
            return compose.topic_only(covering(ranked, plan.source_map), "anything about " + as_phrased(unnamed, asked))
        sources = plan.source_map
        if sides is not None:
            chosen = self._sides(plan, sides, context)
            if chosen:
                text = compose.sentences([(s.text, s.label) for s in chosen])
                # "Higher: BART ..., $8.65 [S1], against $5 [S2]." only where safe (grounding.comparison_verdict)
                said = verdict(asked, sides, chosen)
                return self._finish(plan, f"{said} {text}" if said else text, chosen, asked)
        if not ranked or ranked[0].score < self.threshold:
            return ABSTAIN_TOKEN
        if kind == "yesno" and (closed := closed_list_no(asked, ranked, plan, floor=self.threshold,
                                                          embedder=self.embedder)):
            return self._finish(plan, closed[0], closed[1], asked)  # "Is Veterans Day a company holiday?": No
        again = ""  # the previous question, when this one asks it again for another case ("And for hybrid ...?")
        if kind == "other" and previous and (continues or len(content_terms(asked) - GENERIC) <= 1) \
                and (not asks_its_own(asked) or asks_about_past(asked) and not own_subject(asked)):
            # "And how does it make decisions?" asks no frequency; "what was it before?" asks the meal allowance's
            # amount again, of the version before (the s48 new-user run got "The allowance covers breakfast, ...")
            before = question_type(previous)
            kind, again = (before, previous) if before in CHECKED_TYPES else (kind, "")
        if ranked[0].kind == "row" and blank_cell(asked, ranked[0].text):
            # the row looked up leaves the asked column blank ("Professional development | ? | NA" for CoE staff):
            # the documents cover it but do not state it; a neighbouring row states another work type's code
            return compose.topic_only(covering(ranked, sources), compose.missing(kind, asked))
        found = specifics(asked)  # read once: the names a value is pinned by, and the groups asked about
        if kind != "yesno":
            names = found
        else:  # "Is there a lactation room in the Chicago building?": only a sentence said of Chicago answers (f40-u10)
            names = [n for n in found if not is_group(n)] if asks_existence(asked) else []
        groups = [n for n in found if is_group(n)]  # "contractors", "part-time"
        if kind == "yesno" and (unnamed := [n for n in groups if not any(names_in_source(source, n)
                                                                          for source in plan.sources)]):
            # "Do contractors get paid time off?" over a policy for employees: no planned source names the group
            # asked about, so nothing settles it for them (the sentence about employees would say "Yes.")
            return compose.topic_only(covering(ranked, sources), "anything about " + " or ".join(unnamed))
        chosen = specific_sentences(self, ranked, kind, asked, names, plan, context=again)
        if isinstance(chosen, str):
            return chosen
        general = ""  # the rule for the cases the documents do not list, quoted for one they do not name
        if isinstance(chosen, ResidualCase):
            chosen, general = list(chosen.chosen), general_opener(chosen.names)
        if kind not in ("yesno", "list") and (looked := looked_up_item(plan, chosen[0], asked, self.embedder)):
            # "Who is the point person for Solutions?": the keyed item after the sentence, "Solutions - Kristina Britt"
            chosen = [chosen[0], looked] + [s for s in chosen[1:] if s.text != looked.text][:self.max_sentences - 2]
        if kind == "list":
            listed = list_answer(plan, asked, question, vector, chosen[0], ranked,
                                 floor=ranked[0].score - self.spread, embedder=self.embedder,
                                 overlap_weight=self.overlap_weight, margin=self.spread)
            if listed is not None:
                return self._finish(plan, listed[0], listed[1], asked)
            inline = [s for s in ranked if s.score >= ranked[0].score - self.type_spread and s.text.count(",") >= 2]
            chosen = inline[:1] + [s for s in chosen if inline[:1] != [s]][:self.max_sentences - 1]
        asking = question_sentence(asked)  # after the asker's situation, the question itself is what is asked
        if not names and asking == asked.strip():
            # a question naming no case (nor, in a sentence before it, the asker's situation, which is its case): a
            # value that holds for one case comes with the other cases the source states
            chosen = with_other_cases(chosen, ranked, kind, asked, limit=self.max_sentences, reach=2 * self.spread,
                                      threshold=self.threshold)
        alone = not context and asking == asked.strip() and not abroad  # (a country's case: the general rule)
        if kind in CHECKED_TYPES and not context:  # "The allowance covers breakfast, lunch, dinner ..." after the $65
            chosen = with_named_follower(self, asking, chosen, ranked, plan)  # (after a situation too: f41-v05)
        if kind in CHECKED_TYPES and not context and (missed := missed_case(self, asking, kind, chosen, ranked, plan)):
            return missed
        if not context and (other := value_about_other(asking, kind, chosen, ranked, plan)):
            return other  # "in a single pay period" asked, "at any given time" quoted
        if kind != "yesno" and not context and (unstated := unstated_form(asked, kind, chosen, ranked, plan)):
            return unstated  # a phone number asked, none quoted; after a situation too (fresh35's f35-u10)
        if kind != "yesno" and alone and (unheld_what := unheld(asked, kind, [s.text for s in chosen])):
            held = held_role_item(plan, asked, chosen[0].score, self.embedder) if unheld_what == HOLDER else None
            if held is None:
                return compose.topic_only(covering(ranked, sources), unheld_what)  # "Who leads ...?": nobody named
            chosen = [held]  # "Director - Star Vanamali" on the page of the team asked about
        if kind != "yesno" and alone and \
                (unsaid := unsaid_subject(asked, [(s.text, sources[s.label]) for s in chosen])):
            # nothing quoted, nor its page or section, names what a question standing alone asks about: the
            # office's core hours do not say when its cafeteria opens (a yes/no question, or one after a story,
            # often names its subject in other words: "Can I still get the trip approved?" / "travel")
            return compose.topic_only(covering(ranked, sources), "anything about " + as_phrased(unsaid, asked))
        if kind != "yesno":  # the sentences about the asked kind first ("sick days" after "paid time off")
            chosen = sorted(chosen, key=lambda s: other_kind(asked, s.text))
        acting = kind == "other" and asks_action(asked)
        if acting:  # "What should I do?": a sentence saying what to do first
            at = {(s.label, s.position) for s in chosen}
            chosen = action_first(chosen, ranked, lambda s: s.text, max(self.threshold, ranked[0].score -
                                                                        self.type_spread), lambda s: s.score,
                                  self.max_sentences,
                                  continues=lambda s: continues_one(at, s.label, s.position, s.text),
                                  antecedent=lambda s: pointed_back(chosen, s))
        opener = general
        if kind == "yesno":
            settled = yes_no_answer(self, asked, chosen, ranked, plan, context=context, alone=alone, groups=groups)
            if isinstance(settled, str):
                return settled
            chosen, opener = settled
        opener = general_opener(abroad) if abroad else opener  # the rule for every other country, not a Yes or No
        mine = content_terms(asked) - GENERIC
        if topic and not opener and not any(mine & content_terms(s.text) for s in chosen) \
                and not covers_case(added_case(asked), [s.text for s in chosen]):
            opener = f"The documents say nothing specific about {added_case(asked)}; in general:"  # a general rule
        if kind == "other":
            # "Every employee receives one company laptop ..." / "The standard models are: ...": the list it leads to
            chosen = with_list_after(chosen, plan, self.max_sentences, reasons=asks_why(asked))
        if not acting:  # "Report it ..." answers "What should I do?" first
            # the sentence a quoted one's participle stems from, unless a Yes or No rests on the quoted one
            chosen = in_reading_order(chosen if opener else with_antecedent(chosen, ranked, plan))
        chosen = [under_heading(s, plan) for s in chosen]  # "Non-reimbursable expenses: Upgrades to business ..."
        return self._finish(plan, compose.sentences([(s.text, s.label) for s in chosen], opener), chosen, asked)

    def _parts(self, plan: ContextPlan, parts: Sequence[str], context: str, situation: str = "") -> str:
        """A message asking several questions, answered part by part (grounding.extractive_parts.parts_answer); an
        abstention when no part is answered."""
        answered = parts_answer(self, plan, parts, context, situation)
        if answered is None:
            return ABSTAIN_TOKEN
        return self._finish(plan, *answered)

    # --- choosing ------------------------------------------------------------------------------------------------

    def _typed(self, ranked: Sequence[ScoredSentence], kind: str, *, limit: int, question: str = "",
               plan: ContextPlan | None = None, context: str = "") -> list[ScoredSentence]:
        """grounding.extractive_typed.typed_sentences with this answerer's thresholds."""
        return typed_sentences(ranked, kind, limit=limit, question=question, plan=plan, threshold=self.threshold,
                               spread=self.spread, type_spread=self.type_spread, context=context)

    def _sides(self, plan: ContextPlan, sides: Sides, context: str) -> list[ScoredSentence]:
        """Each side of a comparison asked on its own (with ``context``), its sentence chosen by
        grounding.comparison.side_sentences; [] when the sides are not both answered."""
        rankings = [self.rank(f"{query} {context}".strip(), plan) for query in sides.queries]
        return side_sentences(rankings, sides, plan, threshold=self.threshold, type_spread=self.type_spread)

    # --- writing ---------------------------------------------------------------------------------------------------

    def _finish(self, plan: ContextPlan, text: str, chosen: Sequence[ScoredSentence], asked: str = "") -> str:
        """The answer with the offline word on the notes that concern the sources it quotes; when ``asked`` names a
        past year no quoted version is from, the answer first says so (grounding.compose.period_gap)."""
        sources = plan.source_map
        gap = compose.period_gap(asked, [(s.text, sources[s.label]) for s in chosen if s.label in sources],
                                 plan.sources)
        if gap:
            text = gap + ("\n\n" if text.startswith("- ") or "\n" in text else " ") + text
        notes = compose.note_lines(plan, {s.label for s in chosen}, [s.text for s in chosen], asked)
        if not notes:
            return text
        return text + ("\n\n" if "\n" in text else " ") + " ".join(notes)

    async def stream(self, prompt: Prompt, plan: ContextPlan) -> AsyncIterator[Event]:
        """Stream the composed answer in pieces of a few words (the work itself runs in a thread)."""
        # For a follow-up question the retrieval query carries the conversation's terms ("do they expire?" ->
        # "... credit hours"); the extractive answerer matches sentences against it, as retrieval did.
        question = plan.query or prompt.messages[-1]["content"]
        text = await asyncio.to_thread(self.compose, question, plan)
        words = re.findall(r"\S+\s*", text)
        for i in range(0, len(words), self.piece_words):
            yield TextDelta("".join(words[i:i + self.piece_words]))
            await asyncio.sleep(0)
        yield Done()
