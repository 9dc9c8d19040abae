"""Live Grabush over websockets: four seats, a crafted position, the two-step play."""

from __future__ import annotations

import json

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games.engines import grabush
from games.models import Match, Move, Table
from games.tables import matches, rows, seating

from .engines.grabush_helpers import craft
from .live import (
    LIVE_MARKS,
    connect,
    frames_until,
    leaked_cards,
    receive_until,
    send,
    settle,
    version_mark,
)

pytestmark = LIVE_MARKS
OPTIONS = {"players": 4, "stock_size": 20, "table_talk_penalty": True}
PILE = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC"]
BOOK = ["7D", "8D", "9D", "TD", "JD"]


def position() -> grabush.State:
    """Seat 0 to play: a King to finish pile 1, then an Ace and a 2, then a book arrives."""
    return craft(
        4,
        0,
        stocks=[["5S"], ["6H"]],
        hands=[["KS", "AH", "2H"], ["3S", "4S", "8S", "9S", "TS"], ["3H", "4H"], ["JS", "QS"]],
        centre=[PILE],
        supply=BOOK + ["KD"] * 3,
        leftovers_to="supply",
    )


def start(users) -> Table:
    table = rows.create_table(users[0], "grabush", OPTIONS, is_private=True)
    for index, user in enumerate(users[:4]):
        seating.take_seat(table.pk, user, index)
    matches.start_match(table.pk, users[0])
    Match.objects.filter(table=table).update(state=grabush.dumps(position()))
    return table


async def connected_table(prefix: str, count: int) -> tuple[Table, list[WebsocketCommunicator]]:
    """Players named ``prefix`` and a number, the first four at a table in :func:`position`,
    each with a socket open on it."""
    User = get_user_model()
    names = [f"{prefix}{i}" for i in range(count)]
    users = await sync_to_async(lambda: [User.objects.create_user(name) for name in names])()
    table = await sync_to_async(start)(users)
    return table, [await connect(user, f"/ws/table/{table.code}/") for user in users]


def current(table: Table) -> tuple[Match, grabush.State]:
    match = Match.objects.get(table=table)
    return match, grabush.loads(match.state)


def hidden_for(state: grabush.State, viewer: int | None) -> set[str]:
    """Cards in other hands that the viewer's view does not show anywhere."""
    visible = json.dumps(grabush.view(state, viewer))
    others = set()
    for seat in range(4):
        if seat != viewer:
            others |= set(grabush.view(state, seat)["hand"])
    return {card for card in others if card not in visible}


async def test_a_turn_with_a_completed_pile_a_mid_turn_book_and_a_table_card():
    table, sockets = await connected_table("g", 5)
    for communicator in sockets:
        await receive_until(communicator, 'id="board"')

    async def play_and_check(action: str) -> list[str]:
        match, _ = await sync_to_async(current)(table)
        await send(sockets[0], op="play", action=action, version=str(match.version))
        frames = [
            await receive_until(communicator, version_mark(match.version + 1))
            for communicator in sockets
        ]
        _, state = await sync_to_async(current)(table)
        for viewer, frame in enumerate(frames):
            seat = viewer if viewer < 4 else None
            assert not leaked_cards(frame, hidden_for(state, seat)), (viewer, action)
        return frames

    # Two steps: pick the King, and the only target lit is the pile that shows a Queen.
    await send(sockets[0], op="select", source="hand:KS")
    picked = await receive_until(sockets[0], "You picked")
    assert 'value="centre:hand:KS:0"' in picked
    assert "table:KS:" in picked  # or a table pile: the turn could end here
    frames = await play_and_check("centre:hand:KS:0")
    _, state = await sync_to_async(current)(table)
    assert state.centre == []
    assert sorted(state.supply[-13:]) == sorted([*PILE, "KS"])  # shuffled under the supply
    assert all("went to the bottom of the supply" in frame for frame in frames)
    await play_and_check("centre:hand:AH:new")
    frames = await play_and_check("centre:hand:2H:0")
    _, state = await sync_to_async(current)(table)
    assert sorted(grabush.view(state, 0)["hand"]) == sorted(BOOK)  # the book, mid-turn
    assert "g0 drew 5 cards." in frames[1]
    assert not any(f'value="centre:hand:{card}' in frames[1] for card in BOOK)
    await play_and_check("table:JD:0")
    match, state = await sync_to_async(current)(table)
    assert state.to_act == 1
    assert await sync_to_async(Move.objects.filter(match=match).count)() == 4

    # Refusals change nothing and say why.
    version = str(match.version)
    refusals = [
        (sockets[2], {"action": "centre:hand:3H:0", "version": version}, "not your turn"),
        (sockets[1], {"action": "centre:table:0:0:0", "version": version}, "partners"),
        (sockets[1], {"action": "centre:hand:3S:0", "version": "1"}, "moved on"),
        (sockets[1], {"action": "table:3S:9", "version": version}, "slot"),
    ]
    for communicator, message, text in refusals:
        await send(communicator, op="play", **message)
        assert text in await receive_until(communicator, "flash-visible")
    after, _ = await sync_to_async(current)(table)
    assert after.version == match.version
    for communicator in sockets:
        await communicator.disconnect()


async def test_chat_during_a_game_lets_the_opponents_claim_a_penalty():
    table, sockets = await connected_table("p", 4)
    await send(sockets[1], op="chat", text="play the king!")
    panel = await receive_until(sockets[0], "You may claim a penalty")
    assert 'value="penalty:1:KS"' in panel and 'value="decline:1"' in panel
    # The talker's partner gets no right.
    frame = await receive_until(sockets[3], "penalty to claim")
    assert "You may claim a penalty" not in frame
    match, state = await sync_to_async(current)(table)
    size = state.stocks[1].__len__()
    await send(sockets[2], op="play", action="penalty:1:3H", version=str(match.version))
    await receive_until(sockets[2], version_mark(match.version + 1))
    _, state = await sync_to_async(current)(table)
    assert len(state.stocks[1]) == size + 1
    assert "3H" not in grabush.view(state, 2)["hand"]
    for communicator in sockets:
        await communicator.disconnect()


async def test_a_chat_rule_s_notice_reaches_every_page_before_the_change_it_brings():
    """The table talk's notice, and a claimed penalty's, are stored with their change and reach
    every page before it: whatever the table tells a page once it shows the change (a
    moderator's refresh of the chat, say) finds the notice there already, never after."""
    table, sockets = await connected_table("n", 4)
    await settle(table.pk, *sockets)
    match, _ = await sync_to_async(current)(table)
    await send(sockets[1], op="chat", text="play the king!")
    for communicator in sockets:
        frames = await frames_until(communicator, version_mark(match.version + 1))
        assert any("chat-notice" in frame and "n1" in frame for frame in frames[:-1])
    match, _ = await sync_to_async(current)(table)
    await send(sockets[2], op="play", action="penalty:1:3H", version=str(match.version))
    for communicator in sockets:
        frames = await frames_until(communicator, version_mark(match.version + 1))
        assert any("chat-notice" in frame and "n2" in frame for frame in frames[:-1])
    for communicator in sockets:
        await communicator.disconnect()
