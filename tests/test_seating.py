"""Sitting down: the creator takes the first seat, and computers fill the free ones at once."""

from __future__ import annotations

import pytest

from games.live import frames
from games.models import Seat
from games.records import history
from games.tables import lobby, matches, rows, seating
from games.tables.rows import TableError

from .factories import OPTIONS, make_players

pytestmark = pytest.mark.django_db


def seats_shown(table) -> list[tuple[str | None, str]]:
    seats = Seat.objects.filter(table=table).select_related("user").order_by("index")
    return [(seat.user.username if seat.user else None, seat.bot_level) for seat in seats]


def test_the_creator_sits_in_the_first_seat():
    (host,) = make_players(1)
    table = rows.create_table(host, "belote", OPTIONS, is_private=True)
    assert seats_shown(table) == [("player0", ""), (None, ""), (None, ""), (None, "")]


def test_one_action_fills_every_free_seat_with_computers_of_a_level():
    host, friend = make_players(2)
    table = rows.create_table(host, "belote", OPTIONS, is_private=True)
    seating.take_seat(table.pk, friend, 2)
    assert seating.fill_with_bots(table.pk, host, "hard") == 2
    assert seats_shown(table) == [("player0", ""), (None, "hard"), ("player1", ""), (None, "hard")]
    assert seating.fill_with_bots(table.pk, host, "easy") == 0  # nothing left to fill
    matches.start_match(table.pk, host)  # everyone is seated


def test_only_the_creator_fills_seats_and_only_with_a_real_level():
    host, friend = make_players(2)
    table = rows.create_table(host, "belote", OPTIONS, is_private=True)
    with pytest.raises(TableError, match="Only the table's creator"):
        seating.fill_with_bots(table.pk, friend, "normal")
    with pytest.raises(TableError, match="no such computer player"):
        seating.fill_with_bots(table.pk, host, "godlike")
    assert seats_shown(table)[1:] == [(None, "")] * 3


def test_computers_at_one_table_have_distinct_names_on_the_page_and_in_the_record():
    (host,) = make_players(1)
    table = rows.create_table(host, "belote", {**OPTIONS, "target": 11}, is_private=False)
    seating.fill_with_bots(table.pk, host, "normal")
    names = [seat["name"] for seat in frames.table_context(table, host)["seats"]]
    assert names == [
        "player0",
        "Ivan · computer, normal",
        "Elena · computer, normal",
        "Georgi · computer, normal",
    ]
    listed = lobby.render_lobby_frame(lobby.lobby_tables())
    assert all(name in listed for name in names[1:])
    match = matches.start_match(table.pk, host)
    assert [history.player_name(p) for p in match.players.order_by("seat")] == names
