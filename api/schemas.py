"""The HTTP API's request and response types: pydantic models that django-ninja validates requests and responses
with and generates the OpenAPI document at /api/v1/schema from. (Plain pydantic models rather than ninja's Schema,
which reads its input through attribute access and so would drop the keys an object has beyond its declared ones.)

Requests are validated by these types (an invalid one is a 400 ``invalid_request``). Two rules are documented here
but enforced by the services with codes of their own, so the types only describe them: the question's length and
blankness (chat.validation.validate_question: 413 ``message_too_long``, 400 ``empty_message``; its limits come from the
settings in force when the document is generated) and whether a domain exists and may be read (404
``unknown_domain``). Responses are validated on the way out; objects keep any key they have beyond the declared ones
(``extra="allow"``), so a payload is never cut short by its type.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Optional, Union

from django.conf import settings
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from api.errors import STATUS

#: Largest id accepted (a signed 64-bit integer, the database's limit).
MAX_ID = 2**63 - 1

Number = Union[int, float]  # an int stays an int on the way out (a float type would turn 16000 into 16000.0)
MessageStatus = Literal["complete", "interrupted", "failed", "streaming"]
ErrorCode = Literal[tuple(sorted(STATUS))]  # type: ignore[valid-type]


# --- request field types -----------------------------------------------------------------------------------------

def _unicode(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise PydanticCustomError("invalid_unicode", "not valid Unicode (it holds an unpaired surrogate)")
    return value


def _json_id(value: Any) -> Any:
    """A JSON integer as JSON Schema counts them: an int, or a number with no fraction (1.0); never a bool or a
    string (pydantic's lax mode would take true and "1")."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PydanticCustomError("id_type", f"must be an integer id (1 to {MAX_ID}) or null")
    return value


def _query_digits(value: Any) -> Any:
    """A query-string integer written with ASCII digits only (int() would also take "+5", " 5", "5_0" and "５")."""
    if isinstance(value, str) and not re.fullmatch(r"[0-9]{1,9}", value, re.ASCII):
        raise PydanticCustomError("digits", "must be an integer written with the digits 0-9")
    return value


Text = Annotated[str, AfterValidator(_unicode)]
# constraints before the validator: it runs first, and the JSON schema says minimum/maximum
Id = Annotated[int, Field(ge=1, le=MAX_ID), BeforeValidator(_json_id)]


def _question_schema(schema: dict[str, Any]) -> None:
    """The question's limits as chat.validation.validate_question applies them, from the settings in force."""
    schema.update(minLength=1, maxLength=settings.MAX_MESSAGE_CHARS, pattern="[^\\s\\x1c-\\x1f]",
                  description=f"The question: not blank, at most {settings.MAX_MESSAGE_CHARS} characters and "
                              f"{settings.MAX_MESSAGE_TOKENS} tokens (cl100k; a question over the token limit is "
                              "refused with message_too_long, 413).")


class AskRequest(BaseModel):
    """The body of POST /api/v1/ask. ``domain`` starts a new conversation; ``conversation`` continues one."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "anyOf": [
            {"required": ["domain"], "properties": {"domain": {"type": "string"}}},
            {"required": ["conversation"], "properties": {"conversation": {"type": "integer"}}},
        ],
        "examples": [{"question": "How often are laptops replaced?", "domain": "handbook"}],
    })

    question: Text = Field(json_schema_extra=_question_schema)
    domain: Optional[Text] = Field(
        None, description="Slug of the domain to ask (GET /api/v1/domains); starts a new conversation when no "
                          "conversation is given. An unknown domain, or one you may not read, is unknown_domain (404).")
    conversation: Optional[Id] = Field(
        None, description="Id of one's own conversation to continue (its earlier turns are the answer's memory).")
    client_id: Optional[Text] = Field(
        None, max_length=64,
        description="Your id for this question. Sending the same client_id again (after a lost response) returns "
                    "the stored answer instead of asking twice, and retries an answer that failed.")

    @model_validator(mode="after")
    def _domain_or_conversation(self) -> "AskRequest":
        if self.domain is None and self.conversation is None:
            raise PydanticCustomError("domain_or_conversation", "Give domain (to start a conversation) or "
                                                                "conversation (to continue one).")
        return self


#: ?limit= of GET /api/v1/conversations (page size) and ?offset= (conversations to skip).
PageLimit = Annotated[int, Field(ge=1, le=100), BeforeValidator(_query_digits)]
PageOffset = Annotated[int, Field(ge=0, le=1_000_000), BeforeValidator(_query_digits)]
#: A conversation id in the URL. Any path segment reaches the view, which answers not_found (404) for one that is no
#: id, as the pages do; documented as the integer it must be.
ConversationId = Annotated[str, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_ID})]


# --- responses ---------------------------------------------------------------------------------------------------

class Open(BaseModel):
    """An object that may carry more keys than it declares (they are kept)."""

    model_config = ConfigDict(extra="allow")


class ErrorBody(BaseModel):
    code: ErrorCode = Field(description="Stable error code; branch on it, not on the message.")
    message: str = Field(description="What went wrong and what to do, for people.")
    retry_after: Optional[int] = Field(None, ge=1, description="rate_limited: seconds to wait (also the Retry-After "
                                                                "header).")
    conversation: Optional[Id] = Field(None, description="The conversation the question is stored in, when it was "
                                                         "stored before the error.")
    message_id: Optional[int] = Field(None, description="The answer message concerned.")


class Error(BaseModel):
    """Every error: ``{"error": {"code", "message", ...}}``."""

    model_config = ConfigDict(extra="forbid")

    error: ErrorBody


class Location(Open):
    """Where a passage is in its original file ({} for Markdown, HTML and text): PDF pages (and those read by OCR),
    slides, or a sheet and its first and last rows."""

    format: Optional[Literal["pdf", "docx", "pptx", "xlsx", "csv"]] = None
    pages: Optional[list[int]] = Field(None, description="PDF pages the passage covers.")
    ocr_pages: Optional[list[int]] = Field(None, description="Pages whose text was read by OCR from a scan.")
    slides: Optional[list[int]] = None
    sheet: Optional[str] = None
    rows: Optional[list[int]] = Field(None, description="First and last spreadsheet row.")


class Citation(Open):
    label: str = Field(description="S1, S2, ... as in the answer text.")
    chunk_id: int
    title: str = Field(description="The document's title.")
    section: str
    version: Optional[str]
    date: Optional[str]
    cited_text: str = Field(description="The sentence of the source the claim relies on.")
    location: Optional[Location] = Field(None, description="Where the cited sentence is in the original file.")
    source_label: Optional[str] = Field(None, description='The title with the place: "Leave, p. 4".')


class AnswerSource(Open):
    label: str
    chunk_id: int
    title: str
    section: Optional[str] = None
    version: Optional[str] = None
    date: Optional[str] = None
    score: Optional[Number] = None
    tokens: Optional[int] = None
    location: Optional[Location] = Field(None, description="All the places in the original file the source covers.")
    source_label: Optional[str] = None


class Source(Open):
    """A frozen source as the model saw it (the snapshot stored with the answer)."""

    label: str
    title: str
    text: str
    chunk_id: Optional[int] = None
    chunk_ids: Optional[list[int]] = None
    document_id: Optional[int] = None
    section: Optional[str] = None
    version: Optional[str] = None
    date: Optional[str] = None
    status: Optional[str] = None
    score: Optional[Number] = None
    tokens: Optional[int] = None
    position: Optional[int] = None
    version_id: Optional[int] = None
    location: Optional[Location] = None
    source_label: Optional[str] = None


class Note(Open):
    """A context note, e.g. two sources that disagree or a superseded version."""

    kind: str
    labels: list[str]
    text: str


class Dropped(Open):
    """A retrieved passage left out of the prompt, and why."""

    chunk_id: int
    reason: str
    detail: Optional[str] = None


class Support(Open):
    """Per-sentence support check of the answer ({} for an abstention)."""

    coverage: Optional[Number] = None
    sentences: Optional[list[dict[str, Any]]] = None


class Budget(Open):
    """The one token budget of the answer's plan (grounding.types.BudgetJSON): sizes in tokens, and how they were
    counted ("exact", "calibrated" to the model's tokenizer by ``factor``, or "approximate" when the model's
    tokenizer is unknown)."""

    window: Optional[int] = None
    safety_margin: Optional[Number] = None
    usable: Optional[int] = None
    completion_reserve: Optional[int] = Field(None, description="Tokens kept for the answer; the request's "
                                                                "max_tokens.")
    system: Optional[int] = None
    question: Optional[int] = None
    available: Optional[int] = None
    history_share: Optional[int] = None
    sources_share: Optional[int] = None
    history: Optional[int] = None
    summary: Optional[int] = None
    sources: Optional[int] = None
    notes: Optional[int] = None
    total: Optional[int] = Field(None, description="The real count of the formatted prompt (never above limit).")
    limit: Optional[int] = None
    counting: Optional[Literal["exact", "calibrated", "approximate"]] = None
    factor: Optional[Number] = None


class Usage(Open):
    """Tokens the model provider reported for the answer (empty when no model was called)."""

    input_tokens: Optional[int] = None
    output_tokens: Optional[int] = None
    cache_read_tokens: Optional[int] = None
    cache_creation_tokens: Optional[int] = None
    total_input_tokens: Optional[int] = Field(None, description="input + cache read + cache creation")


class Answer(Open):
    """The `manage.py ask --json` result, plus where the turn is stored."""

    answer: str = Field(description="The answer text with [S#] citation markers; an abstention says the documents "
                                    "do not hold the answer.")
    abstained: bool
    citations: list[Citation]
    invalid_citations: list[str] = Field(description="Markers that named no source (left as plain text).")
    support: Optional[Support] = None
    sources: list[AnswerSource]
    notes: list[Note]
    budget: Budget
    dropped: list[Dropped]
    usage: Optional[Usage] = None
    provider: str
    prompt_version: Optional[int] = None
    status: MessageStatus
    html: Optional[str] = Field(None, description="The answer as sanitised HTML with citation chips.")
    conversation: Id
    message: Id
    question_message: Id
    client_id: Optional[str] = None


class Domain(BaseModel):
    slug: str
    name: str
    description: str


class DomainList(BaseModel):
    domains: list[Domain]


class UploadFile(Open):
    """One uploaded file of an ingestion job: its ingestion status ("queued", "running", then "new",
    "new_version", "unchanged", "restored" or "failed" with the reason in ``error``), and what came of it."""

    name: str
    size: int = Field(description="bytes")
    status: str
    title: str = ""
    version: str = ""
    chunks: int = 0
    tokens: int = 0
    error: str = ""
    pages_done: int = 0
    pages_total: int = 0
    notes: list[str] = []


class IngestJob(Open):
    """An upload into a domain, ingested in the background one file at a time."""

    id: Id
    domain: str
    status: Literal["queued", "running", "done", "failed"]
    finished: bool
    error: str = Field(description="why the whole job failed (a file's own error is on the file)")
    total: int
    done: int
    failed: int
    files: list[UploadFile]


class DomainRef(BaseModel):
    slug: str
    name: str


class Conversation(Open):
    id: Id
    title: str
    domain: DomainRef
    created_at: str = Field(json_schema_extra={"format": "date-time"})
    updated_at: str = Field(json_schema_extra={"format": "date-time"})


class ConversationPage(BaseModel):
    conversations: list[Conversation]
    next_offset: Optional[int] = Field(description="offset of the next page; null on the last page")


class Turn(Open):
    """One stored message: a question (role user) or an answer (role assistant) with its frozen sources, citations
    and notes."""

    id: Id
    role: Literal["user", "assistant"]
    text: str
    html: Optional[str] = None
    status: MessageStatus
    error: Optional[str] = None
    abstained: Optional[bool] = None
    provider: Optional[str] = None
    sources: list[Source]
    citations: list[Citation]
    invalid: Optional[list[str]] = None
    spans: Optional[list[dict[str, Any]]] = None
    support: Optional[dict[str, Any]] = None
    notes: Optional[list[Note]] = None
    client_id: Optional[str] = None
    created_at: str = Field(json_schema_extra={"format": "date-time"})
    reply_to: Optional[int] = Field(description="For an answer: the question's id.")


class ConversationDetail(Conversation):
    messages: list[Turn]
