"""Contradiction detection over the planned sources [18.8]: align sentences, then look for a value or polarity clash
about one subject.

    sources -> claims (grounding.claims: pysbd sentences, wrapped lines joined, headings left out, fragments joined)
      -> alignment (grounding.sentence_alignment): ONE embed call (the sentences and the question)
      -> source pairs: two documents, or a current version and a superseded version of one document (an old version
         is history against another document or another old version, not a disagreement of the sources)
      -> aligned sentence pairs (MiniLM cosine >= ``similarity``, or a lexical near-copy), those sharing most of the
         question's words first; a sentence the other source copies (cosine >= COPY) meets its copy only, and
         between two versions a sentence with a reworded counterpart (each the other's best match over the planned
         text of the other version, near-copies in words) meets that counterpart only
      -> rules on each aligned pair (grounding.clash): value mismatch, swapped name, negated predicate, antonym,
         negation cue; none between sentences about different subjects (grounding.subjects: "the meal allowance in
         Boston is $75" / "in Denver is $60"); between two versions, a counterpart reworded in a value or a negation
      -> per source pair the firmest finding (WEAK_RULES only when nothing firmer; between versions a reworded
         sentence counts as firm), the first of equals
      -> between a current version and the one before it, a change found by position (grounding.positional: names
         swapped in a passage rewritten between kept sentences, list items removed or added) when the pair has no
         finding, or the question is clearly closer to it (RELEVANCE_LEAD)
      -> versions: pairs with the newest superseded version first; a current sentence that a newer version copies
         or contradicts is not compared with older versions (a note compares with the version just before)
      -> optional LLM judge on the best unflagged candidate pairs only (at most ``max_judged`` calls)

Technique: the alignment-then-mismatch design of de Marneffe, Rafferty and Manning 2008 ("Finding Contradictions
in Text", ACL), whose contradiction classes grounding.clash covers with rules: numeric/date mismatch, negation on an
aligned predicate, antonymy, and the structural "same statement, different argument" case (functional relations,
Ritter et al. 2008, "It's a contradiction - no, it's not"). Sentence alignment uses Sentence-BERT cosine (Reimers and
Gurevych 2019); a bounded LLM judge on the top candidates follows the knowledge-conflict literature (Xie et al. 2024,
"Adaptive Chameleon or Stubborn Sloth", whose ConflictQA set ``manage.py conflict_eval`` measures). Which conflicts
become notes is grounding.notes.

Measured (``manage.py conflict_eval``, similarity 0.45, held-out half; in brackets before the subject rules and
version alignment): recall 0.820 (0.841) on ConflictQA (n=339), 0.970 (0.970) on RGB counterfactual pairs (n=101),
false flags 0.034 (0.052) on RAMDocs pairs of correct documents with the same answer (n=267). Notes (``relevant_notes``
over these conflicts, the offline answerer, 18F handbook with the golden set's revision files, calibration half):
16 of 118 answers carry a note, none of them false; before, 39 of 118, nearly all false.

Known limits: ConflictQA recall rests mostly on the negation-cue rule (about nine in ten of its hits), which is too
loose to make a note; claims that disagree without a value, a negation or an antonym ("raw carrots are better" /
"cooked carrots have more"), and revisions that reword a rule without a value, a condition or a swapped name, are
left to the judge (a passage rewritten in its place with other names, "1Password and KeePassX" / "KeePassXC", and a
list whose items changed are found by position: grounding.positional). Subjects are read
off the words (names, qualifiers, self-reference, dates), without a parser. A superseded version is compared only
when retrieval brings its passage: when the version just before the current one was not retrieved, an older one is.
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

from grounding.claims import claims
from grounding.claim_readings import ClaimReading
from grounding.clash import WEAK_RULES, Finding, clash_read
from grounding.conflict import Conflict, ConflictKind, newer_first, note_text, recency
from grounding.embeddings import Embedder
from grounding.lexical import content_terms
from grounding.positional import positional_finding
from grounding.rewording import as_cases, merged, reworded
from grounding.source_scope import scoped_apart
from grounding.sentence_alignment import COPY, REWORDED, Alignment, PairTest, align, same_document
from grounding.types import Source

__all__ = ["ALIGN_SIMILARITY", "COPY", "MAX_SOURCE_PAIRS", "RELEVANCE_LEAD", "REWORDED", "STRONG_MARGIN",
           "ConflictJudge", "PairTest", "claims", "detect_conflicts"]

#: An LLM judge: (sentence_a, sentence_b) -> one sentence explaining the conflict, or None when they agree.
ConflictJudge = Callable[[str, str], "str | None"]


#: Cosine (MiniLM sentence embeddings) at or above which two sentences are aligned (talk about the same thing).
#: Calibrated with ``manage.py conflict_eval --calibrate`` on the calibration half of ConflictQA, RGB and RAMDocs
#: (the held-out half is reported in the README).
ALIGN_SIMILARITY = 0.45

#: Values with no shared neighbouring word are compared only on sentences aligned this much above ``similarity``
#: (on the demo handbook, "return your old laptop within 14 days" / "ships 5 business days before your start" at
#: cosine 0.55 are different deadlines, not a conflict).
STRONG_MARGIN = 0.1

#: Between two versions of one document, a change as firm as the pair's first finding replaces it when the question
#: is this much closer to its sentences (cosine): a clearly better match, not a tie broken by noise.
RELEVANCE_LEAD = 0.1
#: Source pairs examined at most (10 planned sources make 45 pairs).
MAX_SOURCE_PAIRS = 45


def _firmness(finding: Finding, versions: bool = False) -> int:
    """2 for a firm rule (a value, a name, a negated predicate, an antonym), 1 for a reworded sentence of a revision
    (2 between a current version and the one before it: the rewritten sentence sharing most of the question's words
    is the change asked about, not a firm clash elsewhere on the page), 0 for a weak rule (grounding.clash)."""
    return 0 if finding.rule in WEAK_RULES else 1 if finding.rule == "reworded" and not versions else 2


def _firmer(finding: Finding, relevance: float, kept: tuple, versions: bool) -> bool:
    """True when ``finding`` (the question's cosine to its closer sentence: ``relevance``) replaces the pair's kept
    finding ``kept`` (as _findings stores it): it is firmer, or, between a current version and the one just before it,
    as firm and about the question clearly more (by RELEVANCE_LEAD): of two changes a revision made on one page, the
    note reports the one the question is about ("What happens to my comp time when it expires?" is about "When you
    reach the expiration date, what happens depends on whether you are exempt", not about "If you leave GSA, your comp
    time will follow the parameters above", which shares more of its words). Otherwise the first of equals stays (the
    sentences sharing most of the question's words come first)."""
    mine, theirs = _firmness(finding, versions), _firmness(kept[0], versions)
    return mine > theirs or (versions and mine == theirs and relevance >= kept[4] + RELEVANCE_LEAD)


def _version_rank(s: Source, t: Source) -> tuple:
    """Sort key of a source pair: pairs of a current and a superseded version of one document first, the newer
    superseded version first (by date, then by version id); every other pair after them, in its given order."""
    if s.document_id != t.document_id or (s.status == "superseded") == (t.status == "superseded"):
        return (1,)
    old = s if s.status == "superseded" else t
    return (0, s.document_id, recency(old.date), -(old.version_id or 0))


def detect_conflicts(
    sources: Sequence[Source],
    embedder: Embedder,
    *,
    similarity: float = ALIGN_SIMILARITY,
    max_pairs: int = MAX_SOURCE_PAIRS,
    judge: ConflictJudge | None = None,
    max_judged: int = 5,
    focus: str = "",
    sentences: Sequence[Sequence[str]] | None = None,
    concerns: PairTest | None = None,
    readings: Mapping[str, ClaimReading] | None = None,
) -> list[Conflict]:
    """Find contradictions between planned sources [18.8].

    Args:
        sources: the planned sources (any order; about 10 sources and 100 sentences is the expected size).
        embedder: sentence embedder; called once with every sentence of every source, and the question when
            ``focus`` is given (L2-normalised float32 rows).
        similarity: cosine at or above which two sentences of different sources are aligned (0 < similarity <= 1).
        max_pairs: source pairs examined at most, those with the best-aligned sentences first (>= 0).
        judge: optional LLM judge, (sentence_a, sentence_b) -> one-sentence explanation or None; called only on the
            best aligned sentence pair of source pairs the rules did not flag, best first.
        max_judged: judge calls at most (>= 0).
        focus: the question; within a source pair, clashes in sentences sharing more of its content words are
            examined first, so the conflict reported for the pair is the one the reader asked about.
        sentences: each source's :func:`claims` when already known (split at ingestion), in ``sources`` order;
            None: split here.
        concerns: an optional test of an aligned sentence pair (grounding.notes.Concerns: both sentences' content
            words, their cosine, the question's cosine to the closer one, whether they come from two versions of
            one document): pairs it rejects are not examined by the rules nor offered to the judge. None: every
            aligned pair is examined.
        readings: what the rules read of each sentence, made at ingestion and stored with the chunks (sentence ->
            grounding.claim_readings.ClaimReading); a sentence not in it is read from its text here (cached).
    Returns:
        at most one Conflict per source pair (its best-aligned clash), sorted by the labels' numbers. Sources of the
        same document version (same document_id and version_id) are never paired. Two versions of one document
        with one superseded give kind "version_superseded".
    Raises:
        ValueError: similarity outside (0, 1], negative max_pairs or max_judged, duplicate labels.
    Cost: one embed call, one (n_sentences x n_sentences) matrix product, rules on the aligned pairs ``concerns``
    keeps only.
    """
    if not 0 < similarity <= 1:
        raise ValueError(f"similarity must be in (0, 1], got {similarity}")
    if max_pairs < 0 or max_judged < 0:
        raise ValueError(f"max_pairs and max_judged must be >= 0, got {max_pairs} and {max_judged}")
    labels = [s.label for s in sources]
    if len(set(labels)) != len(labels):
        raise ValueError(f"duplicate source labels in {labels}")
    def compared(i: int, j: int) -> bool:
        """A superseded version is compared with a current version of its own document only: what it says against
        another document, or against another old version, is history, not a disagreement of the sources."""
        if (sources[i].document_id, sources[i].version_id) == (sources[j].document_id, sources[j].version_id):
            return False
        old = [sources[k].status == "superseded" for k in (i, j)]
        return not any(old) or (same_document(sources, i, j) and not all(old))

    pairs = [(i, j) for i in range(len(sources)) for j in range(i + 1, len(sources)) if compared(i, j)]
    if not pairs or max_pairs == 0:
        return []
    alignment = align(sources, pairs, embedder, similarity=similarity, focus=focus, concerns=concerns,
                      readings=readings,
                      sentences=sentences if sentences is not None else [claims(s.text) for s in sources])
    if alignment is None:
        return []
    found, unflagged = _findings(sources, alignment, similarity, max_pairs)
    if judge is not None and max_judged:
        for score, pair, sa, sb in sorted(unflagged, key=lambda t: (-t[0], t[1]))[:max_judged]:
            explanation = judge(sa, sb)
            if explanation:
                found[pair] = (Finding("judged", ("", ""), explanation, rule="judged"), score, sa, sb, 0.0)
    return _conflicts(sources, found)


def _findings(sources: Sequence[Source], alignment: Alignment, similarity: float, max_pairs: int) -> tuple[dict, list]:
    """The rules on the aligned sentence pairs of the best-aligned ``max_pairs`` source pairs (grounding.clash).

    Returns (found, unflagged): found maps a source pair to (its firmest Finding, the pair's cosine, sentence of i,
    sentence of j, the question's cosine to the closer sentence), the first of equals; unflagged lists (cosine, source
    pair, sentence of i, sentence of j) of the best candidate of each pair no rule flagged, for the judge.
    """
    aligned, sentences, read = alignment.aligned, alignment.sentences, alignment.read
    ranked = sorted(aligned, key=lambda p: (-aligned[p][0][0], p))[:max_pairs]
    # A version note compares the current version with the version just before it: pairs of a current and a
    # superseded version go first, the newest superseded version first, and a current sentence that a newer
    # version already states (a copy) or contradicts is not compared with older versions.
    ranked.sort(key=lambda p: _version_rank(sources[p[0]], sources[p[1]]))
    decided: dict[int, set[int]] = {}  # current source -> its sentences already settled by a newer version

    found: dict[tuple[int, int], tuple[Finding, float, str, str, float]] = {}
    unflagged: list[tuple[float, tuple[int, int], str, str]] = []
    for pair in ranked:
        i, j = pair
        two_versions = same_document(sources, i, j)
        current = i if sources[i].status != "superseded" else j
        newest_first = two_versions and sources[current].status != "superseded" \
            and "superseded" in (sources[i].status, sources[j].status)
        earlier = decided.get(current, set()) if newest_first else set()
        candidates = [t for t in aligned[pair] if (t[1] if current == i else t[2]) not in earlier]
        settled = set(alignment.copies[(current, j if current == i else i)]) if newest_first else set()
        for score, a, b in candidates:
            sa, sb = sentences[i][a], sentences[j][b]
            lead_row = None  # the row of an old lead-in quoted with its items (grounding.rewording.as_cases)
            finding = clash_read(read[alignment.row(i, a)], read[alignment.row(j, b)],
                                 strong=score >= similarity + STRONG_MARGIN, versions=two_versions)
            if finding is not None and finding.rule == "name" and not two_versions \
                    and _own_subjects(sources[i], sources[j], finding.values):
                finding = None  # each page states it of what the page is about: two subjects
            if finding is not None and not two_versions and scoped_apart(
                    sources[i].title, sources[i].section, sa, sources[j].title, sources[j].section, sb):
                finding = None  # pages for two groups ("Sales Team Guide" / "Engineering Team Guide"): two subjects
            if finding is None and newest_first and (a, b) in alignment.counterparts.get(pair, ()):
                # a revision that rewrote a sentence it kept changed what the sentence says
                changed = reworded(sa, sb)
                if changed and (merged(sentences[i], a, sentences[j], b) or merged(sentences[j], b, sentences[i], a)):
                    changed = None  # the revision joined or split sentences: nothing of substance changed
                if not changed:  # an old list item read with the lead-in that made it a case of a condition
                    if current == i:
                        sb, changed, lead = as_cases(sa, sentences[j], b)
                        lead_row = alignment.row(j, lead) if changed else None
                    else:
                        sa, changed, lead = as_cases(sb, sentences[i], a)
                        lead_row = alignment.row(i, lead) if changed else None
                finding = Finding("value_mismatch", changed, rule="reworded") if changed else None
            if finding and finding.rule not in WEAK_RULES:
                settled.add(a if current == i else b)
            if finding:
                relevance = max(float(alignment.asked[alignment.row(i, a)]),
                                float(alignment.asked[alignment.row(j, b)]),
                                float(alignment.asked[lead_row]) if lead_row is not None else 0.0)
                if pair not in found or _firmer(finding, relevance, found[pair], newest_first):
                    found[pair] = (finding, score, sa, sb, relevance)  # the firmest finding of the pair
            if pair in found and _firmness(found[pair][0]) == 2 and not newest_first:
                break
        if newest_first:  # a passage rewritten in its place, or a list whose items changed (grounding.positional)
            other = j if current == i else i
            by_place = positional_finding(alignment, current, other, sources[current].text, sources[other].text)
            if by_place and current != i:
                finding, score, sa, sb, relevance = by_place
                by_place = (Finding(finding.kind, finding.values[::-1], rule=finding.rule), score, sb, sa, relevance)
            if by_place and (pair not in found or _firmer(by_place[0], by_place[4], found[pair], True)):
                found[pair] = by_place
        if newest_first:
            decided.setdefault(current, set()).update(settled)
        if pair not in found and candidates:
            score, a, b = candidates[0]
            unflagged.append((score, pair, sentences[i][a], sentences[j][b]))
    return found, unflagged


def _own_subjects(a: Source, b: Source, names: tuple[str, str]) -> bool:
    """True when each of two swapped ``names`` (grounding.name_swap) is named by its own source's title or section
    path and not by the other's: "You can use Docusign templates for Paid Parental Leave" on the paid parental leave
    page and "... for VLTP" on the leave transfer program's page state one rule of two programs (the issue's rule:
    different subjects are no contradiction; fresh35's f35-u04, a development set, had that note)."""
    own_a, own_b = (content_terms(f"{s.title}\n{s.section}") for s in (a, b))
    name_a, name_b = content_terms(names[0]), content_terms(names[1])
    return bool(name_a and name_b) and name_a <= own_a and name_b <= own_b \
        and not name_a <= own_b and not name_b <= own_a


def _conflicts(sources: Sequence[Source], found: dict) -> list[Conflict]:
    """One Conflict per source pair of ``found`` (see _findings), the newer source first, sorted by label numbers."""
    conflicts: list[Conflict] = []
    for (i, j), (finding, score, sa, sb, relevance) in found.items():
        first, second = newer_first(sources[i], sources[j])
        if first is not sources[i]:
            sa, sb = sb, sa
            finding = Finding(finding.kind, (finding.values[1], finding.values[0]), finding.explanation, finding.rule)
        kind: ConflictKind = finding.kind
        if first.document_id == second.document_id and "superseded" in (first.status, second.status):
            kind = "version_superseded"
        conflicts.append(Conflict(labels=(first.label, second.label), kind=kind,
                                  text=note_text(first, second, finding, sa, sb), sentences=(sa, sb),
                                  values=finding.values, similarity=round(score, 4), rule=finding.rule,
                                  relevance=round(relevance, 4)))
    conflicts.sort(key=lambda c: tuple(sorted(int(x[1:]) for x in c.labels)))
    return conflicts
