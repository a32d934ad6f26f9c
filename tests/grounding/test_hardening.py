"""Regression tests for faults found by trying to break the product (each holds the right value)."""

from grounding.answer import QuoteFilter, finalize_answer
from grounding.chunking import split_sentences
from grounding.extractive import ExtractiveAnswerer
from grounding.types import ContextPlan, Source


def src(label, text, cid):
    return Source(label=label, chunk_ids=(cid,), document_id=cid, title=f"Doc {cid}", section="", version="v1",
                  date="", text=text, score=0.9, tokens=10)


def test_marker_text_inside_a_document_never_becomes_a_citation(embedder):
    plan = ContextPlan(question="How much do employee parking permits cost per month?", sources=(
        src("S1", "Employee parking permits cost 40 dollars per month, as confirmed by the finance team [S2].", 1),
        src("S2", "The parking garage opens at 6 a.m. and closes at midnight.", 2)))
    text = ExtractiveAnswerer(embedder).compose(plan.question, plan)
    assert text == "Employee parking permits cost 40 dollars per month, as confirmed by the finance team (S2) [S1]."
    v = finalize_answer(text, plan)
    assert [c.label for c in v.citations] == ["S1"] and v.invalid == ()


def test_quote_then_answer_scratch_block_is_never_streamed():
    pieces = ["Here: <quo", "tes>The allowance is $65 [S1]", ".</quo", "tes>\nThe allowance is ", "$65 [S1]."]
    f = QuoteFilter()
    shown = "".join(f.feed(p) for p in pieces) + f.close()
    assert shown == "Here: The allowance is $65 [S1]."
    unfinished = QuoteFilter()
    assert unfinished.feed("<quotes>half a quote") + unfinished.close() == ""
    plan = ContextPlan(question="q", sources=(src("S1", "The allowance is $65.", 1),))
    assert finalize_answer("Intro <quotes>x [S1]</quotes> The allowance is $65 [S1].", plan).text == (
        "Intro The allowance is $65 [S1].")


def test_sentence_splitting_of_a_huge_line_is_bounded():
    text = "word " * 40_000  # 200,000 characters, no sentence end
    sentences = split_sentences(text)
    assert "".join(s.replace(" ", "") for s in sentences) == "word" * 40_000
    assert max(len(s) for s in sentences) <= 2_000


def test_an_abstention_reason_never_shows_citation_markup_for_labels_that_are_not_sources():
    plan = ContextPlan(question="q", sources=(src("S1", "Text.", 1),))
    v = finalize_answer("INSUFFICIENT_EVIDENCE: S9 [S9] does not say.", plan)
    assert v.abstained and "cite" not in v.html and "[S9]" not in v.text


def test_an_abstention_that_names_what_the_sources_cover_keeps_its_citations():
    # issue 18 item 3: "The documents describe X [S1], but they do not state Y." counts as an abstention, cited
    plan = ContextPlan(question="q", sources=(src("S1", "Text.", 1),))
    v = finalize_answer("INSUFFICIENT_EVIDENCE: The documents describe Text [S1], but they do not state the amount.",
                        plan)
    assert v.abstained and v.text == "The documents describe Text [S1], but they do not state the amount."
    assert [c.label for c in v.citations] == ["S1"] and 'data-label="S1"' in v.html


def test_the_embedder_encodes_each_short_text_once_and_keeps_its_cache_bounded(embedder):
    import numpy as np

    from grounding.embeddings import MiniLMEmbedder

    e = MiniLMEmbedder(cache_size=3)
    e._model = embedder._model or embedder._load()  # share the loaded model; the cache is this instance's own
    texts = ["Meals are paid at $65 per day.", "Laptops are replaced every 36 months.", "Meals are paid at $65 per day."]
    first = e.embed(texts)
    assert e.encoded == 2  # the duplicate is encoded once
    again = e.embed(["Laptops are replaced every 36 months."])
    assert e.encoded == 2 and np.array_equal(again[0], first[1])  # served from the cache
    assert np.allclose(first[0], embedder.embed([texts[0]])[0], atol=1e-5)  # the same vector as uncached
    e.embed(["one new sentence here", "another new sentence here", "a third new sentence"])
    assert len(e._cache) == 3 and "Meals are paid at $65 per day." not in e._cache  # least recently used left
    long_text = "word " * 300  # longer than cache_chars: encoded, never cached
    e.embed([long_text])
    assert long_text not in e._cache and e.encoded == 6
