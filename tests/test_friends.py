"""Friends and invitations: what a player may do, and every refusal changing nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from friendship.models import Block, Friend, FriendshipRequest

from games.live import presence
from games.models import Club, Invitation, Profile, Seat, Table
from games.people import clubs, friends, online
from games.people.friends import FriendError
from games.tables import chat, invitations, rows, seating
from games.tables.rows import TableError

from .factories import OPTIONS, make_players

pytestmark = pytest.mark.django_db


def befriend(one, other) -> None:
    friends.request_friend(one, other.username)
    friends.answer_request(other, FriendshipRequest.objects.get(to_user=other).pk, True)


def test_a_request_accepted_makes_friends_both_ways():
    ana, bob = make_players(2)
    assert "sent" in friends.request_friend(ana, "PLAYER1")  # any case
    request = FriendshipRequest.objects.get()
    assert friends.answer_request(bob, request.pk, True)
    assert friends.are_friends(ana, bob) and friends.are_friends(bob, ana)
    assert [f.username for f in friends.friends_of(ana)] == ["player1"]
    friends.remove_friend(bob, ana.username)
    assert not Friend.objects.exists()


def test_asking_someone_who_asked_first_makes_friends():
    ana, bob = make_players(2)
    friends.request_friend(ana, bob.username)
    assert "friends now" in friends.request_friend(bob, ana.username)
    assert friends.are_friends(ana, bob) and not FriendshipRequest.objects.exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("player0", "your own friend"),
        ("nobody", "no player called"),
        ("banned", "no player called"),
    ],
)
def test_bad_requests_are_refused_and_change_nothing(name, message):
    ana, banned = make_players(2)
    banned.username, banned.is_active = "banned", False
    banned.save()
    with pytest.raises(FriendError, match=message):
        friends.request_friend(ana, name)
    assert not FriendshipRequest.objects.exists()


def test_a_duplicate_request_a_player_who_takes_none_and_a_block_are_refused():
    ana, bob, cid = make_players(3)
    friends.request_friend(ana, bob.username)
    with pytest.raises(FriendError, match="waiting already"):
        friends.request_friend(ana, bob.username)
    Profile.objects.create(user=cid, requests_from=Profile.Audience.NOBODY)
    with pytest.raises(FriendError, match="does not take friend requests"):
        friends.request_friend(ana, cid.username)
    friends.block(bob, ana.username)
    assert not FriendshipRequest.objects.exists()  # what waited between them is gone
    with pytest.raises(FriendError, match="cannot send"):
        friends.request_friend(ana, bob.username)
    with pytest.raises(FriendError, match="cannot send"):
        friends.request_friend(bob, ana.username)


def test_requests_have_an_hourly_limit(settings):
    settings.FRIEND_REQUESTS_PER_HOUR = 1
    ana, bob, cid = make_players(3)
    friends.request_friend(ana, bob.username)
    with pytest.raises(FriendError, match="many friend requests"):
        friends.request_friend(ana, cid.username)
    assert FriendshipRequest.objects.count() == 1


def waiting_table(owner) -> Table:
    table = rows.create_table(owner, "belote", OPTIONS, is_private=True)
    seating.take_seat(table.pk, owner, 0)
    return table


def test_an_invitation_accepted_seats_the_friend_at_the_seat_kept():
    ana, bob = make_players(2)
    befriend(ana, bob)
    table = waiting_table(ana)
    invitation = invitations.invite(table.pk, ana, bob.username, seat=2)
    assert [w.invitation for w in invitations.waiting_for(bob)] == [invitation]
    answered, why = invitations.answer(invitation.pk, bob, True)
    assert why == "" and answered.status == Invitation.Status.ACCEPTED
    assert Seat.objects.get(table=table, index=2).user == bob
    with pytest.raises(TableError, match="no longer waiting"):
        invitations.answer(invitation.pk, bob, False)


def test_an_invitation_to_a_table_that_filled_says_so():
    players = make_players(5)
    ana, bob = players[0], players[4]
    befriend(ana, bob)
    table = waiting_table(ana)
    invitation = invitations.invite(table.pk, ana, bob.username)
    for index, other in enumerate(players[1:4], start=1):
        seating.take_seat(table.pk, other, index)
    _invitation, why = invitations.answer(invitation.pk, bob, True)
    assert "Every seat" in why
    assert not Seat.objects.filter(table=table, user=bob).exists()


def test_who_may_invite_follows_the_friends_choice_and_blocks():
    ana, bob, cid = make_players(3)
    table = waiting_table(ana)
    with pytest.raises(TableError, match="does not take invitations"):
        invitations.invite(table.pk, ana, bob.username)  # not friends: friends only by default
    Profile.objects.create(user=cid, invitations_from=Profile.Audience.EVERYONE)
    invitations.invite(table.pk, ana, cid.username)
    with pytest.raises(TableError, match="has an invitation"):
        invitations.invite(table.pk, ana, cid.username)
    friends.block(cid, ana.username)
    assert not Invitation.objects.filter(status=Invitation.Status.PENDING).exists()
    with pytest.raises(TableError, match="does not take invitations"):
        invitations.invite(table.pk, ana, cid.username)
    with pytest.raises(TableError, match="no player called"):
        invitations.invite(table.pk, ana, "nobody")


def test_a_blocked_player_cannot_sit_at_a_private_table():
    ana, bob = make_players(2)
    table = waiting_table(ana)
    friends.block(ana, bob.username)
    with pytest.raises(TableError, match="cannot sit"):
        seating.take_seat(table.pk, bob, 1)
    assert Block.objects.count() == 1
    friends.unblock(ana, bob.username)
    assert seating.take_seat(table.pk, bob, 1)


def test_a_blocked_player_can_neither_open_watch_chat_at_nor_be_invited_to_a_private_table(
    client,
):
    ana, bob, cid, dan = make_players(4)
    table = waiting_table(ana)
    seating.take_seat(table.pk, dan, 2)  # sits down before Ana blocks him
    public = rows.create_table(ana, "belote", OPTIONS, is_private=False)
    befriend(cid, bob)
    seating.take_seat(table.pk, cid, 1)
    friends.block(ana, bob.username)
    friends.block(ana, dan.username)
    client.force_login(bob)
    assert client.get(table.get_absolute_url()).status_code == 404
    assert presence.join(table.code, bob, "bob-socket") is None
    with pytest.raises(TableError, match="cannot chat"):
        chat.post_message(table.pk, bob, "hello")
    with pytest.raises(TableError, match="player1 cannot sit at this private table"):
        invitations.invite(table.pk, cid, bob.username)
    assert not Invitation.objects.exists()
    # A public table of hers opens to him; a player seated before the block keeps his seat's.
    assert client.get(public.get_absolute_url()).status_code == 200
    assert presence.join(table.code, dan, "dan-socket") == table.pk
    friends.unblock(ana, bob.username)
    assert client.get(table.get_absolute_url()).status_code == 200
    assert presence.join(table.code, bob, "bob-socket") == table.pk


def test_only_players_at_a_table_invite_and_only_while_it_waits():
    ana, bob, cid = make_players(3)
    befriend(ana, bob)
    befriend(cid, bob)
    table = waiting_table(ana)
    with pytest.raises(TableError, match="Only the players"):
        invitations.invite(table.pk, cid, bob.username)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    with pytest.raises(TableError, match="has started"):
        invitations.invite(table.pk, ana, bob.username)


def test_friends_shown_online_follow_their_choice(client):
    ana, bob = make_players(2)
    befriend(ana, bob)
    Profile.objects.create(user=bob, online_to=Profile.Audience.NOBODY)
    _page, [row] = friends.friend_rows(ana)
    assert row.online is None and row.tables == []
    client.force_login(ana)
    page = client.get(reverse("friends")).content.decode()
    assert "does not show when online" in page and "player1" in page


def test_a_player_with_a_page_open_is_online_to_friends_and_club_members_alike():
    ana, bob = make_players(2)
    befriend(ana, bob)
    club = clubs.create_club(ana, "Online", "", ["belote"], Club.Access.OPEN)
    clubs.join(club, bob)

    def seen_online() -> tuple[bool | None, bool | None]:
        """Whether ana sees bob online on her friends page and on the club's page."""
        _page, [row] = friends.friend_rows(ana)
        members = dict(clubs.members_page(club, ana)["members"])
        return row.online, next(up for m, up in members.items() if m.user_id == bob.pk)

    assert online.online([ana.pk, bob.pk]) == set() and seen_online() == (False, False)
    place = online.claim_socket(bob.pk, "bob's lobby")
    assert online.online([ana.pk, bob.pk]) == {bob.pk} and seen_online() == (True, True)
    online.release_socket(place, "bob's lobby")
    assert seen_online() == (False, False)


def test_the_pages_answer_and_refuse_by_post_only(client):
    ana, bob = make_players(2)
    client.force_login(ana)
    assert client.get(reverse("friend_request")).status_code == 405
    response = client.post(reverse("friend_request"), {"username": "player0"}, follow=True)
    assert "your own friend" in response.content.decode()
    client.post(reverse("friend_request"), {"username": bob.username})
    assert FriendshipRequest.objects.filter(from_user=ana, to_user=bob).exists()
    client.force_login(bob)
    page = client.get(reverse("notifications")).content.decode()
    assert "player0" in page
    request = FriendshipRequest.objects.get()
    client.post(reverse("answer_friend_request", args=[request.pk, "accept"]))
    assert friends.are_friends(ana, bob)


def test_an_invitation_is_mailed_to_a_friend_who_chose_so_in_their_language(client, mailoutbox):
    ana, bob, cid = make_players(3)
    befriend(ana, bob)
    befriend(ana, cid)
    table = waiting_table(ana)
    client.force_login(bob)
    refused = client.post(reverse("friend_choices"), {**CHOICES, "email_invitations": "on"})
    assert refused.status_code == 302 and not Profile.objects.filter(user=bob).exists()
    client.post(
        reverse("friend_choices"),
        {**CHOICES, "email_invitations": "on", "email": "bob@example.org"},
    )
    [link] = mailoutbox  # the address's confirmation link
    client.post(re.search(r"https?://\S+", link.body)[0])
    mailoutbox.clear()
    Profile.objects.filter(user=bob).update(language="bg")
    client.force_login(ana)
    for friend in (bob, cid):  # cid did not ask for mail
        answer = client.post(reverse("invite_friend", args=[table.code]), {"username": friend})
        assert "Invitation sent" in answer.content.decode()
    [mail] = mailoutbox
    assert mail.to == ["bob@example.org"]
    assert mail.subject == "player0 те кани на маса за Белот."
    assert table.get_absolute_url() in mail.body


CHOICES = {"requests_from": "everyone", "invitations_from": "friends", "online_to": "friends"}


def test_the_invite_landing_names_only_who_owns_sits_at_or_invited_to_the_table(client):
    host, seated, gone, invited, stranger = make_players(5)
    for friend in (seated, gone):
        befriend(host, friend)
    befriend(gone, invited)
    table = waiting_table(host)
    seating.take_seat(table.pk, seated, 1)
    seating.take_seat(table.pk, gone, 2)
    invitations.invite(table.pk, gone, invited.username)
    seating.leave_seat(table.pk, gone)  # they invited to the table, then left it

    def named(sender) -> str:
        page = client.get(table.get_absolute_url(), {"from": sender.username}).content.decode()
        return page.split(" invites you to a Belote table")[0].rsplit(">", 1)[-1]

    assert named(stranger) == host.username  # anyone may be put in a link: not named
    for sender in (host, seated, gone):
        assert named(sender) == sender.username
    # A logged-in visitor is not told that a stranger sent them either.
    client.force_login(invited)
    page = client.get(table.get_absolute_url(), {"from": stranger.username}).content.decode()
    assert "sent you here" not in page
    page = client.get(table.get_absolute_url(), {"from": seated.username}).content.decode()
    assert f"{seated.username} sent you here" in page


def test_inviting_a_non_member_to_a_club_table_is_refused_at_once(client):
    ana, bob = make_players(2)
    befriend(ana, bob)
    club = clubs.create_club(ana, "Tuesday Belote", "", ["belote"], Club.Access.OPEN)
    table = rows.create_table(ana, "belote", OPTIONS, is_private=True, club=club)
    seating.take_seat(table.pk, ana, 0)
    client.force_login(ana)
    answer = client.post(reverse("invite_friend", args=[table.code]), {"username": bob.username})
    assert answer.content.decode() == "player1 is not a member of this club."
    assert not Invitation.objects.exists()
    clubs.join(club, bob)
    invitation = invitations.invite(table.pk, ana, bob.username)
    assert invitations.answer(invitation.pk, bob, True)[1] == ""
    assert Seat.objects.get(table=table, user=bob)


def test_a_posted_name_is_cut_to_a_username_s_length_and_a_name_no_account_has_is_refused(client):
    ana, _bob = make_players(2)
    client.force_login(ana)
    page = client.post(reverse("block"), {"username": "x" * 200}, follow=True).content.decode()
    assert f"There is no player called {'x' * 150}." in page
    answer = client.post(reverse("block"), {"username": "player1\x00"}, follow=True)
    assert "There is no player called ." in answer.content.decode()  # a message, not a 500
    assert not Block.objects.exists()
