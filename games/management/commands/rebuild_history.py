"""``python manage.py rebuild_history``: replay every finished match, then recompute outcomes
and ratings from scratch (after importing old matches, or to audit the records)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.models import Match, Rating
from games.records.ratings import rebuild_history


class Command(BaseCommand):
    help = "Replay finished matches and recompute every outcome and rating, oldest first."

    def handle(self, *args, **options) -> None:
        mismatched = rebuild_history()
        finished = Match.objects.filter(status=Match.Status.FINISHED).count()
        self.stdout.write(
            f"{finished} finished matches replayed; {Rating.objects.count()} ratings rebuilt."
        )
        if mismatched:
            raise CommandError(
                "Recorded results that differ from their replay: match "
                + ", ".join(str(pk) for pk in mismatched)
            )
