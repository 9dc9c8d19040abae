"""What each server process and bot worker tells Prometheus, in its text format, at a port
of its own (``METRICS_PORT`` on ``METRICS_ADDRESS``, 127.0.0.1 by default).

One port per process rather than a shared ``PROMETHEUS_MULTIPROC_DIR``: a target per process
is Prometheus's own model, no directory of files needs cleaning between restarts, a bot worker
(which serves no HTTP) is scraped like a server, and the proxy serves nothing of it.

Counted where it happens, in this process: moves committed by game and kind (the one door,
``games.live.moves``), the time from a move's commit to each of its frames sent (the table
sockets), open sockets by kind (the consumers), refusals by reason (``games.refusals``),
computer moves and deal reviews being worked out in this process's pool. Read when scraped,
with one bounded query each: tables and matches by state, over events whose pars are not all
kept, the requests waiting on the bot workers' channel (Redis) and the database connections
of this process's pool in use against its bound.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import time
from collections import Counter as Tally
from collections.abc import Iterator

from prometheus_client import REGISTRY, Counter, Gauge, generate_latest, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

logger = logging.getLogger(__name__)

#: The kinds of socket (``games.live.consumers``).
SOCKET_KINDS = ("table", "lobby", "notice", "reading")
#: Why a request was turned down: a per-account or per-address limit, a move made on a page
#: the table had moved on from, a malformed, hostile or flooding frame, anything else.
LIMIT, STALE, FRAME, OTHER = "limit", "stale", "frame", "other"
REASONS = (LIMIT, STALE, FRAME, OTHER)

SOCKETS = Gauge("cardroom_sockets_open", "Websockets open in this process, by kind.", ["kind"])
REFUSALS = Counter(
    "cardroom_refusals", "Requests turned down in this process, by reason.", ["reason"]
)
for _kind in SOCKET_KINDS:
    SOCKETS.labels(_kind)
for _reason in REASONS:
    REFUSALS.labels(_reason)

# The move path's counts are plain integers the event loop adds to (a few bytecodes each, where
# a client metric takes a lock and calls); the collector below turns them into metrics.
#: Moves committed by this process, by (game, kind): "human", "computer" or "timer".
moves: Tally[tuple[str, str]] = Tally()
#: Upper bounds (seconds) of the buckets of the time from a move's commit to a frame sent.
FRAME_BOUNDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Frames of moves sent by this process, by bucket (the last: slower than every bound); the
#: table sockets add to them, inline, the bucket ``bisect_left(FRAME_BOUNDS, seconds)``.
frame_counts = [0] * (len(FRAME_BOUNDS) + 1)
#: Their seconds, summed (one item, so that it is changed in place).
frame_seconds = [0.0]

#: Work waiting on this process's pool, by kind ("bot", "review"): when each piece began.
_waiting: dict[str, dict[int, float]] = {"bot": {}, "review": {}}
_tickets = itertools.count()


def refused(reason: str) -> None:
    """Count a request turned down for ``reason`` (one of :data:`REASONS`)."""
    REFUSALS.labels(reason).inc()


def socket_opened(kind: str) -> None:
    """Count a socket of ``kind`` opened (:data:`SOCKET_KINDS`)."""
    SOCKETS.labels(kind).inc()


def socket_closed(kind: str) -> None:
    """Count a socket of ``kind`` closed."""
    SOCKETS.labels(kind).dec()


@contextlib.contextmanager
def waiting(kind: str) -> Iterator[None]:
    """Count work of ``kind`` ("bot": a computer's move, "review": a deal's review) as waiting
    on this process's pool while the block runs."""
    ticket = next(_tickets)
    _waiting[kind][ticket] = time.monotonic()
    try:
        yield
    finally:
        del _waiting[kind][ticket]


def _pool_waiting(kind: str) -> tuple[int, float]:
    """How many pieces of ``kind`` wait on this process's pool, and the oldest's age."""
    began = list(_waiting[kind].values())
    return len(began), (time.monotonic() - min(began)) if began else 0.0


def _channel_waiting() -> tuple[int, float]:
    """How many computer moves wait on the bot workers' channel (nobody took them yet), and
    the oldest's age; nothing when they think in each server's pool."""
    from django.conf import settings

    if not (settings.BOTS_IN_WORKERS and settings.REDIS_URL):
        return 0, 0.0
    from channels.layers import get_channel_layer

    from games.live.thinking import CHANNEL

    layer = get_channel_layer()
    # channels-redis keeps a channel's messages in a sorted set (its prefix and the channel's
    # name), each scored by when it was sent; past the layer's expiry nobody receives them.
    key = layer.prefix + CHANNEL
    now = time.time()
    since = now - layer.expiry
    client = _redis()
    with client.pipeline(transaction=False) as pipe:
        pipe.zcount(key, since, "+inf")
        pipe.zrangebyscore(key, since, "+inf", start=0, num=1, withscores=True)
        count, oldest = pipe.execute()
    return count, (now - oldest[0][1]) if oldest else 0.0


_redis_client = None


def _redis():
    """A Redis client of this process for the scrapes (one, made on the first)."""
    global _redis_client
    if _redis_client is None:
        import redis
        from django.conf import settings

        _redis_client = redis.Redis.from_url(settings.REDIS_URL)
    return _redis_client


def _by_state(model) -> dict[str, int]:
    """How many rows of ``model`` are in each of its ``status`` values (one GROUP BY)."""
    from django.db.models import Count

    counts = dict.fromkeys(model.Status.values, 0)
    for row in model.objects.order_by().values("status").annotate(n=Count("pk")):
        counts[row["status"]] = row["n"]
    return counts


def _events_waiting_for_par() -> int:
    """Over events whose deals' reviews (their pars) are not all kept yet."""
    from games.catalog import get_game
    from games.models import Event

    version = get_game("belote").review_version
    return (
        Event.objects.filter(status=Event.Status.FINISHED).exclude(reviewed_version=version).count()
    )


def _connections() -> tuple[int, int] | None:
    """This process's database connections in use and the pool's bound; None without a
    pool (SQLite, or ``DB_POOL_SIZE`` 0: a connection per request)."""
    from django.db import connection

    pool = getattr(connection, "pool", None)
    if pool is None:
        return None
    stats = pool.get_stats()
    return stats["pool_size"] - stats["pool_available"], stats["pool_max"]


class RoomCollector(Collector):
    """The metrics made at scrape time: the move path's counts, and what is read then."""

    def describe(self) -> list:
        # Nothing to check against the other metrics' names: registering must not collect
        # (that reads the database, before Django is even set up).
        return []

    def collect(self) -> Iterator:
        moved = CounterMetricFamily(
            "cardroom_moves", "Moves committed by this process, by game and kind.",
            labels=["game", "kind"],
        )  # fmt: skip
        for (game, kind), count in sorted(moves.items()):
            moved.add_metric([game, kind], count)
        yield moved
        yield self.frames()
        yield from self.pools()
        yield from self.database()

    def frames(self) -> HistogramMetricFamily:
        counts = list(frame_counts)
        bounds = [str(bound) for bound in FRAME_BOUNDS] + ["+Inf"]
        histogram = HistogramMetricFamily(
            "cardroom_move_frame_seconds",
            "Seconds from a move's commit to each of its frames sent by this process.",
        )
        histogram.add_metric(
            [], list(zip(bounds, itertools.accumulate(counts), strict=True)), frame_seconds[0]
        )
        return histogram

    def pools(self) -> Iterator[GaugeMetricFamily]:
        in_pool, pool_age = _pool_waiting("bot")
        try:
            on_channel, channel_age = _channel_waiting()
        except Exception:
            logger.exception("reading the bot workers' channel for the metrics failed")
            on_channel, channel_age = 0, 0.0
        yield GaugeMetricFamily(
            "cardroom_bot_requests_waiting",
            "Computer moves asked for and not yet answered: waiting on the bot workers' "
            "channel (no worker took them yet), or thinking in this process's pool.",
            value=in_pool + on_channel,
        )
        yield GaugeMetricFamily(
            "cardroom_bot_request_oldest_seconds",
            "Age of the oldest computer move waiting (0: none).",
            value=max(pool_age, channel_age),
        )
        reviews, review_age = _pool_waiting("review")
        yield GaugeMetricFamily(
            "cardroom_reviews_waiting",
            "Deal reviews being worked out for this process in its pool.",
            value=reviews,
        )
        yield GaugeMetricFamily(
            "cardroom_review_oldest_seconds",
            "Age of the oldest deal review being worked out (0: none).",
            value=review_age,
        )

    def database(self) -> Iterator[GaugeMetricFamily]:
        from django.db import connection

        from games.models import Match, Table

        held = _connections()  # before this scrape takes one of its own
        if held is not None:
            yield GaugeMetricFamily(
                "cardroom_db_connections_in_use",
                "Database connections of this process's pool lent out.",
                value=held[0],
            )
            yield GaugeMetricFamily(
                "cardroom_db_connections_max",
                "The most database connections this process's pool holds (DB_POOL_SIZE).",
                value=held[1],
            )
        opened = connection.connection is None
        try:
            for name, model in (("tables", Table), ("matches", Match)):
                gauge = GaugeMetricFamily(
                    f"cardroom_{name}", f"{name.capitalize()} by state.", labels=["state"]
                )
                for state, count in _by_state(model).items():
                    gauge.add_metric([state], count)
                yield gauge
            yield GaugeMetricFamily(
                "cardroom_events_waiting_for_par",
                "Over events whose deals' reviews (their pars) are not all kept yet.",
                value=_events_waiting_for_par(),
            )
        except Exception:
            logger.exception("reading the database for the metrics failed")
        finally:
            if opened:  # a scrape's own thread: hand the connection back
                connection.close()


REGISTRY.register(RoomCollector())


def scrape() -> str:
    """This process's metrics in Prometheus's text format, as its port serves them."""
    return generate_latest(REGISTRY).decode()


def serve(port: int, address: str) -> bool:
    """Serve this process's metrics at ``address``:``port`` (a thread of its own); False when
    the port is taken (the process runs on, unscraped)."""
    try:
        start_http_server(port, addr=address)
    except OSError:
        logger.exception("the metrics cannot be served at %s:%s", address, port)
        return False
    return True
