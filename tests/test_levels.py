"""The computer levels a table offers: those the benchmarks show apart, weakest first."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.catalog import get_game
from games.models import Match, MatchPlayer, Seat
from games.presenters.computers import computer_name
from games.tables import matches, rows, seating
from games.tables.rows import TableError

from .factories import OPTIONS, finish_match, make_players, match_of, seated_table

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


def test_the_experts_seats_play_hard_from_the_upgrade_on_and_its_matches_keep_it() -> None:
    users = make_players(4)
    waiting = rows.create_table(users[0], "belote", OPTIONS, is_private=True)
    Seat.objects.filter(table=waiting, index=2).update(bot_level="expert")
    running = seated_table(users)
    matches.start_match(running.pk, users[0])
    MatchPlayer.objects.filter(match=match_of(running), seat=1).update(bot_level="expert")
    done = seated_table(users)
    matches.start_match(done.pk, users[0])
    finished = finish_match(done, users)
    assert finished.status == Match.Status.FINISHED
    MatchPlayer.objects.filter(match=finished, seat=3).update(bot_level="expert")

    upgrade = importlib.import_module("games.migrations.0023_expert_seats_to_hard")
    upgrade.expert_to_hard(apps, None)

    assert Seat.objects.get(table=waiting, index=2).bot_level == "hard"
    assert MatchPlayer.objects.get(match=match_of(running), seat=1).bot_level == "hard"
    assert MatchPlayer.objects.get(match=finished, seat=3).bot_level == "expert"
