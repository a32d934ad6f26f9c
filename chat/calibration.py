"""Calibration of the token counter against the provider's exact counts, after an answer (never delaying it)."""

from __future__ import annotations

import logging

from chat.answering import PreparedAnswer
from grounding.providers import Usage, counter_of
from grounding.tokens import TokenCounter, calibrator

log = logging.getLogger("grounded.answer")

#: Exact counts asked of a provider's count endpoint per process before relying on answers' usage reports alone.
CALIBRATION_COUNTS = 5


async def tokens_calibrate(*, prepared: PreparedAnswer, usage: Usage | None = None) -> float | None:
    """Calibrate the cl100k factor of the provider's model (grounding.tokens.calibrator, keyed by the model's
    calibration key) with this answer's exact input count.

    The exact count comes from the provider's ``count_tokens`` (Anthropic ``messages.count_tokens``, when an API key
    is set) for the first CALIBRATION_COUNTS answers, else from the input tokens the answer's usage reported
    (input + cache read + cache creation). A failed count changes nothing. Returns the new factor, or None when
    there was no exact count (offline answerer, scripted provider).
    """
    provider, prompt = prepared.provider, prepared.prompt
    key = counter_of(provider).provider  # the calibration key of the provider's model (grounding.tokens)
    exact = 0
    count = getattr(provider, "count_tokens", None)
    if callable(count) and getattr(provider, "api_key", None) and calibrator.samples(key) < CALIBRATION_COUNTS:
        try:
            exact = int(await count(prompt, prepared.plan))
        except Exception as exc:  # calibration is optional; the static factor stays
            log.warning("token count for calibration failed: %s", exc)
    if not exact and usage is not None:
        exact = usage.total_input_tokens
    if exact <= 0:
        return None
    estimate = TokenCounter(provider=key).count_messages(prompt.system, prompt.messages)
    factor = calibrator.observe(key, estimate, exact)
    log.info("token calibration %s: estimate %d, exact %d, factor %.3f", key, estimate, exact, factor)
    return factor
