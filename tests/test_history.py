"""Match history: outcomes and ratings when a match ends, profiles, match pages, replays and
leaderboards, checked against the move log and for query counts."""

from __future__ import annotations

import io
import random
import re
from collections import Counter

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games.catalog import get_game
from games.models import Match, MatchPlayer, Move, Outcome, Rating, RatingChange, Seat, Table
from games.records import history, ratings
from games.records.replay import final_state
from games.tables import matches, play, rows, seating

from .factories import OPTIONS, make_players

pytestmark = pytest.mark.django_db
BELOTE_FAST = {**OPTIONS, "target": 11}
GRABUSH_2 = {"players": 2, "stock_size": 20, "table_talk_penalty": True}


def new_table(users, game: str = "belote", options=None, bots: dict[int, str] | None = None):
    """A table with ``users`` seated in order (``None`` leaves a seat for a bot in ``bots``)."""
    options = options or (BELOTE_FAST if game == "belote" else GRABUSH_2)
    owner = next(user for user in users if user is not None)
    table = rows.create_table(owner, game, options, is_private=False)
    for index, user in enumerate(users):
        if user is not None:
            seating.take_seat(table.pk, user, index)
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
        ).match
        state = engine.loads(match.state)
    return match


def start_and_finish(users, game="belote", seed=1, bots=None, chat=0.0) -> Match:
    table = new_table(users, game, bots=bots)
    owner = next(user for user in users if user is not None)
    matches.start_match(table.pk, owner)
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


def test_only_seats_their_humans_played_are_rated():
    """Computers covered seats 1 and 3 for the whole match (their players left): the match is
    recorded, partners 0 and 2 are rated, and the absent players' ratings do not move."""
    users = make_players(4)
    table = new_table(users)
    matches.start_match(table.pk, users[0])
    absent = [None, None, None, None]
    for seat in (0, 2):
        absent[seat] = users[seat]
    match = play_out(table, absent, random.Random(3))
    assert match.status == Match.Status.FINISHED
    assert ratings.seats_played(match) == {0, 2}
    changed = set(RatingChange.objects.filter(match=match).values_list("user_id", flat=True))
    assert changed == {users[0].pk, users[2].pk}
    assert not Rating.objects.filter(user__in=[users[1], users[3]]).exists()
    assert set(match.players.values_list("outcome", flat=True)) <= {Outcome.WIN, Outcome.LOSS}


def test_a_match_the_computers_played_alone_is_not_rated():
    users = make_players(4)
    table = new_table(users)
    matches.start_match(table.pk, users[0])
    match = play_out(table, [None] * 4, random.Random(4))  # everyone left: covered throughout
    assert match.status == Match.Status.FINISHED
    assert not RatingChange.objects.filter(match=match).exists()
    assert not Rating.objects.exists()


def test_display_rating_formula():
    mu, sigma = ratings.new_rating_values()
    assert ratings.display_rating(mu, sigma) == 1500
    assert ratings.display_rating(30.0, 2.0) == 2460
    assert ratings.display_rating(25.0, 8.0) == 1540


def test_matches_with_computer_players_are_recorded_but_unrated():
    users = make_players(2)
    match = start_and_finish([users[0], None, users[1], None], bots={1: "easy", 3: "easy"})
    assert match.status == Match.Status.FINISHED
    assert set(match.players.values_list("outcome", flat=True)) == {Outcome.WIN, Outcome.LOSS}
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()
    stats = {row["game"]: row for row in history.game_stats(users[0])}
    assert stats["belote"]["played"] == 1
    assert stats["belote"]["rating"] is None


def test_a_grabush_draw_rates_both_sides_alike():
    users = make_players(2)
    match = start_and_finish(users, "grabush", seed=3)
    assert match.result["winner"] is None  # random play on this seed ends blocked
    assert set(match.players.values_list("outcome", flat=True)) == {Outcome.DRAW}
    deltas = {c.delta for c in RatingChange.objects.filter(match=match)}
    assert len(deltas) == 1


def replay_outcomes(match: Match) -> tuple[dict, dict[int, str]]:
    """The result the move log leads to, and each seat's outcome from it."""
    spec = get_game(match.game)
    state = final_state(match)
    assert state.to_act is None
    result = spec.result(state)
    seats = match.players.values_list("seat", flat=True)
    return result, {seat: ratings.outcome_for(result, seat) for seat in seats}


def test_everything_shown_agrees_with_the_move_log(client):
    """Play random matches, then check profiles, match pages, replays and ratings against
    what the seed and the move log give through the engine."""
    rng = random.Random(20241130)
    users = make_players(4)
    for i in range(4):  # Belote, the players rotating seats (and partners)
        order = users[i:] + users[:i]
        if i == 3:
            order = [order[0], order[2], order[1], order[3]]
        start_and_finish(order, "belote", seed=rng.randrange(10**6))
    for _ in range(3):  # Grabush heads-up, some chat granting table-talk penalties
        start_and_finish(rng.sample(users, 2), "grabush", seed=rng.randrange(10**6), chat=0.03)
    start_and_finish([users[0], None, users[1], None], bots={1: "easy", 3: "hard"}, seed=5)
    matches = list(Match.objects.order_by("pk"))
    assert len(matches) == 8
    assert Move.objects.filter(action__startswith="grant_penalty:").exists()

    expected: dict[int, Counter] = {user.pk: Counter() for user in users}
    model = ratings.MODEL
    mine = {}  # user -> game -> [mu, sigma], recomputed from the replays
    for match in rng.sample(matches, len(matches)):
        result, outcomes = replay_outcomes(match)
        assert result == match.result
        players = list(match.players.all())
        assert {p.seat: p.outcome for p in players} == outcomes
        for player in players:
            if player.user_id is not None:
                expected[player.user_id][(match.game, player.outcome)] += 1
        page = client.get(reverse("match", args=[match.pk]))
        assert page.status_code == 200
        scores = result.get("scores") or result.get("stocks")
        assert [side["score"] for side in page.context["sides"]] == scores
        if match.game == "belote":
            deals = get_game("belote").engine.deal_results(final_state(match))
            assert [row["deal"] for row in page.context["sheet"]] == deals
        replay = client.get(reverse("replay", args=[match.pk]), {"step": match.version})
        assert replay.context["matches_record"] is True
    for match in matches:  # ratings, recomputed in the order the matches finished
        if not ratings.is_rated(list(match.players.all())):
            continue
        result, _outcomes = replay_outcomes(match)
        sides = get_game(match.game).teams(match.options)
        users_by_seat = dict(match.players.values_list("seat", "user_id"))
        teams = [
            [
                model.rating(*mine.setdefault(users_by_seat[s], {}).get(match.game, (25, 25 / 3)))
                for s in side
            ]
            for side in sides
        ]
        winner = result["winner"]
        ranks = [1 if winner is None or side == winner else 2 for side in range(len(sides))]
        for side, new_team in zip(sides, model.rate(teams, ranks=ranks), strict=True):
            for seat, new in zip(side, new_team, strict=True):
                mine[users_by_seat[seat]][match.game] = (new.mu, new.sigma)
    assert all(mine.get(user.pk) for user in users)
    for user in users:
        response = client.get(reverse("profile", args=[user.username]))
        for stats in response.context["stats"]:
            game = stats["game"]
            counts = expected[user.pk]
            won, lost, drawn = (counts[(game, o)] for o in ("win", "loss", "draw"))
            assert (stats["won"], stats["lost"], stats["drawn"]) == (won, lost, drawn)
            assert stats["played"] == won + lost + drawn
            if game in mine.get(user.pk, {}):
                mu, sigma = mine[user.pk][game]
                assert stats["rating"].mu == pytest.approx(mu)
                assert stats["rating"].sigma == pytest.approx(sigma)
                assert stats["rating"].rating == ratings.display_rating(mu, sigma)
            else:
                assert stats["rating"] is None
        for row in response.context["rows"]:
            result, outcomes = replay_outcomes(row["match"])
            assert row["outcome"] == outcomes[row["seat"]]
            side = row["seat"] % 2
            scores = result.get("scores") or result.get("stocks")
            assert (row["ours"], row["theirs"]) == (scores[side], scores[1 - side])


def test_running_matches_have_no_record_or_replay(client):
    users = make_players(4)
    table = new_table(users)
    match = matches.start_match(table.pk, users[0])
    assert client.get(reverse("match", args=[match.pk])).status_code == 404
    assert client.get(reverse("replay", args=[match.pk])).status_code == 404
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
    page = client.get(reverse("match", args=[match.pk]))
    assert page.status_code == 200 and page.context["aborted"]
    assert [side["score"] for side in page.context["sides"]] == [0, 0]
    grabush = new_table(users[2:], "grabush")
    stopped = matches.start_match(grabush.pk, users[2])
    Match.objects.filter(pk=stopped.pk).update(status=Match.Status.ABORTED)
    page = client.get(reverse("match", args=[stopped.pk]))
    assert [side["score"] for side in page.context["sides"]] == [20, 20]
    assert "did not reach its end" in page.content.decode()
    assert client.get(reverse("replay", args=[match.pk])).status_code == 200


def test_replay_steps_through_the_move_log(client):
    users = make_players(4)
    match = start_and_finish(users, seed=7)
    url = reverse("replay", args=[match.pk])
    engine = get_game("belote").engine
    start = client.get(url)
    assert start.context["step"] == 0 and start.context["total"] == match.version
    dealt = get_game("belote").new_state(match.seed, match.options)
    assert [h["cards"] for h in start.context["hands"]] == [
        engine.view(dealt, seat)["hand"] for seat in range(4)
    ]
    html = start.content.decode()
    assert f'href="{url}?step=1"' in html and f'href="{url}?step={match.version}"' in html
    assert 'type="range"' in html and 'hx-trigger="change"' in html
    moves = list(match.moves.order_by("seq").values_list("seat", "action"))
    third = client.get(url, {"step": 3})
    state = dealt
    for seat, action in moves[:3]:
        state = engine.apply(state, seat, action)
    assert [h["cards"] for h in third.context["hands"]] == [
        engine.view(state, seat)["hand"] for seat in range(4)
    ]
    assert (third.context["previous"], third.context["next"]) == (2, 4)
    # Out of range and nonsense steps go to the end.
    assert client.get(url, {"step": 10**6}).context["step"] == match.version
    assert client.get(url, {"step": "x"}).context["step"] == match.version
    # htmx asks for the replay region only.
    partial = client.get(url, {"step": 2}, headers={"HX-Request": "true"})
    body = partial.content.decode()
    assert body.startswith('<section id="replay"') and "<html" not in body
    assert "HX-Request" in partial["Vary"]


def test_leaderboard_lists_rated_players_best_first(client, make_user):
    users = make_players(4)
    match = start_and_finish(users, seed=11)
    make_user("newcomer")
    response = client.get(reverse("leaderboard", args=["belote"]))
    rows = response.context["rows"]
    assert [row["rank"] for row in rows] == [1, 2, 3, 4]
    winners = {u.username for seat, u in enumerate(users) if seat % 2 == match.result["winner"]}
    assert {row["name"] for row in rows[:2]} == winners
    assert "newcomer" not in response.content.decode()
    assert client.get(reverse("leaderboard", args=["grabush"])).context["rows"] == []
    assert client.get(reverse("leaderboard", args=["chess"])).status_code == 404


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)", re.IGNORECASE)


def test_history_pages_need_no_inline_script_or_style(client):
    users = make_players(4)
    match = start_and_finish(users, seed=2)
    for url in (
        reverse("profile", args=[users[0].username]),
        reverse("match", args=[match.pk]),
        reverse("replay", args=[match.pk]),
        reverse("leaderboard", args=["belote"]),
    ):
        html = client.get(url).content.decode()
        assert not INLINE_SCRIPT.search(html), url
        assert " style=" not in html and "hx-on" not in html and "js:" not in html, url
    profile = client.get(reverse("profile", args=[users[0].username])).content.decode()
    assert "<svg" in profile and "<polyline" in profile


# --------------------------------------------------------------------------------------------
# Query counts: fabricated histories (no engine play), so thousands of rows stay cheap.


def fake_history(users, count: int, game: str = "belote") -> list[Match]:
    """``count`` finished, rated matches between ``users`` (seat order kept), made directly."""
    spec = get_game(game)
    options = BELOTE_FAST if game == "belote" else GRABUSH_2
    table = new_table(users, game, options)
    state = spec.engine.dumps(spec.new_state(1, options))
    start = table.matches.count()
    matches = Match.objects.bulk_create(
        Match(
            table=table,
            number=start + i + 1,
            game=game,
            options=options,
            state=state,
            status=Match.Status.FINISHED,
            result={"winner": i % 2, "scores": [151, 80]}
            if game == "belote"
            else {"winner": None, "stocks": [3, 4]},
        )
        for i in range(count)
    )
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(finished_at=table.created_at)
    players, changes = [], []
    for i, match in enumerate(matches):
        for seat, user in enumerate(users):
            outcome = ratings.outcome_for(match.result, seat)
            players.append(MatchPlayer(match=match, seat=seat, user=user, outcome=outcome))
            changes.append(
                RatingChange(
                    user=user,
                    game=game,
                    match=match,
                    mu_before=25,
                    sigma_before=8,
                    mu_after=25,
                    sigma_after=8,
                    rating_before=1500 + i,
                    rating_after=1501 + i,
                )
            )
    MatchPlayer.objects.bulk_create(players)
    RatingChange.objects.bulk_create(changes)
    for user in users:
        Rating.objects.update_or_create(
            user=user, game=game, defaults={"mu": 25, "sigma": 8, "rating": 1540, "games": count}
        )
    return matches


#: Queries of a profile page for a visitor: the user, 2 for the stats, 1 chart per rated game,
#: 4 for the match list (count, page, the page's players, the page's rating changes), 1 for the
#: daily Belotes played.
PROFILE_QUERIES = 10


@pytest.mark.contract
def test_profile_queries_stay_flat_with_thousands_of_matches(
    client, django_assert_num_queries, django_assert_max_num_queries
):
    users = make_players(4)
    url = reverse("profile", args=[users[0].username])
    fake_history(users, 3)
    fake_history(users[:2], 2, "grabush")
    with django_assert_num_queries(PROFILE_QUERIES):
        small = client.get(url)
    assert len(small.context["rows"]) == 5
    fake_history(users, 2000)
    fake_history(users[:2], 500, "grabush")
    with django_assert_num_queries(PROFILE_QUERIES):
        big = client.get(url)
    assert len(big.context["rows"]) == history.MATCHES_PER_PAGE
    with django_assert_max_num_queries(PROFILE_QUERIES):
        last = client.get(url, {"page": 10**6})
    assert last.context["page"].number == last.context["page"].paginator.num_pages
    stats = {row["game"]: row for row in big.context["stats"]}
    assert stats["belote"]["played"] == 2003 and stats["grabush"]["drawn"] == 502
    assert stats["belote"]["chart"]["matches"] == history.CHART_POINTS


@pytest.mark.contract
def test_match_replay_and_leaderboard_queries_are_fixed(client, django_assert_num_queries):
    users = make_players(4)
    matches = fake_history(users, 3)
    match = start_and_finish(users, seed=4)
    with django_assert_num_queries(3):  # match, players with users, rating changes
        client.get(reverse("match", args=[match.pk]))
    with django_assert_num_queries(3):  # match, players with users, moves
        client.get(reverse("replay", args=[match.pk]), {"step": 5})
    with django_assert_num_queries(2):  # count, page with users
        client.get(reverse("leaderboard", args=["belote"]))
    assert client.get(reverse("match", args=[matches[0].pk])).status_code == 200


def test_rebuild_history_replays_and_gives_the_same_ratings():
    users = make_players(4)
    for seed in (1, 2, 3):
        start_and_finish(users, seed=seed)
    start_and_finish(users[:2], "grabush", seed=3)
    before = sorted(Rating.objects.values_list("user_id", "game", "mu", "sigma", "games"))
    charts = {
        user.pk: list(
            RatingChange.objects.filter(user=user)
            .order_by("created_at")
            .values_list("match_id", "rating_after")
        )
        for user in users
    }
    assert ratings.rebuild_history() == []
    after = sorted(Rating.objects.values_list("user_id", "game", "mu", "sigma", "games"))
    assert [row[:2] + row[4:] for row in after] == [row[:2] + row[4:] for row in before]
    for old, new in zip(before, after, strict=True):
        assert new[2:4] == pytest.approx(old[2:4])
    for user in users:
        assert (
            list(
                RatingChange.objects.filter(user=user)
                .order_by("created_at")
                .values_list("match_id", "rating_after")
            )
            == charts[user.pk]
        )
    # A record that its move log does not back is reported.
    tampered = Match.objects.filter(game="belote").first()
    Match.objects.filter(pk=tampered.pk).update(
        result={**tampered.result, "winner": 1 - tampered.result["winner"]}
    )
    with pytest.raises(CommandError, match=str(tampered.pk)):
        call_command("rebuild_history", stdout=io.StringIO())


def test_a_match_a_computer_finished_for_a_player_who_left_is_not_theirs(client):
    users = make_players(4)
    match = start_and_finish(users)
    # Seat 1 had left: a computer covered it until the end.
    MatchPlayer.objects.filter(match=match, seat=0).update(covered=True)
    stats = {row["game"]: row for row in history.game_stats(users[0])}["belote"]
    assert (stats["played"], stats["won"], stats["lost"], stats["left"]) == (0, 0, 0, 1)
    partner = {row["game"]: row for row in history.game_stats(users[2])}["belote"]
    assert (partner["played"], partner["left"]) == (1, 0)
    page = client.get(reverse("profile", args=[users[0].username])).content.decode()
    assert "Left to a computer" in page and "Left: a computer finished it" in page
    assert 'class="outcome-left"' in page
