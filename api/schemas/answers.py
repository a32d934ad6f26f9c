"""The API types of asking: the body of POST /api/v1/ask, and the answer it returns (also a stored turn's parts):
citations, sources as planned and as frozen with the answer, notes, dropped passages, support, token budget, usage."""

from __future__ import annotations

from typing import Any, Literal, Optional

from django.conf import settings
from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from api.schemas.common import ClientId, Id, MessageStatus, Number, Open, Text


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
    client_id: Optional[ClientId] = Field(
        None,
        description="Your id for this question. Sending the same client_id again (after a lost response) returns "
                    "the stored answer instead of asking twice, and retries an answer that failed.")

    @model_validator(mode="after")
    def _domain_or_conversation(self) -> "AskRequest":
        if self.domain is None and self.conversation is None:
            raise PydanticCustomError("domain_or_conversation", "Give domain (to start a conversation) or "
                                                                "conversation (to continue one).")
        return self


class Location(Open):
    """Where a passage is in its original file ({} for Markdown, HTML and text): PDF pages (and those read by OCR),
    slides, a sheet and its first and last rows, or a Word document's paragraphs."""

    format: Optional[Literal["pdf", "docx", "pptx", "xlsx", "csv"]] = None
    pages: Optional[list[int]] = Field(None, description="PDF pages the passage covers.")
    ocr_pages: Optional[list[int]] = Field(None, description="Pages whose text was read by OCR from a scan.")
    slides: Optional[list[int]] = None
    sheet: Optional[str] = None
    rows: Optional[list[int]] = Field(None, description="First and last spreadsheet row.")
    paragraphs: Optional[list[int]] = Field(None, description="Word paragraphs the passage covers (non-empty "
                                                               "paragraphs counted from 1, a table counting as one).")


class Citation(Open):
    label: str = Field(description="S1, S2, ... as in the answer text.")
    chunk_id: int = Field(description="The chunk holding the cited sentence (of a source merged from adjacent chunks, "
                                      "the one the sentence is in).")
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
