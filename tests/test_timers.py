"""A run-out turn timer makes one move for the player; only several in a row hand the seat to
a computer, and the player's own move starts the count again."""

from __future__ import annotations

import pytest

from games.engines import belote
from games.live.frames import table_context
from games.models import MatchPlayer, Table
from games.tables import matches, play

from .factories import make_players, match_of, seated_table

pytestmark = pytest.mark.django_db


def timed_out_move(table, seat: int) -> None:
    match = match_of(table)
    state = belote.loads(match.state)
    assert state.to_act == seat
    action = belote.legal_actions(state, seat)[0]
    play.apply_action(table.pk, None, action, match.version, seat=seat, timed_out=True)


def own_move(table, user) -> None:
    match = match_of(table)
    state = belote.loads(match.state)
    action = belote.legal_actions(state, state.to_act)[0]
    play.apply_action(table.pk, user, action, match.version)


def others_until(table, users, seat: int) -> None:
    """The other players move (bidding where they can) until it is ``seat``'s turn again."""
    while (state := belote.loads(match_of(table).state)).to_act != seat:
        match = match_of(table)
        legal = belote.legal_actions(state, state.to_act)
        play.apply_action(table.pk, users[state.to_act], legal[-1], match.version)


def started_table() -> tuple[list, Table, int]:
    """Four players at a started table, and the seat to act first."""
    users = make_players()
    table = seated_table(users)
    matches.start_match(table.pk, users[0])
    return users, table, belote.loads(match_of(table).state).to_act


def seat_row(table, seat: int) -> MatchPlayer:
    return MatchPlayer.objects.get(match=match_of(table), seat=seat)


def test_the_seat_is_covered_only_after_several_timeouts_in_a_row(settings):
    settings.TIMEOUTS_BEFORE_COVER = 3
    users, table, first = started_table()
    for count in (1, 2):
        timed_out_move(table, first)
        assert (seat_row(table, first).timeouts, seat_row(table, first).covered) == (count, False)
        context = table_context(table, users[first])
        assert (context["my_timeouts"], context["i_am_covered"]) == (count, False)
        others_until(table, users, first)
    timed_out_move(table, first)
    assert seat_row(table, first).covered
    assert table_context(table, users[first])["i_am_covered"]


def test_a_players_own_move_starts_the_count_again(settings):
    settings.TIMEOUTS_BEFORE_COVER = 2
    users, table, first = started_table()
    timed_out_move(table, first)
    others_until(table, users, first)
    own_move(table, users[first])
    assert seat_row(table, first).timeouts == 0
    others_until(table, users, first)
    timed_out_move(table, first)
    assert (seat_row(table, first).timeouts, seat_row(table, first).covered) == (1, False)
