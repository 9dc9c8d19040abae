"""Live Belote over websockets: one communicator per seat, through the real ASGI app."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from games.engines import belote
from games.live import autoplay, batching, notify, snapshots
from games.models import Match, Move, Table
from games.tables import matches, play, rows, seating

from .factories import OPTIONS, make_players, match_of, seated_table
from .live import (
    FRAME_TIMEOUT,
    LIVE_MARKS,
    all_handled,
    connect,
    frames_until,
    leaked_cards,
    receive_until,
    send,
    settle,
    version_mark,
)

pytestmark = LIVE_MARKS


def hands(table: Table) -> list[set[str]]:
    state = belote.loads(match_of(table).state)
    return [set(belote.view(state, seat)["hand"]) for seat in range(4)]


def public_cards(table: Table, seat: int | None) -> str:
    """Everything the seat may see, as JSON text (a card in it may legitimately show)."""
    state = belote.loads(match_of(table).state)
    return json.dumps(belote.view(state, seat))


def state_has_bid(state) -> bool:
    return any(call not in ("pass",) for _, call in belote.view(state, None)["auction"])


async def test_full_deal_over_websockets_never_leaks_a_hand():
    users = await sync_to_async(make_players)(5)
    table = await sync_to_async(seated_table)(users)
    await sync_to_async(matches.start_match)(table.pk, users[0])
    path = f"/ws/table/{table.code}/"
    seats = [await connect(user, path) for user in users[:4]]
    spectator = await connect(users[4], path)
    for communicator in [*seats, spectator]:
        first = await communicator.receive_from(timeout=FRAME_TIMEOUT)
        assert 'id="board"' in first
    deals_done = 0
    moves = 0
    last_frames: list[str] = []
    while deals_done == 0:
        match = await sync_to_async(match_of)(table)
        state = belote.loads(match.state)
        seat = state.to_act
        legal = belote.legal_actions(state, seat)
        # Open the bidding once, then pass: a played deal rather than an all-pass redeal.
        action = legal[0] if legal[0] != "pass" or state_has_bid(state) else legal[1]
        await send(seats[seat], op="play", action=action, version=str(match.version))
        held = await sync_to_async(hands)(table)
        last_frames = []
        for viewer, communicator in enumerate([*seats, spectator]):
            viewer_seat = viewer if viewer < 4 else None
            # Every frame since the last move (a card hidden now was hidden then too).
            frames = await frames_until(communicator, version_mark(match.version + 1))
            last_frames.append(frames[-1])
            visible = await sync_to_async(public_cards)(table, viewer_seat)
            hidden = set().union(*(held[s] for s in range(4) if s != viewer_seat))
            hidden = {card for card in hidden if card not in visible}
            for frame in frames:
                assert not leaked_cards(frame, hidden), (viewer, action)
                if viewer_seat is None:
                    assert 'name="action"' not in frame
        moves += 1
        latest = await sync_to_async(match_of)(table)
        deals_done = len(belote.deal_results(belote.loads(latest.state)))
    assert moves == 4 + 32
    final = await sync_to_async(match_of)(table)
    assert await sync_to_async(Move.objects.filter(match=final).count)() == final.version
    last = await sync_to_async(Move.objects.filter(match=final).latest)("seq")
    assert (final.last_seat, final.last_action) == (last.seat, last.action)
    # Everyone's last frame shows the finished deal on the score sheet.
    assert all('class="deal-row"' in frame for frame in last_frames)
    for communicator in [*seats, spectator]:
        await communicator.disconnect()


async def _started(count: int = 4):
    users = await sync_to_async(make_players)(count)
    table = await sync_to_async(seated_table)(users)
    await sync_to_async(matches.start_match)(table.pk, users[0])
    return users, table


async def assert_refused(communicator, message: dict, text: str, table: Table) -> None:
    before = await sync_to_async(match_of)(table)
    await send(communicator, **message)
    frame = await receive_until(communicator, "flash-visible")
    assert text in frame, frame
    after = await sync_to_async(match_of)(table)
    assert (after.version, after.state) == (before.version, before.state)


async def test_bad_input_changes_nothing_and_gets_a_message():
    users, table = await _started()
    match = await sync_to_async(match_of)(table)
    state = belote.loads(match.state)
    to_act = state.to_act
    other = (to_act + 1) % 4
    path = f"/ws/table/{table.code}/"
    mover = await connect(users[to_act], path)
    waiter = await connect(users[other], path)
    version = str(match.version)
    await assert_refused(
        waiter, {"op": "play", "action": "pass", "version": version}, "not your turn", table
    )
    await assert_refused(
        mover, {"op": "play", "action": "JX", "version": version}, "is not a call", table
    )
    await assert_refused(
        mover, {"op": "play", "action": "pass", "version": "0x"}, "valid version", table
    )
    await assert_refused(
        mover, {"op": "play", "action": "pass", "version": "99"}, "moved on", table
    )
    await assert_refused(mover, {"op": "dance"}, "not something this table understands", table)
    await assert_refused(waiter, {"op": "sit", "seat": "1"}, "while a match", table)
    # Not JSON at all.
    await mover.send_to(text_data="{nope")
    assert "could not be read" in await receive_until(mover, "flash-visible")
    await mover.disconnect()
    await waiter.disconnect()


def position_with_an_illegal_card():
    """A seeded position after "♥, pass, pass, pass" and a lead where the follower holds
    a card the rules forbid; returns (state, follower seat, illegal card)."""
    for seed in range(200):
        state = belote.new_game(seed=seed, dealer=3, **OPTIONS)
        for call in ("H", "pass", "pass", "pass"):
            state = belote.apply(state, state.to_act, call)
        state = belote.apply(state, state.to_act, belote.legal_actions(state, state.to_act)[0])
        seat = state.to_act
        legal = set(belote.legal_actions(state, seat))
        illegal = [card for card in belote.view(state, seat)["hand"] if card not in legal]
        if illegal:
            return state, seat, illegal[0]
    raise AssertionError("no seed gives an illegal card")


async def test_illegal_card_is_refused_with_the_rule():
    users, table = await _started()
    state, seat, card = position_with_an_illegal_card()
    await sync_to_async(Match.objects.filter(table=table).update)(state=belote.dumps(state))
    match = await sync_to_async(match_of)(table)
    communicator = await connect(users[seat], f"/ws/table/{table.code}/")
    await assert_refused(
        communicator,
        {"op": "play", "action": card, "version": str(match.version)},
        "You must",
        table,
    )
    await communicator.disconnect()


async def test_two_moves_for_one_turn_apply_exactly_once():
    users, table = await _started()
    match = await sync_to_async(match_of)(table)
    seat = belote.loads(match.state).to_act
    path = f"/ws/table/{table.code}/"
    tab1 = await connect(users[seat], path)
    tab2 = await connect(users[seat], path)
    version = str(match.version)
    await asyncio.gather(
        send(tab1, op="play", action="pass", version=version),
        send(tab2, op="play", action="pass", version=version),
    )
    frames = []
    for tab in (tab1, tab2):  # each sees the move, and has its own request answered
        frames += await frames_until(tab, version_mark(match.version + 1))
        frames += await all_handled(tab)
    after = await sync_to_async(match_of)(table)
    assert after.version == match.version + 1
    assert await sync_to_async(Move.objects.filter(match=after).count)() == 1
    assert sum("moved on" in frame for frame in frames) == 1
    await tab1.disconnect()
    await tab2.disconnect()


@pytest.mark.contract
async def test_a_move_made_here_is_rendered_without_a_trip_to_the_database_thread(monkeypatch):
    """The process that made a move holds the table as it left it: every socket's frame for
    that move is rendered on the event loop. A move made elsewhere is read on the thread."""
    frames_on_thread = []  # the frames rendered on the database thread
    real = batching._run_all_in_thread

    async def counting(batch):
        frames_on_thread.extend(
            call for call in batch if getattr(call[0], "__name__", "") == "_frame"
        )
        return await real(batch)

    monkeypatch.setattr(batching, "_run_all_in_thread", counting)
    users, table = await _started()
    match = await sync_to_async(match_of)(table)
    seat = belote.loads(match.state).to_act
    path = f"/ws/table/{table.code}/"
    mover, other = await connect(users[seat], path), await connect(users[(seat + 1) % 4], path)
    # The connects, and the changes they told the table (read on the thread), are over.
    await settle(table.pk, mover, other)
    # The table's automatic-move driver reads the table after changes too, whenever it gets
    # to it: a read of its after the table is forgotten below would be this process's latest
    # read again, and the move "made elsewhere" would be carried forward from it. Nothing is
    # owed by a computer here: it is stopped (and no change starts it again in this test).
    await autoplay.stop_all()
    frames_on_thread.clear()
    await send(mover, op="play", action="pass", version=str(match.version))
    for communicator in (mover, other):
        await receive_until(communicator, version_mark(match.version + 1))
    await settle(table.pk, mover, other)  # every frame the move asked for, the mover's too
    assert frames_on_thread == []
    # The next move is made outside this process's sockets (as by another server process).
    await sync_to_async(snapshots.forget)()
    next_seat = (seat + 1) % 4
    await sync_to_async(play.apply_action)(table.pk, users[next_seat], "pass", match.version + 1)
    await notify.send(
        notify.table_group(table.pk),
        notify.table_changed(move={"match": match.pk, "version": match.version + 2}),
    )
    for communicator in (mover, other):
        await receive_until(communicator, version_mark(match.version + 2))
    assert len(frames_on_thread) == 2  # both sockets' frames, read and rendered on the thread
    await mover.disconnect()
    await other.disconnect()


async def test_seats_start_and_presence_over_the_socket():
    users = await sync_to_async(make_players)(4)
    table = await sync_to_async(rows.create_table)(users[0], "belote", OPTIONS, is_private=False)
    await sync_to_async(seating.leave_seat)(table.pk, users[0])  # an empty table
    path = f"/ws/table/{table.code}/"
    sockets = [await connect(user, path) for user in users]
    await send(sockets[1], op="sit", seat="1")
    frame = await receive_until(sockets[0], "player1")
    assert "presence online" in frame
    await send(sockets[2], op="sit", seat="1")
    assert "That seat is taken" in await receive_until(sockets[2], "flash-visible")
    await send(sockets[0], op="start")
    assert "Every seat must be taken" in await receive_until(sockets[0], "flash-visible")
    for index in (0, 2, 3):
        await send(sockets[index], op="sit", seat=str(index))
        await receive_until(sockets[index], f"player{index} (you)")
    await send(sockets[1], op="start")
    assert "Only the table" in await receive_until(sockets[1], "flash-visible")
    await send(sockets[0], op="start")
    await receive_until(sockets[3], 'id="board"')
    refreshed = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert refreshed.status == Table.Status.PLAYING
    for communicator in sockets:
        await communicator.disconnect()


async def test_chat_is_escaped_limited_and_seen_by_spectators():
    users = await sync_to_async(make_players)(2)
    table = await sync_to_async(rows.create_table)(users[0], "belote", OPTIONS, is_private=True)
    path = f"/ws/table/{table.code}/"
    player = await connect(users[0], path)
    watcher = await connect(users[1], path)
    await send(player, op="chat", text="<script>alert(1)</script> hi")
    frame = await receive_until(watcher, "chat-line")
    assert "&lt;script&gt;" in frame and "<script>" not in frame
    await send(player, op="chat", text="x" * 301)
    assert "at most 300" in await receive_until(player, "flash-visible")
    for _ in range(5):
        await send(player, op="chat", text="spam")
    await send(player, op="chat", text="spam")
    assert "too fast" in await receive_until(player, "flash-visible")
    await player.disconnect()
    await watcher.disconnect()
