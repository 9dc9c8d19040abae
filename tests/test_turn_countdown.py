"""The countdown goes with the seat on turn: a bar in the status for its player, a ring beside
its name on the board for everyone else, nothing without a turn timer or during a deal's pause;
and the regions that show it still render from their declared inputs alone."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.engines import belote, grabush
from games.live import frames
from games.live.regions import render as render_region
from games.live.regions import restricted
from games.models import Match, MatchPlayer
from games.presenters import belote as belote_presenter
from games.presenters import grabush as grabush_presenter
from games.tables import matches, play, rows, seating

from .factories import OPTIONS, start_with_dealer
from .test_grabush_regions import short_game

pytestmark = pytest.mark.django_db


def make_user(username: str):
    return get_user_model().objects.create_user(username, password="pw-123456789")


RING = re.compile(r'<span class="turn-timer ring" data-deadline="(\d+)" data-duration="30"')
BAR = re.compile(r'<span class="turn-timer bar" data-deadline="(\d+)" data-duration="30"')


def timed_table(game: str, options: dict, seats: int, turn_seconds: int = 30, prefix: str = ""):
    users = [make_user(f"{prefix}player{index}") for index in range(seats)]
    table = rows.create_table(users[0], game, options, is_private=True, turn_seconds=turn_seconds)
    for index, user in enumerate(users[1:], start=1):
        seating.take_seat(table.pk, user, index)
    matches.start_match(table.pk, users[0])
    return table, users


def deadline_of(table) -> int:
    match = Match.objects.get(table=table)
    return int((match.turn_started_at.timestamp() + table.turn_seconds) * 1000)


def test_belote_the_player_on_turn_has_the_bar_the_others_a_ring_beside_his_name():
    table, users = timed_table("belote", OPTIONS, 4)
    for _ in range(6):  # a few calls: the turn, and so the countdown, goes round the table
        state = belote.loads(Match.objects.get(table=table).state)
        deadline = deadline_of(table)
        for seat, user in enumerate(users):
            context = frames.table_context(table, user)
            status = render_region(frames.STATUS, context)
            felt = render_region(belote_presenter.REGIONS[1], context)
            if seat == state.to_act:
                assert BAR.findall(status) == [str(deadline)]
            else:
                assert not BAR.search(status) and "turn-timer" not in status
            # The felt is one render for the side (the player on turn hides his own ring).
            assert RING.findall(felt) == [str(deadline)]
            place = re.search(rf'<div class="player at-{state.to_act} active">(.*?)</div>', felt)
            assert RING.search(place[1])  # in the place of the player on turn
            for region in (frames.STATUS, *belote_presenter.REGIONS):
                alone = render_region(region, restricted(context, region.uses))
                assert alone == render_region(region, context), region.template
        seat = state.to_act
        match = Match.objects.get(table=table)
        play.apply_action(table.pk, users[seat], "pass", match.version)


def test_no_countdown_without_a_turn_timer_or_while_a_deal_ends():
    untimed, users = timed_table("belote", OPTIONS, 4, turn_seconds=0)
    for user in users:
        context = frames.table_context(untimed, user)
        html = render_region(frames.STATUS, context) + render_region(
            belote_presenter.REGIONS[1], context
        )
        assert "turn-timer" not in html and "seat_deadlines" not in context
    timed, users = timed_table("belote", OPTIONS, 4, prefix="timed-")
    Match.objects.filter(table=timed).update(paused_until=timezone.now() + timedelta(seconds=9))
    for user in users:
        context = frames.table_context(timed, user)
        html = render_region(frames.STATUS, context) + render_region(
            belote_presenter.REGIONS[1], context
        )
        assert "turn-timer" not in html


def test_grabush_the_ring_is_on_the_panel_of_the_seat_on_turn_and_only_that_panel_changes():
    options = {"players": 4, "stock_size": 20, "table_talk_penalty": True}
    table, users = timed_table("grabush", options, 4)
    Match.objects.filter(table=table).update(state=grabush.dumps(short_game()))
    players = {region.name: region for region in grabush_presenter.REGIONS if region.name}
    deadline = deadline_of(table)
    for seat, user in enumerate(users):
        context = frames.table_context(table, user)
        assert context["view"]["to_act"] == 0
        for other in range(4):
            region = players[f"player-{other}"]
            html = render_region(region, context)
            # Seat 0's panel has the ring for the others; its own player has the status bar.
            assert RING.findall(html) == ([str(deadline)] if other == 0 and seat != 0 else [])
            alone = render_region(region, restricted(context, region.uses))
            assert alone == html
            # A panel's key holds its own seat's deadline only: the others keep theirs.
            if other != 0:
                assert region.key(context) == region.key({**context, "seat_deadlines": {}})
        status = render_region(frames.STATUS, context)
        assert BAR.findall(status) == ([str(deadline)] if seat == 0 else [])


def test_no_countdown_for_a_computers_turn():
    owner = make_user("solo")
    table = rows.create_table(owner, "belote", OPTIONS, is_private=True, turn_seconds=30)
    seating.fill_with_bots(table.pk, owner, "normal")
    start_with_dealer(table, owner, dealer=0)  # seat 1, a computer, to act
    context = frames.table_context(table, owner)
    assert context["view"]["to_act"] == 1 and "deadline_ms" in context
    assert "turn-timer" not in render_region(belote_presenter.REGIONS[1], context)
    # Nor for a human's seat that a computer covers: it moves at once too.
    humans, users = timed_table("belote", OPTIONS, 4, prefix="covered-")
    seat = belote.loads(Match.objects.get(table=humans).state).to_act
    MatchPlayer.objects.filter(match__table=humans, seat=seat).update(covered=True)
    for user in users:
        context = frames.table_context(humans, user)
        html = render_region(frames.STATUS, context) + render_region(
            belote_presenter.REGIONS[1], context
        )
        assert "turn-timer" not in html
