"""Match history for pages: profile statistics, a player's matches, match records, replays and
leaderboards.

Every list is paginated and loads related rows in a fixed number of queries, however many
matches a player has. Records of a match come from the engine: its stored state for the match
page, the seed and the move log (through the engine) for the replay.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TypedDict

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext as _

from .. import verify
from ..catalog import Game, all_games, game_label, get_game
from ..engines import chance, fair_deals
from ..models import Match, MatchPlayer, Outcome, Rating, RatingChange
from ..people import access
from ..presenters.computers import computer_name
from ..presenters.words import seats_label
from . import reviews
from .replay import logged_moves, step_state

#: Matches a profile lists per page.
MATCHES_PER_PAGE = 20
#: Players a leaderboard lists per page.
LEADERBOARD_PER_PAGE = 50
#: Rated matches the rating chart of a profile shows (the most recent ones).
CHART_POINTS = 50
#: Statuses of matches that are over (shown in histories; running ones are not).
DONE = (Match.Status.FINISHED, Match.Status.ABORTED)

# Drawing area of the rating chart, in SVG user units.
CHART_WIDTH, CHART_HEIGHT = 320, 100
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 44, 314, 8, 92


def player_name(player: MatchPlayer) -> str:
    """A seat's name in a match record: the user, a computer player, or a dash."""
    if player.user_id is not None and player.user is not None:
        return player.user.get_username()
    if player.bot_level:
        return computer_name(player.bot_level, player.seat)
    return "—"


# --------------------------------------------------------------------------------------------
# Profile


def rating_chart(user: AbstractBaseUser, game: str) -> dict[str, object] | None:
    """Geometry of the SVG chart of ``user``'s last rated matches in ``game`` (None: none).

    One query. The line starts at the rating before the first shown match, then one point per
    match.
    """
    changes = list(
        RatingChange.objects.filter(user=user, game=game)
        .order_by("-created_at")
        .values_list("rating_before", "rating_after")[:CHART_POINTS]
    )
    if not changes:
        return None
    changes.reverse()
    values = [changes[0][0], *(after for _before, after in changes)]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (CHART_RIGHT - CHART_LEFT) / (len(values) - 1)
    points = [
        (
            round(CHART_LEFT + i * step, 1),
            round(CHART_BOTTOM - (value - low) / span * (CHART_BOTTOM - CHART_TOP), 1),
        )
        for i, value in enumerate(values)
    ]
    return {
        "game": game,
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": CHART_LEFT,
        "right": CHART_RIGHT,
        "top": CHART_TOP,
        "bottom": CHART_BOTTOM,
        "points": " ".join(f"{x},{y}" for x, y in points),
        "last_x": points[-1][0],
        "last_y": points[-1][1],
        "low": low,
        "high": high,
        "first": values[0],
        "last": values[-1],
        "matches": len(changes),
    }


def game_stats(user: AbstractBaseUser) -> list[dict[str, object]]:
    """Per game: matches played, won, lost, drawn, left to a computer, the rating and its chart.

    Two queries, plus one chart query per game the user is rated in.
    """
    counts = {
        row["match__game"]: row
        for row in MatchPlayer.objects.filter(user=user)
        .exclude(outcome="")
        .values("match__game")
        .annotate(
            # A match a computer finished for the player (they had left) is neither played
            # nor won by them: it is counted apart.
            played=Count("pk", filter=Q(covered=False)),
            won=Count("pk", filter=Q(outcome=Outcome.WIN, covered=False)),
            lost=Count("pk", filter=Q(outcome=Outcome.LOSS, covered=False)),
            drawn=Count("pk", filter=Q(outcome=Outcome.DRAW, covered=False)),
            left=Count("pk", filter=Q(covered=True)),
        )
        .order_by()
    }
    ratings = {rating.game: rating for rating in Rating.objects.filter(user=user)}
    stats = []
    for game in (game.name for game in all_games()):
        row = counts.get(game, {})
        rating = ratings.get(game)
        stats.append(
            {
                "game": game,
                "label": game_label(game),
                "played": row.get("played", 0),
                "won": row.get("won", 0),
                "lost": row.get("lost", 0),
                "drawn": row.get("drawn", 0),
                "left": row.get("left", 0),
                "rating": rating,
                "chart": rating_chart(user, game) if rating is not None else None,
            }
        )
    return stats


def match_row(me: MatchPlayer, change: RatingChange | None) -> dict[str, object]:
    """One line of a player's match list (``me.match.players`` already loaded)."""
    match = me.match
    side = me.seat % 2
    players = list(match.players.all())
    game = get_game(match.game)
    scores = game.side_scores(match.result or {})
    return {
        "match": match,
        "score_unit": game.score_unit,
        "game_label": str(game.label),
        "date": match.finished_at or match.started_at,
        "seat": me.seat,
        "partners": [player_name(p) for p in players if p.seat % 2 == side and p.seat != me.seat],
        "opponents": [player_name(p) for p in players if p.seat % 2 != side],
        "outcome": "left" if me.outcome and me.covered else me.outcome,
        "outcome_label": _outcome_label(me),
        "ours": scores[side] if scores else None,
        "theirs": scores[1 - side] if scores else None,
        "change": change,
    }


def _outcome_label(me: MatchPlayer) -> str:
    if not me.outcome:
        return _("Aborted")
    if me.covered:
        return _("Left: a computer finished it")
    return me.get_outcome_display()


def player_matches(
    user: AbstractBaseUser, viewer: AbstractBaseUser, page_number: str | int | None
) -> tuple[Page, list[dict[str, object]]]:
    """One page of ``user``'s finished and aborted matches that ``viewer`` may see, newest
    first, and its rows.

    Four queries whatever the page: count, page, the page's players, the page's rating changes.
    """
    seats = (
        MatchPlayer.objects.filter(
            access.records_shown_to(viewer, "match__"), user=user, match__status__in=DONE
        )
        .select_related("match")
        .defer("match__state")  # the engine state is large and the list doesn't need it
        .prefetch_related(
            Prefetch("match__players", queryset=MatchPlayer.objects.select_related("user"))
        )
        .order_by("-match_id")
    )
    page = Paginator(seats, MATCHES_PER_PAGE).get_page(page_number)
    changes = {
        change.match_id: change
        for change in RatingChange.objects.filter(
            user=user, match_id__in=[seat.match_id for seat in page]
        )
    }
    return page, [match_row(seat, changes.get(seat.match_id)) for seat in page]


# --------------------------------------------------------------------------------------------
# Match page


def option_rows(spec: Game, options: dict[str, object]) -> list[dict[str, str]]:
    """The match's options in words, labelled as on the new-table form."""
    rows = []
    for name, field in spec.options_form.base_fields.items():
        if name not in options:
            continue
        value = options[name]
        if isinstance(field, forms.BooleanField):
            text = _("Yes") if value else _("No")
        elif isinstance(field, forms.ChoiceField):
            text = str(dict((str(k), v) for k, v in field.choices).get(str(value), value))
        else:
            text = str(value)
        rows.append({"label": str(field.label), "value": text})
    return rows


def side_label(seats: list[int]) -> str:
    """A side's neutral name from its seats (0-based): "Seats 1 & 3", "Seat 2"."""
    return seats_label([seat + 1 for seat in seats])


def match_record(match: Match) -> dict[str, object]:
    """Everything the match page shows: sides, players, score, options, score sheet.

    Two queries (players with users, rating changes); the rest comes from the stored state.
    """
    spec = get_game(match.game)
    players = list(match.players.select_related("user").order_by("seat"))
    changes = {change.user_id: change for change in match.rating_changes.all()}
    names = {player.seat: player_name(player) for player in players}
    state = spec.engine.loads(match.state)
    view = spec.engine.view(state, None)
    winner = (match.result or {}).get("winner")
    # An aborted match has no result: show where it stopped.
    scores = spec.side_scores(match.result or spec.result(state))
    sides = []
    for side, seats in enumerate(spec.teams(match.options)):
        sides.append(
            {
                "side": side,
                "label": side_label(seats),
                "players": [
                    {
                        "seat": player.seat + 1,
                        "name": names[player.seat],
                        "user": player.user,
                        "change": changes.get(player.user_id),
                        "outcome": player.get_outcome_display() if player.outcome else "",
                    }
                    for player in players
                    if player.seat in seats
                ],
                "score": scores[side],
                "score_text": spec.score_text(scores[side]),
                "won": match.status == Match.Status.FINISHED and winner == side,
            }
        )
    duration: timedelta | None = (
        match.finished_at - match.started_at if match.finished_at is not None else None
    )
    record: dict[str, object] = {
        "match": match,
        "game_label": game_label(match.game),
        "sides": sides,
        "names": names,
        "winner": winner,
        "drawn": match.status == Match.Status.FINISHED and winner is None,
        "aborted": match.status == Match.Status.ABORTED,
        "duration_minutes": round(duration.total_seconds() / 60) if duration else None,
        "options": option_rows(spec, match.options),
        "rated": bool(changes),
        "moves": match.version,
        "view": view,
    }
    record["record_template"] = spec.record_template
    record["reviewable"] = spec.reviewable_deals(state)
    record["fair"] = fair_record(match, names)
    # Read with the match (``select_related``): a table of a duplicate event, or none.
    record["event_table"] = getattr(match.table, "event_table", None)
    earlier = {
        player.seat: (player.joined_deal, computer_name(player.replaced_level, player.seat))
        for player in players
        if player.joined_deal is not None and player.replaced_level
    }
    record.update(spec.record_context(view, names, earlier))
    return record


def fair_record(match: Match, names: dict[int, str]) -> dict[str, object] | None:
    """What an ended match's record shows of how its deals were fixed (None for a match made
    without a commitment, or one still running: then nothing of it may show)."""
    if match.status == Match.Status.RUNNING or not match.secret:
        return None
    return {
        "commitment": match.commitment,
        "secret": match.secret,
        "seed": match.seed,
        "contributions": [
            {"number": c["seat"] + 1, "name": names.get(c["seat"], ""), "value": c["value"]}
            for c in match.contributions
        ],
    }


# --------------------------------------------------------------------------------------------
# Deal reviews


def review_page(
    match: Match, number: int, may_work_out: Callable[[], bool] | None = None
) -> dict[str, object] | None:
    """What a deal's review page shows (None: that deal has no review). The first asking works
    the review out (``games.records.reviews``), when ``may_work_out`` allows it (else
    ``reviews.Refused``)."""
    review = reviews.deal_review(match, number, may_work_out)
    if review is None:
        return None
    spec = get_game(match.game)
    players = list(match.players.select_related("user").order_by("seat"))
    names = {player.seat: player_name(player) for player in players}
    numbers = spec.reviewable_deals(spec.engine.loads(match.state))
    at = numbers.index(number)
    return {
        "match": match,
        "game_label": game_label(match.game),
        "number": number,
        "previous": numbers[at - 1] if at > 0 else None,
        "next": numbers[at + 1] if at + 1 < len(numbers) else None,
        **spec.review_context(review, names),
    }


# --------------------------------------------------------------------------------------------
# Match log


def match_log(match: Match) -> dict[str, object]:
    """An ended match's log for anyone to check with ``python -m games.verify``: the game and
    options, the secret with its commitment, the contributions, the seed, the deals it gave,
    every action with its seat, and the result (None for a match that was stopped)."""
    if match.status == Match.Status.RUNNING or not match.secret:
        raise ValueError("only an ended match with a commitment has a log")
    spec = get_game(match.game)
    moves = logged_moves(match)
    state = spec.engine.loads(match.state)  # where the log leads (``verify`` replays it)
    return {
        "format": verify.FORMAT,
        "version": verify.VERSION,
        "deal_algorithm": chance.ALGORITHM,
        "seed_algorithm": fair_deals.SEED_ALGORITHM,
        "match": match.pk,
        "game": match.game,
        "options": spec.engine_options(match.options),
        "commitment": match.commitment,
        "secret": match.secret,
        "contributions": match.contributions,
        "seed": match.seed,
        "deals": spec.drawn_deals(match.seed, match.options, state),
        "actions": [[seat, action] for seat, action in moves],
        "status": match.status,
        "result": match.result if match.status == Match.Status.FINISHED else None,
    }


# --------------------------------------------------------------------------------------------
# Replay


class ReplaySeat(TypedDict):
    """A seat of a replay, in the shape of the live table's seat rows (``frames._seat_rows``)."""

    index: int
    number: int
    name: str
    is_free: bool
    is_bot: bool
    is_me: bool
    online: bool
    team: int


def replay_seats(players: list[MatchPlayer]) -> list[ReplaySeat]:
    """Seat rows in the shape the board presenters expect, for a spectator of the replay."""
    return [
        {
            "index": player.seat,
            "number": player.seat + 1,
            "name": player_name(player),
            "is_free": False,
            "is_bot": bool(player.bot_level),
            "is_me": False,
            "online": False,
            "team": player.seat % 2,
        }
        for player in players
    ]


def replay_step(match: Match, step: str | int | None) -> dict[str, object]:
    """The match after ``step`` moves of its log, rebuilt through the engine from its seed or
    from a state a replay kept (``replay.step_state``).

    Every hand is shown (the match is over). Two queries: players, the moves from the state
    it starts at. ``step`` is clamped to ``0 .. number of moves``; anything not a number means
    the last step.
    """
    spec = get_game(match.game)
    players = list(match.players.select_related("user").order_by("seat"))
    total = match.version  # each move is a version
    try:
        step = min(max(int(step), 0), total)
    except (TypeError, ValueError):
        step = total
    state, last = step_state(match, step)
    seats = replay_seats(players)
    names = {seat["index"]: seat["name"] for seat in seats}
    engine = spec.engine
    view = engine.view(state, None)
    presenter = spec.presenter
    last_move = None
    if last is not None:
        seat, action = last
        last_move = {"name": names.get(seat, ""), "text": presenter.describe(action)}
    context = presenter.board_context(view, seats, None)
    context.update(
        {
            "match": match,
            "game_label": game_label(match.game),
            "view": view,
            "viewer": None,
            "version": "",
            "board_template": spec.board_template,
            "hands": [
                {
                    "name": seat["name"],
                    "number": seat["number"],
                    "side": seat["team"],
                    "cards": engine.view(state, seat["index"])["hand"],
                }
                for seat in seats
            ],
            "step": step,
            "total": total,
            "previous": max(step - 1, 0),
            "next": min(step + 1, total),
            "last_move": last_move,
            "matches_record": step == total and engine.dumps(state) == match.state,
            "review_deal": (spec.reviewable_deals(state) or [None])[-1],
        }
    )
    return context


# --------------------------------------------------------------------------------------------
# Leaderboard


def leaderboard(game: str, page_number: str | int | None) -> tuple[Page, list[dict[str, object]]]:
    """One page of the rated players of ``game``, best first (two queries)."""
    ratings = (
        Rating.objects.filter(game=game, games__gt=0, user__is_active=True)
        .select_related("user")
        .order_by("-rating", "-games", "user_id")
    )
    page = Paginator(ratings, LEADERBOARD_PER_PAGE).get_page(page_number)
    rows = [
        {"rank": page.start_index() + i, "rating": rating, "name": rating.user.get_username()}
        for i, rating in enumerate(page)
    ]
    return page, rows
