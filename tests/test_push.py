"""Web Push, against a push service on 127.0.0.1 that checks the VAPID signature and decrypts
each payload with the subscription's own keys: a player with no page open is told of the
kinds of news they chose, in their language, from the background, at most once per kind and
table until they come back; a service that forgot the device (404, 410), turning
notifications off and blocking a player all stop them; the choices and the device's
subscription go through the settings page."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import date, timedelta
from io import StringIO

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.urls import reverse

from games import background
from games.catalog import get_game
from games.events import running
from games.live import moves, push
from games.models import Profile, PushChoices, PushSubscription, Table
from games.people import friends, online
from games.tables import matches
from games.tables.extensions import Notice

from .factories import make_players, match_of, seated_table
from .pushes import PushService
from .test_public_cups import make_staff, new_cup

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def service() -> Iterator[PushService]:
    running = PushService()
    yield running
    running.close()


def subscribed(service: PushService, user, name: str | None = None, language: str = ""):
    """``user`` with a device subscribed to ``service`` (named after them unless told)."""
    device = service.device(name or user.username)
    keys = device.json()["keys"]
    push.subscribe(user, device.endpoint, keys["p256dh"], keys["auth"])
    if language:
        Profile.objects.update_or_create(user=user, defaults={"language": language})
    return device


def settle() -> None:
    """Wait for the background thread's pushes (the service answers before they return)."""
    background.wait()


def test_a_friend_request_is_pushed_encrypted_in_the_players_language_from_the_background(
    service, client
):
    ana, bob = make_players(2)
    subscribed(service, bob, language="bg")
    threads = []
    real_send = push.send
    push.send = lambda *args: threads.append(threading.current_thread().name) or real_send(*args)
    try:
        client.force_login(ana)
        client.post(reverse("friend_request"), {"username": bob.username})
        settle()
    finally:
        push.send = real_send
    [payload] = service.to(bob.username)
    assert payload["body"] == "player0 иска да ти е приятел."
    assert payload["title"] == "Cardroom"
    assert payload["url"] == reverse("notifications")
    assert payload["tag"].startswith("friend_request-")
    assert threads == ["cardroom-background"]  # never in the request
    [message] = service.received
    assert message.headers["ttl"] == str(push.TTL_SECONDS)
    assert message.headers["topic"] == payload["tag"]


def test_an_invitation_is_pushed_in_english_by_default(service, client):
    ana, bob = make_players(2)
    friends.request_friend(ana, bob.username)
    friends.answer_request(bob, bob.friendship_requests_received.get().pk, True)
    subscribed(service, bob)
    table = seated_table([ana])
    client.force_login(ana)
    client.post(reverse("invite_friend", args=[table.code]), {"username": bob.username})
    settle()
    bodies = [payload["body"] for payload in service.to(bob.username)]
    assert bodies == ["player0 invites you to a Belote table."]


def test_kinds_the_player_did_not_choose_and_players_with_a_page_open_get_nothing(service):
    ana, bob, cid = make_players(3)
    subscribed(service, bob)
    subscribed(service, cid)
    PushChoices.objects.create(user=bob, friend_request=False)
    place = online.claim_socket(cid.pk, "channel-of-cid")  # cid has a page open
    friends.request_friend(ana, bob.username)
    friends.request_friend(ana, cid.username)
    for user in (bob, cid):
        request = user.friendship_requests_received.get()
        push.offer([Notice(user.pk, "friend_request", request.pk)])
    settle()
    assert service.received == []
    online.release_socket(place, "channel-of-cid")
    push.offer([Notice(cid.pk, "friend_request", cid.friendship_requests_received.get().pk)])
    settle()
    assert [p["body"] for p in service.to(cid.username)] == ["player0 wants to be your friend."]


def test_one_push_per_kind_and_table_until_the_player_comes_back(service):
    users = make_players(4)
    table = seated_table(users)
    Table.objects.filter(pk=table.pk).update(turn_seconds=30)
    matches.start_match(table.pk, users[0])
    subscribed(service, users[1], name="phone")
    subscribed(service, users[1], name="laptop")
    other = seated_table(users)
    matches.start_match(other.pk, users[0])
    turn = Notice(users[1].pk, "turn", table.pk, table.code)
    for _ in range(3):
        push.offer([turn])
        settle()
    push.offer([Notice(users[1].pk, "turn", other.pk, other.code)])
    settle()
    # One for each table, on each of the player's devices.
    assert len(service.to("phone")) == len(service.to("laptop")) == 2
    push.came_back(users[1].pk)
    push.offer([turn])
    settle()
    assert len(service.to("phone")) == 3
    assert service.to("phone")[-1]["url"] == table.get_absolute_url()


def test_a_move_that_puts_an_away_player_on_turn_at_a_table_with_a_clock_pushes_them(service):
    users = make_players(4)
    devices = {user.pk: subscribed(service, user) for user in users}
    table = seated_table(users)
    Table.objects.filter(pk=table.pk).update(turn_seconds=30)
    matches.start_match(table.pk, users[0])
    engine = get_game("belote").engine

    def move() -> int:
        """The player on turn makes a legal move; the user on turn next."""
        match = match_of(table)
        state = engine.loads(match.state)
        mover = users[state.to_act]
        action = engine.legal_actions(state, state.to_act)[0]
        async_to_sync(moves.move)(table.pk, mover, action, match.version)
        settle()
        return users[engine.loads(match_of(table).state).to_act].pk

    on_turn = move()
    pushed = {name for name in service.devices if service.to(name)}
    assert pushed == {devices[on_turn].name}
    assert service.to(devices[on_turn].name)[0]["body"] == "Your turn at the Belote table."
    # Without a clock, no turn is pushed.
    quiet = seated_table(users)
    matches.start_match(quiet.pk, users[0])
    before = len(service.received)
    table = quiet
    move()
    assert len(service.received) == before


def test_a_device_its_push_service_forgot_is_deleted(service):
    ana, bob = make_players(2)
    subscribed(service, bob, name="gone")
    subscribed(service, bob, name="unknown")
    subscribed(service, bob, name="busy")
    service.answers.update(gone=410, unknown=404, busy=503)
    friends.request_friend(ana, bob.username)
    push.offer([Notice(bob.pk, "friend_request", bob.friendship_requests_received.get().pk)])
    settle()
    [kept] = PushSubscription.objects.filter(user=bob)
    assert kept.endpoint.endswith("/busy")  # a passing fault keeps the device


def test_a_blocked_players_request_and_invitation_push_nothing(service, client):
    ana, bob, cid = make_players(3)
    subscribed(service, bob)
    friends.block(bob, ana.username)
    client.force_login(ana)
    client.post(reverse("friend_request"), {"username": bob.username})
    table = seated_table([ana])
    client.post(reverse("invite_friend", args=[table.code]), {"username": bob.username})
    settle()
    assert service.received == []
    # A request sent before the block is not pushed after it either.
    subscribed(service, cid)
    friends.request_friend(ana, cid.username)
    request = cid.friendship_requests_received.get()
    friends.block(cid, ana.username)
    push.offer([Notice(cid.pk, "friend_request", request.pk)])
    settle()
    assert service.received == []


def test_the_daily_is_pushed_once_a_day_to_those_who_chose_it(service):
    ana, bob = make_players(2)
    subscribed(service, ana)
    subscribed(service, bob)
    PushChoices.objects.create(user=ana, daily=True)
    assert push.deliver_daily(date(2026, 12, 7)) == 1
    push.came_back(ana.pk)
    assert push.deliver_daily(date(2026, 12, 7)) == 0
    assert push.deliver_daily(date(2026, 12, 8)) == 1
    assert [p["body"] for p in service.to(ana.username)] == ["Today's daily Belote is open."] * 2


def test_the_settings_page_keeps_choices_and_this_devices_subscription(service, client):
    ana, bob = make_players(2)
    client.force_login(bob)
    page = client.get(reverse("push_settings")).content.decode()
    assert push.keys().public in page and "Turn on notifications on this device" in page
    client.post(reverse("push_settings"), {"turn": "on", "event": "on"})
    choices = PushChoices.objects.get(user=bob)
    assert (choices.turn, choices.invitation, choices.friend_request, choices.event) == (
        True,
        False,
        False,
        True,
    )
    device = service.device("bob")
    post = lambda url, data: client.post(url, json.dumps(data), content_type="application/json")  # noqa: E731
    for bad in (
        {},
        {**device.json(), "endpoint": "javascript:alert(1)"},
        {**device.json(), "keys": {"p256dh": "x", "auth": device.json()["keys"]["auth"]}},
        {**device.json(), "keys": {"p256dh": device.p256dh, "auth": "short"}},
    ):
        assert post(reverse("push_subscribe"), bad).status_code == 400
    assert not PushSubscription.objects.exists()
    assert post(reverse("push_subscribe"), device.json()).json() == {"devices": 1}
    PushChoices.objects.filter(user=bob).update(friend_request=True)
    friends.request_friend(ana, bob.username)
    request = bob.friendship_requests_received.get()
    push.offer([Notice(bob.pk, "friend_request", request.pk)])
    settle()
    assert len(service.to("bob")) == 1
    # Turned off on the device: the server forgets it, and nothing more is sent.
    assert post(reverse("push_unsubscribe"), {"endpoint": device.endpoint}).json() == {"devices": 0}
    push.offer([Notice(bob.pk, "friend_request", request.pk)])
    settle()
    assert len(service.to("bob")) == 1


def test_without_keys_push_is_off_outside_development(settings, client):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_DEVELOPMENT_KEYS = ""  # as settings.py leaves it when DEBUG is off
    [bob] = make_players(1)
    client.force_login(bob)
    page = client.get(reverse("push_settings"), secure=True).content.decode()
    assert "Notifications to devices are off on this site." in page
    assert "push-on" not in page
    answer = client.post(
        reverse("push_subscribe"), "{}", content_type="application/json", secure=True
    )
    assert answer.status_code == 409
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = push.new_key_pair()
    assert push.keys().public == settings.VAPID_PUBLIC_KEY


def test_the_command_pushes_a_cups_reminder_and_the_daily_before_it_ends(service):
    staff, ana, bob = make_players(3)
    cup = new_cup(make_staff(staff), starts_in=timedelta(minutes=9, seconds=30))
    running.answer_request(running.register(cup, ana, bob.username).pk, bob, True)
    subscribed(service, ana, language="ru")
    subscribed(service, bob)
    PushChoices.objects.create(user=bob, event=False, daily=True)
    waited = []
    real_wait = background.wait
    background.wait = lambda: waited.append(True) or real_wait()
    try:
        call_command("start_due_events", stdout=StringIO())
    finally:
        background.wait = real_wait
    assert waited  # the command waits for its pushes
    [reminder] = service.to(ana.username)
    assert reminder["body"] == "Sunday cup начинается через 10 минут."
    assert reminder["url"] == cup.get_absolute_url()
    assert [p["body"] for p in service.to(bob.username)] == ["Today's daily Belote is open."]


def test_moderators_see_a_devices_player_and_service_never_its_endpoint_or_keys(service, client):
    staff, bob = make_players(2)
    subscribed(service, bob)
    [device] = PushSubscription.objects.all()
    client.force_login(make_staff(staff))
    changelist = reverse("admin:games_pushsubscription_changelist")
    for url in (changelist, reverse("admin:games_pushsubscription_change", args=[device.pk])):
        page = client.get(url).content.decode()
        assert bob.username in page and device.host in page
        assert "/push/" not in page and device.p256dh not in page and device.auth not in page
    # Nor can the list be filtered to probe a key or the endpoint.
    for lookup, value in (("auth__startswith", device.auth[:4]), ("endpoint__contains", "/push/")):
        probe = client.get(changelist, {lookup: value})
        assert probe.status_code == 400
