"""A version dated after today does not answer as current until its date (s6 item 3): it is scheduled, the version
in effect keeps answering, and on the date it becomes current (a worker starting, `manage.py versions_activate`, or
the first ask that finds it due)."""

import datetime as dt
import json

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from knowledge.models import Document, DocumentVersion
from knowledge.selectors import domain_chunks, domain_index, domain_token, version_next_scheduled
from knowledge.services import domain_get_or_create, ingest_path, versions_activate_due

pytestmark = pytest.mark.django_db

PAGE = "---\ntitle: Mileage\n---\n\n## Mileage rate\n\nPersonal cars are reimbursed at {rate} per mile driven on business.\n"


def _ingest(tmp_path, domain, rate, label, date):
    page = tmp_path / "mileage.md"
    page.write_text(PAGE.format(rate=rate))
    return ingest_path(path=page, domain=domain, version=label, date=date).files[0]


def _ask(capsys, domain):
    call_command("ask", "What is the mileage rate for personal cars?", "--domain", domain.slug, "--json")
    return json.loads(capsys.readouterr().out)


def _current_texts(domain):
    return [c.text for c in domain_chunks(keys=domain_index(domain=domain).ids).values()]


def test_a_future_dated_version_is_scheduled_and_the_version_in_effect_keeps_answering(tmp_path, embedder, capsys):
    today = timezone.localdate()
    later = today + dt.timedelta(days=30)
    domain = domain_get_or_create(slug="scheduled")
    _ingest(tmp_path, domain, "$0.67", "2025", today - dt.timedelta(days=300))
    report = _ingest(tmp_path, domain, "$0.72", "2026", later)
    assert report.status == "new_version"
    assert report.notes == [f"Dated {later.isoformat()}, after today: this version becomes current on that date; "
                            f"until then version '2025' (dated {(today - dt.timedelta(days=300)).isoformat()}) "
                            "answers."]
    versions = {v.label: v.status for v in Document.objects.get(domain=domain).versions.all()}
    assert versions == {"2025": "current", "2026": "scheduled"}
    assert _current_texts(domain) == ["Personal cars are reimbursed at $0.67 per mile driven on business."]
    out = _ask(capsys, domain)
    assert out["abstained"] is False and "$0.67" in out["answer"] and "$0.72" not in out["answer"]
    assert [c["version"] for c in out["citations"]] == ["2025"]

    # on its date it becomes current, the version before it superseded, and the answer follows
    assert version_next_scheduled(domain=domain, token=domain_token(domain=domain)) == later
    assert versions_activate_due(today=later - dt.timedelta(days=1)) == []
    assert [d.slug for d in versions_activate_due(today=later)] == ["scheduled"]
    versions = {v.label: v.status for v in Document.objects.get(domain=domain).versions.all()}
    assert versions == {"2025": "superseded", "2026": "current"}
    assert _current_texts(domain) == ["Personal cars are reimbursed at $0.72 per mile driven on business."]
    out = _ask(capsys, domain)
    assert out["answer"].startswith("Personal cars are reimbursed at $0.72 per mile driven on business [S1].")
    assert out["citations"][0]["version"] == "2026"
    # the version it replaced is now the earlier version the change note names
    assert "Note that this changed" in out["answer"] and "(a superseded version) says $0.67" in out["answer"]


def test_a_document_whose_only_version_is_future_dated_does_not_answer_until_then(tmp_path, embedder):
    later = timezone.localdate() + dt.timedelta(days=10)
    domain = domain_get_or_create(slug="scheduled-only")
    report = _ingest(tmp_path, domain, "$0.72", "2026", later)
    assert report.status == "new"
    assert report.notes == [f"Dated {later.isoformat()}, after today: this version becomes current on that date; "
                            "until then the document does not answer."]
    assert DocumentVersion.objects.get(document__domain=domain).status == "scheduled"
    assert _current_texts(domain) == []
    with pytest.raises(CommandError, match="after today: versions scheduled up to then would become current now"):
        call_command("versions_activate", "--date", later.isoformat())  # s6 new user: read as a harmless preview
    assert DocumentVersion.objects.get(document__domain=domain).status == "scheduled"
    call_command("versions_activate", "--date", later.isoformat(), "--early")
    assert DocumentVersion.objects.get(document__domain=domain).status == "current"
    assert _current_texts(domain) == ["Personal cars are reimbursed at $0.72 per mile driven on business."]


def test_an_ask_on_the_date_starts_the_activation(tmp_path, embedder, monkeypatch):
    from chat import answering

    later = timezone.localdate() + dt.timedelta(days=5)
    domain = domain_get_or_create(slug="scheduled-ask")
    _ingest(tmp_path, domain, "$0.67", "2025", timezone.localdate() - dt.timedelta(days=1))
    _ingest(tmp_path, domain, "$0.72", "2026", later)
    started = []
    monkeypatch.setattr(answering, "versions_activate_soon", lambda: started.append(True) or True)
    answering.answer_inputs(domain=domain)
    assert started == []  # not yet: the version is still in the future
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: later)
    inputs = answering.answer_inputs(domain=domain)
    assert started == [True]
    assert version_next_scheduled(domain=domain, token=inputs.token) == later


def test_a_refusal_says_a_matching_version_is_scheduled_and_not_yet_in_effect(tmp_path, embedder, capsys):
    """A document whose only version is future-dated answered nothing with no hint (s7 bug 3): the refusal of a
    question that version would answer now says a version dated YYYY-MM-DD is scheduled and not yet in effect; a
    question it would not answer is refused without that sentence."""
    later = timezone.localdate() + dt.timedelta(days=10)
    domain = domain_get_or_create(slug="scheduled-hint")
    _ingest(tmp_path, domain, "$0.72", "2026", later)
    out = _ask(capsys, domain)
    assert out["abstained"] is True and "$0.72" not in out["answer"]
    assert out["answer"].endswith(f'A version of "Mileage" dated {later.isoformat()} is scheduled and not yet in '
                                  "effect."), out["answer"]
    call_command("ask", "How many vacation days do new employees get?", "--domain", domain.slug, "--json")
    other = json.loads(capsys.readouterr().out)
    assert other["abstained"] is True and "scheduled" not in other["answer"], other["answer"]
    # on its date it becomes current and answers, with no hint
    versions_activate_due(today=later)
    out = _ask(capsys, domain)
    assert out["abstained"] is False and "$0.72" in out["answer"] and "scheduled" not in out["answer"]


def test_a_dated_revision_ingested_after_an_undated_original_says_which_version_it_replaced(tmp_path, embedder):
    # the s28 breaker: the README's folder ingest has no dates; an older dated revision ingested next became current
    # with nothing in the report but "new_version"
    domain = domain_get_or_create(slug="undated")
    first = _ingest(tmp_path, domain, "$0.72", None, None)
    assert (first.status, first.version, first.notes) == ("new", "v1", [])
    report = _ingest(tmp_path, domain, "$0.67", "2024-06-26", dt.date(2024, 6, 26))
    assert report.status == "new_version"
    assert report.notes == ["Dated 2024-06-26, this version is now current and replaces version 'v1', which has no "
                            "date. If that one is the newer text, ingest it again with its date (--date) or make it "
                            "current in the admin."]
    versions = {v.label: v.status for v in Document.objects.get(domain=domain).versions.all()}
    assert versions == {"v1": "superseded", "2024-06-26": "current"}
    # the note's way back: the original again, with its date, is current and the report says nothing more
    again = _ingest(tmp_path, domain, "$0.72", "2024-12-11", dt.date(2024, 12, 11))
    assert again.notes == []
    assert {v.label: v.status for v in Document.objects.get(domain=domain).versions.all()}["v1"] == "current"
