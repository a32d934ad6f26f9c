"""The embedding runtime setting (GROUNDED_EMBEDDING_RUNTIME) as the command line shows a mistake in it."""

from __future__ import annotations

import pytest


def test_the_ask_command_says_what_is_wrong_with_the_runtime_setting_without_a_traceback(monkeypatch):
    """``manage.py ask`` with a misspelt GROUNDED_EMBEDDING_RUNTIME: the user sees "CommandError:
    GROUNDED_EMBEDDING_RUNTIME must be 'onnx' or 'torch', not 'bogus'" and exit status 1 (a new user's run printed a
    20-line traceback), before any question is stored."""
    from django.core.management.base import CommandError

    import grounding.embeddings as embeddings
    from chat.management.commands.ask import _load_model

    monkeypatch.setattr(embeddings, "_default", None)
    monkeypatch.setenv("GROUNDED_EMBEDDING_RUNTIME", "bogus")
    with pytest.raises(CommandError, match="GROUNDED_EMBEDDING_RUNTIME must be 'onnx' or 'torch', not 'bogus'"):
        _load_model(None)
