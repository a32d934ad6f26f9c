"""OpenAI-compatible chat-completions provider (Ollama, llama.cpp server, vLLM): streaming SSE, text-mode citations.

POST {base_url}/chat/completions with ``stream: true``; each ``data: {...}`` line carries
``choices[0].delta.content`` (-> TextDelta), a ``finish_reason`` and, when the server supports
``stream_options.include_usage``, a final chunk with ``usage`` (-> Usage); ``data: [DONE]`` ends the stream (-> Done).
HTTP errors and connection failures raise ProviderError (grounding.providers); 429/5xx and
connection errors are retried with backoff before any text has been streamed.

Uses httpx2 (the HTTP client the anthropic SDK brings; plain httpx is not installed in this project). No Django.
"""

from __future__ import annotations

import asyncio
import copy
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx2

from grounding.prompt import Prompt
from grounding.providers import CompletionError, Done, Event, ProviderError, TextDelta, Usage, max_tokens_for
from grounding.types import ContextPlan


class OpenAICompatibleProvider:
    """Streams answers from an OpenAI-compatible ``/chat/completions`` endpoint."""

    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *, max_tokens: int = 1024,
                 temperature: float | None = 0.0, timeout: float = 60.0, max_retries: int = 2,
                 retry_delay: float = 0.5, include_usage: bool = True,
                 http_client: httpx2.AsyncClient | None = None,
                 sync_http_client: httpx2.Client | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.timeout = timeout
        self.max_retries = max_retries
        self.retry_delay = retry_delay
        self.include_usage = include_usage
        self.http_client = http_client
        self.sync_http_client = sync_http_client
        self.label = f"{model} (OpenAI-compatible server at {self.base_url})"

    def variant(self, *, model: str = "", citation_mode: str = "") -> "OpenAICompatibleProvider":
        """This provider with another model (a domain's setting), sharing its HTTP clients. OpenAI-compatible
        servers have text-mode citations only, so ``citation_mode`` is ignored."""
        if not model or model == self.model:
            return self
        other = copy.copy(self)
        other.model = model
        other.label = f"{model} (OpenAI-compatible server at {self.base_url})"
        return other

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def request(self, prompt: Prompt, plan: ContextPlan | None = None) -> dict[str, Any]:
        """The JSON body: the whole system text as the system message, then the chat messages (question last);
        ``max_tokens`` is the completion reserve the plan was made with (B02), else the provider's default."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": prompt.system}] + [dict(m) for m in prompt.messages],
            "stream": True,
            "max_tokens": max_tokens_for(plan, self.max_tokens),
        }
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.include_usage:
            body["stream_options"] = {"include_usage": True}
        return body

    def headers(self) -> dict[str, str]:
        headers = {"Accept": "text/event-stream", "Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    async def stream(self, prompt: Prompt, plan: ContextPlan | None = None) -> AsyncIterator[Event]:
        """Stream TextDelta pieces, then Usage (when reported) and Done.

        Raises:
            ProviderError: an HTTP error, a connection failure after the retries, or an error event mid-answer.
        """
        client = self.http_client or httpx2.AsyncClient(timeout=self.timeout)
        try:
            async for event in self._stream(client, prompt, plan):
                yield event
        finally:
            if self.http_client is None:
                await client.aclose()

    async def _stream(self, client: httpx2.AsyncClient, prompt: Prompt, plan: ContextPlan | None) -> AsyncIterator[Event]:
        body = self.request(prompt, plan)
        attempt = 0
        while True:
            streamed = False
            try:
                async with client.stream("POST", self.url, json=body, headers=self.headers(),
                                         timeout=self.timeout) as response:
                    if response.status_code >= 400:
                        detail = (await response.aread())[:300].decode("utf-8", "replace")
                        status = response.status_code
                        retryable = status == 429 or status >= 500
                        if retryable and attempt < self.max_retries:
                            attempt += 1
                            await asyncio.sleep(self.retry_delay * 2 ** (attempt - 1))
                            continue
                        raise self._http_error(status, detail, retryable)
                    usage: Usage | None = None
                    stop_reason = "end_turn"
                    async for line in response.aiter_lines():
                        line = line.strip()
                        if not line.startswith("data:"):
                            continue  # blank separators, ": keep-alive" comments, "event:" lines
                        data = line[len("data:"):].strip()
                        if data == "[DONE]":
                            break
                        try:
                            chunk = json.loads(data)
                        except json.JSONDecodeError:
                            continue
                        if isinstance(chunk, dict) and chunk.get("error"):
                            err = chunk["error"]
                            msg = err.get("message", "") if isinstance(err, dict) else str(err)
                            raise ProviderError(f"The model service failed mid-answer ({msg[:200]}).",
                                                retryable=True)
                        for choice in chunk.get("choices") or []:
                            if choice.get("index", 0) != 0:
                                continue
                            content = (choice.get("delta") or {}).get("content")
                            if content:
                                streamed = True
                                yield TextDelta(content)
                            if choice.get("finish_reason"):
                                stop_reason = _stop_reason(choice["finish_reason"])
                        if chunk.get("usage"):
                            u = chunk["usage"]
                            usage = Usage(input_tokens=int(u.get("prompt_tokens") or 0),
                                          output_tokens=int(u.get("completion_tokens") or 0))
                    yield usage or Usage()
                    yield Done(stop_reason=stop_reason)
                    return
            except (httpx2.TimeoutException, httpx2.TransportError) as exc:
                if not streamed and attempt < self.max_retries:
                    attempt += 1
                    await asyncio.sleep(self.retry_delay * 2 ** (attempt - 1))
                    continue
                kind = "the request timed out" if isinstance(exc, httpx2.TimeoutException) else "could not connect"
                if streamed:
                    kind = "the connection broke mid-answer"
                raise ProviderError(f"The model service is unavailable ({kind}). Please try again.",
                                    retryable=True) from exc

    def complete(self, system: str, messages: list[dict[str, str]], max_tokens: int = 512) -> str:
        """One blocking, non-streamed chat completion; the first choice's content (grounding.providers.Completer).

        429/5xx and connection errors are retried with backoff (``max_retries``).
        Raises:
            CompletionError: the call failed after retries, or the reply holds no text.
        """
        body, headers = self._completion_request(system, messages, max_tokens)
        client = self.sync_http_client or httpx2.Client(timeout=self.timeout)
        try:
            for attempt in range(self.max_retries + 1):
                try:
                    response = client.post(self.url, json=body, headers=headers, timeout=self.timeout)
                except (httpx2.TimeoutException, httpx2.TransportError) as exc:
                    if attempt < self.max_retries:
                        time.sleep(self.retry_delay * 2 ** attempt)
                        continue
                    raise CompletionError(f"OpenAI-compatible completion failed ({type(exc).__name__})") from exc
                if response.status_code == 429 or response.status_code >= 500:
                    if attempt < self.max_retries:
                        time.sleep(self.retry_delay * 2 ** attempt)
                        continue
                return _reply_text(response)
            raise CompletionError("OpenAI-compatible completion failed")  # pragma: no cover (loop always returns)
        finally:
            if self.sync_http_client is None:
                client.close()

    async def acomplete(self, system: str, messages: list[dict[str, str]], max_tokens: int = 512) -> str:
        """:meth:`complete` on an async HTTP client (grounding.providers.AsyncCompleter): no thread is held while
        the model answers; 429/5xx and connection errors are retried with backoff (``max_retries``).

        Raises:
            CompletionError: the call failed after retries, or the reply holds no text.
        """
        body, headers = self._completion_request(system, messages, max_tokens)
        client = self.http_client or httpx2.AsyncClient(timeout=self.timeout)
        try:
            for attempt in range(self.max_retries + 1):
                try:
                    response = await client.post(self.url, json=body, headers=headers, timeout=self.timeout)
                except (httpx2.TimeoutException, httpx2.TransportError) as exc:
                    if attempt < self.max_retries:
                        await asyncio.sleep(self.retry_delay * 2 ** attempt)
                        continue
                    raise CompletionError(f"OpenAI-compatible completion failed ({type(exc).__name__})") from exc
                if (response.status_code == 429 or response.status_code >= 500) and attempt < self.max_retries:
                    await asyncio.sleep(self.retry_delay * 2 ** attempt)
                    continue
                return _reply_text(response)
            raise CompletionError("OpenAI-compatible completion failed")  # pragma: no cover (loop always returns)
        finally:
            if self.http_client is None:
                await client.aclose()

    def _completion_request(self, system: str, messages: list[dict[str, str]], max_tokens: int
                            ) -> tuple[dict[str, Any], dict[str, str]]:
        """(JSON body, headers) of a non-streamed chat completion (:meth:`complete`, :meth:`acomplete`)."""
        body: dict[str, Any] = {"model": self.model, "stream": False, "max_tokens": max_tokens,
                                "messages": [{"role": "system", "content": system}] + [dict(m) for m in messages]}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        return body, {k: v for k, v in self.headers().items() if k != "Accept"}

    @staticmethod
    def _http_error(status: int, detail: str, retryable: bool) -> ProviderError:
        if retryable:
            return ProviderError(f"The model service is unavailable (HTTP {status}). Please try again.",
                                 retryable=True)
        return ProviderError(f"The model service rejected the request (HTTP {status}).", retryable=False)


def _reply_text(response: httpx2.Response) -> str:
    """The text of a non-streamed chat completion response.

    Raises:
        CompletionError: an HTTP error, a malformed reply or no text.
    """
    if response.status_code >= 400:
        raise CompletionError(f"OpenAI-compatible completion failed (HTTP {response.status_code})")
    try:
        text = response.json()["choices"][0]["message"]["content"] or ""
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise CompletionError("OpenAI-compatible completion returned a malformed reply") from exc
    if not text.strip():
        raise CompletionError("OpenAI-compatible completion returned no text")
    return text.strip()


def _stop_reason(finish_reason: str) -> str:
    """OpenAI finish_reason in the Anthropic vocabulary the app uses ("stop" -> "end_turn", "length" -> "max_tokens")."""
    return {"stop": "end_turn", "length": "max_tokens"}.get(finish_reason, finish_reason)
