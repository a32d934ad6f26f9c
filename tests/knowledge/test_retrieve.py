import pytest

from knowledge.selectors import retrieve
from knowledge.services import domain_get_or_create, ingest_path

pytestmark = pytest.mark.django_db


def test_hybrid_retrieval_finds_the_passage_and_only_in_the_chosen_domain(demo_domain, tmp_path, embedder):
    other = domain_get_or_create(slug="other-domain")
    (tmp_path / "x.md").write_text("# Meals\n\nThe daily meal allowance is $999 per day in the other domain.\n")
    ingest_path(path=tmp_path, domain=other)
    cands = retrieve(domain=demo_domain, query="What is the daily meal allowance?")
    assert cands[0].chunk.title == "Travel and Expenses Policy"
    assert "daily meal allowance is $65" in cands[0].chunk.text
    assert all("$999" not in c.chunk.text for c in cands)
    assert all(c.chunk.status == "current" for c in cands)  # the superseded $50 version is not retrieved
    assert [c.rank for c in cands] == list(range(1, len(cands) + 1))
    theirs = retrieve(domain=other, query="What is the daily meal allowance?")
    assert [c.chunk.text for c in theirs] == ["The daily meal allowance is $999 per day in the other domain."]


def test_lexical_match_on_a_rare_code_ranks_high(demo_domain):
    # exact identifiers are where BM25 helps dense retrieval
    cands = retrieve(domain=demo_domain, query="EthicsLine 1-800-555-0147")
    assert "1-800-555-0147" in cands[0].chunk.text
    assert cands[0].lexical > 0
