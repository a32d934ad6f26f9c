"""Production settings pass Django's deployment checks and collect hashed static files (issue 11 point 5)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def manage(*args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL", "REDIS_URL")}
    env = {**clean, "DJANGO_SETTINGS_MODULE": "config.settings.production", "GROUNDED_VAR_DIR": str(tmp_path),
           "DJANGO_SECRET_KEY": "x9!" * 20 + "production-like-secret-key-of-sufficient-length"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    result = manage("check", "--deploy", "--fail-level", "WARNING", tmp_path=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_collectstatic_writes_hashed_compressed_files_for_the_static_middleware(tmp_path):
    result = manage("collectstatic", "--noinput", "-v", "0", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "staticfiles" / "staticfiles.json").read_text())
    hashed = manifest["paths"]["chat/chat.js"]
    assert hashed != "chat/chat.js" and (tmp_path / "staticfiles" / hashed).is_file()
    assert (tmp_path / "staticfiles" / (hashed + ".gz")).is_file()


def test_static_files_are_served_by_the_app_on_the_async_path():
    """servestatic's async middleware: the page's script comes from the app itself, streamed from an async file
    iterator, with a cache header, and asking for a missing file falls through to Django's 404."""
    import asyncio

    from django.test import AsyncClient

    async def fetch(path):
        response = await AsyncClient().get(path)
        if response.streaming:
            return response, b"".join([chunk async for chunk in response.streaming_content])
        return response, response.content

    found, body = asyncio.run(fetch("/static/chat/chat.js"))
    assert found.status_code == 200 and "javascript" in found["Content-Type"] and found.is_async
    assert b"function connect()" in body and "max-age" in found.get("Cache-Control", "")
    assert asyncio.run(fetch("/static/chat/missing.js"))[0].status_code == 404
