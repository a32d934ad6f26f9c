"""ASGI entry point: Django first, then SameOriginValidator(AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(
...)))): a websocket opened by a page of this site only (config.origin); with
settings.WARMUP the embedding model and the domains' indexes are loaded before the worker serves (chat.warmup)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
django_asgi_app = get_asgi_application()

from config.protocol_server import requests_unparsed, websocket_limits  # noqa: E402
from config.reason_phrases import fill_missing  # noqa: E402

fill_missing()  # "429 Too Many Requests", not Twisted's "429 Unknown Status"
requests_unparsed()  # request bodies go to Django as sent (Twisted answered some multipart bodies with a bare 400)
websocket_limits()  # the product's websocket message limit; a larger message is closed with 1009 and a reason

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from chat.routing import websocket_urlpatterns  # noqa: E402
from config.origin import SameOriginValidator  # noqa: E402

application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": SameOriginValidator(
        AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))),
})

from django.conf import settings  # noqa: E402

if settings.WARMUP:
    from chat.warmup import warm  # noqa: E402

    warm()
