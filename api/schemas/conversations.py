"""The API types of conversations: paging through one's conversations, a conversation with its stored turns, and
the conversation id in URLs."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from api.schemas.answers import Citation, Note, Source
from api.schemas.common import MAX_ID, Id, MessageStatus, Open


def _query_digits(value: Any) -> Any:
    """A query-string integer written with ASCII digits only (int() would also take "+5", " 5", "5_0" and "５"); one
    of more than 18 digits is refused as too large (the field's own bounds say how large it may be: "limit=1000000000"
    was refused as not written with digits, the s22 break run)."""
    if isinstance(value, str) and not re.fullmatch(r"[0-9]+", value, re.ASCII):
        raise PydanticCustomError("digits", "must be an integer written with the digits 0-9")
    if isinstance(value, str) and len(value) > 18:
        raise PydanticCustomError("too_large", "is too large")
    return value


#: ?limit= of GET /api/v1/conversations (page size) and ?offset= (conversations to skip).
PageLimit = Annotated[int, Field(ge=1, le=100), BeforeValidator(_query_digits)]
PageOffset = Annotated[int, Field(ge=0, le=1_000_000), BeforeValidator(_query_digits)]
#: A conversation id in the URL. Any path segment reaches the view, which answers not_found (404) for one that is no
#: id, as the pages do; documented as the integer it must be.
ConversationId = Annotated[str, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_ID})]


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
