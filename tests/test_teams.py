"""Who played on whose side is the game's to say (``Game.teams``): two players' record together
and a club's standings by partnership ask it, and know no game by name."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from games import catalog
from games.catalog.belote import GAME as BELOTE
from games.catalog.belote import Belote
from games.models import Club, Match, MatchPlayer, Outcome, Table
from games.people import clubs
from games.records.together import records_with

from .factories import make_players

pytestmark = pytest.mark.django_db


class Neighbours(Belote):
    """Belote's game, but partners sit side by side: seats 1 and 2 against seats 3 and 4."""

    def teams(self, options: dict[str, Any]) -> list[list[int]]:
        return [[0, 1], [2, 3]]


@pytest.fixture
def neighbours():
    game = Neighbours(
        **{field.name: getattr(BELOTE, field.name) for field in dataclasses.fields(BELOTE)}
        | {"name": "neighbours", "label": "Neighbours"}
    )
    catalog.register(game)
    yield game
    catalog.unregister(game.name)


def finished_match(users: list, winners: set[int], club: Club | None = None) -> Match:
    """A finished match of the neighbours' game, ``users`` by seat, the seats of ``winners``
    having won."""
    table = Table.objects.create(game="neighbours", owner=users[0], club=club)
    match = Match.objects.create(
        table=table, number=1, game="neighbours", state="", status=Match.Status.FINISHED
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(
            match=match,
            seat=seat,
            user=user,
            outcome=Outcome.WIN if seat in winners else Outcome.LOSS,
        )
        for seat, user in enumerate(users)
    )
    return match


@pytest.mark.usefixtures("neighbours")
def test_players_side_by_side_are_partners_when_the_game_says_so():
    users = make_players(4)
    finished_match(users, winners={0, 1})
    record = records_with(users[0], users[1:])
    assert record[users[1].pk].along == {"Neighbours": [1, 0]}  # seats 1 and 2: partners
    assert record[users[1].pk].against == {}
    assert record[users[2].pk].against == {"Neighbours": [1, 0]}
    assert record[users[2].pk].along == {}


@pytest.mark.usefixtures("neighbours")
def test_club_standings_count_the_partnerships_the_game_makes():
    users = make_players(4)
    club = clubs.create_club(users[0], "Side by side", "", ["belote"], Club.Access.OPEN)
    for user in users[1:]:
        clubs.join(club, user)
    finished_match(users, winners={2, 3}, club=club)
    [standings] = clubs.standings(club)
    pairs = {line.name: (line.played, line.won) for line in standings.pairs}
    assert pairs == {"player0 & player1": (1, 0), "player2 & player3": (1, 1)}


def test_a_game_of_one_player_a_side_has_no_partnerships():
    users = make_players(2)
    club = clubs.create_club(users[0], "Alone", "", ["grabush"], Club.Access.OPEN)
    clubs.join(club, users[1])
    table = Table.objects.create(game="grabush", owner=users[0], club=club)
    match = Match.objects.create(
        table=table, number=1, game="grabush", state="", status=Match.Status.FINISHED
    )
    for seat, user in enumerate(users):
        MatchPlayer.objects.create(
            match=match, seat=seat, user=user, outcome=Outcome.WIN if seat else Outcome.LOSS
        )
    [standings] = clubs.standings(club)
    assert standings.pairs == [] and len(standings.players) == 2
