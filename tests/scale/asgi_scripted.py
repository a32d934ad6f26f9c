"""The app's ASGI application with a slow scripted provider, for the multi-worker test (deterministic answers that
take a few seconds to stream, so a socket can drop mid-answer)."""

from config.asgi import application  # noqa: F401 - sets Django up first

from chat.providers import registry  # noqa: E402
from grounding.providers import ScriptedProvider  # noqa: E402

from tests.scale.scripted_answer import PIECES  # noqa: E402

registry.configure(answerer=ScriptedProvider(PIECES, delay=0.4))
