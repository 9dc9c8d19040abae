"""Hostile frames get a clear message and change nothing; no error leaves a ghost behind."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from games.engines import belote
from games.live import consumers, notify
from games.live.consumers import BadFrame, parse_frame
from games.models import ChatMessage, MatchPlayer, Presence
from games.tables import chat, matches

from .factories import make_players, match_of, seated_table
from .live import FRAME_TIMEOUT, connect, live_test, receive_until, send

NOT_ALLOWED = "characters that are not allowed"
NESTED = "nested too deeply"


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        ("[" * 999 + "]" * 999, NESTED),
        ('{"op": "chat", "text": {"a": {"b": "c"}}}', NESTED),
        ('{"op": "chat", "x": [[1]]}', NESTED),
        ('{"op": "chat", "text": "\\ud800"}', NOT_ALLOWED),
        ('{"op": "play", "action": "J\\udc00", "version": "1"}', NOT_ALLOWED),
        ('{"op": "chat", "text": "a\\u0000b"}', NOT_ALLOWED),
        ('{"op": "chat", "text": "bell\\u0007"}', NOT_ALLOWED),
        ('{"op": "chat", "text": "ok", "\\ud83d": 1}', NOT_ALLOWED),
    ],
)
def test_hostile_frames_are_refused_with_a_message(frame, message):
    with pytest.raises(BadFrame, match=message):
        parse_frame(frame)


def test_htmx_frames_with_their_headers_still_parse():
    headers = '{"HX-Request": "true", "HX-Trigger": null}'
    frame = parse_frame('{"op": "chat", "text": "Здравей 👋", "HEADERS": ' + headers + "}")
    assert frame["text"] == "Здравей 👋"


@live_test
@pytest.mark.parametrize(
    "frame",
    [
        "[" * 999 + "]" * 999,
        '{"op": "chat", "text": "\\ud800"}',
        '{"op": "chat", "text": "a\\u0000b"}',
        '{"op": "play", "action": "\\udc00", "version": "1"}',
    ],
)
async def test_a_hostile_frame_keeps_the_socket_and_stores_nothing(frame):
    users = await sync_to_async(make_players)(4)
    table = await sync_to_async(seated_table)(users)
    await sync_to_async(matches.start_match)(table.pk, users[0])
    socket = await connect(users[0], f"/ws/table/{table.code}/")
    await socket.send_to(text_data=frame)
    assert 'role="alert"' in await receive_until(
        socket, "not allowed" if "\\u" in frame else "nested"
    )
    assert not await sync_to_async(ChatMessage.objects.exists)()
    await send(socket, op="chat", text="still here")
    await receive_until(socket, "still here")
    await socket.disconnect()


@live_test
async def test_an_error_inside_a_request_is_answered_and_keeps_the_socket(monkeypatch):
    users = await sync_to_async(make_players)(4)
    table = await sync_to_async(seated_table)(users)
    socket = await connect(users[0], f"/ws/table/{table.code}/")

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(chat, "post_message", broken)
    await send(socket, op="chat", text="hello")
    assert 'role="alert"' in await receive_until(socket, "Something went wrong")
    monkeypatch.undo()
    await send(socket, op="chat", text="hello again")
    await receive_until(socket, "hello again")
    await socket.disconnect()


@live_test
async def test_a_socket_that_dies_of_an_error_runs_the_whole_disconnect(monkeypatch, settings):
    settings.AWAY_GRACE_SECONDS = 0
    users = await sync_to_async(make_players)(4)
    table = await sync_to_async(seated_table)(users)
    await sync_to_async(matches.start_match)(table.pk, users[0])
    match = await sync_to_async(match_of)(table)
    on_turn = belote.loads(match.state).to_act
    sockets = [await connect(user, f"/ws/table/{table.code}/") for user in users]
    for socket in sockets:
        await receive_until(socket, 'id="connection"')  # its presence is recorded by now
    original = consumers.TableConsumer.table_changed

    async def table_changed(self, event):
        if self.user.pk == users[on_turn].pk:
            raise RuntimeError("a frame could not be rendered")
        await original(self, event)

    # The next change kills the connection of the player on turn, and only theirs.
    monkeypatch.setattr(consumers.TableConsumer, "table_changed", table_changed)
    await notify.send(notify.table_group(table.pk), notify.table_changed())
    died = sockets[on_turn].future  # the connection's application (a server closes it: 1011)
    await asyncio.wait({died}, timeout=FRAME_TIMEOUT)
    with pytest.raises(RuntimeError, match="could not be rendered"):
        died.result()
    # No presence outlives the socket: the player is away, and a computer covers their turn.
    watcher = sockets[(on_turn + 1) % 4]
    await receive_until(watcher, f"a computer is playing for {users[on_turn].username}")
    monkeypatch.undo()
    online = await sync_to_async(lambda: set(Presence.objects.values_list("user_id", flat=True)))()
    assert online == {user.pk for index, user in enumerate(users) if index != on_turn}
    player = await sync_to_async(MatchPlayer.objects.get)(match=match, seat=on_turn)
    assert player.away_since is not None
    for index, socket in enumerate(sockets):
        if index != on_turn:
            await socket.disconnect()


@live_test
async def test_an_unknown_phrase_is_refused_and_a_known_one_is_said():
    users = await sync_to_async(make_players)(4)
    table = await sync_to_async(seated_table)(users)
    socket = await connect(users[0], f"/ws/table/{table.code}/")
    for phrase in ("shout", ["hello"], 7):
        await send(socket, op="chat", phrase=phrase)
        assert 'role="alert"' in await receive_until(socket, "There is no such phrase.")
    assert not await sync_to_async(ChatMessage.objects.exists)()
    await send(socket, op="chat", phrase="thanks")
    await receive_until(socket, "Thanks!")
    assert await sync_to_async(
        lambda: list(ChatMessage.objects.values_list("text", flat=True))
    )() == ["Thanks!"]
    await socket.disconnect()


@pytest.mark.parametrize(
    "fields",
    [{"announce-d0": "maybe"}, {"announce-x": "no"}, {"announce-d10": "no"}, {"announce-": 1}],
)
def test_a_malformed_announce_choice_is_refused(fields):
    with pytest.raises(BadFrame, match="missing a valid announce-"):
        consumers.quiet_keys({"op": "play", "action": "JH", **fields})


def test_an_announce_choice_names_what_the_card_keeps_quiet():
    frame = {"op": "play", "action": "QH", "announce-d0": "no", "announce-belot": "no"}
    assert consumers.quiet_keys(frame) == ["belot", "d0"]
    assert consumers.quiet_keys({**frame, "announce-d0": "yes"}) == ["belot"]
