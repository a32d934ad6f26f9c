"""Original files of document versions, stored on disk by content hash (settings.ORIGINALS_DIR / <sha256>).

Each DocumentVersion records the hash, name, content type and size of the file it was ingested from; the bytes live
once per distinct content, however many versions or domains share them. A file no version refers to any more is
removed after the deleting transaction commits (the post_delete receiver, connected in KnowledgeConfig.ready, also
sees versions deleted with their document or domain).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path, PurePath

from django.conf import settings
from django.db import transaction

#: Content type of an original by its extension (what the original view sends).
CONTENT_TYPES = {
    ".pdf": "application/pdf",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".docm": "application/vnd.ms-word.document.macroEnabled.12",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".pptm": "application/vnd.ms-powerpoint.presentation.macroEnabled.12",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".xlsm": "application/vnd.ms-excel.sheet.macroEnabled.12",
    ".csv": "text/csv",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".html": "text/html",
    ".htm": "text/html",
}


def original_content_type(*, name: str) -> str:
    """The content type of an original named ``name`` (by its extension; application/octet-stream otherwise)."""
    return CONTENT_TYPES.get(PurePath(name).suffix.lower(), "application/octet-stream")


def original_path(*, content_hash: str) -> Path:
    """Where the original with this SHA-256 (64 hex characters) is stored.

    Raises:
        ValueError: ``content_hash`` is not 64 hex characters (never a path outside the folder).
    """
    if len(content_hash) != 64 or any(c not in "0123456789abcdef" for c in content_hash):
        raise ValueError(f"not a SHA-256 hex digest: {content_hash!r}")
    return Path(settings.ORIGINALS_DIR) / content_hash


def original_save(*, data: bytes) -> str:
    """Store ``data`` (if not stored yet) and return its SHA-256 hex digest. The file appears whole or not at all
    (written to a temporary file in the same folder, then renamed)."""
    digest = hashlib.sha256(data).hexdigest()
    target = original_path(content_hash=digest)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".incoming-")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return digest


def original_discard_unused(*, content_hash: str) -> None:
    """Remove the stored original with this hash when no document version refers to it any more."""
    from knowledge.models import DocumentVersion

    if not content_hash or DocumentVersion.objects.filter(original_hash=content_hash).exists():
        return
    try:
        original_path(content_hash=content_hash).unlink(missing_ok=True)
    except ValueError:
        return


def on_version_deleted(sender, instance, **kwargs) -> None:
    """post_delete receiver of DocumentVersion: discard its original once the deletion is committed."""
    content_hash = instance.original_hash
    if content_hash:
        transaction.on_commit(lambda: original_discard_unused(content_hash=content_hash))
