"""ASGI entry point: HTTP goes to Django, websockets through origin and session checks."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
django_asgi_app = get_asgi_application()

# Imported after Django is set up: these import models.
from channels.auth import AuthMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from cardroom.origins import SameOriginValidator  # noqa: E402
from cardroom.sessions import WebsocketSessionMiddleware  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            # Channels' AuthMiddlewareStack, with a session middleware made for websockets.
            CookieMiddleware(
                WebsocketSessionMiddleware(AuthMiddleware(URLRouter(websocket_urlpatterns)))
            )
        ),
    }
)

# A server process holds hundreds of thousands of long-lived objects (each connection's consumer,
# protocol and session), and with CPython's default collector thresholds (700, 10, 10) it scanned
# them all every few seconds under load: full collections of 300-400 ms with 1,600 sockets, the
# whole tail of the move latency (`manage.py loadtest`, 400 tables: p95 140-490 ms with the
# defaults, 20-40 ms with these). What was built while starting is frozen out of the scans and
# the young generation is collected less often; cyclic garbage is still collected, later.
gc.freeze()
gc.set_threshold(50_000, 20, 20)
