"""ASGI entry for the websocket load script (bench/load_ws.py): the real application (config.asgi: origin check,
session auth, the chat consumer) with the provider registry answering with grounding.providers.ScriptedProvider.

Environment (set by load_ws.py): LOAD_PIECES (JSON list of answer pieces), LOAD_DELAY (seconds between pieces), plus
the Django settings variables (DATABASE_URL, GROUNDED_VAR_DIR, DJANGO_SETTINGS_MODULE).
Run: daphne -b 127.0.0.1 -p PORT bench.load_asgi:application
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

from config.asgi import application as _application  # noqa: E402  (sets Django up)

from chat.providers import registry  # noqa: E402
from grounding.providers import ScriptedProvider  # noqa: E402

registry.configure(answerer=ScriptedProvider(json.loads(os.environ.get("LOAD_PIECES", '["A scripted answer [S1]."]')),
                                             delay=float(os.environ.get("LOAD_DELAY", "0.02"))))

application = _application
