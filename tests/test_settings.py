"""Settings read from the environment (config.settings.base): a variable set to nothing is read as unset."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PRINT = ("import django, json; django.setup(); from django.conf import settings as s; "
          "print(json.dumps([str(s.VAR_DIR), str(s.INDEX_DIR), s.MAX_MESSAGE_CHARS, s.LLM_PROVIDER, "
          "s.DATABASES['default']['NAME']]))")


def _settings(tmp_path: Path, **variables: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GROUNDED_", "DATABASE_", "LLM_", "ANTHROPIC_"))}
    env = {**clean, "DJANGO_SETTINGS_MODULE": "config.settings.dev", **variables}
    return subprocess.run([sys.executable, "-c", _PRINT],
                          cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=120)


def test_empty_variables_take_their_defaults(tmp_path):
    """An operator's ``GROUNDED_VAR_DIR=`` (an empty line in .env, a compose file's ``${VAR:-}``) used to make the
    current directory the data directory, so the first page said "no such table"; an empty number setting stopped
    the server with a ValueError. Now each takes its default: the data directory the README names (var/ in the
    project), the index beside it, 4,000 characters per message, the offline answerer."""
    result = _settings(tmp_path, GROUNDED_VAR_DIR="", GROUNDED_INDEX_DIR=" ", GROUNDED_MAX_MESSAGE_CHARS="",
                       LLM_PROVIDER="", ANTHROPIC_API_KEY="", DATABASE_URL="")
    assert result.returncode == 0, result.stderr
    var_dir, index_dir, max_chars, provider, database = json.loads(result.stdout.strip().splitlines()[-1])
    assert var_dir == str(ROOT / "var")
    assert index_dir == str(ROOT / "var" / "index")
    assert max_chars == 4000
    assert provider == "extractive"
    assert database == str(ROOT / "var" / "db.sqlite3")
    assert not list(tmp_path.iterdir())  # nothing written in the current directory


def test_a_set_variable_is_still_read(tmp_path):
    result = _settings(tmp_path, GROUNDED_VAR_DIR=str(tmp_path / "data"), GROUNDED_MAX_MESSAGE_CHARS="1200")
    assert result.returncode == 0, result.stderr
    var_dir, index_dir, max_chars, _, database = json.loads(result.stdout.strip().splitlines()[-1])
    assert (var_dir, index_dir, max_chars) == (str(tmp_path / "data"), str(tmp_path / "data" / "index"), 1200)
    assert database == str(tmp_path / "data" / "db.sqlite3")
