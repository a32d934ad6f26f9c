"""A question or a document typed in full-width (compatibility) characters is answered as its ASCII twin: the text
is compared in its NFKC form (grounding.lexical.nfkc_fold), and what the user sees keeps what was typed."""

import json

import pytest
from django.core.management import call_command

from knowledge.services import domain_get_or_create, ingest_path

pytestmark = pytest.mark.django_db


def ask(capsys, question, domain):
    call_command("ask", question, "--domain", domain, "--json")
    return json.loads(capsys.readouterr().out)


def test_a_full_width_question_finds_and_cites_the_passage_of_the_ascii_question(demo_domain, capsys):
    ascii_ = ask(capsys, "What is the daily meal allowance?", "handbook")
    full = ask(capsys, "Ｗｈａｔ ｉｓ ｔｈｅ ｄａｉｌｙ ｍｅａｌ ａｌｌｏｗａｎｃｅ？", "handbook")
    assert ascii_["abstained"] is False and "$65" in ascii_["answer"]
    assert full["abstained"] is False and full["answer"] == ascii_["answer"]
    assert [(c["chunk_id"], c["cited_text"]) for c in full["citations"]] == \
        [(c["chunk_id"], c["cited_text"]) for c in ascii_["citations"]]
    assert any("daily meal allowance is $65" in c["cited_text"] for c in full["citations"])


def test_a_document_written_in_full_width_answers_the_ascii_question_and_is_quoted_as_written(
        tmp_path, embedder, capsys):
    page = tmp_path / "budget.md"
    page.write_text("---\ntitle: Travel budget\n---\n\n## Meals\n\n"
                    "The ＦＹ２０２５ meal allowance is ＄５０ per day of travel.\n\n"
                    "## Hotels\n\nBook hotels through the travel desk at least two weeks ahead.\n")
    domain = domain_get_or_create(slug="fullwidth")
    ingest_path(path=page, domain=domain)
    for question in ("What is the FY2025 meal allowance?", "What is the ＦＹ２０２５ meal allowance?"):
        out = ask(capsys, question, "fullwidth")
        assert out["abstained"] is False, (question, out["answer"])
        # the answer quotes the document as written, and the highlighted sentence is the stored one
        assert "ＦＹ２０２５ meal allowance is ＄５０ per day" in out["answer"]
        cited = [c["cited_text"] for c in out["citations"]]
        assert cited == ["The ＦＹ２０２５ meal allowance is ＄５０ per day of travel."]
