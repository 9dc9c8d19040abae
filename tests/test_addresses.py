"""E-mail addresses: invitations are mailed only to an address its owner confirmed by the link
sent to it; a link for an address the account no longer has confirms nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from friendship.models import FriendshipRequest

from games.models import Profile
from games.people import addresses, friends
from games.tables import rows, seating

from .factories import OPTIONS, make_players

pytestmark = pytest.mark.django_db

CHOICES = {"requests_from": "everyone", "invitations_from": "friends", "online_to": "friends"}


def befriend(one, other) -> None:
    friends.request_friend(one, other.username)
    friends.answer_request(other, FriendshipRequest.objects.get(to_user=other).pk, True)


def invite(client, inviter, friend) -> None:
    """``inviter`` opens a table and invites ``friend`` to it, through the page."""
    table = rows.create_table(inviter, "belote", OPTIONS, is_private=True)
    seating.take_seat(table.pk, inviter, 0)
    client.force_login(inviter)
    answer = client.post(reverse("invite_friend", args=[table.code]), {"username": friend})
    assert "Invitation sent" in answer.content.decode()


def save_address(client, user, email: str) -> None:
    client.force_login(user)
    choices = {**CHOICES, "email_invitations": "on", "email": email}
    assert client.post(reverse("friend_choices"), choices).status_code == 302


def confirmed(user) -> str:
    user.refresh_from_db()
    return addresses.confirmed_address(user)


def link_in(mail) -> str:
    return re.search(r"https?://\S+", mail.body)[0]


def test_invitations_are_mailed_only_once_the_address_is_confirmed(client, mailoutbox):
    ana, eve = make_players(2)
    befriend(ana, eve)
    # Eve saves somebody else's address and asks for her invitations by mail.
    save_address(client, eve, "bob@example.org")
    [confirmation] = mailoutbox
    assert confirmation.to == ["bob@example.org"]
    page = client.get(reverse("friends")).content.decode()
    assert "bob@example.org is not confirmed" in page
    invite(client, ana, eve)
    assert mailoutbox == [confirmation]  # no invitation to an unconfirmed address
    # Whoever holds the mailbox opens the link (signed out), and confirms by its button.
    client.logout()
    url = link_in(confirmation)
    page = client.get(url).content.decode()
    assert "bob@example.org" in page and "Confirm the address" in page
    assert Profile.objects.get(user=eve).confirmed_email == ""  # opening it is not enough
    client.post(url)
    assert confirmed(eve) == "bob@example.org"
    invite(client, ana, eve)
    [_, invitation] = mailoutbox
    assert invitation.to == ["bob@example.org"] and "invites you" in invitation.subject
    client.force_login(eve)
    assert "bob@example.org is confirmed" in client.get(reverse("friends")).content.decode()


def test_an_address_saved_before_confirmations_existed_gets_no_invitation(client, mailoutbox):
    ana, bob = make_players(2)
    befriend(ana, bob)
    bob.email = "bob@example.org"
    bob.save()
    Profile.objects.create(user=bob, email_invitations=True)
    invite(client, ana, bob)
    assert mailoutbox == []


def test_a_link_for_an_address_the_account_no_longer_has_confirms_nothing(client, mailoutbox):
    bob = make_players(1)[0]
    save_address(client, bob, "old@example.org")
    save_address(client, bob, "new@example.org")
    old, new = (link_in(mail) for mail in mailoutbox)
    answer = client.post(old)
    assert answer.status_code == 400
    assert "no longer has" in answer.content.decode()
    assert confirmed(bob) == ""
    assert client.post(old[:-3] + "xyz/").status_code == 400  # tampered with
    client.post(new)
    assert confirmed(bob) == "new@example.org"
    # Changing the address again leaves the new one unconfirmed.
    save_address(client, bob, "other@example.org")
    assert confirmed(bob) == ""
    assert client.post(new).status_code == 400


def test_an_old_link_confirms_nothing(client, mailoutbox, monkeypatch):
    bob = make_players(1)[0]
    save_address(client, bob, "bob@example.org")
    monkeypatch.setattr(addresses, "MAX_AGE", -1)
    answer = client.post(link_in(mailoutbox[0]))
    assert "too old" in answer.content.decode()
    assert confirmed(bob) == ""


def test_the_link_is_sent_again_a_few_times_an_hour(client, mailoutbox, settings):
    settings.EMAIL_CONFIRMATIONS_PER_HOUR = 2
    bob = make_players(1)[0]
    save_address(client, bob, "bob@example.org")
    client.post(reverse("resend_confirmation"))
    answer = client.post(reverse("resend_confirmation"), follow=True)
    assert "ask for another one later" in answer.content.decode()
    assert len(mailoutbox) == 2
    client.post(link_in(mailoutbox[1]))
    answer = client.post(reverse("resend_confirmation"), follow=True)
    assert "confirmed already" in answer.content.decode()
