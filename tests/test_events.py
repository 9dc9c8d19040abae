"""Duplicate events: registration, the same deals at every table of a round, nothing of a
round shown before every table finished it, standings by matchpoints, the published log."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from io import StringIO

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import verify
from games.engines import belote, duplicate
from games.events import results, running
from games.events.running import EventError
from games.live import moves, notify, presence
from games.live.frames import render_notice
from games.models import (
    Club,
    Event,
    EventPair,
    EventTable,
    Match,
    MatchPlayer,
    Move,
    RatingChange,
    Table,
)
from games.people import access, clubs, friends, limits
from games.tables import matches, play
from games.tables.lobby import my_tables
from games.tables.rows import TableError

from .factories import make_players
from .live import connect, live_test, receive_until

pytestmark = pytest.mark.django_db


def club_with(players) -> Club:
    club = clubs.create_club(players[0], "Thursday Duplicate", "", ["belote"], Club.Access.OPEN)
    for player in players[1:]:
        clubs.join(club, player)
    return club


def new_event(club, admin, rounds=2, deals=2, starts_at=None) -> Event:
    return running.create_event(club, admin, "Winter cup", rounds, deals, 0, starts_at)


def pair_up(event: Event, player, partner, contribution: str = ""):
    """``player`` asks ``partner``, who accepts: the pair is registered."""
    pair = running.register(event, player, partner.username, contribution)
    running.answer_request(pair.pk, partner, True)
    pair.refresh_from_db()
    return pair


def registered_event(rounds=2, deals=2):
    """Two pairs of two registered in a club; the players and the event, not started."""
    players = make_players(5)
    club = club_with(players)
    event = new_event(club, players[0], rounds, deals)
    pair_up(event, players[0], players[1], "a" * 64)
    pair_up(event, players[2], players[3])
    return players, event


def started_event(rounds=2, deals=2):
    """A registered event its admin started; the players and the event."""
    players, event = registered_event(rounds, deals)
    running.start(event, players[0])
    event.refresh_from_db()
    return players, event


def make_due(event: Event) -> None:
    """Move the event's start to a moment ago."""
    Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(seconds=1))


def round_tables(event: Event, number: int) -> list[EventTable]:
    return list(EventTable.objects.filter(event=event, round=number).order_by("number"))


def play_out(table_id: int) -> Match:
    """Play a table's match to its end, every seat with its last legal action."""
    match = Match.objects.get(table_id=table_id)
    state = belote.loads(match.state)
    while state.to_act is not None:
        seat = state.to_act
        action = belote.legal_actions(state, seat)[-1]
        match = play.apply_action(table_id, None, action, match.version, seat=seat).match
        if match.paused_until is not None:  # the deal's result shows: everyone has seen it
            Match.objects.filter(pk=match.pk).update(paused_until=None)
            match.paused_until = None
        state = belote.loads(match.state)
    return match


def finish_round(event: Event, number: int) -> running.Started | None:
    started = None
    for place in round_tables(event, number):
        if Match.objects.get(table_id=place.table_id).status == Match.Status.RUNNING:
            play_out(place.table_id)
        started = running.table_finished(place.table_id) or started
    return started


def hands_played(match: Match) -> list[list[list[str]]]:
    """Per deal of a finished match, the cards each seat played (sorted)."""
    out = []
    for deal in belote.deal_results(belote.loads(match.state)):
        held: list[list[str]] = [[], [], [], []]
        for trick in deal["tricks"]:
            for seat, card in trick:
                held[seat].append(card)
        out.append([sorted(cards) for cards in held])
    return out


def test_every_table_of_a_round_plays_the_same_deals_and_rounds_differ():
    players, event = registered_event()
    started = running.start(event, players[0])
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING and started.round == 1
    # Two pairs meet at one table; two computer pairs play the same deals at the other.
    for number in (1, 2):
        tables = round_tables(event, number)
        assert len(tables) == 2
        matches = [Match.objects.get(table_id=place.table_id) for place in tables]
        assert {m.seed for m in matches} == {duplicate.round_seed(event.seed, number)}
        deals = duplicate.event_deals(event.seed, number, 2)
        for match in matches:
            # The first deal as the engine dealt it: its dealer and first five cards each.
            state = belote.loads(match.state)
            assert state.dealer == deals[0]["dealer"]
            for seat in range(4):
                dealt = duplicate.hands(deals[0])[seat]
                assert set(belote.view(state, seat)["hand"]) <= set(dealt)
        finish_round(event, number)
        for match in matches:
            match.refresh_from_db()
            played = hands_played(match)
            for index, deal in enumerate(deals):
                if played[index] != [[], [], [], []]:  # a thrown-in deal has no tricks
                    assert played[index] == duplicate.hands(deal)
    assert duplicate.event_deals(event.seed, 1, 2) != duplicate.event_deals(event.seed, 2, 2)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


def test_two_pairs_meet_every_round_while_computer_pairs_play_the_deals_beside_them():
    players, event = registered_event(rounds=3)
    pairs = list(event.pairs.order_by("created_at"))
    running.start(event, players[0])
    for number in (1, 2, 3):
        if number > 1:
            finish_round(event, number - 1)
        meeting, beside = round_tables(event, number)
        assert {meeting.team_0, meeting.team_1} == set(pairs)  # the people meet each round
        seats = {seat.index: seat for seat in meeting.table.seats.all()}
        for side, pair in ((0, meeting.team_0), (1, meeting.team_1)):
            assert {seats[side].user, seats[side + 2].user} == {pair.player, pair.partner}
        assert not any(seat.bot_level for seat in seats.values())
        assert beside.team_0 is None and beside.team_1 is None
        assert {beside.computers_0, beside.computers_1} == {1, 2}
        assert all(s.bot_level and s.user is None for s in beside.table.seats.all())
        for place in (meeting, beside):
            assert place.table.club_id == event.club_id and place.table.is_private
    # Each pair sits in both directions in turn.
    directions = [round_tables(event, n)[0].team_0 for n in (1, 2, 3)]
    assert directions == [pairs[0], pairs[1], pairs[0]]


def test_a_pair_with_a_computer_partner_sits_beside_it_and_computers_fill_an_odd_table():
    players = make_players(5)
    club = club_with(players)
    event = new_event(club, players[0], rounds=1)
    pair_up(event, players[0], players[1])
    pair_up(event, players[2], players[3])
    running.register(event, players[4], "", "")
    running.start(event, players[0])
    tables = round_tables(event, 1)
    assert len(tables) == 2
    against = next(t for t in tables if t.team_0 is None or t.team_1 is None)
    assert [against.computers_0, against.computers_1].count(1) == 1  # one computer pair
    side = 1 if against.team_0 else 0
    seats = {seat.index: seat for seat in against.table.seats.all()}
    assert seats[side].bot_level and seats[side + 2].bot_level
    lonely = next(
        t
        for t in tables
        if t.team_0 == event.pairs.get(partner=None) or t.team_1 == event.pairs.get(partner=None)
    )
    side = 0 if lonely.team_0 and lonely.team_0.partner is None else 1
    seats = {seat.index: seat for seat in lonely.table.seats.all()}
    assert seats[side].user == players[4] and seats[side + 2].user is None
    assert seats[side + 2].bot_level


def test_registration_refusals_change_nothing():
    players = make_players(6)
    club = club_with(players[:5])
    event = new_event(club, players[0])
    with pytest.raises(EventError, match="Only the club's members"):
        running.register(event, players[5], "", "")
    with pytest.raises(EventError, match="not a member"):
        running.register(event, players[1], players[5].username, "")
    with pytest.raises(EventError, match="someone else"):
        running.register(event, players[1], players[1].username, "")
    with pytest.raises(EventError, match="64 hexadecimal"):
        running.register(event, players[1], "", "not hex")
    pair_up(event, players[1], players[2])
    with pytest.raises(EventError, match="registered already"):
        running.register(event, players[3], players[2].username, "")
    with pytest.raises(EventError, match="at least two registered pairs"):
        running.start(event, players[0])
    running.register(event, players[3], "", "")  # with a computer partner
    with pytest.raises(EventError, match="Only the club's admins"):
        running.start(event, players[1])
    assert event.pairs.count() == 2 and Event.objects.get(pk=event.pk).status == "registration"
    running.start(event, players[0])
    with pytest.raises(EventError, match="closed"):
        running.register(event, players[4], "", "")
    with pytest.raises(EventError, match="pairs stay"):
        running.withdraw(event, players[1])


def test_an_over_long_contribution_from_the_event_page_is_refused_not_cut(client):
    players = make_players(2)
    event = new_event(club_with(players), players[0])
    client.force_login(players[1])
    answer = client.post(
        reverse("register_for_event", args=[event.pk]),
        {"partner": "", "contribution": "a1" * 32 + "0"},  # valid in its first 64
        follow=True,
    )
    assert "64 hexadecimal digits" in answer.content.decode()
    assert not event.pairs.exists()


def test_only_admins_schedule_events_and_a_past_start_is_refused():
    players = make_players(2)
    club = club_with(players)
    with pytest.raises(EventError, match="Only the club's admins"):
        new_event(club, players[1])
    with pytest.raises(EventError, match="has passed"):
        new_event(club, players[0], starts_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(EventError, match="rounds of"):
        new_event(club, players[0], rounds=0)


def test_a_scheduled_event_starts_at_its_time_or_is_cancelled_without_pairs(client):
    players, event = registered_event()
    make_due(event)
    client.force_login(players[4])
    assert client.get(reverse("event", args=[event.pk])).status_code == 200
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    lonely = new_event(event.club, players[0])
    make_due(lonely)
    assert running.start_if_due(Event.objects.get(pk=lonely.pk)) is None
    assert Event.objects.get(pk=lonely.pk).status == Event.Status.CANCELLED


def test_nothing_of_a_round_shows_before_every_table_finished_it(client):
    players, event = started_event(rounds=1)
    first, second = round_tables(event, 1)
    done = play_out(first.table_id)
    assert running.table_finished(first.table_id) is None  # the other table still plays
    ana = next(p for p in players if first.table.seats.filter(user=p).exists())
    client.force_login(ana)
    # The record, its replay, its log and its deal reviews are not there yet, for anyone.
    for name, args in [
        ("match", [done.pk]),
        ("replay", [done.pk]),
        ("match_log", [done.pk]),
        ("deal_review", [done.pk, 1]),
    ]:
        assert client.get(reverse(name, args=args)).status_code == 404, name
    staff = players[4]
    staff.is_staff = True
    staff.save()
    client.force_login(staff)
    assert client.get(reverse("match", args=[done.pk])).status_code == 404
    client.force_login(ana)
    assert client.get(reverse("event_log", args=[event.pk])).status_code == 404
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    card_names = [deal["cards"][0] for deal in duplicate.event_deals(event.seed, 1, 2)]
    assert "Results by deal" not in page and "The standings show once" in page
    assert event.seed not in page and event.secret not in page
    assert not any(f'data-card="{code}"' in page for code in card_names)
    profile = client.get(reverse("profile", args=[ana.username])).content.decode()
    assert reverse("match", args=[done.pk]) not in profile
    # The last table finishes: everything shows.
    play_out(second.table_id)
    assert running.table_finished(second.table_id).finished
    assert client.get(reverse("match", args=[done.pk])).status_code == 200
    assert client.get(reverse("event_log", args=[event.pk])).status_code == 200


def test_after_the_event_its_deal_reviews_show_to_whoever_may_see_it(client):
    players, event = started_event(rounds=1, deals=2)
    tables = {place.table_id for place in round_tables(event, 1)}
    assert finish_round(event, 1).finished
    # The reviews the results page links: every played deal of every table.
    links = [
        (table.match, reverse("deal_review", args=[table.match.pk, table.number]))
        for deal in results.revealed_deals(event)
        for table in deal.tables
        if table.result["contract"]
    ]
    assert {match.table_id for match, _url in links} == tables
    member = players[4]  # in the club, at no table of the event
    other = players[0]  # at one table of it, not at the other
    for viewer in (member, other):
        client.force_login(viewer)
        for match, url in links:
            assert client.get(url).status_code == 200, (viewer, url)
            assert client.get(reverse("match", args=[match.pk])).status_code == 200


@live_test
async def test_the_last_move_of_a_round_through_the_door_starts_the_next_round():
    players, event = await sync_to_async(registered_event)(rounds=2, deals=1)
    await sync_to_async(running.start)(event, players[0])
    first, second = await sync_to_async(round_tables)(event, 1)
    await sync_to_async(play_out)(first.table_id)
    seat, action, version = await sync_to_async(last_move_but_one_played)(second.table_id)
    layer = get_channel_layer()
    heard = await layer.new_channel()
    await layer.group_add(notify.notices_group(players[0].pk), heard)
    await moves.move(second.table_id, None, action, version, seat=seat)
    await sync_to_async(event.refresh_from_db)()
    assert event.current_round == 2
    told = await asyncio.wait_for(layer.receive(heard), timeout=15)
    mine = await sync_to_async(running.my_table)(event, players[0])
    assert (told["kind"], told["pk"], told["table"]) == ("event_round", event.pk, mine.code)
    notice = await sync_to_async(render_notice)(players[0], told["kind"], told["pk"], told["table"])
    assert mine.get_absolute_url() in notice


def last_move_but_one_played(table_id: int) -> tuple[int, str, int]:
    """Play the table's match up to its last move; that move's seat, action and version."""
    match = Match.objects.get(table_id=table_id)
    state = belote.loads(match.state)
    while True:
        seat = state.to_act
        action = belote.legal_actions(state, seat)[-1]
        after = belote.apply(state, seat, action)
        if after.to_act is None:
            return seat, action, match.version
        match = play.apply_action(table_id, None, action, match.version, seat=seat).match
        if match.paused_until is not None:
            Match.objects.filter(pk=match.pk).update(paused_until=None)
        state = belote.loads(match.state)


def test_standings_give_matchpoints_by_the_rule():
    players, event = registered_event()
    running.start(event, players[0])
    finish_round(event, 1)
    deals = results.revealed_deals(event)
    assert [(d.round, d.number) for d in deals] == [(1, 1), (1, 2)]
    for deal in deals:
        scores = {t.table.pk: t.score for t in deal.tables}
        assert {t.table.pk: t.matchpoints for t in deal.tables} == duplicate.deal_matchpoints(
            scores
        )
    lines = results.standings(event)
    assert {line.pair for line in lines} == {*event.pairs.all(), None}
    for line in lines:
        mine = [
            points
            for deal in deals
            for t in deal.tables
            for pair, computers, points in (
                (t.table.team_0, t.table.computers_0, t.matchpoints[0]),
                (t.table.team_1, t.table.computers_1, t.matchpoints[1]),
            )
            if (pair, computers) == (line.pair, line.computers)
        ]
        assert line.matchpoints == sum(mine) and line.top == len(mine)


def test_the_standings_show_the_computer_pairs_and_their_matchpoints(client):
    players, event = started_event()
    finish_round(event, 1)
    lines = results.standings(event)
    computers = [line for line in lines if line.is_computers]
    assert [(line.name, line.computers) for line in sorted(computers, key=lambda x: x.name)] == [
        ("Computer pair 1", 1),
        ("Computer pair 2", 2),
    ]
    # Every matchpoint of the round is someone's: the computers' show beside the people's.
    deals = results.revealed_deals(event)
    given = sum(sum(t.matchpoints) for deal in deals for t in deal.tables)
    assert sum(line.matchpoints for line in lines) == given == 2 * len(deals)
    client.force_login(players[4])
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    standings = page[page.index('<table class="standings">') :]
    for line in computers:
        row = standings[
            standings.index(line.name) : standings.index("</tr>", standings.index(line.name))
        ]
        assert 'class="computer-mark"' in row
    assert "they take matchpoints like any pair" in page
    human = standings[standings.index("player0 &amp; player1") :]
    assert 'class="computer-mark"' not in human[: human.index("</th>")]


def test_pairs_on_the_same_matchpoints_share_their_places(client):
    players, event = started_event()
    finish_round(event, 1)
    meeting, beside = round_tables(event, 1)
    # Kept matchpoints of the round: 2 and 0 at one table, 1 and 1 at the other.
    EventTable.objects.filter(pk=meeting.pk).update(points={"matchpoints": [2.0, 0.0], "top": 2})
    EventTable.objects.filter(pk=beside.pk).update(points={"matchpoints": [1.0, 1.0], "top": 2})
    lines = results.standings(event)
    assert [(line.place, line.last_place, line.matchpoints) for line in lines] == [
        (1, 1, 2.0),
        (2, 3, 1.0),
        (2, 3, 1.0),
        (4, 4, 0.0),
    ]
    assert [line.shared for line in lines] == [False, True, True, False]
    client.force_login(players[4])
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    assert page.count('<span aria-hidden="true">2–3</span>') == 2
    assert page.count("places 2 to 3, shared") == 2


def test_event_tables_ask_before_announcing_unless_the_event_chose_otherwise(client):
    players, event = registered_event(rounds=1)
    assert event.ask_to_announce  # on by default
    running.start(event, players[0])
    for place in round_tables(event, 1):
        assert place.table.options["ask_to_announce"] is True
        state = belote.loads(Match.objects.get(table_id=place.table_id).state)
        assert state.cfg.ask
    club = event.club
    client.force_login(players[0])
    form = client.get(club.get_absolute_url()).content.decode()
    box = form[form.index('<input type="checkbox" name="ask_to_announce"') :]
    assert box[: box.index(">")].endswith(" checked")  # ticked when the form opens
    fields = {"name": "Quick cup", "rounds": 1, "deals_per_round": 1, "turn_seconds": 0}
    client.post(reverse("new_event", args=[club.pk]), fields)
    quick = Event.objects.get(name="Quick cup")
    assert not quick.ask_to_announce  # the box left unticked
    client.post(
        reverse("new_event", args=[club.pk]),
        fields | {"name": "Asking cup", "ask_to_announce": "on"},
    )
    assert Event.objects.get(name="Asking cup").ask_to_announce
    pair_up(quick, players[0], players[1])
    pair_up(quick, players[2], players[3])
    running.start(quick, players[0])
    for place in round_tables(quick, 1):
        assert place.table.options["ask_to_announce"] is False
        assert not belote.loads(Match.objects.get(table_id=place.table_id).state).cfg.ask
    page = client.get(reverse("event", args=[quick.pk])).content.decode()
    assert "everything is announced" in page


def test_the_published_log_checks_and_a_changed_deal_does_not():
    players, event = registered_event()
    running.start(event, players[0])
    finish_round(event, 1)
    started = finish_round(event, 2)
    assert started is not None and started.finished
    event.refresh_from_db()
    log = results.event_log(event)
    # Every table names its two sides: a registered pair's number, or a computer pair's.
    for place in round_tables(event, 1):
        logged = log["rounds"][0]["tables"][place.number]
        for side in (0, 1):
            pair = getattr(place, f"team_{side}")
            if pair is not None:
                assert logged[f"team_{side}"] == pair.number
                assert logged[f"computers_{side}"] is None
            else:
                assert logged[f"team_{side}"] is None
                assert logged[f"computers_{side}"] == getattr(place, f"computers_{side}")
                assert logged[f"computers_{side}"] is not None
    findings = verify.verify(log)
    assert findings and all(f.ok for f in findings), [f.text for f in findings if not f.ok]
    assert sum("got the round's 2 deals" in f.text for f in findings) == 4
    log["rounds"][1]["tables"][0]["deals"][0]["cards"][0:2] = log["rounds"][1]["tables"][0][
        "deals"
    ][0]["cards"][1::-1]
    log["rounds"][0]["tables"][1]["seed"] = "0" * 64
    wrong = [f.text for f in verify.verify(log) if not f.ok]
    assert any("Round 2, table 1: its deals are not the round's" in t for t in wrong)
    assert any("Round 1, table 2: its seed is not the round's" in t for t in wrong)


def test_event_matches_are_unrated_and_their_tables_take_no_rematch():
    players = make_players(5)
    club = club_with(players)
    event = new_event(club, players[0], rounds=1, deals=1)
    pair_up(event, players[0], players[1])
    pair_up(event, players[2], players[3])
    running.start(event, players[0])
    finish_round(event, 1)
    assert not RatingChange.objects.exists()
    table = round_tables(event, 1)[0].table
    with pytest.raises(TableError, match="one match"):
        matches.vote_rematch(
            table.pk, players[0] if table.seats.filter(user=players[0]).exists() else players[2]
        )
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def test_the_event_matches_end_after_their_deals():
    state = belote.new_game("seed", deals=2)
    while state.to_act is not None:
        state = belote.apply(state, state.to_act, belote.legal_actions(state, state.to_act)[-1])
    assert len(belote.deal_results(state)) == 2
    assert belote.loads(belote.dumps(state)).cfg.deals == 2


def test_an_event_table_shows_only_to_its_players_until_its_round_is_over(client):
    players, event = registered_event(rounds=1)
    running.start(event, players[0])
    first, _second = round_tables(event, 1)
    outsider = players[4]  # a member of the club, not playing
    client.force_login(outsider)
    url = first.table.get_absolute_url()
    assert client.get(url).status_code == 404
    assert presence.join(first.table.code, outsider, "test-channel") is None
    seated = first.table.seats.exclude(user=None).first().user
    assert access.may_open(first.table_id, seated)
    finish_round(event, 1)
    assert client.get(url).status_code == 200
    assert presence.join(first.table.code, outsider, "test-channel") == first.table_id


def test_the_live_part_of_the_event_page_comes_again_only_when_it_changed(client):
    players, event = registered_event()
    running.start(event, players[0])
    client.force_login(players[0])
    url = reverse("event_progress", args=[event.pk])
    first = client.get(url, {"status": "running", "seen": ""})
    assert first.status_code == 200 and "Round 1 of 2" in first.content.decode()
    seen = first.context["seen"]
    assert client.get(url, {"status": "running", "seen": seen}).status_code == 204
    finish_round(event, 1)
    again = client.get(url, {"status": "running", "seen": seen})
    assert again.status_code == 200 and "After 1 round." in again.content.decode()
    finish_round(event, 2)
    over = client.get(url, {"status": "running", "seen": seen})
    assert over.status_code == 204 and over["HX-Refresh"] == "true"


def test_the_start_command_starts_the_events_whose_time_came():
    players, event = registered_event()
    later = new_event(event.club, players[0], starts_at=timezone.now() + timedelta(hours=1))
    make_due(event)
    out = StringIO()
    call_command("start_due_events", stdout=out)
    assert f"started {event.name}" in out.getvalue()
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    assert Event.objects.get(pk=later.pk).status == Event.Status.REGISTRATION


def test_the_admin_shows_no_secret_of_a_running_event_nor_an_unrevealed_table(client):
    players, event = started_event(rounds=1)
    first, _second = round_tables(event, 1)
    done = play_out(first.table_id)
    staff = players[4]
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    page = client.get(reverse("admin:games_event_change", args=[event.pk])).content.decode()
    assert event.name in page and event.secret not in page and event.seed not in page
    record = client.get(reverse("admin:games_match_change", args=[done.pk])).content.decode()
    assert done.seed not in record and "engine state" not in record.lower()
    finish_round(event, 1)
    page = client.get(reverse("admin:games_event_change", args=[event.pk])).content.decode()
    assert event.secret in page
    record = client.get(reverse("admin:games_match_change", args=[done.pk])).content.decode()
    assert done.seed in record


def test_a_start_time_is_taken_in_the_admins_time_zone(client):
    players = make_players(2)
    club = club_with(players)
    client.force_login(players[0])
    when = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    local = when + timedelta(hours=2)  # Sofia in winter: UTC+2, the browser's offset -120
    client.post(
        reverse("new_event", args=[club.pk]),
        {
            "name": "Friday cup",
            "rounds": 2,
            "deals_per_round": 2,
            "turn_seconds": 30,
            "starts_at": local.strftime("%Y-%m-%dT%H:%M"),
            "utc_offset": -120,
        },
    )
    assert Event.objects.get().starts_at == when


def computer_partnered_event(rounds=1, deals=1, pairs=2):
    """``pairs`` players registered each with a computer partner, the event started by its
    admin (who plays too); the players and the event."""
    players = make_players(pairs + 1)
    event = new_event(club_with(players), players[0], rounds, deals)
    for player in players[:pairs]:
        running.register(event, player, "", "")
    running.start(event, players[0])
    event.refresh_from_db()
    return players, event


def test_the_event_tables_in_my_tables_are_those_where_i_sit(client):
    players, event = computer_partnered_event()
    creator = players[0]  # who created the event, and plays in it
    mine = running.my_table(event, creator)
    assert [table.pk for table in my_tables(creator)] == [mine.pk]
    assert limits.tables_in_play(creator) == 1
    client.force_login(creator)
    page = client.get(reverse("home")).content.decode()
    others = [p.table for p in round_tables(event, 1) if p.table_id != mine.pk]
    assert mine.get_absolute_url() in page
    assert others and not any(table.get_absolute_url() in page for table in others)


def test_the_admin_shows_an_early_finished_tables_result_only_once_its_round_is_over(client):
    players, event = computer_partnered_event()
    first, second = round_tables(event, 1)
    done = play_out(first.table_id)
    assert done.result
    staff = players[2]
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    url = reverse("admin:games_match_change", args=[done.pk])
    record = client.get(url).content.decode()
    assert "field-result" not in record and reverse("replay", args=[done.pk]) not in record
    changelist = reverse("admin:games_match_changelist")
    probe = client.get(changelist, {"result__isnull": "False"})
    assert probe.status_code != 200 or str(done.table) not in probe.content.decode()
    play_out(second.table_id)
    running.table_finished(second.table_id)
    record = client.get(url).content.decode()
    assert "field-result" in record and reverse("replay", args=[done.pk]) in record


def match_finished(table_id: int) -> bool:
    return Match.objects.filter(table_id=table_id, status=Match.Status.FINISHED).exists()


@live_test
async def test_a_pair_that_never_opens_its_table_is_covered_and_its_table_finishes(settings):
    """A "No timer" round: one player opens their table, the other never opens theirs. Their
    seat counts as away from the round's start, so a computer covers it after the grace, and
    the first player's connection wakes that table, which nobody has open."""
    settings.AWAY_GRACE_SECONDS = 0
    # Three pairs: two meet, the third plays a computer pair at a table of its own.
    players, event = await sync_to_async(computer_partnered_event)(pairs=3)
    tables = [await sync_to_async(running.my_table)(event, player) for player in players[:3]]
    here = tables[0]
    gone, absentee = next(
        (t, p) for t, p in zip(tables, players[:3], strict=True) if t.pk != here.pk
    )
    layer = get_channel_layer()
    heard = await layer.new_channel()
    await layer.group_add(notify.table_group(gone.pk), heard)
    socket = await connect(players[0], f"/ws/table/{here.code}/")
    async with asyncio.timeout(60):
        while not await sync_to_async(match_finished)(gone.pk):
            await layer.receive(heard)  # a move at that table: look again
    absent = await sync_to_async(MatchPlayer.objects.get)(match__table=gone, user=absentee)
    assert absent.covered
    assert not await sync_to_async(Move.objects.filter(match__table=gone, user=absentee).exists)()
    await socket.disconnect()


def test_a_partner_is_asked_and_the_pair_registers_only_once_they_accept(client):
    players = make_players(6)
    ana, bob, cid, dan, eve, fay = players
    event = new_event(club_with(players), ana)
    asked = running.register(event, ana, bob.username, "")
    # Waiting for Bob: Ana's pair is not registered, Bob is not taken.
    assert asked.waiting and running.pair_of(event, bob) is None
    assert running.requests_for(bob, event) == [asked]
    notice = render_notice(bob, "event_partner", asked.pk)
    assert "player0 asks you to be their partner in Winter cup." in notice
    client.force_login(bob)
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "player0 asks you to be their partner." in page
    pairs = page.split('id="pairs-title"')[1].split("</ol>")[0]
    assert "player0 &amp; player1" not in pairs
    listed = client.get(reverse("notifications")).content.decode()
    assert "player0 asks you to be their partner in Winter cup." in listed
    pair_up(event, cid, dan)
    with pytest.raises(EventError, match="at least two registered pairs"):
        running.start(event, ana)  # Bob has not answered
    # Eve asks Bob too; Bob accepts Ana: Ana is told, Eve's request lapses and she is told.
    second = running.register(event, eve, bob.username, "")
    answer = client.post(
        reverse("answer_partner_request", args=[asked.pk, "accept"]),
        {"next": reverse("event", args=[event.pk])},
        follow=True,
    ).content.decode()
    assert "You and player0 are registered for Winter cup." in answer
    assert running.pair_of(event, bob) == asked and running.pair_of(event, eve) is None
    assert not EventPair.objects.filter(pk=second.pk).exists()
    assert "player1 accepted: you are registered for Winter cup." in render_notice(
        ana, "event_partner_accepted", asked.pk
    )
    assert "you are not registered for Winter cup" in render_notice(
        eve, "event_partner_declined", event.pk
    )
    # Fay asks Eve, who declines: nothing is registered.
    third = running.register(event, fay, eve.username, "")
    said = running.answer_request(third.pk, eve, False)
    assert said.notices[0].user_id == fay.pk
    assert running.pair_of(event, fay) is None and running.pair_of(event, eve) is None
    with pytest.raises(EventError, match="no longer waiting"):
        running.answer_request(third.pk, eve, True)
    # A request left unanswered at the start lapses: its pair does not play.
    running.register(event, fay, eve.username, "")
    running.start(event, ana)
    assert {(p.player, p.partner) for p in event.pairs.all()} == {(ana, bob), (cid, dan)}


def test_a_block_refuses_a_partner_request_and_ends_one_waiting(client):
    players = make_players(4)
    ana, bob, cid, dan = players
    event = new_event(club_with(players), ana)
    friends.block(bob, ana.username)
    with pytest.raises(EventError, match="player1 does not take partner requests from you"):
        running.register(event, ana, bob.username, "")
    with pytest.raises(EventError, match="You block player0"):
        running.register(event, bob, ana.username, "")
    assert not event.pairs.exists()
    assert "player1" not in running.free_members(event, ana, 10)
    client.force_login(ana)
    page = client.post(
        reverse("register_for_event", args=[event.pk]), {"partner": bob.username}, follow=True
    ).content.decode()
    assert "player1 does not take partner requests from you." in page
    # A request waiting when one of them blocks the other ends.
    asked = running.register(event, cid, dan.username, "")
    friends.block(dan, cid.username)
    assert not EventPair.objects.filter(pk=asked.pk).exists()
    assert running.requests_for(dan, event) == []


@live_test
async def test_the_partner_asked_hears_it_on_their_open_pages_and_the_player_their_answer():
    players = await sync_to_async(make_players)(2)
    ana, bob = players
    event = await sync_to_async(new_event)(await sync_to_async(club_with)(players), ana)
    ana_page = await connect(ana, "/ws/notices/")
    bob_page = await connect(bob, "/ws/notices/")
    client = Client()
    await sync_to_async(client.force_login)(ana)
    await sync_to_async(client.post)(
        reverse("register_for_event", args=[event.pk]), {"partner": bob.username}
    )
    notice = await receive_until(bob_page, "asks you to be their partner")
    pair = await sync_to_async(EventPair.objects.get)(event=event)
    assert reverse("answer_partner_request", args=[pair.pk, "accept"]) in notice
    await sync_to_async(client.force_login)(bob)
    answer = await sync_to_async(client.post)(
        reverse("answer_partner_request", args=[pair.pk, "accept"]), HTTP_HX_REQUEST="true"
    )
    assert "You and player0 are registered" in answer.content.decode()
    await receive_until(ana_page, "player1 accepted: you are registered for Winter cup.")
    await ana_page.disconnect()
    await bob_page.disconnect()
