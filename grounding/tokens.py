"""Token counting with tiktoken's cl100k_base, loaded from a bundled file (no network).

Special-token text such as "<|endoftext|>" is counted and passed through as ordinary text (several tokens), never
as a special id and never as an error (case C01). Unknown model names fall back to the default counter and say the
count is approximate (case C02).
"""

from __future__ import annotations

import re
import threading
from collections import deque
from dataclasses import dataclass
from typing import Sequence

from grounding.token_pieces import raw_count, cl100k, raw_framed


#: Tokens added per chat message by the role/turn framing (OpenAI's published cl100k accounting: 3 per message,
#: 3 more to prime the reply). Used for every provider; the calibration factor absorbs the difference.
MESSAGE_OVERHEAD = 3
REPLY_PRIMING = 3

#: Multiplicative calibration of cl100k counts per provider, measured against the provider's own counter. Claude's
#: tokenizer yields more tokens than cl100k for English prose; 1.0 means "cl100k is exact".
CALIBRATION = {"extractive": 1.0, "scripted": 1.0, "openai": 1.0, "anthropic": 1.15}

#: Providers that call no model: their budget is only ours, so cl100k is exact for them.
NO_MODEL = frozenset({"extractive", "scripted"})
#: Models whose own tokenizer is cl100k_base (OpenAI's tiktoken model table): counts are exact.
CL100K_MODELS = re.compile(r"^(gpt-4(?!o|\.1|\.5)|gpt-3\.5|text-embedding-(3|ada))", re.I)
#: Model families whose tokenizer is known to differ from cl100k by a measured factor (the calibration key, the
#: pattern of model names, the static factor until the provider's own counts refine it). Claude models up to the
#: 4.x generation: count_tokens reports 10-20% more than cl100k on English prose. A model outside every family (a
#: future Claude, a local model behind an OpenAI-compatible server) is counted as "approximate".
KNOWN_FAMILIES: tuple[tuple[str, re.Pattern[str], float], ...] = (
    ("anthropic", re.compile(r"^claude-(instant|2|3|3-5|3-7|(sonnet|opus|haiku)-4)([-.@]|$)", re.I), 1.15),
)



@dataclass(frozen=True)
class TokenCounter:
    """Counts tokens of text and chat messages.

    Attributes:
        provider: the calibration key the counts are calibrated for (a provider name, a model family, or
            "<provider>:<model>" for an unknown model).
        factor: calibration factor applied to raw cl100k counts (>= 1.0 rounds up).
        counting: "exact", "calibrated" or "approximate" (grounding.types.Counting): how the counts relate to the
            model's own tokenizer.
    """

    provider: str = "extractive"
    factor: float = 1.0
    counting: str = "exact"

    @property
    def approximate(self) -> bool:
        """True when the model's tokenizer is unknown and plain cl100k stands in."""
        return self.counting == "approximate"

    def scale(self, raw: int) -> int:
        """The calibrated count of a text whose raw cl100k count is ``raw`` (tokens, rounded up): what
        :meth:`count` gives for that text, for counts stored at ingestion or at save (B01)."""
        return raw if self.factor == 1.0 else int(-(-raw * self.factor // 1))

    def raw(self, text: str) -> int:
        """cl100k token count of ``text`` with special-token text treated as plain text (tokens)."""
        return raw_count(text)

    def count(self, text: str) -> int:
        """Calibrated token count of ``text`` (tokens, rounded up)."""
        return self.scale(raw_count(text))

    def count_framed(self, prefix: str, body: str, suffix: str, body_raw: int | None = None) -> int:
        """Calibrated token count of ``prefix + body + suffix`` (tokens), exactly what :meth:`count` gives for the
        joined text, from the body's stored raw count when one is given (``body_raw``: the raw cl100k count of
        ``body``, e.g. a chunk's count made at ingestion), so a long body is not encoded again to be framed.

        See :func:`raw_framed` for when the stored count can be used; otherwise the joined text is counted.
        """
        return self.scale(raw_framed(prefix, body, suffix, body_raw))

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
        return cl100k().encode_ordinary(text)

    def decode(self, ids: Sequence[int]) -> str:
        """Text of token ids (inverse of :meth:`encode`)."""
        return cl100k().decode(list(ids))


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

    def factor(self, provider: str, default: float | None = None) -> float:
        """The calibration factor (>= floor, <= ceil); without observations ``default``, else the static
        CALIBRATION value of the key (1.0 for an unknown key)."""
        with self._lock:
            ratios = list(self._ratios.get(provider, ()))
        if not ratios:
            return default if default is not None else CALIBRATION.get(provider, 1.0)
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


def calibration_key(provider: str, model: str = "") -> tuple[str, str, float]:
    """How a provider's model is counted: (calibration key, counting, static factor).

    The model name decides (B04), not the provider's name: a provider that calls no model counts exactly; a cl100k
    model counts exactly; a model of a KNOWN_FAMILIES family is calibrated with the family's factor; any other model
    is approximate under its own key "<provider>:<model>": cl100k with the provider's static factor (CALIBRATION;
    1.0 for an OpenAI-compatible server), erring on the side of over-counting for an unknown Claude model. Without a
    model name the provider's name stands for its default family, and an unknown provider is approximate.
    """
    if provider in NO_MODEL:
        return provider, "exact", 1.0
    if model:
        if CL100K_MODELS.match(model):
            return model.lower(), "exact", 1.0
        for key, pattern, factor in KNOWN_FAMILIES:
            if pattern.match(model):
                return key, "calibrated", factor
        return f"{provider}:{model.lower()}", "approximate", CALIBRATION.get(provider, 1.0)
    if provider in CALIBRATION:
        return provider, ("exact" if CALIBRATION[provider] == 1.0 and provider != "openai" else "calibrated"), \
            CALIBRATION[provider]
    return provider or "unknown", "approximate", 1.0


def counter_for(provider: str, model: str = "") -> TokenCounter:
    """The token counter for a provider and the model it answers with, with its current calibration factor.

    ``counting`` says how far to trust the counts (grounding.types.Counting): "exact" (no model, or a cl100k
    model), "calibrated" (a known family's static factor, or any model whose factor rests on the provider's exact
    counts in :data:`calibrator`), "approximate" (an unknown model: plain cl100k, case C02). An OpenAI-compatible
    server without a known model name is approximate: its tokenizer is unknown.
    """
    key, counting, static = calibration_key(provider, model)
    if calibrator.samples(key):
        return TokenCounter(provider=key, factor=calibrator.factor(key, default=static), counting="calibrated")
    if provider == "openai" and not model:
        counting = "approximate"
    return TokenCounter(provider=key, factor=static, counting=counting)
