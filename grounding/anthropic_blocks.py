"""The content blocks of an Anthropic Messages API request that the provider (grounding.providers_anthropic) builds
from a prompt: a source as a ``search_result`` block (native citations), the context text without its sources
block (sent as search results instead), and the rough token estimate that decides whether a block is worth a cache
breakpoint. No Django imports."""

from __future__ import annotations

from typing import Any

from grounding.prompt import SOURCES_CLOSE, SOURCES_OPEN
from grounding.types import Source

__all__ = ["estimate_tokens", "search_result_block", "strip_sources_block"]


def estimate_tokens(text: str) -> int:
    """Rough token estimate (characters / 4), used only to decide whether a block is worth a cache breakpoint."""
    return len(text) // 4


def strip_sources_block(context: str) -> str:
    """The context text without its <sources> block (notes and summary stay).

    Source text is escaped (a look-alike "</sources>" inside a document becomes "&lt;/sources>"), so the first real
    closing delimiter after the opening one ends the block.
    """
    start = context.find(SOURCES_OPEN)
    if start < 0:
        return context
    end = context.find(SOURCES_CLOSE, start)
    if end < 0:
        return context[:start]
    return context[:start] + context[end + len(SOURCES_CLOSE):]


def search_result_block(source: Source) -> dict[str, Any]:
    """One source as a search_result content block with citations enabled."""
    title = f"{source.label}: {source.title}" if source.title else source.label
    return {
        "type": "search_result",
        "source": source.label,
        "title": title,
        "content": [{"type": "text", "text": source.text}],
        "citations": {"enabled": True},
    }
