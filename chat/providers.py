"""Which model answers and which summarizer folds old turns: the provider registry.

The registry is handed to the ask orchestration by each door (socket, API, commands); tests hand in a scripted
provider with :meth:`ProviderRegistry.use` instead of patching module globals. With nothing configured the offline
extractive answerer answers and the extractive summarizer summarizes.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Iterator

from django.conf import settings

from chat.errors import AskError
from grounding.memory import ExtractiveSummarizer, LLMSummarizer, Summarizer
from grounding.extractive import ExtractiveAnswerer
from grounding.providers import Provider, completer_for
from knowledge.models import Domain

log = logging.getLogger("grounded.providers")


def provider_from_settings() -> Provider:
    """The answer provider the environment configures (settings.LLM_PROVIDER):

    - "anthropic" (the default when ANTHROPIC_API_KEY is set): Claude through the anthropic SDK, streaming, prompt
      caching, text or native citations (ANTHROPIC_MODEL, ANTHROPIC_CITATION_MODE);
    - "openai": an OpenAI-compatible chat-completions server such as Ollama, llama.cpp or vLLM (OPENAI_BASE_URL,
      OPENAI_API_KEY, OPENAI_MODEL);
    - "extractive": the offline extractive answerer, the default with no configuration.
    An unknown name is logged and the offline answerer used.
    """
    name = settings.LLM_PROVIDER
    if name == "anthropic":
        from grounding.providers_anthropic import AnthropicProvider

        return AnthropicProvider(api_key=settings.ANTHROPIC_API_KEY, model=settings.ANTHROPIC_MODEL,
                                 citation_mode=settings.ANTHROPIC_CITATION_MODE)
    if name == "openai":
        from grounding.providers_openai import OpenAICompatibleProvider

        return OpenAICompatibleProvider(base_url=settings.OPENAI_BASE_URL, model=settings.OPENAI_MODEL,
                                        api_key=settings.OPENAI_API_KEY or None)
    if name != "extractive":
        log.warning("unknown LLM_PROVIDER=%s; using the offline extractive answerer", name)
    return ExtractiveAnswerer()


class ProviderRegistry:
    """The answer provider and the summarizer an ask uses, built lazily from settings on first use.

    Thread-safe; one instance (:data:`registry`) serves the process. ``use`` swaps either for the duration of a
    ``with`` block (tests, evaluation with another provider) and restores what was there.
    """

    def __init__(self, *, answerer: Provider | None = None, summarizer: Summarizer | None = None) -> None:
        self._answerer = answerer
        self._summarizer = summarizer
        self._lock = threading.Lock()

    def answerer(self) -> Provider:
        """The configured provider (see :func:`provider_from_settings`)."""
        with self._lock:
            if self._answerer is None:
                self._answerer = provider_from_settings()
            return self._answerer

    def for_domain(self, domain: Domain) -> Provider:
        """The provider a domain's answers use: the configured one, with the domain's model and citation mode when
        it sets them (providers without those options, like the offline answerer, are returned unchanged).

        Raises:
            AskError(domain_settings): the domain names a citation mode the provider does not know.
        """
        provider = self.answerer()
        variant = getattr(provider, "variant", None)
        if callable(variant) and (domain.model or domain.citation_mode != "text"):
            try:
                return variant(model=domain.model, citation_mode=domain.citation_mode)
            except ValueError as exc:
                raise AskError("domain_settings", f"The settings of domain {domain.slug!r} are invalid ({exc}); "
                                                  "an administrator must correct them.") from exc
        return provider

    def summarizer(self) -> Summarizer:
        """The provider's model as summarizer when it offers non-streamed completions and settings.LLM_SUMMARIZER is
        on; otherwise the offline extractive summarizer (the default with no configuration)."""
        with self._lock:
            if self._summarizer is not None:
                return self._summarizer
        provider = self.answerer()
        complete = completer_for(provider) if settings.LLM_SUMMARIZER else None
        if complete is not None:
            summarizer: Summarizer = LLMSummarizer(complete)
            summarizer.name = f"llm:{provider.name}"
        else:
            summarizer = ExtractiveSummarizer()
        with self._lock:
            self._summarizer = self._summarizer or summarizer
            return self._summarizer

    @contextlib.contextmanager
    def use(self, answerer: Provider | None = None, summarizer: Summarizer | None = None) -> Iterator["ProviderRegistry"]:
        """Answer with ``answerer`` (and summarize with ``summarizer``, else the one that goes with it) inside the
        block; the previous choice comes back after it."""
        with self._lock:
            saved = (self._answerer, self._summarizer)
            if answerer is not None:
                self._answerer = answerer
                self._summarizer = summarizer
            elif summarizer is not None:
                self._summarizer = summarizer
        try:
            yield self
        finally:
            with self._lock:
                self._answerer, self._summarizer = saved

    def configure(self, *, answerer: Provider | None = None, summarizer: Summarizer | None = None) -> None:
        """From now on answer with ``answerer`` (the summarizer then goes with it unless given) and/or summarize with
        ``summarizer`` (a benchmark server, a test)."""
        with self._lock:
            if answerer is not None:
                self._answerer, self._summarizer = answerer, summarizer
            elif summarizer is not None:
                self._summarizer = summarizer

    def state(self) -> tuple[Provider | None, Summarizer | None]:
        """What is configured now (None: not built yet), for :meth:`restore`."""
        with self._lock:
            return self._answerer, self._summarizer

    def restore(self, state: tuple[Provider | None, Summarizer | None]) -> None:
        """Put back what :meth:`state` returned."""
        with self._lock:
            self._answerer, self._summarizer = state

    def reset(self) -> None:
        """Forget the built provider and summarizer (the next use reads settings again)."""
        with self._lock:
            self._answerer = self._summarizer = None


#: The process's registry: what the doors hand to the ask orchestration.
registry = ProviderRegistry()
