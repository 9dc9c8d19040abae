"""Start the duplicate events whose start time has come (run it every minute, from cron or a
scheduler; an event's page also starts it when someone has it open)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.events import running
from games.live.notify import notice_messages, send_sync


class Command(BaseCommand):
    help = "Start the duplicate events whose start time has come."

    def handle(self, *args, **options) -> None:
        for event in running.due_events():
            started = running.start_if_due(event)
            if started is not None:
                for group, message in notice_messages(running.notices(started)):
                    send_sync(group, message)
                self.stdout.write(f"started {event}")
            else:
                self.stdout.write(f"cancelled {event}: too few pairs")
