"""Ingestion into the database: documents, versions, chunks, re-ingest no-op, new versions, broken files."""

from pathlib import Path

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from knowledge.models import Chunk, Document, DocumentVersion, Domain
from knowledge.services import IngestError, domain_get_or_create, ingest_path
from tests.conftest import DEMO_CORPUS

pytestmark = pytest.mark.django_db


def test_demo_corpus_documents_versions_and_chunks(demo_domain):
    docs = Document.objects.filter(domain=demo_domain)
    assert docs.count() == 8  # nine files, two of them versions of the travel policy
    travel = docs.get(key="travel-expenses")
    versions = {v.label: (v.status, str(v.effective_date)) for v in travel.versions.all()}
    assert versions == {"2025-03": ("current", "2025-03-01"), "2024-01": ("superseded", "2024-01-15")}
    chunks = Chunk.objects.filter(version__document__domain=demo_domain)
    assert chunks.count() > 30
    for c in chunks[:50]:
        assert 0 < c.tokens <= 320
        v = c.vector()
        assert v.shape == (384,) and abs(float(np.linalg.norm(v)) - 1) < 1e-3
    meals = Chunk.objects.get(version__document=travel, version__label="2025-03",
                              text__contains="daily meal allowance is $65")
    assert meals.section == "Meals"


def test_reingest_unchanged_is_a_noop(demo_domain):
    before = Chunk.objects.count(), DocumentVersion.objects.count(), demo_domain.index_token
    report = ingest_path(path=DEMO_CORPUS, domain=demo_domain)
    assert report.count("unchanged") == 9 and report.count("new") == 0
    demo_domain.refresh_from_db()
    assert (Chunk.objects.count(), DocumentVersion.objects.count(), demo_domain.index_token) == before


def test_changed_content_becomes_a_new_current_version(tmp_path, embedder):
    domain = domain_get_or_create(slug="versions-test")
    page = tmp_path / "leave.md"
    page.write_text("---\ntitle: Leave\n---\n\n## Annual leave\n\nYou accrue 4 hours per pay period.\n")
    first = ingest_path(path=page, domain=domain, version="v1")
    page.write_text("---\ntitle: Leave\n---\n\n## Annual leave\n\nYou accrue 6 hours per pay period.\n")
    second = ingest_path(path=page, domain=domain, version="v2")
    assert first.files[0].status == "new" and second.files[0].status == "new_version"
    doc = Document.objects.get(domain=domain)
    assert [(v.label, v.status) for v in doc.versions.order_by("created_at")] == [
        ("v1", "superseded"), ("v2", "current")]
    from knowledge.selectors import domain_chunks, domain_index
    texts = [c.text for c in domain_chunks(keys=domain_index(domain=domain).ids).values()]
    assert texts == ["You accrue 6 hours per pay period."]  # only the current version is retrievable


def test_broken_files_are_reported_and_the_rest_ingested(tmp_path, embedder):
    (tmp_path / "good.md").write_text("# Good\n\nThe office opens at 8 a.m.\n")
    (tmp_path / "binary.md").write_bytes(b"\xff\xfe\x00\x01garbage")
    (tmp_path / "bad-yaml.md").write_text("---\ntitle: [oops\n---\ntext\n")
    (tmp_path / "page.html").write_text("<h1>Parking</h1><p>Parking is free on weekends.</p>")
    domain = domain_get_or_create(slug="broken-test")
    report = ingest_path(path=tmp_path, domain=domain)
    status = {f.path: f.status for f in report.files}
    assert status == {"bad-yaml.md": "failed", "binary.md": "failed", "good.md": "new", "page.html": "new"}
    errors = {f.path: f.error for f in report.failed}
    assert "malformed YAML front matter" in errors["bad-yaml.md"] and "not UTF-8" in errors["binary.md"]
    assert sorted(Document.objects.filter(domain=domain).values_list("title", flat=True)) == ["Good", "Parking"]


def test_a_file_failing_unexpectedly_is_reported_and_the_rest_of_the_folder_ingested(tmp_path, embedder,
                                                                                     monkeypatch):
    """A 60-column CSV raised a ValueError inside chunking and `manage.py ingest` stopped with a traceback: the
    other files of the folder were never ingested. Any failure of one file is now that file's reported error."""
    from knowledge.services import preparing

    (tmp_path / "coffee.md").write_text("# Coffee\n\nThe coffee machine is on the third floor.\n")
    (tmp_path / "sheet.md").write_text("# Sheet\n\nA page whose chunking fails.\n")
    real = preparing.chunk_blocks

    def failing(blocks, *args, **kwargs):
        if any("chunking fails" in b.text for b in blocks):
            raise ValueError("the section path '' alone fills the embedder's input of 254 tokens")
        return real(blocks, *args, **kwargs)

    monkeypatch.setattr(preparing, "chunk_blocks", failing)
    report = ingest_path(path=tmp_path, domain=domain_get_or_create(slug="unexpected-test"))
    assert {f.path: f.status for f in report.files} == {"coffee.md": "new", "sheet.md": "failed"}
    assert report.failed[0].error == ("sheet.md: ingestion failed: the section path '' alone fills the embedder's "
                                      "input of 254 tokens")


def test_ingest_command_reports_and_fails_clearly(tmp_path, capsys, embedder):
    (tmp_path / "a.txt").write_text("Lunch is served at noon.")
    call_command("ingest", str(tmp_path), "--domain", "cli-test", "--version", "2024-q1", "--date", "2024-01-02")
    out = capsys.readouterr().out
    assert "1 file: 1 new" in out
    v = DocumentVersion.objects.get(document__domain__slug="cli-test")
    assert (v.label, str(v.effective_date), v.title) == ("2024-q1", "2024-01-02", "a")
    with pytest.raises(CommandError, match="no such file or folder"):
        call_command("ingest", str(tmp_path / "missing"), "--domain", "cli-test")
    with pytest.raises(CommandError, match="--date must be YYYY-MM-DD"):
        call_command("ingest", str(tmp_path), "--domain", "cli-test", "--date", "yesterday")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CommandError, match="no supported files"):
        call_command("ingest", str(empty), "--domain", "cli-test")


def test_ingest_command_prints_each_failed_file_once_with_its_reason(tmp_path, embedder, caplog):
    """`manage.py ingest` of a folder with a broken PDF and an empty file among good ones printed each failure twice
    (its progress line, then the same reason again from the log); the user now sees one line per failed file,
    naming the file and the reason, and the command still succeeds (the good file is ingested)."""
    import io
    import logging

    (tmp_path / "good.md").write_text("# Good\n\nThe office opens at 8 a.m. on weekdays.\n")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 this is not a PDF body")
    (tmp_path / "empty.txt").write_text("")
    out, err = io.StringIO(), io.StringIO()
    with caplog.at_level(logging.INFO):
        call_command("ingest", str(tmp_path), "--domain", "twice-test", stdout=out, stderr=err)  # no CommandError
    logged = "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.INFO)
    shown = out.getvalue() + err.getvalue() + logged
    for name, reason in (("broken.pdf", "the PDF is damaged"), ("empty.txt", "the file is empty")):
        lines = [line for line in shown.splitlines() if name in line]
        assert len(lines) == 1, f"the user should see the failure of {name} once, saw {len(lines)}: {lines}"
        assert lines[0].startswith(f"FAILED {name}: ") and reason in lines[0] and lines[0].count(name) == 1, lines
    assert "3 files: 1 new, 0 new versions, 0 unchanged, 2 failed" in out.getvalue()


def test_ingest_error_for_missing_path():
    with pytest.raises(IngestError):
        ingest_path(path=Path("/nonexistent/folder"), domain=Domain.objects.create(slug="x", name="x"))


def test_ingest_command_fails_when_no_file_could_be_ingested_and_leaves_no_domain(tmp_path):
    (tmp_path / "only.md").write_bytes(b"\xff\xfe\x00broken")
    with pytest.raises(CommandError, match=r"no file could be ingested \(1 file: .* 1 failed\)"):
        call_command("ingest", str(tmp_path), "--domain", "all-broken")
    assert not Domain.objects.filter(slug="all-broken").exists()


def test_content_of_an_earlier_version_coming_back_is_current_again(tmp_path, embedder):
    domain = domain_get_or_create(slug="revert-test")
    page = tmp_path / "pets.md"
    allowed, banned = "# Pets\n\nDogs are allowed in the office on Fridays.\n", "# Pets\n\nDogs are not allowed.\n"
    for text in (allowed, banned, allowed):
        page.write_text(text)
        report = ingest_path(path=page, domain=domain)
    assert report.files[0].status == "restored"
    from knowledge.selectors import domain_chunks, domain_index
    assert [c.text for c in domain_chunks(keys=domain_index(domain=domain).ids).values()] == [
        "Dogs are allowed in the office on Fridays."]


def test_one_file_of_an_ingested_folder_updates_the_same_document(tmp_path, embedder):
    domain = domain_get_or_create(slug="identity-test")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "snacks.md").write_text("# Snacks\n\nFree snacks are available on Mondays.\n")
    (tmp_path / "guide.md").write_text("# Guide\n\nThe Markdown guide.\n")
    (tmp_path / "guide.html").write_text("<h1>Guide</h1><p>The HTML guide.</p>")
    ingest_path(path=tmp_path, domain=domain)
    assert sorted(Document.objects.filter(domain=domain).values_list("key", flat=True)) == [
        "guide.html", "guide.md", "sub/snacks.md"]  # no silent collision of guide.md and guide.html
    (tmp_path / "sub" / "snacks.md").write_text("# Snacks\n\nSnacks are no longer free.\n")
    report = ingest_path(path=tmp_path / "sub" / "snacks.md", domain=domain)
    assert report.files[0].status == "new_version"
    doc = Document.objects.get(domain=domain, key="sub/snacks.md")
    assert [v.status for v in doc.versions.order_by("created_at")] == ["superseded", "current"]


def test_oversized_file_and_bad_doc_id_are_reported(tmp_path, embedder, settings):
    settings.MAX_UPLOAD_BYTES = 100
    (tmp_path / "big.md").write_text("# Big\n\n" + "text " * 100)
    (tmp_path / "list-id.md").write_text("---\ndoc_id: [a, b]\n---\n\nBody text here.\n")
    (tmp_path / "ok.md").write_text("# Ok\n\nFine.\n")
    report = ingest_path(path=tmp_path, domain=domain_get_or_create(slug="limits-test"))
    errors = {f.path: f.error for f in report.failed}
    assert "file too large (" in errors["big.md"] and "the limit is 100 bytes" in errors["big.md"]
    assert "doc_id must be a non-empty string" in errors["list-id.md"]
    assert report.count("new") == 1


def test_domain_settings_are_validated():
    from django.core.exceptions import ValidationError

    d = Domain(slug="v", name="V", history_cap=2.0)
    with pytest.raises(ValidationError, match="history_cap"):
        d.full_clean()
    d = Domain(slug="w", name="W", window=2_000, completion_reserve=1_500)
    with pytest.raises(ValidationError, match="at least 1,000 are needed"):
        d.full_clean()


def test_a_dated_revision_replaces_an_undated_original_and_a_dated_backfill_does_not(tmp_path, embedder):
    """An undated version is at least as new as what was ingested before it; a dated revision ingested after an
    undated original is current (whatever the day), an older dated version ingested later stays superseded."""
    import datetime as dt

    from knowledge.models import Document

    domain = domain_get_or_create(slug="dated-revision")
    original, revision, backfill = (tmp_path / name for name in ("pets.md", "pets-2026.md", "pets-2024.md"))
    original.write_text("# Pets\n\nDogs are allowed in the office on Fridays.\n")
    revision.write_text("# Pets\n\nDogs are not allowed in the office.\n")
    backfill.write_text("# Pets\n\nDogs were allowed every day.\n")
    ingest_path(path=original, domain=domain, key="pets")
    ingest_path(path=revision, domain=domain, key="pets", version="2026-06", date=dt.date(2026, 6, 1))
    ingest_path(path=backfill, domain=domain, key="pets", version="2024-01", date=dt.date(2024, 1, 1))
    versions = Document.objects.get(domain=domain, key="pets").versions.order_by("pk")
    assert [(v.label, v.status) for v in versions][1:] == [("2026-06", "current"), ("2024-01", "superseded")]
    assert versions[0].status == "superseded"
    undated = tmp_path / "pets-new.md"
    undated.write_text("# Pets\n\nCats are allowed in the office.\n")
    ingest_path(path=undated, domain=domain, key="pets")  # an undated upload replaces what was there
    assert Document.objects.get(domain=domain, key="pets").versions.get(status="current").title == "Pets"
    assert "Cats" in Document.objects.get(domain=domain, key="pets").versions.get(
        status="current").chunks.first().text


def test_a_revision_without_a_title_of_its_own_keeps_the_documents_title(tmp_path, embedder):
    import datetime as dt

    from knowledge.models import Document

    domain = domain_get_or_create(slug="revision-title")
    original, revision = tmp_path / "pets.md", tmp_path / "pets-2026.txt"
    original.write_text("# Pets policy\n\nDogs are allowed in the office on Fridays.\n")
    revision.write_text("Dogs are not allowed in the office.\n")
    ingest_path(path=original, domain=domain, key="pets")
    ingest_path(path=revision, domain=domain, key="pets", version="2026-06", date=dt.date(2026, 6, 1))
    document = Document.objects.get(domain=domain, key="pets")
    assert document.title == "Pets policy"
    assert [(v.title, v.status) for v in document.versions.order_by("pk")] == [
        ("Pets policy", "superseded"), ("Pets policy", "current")]
    fresh = tmp_path / "parking-rules.txt"
    fresh.write_text("Park in the north lot.\n")
    ingest_path(path=fresh, domain=domain)
    assert Document.objects.exclude(key="pets").get(domain=domain).title == "parking rules"  # a new document: its name


def test_a_version_keeps_its_outline_and_each_chunk_record_the_part_it_sits_in(tmp_path, embedder):
    domain = domain_get_or_create(slug="outline-test")
    page = tmp_path / "desks.md"
    body = " ".join(["Desks are cleaned every evening by the facilities team."] * 30)
    page.write_text("---\ntitle: Desks\n---\n\n## Desk types\n\nThe office offers all 3 types of desks.\n\n"
                    f"### Standing\n\n{body}\n\n### Sitting\n\n{body}\n\n### Shared\n\n{body}\n\n## Booking\n\n"
                    "Book a desk at reception.\n")
    ingest_path(path=page, domain=domain, version="v1")
    version = DocumentVersion.objects.get(document__domain=domain)
    assert version.outline == ["Desk types", "Desk types > Standing", "Desk types > Sitting", "Desk types > Shared",
                               "Booking"]
    from knowledge.selectors import domain_chunks, domain_index
    chunks = sorted(domain_chunks(keys=domain_index(domain=domain).ids).values(), key=lambda c: c.ordinal)
    first = chunks[0]  # the start of "Desk types": it names all three sub-sections, also those in later chunks
    assert first.section.startswith("Desk types") and len(chunks) > 2
    assert first.outline[:3] == ("Desk types > Standing", "Desk types > Sitting", "Desk types > Shared")


def test_each_chunk_record_carries_its_documents_front_matter_keywords(tmp_path, embedder):
    """The author's keywords reach the planned source (the check that a source names what a question asks about reads
    them: grounding.subject_check), from the index records, for every chunk of the version."""
    domain = domain_get_or_create(slug="keywords-test")
    page = tmp_path / "pto.md"
    page.write_text("---\ntitle: Paid Time Off\nkeywords: [PTO, Vacation, sick days]\n---\n\n## Accrual\n\n"
                    "Employees accrue 1.5 days of paid time off per month.\n\n## Requests\n\nAsk in Meadow.\n")
    ingest_path(path=page, domain=domain, version="v1")
    from knowledge.selectors import domain_chunks, domain_index
    chunks = domain_chunks(keys=domain_index(domain=domain).ids).values()
    assert chunks and all(c.keywords == ("pto", "vacation", "sick days") for c in chunks)


def test_option_values_longer_than_their_columns_are_refused_clearly(tmp_path, embedder):
    """The s22 break run: a 300-character --domain, a 1,000-character --name, a 2,000-character --doc-id and a
    500-character --version were stored whole on SQLite (PostgreSQL refuses them with a database error), the label
    then shown in every answer's sources; each is now refused, naming its limit, and nothing is stored."""
    (tmp_path / "a.md").write_text("# Lockers\n\nLockers are on level 3.\n")
    with pytest.raises(CommandError, match="The domain slug must be at most 50 characters; this one has 300"):
        call_command("ingest", str(tmp_path), "--domain", "s" * 300)
    with pytest.raises(CommandError, match="The domain name must be at most 200 characters"):
        call_command("ingest", str(tmp_path), "--domain", "long-name", "--name", "N" * 1000)
    for option, value, what, limit in (("--doc-id", "d" * 2000, "document id", 500),
                                       ("--version", "v" * 500, "version label", 100)):
        with pytest.raises(CommandError, match="no file could be ingested"):
            call_command("ingest", str(tmp_path), "--domain", "long-values", option, value)
    assert not Domain.objects.filter(slug__in=["long-name", "long-values"]).exists()
    report = ingest_path(path=tmp_path, domain=domain_get_or_create(slug="long-values"), version="v" * 500)
    assert report.files[0].status == "failed"
    assert report.files[0].error == ("a.md: its version label has 500 characters; the limit is 100. Give a shorter one "
                                     "(front matter doc_id or version, or the ingest command's --doc-id or --version).")


def test_a_title_or_section_path_longer_than_its_column_is_stored_cut(tmp_path, embedder):
    title = "Rules " * 90  # 540 characters (the column holds 500); 90 tokens, within the embedder's input
    (tmp_path / "long.md").write_text(f"# {title}\n\nLockers are on level 3.\n")
    (tmp_path / "deep.md").write_text("# Deep\n\n## " + "Lockers " * 66 + "\n\n### " + "Showers " * 66
                                      + "\n\nTowels are provided.\n")  # a section path of 1,051 characters
    ingest_path(path=tmp_path, domain=domain_get_or_create(slug="long-heading"))
    long = DocumentVersion.objects.get(document__domain__slug="long-heading", document__key="long.md")
    assert len(long.title) == 500 and long.title.endswith("…") and long.title.startswith("Rules Rules")
    deep = Chunk.objects.filter(version__document__key="deep.md").last()
    assert len(deep.section) == 1000 and deep.section.endswith("…") and " > Showers" in deep.section


def test_an_interrupted_ingest_leaves_no_empty_domain_and_says_so(tmp_path, embedder, monkeypatch):
    """The s22 break run: a 5 MB one-line file, killed by `timeout` while embedding, left an empty domain every user
    saw in the domain list (always refusing)."""
    from knowledge.services import ingestion

    (tmp_path / "a.md").write_text("# Lockers\n\nLockers are on level 3.\n")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ingestion, "embed_reporting", interrupted)
    with pytest.raises(CommandError, match="interrupted: no new version was stored by this run"):
        call_command("ingest", str(tmp_path), "--domain", "killed")
    assert not Domain.objects.filter(slug="killed").exists()


def test_a_long_ingest_reports_its_embedding_progress(tmp_path, capsys, monkeypatch):
    """The s22 break run: the 5 MB file printed nothing for half an hour; past one batch of texts, each batch
    embedded prints a line."""
    from knowledge import sentences

    monkeypatch.setattr(sentences, "PROGRESS_BATCH", 4)
    (tmp_path / "a.md").write_text("# Lockers\n\n" + " ".join(f"Locker {i} is on level {i % 5}." for i in range(12))
                                   + "\n\n## Showers\n\nThe showers are on level 2. Towels are provided.\n")
    call_command("ingest", str(tmp_path), "--domain", "progress")
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith("embedding: ") and line.endswith(" sentences")]
    assert len(lines) >= 2, out  # more sentences than one batch of 4: a line after each batch
    assert lines[0] == f"embedding: 4 of {lines[-1].split()[-2]} sentences", lines
    done, _, rest = lines[-1].removeprefix("embedding: ").partition(" of ")
    assert done == rest.split()[0], lines  # the last line says all of them


@pytest.mark.django_db(transaction=True)
def test_the_per_chunk_work_runs_before_the_write_transaction(tmp_path, embedder, monkeypatch):
    """A big upload used to hold SQLite's write lock while each chunk's values, injection check and value key were
    made (25 s for 10,000 chunks), and every ask and login meanwhile failed with "database is locked" (500). Now
    that work is done before the transaction opens: the transaction only stores rows."""
    from django.db import connection

    from knowledge.services import ingestion

    seen = []
    for name in ("chunk_values", "injection_signals", "value_key"):
        real = getattr(ingestion, name)
        monkeypatch.setattr(ingestion, name, lambda text, _real=real, _name=name: (
            seen.append((_name, connection.in_atomic_block)), _real(text))[1])
    (tmp_path / "rooms.md").write_text("# Rooms\n\n## Booking\n\nRoom 4 seats 12 people.\n\n## Hours\n\n"
                                       "The office opens at 8 a.m.\n")
    domain = domain_get_or_create(slug="lock-test")
    report = ingest_path(path=tmp_path, domain=domain)
    assert report.count("new") == 1
    assert {name for name, _ in seen} == {"chunk_values", "injection_signals", "value_key"}
    assert [name for name, inside in seen if inside] == []  # none of it inside the write transaction
    stored = Chunk.objects.get(version__document__domain=domain, text__contains="Room 4")
    assert stored.injection is False and stored.value_key and stored.support_values is not None


def test_a_new_version_with_another_title_is_named_in_the_report(tmp_path, embedder):
    """The s45 breaker: an unrelated "shuttle.md" titled "Path" became the current version of "Shuttle" and the
    report said only "new_version Path v2". The report now says which document it replaced and what to do."""
    domain = domain_get_or_create(slug="retitled-test")
    page = tmp_path / "shuttle.md"
    page.write_text("---\ntitle: Shuttle\n---\n\nThe shuttle leaves at 8:00.\n")
    ingest_path(path=page, domain=domain, version="v1")
    page.write_text("---\ntitle: shuttle\n---\n\nThe shuttle leaves at 9:30.\n")
    same = ingest_path(path=page, domain=domain, version="v2")
    assert same.files[0].status == "new_version" and same.files[0].notes == []  # case aside, the same title
    page.write_text("---\ntitle: Path\n---\n\nThe path test says 7.\n")
    other = ingest_path(path=page, domain=domain, version="v3")
    assert other.files[0].status == "new_version"
    assert other.files[0].notes == ['This file is a new version of "shuttle" (the document of the same file name in '
                                    'this domain), now titled "Path". If it is another document, rename the file and '
                                    'upload it again.']
