"""Compatibility characters (full-width "ＦＹ２０２５", "＄５０") are compared in their NFKC form, offsets unchanged."""

from grounding.answer_types import typed_values as answer_values
from grounding.lexical import bm25_tokens, content_terms, nfkc_fold, tokens
from grounding.values import typed_values, value_keys

FULL = "The ＦＹ２０２５ meal allowance is ＄５０ per day."
ASCII = "The FY2025 meal allowance is $50 per day."


def test_nfkc_fold_reads_full_width_as_ascii_and_keeps_every_offset():
    assert nfkc_fold(FULL) == ASCII
    assert nfkc_fold("ｍｅａｌ\u3000ａｌｌｏｗａｎｃｅ？") == "meal allowance?"
    # a character whose NFKC form is longer is kept as written, so the length never changes
    assert nfkc_fold("ﬁve ½ days…") == "ﬁve ½ days…"
    assert nfkc_fold("plain ASCII") == "plain ASCII"


def test_tokens_of_full_width_text_are_ascii_words_at_the_stored_offsets():
    words = tokens(FULL)
    assert [w for w, _, _ in words] == [w for w, _, _ in tokens(ASCII)]
    fy = next((s, e) for w, s, e in words if w == "fy2025")
    assert FULL[fy[0]:fy[1]] == "ＦＹ２０２５"  # the offsets point at the text as stored and shown


def test_content_terms_bm25_tokens_and_values_match_the_ascii_text():
    assert content_terms(FULL) == content_terms(ASCII)
    assert bm25_tokens([FULL]) == bm25_tokens([ASCII])
    assert value_keys(FULL) == value_keys(ASCII) >= {"$50"}
    amount = next(v for v in typed_values(FULL) if v.kind == "amount:$")
    assert amount.number == 50 and FULL[amount.span[0]:amount.span[1]] == "＄５０"
    assert answer_values("＄５０ per day") == answer_values("$50 per day")
