"""Grabush as a spectator and a player read it: sides by their seats, partners, the table-talk
warning beside the chat while a game runs."""

from __future__ import annotations

import pytest

from games.engines import grabush
from games.live import frames
from games.presenters import grabush as presenter
from games.tables import matches, rows, seating

from .factories import make_players

pytestmark = pytest.mark.django_db


def test_a_spectator_reads_the_sides_by_their_seats_and_a_player_partners_and_opponents():
    state = grabush.new_game(seed=1, players=4)
    seats = [{"index": i, "name": f"p{i}", "is_me": False} for i in range(4)]
    watching = presenter.board_context(grabush.view(state, None), seats, None)
    assert (watching["us_label"], watching["them_label"]) == ("Seats 1 & 3", "Seats 2 & 4")
    assert not any(player["partner"] or player["opponent"] for player in watching["players"])
    rows = [dict(seat, is_me=seat["index"] == 1) for seat in seats]
    playing = presenter.board_context(grabush.view(state, 1), rows, 1)
    # In playing order from the viewer, each named as a partner or an opponent.
    assert [p["index"] for p in playing["players"]] == [1, 2, 3, 0]
    assert [p["index"] for p in playing["players"] if p["partner"]] == [3]
    assert [p["index"] for p in playing["players"] if p["opponent"]] == [2, 0]
    assert presenter.side_label(8, 1) == "Seats 2, 4, 6 & 8"
    assert presenter.side_label(2, 0) == "Seat 1"


@pytest.mark.parametrize("penalty", [True, False])
def test_the_chat_box_warns_of_table_talk_only_while_a_game_with_the_rule_runs(penalty):
    users = make_players(3)
    options = {"players": 2, "stock_size": 20, "table_talk_penalty": penalty}
    table = rows.create_table(users[0], "grabush", options, is_private=True)
    seating.take_seat(table.pk, users[1], 1)
    before = frames.render_frame(table, users[2], full=True)
    assert "Table talk" not in before
    matches.start_match(table.pk, users[0])
    for viewer in users[:2]:
        frame = frames.render_frame(table, viewer, full=True)
        assert ("Table talk: while the game runs" in frame) is penalty
    assert "Table talk" not in frames.render_frame(table, users[2], full=True)  # watching
