"""The sentences of a context plan, scored against the question: what the extractive answerer chooses from.

Score of a sentence =
    max(cosine(question, sentence), cosine(question, previous sentence + sentence))   (the context vector, so a short
        sentence such as "It must be longer than 14 characters." keeps its subject)
  + ``overlap_weight`` x IDF-weighted share of the question's content terms found in the sentence (IDF over the
        planned sentences, so words every source shares, like the company name, count for little; an acronym a
        planned source defines is found where its words are: "PTO" in "paid time off", grounding.acronyms)
  + ``quantity_bonus`` when the question asks for a quantity or a time and the sentence states one
  + ``phone_bonus`` when the question asks for a phone number and the sentence gives one (MiniLM does not read
        "1-800-555-0147" as a phone number: "What is the EthicsLine phone number?" ranked the EthicsLine's case-number
        sentence above the one giving its number, the s13 new-user run)
  - ``example_penalty`` for a sentence of a worked example ("For example: you went on FMLA for 4 weeks ...", "Say
        you ...", and the sentences after it in its paragraph or list item), unless the question asks for an
        example: it applies the rule to one case, with that case's numbers, and names the rule's own words, so it
        outranked the rule ("How many weeks of leave does FMLA give?" quoted the 4-week example, not the 12 weeks;
        the s14 office round).

The sources' sentence data (grounding.sentence_data) is made once per answer (:func:`with_sentences`); the embedder
answers the texts embedded at ingestion from what it remembers (grounding.embeddings.KnownVectors: the claims and the
answer units, knowledge.sentences), so only the question is encoded, and what ingestion could not know (a source's
text changed at ask time: a passage withheld, chunks merged across a table). The scored sentence and the sources'
sentence data live in grounding.scored_sentences (re-exported here). No Django imports.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import replace
from typing import Sequence

import numpy as np

from grounding.acronyms import definitions, with_expansions, with_spelled_out
from grounding.answer_types import question_sentence, question_type
from grounding.conditions import asked_quantity, case_fit, only_bounds
from grounding.contact_lookup import asks_contact, contact_heading, contact_page, contacts_first
from grounding.keyword_terms import with_keyword_terms
from grounding.lexical import asks_about_past, content_terms, misspells, period_year, stem, without_period
from grounding.embeddings import Embedder, default_embedder
from grounding.followup_reading import RELATING, carried_terms, stands_for_carried
from grounding.event_cases import asked_event, failures_first, stating_rows, states_event, without_event
from grounding.sentence_cues import (ALLOTMENT, ALLOTMENT_QUESTION, ASKS_EXAMPLE, CLOCK, CLOCK_QUESTION, HAS_QUANTITY,
                                     PHONE, PHONE_QUESTION, QUANTITY_QUESTION, asked_numbers, asked_role, defined_term,
                                     defines, example_sentences, named_page_labels, names_role_holder, names_row_key,
                                     numbers, on_named_pages)
from grounding.sentence_data import SentenceData
from grounding.quotable import quoted_text
from grounding.heading_lookup import named_labels
from grounding.sentence_leads import heading_of, lead_of, numbered_parts, other_part
from grounding.table_lookup import names_row_column
from grounding.yesno_count import other_unit, stated_numbers, tests_value
from grounding.types import ContextPlan, Source
from grounding.scored_sentences import ScoredSentence, source_sentences, with_sentences

__all__ = ["ScoredSentence", "rank_sentences", "reads_period", "source_sentences", "with_sentences"]


def reads_period(question: str, sources: Sequence[Source]) -> bool:
    """True when ``question`` asks about an earlier version and superseded versions are among ``sources``: its words
    naming the period then pick a version rather than being matched (lexical.without_period); elsewhere a year is part
    of a name ("the 2018 Winter Olympics")."""
    return asks_about_past(question) and any(s.status == "superseded" for s in sources)


def _respelled(question: str, terms: frozenset[str], said: dict[str, int], embedder: Embedder | None) -> frozenset[str]:
    """``terms`` with each stem of a word the embedding model's vocabulary does not hold whole (grounding.embeddings
    count_tokens: more than one WordPiece, as "milage"; "through" is one) read as the planned word it misspells
    (:func:`_spelled`); unchanged without an embedder that counts tokens. A known word is never respelled: "through"
    was read as "thorough" (fresh38's f38-v04, a development set)."""
    count = getattr(embedder or default_embedder(), "count_tokens", None)
    if not callable(count):
        return terms
    # only a word with a near planned word is looked up in the vocabulary (a tokenizer call): most have none
    near = {w: s for w in set(re.findall(r"[a-z]{5,}", question.lower()))
            if (t := stem(w)) in terms and (s := _spelled(t, said)) != t}
    words = sorted(near)
    fixed = {stem(w): near[w] for w, n in zip(words, count(words) if words else []) if n > 1}
    return frozenset(fixed.get(t, t) for t in terms)


def _measured_base(term: str, said: dict[str, int]) -> str:
    """``term`` (a stem of the question), or the word it is made from with "-age" ("mileag" -> "mile", "percentag" ->
    "percent", "coverag" -> "cover") when no planned sentence holds it and one holds that word of four letters or
    more: "What is the mileage rate?" over "Use of a personal car is reimbursed at 67 cents per mile." shared no word
    and was refused (the s48 breaker's expenses page)."""
    if term in said or not term.endswith("ag") or len(term) < 6:
        return term
    return term[:-2] if term[:-2] in said else term


def _spelled(term: str, said: dict[str, int]) -> str:
    """``term`` (a stem of the question), or the one word of ``said`` (the planned sentences' stems) it misspells by a
    letter (grounding.lexical.misspells) when no sentence holds it ("milag" -> "mileag": the s45 new-user run's
    "whats the milage rate ..." was refused, its best sentence held no word of the question but "rate")."""
    if term in said or len(term) < 5:
        return term
    near = [w for w in difflib.get_close_matches(term, said, n=3, cutoff=0.9) if misspells(term, w)]
    return near[0] if len(near) == 1 else term


def rank_sentences(question: str, plan: ContextPlan, embedder: Embedder | None = None, *,
                   overlap_weight: float = 0.3, quantity_bonus: float = 0.08, number_bonus: float = 0.1,
                   sources: Sequence[Source] | None = None, query_vector: np.ndarray | None = None,
                   period_bonus: float = 0.1, row_key_bonus: float = 0.1,
                   phone_bonus: float = 0.3, case_bonus: float = 0.15, asked: str = "",
                   example_penalty: float = 0.15, allotment_bonus: float = 0.1,
                   definition_bonus: float = 0.15, lead_discount: float = 0.02,
                   heading_bonus: float = 0.1, example_quantity_penalty: float = 0.1,
                   carried_weight: float = 0.5, heading_share: float = 0.5,
                   heading_floor: float = 0.5, clock_bonus: float = 0.1) -> list[ScoredSentence]:
    """The quotable sentences of the plan's sources (or of ``sources``), best first. Superseded sources are left out
    unless the question asks about the past (they are in the context for a note, not to be quoted as the answer);
    when it does and superseded versions are planned (:func:`reads_period`), the words naming the period are not
    matched ("the January 2024 policy" picks a version, it is not what is asked) and the sentences of the version of
    that period get ``period_bonus``:
    the version dated in the year the question names, else a superseded one (the current value is then quoted after
    the earlier one, not instead of it).
    A sentence stating a number the question states as a quantity (:func:`asked_numbers`: "I supervise four
    people" / a table row "... reports: 4"; not the "355" of "355 McAllister") gets ``number_bonus``, unless it
    states that number only of another unit ("after 5 years" / "Up to 5 unused PTO days carry over":
    grounding.yesno_count.other_unit); a table row
    whose first cell the question names as written (its part before a comma:
    "the g- prefix" / "prefix: g-; ...", "the San Francisco office" / "Location: San Francisco, CA; ...") gets
    ``row_key_bonus``: the row looked up, not a neighbour that shares more words (twice that when the question names
    one of its other columns too: the cell looked up, grounding.table_lookup). A sentence bounding the case a rule
    applies to gets ``case_bonus`` when the quantity the question states falls in it, minus twice ``case_bonus`` (and
    no ``number_bonus``) when it does not (grounding.conditions): the quantity of ``asked`` (what is asked, when
    ``question`` is a query carrying a follow-up's previous question too), else of ``question``. A sentence of a
    worked example (:func:`example_sentences`) loses ``example_penalty`` unless the question asks for an example,
    and ``example_quantity_penalty`` more when the question asks for a quantity (the example's numbers are those of
    its one case: "You will earn 56 more annual leave hours (14 pay periods x 4 hours ...)").
    A question asking how much of something one gets and a sentence stating an allotment ("accrue", "are entitled
    to", "adds up to") give the sentence ``allotment_bonus``; for such a question a sentence whose only numbers bound
    the case a rule applies to ("sick for more than 3 consecutive working days") gets no ``quantity_bonus``.
    A question stating its case by an event ("... when I leave?", grounding.event_cases) gives a sentence whose
    condition clause, or its section heading's, holds that event ("When you leave Tallgrass, ...") ``case_bonus``;
    the clause's "when" does not make it a question about a time. (Not for a yes/no question: it tests its
    predicate, not the case.)
    A question asking what a term covers ("What counts as confidential data?") gives a sentence defining it
    ("Confidential – customer contracts, ...", grounding.sentence_cues.defines) ``definition_bonus``, over one
    naming it inside another statement ("Sending Confidential data to the wrong person"); a sentence under a heading
    asking what another term covers ("What counts as an incident") loses it: it is an instance of that term.
    When the question asks for a quantity, a list item stating one under a lead-in (grounding.sentence_leads) is also
    scored as read with its lead-in (the larger of the two cosines, the question's terms found in either), less
    ``lead_discount``, and keeps the better score: "Fewer than 3 years: 4 hours per pay period" under "Annual leave
    accrues based on how long you've worked ...:" answers "How much annual leave do I earn?".
    A question asking what happens when an event does not happen ("What happens if I don't return my laptop?")
    puts the sentences stating the event's negative ("Unreturned equipment may be deducted ...") first: they say
    what happens then; the rule that the event must happen ("You must return your old laptop within 14 days") does
    not.
    For a question asking a quantity, a sentence under a heading whose every content term the question holds ("Annual
    leave" for "How much annual leave do I earn?"; not "Advanced annual leave") gets ``heading_bonus``: its section
    is about what is asked (not for other questions: "What happens to my annual leave balance ...?" then quoted a
    sentence of the "Annual leave" section on leave transferred from another agency).
    A follow-up retrieved with the previous question's words (``question`` is ``asked`` followed by them,
    grounding.followup_reading.carried_terms) counts those words ``carried_weight`` of its own in the overlap, and its words
    relating it to the previous question ("different", "similar", "the private ones") not at all: the carried words
    hold the previous topic's sentences, so "Is it different for term employees?" after the advanced sick leave limit
    quoted "Advanced annual leave and advanced sick leave have different rules." (the s17 calibration q202).
    A question naming a numbered part ("Day 1", "my first day", grounding.heading_lookup.named_labels) gives a
    sentence under that part's heading (of a merged source, its own chunk's: grounding.sentence_leads.heading_of)
    ``case_bonus``, and one under another part's heading of the same kind minus twice that. A question asking for a
    time of day ("What time does my first day start?") gives a sentence stating one ("9:00 a.m. – Arrive at
    reception") ``clock_bonus`` (grounding.sentence_cues.CLOCK).
    A question asking whom to contact ("Who do I contact about equipment?", grounding.contact_lookup) puts the first
    sentence under a contact heading ("Contact", "Questions?") of the page it asks about first (the page whose title
    and keywords hold the question's topic, else the most relevant: grounding.contact_lookup.contact_page).
    A sentence two sources state in the same words is quoted from the one whose page title the question names
    (grounding.sentence_cues.on_named_pages).
    ``query_vector`` is the question's vector when the caller has it already.
    CPU-bound: call it off the event loop."""
    past = asks_about_past(question)
    candidates = plan.sources if sources is None else sources
    period = reads_period(question, candidates)
    rows: list[tuple[Source, SentenceData, int, str]] = []
    examples: set[tuple[str, int]] = set()  # (source label, sentence index) of worked examples' sentences
    asks_example = bool(ASKS_EXAMPLE.search(question))
    # a yes/no question tests its predicate, not the case it is asked in: "can I delete a message once I've posted
    # it?" is not answered by what may be done after posting (an edit)
    event = asked_event(asked or question) if question_type(asked or question) != "yesno" else None
    in_event: set[str] = set()  # labels of sources whose section heading states the event
    for source in candidates:
        if source.status == "superseded" and not past:
            continue
        data = source_sentences(source, embedder)
        if event and states_event(source.section, event.stem, event.negated):  # "When it's time to leave TTS > Review your benefits"
            in_event.add(source.label)
        rows += [(source, data, i, text) for i in range(len(data.texts)) if (text := quoted_text(data, i))]
        if not asks_example:
            examples |= {(source.label, i) for i in example_sentences(source, data)}
    if not rows:
        return []
    q = query_vector if query_vector is not None else (embedder or default_embedder()).embed([question])[0]
    cos = np.array([max(float(d.vectors[i] @ q), float(d.context[i] @ q)) for _, d, i, _ in rows])
    terms = [content_terms(text) for _, _, _, text in rows]
    q_terms = content_terms(without_period(question) if period else question)
    if event:  # the event's verb is matched as a verb of a condition clause (states_event), not as a word: "leave"
        q_terms -= content_terms(event.clause)  # the verb is not "Sick leave" the noun
    # an acronym of the question that a planned source defines: a sentence saying its words holds it ("PTO" /
    # "paid time off")
    defined = definitions(s.text for s in candidates)
    aliases = {k: v for k, v in defined.items() if k in q_terms}
    if aliases:
        terms = [with_expansions(t, aliases) for t in terms]
    # ... and the words of one that the question spells out: a sentence saying the acronym holds them ("Public
    # Service Loan Forgiveness" / "PSLF")
    if spelled := {k: v for k, v in defined.items() if k not in q_terms and v <= q_terms}:
        terms = [with_spelled_out(t, spelled) for t in terms]
    n = len(rows)
    df: dict[str, int] = {}
    for t in terms:
        for w in t:
            df[w] = df.get(w, 0) + 1
    q_terms = _respelled(question, q_terms, df, embedder)  # "milage" is the sentences' "mileage"
    q_terms = frozenset(_measured_base(t, df) for t in q_terms)  # "mileage" is the sentences' "per mile"
    terms = with_keyword_terms(q_terms, df, [r[0] for r in rows], terms)  # "vacation", a keyword of the PTO policy
    tests = tests_value(asked or question)  # "Is the stipend for remote workers $400?": $400 is tested, not sought
    if tests:
        q_terms = q_terms - {t for t in content_terms(question_sentence(asked or question))
                             if any(c.isdigit() for c in t)}
    idf = {w: math.log((n + 1) / (df.get(w, 0) + 0.5)) for w in set(df) | q_terms}
    # a follow-up retrieved with the previous question's words: those words find the previous topic everywhere, so
    # they count ``carried_weight`` of a word the question names itself, and its words relating it to the previous
    # question ("different", "similar", "the private ones") name nothing a sentence holds
    carried = carried_terms(question, asked)
    if carried:
        q_terms = q_terms - RELATING
    # ... unless a pronoun of the question stands for them ("Do they get internet reimbursed?" after "and for remote
    # employees?": "remote employees" is what the question asks about, the demo's s14 new-user run)
    halved = frozenset() if stands_for_carried(asked) else carried
    weight = {w: idf[w] * (carried_weight if w in halved else 1.0) for w in q_terms}
    year = period_year(question) if period else ""
    q_weight = sum(weight.values())
    # "what happens to unused PTO when I leave?": the clause states the case, its "when" does not ask for a time
    wants_quantity = bool(QUANTITY_QUESTION.search(without_event(question))
                          or asked and QUANTITY_QUESTION.search(without_event(asked)))
    wants_phone = bool(PHONE_QUESTION.search(question))
    wants_clock = bool(CLOCK_QUESTION.search(asked or question))
    wants_allotment = bool(ALLOTMENT_QUESTION.search(asked or question))
    q_numbers = asked_numbers(without_period(question) if period else question)  # "in 2024" names a version
    q_units = stated_numbers(without_period(question) if period else question)  # "after 5 years" -> {"year": {5}}
    if tests:  # the tested value gets no number bonus either
        q_numbers = frozenset()
    case = (asked_quantity(asked) if asked else None) or asked_quantity(question)
    term = defined_term(asked or question)
    role = asked_role(asked or question)
    parts = numbered_parts(question) | {tuple(label.split()) for label in named_labels(question)}  # "my first day"
    heading_terms: dict[str, frozenset[str]] = {}  # a heading's content terms, read once per heading
    # "Who do I contact about equipment?": the contact section of the page its own words name, else of the most
    # relevant source's
    page = contact_page(candidates, asked or question) if asks_contact(asked or question) else None
    contact_keys: dict[str, int] = {}  # source label -> its first sentence under a contact heading
    stated = stating_rows(((s.label, i, text) for s, _, i, text in rows), event) if event else set()
    scored = []
    for (source, data, i, text), c, t in zip(rows, cos, terms):
        head = heading_of(data, i, source.section, source.sections)
        if head not in heading_terms:
            heading_terms[head] = content_terms(head)
        if page is not None and source.document_id == page \
                and source.label not in contact_keys and contact_heading(head):
            contact_keys[source.label] = i
        overlap = sum(weight[w] for w in q_terms & t) / q_weight if q_weight > 0 else 0.0
        if overlap >= heading_floor and not wants_quantity:
            # the heading it stands under names the rest of what is asked: "What training do I need to complete in
            # my first week?" / "Robot safety training" > "All new employees ... must complete the 2-hour Robot
            # Safety Fundamentals course on Wednesday of their first week" (a quantity question has heading_bonus)
            under = (q_terms & heading_terms[head]) - t
            overlap += heading_share * sum(weight[w] for w in under) / q_weight
        bonus = quantity_bonus if wants_quantity and HAS_QUANTITY.search(text) and not (
            wants_allotment and only_bounds(text)) else 0.0  # "if you are sick for more than 3 days" says when
        if wants_phone and PHONE.search(text):
            bonus += phone_bonus
        if wants_allotment and ALLOTMENT.search(text):
            bonus += allotment_bonus
        fit = case_fit(text, *case) if case else None
        if fit is False:  # a rule for another range of the quantity the question states
            bonus -= 2 * case_bonus
        elif fit and case_fit(text, *case, convert=False):  # ... or for its own, stated in its unit
            bonus += case_bonus
        if event and (source.label in in_event or (source.label, i) in stated):  # a rule for the asked event
            bonus += case_bonus
        if q_numbers and q_numbers & numbers(text) and fit is not False and not other_unit(q_units, text):
            bonus += number_bonus
        if data.kinds[i] == "row" and names_row_key(question, text):  # twice when a column is named too (a cell)
            bonus += row_key_bonus * (2 if names_row_column(question, text) else 1)
        if period and (source.date.startswith(year) or year in source.version if year else
                     source.status == "superseded"):
            bonus += period_bonus
        if (source.label, i) in examples:  # more so when a quantity is asked: the example's are its case's
            bonus -= example_penalty + (example_quantity_penalty if wants_quantity else 0.0)
        if (term and defines(term, text)) or names_role_holder(role, text):  # what a term is, who holds a role
            bonus += definition_bonus
        elif term and (other := defined_term(head.rstrip("?") + "?")) \
                and content_terms(other) != content_terms(term):  # an instance of another term: "What counts as
            bonus -= definition_bonus  # an incident" > "Sending Confidential data to the wrong person"
        if parts and other_part(question, head, asked=parts):
            bonus -= 2 * case_bonus  # under "Day 5 (Friday)" for "What happens on Day 3?": another part's
        elif parts and parts & numbered_parts(head):
            bonus += case_bonus  # under "Day 1 (Monday)" for "What time does my first day start?"
        if wants_clock and CLOCK.search(text):
            bonus += clock_bonus  # "9:00 a.m. – Arrive at reception", not "5 business days before your start date"
        heading = heading_terms[head] if wants_quantity else frozenset()
        if heading and heading <= q_terms:  # its section is about what is asked, nothing else
            bonus += heading_bonus
        score = float(c) + overlap_weight * overlap + bonus
        lead = lead_of(data, i) if wants_quantity and HAS_QUANTITY.search(text) else None
        if lead is not None and q_weight > 0:  # the item read with its lead-in: the lead-in names what it counts
            both = t | content_terms(data.texts[lead])
            granted = allotment_bonus if wants_allotment and not ALLOTMENT.search(text) and ALLOTMENT.search(
                data.texts[lead]) else 0.0  # "Annual leave accrues ...:" states the allotment its items count
            read = max(float(c), float(data.vectors[lead] @ q)) + overlap_weight * sum(
                weight[w] for w in q_terms & both) / q_weight + bonus + granted - lead_discount
            score = max(score, read)
        own = sum(idf[w] for w in t)
        precision = sum(idf[w] for w in t & q_terms) / own if own > 0 else 0.0
        scored.append(ScoredSentence(text, source.label, score, data.kinds[i], float(c), overlap, data.values[i], i,
                                     precision))
    if named := named_page_labels(candidates, q_terms):  # a sentence two pages state: the page about it first
        scored = [replace(s, score=v) for s, v in zip(scored, on_named_pages(
            [(s.text, s.label, s.score) for s in scored], named))]
    if event and event.negated:
        scored = failures_first(scored, event.stem)
    if contact_keys:
        scored = contacts_first(scored, contact_keys.items())
    scored.sort(key=lambda s: -s.score)
    return scored

