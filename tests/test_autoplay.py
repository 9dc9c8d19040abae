"""Computer players in the product: seating them, their moves, recovery, timers, absence, bans."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.utils import timezone

from games.engines import belote
from games.live import autoplay, moves
from games.models import Match, MatchPlayer, Move, Table
from games.tables import rows

from .factories import OPTIONS, make_players, start_with_dealer, table_with_bots
from .live import FRAME_TIMEOUT, LIVE_MARKS, connect, receive_until, send, version_mark
from .test_moderation import admin_action, staff_client

pytestmark = LIVE_MARKS


def match_of(table: Table) -> Match:
    return Match.objects.filter(table=table).latest("number")


async def wait_for_turn(communicator, table: Table, seat: int) -> belote.State:
    """Frames until the match waits for ``seat`` (computer players move meanwhile)."""
    while True:
        match = await sync_to_async(match_of)(table)
        state = belote.loads(match.state)
        if state.to_act == seat or match.status != Match.Status.RUNNING:
            return state
        await communicator.receive_from(timeout=FRAME_TIMEOUT)


async def test_the_creator_seats_bots_and_plays_a_deal_with_them():
    (owner,) = await sync_to_async(make_players)(1)
    table = await sync_to_async(rows.create_table)(owner, "belote", OPTIONS, is_private=True)
    me = await connect(owner, f"/ws/table/{table.code}/")
    # The creator sits already.
    assert "player0 (you)" in await me.receive_from(timeout=FRAME_TIMEOUT)
    await send(me, op="fill", level="normal")
    await receive_until(me, "Everyone is seated")
    await send(me, op="bot", seat="1", level="")  # take one away again…
    await receive_until(me, "Fill empty seats with computers")
    await send(me, op="bot", seat="1", level="easy")  # …and put another level there
    await receive_until(me, "Ivan · computer, easy")
    await send(me, op="start")
    await receive_until(me, 'class="belote-board')
    deals = 0
    while deals == 0:
        state = await wait_for_turn(me, table, 0)
        match = await sync_to_async(match_of)(table)
        legal = belote.legal_actions(state, 0)
        await send(me, op="play", action=legal[0], version=str(match.version))
        await receive_until(me, version_mark(match.version + 1))
        deals = len(belote.deal_results(belote.loads((await sync_to_async(match_of)(table)).state)))
    match = await sync_to_async(match_of)(table)
    moves = await sync_to_async(list)(Move.objects.filter(match=match).values("seat", "user"))
    assert {m["seat"] for m in moves if m["user"] is None} == {1, 2, 3}  # bots, same log
    assert all(m["user"] == owner.pk for m in moves if m["seat"] == 0)
    await me.disconnect()


async def test_pending_bot_turn_resumes_when_someone_connects():
    (owner,) = await sync_to_async(make_players)(1)
    table = await sync_to_async(table_with_bots)(owner)
    # The match starts with a bot to play, and no server process is driving it (a restart).
    match = await sync_to_async(start_with_dealer)(table, owner, dealer=0)
    assert belote.loads(match.state).to_act == 1
    me = await connect(owner, f"/ws/table/{table.code}/")
    state = await wait_for_turn(me, table, 0)
    assert state.to_act == 0
    assert await sync_to_async(Move.objects.filter(match=match, user=None).count)() == 3
    await me.disconnect()


async def test_a_run_out_timer_makes_one_move_and_says_so(settings):
    settings.TIMEOUTS_BEFORE_COVER = 3
    (owner,) = await sync_to_async(make_players)(1)
    table = await sync_to_async(table_with_bots)(owner, turn_seconds=15)
    match = await sync_to_async(start_with_dealer)(table, owner, dealer=3)  # the human first
    me = await connect(owner, f"/ws/table/{table.code}/")
    await receive_until(me, "data-deadline")
    await sync_to_async(Match.objects.filter(pk=match.pk).update)(
        turn_started_at=timezone.now() - timedelta(seconds=20)
    )
    second_tab = await connect(owner, f"/ws/table/{table.code}/")  # the driver looks again
    frame = await receive_until(me, "a computer made that move for you (1 of 3)")
    assert "A computer player is playing for you" not in frame
    state = await wait_for_turn(me, table, 0)  # the bots play, and it is the player's turn again
    assert state.to_act == 0
    player = await sync_to_async(MatchPlayer.objects.get)(match=match, seat=0)
    assert (player.covered, player.timeouts) == (False, 1)
    moves = await sync_to_async(list)(Move.objects.filter(match=match, seat=0).values("user"))
    assert moves == [{"user": None}]
    await me.disconnect()
    await second_tab.disconnect()


async def test_turn_timer_hands_the_turn_to_a_bot_until_the_player_acts(settings):
    # Once covered, every seat plays itself; a pause between automatic moves keeps the match
    # from running to its end before the player takes the seat back.
    settings.BOT_DELAY_SECONDS = 1.0
    settings.TIMEOUTS_BEFORE_COVER = 1
    users = await sync_to_async(make_players)(1)
    owner = users[0]
    table = await sync_to_async(table_with_bots)(owner, turn_seconds=15)
    match = await sync_to_async(start_with_dealer)(table, owner, dealer=3)  # the human first
    me = await connect(owner, f"/ws/table/{table.code}/")
    frame = await receive_until(me, "Time left for this turn")
    assert "data-deadline" in frame
    # The turn ran out 5 seconds ago (as if the player had been idle); a second tab opening
    # is a change at the table, which makes the driver look again.
    await sync_to_async(Match.objects.filter(pk=match.pk).update)(
        turn_started_at=timezone.now() - timedelta(seconds=20)
    )
    second_tab = await connect(owner, f"/ws/table/{table.code}/")
    frame = await receive_until(me, "A computer player is playing for you")
    assert "a computer is playing for player0" in frame
    player = await sync_to_async(MatchPlayer.objects.get)(match=match, seat=0)
    assert player.covered
    first = await sync_to_async(Move.objects.filter(match=match).order_by("seq").first)()
    assert first.seat == 0 and first.user_id is None
    await send(me, op="takeover")
    frame = await receive_until(me, 'id="table-status"')
    while "A computer player is playing for you" in frame:
        frame = await receive_until(me, 'id="table-status"')
    player = await sync_to_async(MatchPlayer.objects.get)(match=match, seat=0)
    assert not player.covered
    await me.disconnect()
    await second_tab.disconnect()


async def test_a_player_away_past_the_grace_period_is_covered(settings):
    settings.AWAY_GRACE_SECONDS = 0
    users = await sync_to_async(make_players)(2)
    owner, friend = users
    table = await sync_to_async(table_with_bots)(owner, ("normal", "normal"), guest=(friend, 2))
    await sync_to_async(start_with_dealer)(table, owner, dealer=1)  # the friend plays first
    watcher = await connect(owner, f"/ws/table/{table.code}/")
    leaver = await connect(friend, f"/ws/table/{table.code}/")
    await leaver.disconnect()  # the friend's last connection closes on their turn
    await receive_until(watcher, "a computer is playing for player1")
    state = await wait_for_turn(watcher, table, 0)
    assert state.to_act == 0
    await watcher.disconnect()


async def test_a_banned_players_seat_is_handed_to_a_bot():
    users = await sync_to_async(make_players)(2)
    owner, cheat = users
    table = await sync_to_async(table_with_bots)(owner, ("easy", "easy"), guest=(cheat, 1))
    await sync_to_async(start_with_dealer)(table, owner, dealer=0)  # the cheat plays first
    me = await connect(owner, f"/ws/table/{table.code}/")
    client, _moderator = await sync_to_async(staff_client)()
    await sync_to_async(admin_action)(
        client, "auth_user", "ban_users", [cheat.pk], apply="1", reason="Cheating"
    )
    state = await wait_for_turn(me, table, 0)
    assert state.to_act == 0
    match = await sync_to_async(match_of)(table)
    assert (await sync_to_async(MatchPlayer.objects.get)(match=match, seat=1)).covered
    await me.disconnect()


async def test_only_the_creator_seats_bots():
    owner, guest = await sync_to_async(make_players)(2)
    table = await sync_to_async(rows.create_table)(owner, "belote", OPTIONS, is_private=True)
    socket = await connect(guest, f"/ws/table/{table.code}/")
    await send(socket, op="bot", seat="1", level="hard")
    assert "Only the table&#x27;s creator" in await receive_until(socket, "flash-visible")
    mine = await connect(owner, f"/ws/table/{table.code}/")
    await send(mine, op="bot", seat="1", level="genius")
    assert "no such computer player" in await receive_until(mine, "flash-visible")
    seats = await sync_to_async(list)(table.seats.values_list("bot_level", flat=True))
    assert seats == ["", "", "", ""]
    await socket.disconnect()
    await mine.disconnect()


async def test_stopping_waits_for_a_move_in_progress(monkeypatch):
    """Stopping must not leave a move running in its thread after it returns: the caller
    (shutdown, a test's database flush) relies on the table being quiet."""
    (owner,) = await sync_to_async(make_players)(1)
    table = await sync_to_async(table_with_bots)(owner)
    match = await sync_to_async(start_with_dealer)(table, owner, dealer=0)  # seat 1, a bot
    entered, release = threading.Event(), threading.Event()
    real_apply = moves.apply

    def held_apply(*args, **options):
        entered.set()
        release.wait(10)
        return real_apply(*args, **options)

    monkeypatch.setattr(moves, "apply", held_apply)
    autoplay.kick(table.pk)
    assert await asyncio.to_thread(entered.wait, 10)
    stopping = asyncio.ensure_future(autoplay.stop_all())
    done, _ = await asyncio.wait({stopping}, timeout=0.3)
    assert not done  # still waiting for the move
    release.set()
    await stopping
    # The move that was under way is in the log; no further one was started.
    assert await sync_to_async(Move.objects.filter(match=match).count)() == 1


async def test_no_driver_starts_once_stopped():
    """A change heard after stopping (a socket closing at shutdown, or as a test ends) must not
    start a driver that would outlive the loop with a move half made."""
    await autoplay.stop_all()
    autoplay.kick(12345)
    assert 12345 not in autoplay._drivers
