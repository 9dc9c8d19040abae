"""Players and tables for tests: users, a seated Belote table, a match played to its end."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.engines import belote
from games.models import Match, Table
from games.tables import matches, play, rows, seating

OPTIONS = {"target": 151, "declarations": "separate", "finish_with_hanging": True}


def make_players(count: int = 4):
    User = get_user_model()
    return [User.objects.create_user(f"player{i}", password="pw-123456789") for i in range(count)]


def empty_public_table(owner, options=OPTIONS) -> Table:
    """A public belote table ``owner`` created and left, every seat free."""
    table = rows.create_table(owner, "belote", options, is_private=False)
    seating.leave_seat(table.pk, owner)
    return table


def table_with_bots(owner, levels=("easy", "normal", "hard"), guest=None, **extra) -> Table:
    """A private table with ``owner`` in seat 0, ``guest`` (a player and a seat) if given,
    and bots of ``levels`` in the other seats in order."""
    table = rows.create_table(owner, "belote", OPTIONS, is_private=True, **extra)
    seating.take_seat(table.pk, owner, 0)
    free = [1, 2, 3]
    if guest is not None:
        player, seat = guest
        seating.take_seat(table.pk, player, seat)
        free.remove(seat)
    for seat, level in zip(free, levels, strict=True):
        seating.set_bot(table.pk, owner, seat, level)
    return table


def seated_table(users) -> Table:
    table = rows.create_table(users[0], "belote", OPTIONS, is_private=True)
    for index, user in enumerate(users[:4]):
        seating.take_seat(table.pk, user, index)
    return table


def finished_short_match(users) -> tuple[Table, Match]:
    """A private table of ``users`` and its first match, played to 11 and over."""
    table = seated_table(users)
    table.options = {**OPTIONS, "target": 11}
    table.save()
    matches.start_match(table.pk, users[0])
    return table, finish_match(table, users)


def match_of(table: Table) -> Match:
    return Match.objects.filter(table=table).latest("number")


def finish_match(table: Table, users) -> Match:
    """Play the current match to its end with first legal actions (target lowered)."""
    match = Match.objects.get(table=table, status=Match.Status.RUNNING)
    state = belote.loads(match.state)
    while state.to_act is not None:
        seat = state.to_act
        match = play.apply_action(
            table.pk, users[seat], belote.legal_actions(state, seat)[-1], match.version
        ).match
        state = belote.loads(match.state)
    return match


def start_with_dealer(table: Table, owner, dealer: int) -> Match:
    """Start, then fix the dealer so we know who acts first (seat dealer + 1)."""
    match = matches.start_match(table.pk, owner)
    state = belote.new_game(seed=match.seed, dealer=dealer, **OPTIONS)
    Match.objects.filter(pk=match.pk).update(state=belote.dumps(state))
    return match_of(table)
