"""The daily Belote: one set of deals a day, played once by each player with computers,
matchpoints against every other player's result on each deal, nothing of the deals shown
before the player finished their set, everything once the day closed."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from io import StringIO
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games import verify
from games.engines import belote, duplicate, fair_deals
from games.events import daily
from games.events.daily import DailyError
from games.live import presence
from games.models import Daily, DailyEntry, DailyTally, Match, MatchPlayer, Table
from games.people import access
from games.tables import extensions, matches, play
from games.tables.rows import TableError

from .factories import make_players

pytestmark = pytest.mark.django_db


def play_deals(
    table_id: int, choose=lambda actions: actions[-1], deals: int | None = None
) -> Match:
    """Play the table's match, every seat choosing with ``choose``; stop after ``deals``
    finished deals (None: to the end)."""
    match = Match.objects.get(table_id=table_id)
    state = belote.loads(match.state)
    while state.to_act is not None:
        if deals is not None and len(belote.deal_results(state)) >= deals:
            break
        seat = state.to_act
        action = choose(belote.legal_actions(state, seat))
        match = play.apply_action(table_id, None, action, match.version, seat=seat).match
        if match.paused_until is not None:
            Match.objects.filter(pk=match.pk).update(paused_until=None)
            match.paused_until = None
        state = belote.loads(match.state)
    return match


def finish(entry: DailyEntry, choose=lambda actions: actions[-1]) -> DailyEntry:
    """Play the player's whole set and have its end heard, as the live door does."""
    play_deals(entry.table_id, choose)
    extensions.match_ended(entry.table_id)
    entry.refresh_from_db()
    return entry


def past(daily_row: Daily) -> Daily:
    """Move the day's close to a moment ago."""
    Daily.objects.filter(pk=daily_row.pk).update(closes_at=timezone.now() - timedelta(seconds=1))
    daily_row.refresh_from_db()
    return daily_row


# -- The day ---------------------------------------------------------------------------------


def test_the_day_turns_at_midnight_in_the_daily_time_zone():
    # 22:30 UTC on 6 December is 00:30 on 7 December in Sofia (UTC+2 in winter).
    assert daily.day_of(datetime(2026, 12, 6, 22, 30, tzinfo=UTC)) == date(2026, 12, 7)
    assert daily.day_of(datetime(2026, 12, 6, 21, 30, tzinfo=UTC)) == date(2026, 12, 6)
    opens, closes = daily.bounds(date(2026, 12, 7))
    assert opens == datetime(2026, 12, 6, 22, 0, tzinfo=UTC)
    assert closes == datetime(2026, 12, 7, 22, 0, tzinfo=UTC)
    with override_settings(DAILY_TIME_ZONE="UTC"):
        assert daily.day_of(datetime(2026, 12, 6, 22, 30, tzinfo=UTC)) == date(2026, 12, 6)


def test_a_day_has_one_set_however_often_it_is_asked_for(settings):
    first = daily.today()
    second = daily.today()
    assert first.pk == second.pk and Daily.objects.count() == 1
    assert first.deals == settings.DAILY_DEALS
    assert first.seed == fair_deals.derive_seed(first.secret, [])
    assert first.opens_at <= timezone.now() < first.closes_at


def test_a_second_process_making_the_same_day_gets_the_same_set():
    made = daily.today()
    # The other process looked before this one created it, then lost the race to insert.
    with mock.patch.object(Daily.objects, "filter") as looked:
        looked.return_value.first.return_value = None
        again = daily.daily_of(made.day)
    assert again.pk == made.pk and Daily.objects.count() == 1


def test_the_start_command_opens_today_and_closes_past_days():
    old = daily.daily_of(daily.day_of() - timedelta(days=1))
    players = make_players(1)
    Daily.objects.filter(pk=old.pk).update(closes_at=timezone.now() + timedelta(hours=1))
    old.refresh_from_db()
    entry = daily.start(old, players[0])
    past(old)
    out = StringIO()
    call_command("start_due_events", stdout=out)
    assert f"closed the daily Belote of {old.day}" in out.getvalue()
    assert Daily.objects.filter(day=daily.day_of()).exists()
    assert Daily.objects.get(pk=old.pk).closed
    assert Table.objects.get(pk=entry.table_id).status == Table.Status.ABORTED


# -- Playing ---------------------------------------------------------------------------------


def test_a_player_sits_in_seat_one_with_computers_and_plays_the_days_deals():
    players = make_players(2)
    today = daily.today()
    entries = [daily.start(today, player) for player in players]
    for entry, player in zip(entries, players, strict=True):
        match = Match.objects.get(table_id=entry.table_id)
        assert match.seed == duplicate.round_seed(today.seed, 1)
        assert match.options["deals"] == today.deals
        seats = {p.seat: (p.user_id, p.bot_level) for p in MatchPlayer.objects.filter(match=match)}
        assert seats[0] == (player.pk, "")
        assert all(seats[s] == (None, "hard") for s in (1, 2, 3))
        assert Table.objects.get(pk=entry.table_id).turn_seconds == 0
    first, second = (belote.loads(Match.objects.get(table_id=e.table_id).state) for e in entries)
    assert belote.view(first, 0)["hand"] == belote.view(second, 0)["hand"]
    today.refresh_from_db()
    assert today.players == 2


def test_a_player_plays_the_day_once_and_comes_back_to_the_same_table():
    player = make_players(1)[0]
    today = daily.today()
    entry = daily.start(today, player)
    play_deals(entry.table_id, deals=1)
    again = daily.start(today, player)
    assert again.pk == entry.pk and again.table_id == entry.table_id
    assert DailyEntry.objects.count() == 1 and Table.objects.count() == 1
    finish(entry)
    assert daily.start(today, player).pk == entry.pk
    with pytest.raises(TableError):
        matches.vote_rematch(entry.table_id, player)


def test_a_closed_day_takes_no_new_player():
    player = make_players(1)[0]
    old = past(daily.daily_of(daily.day_of() - timedelta(days=1)))
    with pytest.raises(DailyError):
        daily.start(old, player)


def test_a_daily_seat_waits_for_its_player_however_long_they_are_away():
    player = make_players(1)[0]
    entry = daily.start(daily.today(), player)
    table = Table.objects.get(pk=entry.table_id)
    presence.join(table, player, "socket-1")
    presence.leave(table.pk, player.pk, "socket-1")
    assert MatchPlayer.objects.get(match__table=table, seat=0).away_since is None


# -- Scoring ---------------------------------------------------------------------------------


def test_each_deal_is_matchpointed_against_every_other_players_result(settings):
    players = make_players(4)
    today = daily.today()
    choices = [
        lambda actions: actions[-1],
        lambda actions: actions[0],
        lambda actions: actions[len(actions) // 2],
        lambda actions: actions[-1],
    ]
    entries = [finish(daily.start(today, p), c) for p, c in zip(players, choices, strict=True)]
    today.refresh_from_db()
    assert today.recorded == 4
    board = daily.standings(today)
    scores = {e.user_id: e.score_list for e in entries}
    assert all(len(s) == today.deals for s in scores.values())
    # The same worked out the long way: each deal, the pure rules' matchpoints.
    expected = {}
    for user_id in scores:
        total = 0.0
        for deal in range(today.deals):
            points = duplicate.matchpoints({u: s[deal] for u, s in scores.items()})
            total += points[user_id]
        expected[user_id] = round(100 * total / (today.deals * 3), 2)
    assert {line.user_id: line.percent for line in board.lines} == expected
    assert [line.percent for line in board.lines] == sorted(expected.values(), reverse=True)
    # Players 0 and 3 played alike: the same percentage, the same place.
    mine, same = board.line_of(players[0].pk), board.line_of(players[3].pk)
    assert mine.percent == same.percent and mine.rank == same.rank
    # The traveller: every result with how many had it, the same matchpoints.
    for number in range(1, today.deals + 1):
        lines = daily.traveller(today, number)
        assert sum(line.count for line in lines) == 4
        by_score = {line.score: line.matchpoints for line in lines}
        points = duplicate.matchpoints({u: s[number - 1] for u, s in scores.items()})
        for user_id, score in ((u, s[number - 1]) for u, s in scores.items()):
            assert by_score[score] == points[user_id]


def test_a_thrown_in_deal_scores_nothing_for_anyone():
    line = {"contract": None, "declarer": None, "multiplier": 1, "outcome": "redeal"}
    line["written"] = [0, 0]
    assert daily._tally_key(line, 1)["written_us"] == 0
    assert daily.key_of(line) == ("", -1, 1, "redeal", 0, 0)


def test_an_unfinished_set_counts_its_played_deals_when_the_day_closes(settings):
    settings.DAILY_DEALS = 3
    players = make_players(2)
    today = daily.today()
    done = finish(daily.start(today, players[0]))
    half = daily.start(today, players[1])
    play_deals(half.table_id, deals=1)
    daily.record(half.pk)  # still being played: nothing counts yet
    half.refresh_from_db()
    assert half.recorded_at is None
    stopped = daily.close(past(today))
    assert stopped == [half.table_id]
    half.refresh_from_db()
    assert half.recorded_at is not None and half.finished_at is None
    assert half.deals_played == 1 and len(half.score_list) == 1
    done.refresh_from_db()
    assert {done.rank, half.rank} == {1, 2} or done.rank == half.rank == 1
    assert done.percent is not None
    assert Table.objects.get(pk=half.table_id).status == Table.Status.ABORTED
    assert daily.close(today) == []  # once only


def test_finishing_counts_once_even_if_heard_twice():
    player = make_players(1)[0]
    today = daily.today()
    entry = finish(daily.start(today, player))
    assert daily.record(entry.pk) is False
    extensions.match_ended(entry.table_id)
    today.refresh_from_db()
    assert today.recorded == 1
    assert (
        sum(DailyTally.objects.filter(daily=today).values_list("count", flat=True)) == today.deals
    )


def test_a_finish_no_process_counted_is_counted_when_the_player_comes_back():
    player = make_players(1)[0]
    today = daily.today()
    entry = daily.start(today, player)
    play_deals(entry.table_id)  # the process stopped before hearing the end
    assert daily.catch_up(daily.entry_of(today, player)).recorded_at is not None


def test_a_streak_counts_days_played_in_a_row():
    player = make_players(1)[0]
    today = daily.day_of()
    for back in (0, 1, 2, 4):
        day = daily.daily_of(today - timedelta(days=back))
        DailyEntry.objects.create(daily=day, user=player)
    assert daily.dailies_of(player)[1] == 3
    DailyEntry.objects.filter(daily__day=today).delete()
    assert daily.dailies_of(player)[1] == 2  # today's may still be played: the streak holds
    DailyEntry.objects.filter(daily__day=today - timedelta(days=1)).delete()
    assert daily.dailies_of(player)[1] == 0


# -- Secrecy ---------------------------------------------------------------------------------


def test_nothing_of_the_deals_reaches_a_player_before_they_finished(client, django_user_model):
    players = make_players(3)
    staff = django_user_model.objects.create_user("staff", password="pw-123456789", is_staff=True)
    today = daily.today()
    done = finish(daily.start(today, players[0]))
    playing = daily.start(today, players[1])
    play_deals(playing.table_id, deals=1)
    done_match = Match.objects.get(table_id=done.table_id)
    playing_match = Match.objects.get(table_id=playing.table_id)
    day = today.day.isoformat()
    secret_pages = [
        reverse("match", args=[done_match.pk]),
        reverse("replay", args=[done_match.pk]),
        reverse("deal_review", args=[done_match.pk, 1]),
        reverse("match", args=[playing_match.pk]),
        reverse("daily_deal", args=[day, 1]),
        reverse("daily_log", args=[day]),
        reverse("table", args=[Table.objects.get(pk=done.table_id).code]),
    ]
    for viewer in (players[1], players[2], staff):
        client.force_login(viewer)
        for url in secret_pages:
            assert client.get(url).status_code == 404, (viewer, url)
        page = client.get(reverse("daily", args=[day]))
        assert page.status_code == 200
        assert page.context["deals"] == [] and not page.context["may_see"]
        assert f"/daily/{day}/deals/".encode() not in page.content
        assert not access.may_see_daily_deals(today, viewer)
    # The standings show the finished player's total, and no more.
    client.force_login(players[2])
    page = client.get(reverse("daily", args=[day]))
    assert [name for _, name, _ in page.context["rows"]] == [players[0].username]
    # The one who finished sees every deal, its traveller and others' finished records.
    client.force_login(players[0])
    page = client.get(reverse("daily", args=[day]))
    assert len(page.context["deals"]) == today.deals
    assert client.get(reverse("daily_deal", args=[day, 1])).status_code == 200
    assert client.get(reverse("match", args=[done_match.pk])).status_code == 200
    # Once the day closed, everything shows to everyone.
    daily.close(past(today))
    client.force_login(players[2])
    for url in secret_pages[:3] + secret_pages[4:6]:
        assert client.get(url).status_code == 200, url


def test_the_days_log_checks_with_the_verifier():
    players = make_players(2)
    today = daily.today()
    finish(daily.start(today, players[0]))
    half = daily.start(today, players[1])
    play_deals(half.table_id, deals=1)
    with pytest.raises(ValueError):
        daily.daily_log(today)
    daily.close(past(today))
    log = json.loads(json.dumps(daily.daily_log(Daily.objects.get(pk=today.pk))))
    assert log["commitment"] == today.commitment and log["secret"] == today.secret
    findings = verify.verify(log)
    assert findings and all(finding.ok for finding in findings), findings
    assert len(log["rounds"][0]["tables"]) == 2
    log["rounds"][0]["tables"][0]["actions"][3][1] = "XX"
    assert not all(finding.ok for finding in verify.verify(log))


# -- Pages -----------------------------------------------------------------------------------


def test_the_home_page_says_what_todays_daily_is_and_the_players_standing(client):
    players = make_players(2)
    visitor = client.get(reverse("home")).content.decode()
    assert "Daily Belote" in visitor and "0 players have played it so far." in visitor
    client.force_login(players[0])
    home = client.get(reverse("home")).content.decode()
    assert "Daily Belote" in home and reverse("daily", args=[daily.day_of().isoformat()]) in home
    finish(daily.start(daily.today(), players[0]))
    finish(daily.start(daily.today(), players[1]), lambda actions: actions[0])
    summary = client.get(reverse("home")).context["daily"]
    assert summary.line is not None and summary.line.rank in (1, 2) and summary.counted == 2
    assert "place" in client.get(reverse("home")).content.decode()


def test_the_standings_mark_friends_and_always_show_the_players_own_line(client, settings):
    from friendship.models import Friend

    players = make_players(4)
    today = daily.today()
    for index, player in enumerate(players):
        finish(daily.start(today, player), lambda a, i=index: a[i % len(a)])
    request = Friend.objects.add_friend(players[0], players[1])
    request.accept()
    with mock.patch.object(daily, "PER_PAGE", 1):
        client.force_login(players[0])
        page = client.get(reverse("daily", args=[today.day.isoformat()]), {"page": 4}).context
        shown = [line.user_id for line, _, _ in page["rows"]]
        assert len(shown) == 1
        assert page["mine"].user_id == players[0].pk
        assert page["mine_shown"] == (players[0].pk in shown)
        friends = client.get(reverse("daily", args=[today.day.isoformat()]), {"friends": "1"})
        assert friends.context["page"].paginator.count == 2
        everyone = [
            row
            for n in (1, 2, 3, 4)
            for row in client.get(
                reverse("daily", args=[today.day.isoformat()]), {"page": n}
            ).context["rows"]
        ]
        assert {line.user_id for line, _, friend in everyone if friend} == {players[1].pk}


def test_the_profile_keeps_the_players_dailies_and_streak(client):
    players = make_players(2)
    today = daily.today()
    finish(daily.start(today, players[0]))
    finish(daily.start(today, players[1]), lambda actions: actions[0])
    page = client.get(reverse("profile", args=[players[0].username]))
    (kept,) = page.context["dailies"]
    assert kept.rank in (1, 2) and kept.players == 2 and kept.percent is not None
    assert page.context["daily_streak"] == 1
    assert "Streak" in page.content.decode()


def test_the_traveller_marks_the_players_own_result(client):
    players = make_players(2)
    today = daily.today()
    finish(daily.start(today, players[0]))
    finish(daily.start(today, players[1]), lambda actions: actions[0])
    client.force_login(players[0])
    page = client.get(reverse("daily_deal", args=[today.day.isoformat(), 1]))
    lines = page.context["lines"]
    assert sum(line.count for line in lines) == 2
    assert sum(1 for line in lines if line.mine) == 1
    assert page.context["played"] is not None


# -- Cost ------------------------------------------------------------------------------------


def _crowd(today: Daily, count: int, like: DailyEntry) -> None:
    """``count`` players who finished before, with ``like``'s results and others."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"crowd-{today.pk}-{i}") for i in range(count)
    )
    DailyEntry.objects.bulk_create(
        DailyEntry(
            daily=today,
            user=user,
            recorded_at=timezone.now(),
            finished_at=timezone.now(),
            deals_played=today.deals,
            scores=like.scores,
        )
        for user in users
    )
    DailyTally.objects.filter(daily=today).update(count=count + 1)
    Daily.objects.filter(pk=today.pk).update(recorded=count + 1, players=count + 1)


@pytest.mark.contract
def test_finishing_costs_the_same_whoever_played_before():
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    User = get_user_model()
    counts = []
    for back, crowd in ((1, 10), (2, 10_000)):
        today = daily.daily_of(daily.day_of() - timedelta(days=back))
        Daily.objects.filter(pk=today.pk).update(closes_at=timezone.now() + timedelta(hours=1))
        today.refresh_from_db()
        like = finish(daily.start(today, User.objects.create_user(f"first-{back}")))
        _crowd(today, crowd, like)
        entry = daily.start(today, User.objects.create_user(f"last-{back}"))
        play_deals(entry.table_id)
        with CaptureQueriesContext(connection) as taken:
            extensions.match_ended(entry.table_id)
        counts.append(len(taken.captured_queries))
        entry.refresh_from_db()
        assert entry.recorded_at is not None
        assert DailyTally.objects.filter(daily=today, count=crowd + 2).count() == len(
            set(DailyTally.objects.filter(daily=today).values_list("deal", flat=True))
        )
    assert counts[0] == counts[1]
