"""Start the duplicate events whose start time has come, remind the players of the public cups
that start within ten minutes, open today's daily Belote and close the days that are over (run
it every minute, from cron or a scheduler; an event's page also does the first two when someone
has it open, and the daily's pages open and close days themselves)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games import background
from games.events import cups, daily, running
from games.live import push
from games.live.notify import announce, notice_messages, send_sync
from games.views.events import remind


class Command(BaseCommand):
    help = (
        "Start the duplicate events whose start time has come; remind cups' players; open and"
        " close daily Belotes."
    )

    def handle(self, *args, **options) -> None:
        for event in running.due_events():
            started = running.start_if_due(event)
            if started is not None:
                for group, message in notice_messages(running.notices(started)):
                    send_sync(group, message)
                self.stdout.write(f"started {event}")
            else:
                self.stdout.write(f"cancelled {event}: too few pairs")
        for event in cups.to_remind():
            reminder = cups.remind_if_due(event)
            if reminder is not None:
                remind(reminder, cups.site_url(event.get_absolute_url()))
                self.stdout.write(f"reminded the players of {event}")
        closing = daily.due()
        today, stopped = daily.open_and_close()
        for table_id in stopped:
            announce(table_id)
        for day in closing:
            self.stdout.write(f"closed the daily Belote of {day.day}")
        self.stdout.write(f"the daily Belote of {today.day} is open")
        pushed = push.deliver_daily(today.day)
        if pushed:
            self.stdout.write(f"pushed the daily Belote to {pushed} devices")
        background.wait()  # the pushes the notices above queued go out before the command ends
