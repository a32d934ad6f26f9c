"""What an ingestion reports: per-file outcomes, the run's summary, and the size limit's error."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings as django_settings

class IngestError(ValueError):
    """The ingestion request itself is unusable (missing path, no supported files)."""


@dataclass
class FileReport:
    """What happened to one file: status is "new", "new_version", "unchanged", "restored" (an earlier version's
    content came back and is current again), "failed" (``error`` names the file and what to do) or "skipped" (a
    file of an ingested folder that is no supported document type, never read; ``error`` says so).

    ``notes`` hold what to know besides the outcome, one sentence each (a macro-enabled document whose macros were not
    run, a scanned page OCR found no text on); ``pages`` the file's pages, slides or sheets (0 for text formats);
    ``version_id`` the stored version (0 when failed)."""

    path: str
    status: str
    title: str = ""
    version: str = ""
    chunks: int = 0
    tokens: int = 0
    error: str = ""
    notes: list[str] = field(default_factory=list)
    pages: int = 0
    version_id: int = 0


@dataclass
class IngestReport:
    """Per-file results of one ingestion run."""

    files: list[FileReport] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for f in self.files if f.status == status)

    @property
    def failed(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "failed"]

    @property
    def read(self) -> list[FileReport]:
        """The files that were read (every file but the skipped ones)."""
        return [f for f in self.files if f.status != "skipped"]

    def summary(self) -> str:
        """"21 files: 20 new, 0 new versions, 0 unchanged, 0 failed, 1 skipped" (restored and skipped only when
        there are any)."""
        restored = f", {self.count('restored')} restored" if self.count("restored") else ""
        skipped = f", {self.count('skipped')} skipped" if self.count("skipped") else ""
        n, versions = len(self.files), self.count("new_version")
        return (f"{n} file{'' if n == 1 else 's'}: {self.count('new')} new, {versions} new "
                f"version{'' if versions == 1 else 's'}, "
                f"{self.count('unchanged')} unchanged{restored}, {self.count('failed')} failed{skipped}")


def max_file_bytes() -> int:
    """The largest file ingestion accepts, in bytes (settings.MAX_UPLOAD_BYTES, from GROUNDED_MAX_UPLOAD_MB); a larger
    one is reported as failed, never read."""
    return int(django_settings.MAX_UPLOAD_BYTES)


def too_large_error(name: str, size: int) -> str:
    """The error of a file over the size limit (names the file, both sizes and what to do)."""
    limit = max_file_bytes()
    return (f"{name}: file too large ({size:,} bytes; the limit is {limit:,} bytes, {limit / 1048576:.1f} MB); split "
            "it into smaller files, or ask an administrator to raise GROUNDED_MAX_UPLOAD_MB")
