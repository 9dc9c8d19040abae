"""The metrics a process serves to Prometheus (``cardroom.metrics``), scraped during play: moves
by game and kind, each move's frames, open sockets, refusals by reason, the computers' and the
database's waits; and a real server serving them at its own port, never at the site's."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from cardroom import metrics
from games import background
from games.engines import belote
from games.events import par
from games.live import thinking
from games.live.consumers import CLOSE_TOO_MANY
from games.models import Match, Move, Table
from games.records import reviews

from .factories import make_players, match_of, seated_table, start_with_dealer, table_with_bots
from .live import (
    FRAME_TIMEOUT,
    REFUSAL,
    close_code,
    connect,
    frames_until,
    open_socket,
    send,
    session_cookie,
    settle,
    version_mark,
)
from .servers import Client, ServerProcess, free_port
from .test_automatic_clock import EASY_BOTS, own_redis_layer
from .test_event_reviews_off_request import Solver, over_event
from .test_thinking import bot_table, start_worker, until_my_turn


def value(text: str, name: str, **labels: str) -> float:
    """The sample ``name`` with exactly ``labels`` in a scrape (0 when absent)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return sample.value
    return 0.0


def present(text: str, name: str) -> bool:
    return any(
        sample.name == name
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    )


async def scrape() -> str:
    return await sync_to_async(metrics.scrape)()


def moves(text: str, kind: str) -> float:
    return value(text, "cardroom_moves_total", game="belote", kind=kind)


def frames(text: str) -> float:
    return value(text, "cardroom_move_frame_seconds_count")


def sockets(text: str, kind: str) -> float:
    return value(text, "cardroom_sockets_open", kind=kind)


def refusals(text: str, reason: str) -> float:
    return value(text, "cardroom_refusals_total", reason=reason)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_a_scrape_during_play_follows_moves_frames_sockets_refusals_and_states():
    users = await sync_to_async(make_players)(4)
    table = await sync_to_async(seated_table)(users)
    before = await scrape()
    await sync_to_async(start_with_dealer)(table, users[0], dealer=3)  # seat 0 acts first
    started = await scrape()
    assert value(started, "cardroom_matches", state="running") == (
        value(before, "cardroom_matches", state="running") + 1
    )
    assert value(started, "cardroom_tables", state="playing") == (
        value(before, "cardroom_tables", state="playing") + 1
    )

    path = f"/ws/table/{table.code}/"
    seats = [await connect(user, path) for user in users]
    lobby = await connect(users[0], "/ws/lobby/")
    notices = await connect(users[1], "/ws/notices/")
    # Every connect's presence news handled first: the move is then shown by its own news.
    await settle(table.pk, *seats)
    opened = await scrape()
    assert sockets(opened, "table") == sockets(before, "table") + 4
    assert sockets(opened, "lobby") == sockets(before, "lobby") + 1
    assert sockets(opened, "notice") == sockets(before, "notice") + 1

    # A human's move: counted once, and each of the four sockets' frames of it.
    match = await sync_to_async(match_of)(table)
    action = belote.legal_actions(belote.loads(match.state), 0)[0]
    await send(seats[0], op="play", action=action, version=str(match.version))
    for socket in seats:
        await frames_until(socket, version_mark(match.version + 1))
    moved = await scrape()
    assert moves(moved, "human") == moves(opened, "human") + 1
    assert moves(moved, "computer") == moves(opened, "computer")
    assert frames(moved) == frames(opened) + 4
    assert value(moved, "cardroom_move_frame_seconds_sum") > value(
        opened, "cardroom_move_frame_seconds_sum"
    )
    assert value(moved, "cardroom_move_frame_seconds_bucket", le="+Inf") == frames(moved)

    # A move on a page the table moved on from, and a hostile frame: refused, counted by why.
    await send(seats[1], op="play", action=action, version=str(match.version))
    await frames_until(seats[1], "moved on")
    await seats[2].send_to(text_data='{"op": "play", "action": "JH", "version": [[[]]]}')
    await frames_until(seats[2], "nested too deeply")
    refused = await scrape()
    assert refusals(refused, "stale") == refusals(moved, "stale") + 1
    assert refusals(refused, "frame") == refusals(moved, "frame") + 1
    assert moves(refused, "human") == moves(moved, "human")  # nothing moved

    for socket in [*seats, lobby, notices]:
        await socket.disconnect()
    closed = await scrape()
    for kind in metrics.SOCKET_KINDS:
        assert sockets(closed, kind) == sockets(before, kind)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_computers_and_a_run_out_timer_count_as_their_own_kinds():
    (owner,) = await sync_to_async(make_players)(1)
    table = await sync_to_async(table_with_bots)(owner, EASY_BOTS, turn_seconds=15)
    match = await sync_to_async(start_with_dealer)(table, owner, dealer=3)  # the owner first
    before = await scrape()
    # The owner's turn runs out in a second; then the computers call round to them again.
    await sync_to_async(Match.objects.filter(pk=match.pk).update)(
        turn_started_at=timezone.now() - timedelta(seconds=14)
    )
    socket = await connect(owner, f"/ws/table/{table.code}/")
    async with asyncio.timeout(60):
        while not await sync_to_async(Move.objects.filter(match=match, seat=0).exists)():
            if not await socket.receive_nothing(timeout=0.5):
                await socket.receive_from()
    await until_my_turn(socket, table)
    after = await scrape()
    computers = await sync_to_async(Move.objects.filter(match=match).exclude(seat=0).count)()
    assert computers >= 3
    assert moves(after, "timer") == moves(before, "timer") + 1
    assert moves(after, "computer") == moves(before, "computer") + computers
    assert moves(after, "human") == moves(before, "human")
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_a_computer_thinking_in_the_pool_is_a_request_waiting(monkeypatch):
    gate, entered = asyncio.Event(), asyncio.Event()
    real = thinking._think

    async def held(*args):
        entered.set()
        await gate.wait()
        return await real(*args)

    monkeypatch.setattr(thinking, "_think", held)
    (owner,) = await sync_to_async(make_players)(1)
    table = await sync_to_async(bot_table)(owner)  # a computer acts first
    socket = await connect(owner, f"/ws/table/{table.code}/")
    await asyncio.wait_for(entered.wait(), FRAME_TIMEOUT)
    thinking_now = await scrape()
    assert value(thinking_now, "cardroom_bot_requests_waiting") == 1
    assert value(thinking_now, "cardroom_bot_request_oldest_seconds") > 0
    gate.set()
    await until_my_turn(socket, table)
    answered = await scrape()
    assert value(answered, "cardroom_bot_requests_waiting") == 0
    assert value(answered, "cardroom_bot_request_oldest_seconds") == 0
    await socket.disconnect()


@pytest.mark.skipif(
    not django_settings.REDIS_URL, reason="the bot workers' channel is on Redis (REDIS_URL)"
)
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_a_request_no_bot_worker_took_yet_is_waiting_on_the_channel(settings):
    settings.BOTS_IN_WORKERS = True
    async with own_redis_layer(settings) as layer:
        empty = await scrape()
        assert value(empty, "cardroom_bot_requests_waiting") == 0
        request = {"type": "bot.move", "table": 1, "version": 0, "seat": 1, "level": "easy"}
        await layer.send(thinking.CHANNEL, {**request, "cover": False, "timed_out": False})
        waiting = await scrape()
        assert value(waiting, "cardroom_bot_requests_waiting") == 1
        assert value(waiting, "cardroom_bot_request_oldest_seconds") >= 0
        await layer.receive(thinking.CHANNEL)  # a worker takes it
        taken = await scrape()
        assert value(taken, "cardroom_bot_requests_waiting") == 0


@pytest.mark.skipif(not django_settings.REDIS_URL, reason="bot workers need a shared channel layer")
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_a_bot_worker_serves_the_moves_it_made_at_its_own_port(settings, monkeypatch):
    settings.BOTS_IN_WORKERS = True
    port = free_port()
    monkeypatch.setenv("METRICS_PORT", str(port))
    (owner,) = await sync_to_async(make_players)(1)
    table = await sync_to_async(bot_table)(owner)  # three computers call first
    before = await scrape()
    socket = await connect(owner, f"/ws/table/{table.code}/")
    worker = start_worker()
    try:
        match = await until_my_turn(socket, table)
        assert match.version == 3
        status, text = await sync_to_async(get)(f"http://127.0.0.1:{port}/metrics")
        assert status == 200
        assert moves(text, "computer") == 3  # the worker made them
        assert moves(await scrape(), "computer") == moves(before, "computer")  # not this process
    finally:
        worker.kill()
        worker.wait(timeout=10)
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("background_stopped")
async def test_a_socket_past_the_accounts_limit_is_a_limit_refusal(settings):
    settings.MAX_SOCKETS_PER_ACCOUNT = 1
    (user,) = await sync_to_async(make_players)(1)
    before = await scrape()
    first = await connect(user, "/ws/lobby/")
    second, _ = await open_socket(user, "/ws/notices/")
    assert await close_code(second) == CLOSE_TOO_MANY
    after = await scrape()
    assert refusals(after, "limit") == refusals(before, "limit") + 1
    assert refusals(after, "frame") == refusals(before, "frame")
    await second.disconnect()
    await first.disconnect()
    assert sockets(await scrape(), "notice") == sockets(before, "notice")


@pytest.fixture
def held_reviews(monkeypatch) -> Iterator[tuple[Solver, threading.Event]]:
    """Deal reviews worked out only once the solver's gate opens; the event is set as the
    first one begins."""
    solver, entered = Solver(), threading.Event()

    def watched(*args):
        entered.set()
        return solver(*args)

    monkeypatch.setattr(reviews, "work_out", watched)
    yield solver, entered
    solver.gate.set()
    background.wait()  # nothing of this test's is still working on the database


@pytest.mark.django_db(transaction=True)
def test_an_over_events_pars_wait_and_each_review_counts_while_it_is_worked_out(held_reviews):
    solver, entered = held_reviews
    before = metrics.scrape()
    _players, event = over_event()
    par.schedule(event.pk)
    assert entered.wait(FRAME_TIMEOUT)
    working = metrics.scrape()
    assert value(working, "cardroom_events_waiting_for_par") == (
        value(before, "cardroom_events_waiting_for_par") + 1
    )
    assert value(working, "cardroom_reviews_waiting") == 1
    assert value(working, "cardroom_review_oldest_seconds") > 0
    solver.gate.set()
    background.wait()
    done = metrics.scrape()
    assert value(done, "cardroom_events_waiting_for_par") == value(
        before, "cardroom_events_waiting_for_par"
    )
    assert value(done, "cardroom_reviews_waiting") == 0


def scrape_in_a_thread() -> str:
    """A scrape from a thread of its own, as the metrics port's server makes each."""
    scraped: list[str] = []
    thread = threading.Thread(target=lambda: scraped.append(metrics.scrape()))
    thread.start()
    thread.join()
    return scraped[0]


@pytest.mark.django_db(transaction=True)
def test_the_pool_s_connections_in_use_are_shown_against_its_bound():
    if getattr(connection, "pool", None) is None:
        pytest.skip("only PostgreSQL's pool has a bound (DB_POOL_SIZE)")
    Table.objects.exists()  # this thread holds a connection of the pool
    first = scrape_in_a_thread()
    assert value(first, "cardroom_db_connections_max") == django_settings.DB_POOL_SIZE
    assert value(first, "cardroom_db_connections_in_use") >= 1
    # The scrape's thread handed its connection back: the next one finds no more lent out.
    again = scrape_in_a_thread()
    assert value(again, "cardroom_db_connections_in_use") == value(
        first, "cardroom_db_connections_in_use"
    )


def test_without_a_pool_no_bound_is_claimed(db):
    if getattr(connection, "pool", None) is not None:
        pytest.skip("this database has a pool")
    assert not present(metrics.scrape(), "cardroom_db_connections_max")


# -- A real server: its own metrics port, never the site's.


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=FRAME_TIMEOUT) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""


def cookie(user) -> str:
    return session_cookie(user).decode()


async def heard_everything(clients: list[Client]) -> None:
    """Wait until every consumer has finished its connect (its presence news sent) and every
    socket has handled the news of all of them: a move made then is shown by its own news, not
    by a presence change read after it."""
    for client in clients:
        await client.send(json.dumps({"op": "no-such-op"}))
    for client in clients:
        await client.until(lambda client=client: any(REFUSAL in f for f in client.frames))
    await clients[0].send(json.dumps({"op": "chat", "text": "all here"}))
    for client in clients:
        await client.until(lambda client=client: any("all here" in f for f in client.frames))


shared_state = bool(
    os.environ.get("REDIS_URL") and os.environ.get("DATABASE_URL", "").startswith("postg")
)


@pytest.mark.django_db(transaction=True)
def test_each_server_process_serves_its_own_metrics_at_its_own_port(servers):
    """One server, or two sharing PostgreSQL and Redis: a move made through the first is
    counted by it alone, while every process counts the frames it sent of it."""
    users = make_players(4)
    table = seated_table(users)
    start_with_dealer(table, users[0], dealer=3)
    count = 2 if shared_state else 1
    ports = [free_port() for _ in range(count)]
    started = [ServerProcess(METRICS_PORT=str(port)) for port in ports]
    servers.extend(started)
    for server in started:
        server.start()
    metrics_urls = [f"http://127.0.0.1:{port}/metrics" for port in ports]
    # The site itself serves no metrics: the proxy cannot pass them on.
    assert get(f"{started[0].url}/metrics")[0] == 404
    before = [get(url)[1] for url in metrics_urls]
    cookies = [cookie(user) for user in users]
    action = belote.legal_actions(belote.loads(match_of(table).state), 0)[0]

    async def scenario() -> list[str]:
        path = f"/ws/table/{table.code}/"
        clients = [Client(f"{started[seat % count].url}{path}", cookies[seat]) for seat in range(4)]
        for client in clients:
            client.start()
        for client in clients:
            await client.until(lambda client=client: client.version == 0)
        await heard_everything(clients)
        opened = [get(url)[1] for url in metrics_urls]
        await clients[0].send(json.dumps({"op": "play", "action": action, "version": "0"}))
        for client in clients:
            await client.until(lambda client=client: client.version == 1)
        moved = [get(url)[1] for url in metrics_urls]
        for client in clients:
            await client.close()
        return [*opened, *moved]

    scraped = asyncio.run(scenario())
    opened, moved = scraped[:count], scraped[count:]
    for index in range(count):
        assert sockets(opened[index], "table") == sockets(before[index], "table") + 4 / count
    assert moves(moved[0], "human") == moves(before[0], "human") + 1
    for index in range(1, count):
        assert moves(moved[index], "human") == moves(before[index], "human")
    for index in range(count):
        assert frames(moved[index]) == frames(opened[index]) + 4 / count
