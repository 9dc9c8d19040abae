"""Public cups: the site's duplicate events, scheduled by staff in the admin, listed on the home
page, open to every signed-in player (as a pair or with a computer partner), their players
reminded once ten minutes before the start, their tables and records shown as an event's."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.events import cups, running
from games.events.running import EventError
from games.live import notify
from games.live.frames import render_notice
from games.models import Event, EventTable, Profile
from games.people import access, friends

from .factories import make_players
from .test_events import play_out

pytestmark = pytest.mark.django_db


def new_cup(staff, starts_in=timedelta(hours=1), name="Sunday cup", rounds=1, deals=1) -> Event:
    """A cup as the admin schedules it."""
    return Event.objects.create(
        club=None,
        created_by=staff,
        name=name,
        rounds=rounds,
        deals_per_round=deals,
        turn_seconds=0,
        starts_at=timezone.now() + starts_in,
    )


def make_staff(user):
    user.is_staff = user.is_superuser = True
    user.save()
    return user


@pytest.fixture
def heard(monkeypatch) -> list[tuple[str, dict]]:
    """What is sent to the players' open pages."""
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(notify, "send_sync", lambda group, event: sent.append((group, event)))
    return sent


def test_staff_schedule_a_cup_in_the_admin_and_a_past_start_is_refused(client):
    staff, player = make_players(2)
    make_staff(staff)
    client.force_login(staff)
    url = reverse("admin:games_event_add")
    when = (timezone.now() + timedelta(days=1)).replace(microsecond=0)
    form = {
        "name": "Sunday cup",
        "starts_at_0": when.strftime("%Y-%m-%d"),
        "starts_at_1": when.strftime("%H:%M:%S"),
        "rounds": 3,
        "deals_per_round": 2,
        "turn_seconds": 30,
    }
    past = timezone.now() - timedelta(hours=1)
    refused = client.post(
        url,
        form | {"starts_at_0": past.strftime("%Y-%m-%d"), "starts_at_1": past.strftime("%H:%M:%S")},
    )
    assert refused.status_code == 200 and "The start time has passed" in refused.content.decode()
    assert not Event.objects.exists()
    assert client.post(url, form | {"rounds": 0}).status_code == 200
    assert not Event.objects.exists()
    assert client.post(url, form).status_code == 302
    cup = Event.objects.get()
    assert cup.is_cup and cup.created_by == staff and cup.starts_at == when
    assert (cup.rounds, cup.deals_per_round, cup.turn_seconds) == (3, 2, 30)
    client.force_login(player)
    assert client.get(url).status_code == 302  # to the admin's log-in: players schedule none


def test_the_home_page_lists_the_cups_with_their_start_and_pairs(client):
    staff, ana, bob, cid, dan, eve = make_players(6)
    cup = new_cup(staff)
    running.answer_request(running.register(cup, ana, bob.username).pk, bob, True)
    running.register(cup, cid, "")
    running.register(cup, dan, eve.username)  # waits for Eve's answer: no pair yet
    gone = new_cup(staff, name="Cancelled cup")
    Event.objects.filter(pk=gone.pk).update(status=Event.Status.CANCELLED)
    for signed_in in (None, cid):
        if signed_in is not None:
            client.force_login(signed_in)
        page = client.get("/").content.decode()
        assert "Public cups" in page and cup.get_absolute_url() in page
        assert "2 pairs registered" in page
        assert cup.starts_at.isoformat() in page
        assert "Cancelled cup" not in page


def test_any_player_registers_with_a_partner_or_a_computer_not_one_who_blocks_them(client):
    staff, ana, bob, cid, dan = make_players(5)
    cup = new_cup(staff)
    friends.block(dan, cid.username)
    with pytest.raises(EventError, match="cannot be your partner"):
        running.register(cup, cid, dan.username)
    client.force_login(ana)  # in no club at all
    page = client.get(cup.get_absolute_url()).content.decode()
    assert "Public cup" in page and 'name="partner"' in page
    client.post(reverse("register_for_event", args=[cup.pk]), {"partner": bob.username})
    client.force_login(cid)
    client.post(reverse("register_for_event", args=[cup.pk]), {"partner": ""})
    pairs = {(pair.player, pair.partner) for pair in cup.pairs.all()}
    assert pairs == {(ana, bob), (cid, None)}
    bob.is_active = False
    bob.save()
    assert not access.may_play_in(cup, bob)


def test_only_staff_start_or_cancel_a_cup():
    staff, ana, bob = make_players(3)
    cup = new_cup(staff)
    running.register(cup, ana, "")
    running.register(cup, bob, "")
    with pytest.raises(EventError, match="Only staff"):
        running.start(cup, ana)
    with pytest.raises(EventError, match="Only staff"):
        running.close(cup, ana)
    make_staff(staff)
    assert running.start(cup, staff).round == 1


def test_a_due_cup_starts_by_the_command_its_tables_shown_only_to_their_players(client):
    staff, ana, bob, cid, outsider = make_players(5)
    cup = new_cup(staff)
    running.register(cup, ana, "")
    asked = running.register(cup, bob, cid.username)
    running.answer_request(asked.pk, cid, True)
    Event.objects.filter(pk=cup.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    call_command("start_due_events", stdout=StringIO())
    cup.refresh_from_db()
    assert cup.status == Event.Status.RUNNING
    mine = running.my_table(cup, ana)
    assert mine is not None and mine.club_id is None
    assert access.may_open(mine, ana) and not access.may_open(mine, outsider)
    client.force_login(ana)
    assert "Go to your table" in client.get(cup.get_absolute_url()).content.decode()


def test_an_over_cups_matches_show_to_every_player(client):
    staff, ana, bob, outsider = make_players(4)
    cup = new_cup(staff)
    running.register(cup, ana, "")
    running.register(cup, bob, "")
    running.start(cup, make_staff(staff))
    places = list(EventTable.objects.filter(event=cup, round=1))
    for place in places:
        play_out(place.table_id)
    for place in places:
        running.table_finished(place.table_id)
    assert Event.objects.get(pk=cup.pk).status == Event.Status.FINISHED
    match = places[0].table.matches.get()
    client.force_login(outsider)
    assert client.get(reverse("match", args=[match.pk])).status_code == 200


def confirm(user, *, by_mail: bool, language: str = "") -> None:
    user.email = f"{user.username}@example.com"
    user.save()
    Profile.objects.update_or_create(
        user=user,
        defaults={
            "confirmed_email": user.email,
            "email_invitations": by_mail,
            "language": language,
        },
    )


def test_every_player_is_reminded_once_ten_minutes_before_the_start(heard):
    staff, ana, bob, cid, dan = make_players(5)
    soon = new_cup(staff, starts_in=timedelta(minutes=9, seconds=30))
    later = new_cup(staff, starts_in=timedelta(minutes=30), name="Evening cup")
    running.answer_request(running.register(soon, ana, bob.username).pk, bob, True)
    running.register(soon, cid, "")
    running.register(later, dan, "")
    confirm(ana, by_mail=True, language="bg")
    confirm(bob, by_mail=False)  # notices on the site only
    cid.email = "cid@example.com"  # never confirmed
    cid.save()
    Profile.objects.create(user=cid, email_invitations=True)
    out = StringIO()
    call_command("start_due_events", stdout=out)
    assert f"reminded the players of {soon.name}" in out.getvalue()
    told = {(group, event["kind"], event["pk"]) for group, event in heard}
    assert told == {(notify.notices_group(p.pk), "event_soon", soon.pk) for p in (ana, bob, cid)}
    assert [message.to for message in mail.outbox] == [[ana.email]]
    with translation.override("bg"):  # in her language
        assert mail.outbox[0].subject == _("%(name)s starts in ten minutes.") % {"name": soon.name}
    assert soon.get_absolute_url() in mail.outbox[0].body
    notice = render_notice(ana, "event_soon", soon.pk)
    assert "starts in 10 minutes" in notice and soon.get_absolute_url() in notice
    assert render_notice(dan, "event_soon", soon.pk) == ""  # not registered for it
    # Sent once, whoever asks again: the command, or the cup's page.
    heard.clear()
    call_command("start_due_events", stdout=StringIO())
    assert cups.remind_if_due(soon) is None
    assert heard == [] and len(mail.outbox) == 1
