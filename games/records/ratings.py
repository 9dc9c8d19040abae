"""Match outcomes and OpenSkill ratings, recorded when a match finishes.

:func:`record_finished_match` runs inside the transaction that finishes the match
(``games.tables.play._save``). It writes every seat's outcome (won, lost, drawn) and, when
every seat was a human (no computer player, no empty user), updates the players' ratings in that
game.

Ratings use OpenSkill's Plackett-Luce model with its defaults (mu = 25, sigma = 25/3). Teams are the
game's sides (``seat % 2``): partners share the result, so a Belote pair or a Grabush side is one
OpenSkill team; a Grabush draw ranks both sides equal.

The **displayed rating** is the conservative estimate ``mu - 3 * sigma`` (OpenSkill's
ordinal), scaled::

    rating = round((mu - 3 * sigma) * 40 + 1500)

A newcomer shows 1500; the number rises as sigma shrinks with games played and as mu grows with
wins.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from openskill.models import PlackettLuce

from ..catalog import get_game
from ..models import Match, MatchPlayer, Move, Outcome, Rating, RatingChange
from .replay import final_state

#: The displayed rating of an ordinal (mu - 3 * sigma) of 0, e.g. a newcomer's.
DISPLAY_BASE = 1500
#: Displayed points per unit of ordinal.
DISPLAY_SCALE = 40

MODEL = PlackettLuce()


def display_rating(mu: float, sigma: float) -> int:
    """The number players see: the OpenSkill ordinal ``mu - 3 * sigma``, scaled and shifted."""
    return round((mu - 3 * sigma) * DISPLAY_SCALE + DISPLAY_BASE)


def new_rating_values() -> tuple[float, float]:
    """mu and sigma of a player's first rating in a game."""
    fresh = MODEL.rating()
    return fresh.mu, fresh.sigma


def outcome_for(result: Mapping[str, object] | None, seat: int) -> str:
    """The outcome of ``seat`` in a finished match with ``result`` (side = ``seat % 2``)."""
    winner = (result or {}).get("winner")
    if winner is None:
        return Outcome.DRAW
    return Outcome.WIN if winner == seat % 2 else Outcome.LOSS


def is_rated(players: list[MatchPlayer]) -> bool:
    """Whether a match between these seats counts for ratings: humans only, all different,
    none of whom took a computer player's seat during the match."""
    users = [player.user_id for player in players]
    return (
        bool(players)
        and all(user is not None for user in users)
        and not any(player.bot_level for player in players)
        and all(player.joined_version is None for player in players)
        and len(set(users)) == len(users)
    )


def record_finished_match(match: Match) -> None:
    """Write the seats' outcomes and, for a match between humans, the new ratings.

    Call once, in the transaction that marked ``match`` finished (its ``result`` is set).
    """
    players = list(match.players.all())
    for player in players:
        player.outcome = outcome_for(match.result, player.seat)
    MatchPlayer.objects.bulk_update(players, ["outcome"])
    # A duplicate event's short matches are judged by matchpoints, not ratings.
    if is_rated(players) and not match.shared_deals:
        _rate(match, players)


def seats_played(match: Match) -> set[int]:
    """The seats whose human made most of the seat's own moves (computers covering an absent
    player made the others): only their ratings change."""
    counts = (
        Move.objects.filter(match=match)
        .values("seat")
        .annotate(total=Count("pk"), own=Count("pk", filter=Q(user__isnull=False)))
    )
    return {row["seat"] for row in counts if 2 * row["own"] > row["total"]}


def _rate(match: Match, players: list[MatchPlayer]) -> None:
    """Update the ratings of ``players`` (humans) from the result of ``match``, for the seats
    their humans really played."""
    everyone = {player.seat: player.user_id for player in players}
    played = seats_played(match)
    players = [player for player in players if player.seat in played]
    if not players:
        return
    user_ids = [player.user_id for player in players]
    mu, sigma = new_rating_values()
    # Create missing rows first (a concurrent match may create the same row: ignore that), then
    # lock every row in a fixed order so two matches finishing at once can't deadlock.
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=user, game=match.game, mu=mu, sigma=sigma, rating=display_rating(mu, sigma)
            )
            for user in user_ids
        ],
        ignore_conflicts=True,
    )
    ratings = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update()
        .filter(game=match.game, user_id__in=user_ids)
        .order_by("user_id")
    }
    sides = get_game(match.game).teams(match.options)
    # Seats that do not change still rate with their current ratings.
    current = {
        rating.user_id: rating
        for rating in Rating.objects.filter(game=match.game, user_id__in=everyone.values())
    }
    current.update(ratings)
    teams = []
    for side in sides:
        team = []
        for seat in side:
            rating = current.get(everyone[seat])
            team.append(
                MODEL.rating(mu=rating.mu, sigma=rating.sigma) if rating else MODEL.rating()
            )
        teams.append(team)
    by_seat = {player.seat: ratings[player.user_id] for player in players}
    winner = (match.result or {}).get("winner")
    ranks = [1 if winner is None or side == winner else 2 for side in range(len(sides))]
    new_teams = MODEL.rate(teams, ranks=ranks)
    changes = []
    now = timezone.now()
    for side, new_team in zip(sides, new_teams, strict=True):
        for seat, new in zip(side, new_team, strict=True):
            if seat not in by_seat:
                continue
            rating = by_seat[seat]
            before = (rating.mu, rating.sigma, rating.rating)
            rating.mu, rating.sigma = new.mu, new.sigma
            rating.rating = display_rating(new.mu, new.sigma)
            rating.games += 1
            rating.updated_at = now
            changes.append(
                RatingChange(
                    user_id=rating.user_id,
                    game=match.game,
                    match=match,
                    mu_before=before[0],
                    sigma_before=before[1],
                    rating_before=before[2],
                    mu_after=rating.mu,
                    sigma_after=rating.sigma,
                    rating_after=rating.rating,
                    created_at=match.finished_at or now,
                )
            )
    Rating.objects.bulk_update(
        list(ratings.values()), ["mu", "sigma", "rating", "games", "updated_at"]
    )
    RatingChange.objects.bulk_create(changes)


def rebuild_history() -> list[int]:
    """Recompute every outcome and rating from scratch, in the order the matches finished.

    Each finished match is first replayed from its seed and move log; the ids of matches whose
    recorded result differs from their replay are returned (their recorded result is still
    used). One transaction: pages show the old history until it commits.
    """
    mismatched = []
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        MatchPlayer.objects.exclude(outcome="").update(outcome="")
        finished = Match.objects.filter(status=Match.Status.FINISHED).order_by("finished_at", "pk")
        for match in finished.iterator():
            if get_game(match.game).result(final_state(match)) != match.result:
                mismatched.append(match.pk)
            record_finished_match(match)
    return mismatched
