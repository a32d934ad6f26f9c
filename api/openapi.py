"""The OpenAPI 3.1 document of the HTTP API, served at /api/v1/schema.

Written by hand next to the views (plain Django views, no framework): tests/api/test_schema.py runs it against the
app with schemathesis (every response must match it: status codes, content types, bodies, headers) and checks that
every route of api/urls.py is in it. The limits (question length) come from the settings in force.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from api.errors import STATUS

JSON = "application/json"
MAX_ID = 2**63 - 1


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str, **extra: Any) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}, **extra}


def _errors(*codes: str) -> dict[str, Any]:
    """Responses for the given error codes, grouped by their HTTP status."""
    by_status: dict[int, list[str]] = {}
    for code in codes:
        by_status.setdefault(STATUS[code], []).append(code)
    out: dict[str, Any] = {}
    for status, names in sorted(by_status.items()):
        response = _json(_ref("Error"), "Error: " + ", ".join(names) + ".")
        if status == 429:
            response["headers"] = {"Retry-After": {
                "description": "Seconds until an ask would be accepted.",
                "schema": {"type": "string", "pattern": "^[0-9]+$"}}}
        if status == 401:
            response["headers"] = {"WWW-Authenticate": {"description": "Bearer challenge (RFC 6750).",
                                                        "schema": {"type": "string"}}}
        if status == 405:
            response["headers"] = {"Allow": {"description": "The methods this path supports.",
                                             "schema": {"type": "string"}}}
        out[str(status)] = response
    return out


AUTH_ERRORS = ("missing_token", "invalid_token", "revoked_token")


def document() -> dict[str, Any]:
    max_chars = settings.MAX_MESSAGE_CHARS
    id_schema = {"type": "integer", "minimum": 1, "maximum": MAX_ID}
    nullable_str = {"type": ["string", "null"]}
    schemas: dict[str, Any] = {
        "Error": {
            "type": "object", "required": ["error"], "additionalProperties": False,
            "properties": {"error": {
                "type": "object", "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string", "enum": sorted(STATUS),
                             "description": "Stable error code; branch on it, not on the message."},
                    "message": {"type": "string", "description": "What went wrong and what to do, for people."},
                    "retry_after": {"type": "integer", "minimum": 1,
                                    "description": "rate_limited: seconds to wait (also the Retry-After header)."},
                    "conversation": {**id_schema, "description": "The conversation the question is stored in, when "
                                                                 "it was stored before the error."},
                    "message_id": {"type": ["integer", "null"], "description": "The answer message concerned."},
                },
            }},
        },
        "AskRequest": {
            "type": "object", "additionalProperties": False, "required": ["question"],
            "properties": {
                "question": {"type": "string", "minLength": 1, "maxLength": max_chars,
                             "pattern": "[^\\s\\x1c-\\x1f]",
                             "description": f"The question: not blank, at most {max_chars} characters and "
                                            f"{settings.MAX_MESSAGE_TOKENS} tokens (cl100k; a question over the "
                                            "token limit is refused with message_too_long, 413)."},
                "domain": {"type": ["string", "null"], "pattern": "^[-a-zA-Z0-9_]+$", "maxLength": 50,
                           "description": "Slug of the domain to ask (GET /api/v1/domains); starts a new "
                                          "conversation when no conversation is given."},
                "conversation": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_ID,
                                 "description": "Id of one's own conversation to continue (its earlier turns are "
                                                "the answer's memory)."},
                "client_id": {"type": ["string", "null"], "maxLength": 64,
                              "description": "Your id for this question. Sending the same client_id again (after a "
                                             "lost response) returns the stored answer instead of asking twice, "
                                             "and retries an answer that failed."},
            },
            "anyOf": [
                {"required": ["domain"], "properties": {"domain": {"type": "string"}}},
                {"required": ["conversation"], "properties": {"conversation": {"type": "integer"}}},
            ],
            "examples": [{"question": "How often are laptops replaced?", "domain": "handbook"}],
        },
        "Citation": {
            "type": "object", "required": ["label", "chunk_id", "title", "section", "version", "date", "cited_text"],
            "properties": {
                "label": {"type": "string", "description": "S1, S2, ... as in the answer text."},
                "chunk_id": {"type": "integer"},
                "title": {"type": "string", "description": "The document's title."},
                "section": {"type": "string"},
                "version": nullable_str, "date": nullable_str,
                "cited_text": {"type": "string", "description": "The sentence of the source the claim relies on."},
                "location": {"$ref": "#/components/schemas/Location"},
                "source_label": {"type": "string", "description": "The title with the place: \"Leave, p. 4\"."},
            },
        },
        "Location": {
            "description": "Where the passage is in its original file ({} for Markdown, HTML and text).",
            "type": "object",
            "properties": {
                "format": {"type": "string", "enum": ["pdf", "docx", "pptx", "xlsx", "csv"]},
                "pages": {"type": "array", "items": {"type": "integer", "minimum": 1},
                          "description": "PDF pages the passage covers."},
                "ocr_pages": {"type": "array", "items": {"type": "integer", "minimum": 1},
                              "description": "Pages whose text was read by OCR from a scan."},
                "slides": {"type": "array", "items": {"type": "integer", "minimum": 1}},
                "sheet": {"type": "string"},
                "rows": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 2, "maxItems": 2,
                         "description": "First and last spreadsheet row."},
            },
        },
        "AnswerSource": {
            "type": "object", "required": ["label", "chunk_id", "title"],
            "properties": {
                "label": {"type": "string"}, "chunk_id": {"type": "integer"}, "title": {"type": "string"},
                "section": {"type": "string"}, "version": nullable_str, "date": nullable_str,
                "score": {"type": "number"}, "tokens": {"type": "integer"},
                "location": {"$ref": "#/components/schemas/Location"}, "source_label": {"type": "string"},
            },
        },
        "Source": {
            "description": "A frozen source as the model saw it (the snapshot stored with the answer).",
            "type": "object", "required": ["label", "title", "text"],
            "properties": {
                "label": {"type": "string"}, "chunk_id": {"type": "integer"},
                "chunk_ids": {"type": "array", "items": {"type": "integer"}}, "document_id": {"type": "integer"},
                "title": {"type": "string"}, "section": {"type": "string"}, "version": nullable_str,
                "date": nullable_str, "status": {"type": "string"}, "text": {"type": "string"},
                "score": {"type": "number"}, "tokens": {"type": "integer"}, "position": {"type": "integer"},
                "version_id": {"type": "integer"}, "location": {"$ref": "#/components/schemas/Location"},
                "source_label": {"type": "string"},
            },
        },
        "Note": {
            "description": "A context note, e.g. two sources that disagree or a superseded version.",
            "type": "object", "required": ["kind", "labels", "text"],
            "properties": {"kind": {"type": "string"}, "labels": {"type": "array", "items": {"type": "string"}},
                           "text": {"type": "string"}},
        },
        "Dropped": {
            "description": "A retrieved passage left out of the prompt, and why.",
            "type": "object", "required": ["chunk_id", "reason"],
            "properties": {"chunk_id": {"type": "integer"}, "reason": {"type": "string"},
                           "detail": {"type": "string"}},
        },
        "Budget": {
            "description": "Token counts per part of the prompt (window, usable, system, question, history, "
                           "sources, notes, total, ...).",
            "type": "object", "additionalProperties": {"type": "number"},
        },
        "Support": {
            "description": "Per-sentence support check of the answer ({} for an abstention).",
            "type": "object",
            "properties": {"coverage": {"type": "number"},
                           "sentences": {"type": "array", "items": {"type": "object"}}},
        },
        "Answer": {
            "description": "The `manage.py ask --json` result, plus where the turn is stored.",
            "type": "object",
            "required": ["answer", "abstained", "citations", "invalid_citations", "sources", "notes", "budget",
                         "dropped", "provider", "status", "conversation", "message", "question_message"],
            "properties": {
                "answer": {"type": "string", "description": "The answer text with [S#] citation markers; an "
                                                            "abstention says the documents do not hold the answer."},
                "abstained": {"type": "boolean"},
                "citations": {"type": "array", "items": _ref("Citation")},
                "invalid_citations": {"type": "array", "items": {"type": "string"},
                                      "description": "Markers that named no source (left as plain text)."},
                "support": _ref("Support"),
                "sources": {"type": "array", "items": _ref("AnswerSource")},
                "notes": {"type": "array", "items": _ref("Note")},
                "budget": _ref("Budget"),
                "dropped": {"type": "array", "items": _ref("Dropped")},
                "provider": {"type": "string"},
                "prompt_version": {"type": ["integer", "null"]},
                "status": {"type": "string", "enum": ["complete", "interrupted", "failed", "streaming"]},
                "html": {"type": "string", "description": "The answer as sanitised HTML with citation chips."},
                "conversation": id_schema, "message": id_schema, "question_message": id_schema,
                "client_id": {"type": "string"},
            },
        },
        "Domain": {
            "type": "object", "required": ["slug", "name", "description"],
            "properties": {"slug": {"type": "string"}, "name": {"type": "string"},
                           "description": {"type": "string"}},
        },
        "Conversation": {
            "type": "object", "required": ["id", "title", "domain", "created_at", "updated_at"],
            "properties": {
                "id": id_schema, "title": {"type": "string"},
                "domain": {"type": "object", "required": ["slug", "name"],
                           "properties": {"slug": {"type": "string"}, "name": {"type": "string"}}},
                "created_at": {"type": "string", "format": "date-time"},
                "updated_at": {"type": "string", "format": "date-time"},
            },
        },
        "Turn": {
            "description": "One stored message: a question (role user) or an answer (role assistant) with its "
                           "frozen sources, citations and notes.",
            "type": "object",
            "required": ["id", "role", "text", "status", "sources", "citations", "created_at"],
            "properties": {
                "id": id_schema, "role": {"type": "string", "enum": ["user", "assistant"]},
                "text": {"type": "string"}, "html": {"type": "string"},
                "status": {"type": "string", "enum": ["complete", "interrupted", "failed", "streaming"]},
                "error": {"type": "string"}, "abstained": {"type": "boolean"}, "provider": {"type": "string"},
                "sources": {"type": "array", "items": _ref("Source")},
                "citations": {"type": "array", "items": _ref("Citation")},
                "invalid": {"type": "array", "items": {"type": "string"}},
                "spans": {"type": "array", "items": {"type": "object"}},
                "support": {"type": "object"},
                "notes": {"type": "array", "items": _ref("Note")},
                "client_id": {"type": "string"},
                "created_at": {"type": "string", "format": "date-time"},
                "reply_to": {"type": ["integer", "null"], "description": "For an answer: the question's id."},
            },
        },
        "ConversationDetail": {"allOf": [_ref("Conversation"), {
            "type": "object", "required": ["messages"],
            "properties": {"messages": {"type": "array", "items": _ref("Turn")}},
        }]},
    }
    conversation_id = {"name": "conversation_id", "in": "path", "required": True, "schema": id_schema}
    bearer = [{"bearerAuth": []}]
    events_description = (
        "With `Accept: text/event-stream`: server-sent events, the websocket's frames in order: `accepted` "
        "(conversation and question ids), `plan` (sources, notes, budget), `delta` (answer text, in order by "
        "`seq`), then `done` (the stored answer) or `error` (code and message; the question stays stored). "
        "Each event is `event: <type>` and `data: <the frame as JSON>`. Lines starting with `:` are keep-alives.")
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Grounded chat API",
            "version": "1.0.0",
            "description": (
                "Grounded answers from an organisation's documents, with citations, as JSON for other tools. "
                "Authenticate with a personal API token (Settings → API tokens) as `Authorization: Bearer <token>`. "
                "A token acts as its user: the same domains, conversations and ask limit as in the browser. "
                "Errors are `{\"error\": {\"code\", \"message\"}}` with a stable code."),
        },
        "paths": {
            "/api/v1/ask": {"post": {
                "operationId": "ask",
                "summary": "Ask a question; get a grounded answer with citations",
                "description": "Stores the question and its answer as a turn of a conversation (a new one when "
                               "only `domain` is given). " + events_description,
                "security": bearer,
                "requestBody": {"required": True, "content": {JSON: {"schema": _ref("AskRequest")}}},
                "responses": {
                    "200": {"description": "The answer (JSON), or its frames as server-sent events.",
                            "content": {JSON: {"schema": _ref("Answer")},
                                        "text/event-stream": {"schema": {"type": "string"}}}},
                    **_errors(*AUTH_ERRORS, "bad_json", "invalid_request", "empty_message", "message_too_long",
                              "request_too_large", "unsupported_media_type", "method_not_allowed", "forbidden",
                              "not_found", "unknown_domain", "domain_mismatch", "busy", "in_progress",
                              "rate_limited", "budget", "provider_error", "domain_settings", "internal"),
                },
            }},
            "/api/v1/conversations": {"get": {
                "operationId": "listConversations",
                "summary": "Your conversations, newest first",
                "description": "Only conversations in domains you may read (as on the chat page).",
                "security": bearer,
                "parameters": [
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100,
                                                                 "default": 50}},
                    {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0,
                                                                  "maximum": 1_000_000, "default": 0}},
                ],
                "responses": {
                    "200": _json({"type": "object", "required": ["conversations", "next_offset"],
                                  "properties": {"conversations": {"type": "array", "items": _ref("Conversation")},
                                                 "next_offset": {"type": ["integer", "null"],
                                                                 "description": "offset of the next page; null on "
                                                                                "the last page"}}},
                                 "A page of conversations."),
                    **_errors(*AUTH_ERRORS, "invalid_request", "method_not_allowed", "internal"),
                },
            }},
            "/api/v1/conversations/{conversation_id}": {
                "get": {
                    "operationId": "getConversation",
                    "summary": "One of your conversations with its turns and their frozen sources",
                    "security": bearer,
                    "parameters": [conversation_id],
                    "responses": {
                        "200": _json(_ref("ConversationDetail"), "The conversation and its messages, oldest first."),
                        **_errors(*AUTH_ERRORS, "forbidden", "not_found", "method_not_allowed", "internal"),
                    },
                },
                "delete": {
                    "operationId": "deleteConversation",
                    "summary": "Delete one of your conversations",
                    "security": bearer,
                    "parameters": [conversation_id],
                    "responses": {
                        "204": {"description": "Deleted."},
                        **_errors(*AUTH_ERRORS, "not_found", "busy", "method_not_allowed", "internal"),
                    },
                },
            },
            "/api/v1/domains": {"get": {
                "operationId": "listDomains",
                "summary": "The domains you may ask",
                "security": bearer,
                "responses": {
                    "200": _json({"type": "object", "required": ["domains"],
                                  "properties": {"domains": {"type": "array", "items": _ref("Domain")}}},
                                 "The readable domains, by slug."),
                    **_errors(*AUTH_ERRORS, "method_not_allowed", "internal"),
                },
            }},
            "/api/v1/schema": {"get": {
                "operationId": "getSchema",
                "summary": "This OpenAPI document",
                "security": [],
                "responses": {
                    "200": _json({"type": "object"}, "The OpenAPI 3.1 document."),
                    **_errors("method_not_allowed", "internal"),
                },
            }},
        },
        "components": {
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer",
                                               "description": "A personal API token (gct_...)."}},
            "schemas": schemas,
        },
    }
