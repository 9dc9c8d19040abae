"""Faults with real server processes: SIGKILL mid-match, two processes, Redis restarting.

Each test starts ``daphne`` subprocesses over the test database (tests/servers.py) and plays
through real websocket clients that reconnect on their own, like the browser does.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.engines import belote
from games.models import Match, MatchPlayer, Move, Server, Table
from games.tables import rows, seating

from .factories import OPTIONS, make_players, match_of, start_with_dealer, table_with_bots
from .live import session_cookie
from .servers import Client, ServerProcess, free_port

pytestmark = pytest.mark.django_db(transaction=True)

#: The server processes beat often and give up on each other fast, so the test sees it.
FAST_PRESENCE = {
    "PRESENCE_HEARTBEAT_SECONDS": "0.3",
    "PRESENCE_STALE_SECONDS": "1.5",
    "AWAY_GRACE_SECONDS": "1",
}

REDIS_SERVER = ["redis-server", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]

needs_shared_state = pytest.mark.skipif(
    not (os.environ.get("REDIS_URL") and os.environ.get("DATABASE_URL", "").startswith("postg")),
    reason="two server processes share state only through Redis and PostgreSQL: "
    "set REDIS_URL and DATABASE_URL=postgres://… (the second CI pass does)",
)


def cookie(user) -> str:
    return session_cookie(user).decode()


def state_of(table: Table) -> tuple[int, belote.State, str]:
    match = match_of(table)
    return match.version, belote.loads(match.state), match.status


async def play_turn(client: Client, table: Table, seat: int) -> int:
    """Play the first legal action of ``seat`` (whose turn it is) and wait until the client
    sees it accepted; returns the new version."""
    version, state, _ = await sync_to_async(state_of)(table)
    assert state.to_act == seat
    action = belote.legal_actions(state, seat)[0]
    await client.until(lambda: client.version >= version)
    await client.send(json.dumps({"op": "play", "action": action, "version": str(version)}))
    await client.until(lambda: client.version > version)
    return client.version


async def wait_for_seat(client: Client, table: Table, seat: int, timeout: float = 30) -> None:
    """Wait until the match waits for ``seat`` and ``client`` has seen that state."""
    async with asyncio.timeout(timeout):
        while True:
            version, state, _ = await sync_to_async(state_of)(table)
            if state.to_act == seat and client.version >= version:
                return
            seen = client.version
            await client.until(lambda seen=seen: client.version != seen, timeout)


async def owners_turn(me: Client, friend: Client, table: Table, timeout: float = 60) -> None:
    """Play the friend's turns (seat 2) until the match waits for the owner (seat 0); the
    computer players (seats 1 and 3) move by themselves."""
    async with asyncio.timeout(timeout):
        while True:
            version, state, _ = await sync_to_async(state_of)(table)
            if state.to_act == 0 and me.version >= version:
                return
            if state.to_act == 2 and friend.version >= version:
                await play_turn(friend, table, 2)
                continue
            seen = me.version, friend.version
            await me.until(lambda seen=seen: (me.version, friend.version) != seen, timeout)


def state_version(table: Table) -> int:
    return match_of(table).version


def owner_friend_bots() -> tuple:
    owner, friend = make_players(2)
    table = table_with_bots(owner, ("easy", "easy"), guest=(friend, 2))
    start_with_dealer(table, owner, dealer=3)  # the owner acts first
    return owner, friend, table


def test_sigkill_mid_match_loses_nothing_and_play_resumes(servers, record_property):
    """SIGKILL the server right after a move, with a bot's turn pending; start it again on
    the same port. Every accepted move is in the log, the owner's client reconnects on its own
    and gets the current view, the pending bot turn is played, the friend (whose socket died
    with the server and who never comes back) is covered after the grace period, and the owner
    plays on."""
    owner, friend, table = owner_friend_bots()
    first = ServerProcess(TEST_BOT_DELAY_SECONDS="0.5", **FAST_PRESENCE)
    servers.append(first)
    first.start()
    path = f"{first.url}/ws/table/{table.code}/"
    owner_cookie, friend_cookie = cookie(owner), cookie(friend)

    async def scenario() -> dict[str, float]:
        me = Client(path, owner_cookie)
        them = Client(path, friend_cookie, reconnect=False)
        me.start()
        them.start()
        await me.until(lambda: me.version == 0)
        await them.until(lambda: them.version == 0)
        # Play until the owner's move hands the turn to a computer player (seat 1).
        while True:
            await wait_for_seat(me, table, 0)
            seen = await play_turn(me, table, 0)
            _, state, _ = await sync_to_async(state_of)(table)
            if state.to_act == 1:
                break
            if state.to_act == 2:
                await wait_for_seat(them, table, 2)
                await play_turn(them, table, 2)
        first.kill()
        killed = time.monotonic()
        # Nothing the clients saw accepted is missing from the move log.
        logged = await sync_to_async(lambda: list(Move.objects.values_list("seq", flat=True)))()
        assert set(range(1, seen + 1)) <= set(logged)
        _, state, status = await sync_to_async(state_of)(table)
        assert state.to_act == 1 and status == Match.Status.RUNNING  # the bot's turn pends
        await me.until(lambda: me.socket is None)
        await them.close()

        second = ServerProcess(first.port, **FAST_PRESENCE)
        servers.append(second)
        startup = second.start()
        fulls = me.full_frames
        await me.until(lambda: me.full_frames > fulls)
        resynced = time.monotonic()
        assert me.connects == 2 and me.version >= seen
        # The pending bot turn resumes; the friend's dead socket is swept, the friend is
        # covered after the grace period, and the turn comes back to the owner.
        await wait_for_seat(me, table, 0, timeout=30)
        covered = time.monotonic()
        after = await play_turn(me, table, 0)
        assert after > seen + 3
        await me.close()
        return {
            "kill_to_resync_s": resynced - killed,
            "restart_s": startup,
            "kill_to_friend_covered_s": covered - killed,
        }

    figures = asyncio.run(scenario())
    for name, value in figures.items():
        record_property(name, round(value, 2))
    # Freeze the table (the computer players would play on) before reading it: a second
    # SIGKILL, which must leave the log as whole as the first did.
    servers[-1].kill()
    match = match_of(table)
    friend_seat = MatchPlayer.objects.get(match=match, seat=2)
    assert friend_seat.covered and friend_seat.away_since is not None
    assert Server.objects.count() == 1  # the killed process was swept; the new one beats
    # The moves form one unbroken log, matching the stored version.
    seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.version + 1))


@needs_shared_state
def test_two_server_processes_play_one_table(servers):
    """Four players, two connected to each of two server processes sharing PostgreSQL and
    Redis: every move made through either process reaches all four; two tabs of one player on
    different processes sending the same move at once apply it exactly once."""
    users = make_players(4)
    table = rows.create_table(users[0], "belote", OPTIONS, is_private=True)
    for seat, user in enumerate(users):
        seating.take_seat(table.pk, user, seat)
    start_with_dealer(table, users[0], dealer=3)
    pair = [ServerProcess(), ServerProcess()]
    servers.extend(pair)
    for server in pair:
        server.start()
    paths = [f"{server.url}/ws/table/{table.code}/" for server in pair]
    cookies = [cookie(user) for user in users]
    second_tab_cookie = cookies[0]

    async def scenario() -> None:
        clients = [Client(paths[seat // 2], cookies[seat]) for seat in range(4)]
        second_tab = Client(paths[1], second_tab_cookie)
        for client in [*clients, second_tab]:
            client.start()
        for client in [*clients, second_tab]:
            await client.until(lambda client=client: client.version == 0)
        # The same move from two tabs on two processes, at once: exactly one applies.
        action = belote.legal_actions((await sync_to_async(state_of)(table))[1], 0)[0]
        frame = json.dumps({"op": "play", "action": action, "version": "0"})
        await asyncio.gather(clients[0].send(frame), second_tab.send(frame))
        for client in [*clients, second_tab]:
            await client.until(lambda client=client: client.version == 1)

        # The other tab is told the table moved on: whichever of the two lost, so wait on both
        # (each wakes only on its own frames).
        def moved_on() -> bool:
            return any("moved on" in f for f in second_tab.frames + clients[0].frames)

        waits = [asyncio.ensure_future(c.until(moved_on)) for c in (clients[0], second_tab)]
        done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        for task in done:
            task.result()  # a timeout fails the test
        # Then everyone plays in turn; all four see every move, whichever process made it.
        for _ in range(23):
            version, state, status = await sync_to_async(state_of)(table)
            if status != Match.Status.RUNNING:
                break
            seat = state.to_act
            legal = belote.legal_actions(state, seat)
            await clients[seat].send(
                json.dumps({"op": "play", "action": legal[0], "version": str(version)})
            )
            for client in clients:
                await client.until(lambda c=client, v=version: c.version == v + 1)
        for client in [*clients, second_tab]:
            await client.close()

    asyncio.run(scenario())
    match = match_of(table)
    assert match.version >= 20
    assert Move.objects.filter(match=match, seq=1).count() == 1
    assert Server.objects.count() == 2  # both processes beat


@pytest.fixture
def private_redis() -> Iterator[tuple[int, list[subprocess.Popen]]]:
    """A Redis server of this test's own (never the shared one), which it may kill."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the Redis restart test runs with REDIS_URL set (the second CI pass)")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    processes: list[subprocess.Popen] = []
    yield port, processes
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def start_redis(port: int, processes: list[subprocess.Popen]) -> None:
    process = subprocess.Popen(
        [*REDIS_SERVER, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    processes.append(process)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        probe = subprocess.run(
            ["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True, check=False
        )
        if probe.stdout.strip() == "PONG":
            return
        time.sleep(0.05)  # polling the port inside a bounded wait
    raise RuntimeError("redis-server did not start")


def test_clients_resync_after_redis_restarts(servers, private_redis, record_property):
    """Redis (the channel layer) dies under a running table and comes back: the clients
    resynchronise with the table and play on."""
    port, processes = private_redis
    start_redis(port, processes)
    owner, friend, table = owner_friend_bots()
    server = ServerProcess(
        REDIS_URL=f"redis://127.0.0.1:{port}/0", TEST_BOT_DELAY_SECONDS="0.5", **FAST_PRESENCE
    )
    servers.append(server)
    server.start()
    path = f"{server.url}/ws/table/{table.code}/"
    owner_cookie, friend_cookie = cookie(owner), cookie(friend)

    async def scenario() -> dict[str, float]:
        me = Client(path, owner_cookie)
        them = Client(path, friend_cookie)
        me.start()
        them.start()
        await owners_turn(me, them, table)
        await play_turn(me, table, 0)
        seen = me.version
        processes[-1].send_signal(signal.SIGKILL)
        processes[-1].wait(timeout=10)
        killed = time.monotonic()
        # While Redis is down the computer player's pending move still lands in the database
        # (the source of truth), but nobody can be told.
        async with asyncio.timeout(30):
            while await sync_to_async(state_version)(table) == seen:
                await asyncio.sleep(0.05)  # polling the database inside a bounded wait
        assert me.version == seen
        start_redis(port, processes)
        restarted = time.monotonic()
        # …and once Redis is back both clients catch up with it and play goes on.
        current = await sync_to_async(state_version)(table)
        for client in (me, them):
            await client.until(lambda client=client: client.version >= current)
        resynced = time.monotonic()
        await owners_turn(me, them, table)
        await play_turn(me, table, 0)
        await me.close()
        await them.close()
        return {
            "redis_down_s": restarted - killed,
            "redis_back_to_resync_s": resynced - restarted,
            "owner_connects": me.connects,
        }

    figures = asyncio.run(scenario())
    for name, value in figures.items():
        record_property(name, round(value, 2))
