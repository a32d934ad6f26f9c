"""Helpers of the HTTP API tests."""

from __future__ import annotations

import json

from django.test import Client


class ApiClient:
    """Django's test client with ``Authorization: Bearer <token>`` on every request (no token: none sent)."""

    def __init__(self, token: str | None, **client_kwargs) -> None:
        self.client = Client(**client_kwargs)
        self.token = token

    def _headers(self, headers: dict | None) -> dict:
        out = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return {**out, **(headers or {})}

    def get(self, path: str, data: dict | None = None, headers: dict | None = None):
        return self.client.get(path, data, headers=self._headers(headers))

    def delete(self, path: str, headers: dict | None = None):
        return self.client.delete(path, headers=self._headers(headers))

    def post(self, path: str, data=None, headers: dict | None = None, content_type: str = "application/json"):
        body = data if isinstance(data, (str, bytes)) else json.dumps(data)
        return self.client.post(path, body, content_type=content_type, headers=self._headers(headers))



def error_of(response) -> tuple[int, str]:
    """(status, error code) of a typed JSON error response."""
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"], body
    return response.status_code, body["error"]["code"]


def sse_frames(body: bytes) -> list[dict]:
    """The frames of a server-sent-event body, checking that each event's name is its frame's type."""
    frames = []
    for block in body.decode().split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        if not lines:
            continue
        assert lines[0].startswith("event: ") and lines[1].startswith("data: ") and len(lines) == 2, block
        frame = json.loads(lines[1][len("data: "):])
        assert frame["type"] == lines[0][len("event: "):]
        frames.append(frame)
    return frames
