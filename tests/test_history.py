"""Match history: outcomes and ratings when a match ends, profiles, match pages, replays and
leaderboards, checked against the move log and for query counts."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from django.urls import reverse

from games import history, play, ratings, tables
from games.catalog import get_game
from games.models import Match, MatchPlayer, Outcome, Rating, RatingChange, Seat, Table
from games.replay import final_state

from .test_table_live import OPTIONS, make_players

pytestmark = pytest.mark.django_db
BELOTE_FAST = {**OPTIONS, "target": 11}
GRABUSH_2 = {"players": 2, "stock_size": 20, "table_talk_penalty": True}


def new_table(users, game: str = "belote", options=None, bots: dict[int, str] | None = None):
    """A table with ``users`` seated in order (``None`` leaves a seat for a bot in ``bots``)."""
    options = options or (BELOTE_FAST if game == "belote" else GRABUSH_2)
    owner = next(user for user in users if user is not None)
    table = tables.create_table(owner, game, options, is_private=False)
    for index, user in enumerate(users):
        if user is not None:
            tables.take_seat(table.pk, user, index)
    for index, level in (bots or {}).items():
        Seat.objects.filter(table=table, index=index).update(bot_level=level)
    return table


def play_out(table: Table, users, rng: random.Random, chat: float = 0.0) -> Match:
    """Play the table's running match to its end with random legal actions.

    ``chat``: the chance, per move, that the player on turn chats (Grabush's table-talk rule).
    """
    match = Match.objects.get(table=table, status=Match.Status.RUNNING)
    engine = get_game(match.game).engine
    state = engine.loads(match.state)
    while state.to_act is not None:
        seat = state.to_act
        user = users[seat]
        if user is not None and rng.random() < chat:
            play.apply_chat_rule(table.pk, user)
            match.refresh_from_db()
            state = engine.loads(match.state)
            continue
        action = rng.choice(engine.legal_actions(state, seat))
        match = play.apply_action(
            table.pk, user, action, match.version, seat=seat if user is None else None
        )
        state = engine.loads(match.state)
    return match


def start_and_finish(users, game="belote", seed=1, bots=None, chat=0.0) -> Match:
    table = new_table(users, game, bots=bots)
    owner = next(user for user in users if user is not None)
    play.start_match(table.pk, owner)
    return play_out(table, users, random.Random(seed), chat)


def test_a_finished_match_rates_humans_by_team():
    users = make_players(4)
    match = start_and_finish(users)
    winner = match.result["winner"]
    outcomes = dict(match.players.values_list("seat", "outcome"))
    assert outcomes == {
        seat: Outcome.WIN if seat % 2 == winner else Outcome.LOSS for seat in range(4)
    }
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert len(changes) == 4
    for seat, user in enumerate(users):
        change = changes[user.pk]
        assert change.rating_before == 1500
        assert (change.delta > 0) == (seat % 2 == winner)
        rating = Rating.objects.get(user=user, game="belote")
        assert (rating.games, rating.rating) == (1, change.rating_after)
        assert rating.rating == ratings.display_rating(rating.mu, rating.sigma)
    # Partners share the result.
    assert changes[users[0].pk].delta == changes[users[2].pk].delta
    assert changes[users[1].pk].delta == changes[users[3].pk].delta
