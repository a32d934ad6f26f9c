"""The knowledge app's pages outside the admin, for readers of a version's domain: a document version's whole text
(anchored per chunk, so a citation opens it at its passage) and its original file."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from grounding.location import Location, location_text
from grounding.source_rendering import render_source_html
from knowledge.models import DocumentVersion
from knowledge.selectors import version_original, version_readable

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


@require_safe
@login_required
def version_text(request: HttpRequest, version_id: int) -> HttpResponse:
    """GET /documents/<version id>/: the version's whole text as the source panel renders a passage (headings, lists,
    tables; sanitised), one section per chunk with the anchor ``#chunk-<chunk id>`` (the panel's "Open the whole
    document" link opens it there and the passage is highlighted), with its title, version, date, status and a link
    to the original file when one is kept. 404 when the version is unknown or its domain is not readable by the user
    (not told apart); anonymous users are sent to the login page first."""
    try:
        version = version_readable(user=request.user, version_id=version_id)
    except DocumentVersion.DoesNotExist:
        raise Http404("No such document.")
    chunks, section = [], None
    for chunk in version.chunks.order_by("ordinal"):
        try:
            place = location_text(Location.from_dict(chunk.location))
        except ValueError:
            place = ""
        chunks.append({"id": chunk.pk,
                       "section": chunk.section.replace(" > ", " › ") if chunk.section != section else "",
                       "html": render_source_html(chunk.text, chunk.section), "place": place})
        section = chunk.section
    return render(request, "knowledge/version.html", {
        "version": version, "document": version.document, "chunks": chunks,
        "title": version.title or version.document.title,
        "current": version.document.versions.filter(status=DocumentVersion.Status.CURRENT).exclude(pk=version.pk)
                                              .first(),
    })
