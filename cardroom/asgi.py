"""ASGI entry point: HTTP goes to Django, websockets through origin checks, the arrival gate
(``games.live.arrivals``) and session checks, and the ``bot-moves`` channel to the bot workers
(``manage.py runworker bot-moves``)."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
django_asgi_app = get_asgi_application()

# Imported after Django is set up: these import models.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ChannelNameRouter, ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from cardroom import metrics  # noqa: E402
from cardroom.origins import SameOriginValidator  # noqa: E402
from cardroom.request_threads import ReusedRequestThreads  # noqa: E402
from games.live.arrivals import ArrivalGate  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from games.live.thinking import CHANNEL as BOT_CHANNEL  # noqa: E402
from games.live.workers import BotWorker  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": ReusedRequestThreads(django_asgi_app, settings.HTTP_THREADS),
        "websocket": SameOriginValidator(
            ArrivalGate(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
        "channel": ChannelNameRouter({BOT_CHANNEL: BotWorker.as_asgi()}),
    }
)

# Servers and bot workers (``manage.py runworker`` loads this application too) alike.
if settings.METRICS_PORT:
    metrics.serve(settings.METRICS_PORT, settings.METRICS_ADDRESS)

# Connections keep many long-lived objects: freeze what start-up built and collect less often,
# so the collector does not rescan them all and stall every socket (docs/benchmarks.md).
gc.freeze()
gc.set_threshold(50_000, 20, 20)
