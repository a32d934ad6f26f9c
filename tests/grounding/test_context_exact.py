"""Fast paths of context planning give exactly what the slow paths give: token counts from a window around an edit,
escaping that skips texts without a character it could change (issue 20, bench_context's cold mode)."""

import random
from pathlib import Path

HANDBOOK = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "18f-handbook"
#: Characters around which cl100k's pieces start or run on (whitespace of each kind, punctuation, apostrophes,
#: digits, letters of other scripts), and the ones escaping changes.
ODD = list("ab cd  ef\n\n\t\r.,;:'s't'RE&<>[]【】0123456789\u00a0\u3000é漢字🙂-_()|/") + [" ", "a", "\n", "'", "s"]


def _paragraphs(limit: int = 3_000) -> list[str]:
    out = []
    for path in sorted(HANDBOOK.rglob("*.md")):
        out += [p.strip() for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    return out[:limit]


def _edited(rng: random.Random, text: str) -> str:
    """``text`` with one to three short stretches replaced by short runs of ODD characters."""
    for _ in range(rng.randrange(1, 4)):
        a = rng.randrange(len(text) + 1)
        b = min(len(text), a + rng.randrange(0, 4))
        text = text[:a] + "".join(rng.choice(ODD) for _ in range(rng.randrange(0, 5))) + text[b:]
    return text


def test_a_count_from_the_window_around_an_edit_equals_counting_the_edited_text():
    """raw_edited re-encodes only the window around each edit inside a changed line (token_pieces._raw_change); on
    every handbook paragraph and on random texts of odd characters, edited at random places, it gives the count of the
    edited text."""
    from grounding.token_pieces import _raw_change, raw_count, raw_edited

    rng = random.Random(20)
    paragraphs = _paragraphs()
    assert len(paragraphs) > 1_000
    texts = paragraphs + ["".join(rng.choice(ODD) for _ in range(rng.randrange(0, 60))) for _ in range(3_000)]
    changed = 0
    for old in texts:
        new = _edited(rng, old)
        changed += new != old
        assert raw_edited(old, raw_count(old), new) == raw_count(new), (old, new)
        assert raw_count(old) + _raw_change(old, new) == raw_count(new), (old, new)
    assert changed > 4_000
