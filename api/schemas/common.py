"""The API types every resource shares: ids (JSON integers as JSON Schema counts them), text that is valid Unicode,
numbers that keep ints as ints, message statuses, the open object that keeps undeclared keys, and the error body."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints
from pydantic_core import PydanticCustomError

from api.errors import STATUS

#: Largest id accepted (a signed 64-bit integer, the database's limit).
MAX_ID = 2**63 - 1

Number = Union[int, float]  # an int stays an int on the way out (a float type would turn 16000 into 16000.0)
MessageStatus = Literal["complete", "interrupted", "failed", "streaming"]
ErrorCode = Literal[tuple(sorted(STATUS))]  # type: ignore[valid-type]


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


Text = Annotated[str, AfterValidator(_unicode)]
#: A client's id for a question: text of at most 64 characters, the length checked on the string as sent (a
#: max_length on the field is checked after Text's validator, and its message counted "items": the s43 breaker got
#: "Value should have at most 64 items after validation, not 65").
ClientId = Annotated[str, StringConstraints(max_length=64), AfterValidator(_unicode)]
# constraints before the validator: it runs first, and the JSON schema says minimum/maximum
Id = Annotated[int, Field(ge=1, le=MAX_ID), BeforeValidator(_json_id)]


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
