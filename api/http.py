"""The HTTP side of the API on django-ninja: the NinjaAPI object, its bearer-token authentication, its JSON body
parser, every failure as a typed error, and the documented error responses of an operation.

Errors keep the API's one shape, ``{"error": {"code", "message", ...}}`` with a stable code (api.errors), whatever
raised them: ninja's request validation (400 invalid_request), the body parser (415, 413, 400 bad_json), token
authentication (401), a multipart body Django cannot read (400 invalid_request), a service's AskError (its code), a
method the path does not have (405 with Allow) or anything unexpected (500 internal, logged). Under Daphne, request
bodies reach Django as sent (config.protocol_server.requests_unparsed).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from ninja import NinjaAPI
from ninja.errors import HttpError, ValidationError
from ninja.parser import Parser
from ninja.security.http import HttpAuthBase

from api.errors import STATUS, ApiError
from api.schemas.common import Error
from api.services import token_authenticate
from chat.errors import AskError
from chat.validation import request_limit

log = logging.getLogger("grounded.api")

#: Error codes every operation behind the token may return.
AUTH_ERRORS = ("missing_token", "invalid_token", "revoked_token")
#: The methods a path may be asked with; those it does not serve get 405 method_not_allowed.
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE")


class JsonApi(NinjaAPI):
    """A NinjaAPI whose JSON responses say ``Content-Type: application/json``, as the API's always did (JSON is UTF-8
    by definition, RFC 8259; ninja's default adds ``; charset=utf-8``)."""

    def get_content_type(self) -> str:
        return "application/json"


class bearerAuth(HttpAuthBase):  # noqa: N801 - ninja names the OpenAPI security scheme after the class
    """``Authorization: Bearer <personal API token>`` (api.services.token_authenticate); never the session cookie,
    so the API is exempt from CSRF (ninja's operations are). ``request.auth`` is the live ApiToken.

    Raises:
        ApiError: missing_token, invalid_token, revoked_token (401).
    """

    openapi_scheme = "bearer"
    openapi_description = "A personal API token (gct_...)."

    def __call__(self, request: HttpRequest) -> Any:
        return token_authenticate(request.headers.get("Authorization"))


def body_limit() -> int:
    """Largest accepted request body, bytes: room for a question at the character limit written entirely as JSON
    \\u escapes of astral characters (chat.validation.request_limit, the websocket's message limit too)."""
    return request_limit(chars=settings.MAX_MESSAGE_CHARS)


def check_body_headers(request: HttpRequest) -> None:
    """The body's declared media type (JSON or a ``+json`` type, any charset) and length.

    Raises:
        ApiError: unsupported_media_type (415), request_too_large (413).
    """
    content_type = (request.content_type or "").lower()
    if content_type and content_type != "application/json" and not (
            content_type.startswith("application/") and content_type.endswith("+json")):
        raise ApiError("unsupported_media_type",
                       f"Send a JSON body with 'Content-Type: application/json' (got {content_type[:60]!r}).")
    try:
        too_large = int(request.META.get("CONTENT_LENGTH") or 0) > body_limit()
    except ValueError:
        too_large = False
    if too_large:
        raise _too_large()


def _too_large() -> ApiError:
    return ApiError("request_too_large", f"The request body is larger than {body_limit():,} bytes (a question may "
                                         f"have at most {settings.MAX_MESSAGE_CHARS:,} characters).")


class JsonBody(Parser):
    """ninja's body parser with the API's checks: media type, size, then JSON (the object's fields are the schema's).

    ninja reports a parser's exception as HttpError(400) raised from it; the handler below answers with the
    ApiError itself.
    """

    def parse_body(self, request: HttpRequest) -> Any:
        check_body_headers(request)
        try:
            raw = request.body
        except RequestDataTooBig:
            raise _too_large()
        if len(raw) > body_limit():
            raise _too_large()
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            raise ApiError("bad_json", "The request body is not valid JSON.")


def _validation_message(errors: list[dict[str, Any]]) -> str:
    """One sentence per invalid field, e.g. ``conversation: must be an integer id (1 to ...) or null.``"""
    out = []
    for error in errors[:5]:
        where = [str(part) for part in error["loc"][1:] if part != "body"]
        if error["type"] == "extra_forbidden":
            out.append(f"Unknown field {where[-1][:40]!r}.")
        elif not where and error["type"] in ("model_attributes_type", "dict_type", "model_type"):
            out.append("The request body must be a JSON object.")
        else:
            out.append(f"{'.'.join(where) + ': ' if where else ''}{error['msg'].rstrip('.')}.")
    return " ".join(out)


def install_error_handlers(api: NinjaAPI) -> None:
    """Answer every failure of ``api``'s operations with the API's error shape."""

    @api.exception_handler(ApiError)
    def api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
        return exc.response()

    @api.exception_handler(AskError)
    def ask_error(request: HttpRequest, exc: AskError) -> HttpResponse:
        return ApiError.from_ask(exc).response()

    @api.exception_handler(ValidationError)
    def invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        multipart = (request.content_type or "").startswith("multipart/")  # its body is read as a stream
        if any(e.get("loc", ())[:1] == ("file",) for e in exc.errors if isinstance(e, dict)):
            # an upload without files (an empty body too): say what to send, not that JSON is missing
            return ApiError("invalid_request", "Send one or more files as multipart/form-data fields named "
                                               "'files'.").response()
        if request.method in ("POST", "PUT", "PATCH") and not multipart and not request.body:  # ninja does not
            # parse an empty body
            try:
                check_body_headers(request)
            except ApiError as header_error:
                return header_error.response()
            return ApiError("bad_json", "The request body is not valid JSON (it is empty).").response()
        return ApiError("invalid_request", _validation_message(exc.errors)).response()

    @api.exception_handler(HttpError)
    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        if isinstance(exc.__cause__, ApiError):  # the body parser's own error
            return exc.__cause__.response()
        code = {400: "invalid_request", 401: "missing_token", 403: "forbidden", 404: "not_found",
                429: "rate_limited"}.get(exc.status_code, "internal")
        return ApiError(code, str(exc.message)).response()

    @api.exception_handler(MultiPartParserError)
    def unreadable_multipart(request: HttpRequest, exc: MultiPartParserError) -> HttpResponse:
        # e.g. 'Content-Type: multipart/form-data' without its boundary parameter: the client's mistake, not ours
        return ApiError("invalid_request", f"The multipart body could not be read ({str(exc)[:80]}). Send one or "
                                           "more files as multipart/form-data fields named 'files'.").response()

    @api.exception_handler(RequestDataTooBig)
    def too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
        return _too_large().response()

    @api.exception_handler(Http404)
    def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return ApiError("not_found", "Not found.").response()

    @api.exception_handler(Exception)
    def failed(request: HttpRequest, exc: Exception) -> HttpResponse:
        log.error("API request %s %s failed", request.method, request.path, exc_info=exc)
        return ApiError("internal", "The request failed on the server; please retry.").response()


def documented(ok: dict[int, Any], *codes: str, success: dict[str, Any] | None = None) -> dict[str, Any]:
    """``response`` and ``openapi_extra`` arguments of a ninja operation: its success responses (status: type; the
    first one's document updated with ``success``, e.g. a description or another content type), and the responses
    of the given error codes, grouped by status, each saying its codes and its headers (Retry-After on 429,
    WWW-Authenticate on 401, Allow on 405)."""
    by_status: dict[int, list[str]] = {}
    for code in codes:
        by_status.setdefault(STATUS[code], []).append(code)
    docs: dict[int, dict[str, Any]] = {next(iter(ok)): success} if success else {}
    for status, names in sorted(by_status.items()):
        docs[status] = {"description": "Error: " + ", ".join(names) + "."}
        header = {429: ("Retry-After", "Seconds until an ask would be accepted.", {"pattern": "^[0-9]+$"}),
                  401: ("WWW-Authenticate", "Bearer challenge (RFC 6750).", {}),
                  405: ("Allow", "The methods this path supports.", {})}.get(status)
        if header:
            name, description, schema = header
            docs[status]["headers"] = {name: {"description": description, "schema": {"type": "string", **schema}}}
    return {"response": {**ok, **{status: Error for status in by_status}},
            "openapi_extra": {"responses": docs}}


def refuse_other_methods(api: NinjaAPI, path: str, allowed: tuple[str, ...], view: Callable) -> None:
    """Register ``view`` (which raises method_not_allowed) for the methods ``path`` does not serve, without a token
    and outside the document (each operation documents its 405)."""
    api.api_operation([m for m in METHODS if m not in allowed], path, auth=None, include_in_schema=False,
                      response={405: Error})(view)


def method_not_allowed(request: HttpRequest, allowed: tuple[str, ...]) -> ApiError:
    """405 method_not_allowed naming the methods of the path (also in the Allow header)."""
    allow = ", ".join(allowed)
    return ApiError("method_not_allowed", f"{request.method} is not allowed here; use {allow}.",
                    headers={"Allow": allow})
