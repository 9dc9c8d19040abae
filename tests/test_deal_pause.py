"""A finished Belote deal stays on the table: its result shows until every human asks for the
next deal, or until the table's pause runs out; only then does the next auction start."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engines import belote
from games.live import autoplay
from games.live.frames import render_frame, table_context
from games.models import Match, MatchPlayer
from games.tables import matches, play, rows, seating
from tests.factories import OPTIONS, make_players, match_of
from tests.pages import by_id

pytestmark = pytest.mark.django_db

PAUSED = {**OPTIONS, "deal_pause": 10}


def paused_table(users, options=PAUSED):
    table = rows.create_table(users[0], "belote", options, is_private=True)
    for index, user in enumerate(users[:4]):
        seating.take_seat(table.pk, user, index)
    matches.start_match(table.pk, users[0])
    return table


def next_action(state: belote.State) -> str:
    """Clubs from the first bidder, then passes (a small contract: the match goes on), then
    the last legal card."""
    legal = belote.legal_actions(state, state.to_act)
    if belote.view(state, None)["phase"] == "auction":
        return "C" if "C" in legal else "pass"
    return legal[-1]


def play_deal(table, users) -> Match:
    """Play the current deal to its end (with ``users[seat]``, or the seat's computer player
    where ``users`` has None)."""
    match = match_of(table)
    state = belote.loads(match.state)
    deals = len(belote.deal_results(state))
    while len(belote.deal_results(state)) == deals:
        seat = state.to_act
        user = users[seat]
        match = play.apply_action(
            table.pk, user, next_action(state), match.version, seat=None if user else seat
        ).match
        state = belote.loads(match.state)
    return match


def test_a_finished_deal_pauses_the_table_and_refuses_the_next_move():
    users = make_players()
    table = paused_table(users)
    match = play_deal(table, users)
    assert match.paused_until is not None
    assert match.paused_until > timezone.now() + timedelta(seconds=8)
    assert match.turn_started_at == match.paused_until  # the first bidder's timer waits too
    state = belote.loads(match.state)
    seat = state.to_act
    with pytest.raises(rows.TableError, match="next one starts"):
        play.apply_action(
            table.pk, users[seat], belote.legal_actions(state, seat)[0], match.version
        )
    assert match_of(table).version == match.version


def test_the_next_deal_starts_once_every_human_is_ready():
    users = make_players()
    table = paused_table(users)
    match = play_deal(table, users)
    for user in users[:3]:
        assert matches.ready_for_next_deal(table.pk, user)
        assert matches.pause_active(match_of(table))
    assert not matches.ready_for_next_deal(table.pk, users[0])  # asking twice changes nothing
    assert matches.ready_for_next_deal(table.pk, users[3])
    match = match_of(table)
    assert match.paused_until is None
    with pytest.raises(rows.TableError, match="already started"):
        matches.ready_for_next_deal(table.pk, users[0])
    state = belote.loads(match.state)
    seat = state.to_act
    play.apply_action(table.pk, users[seat], belote.legal_actions(state, seat)[0], match.version)
    assert match_of(table).version == match.version + 1


def test_a_thrown_in_deal_does_not_pause():
    users = make_players()
    table = paused_table(users)
    match = match_of(table)
    for _ in range(4):
        state = belote.loads(match.state)
        match = play.apply_action(table.pk, users[state.to_act], "pass", match.version).match
    assert len(belote.deal_results(belote.loads(match.state))) == 1
    assert match.paused_until is None


def test_absent_and_covered_players_are_not_waited_for():
    users = make_players()
    table = paused_table(users)
    play_deal(table, users)
    match = match_of(table)
    MatchPlayer.objects.filter(match=match, seat=1).update(away_since=timezone.now())
    MatchPlayer.objects.filter(match=match, seat=2).update(covered=True)
    matches.ready_for_next_deal(table.pk, users[0])
    assert matches.pause_active(match_of(table))
    matches.ready_for_next_deal(table.pk, users[3])
    assert match_of(table).paused_until is None


def test_a_spectator_cannot_end_the_pause():
    users = make_players(5)
    table = paused_table(users)
    play_deal(table, users)
    with pytest.raises(rows.TableError, match="not playing"):
        matches.ready_for_next_deal(table.pk, users[4])
    assert matches.pause_active(match_of(table))


def test_the_pause_ends_when_its_time_is_up_and_not_before():
    users = make_players()
    table = paused_table(users)
    match = play_deal(table, users)
    assert not matches.end_pause(table.pk, match.version)
    Match.objects.filter(pk=match.pk).update(paused_until=timezone.now() - timedelta(seconds=1))
    assert not matches.end_pause(table.pk, match.version - 1)  # a driver holding an older read
    assert matches.end_pause(table.pk, match.version)
    assert match_of(table).paused_until is None


def test_computer_players_wait_for_the_pause_to_end():
    users = make_players(1)
    table = rows.create_table(users[0], "belote", PAUSED, is_private=True)
    seating.fill_with_bots(table.pk, users[0], "easy")
    matches.start_match(table.pk, users[0])
    match = play_deal(table, [users[0], None, None, None])
    pending = autoplay.pending_move(table.pk)
    assert pending is not None and pending.ends_pause
    assert pending.due == match.paused_until


@pytest.mark.parametrize(("options", "humans"), [({**OPTIONS, "deal_pause": 0}, 4), (PAUSED, 0)])
def test_no_pause_without_the_option_or_without_humans(options, humans):
    users = make_players(max(humans, 1))
    table = rows.create_table(users[0], "belote", options, is_private=True)
    if humans:
        for index, user in enumerate(users):
            seating.take_seat(table.pk, user, index)
    else:
        seating.fill_with_bots(table.pk, users[0], "easy")
        seating.leave_seat(table.pk, users[0])
        seating.set_bot(table.pk, users[0], 0, "easy")
    matches.start_match(table.pk, users[0])
    match = play_deal(table, users if humans else [None] * 4)
    assert match.paused_until is None


def test_the_table_shows_the_deal_end_until_the_next_deal():
    users = make_players(5)
    table = paused_table(users)
    play_deal(table, users)
    page = by_id(render_frame(table, users[0]))
    mine = page["my-area"]
    assert "Deal 1 is over" in mine, "the deal's result shows in the player's area"
    assert "next-deal" in mine, "a player may ask for the next deal"
    assert "playable" not in mine and "call-button" not in mine and "hand" not in mine
    assert page["felt"].count("resting") == 4, "the last trick stays on the felt"
    assert "new-row" in page["board-sheet"], "the score sheet marks the new row"
    context = table_context(table, users[0])
    assert context["view"]["to_act"] is None and context["view"]["legal"] == []
    assert "deadline_ms" not in context

    matches.ready_for_next_deal(table.pk, users[0])
    mine = by_id(render_frame(table, users[0]))["my-area"]
    assert "next-deal" not in mine
    waiting = mine[mine.index("Waiting for") :]
    for user in users[1:4]:
        assert user.username in waiting
    assert users[0].username not in waiting
    watching = by_id(render_frame(table, users[4]))["my-area"]
    assert "Deal 1 is over" in watching and "next-deal" not in watching

    for user in users[1:4]:
        matches.ready_for_next_deal(table.pk, user)
    page = by_id(render_frame(table, users[0]))
    assert "Deal 1 is over" not in page["my-area"]
    assert page["my-area"].count("playing-card") == 5
    assert "new-row" not in page["board-sheet"]
