"""The API tokens settings page (session login, CSRF-protected forms): list, create (shown once), revoke."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from api import services
from api.models import ApiToken
from knowledge.models import Domain


@never_cache  # the page that shows a new token must not be kept by any cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """The user's tokens; a POST creates one and shows it this once."""
    created, error, name = None, "", ""
    if request.method == "POST":
        name = request.POST.get("name", "")
        try:
            token, secret = services.token_create(user=request.user, name=name)
        except services.TokenError as exc:
            error = str(exc)
        else:
            created, name = {"token": token, "secret": secret}, ""
    return render(request, "api/tokens.html", {
        "tokens": ApiToken.objects.filter(user=request.user),
        "created": created,
        "error": error,
        "name": name,
        "api_base": request.build_absolute_uri("/api/v1/"),
        "domain_example": Domain.objects.readable_by(request.user).order_by("slug")
                                        .values_list("slug", flat=True).first(),
    }, status=400 if error else 200)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the user's own tokens (another user's token id is 404)."""
    try:
        token = services.token_revoke(user=request.user, token_id=token_id)
    except ApiToken.DoesNotExist:
        raise Http404("No such token")
    messages.success(request, f"Revoked the token “{token.name}”: it no longer works.")
    return redirect("api:tokens")
