"""Sentences of two versions of one document paired by where they stand, for version notes
(grounding.contradictions): a revision that rewrites a passage between sentences it kept puts its new sentences in
the place of the old ones, however little their words or meaning overlap.

    current sentences, old sentences -> unchanged sentences (the same words) as anchors (difflib over the sequences)
      -> gaps: a run of current sentences and a run of old sentences standing between the same unchanged neighbours
         (an unchanged sentence before and after on both sides; a passage at the edge of a planned chunk is no gap)
      -> rewritten: a current and an old sentence of one gap, the pair the question is closest to, that swap names
         ("We recommend using KeePassXC" / "1Password and KeePassX are password managers approved for work at 18F")
      -> list_change: the list items under a lead-in (a sentence ending with ":") that one version has and the other
         lacks: items removed and added under a kept lead-in, or a whole list deleted next to a kept sentence
         ("Password managers approved for work at GSA: - KeePassXC - Google Sheets", 2022 -> now)

Technique: the positional alignment of a line diff (difflib, Ratcliff-Obershelp) applied to sentences. No Django.
"""

from __future__ import annotations

import difflib
import functools
from typing import Callable, Sequence

from grounding.lexical import TOKEN, fold_accents
from grounding.clash import Finding
from grounding.rewording import merged, owner_renamed, reworded, word_key
from grounding.sentence_alignment import Alignment

__all__ = ["ITEM_MARKS", "POSITIONAL_RULES", "Gap", "gaps", "list_change", "positional_finding", "renamed", "rewritten"]

#: A gap: (the current sentences' indices, the old sentences' indices) between the same unchanged neighbours.
Gap = tuple[range, range]

#: How a list item's sentence starts, as the sentence store keeps it ("- KeePassXC").
ITEM_MARKS = ("- ", "* ", "+ ")
#: Share of two sentences' tokens in common (difflib's ratio) from which an editorial rewording is one sentence kept.
KEPT_RATIO = 0.75
#: The rules of this module: a sentence rewritten in its place, and a list whose items changed.
POSITIONAL_RULES = frozenset({"rewritten", "list"})


@functools.lru_cache(maxsize=4096)
def _key(sentence: str) -> tuple[str, ...]:
    """A sentence as compared for being unchanged: its tokens, case and accents aside (cached: a gap's kept pairs
    compare each sentence with every other, :func:`_counterparts`)."""
    return tuple(word_key(m.group(0)) for m in TOKEN.finditer(fold_accents(sentence)))


def gaps(current: Sequence[str], old: Sequence[str]) -> list[Gap]:
    """The runs of ``current`` and ``old`` sentences that stand between the same unchanged neighbours (the same
    tokens before and after, on both sides); a run may be empty on one side (a passage added or deleted). Runs at
    the start or end of either sequence are left out: what stood beyond a planned chunk is not known."""
    ops = difflib.SequenceMatcher(None, [_key(x) for x in current], [_key(x) for x in old],
                                  autojunk=False).get_opcodes()
    return [(range(i1, i2), range(j1, j2)) for tag, i1, i2, j1, j2 in ops
            if tag != "equal" and 0 < i1 and i2 < len(current) and 0 < j1 and j2 < len(old)]


def _is_item(sentence: str) -> bool:
    return sentence.lstrip().startswith(ITEM_MARKS)


def _name_like(word: str, first: bool) -> bool:
    """A name: capitalised (after a sentence's first word), or with a capital inside ("KeePassXC", "1Password")."""
    return (word[:1].isupper() and not first) or any(ch.isupper() for ch in word[1:])


def renamed(a: str, b: str) -> tuple[str, str] | None:
    """(the words of a, the words of b) from the first to the last changed word when each sentence has a name among
    its changed words that the other lacks ("We recommend using KeePassXC which is open source" / "1Password and
    KeePassX are password managers approved"), else None: a name only added or only dropped is a rewording."""
    fa, fb = fold_accents(a), fold_accents(b)
    ma, mb = list(TOKEN.finditer(fa)), list(TOKEN.finditer(fb))
    ta, tb = [word_key(m.group(0)) for m in ma], [word_key(m.group(0)) for m in mb]
    ops = [op for op in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes() if op[0] != "equal"]
    if owner_renamed([m.group(0) for m in ma], [m.group(0) for m in mb], ops):
        return None  # "your TTS accounts" / "your 18F accounts": whose accounts (grounding.rewording.owner_renamed)
    if not ops or not any(_name_like(ma[k].group(0), k == 0) and ta[k] not in tb
                          for _, i1, i2, _, _ in ops for k in range(i1, i2)) \
            or not any(_name_like(mb[k].group(0), k == 0) and tb[k] not in ta
                       for _, _, _, j1, j2 in ops for k in range(j1, j2)):
        return None
    i1, i2 = min(op[1] for op in ops), max(op[2] for op in ops)
    j1, j2 = min(op[3] for op in ops), max(op[4] for op in ops)
    return a[ma[i1].start():ma[i2 - 1].end()], b[mb[j1].start():mb[j2 - 1].end()]


def _prose(sentence: str) -> bool:
    """A sentence of running text: no list item, no lead-in ending with ":", no heading (a sentence ends with a
    full stop, "!", "?" or a closing parenthesis)."""
    text = sentence.rstrip()
    return not _is_item(text) and text[-1:] in ".!?)" and len(text.split()) >= 3


def _counterparts(current: Sequence[str], a: int, old: Sequence[str], b: int) -> bool:
    """True when ``current[a]`` is ``old[b]`` kept: mostly its words (``KEPT_RATIO`` of their tokens, difflib's
    ratio), or those of ``old[b]`` joined with a neighbour (or of ``current[a]`` joined with one: split in two),
    reworded in no substance (grounding.rewording.reworded) and with no name swapped (:func:`renamed`)."""
    def kept(x: str, y: str) -> bool:
        return difflib.SequenceMatcher(None, _key(x), _key(y), autojunk=False).ratio() >= KEPT_RATIO \
            and reworded(x, y) is None and renamed(x, y) is None

    def joined(seq: Sequence[str], k: int) -> list[str]:
        return [f"{seq[k - 1]} {seq[k]}"] * (k > 0) + [f"{seq[k]} {seq[k + 1]}"] * (k + 1 < len(seq))

    return kept(current[a], old[b]) or any(kept(current[a], y) for y in joined(old, b)) \
        or any(kept(x, old[b]) for x in joined(current, a))


def rewritten(current: Sequence[str], old: Sequence[str], gap: Gap,
              weight: Callable[[int, int], float]) -> list[tuple[int, int, tuple[str, str]]]:
    """The sentence pairs of a gap that are one passage rewritten, heaviest first (``weight`` of a current and an
    old index: how much the question is about the pair): sentences of running text (:func:`_prose`) that swap names
    (:func:`renamed`), not two sentences a revision joined or split (grounding.rewording.merged): (current index,
    old index, what changed). A value or a negation changed between two sentences of a gap is no rewrite by itself:
    a revision that dropped one rule and added another in its place ("up to 13 days (104 hours) ... for
    bereavement" / "if approved for FMLA, ... up to 12 weeks") states two rules, not one rewritten."""
    now = [a for a in gap[0] if _prose(current[a])]
    was = [b for b in gap[1] if _prose(old[b])]
    # a sentence the revision kept (joined with a neighbour, split in two or reworded in no substance) is paired with
    # its own counterpart, not read as another sentence rewritten: "Make sure to select the Transit Coordinator ...
    # - this information is listed in the online form" (two old sentences joined) is no rewrite of "Use TTS (T) or
    # 18F (TE) as your organizational code" beside them (fresh36's f36-a05)
    kept = [(a, b) for a in gap[0] for b in gap[1] if _counterparts(current, a, old, b)]
    kept_now, kept_was = {a for a, _ in kept}, {b for _, b in kept}
    out = []
    for a, b in sorted(((a, b) for a in now for b in was), key=lambda p: -weight(*p)):
        if a in kept_now or b in kept_was:
            continue  # a sentence kept, beside its own counterpart
        if merged(current, a, old, b) or merged(old, b, current, a):
            continue  # the revision joined two sentences into one, or split one in two
        changed = renamed(current[a], old[b])
        if changed:
            out.append((a, b, changed))
    return out


def _bare(item: str) -> str:
    return item.strip().lstrip("-*+ ").strip()


def list_items(text: str, lead: str) -> list[str]:
    """The list items written right after the line of ``text`` that ends with the lead-in ``lead`` (blank lines
    between them aside), without their marks; [] when no line ends with it. Read from the text: a one-word item
    ("- KeePassXC") is no sentence of its own (grounding.claims)."""
    key = _key(lead)
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if key and line.rstrip().endswith(":") and _key(line)[-len(key):] == key:
            items = []
            for later in lines[n + 1:]:
                if later.strip() and not _is_item(later):
                    break
                if later.strip():
                    items.append(_bare(later))
            return items
    return []


def list_change(current: Sequence[str], old: Sequence[str], current_text: str, old_text: str
                ) -> tuple[int, str, str] | None:
    """A list a revision changed: (the old lead-in's index, the items removed, the items added, each joined with
    "; ") for the first lead-in of the old version (a sentence ending with ":" followed by list items in
    ``old_text``) whose items the current version changed: under the same lead-in, items removed or added; a
    lead-in the current version lacks, with a sentence kept right after its list or right before it (the list
    was deleted in its place), every item no current list holds. None when no list changed."""
    keys = {_key(x) for x in current}
    current_items = {_key(line.strip().lstrip("-*+ ").strip()) for line in current_text.splitlines()
                     if _is_item(line)}
    for k, lead in enumerate(old):
        if not lead.rstrip().endswith(":") or _is_item(lead):
            continue
        was = list_items(old_text, lead)
        if not was:
            continue
        if _key(lead) in keys:
            now = list_items(current_text, lead)
            removed = [x for x in was if _key(x) not in {_key(y) for y in now}]
            added = [x for x in now if _key(x) not in {_key(y) for y in was}]
        else:
            after = next((x for x in old[k + 1:] if not _is_item(x)), None)
            kept = (after is not None and _key(after) in keys) or (k > 0 and _key(old[k - 1]) in keys)
            removed = [x for x in was if _key(x) not in current_items] if kept else []
            added = []
        if removed or added:
            return k, "; ".join(removed), "; ".join(added)
    return None


def positional_finding(alignment: Alignment, current: int, old: int, current_text: str, old_text: str
                       ) -> tuple[Finding, float, str, str, float] | None:
    """The change between sources ``current`` and ``old`` (two versions of one document) found by position, the one
    the question is closest to (its cosine to the changed sentences, ``alignment.asked``): (Finding with rule
    "rewritten" or "list" and its values in (current, old) order, the pair's cosine, the current side, the old side,
    that relevance); None when no gap holds a rewritten sentence or a changed list. A list's sides are both its
    old lead-in; its values are the items added and the items removed (read from the sources' texts,
    ``current_text`` and ``old_text``: :func:`list_items`)."""
    now, was = alignment.sentences[current], alignment.sentences[old]
    if alignment.cosine is None or not now or not was:
        return None

    def row_now(a: int) -> int:
        return alignment.row(current, a)

    def row_was(b: int) -> int:
        return alignment.row(old, b)

    def cosine(a: int, b: int) -> float:
        return float(alignment.cosine[row_now(a), row_was(b)])

    def asked(a: int, b: int) -> float:  # the question's cosine to both sentences, then theirs to each other
        return float(alignment.asked[row_now(a)] + alignment.asked[row_was(b)]) + 0.01 * cosine(a, b)

    best = None
    for gap in gaps(now, was):
        for a, b, changed in rewritten(now, was, gap, asked)[:1]:
            relevance = max(float(alignment.asked[row_now(a)]), float(alignment.asked[row_was(b)]))
            if best is None or relevance > best[4]:
                best = (Finding("value_mismatch", changed, rule="rewritten"), cosine(a, b), now[a], was[b], relevance)
    listed = list_change(now, was, current_text, old_text)
    if listed:
        lead, removed, added = listed
        relevance = float(alignment.asked[row_was(lead)])
        if best is None or relevance > best[4]:
            best = (Finding("value_mismatch", (added, removed), rule="list"), 0.0, was[lead], was[lead], relevance)
    return best
