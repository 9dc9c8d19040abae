"""The computer levels a table offers: those the benchmarks show apart, weakest first."""

from __future__ import annotations

import pytest

from games.catalog import get_game
from games.presenters.computers import computer_name
from games.tables import rows, seating
from games.tables.rows import TableError

from .factories import OPTIONS, make_players

pytestmark = pytest.mark.django_db


def test_belote_offers_easy_normal_and_hard_and_hard_covers() -> None:
    spec = get_game("belote")
    assert list(spec.bots) == ["easy", "normal", "hard"]
    assert spec.cover_level == "hard"
    (owner,) = make_players(1)
    table = rows.create_table(owner, "belote", OPTIONS, is_private=True)
    with pytest.raises(TableError, match="no such computer player"):
        seating.set_bot(table.pk, owner, 1, "expert")
    with pytest.raises(TableError, match="no such computer player"):
        seating.fill_with_bots(table.pk, owner, "expert")
    assert list(table.seats.values_list("bot_level", flat=True)) == ["", "", "", ""]
    # The computers of matches the expert played keep their name.
    assert computer_name("expert", 1) == "Ivan · computer, expert"
