"""A revision's rewording of a sentence it kept: what changed, when the change is one of substance (a value, a
negation or a condition added, dropped or changed), for version notes (grounding.contradictions, grounding.clash).
No Django imports."""

from __future__ import annotations

import difflib
from typing import Sequence

from grounding.lexical import STOP_WORDS, TOKEN, fold_accents, is_negation

__all__ = ["as_cases", "conditional", "merged", "owner_of_noun", "owner_renamed", "reworded", "word_key"]

#: Typographic apostrophes read as the ASCII one: "GSA’s" and "GSA's" (a page and its copy typed with other quotes)
#: are one word, not a swapped name.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


def word_key(token: str) -> str:
    """A token as compared: lower-cased, typographic apostrophes read as the ASCII one."""
    return token.lower().translate(_APOSTROPHES)


#: How a list item's sentence starts, as the sentence store keeps it ("- If you are exempt: ...").
_ITEM_MARKS = ("- ", "* ", "+ ")

#: Longest span (words) a reworded note quotes from each side; a longer change is cut with "…".
_MAX_REWORDED = 16


#: Words that make a statement hold only under a condition: a revision adding or dropping one changes who the
#: rule applies to ("your comp time will be paid out" / "... either forfeited or paid out, depending on your
#: exemption status", the 18F overtime page, 2023 -> 2024).
_CONDITIONS = frozenset({"depending", "depends", "depend", "whether", "unless", "either"})


def conditional(text: str) -> bool:
    """True when ``text`` holds a condition word ("depends", "whether", "unless", ...: _CONDITIONS): what it states
    holds only in some cases ("what happens depends on whether you are an exempt or non-exempt employee:")."""
    return any(word_key(m.group(0)) in _CONDITIONS for m in TOKEN.finditer(fold_accents(text)))


#: Possessive determiners: a name between one and a common noun says whose thing the noun is ("your TTS accounts").
_POSSESSIVES = frozenset("your my our their his her its".split())


def owner_of_noun(lower: Sequence[str], tokens: Sequence[str], i1: int, i2: int) -> bool:
    """True when the place ``i1:i2`` stands between a possessive determiner and a word in lower case ("your *TTS*
    accounts"): the name says whose thing the noun is, and the same sentence of another owner ("your 18F accounts",
    a revision that renamed the organisation) is said of another subject, not with another value (fresh3's f3024 and
    fresh40's f40-m10 noted "S2 says 18F" against the whole sentence). The issue's rule: different subjects are not a
    contradiction."""
    return 0 < i1 and i2 < len(tokens) and lower[i1 - 1] in _POSSESSIVES and tokens[i2][:1].islower()


def owner_renamed(a: Sequence[str], b: Sequence[str], ops: Sequence[tuple[str, int, int, int, int]]) -> bool:
    """True when two sentences' tokens (``a``, ``b``, as written) differ in one place only (``ops``: difflib's
    opcodes other than "equal", over the lower-cased tokens) and that place names, on both sides, whose thing the
    noun after it is (:func:`owner_of_noun`): "your TTS accounts" / "your 18F accounts"."""
    if len(ops) != 1:
        return False
    _, i1, i2, j1, j2 = ops[0]
    return owner_of_noun([word_key(t) for t in a], a, i1, i2) and owner_of_noun([word_key(t) for t in b], b, j1, j2)


def reworded(a: str, b: str) -> tuple[str, str] | None:
    """(the words of a, the words of b) that a revision changed in a sentence it kept, when the change adds, drops or
    changes a value or a negation; None for an editorial rewording.

    For two versions of one sentence ("If you leave GSA, your comp time will be paid out." / "If you leave GSA, your
    comp time will follow the parameters above: either forfeited or paid out, depending on your exemption status.")
    the span from the first to the last changed token on each side ("be paid out" / "follow the parameters above:
    either forfeited or paid out, depending on your exemption status"), as written, at most 16 words (cut with "…").
    A change without a value (a number or a code with digits), a negation or a condition word (_CONDITIONS) among the
    changed words is editorial ("Employees can take up to 13 days" / "You can use up to 13 days"): no finding.
    """
    fa, fb = fold_accents(a), fold_accents(b)
    ma, mb = list(TOKEN.finditer(fa)), list(TOKEN.finditer(fb))
    ta = [word_key(m.group(0)) for m in ma]
    tb = [word_key(m.group(0)) for m in mb]
    ops = [op for op in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes() if op[0] != "equal"]

    def content(words: Sequence[str]) -> bool:
        return any(w not in STOP_WORDS and w[0].isalnum() for w in words)

    changed = [op for op in ops if content(ta[op[1]:op[2]]) or content(tb[op[3]:op[4]])]
    if not changed:
        return None
    if owner_renamed([m.group(0) for m in ma], [m.group(0) for m in mb], ops):
        return None  # "your TTS accounts" / "your 18F accounts": whose accounts, not a value changed
    # a change of what the sentence states adds, drops or changes a value (a number, a code such as "18F" or
    # "Code 51") or a negation; other rewordings are editorial ("Employees can take" / "You can use", "Employees are
    # entitled to use their earned leave" / "you can also use leave"), however many words they change
    touched = [w for op in changed for w in ta[op[1]:op[2]] + tb[op[3]:op[4]]]
    if not any(any(ch.isdigit() for ch in w) or is_negation(w) or w in _CONDITIONS for w in touched):
        return None
    i1, i2 = min(op[1] for op in changed), max(op[2] for op in changed)
    j1, j2 = min(op[3] for op in changed), max(op[4] for op in changed)

    def span(text: str, marks: list, lo: int, hi: int) -> str:
        if hi <= lo:
            return ""
        end = marks[hi - 1].end()
        while end < len(text) and text[end] in ")]" and text.count("(", marks[lo].start(), end) + text.count(
                "[", marks[lo].start(), end) > text.count(")", marks[lo].start(), end) + text.count(
                "]", marks[lo].start(), end):
            end += 1  # close a parenthesis the span opened: "TTS (T) or 18F (TE)"
        words = text[marks[lo].start():end].split()
        return " ".join(words[:_MAX_REWORDED]) + (" …" if len(words) > _MAX_REWORDED else "")

    sa, sb = span(a, ma, i1, i2), span(b, mb, j1, j2)
    return (sa, sb) if sa and sb else None


def merged(one: Sequence[str], m: int, other: Sequence[str], n: int) -> bool:
    """True when sentence ``one[m]`` states what ``other[n]`` states together with a sentence next to it (the one
    before or after), with no substantive rewording (:func:`reworded`): a revision that joined two sentences into
    one (or split one in two) changed nothing of substance, though ``one[m]`` holds a negation or a
    number ``other[n]`` lacks ("You are not required to stay late, but if you are in a productive headspace ..., you
    can ask your supervisor about working 1 more hour" / "You are not required to stay late, but you are in a
    productive headspace ..." + "You can talk to your supervisor and ask to work 1 more hour")."""
    for k in (n - 1, n + 1):
        if 0 <= k < len(other):
            joined = f"{other[k]} {other[n]}" if k < n else f"{other[n]} {other[k]}"
            if reworded(one[m], joined) is None:
                return True
    return False


def as_cases(now: str, old: Sequence[str], k: int) -> tuple[str, tuple[str, str] | None, int]:
    """The old version's item ``old[k]`` read as one case of a condition its lead-in states, against the current
    sentence ``now``: (the old side to quote, what changed, the lead-in's index), or (``old[k]``, None, k) when
    ``old[k]`` is no list item after a lead-in ending with a colon that states a condition ("depends on whether":
    :func:`conditional`), when ``now`` is itself a list item, or when the lead-in with the other items is no
    substantive rewording of ``now`` (:func:`reworded`). A revision that states one case for everyone ("When you
    reach the expiration date, you will forfeit the leave.") dropped the condition its old lead-in set ("... what
    happens depends on whether you are an exempt or non-exempt employee:" with "- If you are exempt: you will
    forfeit the leave." and "- If you are non-exempt: you will be paid out the hours"): the note quotes the lead-in
    with the other items (the cases the current sentence no longer states); an item without siblings is read
    alone."""
    if not old[k].lstrip().startswith(_ITEM_MARKS):
        return old[k], None, k
    start = k
    while start > 0 and old[start].lstrip().startswith(_ITEM_MARKS):
        start -= 1
    lead = old[start]
    if lead.lstrip().startswith(_ITEM_MARKS) or not lead.rstrip().endswith(":") \
            or not conditional(lead) or now.lstrip().startswith(_ITEM_MARKS):
        return old[k], None, k
    end = k
    while end + 1 < len(old) and old[end + 1].lstrip().startswith(_ITEM_MARKS):
        end += 1
    others = [x.strip().lstrip("-*+ ").strip() for n, x in enumerate(old[start + 1:end + 1], start + 1) if n != k]
    if not others:
        return old[k], None, k
    cases = " ".join([lead.strip()] + others)  # the cases the current sentence no longer states
    changed = reworded(now, cases)
    return (cases, changed, start) if changed else (old[k], None, k)
