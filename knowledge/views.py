"""The knowledge app's one page outside the admin: a document version's original file, for readers of its domain."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest
from django.views.decorators.http import require_safe

from knowledge.models import DocumentVersion
from knowledge.selectors import version_original

#: Sent inline, so that the browser opens them (a PDF at the #page=N a citation links to); everything else is a
#: download. HTML and Markdown are sent as plain text: a stored file never runs in the site's origin.
_INLINE = {"application/pdf", "text/plain", "text/markdown", "text/csv"}


@require_safe
@login_required
def original_file(request: HttpRequest, version_id: int) -> FileResponse:
    """GET /documents/<version id>/original: the file the version was ingested from, with its content type and a
    Content-Disposition carrying its name. 404 when the version is unknown, its domain is not readable by the user,
    or it kept no original; anonymous users are sent to the login page first."""
    try:
        version, path = version_original(user=request.user, version_id=version_id)
    except DocumentVersion.DoesNotExist:
        raise Http404("No such document.")
    content_type = version.original_type or "application/octet-stream"
    if content_type in ("text/html", "text/markdown"):
        content_type = "text/plain"
    inline = content_type in _INLINE
    response = FileResponse(path.open("rb"), as_attachment=not inline, filename=version.original_name or path.name,
                            content_type=content_type + ("; charset=utf-8" if content_type.startswith("text/") else ""))
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, max-age=3600"
    return response
