"""The benchmarks' server: the site's ASGI application with the load test's floor beside it.

``manage.py loadtest`` (and ``manage.py bench lobby``) start daphne on
``benchmarks.asgi:application``. Websockets to ``/ws/bench/<group>/`` and ``/ws/bench-collect/``
reach the floor's consumers (:mod:`benchmarks.floor`) through the same origin and session checks
as the site's own sockets; every other connection goes to ``cardroom.asgi.application``.
"""

from cardroom.asgi import application as site  # first: it sets Django up

# isort: split
from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path, re_path

from cardroom.origins import SameOriginValidator

from .floor import CollectConsumer, FanOutConsumer


def checked(consumer: type) -> object:
    """``consumer`` behind the origin and session checks the site's sockets pass."""
    return SameOriginValidator(AuthMiddlewareStack(consumer.as_asgi()))


application = ProtocolTypeRouter(
    {
        "http": site,
        "websocket": URLRouter(
            [
                path("ws/bench/<slug:group>/", checked(FanOutConsumer)),
                path("ws/bench-collect/", checked(CollectConsumer)),
                re_path(r"", site),
            ]
        ),
        "channel": site,
    }
)
