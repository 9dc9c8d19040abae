"""Clubs: joining by the club's rule, what admins may do, tables for members only, standings
among members; every refusal changes nothing."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games.admin import ClubForm
from games.live.consumers import CLOSE_NOT_FOUND
from games.models import ChatMessage, Club, Match, Membership, Table
from games.people import access, clubs
from games.people.clubs import ClubError
from games.people.text import skeleton
from games.tables import matches, rows, seating
from games.tables.rows import TableError

from .factories import OPTIONS, finish_match, make_players
from .live import FRAME_TIMEOUT, close_code, connect, live_test, open_socket, receive_until, send

pytestmark = pytest.mark.django_db


def club_of(founder, access=Club.Access.OPEN) -> Club:
    return clubs.create_club(founder, "Tuesday Belote", "", ["belote"], access)


def test_the_founder_is_the_first_admin_and_names_are_unique():
    ana, bob = make_players(2)
    club = club_of(ana)
    assert clubs.is_admin(club, ana) and clubs.clubs_of(ana) == [club]
    with pytest.raises(ClubError, match="already"):
        clubs.create_club(bob, "tuesday belote", "", ["belote"], Club.Access.OPEN)


@pytest.mark.parametrize(
    ("rule", "member", "said"),
    [
        (Club.Access.OPEN, True, "Welcome"),
        (Club.Access.REQUEST, False, "request was sent"),
    ],
)
def test_joining_follows_the_clubs_rule(rule, member, said):
    ana, bob = make_players(2)
    club = club_of(ana, rule)
    assert said in clubs.join(club, bob)
    assert access.is_member(club, bob) is member
    if not member:
        assert "member now" in clubs.manage(club, ana, bob.username, "accept")
        assert access.is_member(club, bob)


def test_a_club_by_invitation_takes_only_the_invited():
    ana, bob, cid = make_players(3)
    club = club_of(ana, Club.Access.INVITATION)
    with pytest.raises(ClubError, match="invitation only"):
        clubs.join(club, bob)
    clubs.invite(club, ana, cid.username)
    assert not access.is_member(club, cid)
    clubs.join(club, cid)
    assert access.is_member(club, cid)
    with pytest.raises(ClubError, match="Only the club's admins"):
        clubs.invite(club, cid, bob.username)


def test_a_banned_member_cannot_come_back_and_a_banned_account_has_no_rights():
    ana, bob, cid = make_players(3)
    club = club_of(ana)
    clubs.join(club, bob)
    clubs.manage(club, ana, bob.username, "ban")
    with pytest.raises(ClubError, match="removed you"):
        clubs.join(club, bob)
    clubs.join(club, cid)
    clubs.manage(club, ana, cid.username, "admin")
    cid.is_active = False  # the site banned the account
    cid.save()
    assert not clubs.is_admin(club, cid) and not access.is_member(club, cid)
    with pytest.raises(ClubError, match="Only the club's admins"):
        clubs.announce(club, cid, "hello")


def test_the_last_admin_cannot_leave_members_behind():
    ana, bob = make_players(2)
    club = club_of(ana)
    clubs.join(club, bob)
    with pytest.raises(ClubError, match="another member an admin"):
        clubs.leave(club, ana)
    clubs.manage(club, ana, bob.username, "admin")
    clubs.leave(club, ana)
    assert not Membership.objects.filter(club=club, user=ana).exists()
    club.refresh_from_db()
    assert club.created_by == bob  # the founder who leaves hands the club over


def test_no_other_admin_removes_or_bans_the_clubs_owner():
    ana, bob, cid = make_players(3)
    club = club_of(ana)
    for player in (bob, cid):
        clubs.join(club, player)
        clubs.manage(club, ana, player.username, "admin")
    for action in ("remove", "ban"):
        with pytest.raises(ClubError, match="cannot remove or ban its owner"):
            clubs.manage(club, bob, ana.username, action)
    mine = Membership.objects.get(club=club, user=ana)
    assert (mine.status, mine.role) == (Membership.Status.ACTIVE, Membership.Role.ADMIN)
    club.refresh_from_db()
    assert club.created_by == ana
    # Only the owner hands the club over, and only to another admin.
    with pytest.raises(ClubError, match="Only the club's owner"):
        clubs.hand_over(club, bob, bob.username)
    clubs.manage(club, ana, cid.username, "ban")
    with pytest.raises(ClubError, match="another of its admins"):
        clubs.hand_over(club, ana, cid.username)
    assert "owns the club now" in clubs.hand_over(club, ana, bob.username)
    club.refresh_from_db()
    assert club.created_by == bob
    # Now the former owner is one admin among others.
    with pytest.raises(ClubError, match="cannot remove or ban its owner"):
        clubs.manage(club, ana, bob.username, "ban")
    assert "banned" in clubs.manage(club, bob, ana.username, "ban")


def test_the_club_page_keeps_the_owner_from_other_admins(client):
    ana, bob = make_players(2)
    club = club_of(ana)
    clubs.join(club, bob)
    clubs.manage(club, ana, bob.username, "admin")
    client.force_login(bob)
    page = client.get(club.get_absolute_url()).content.decode()
    assert 'value="player0"' not in page  # no Remove or Ban for the owner
    for action in ("remove", "ban"):
        answer = client.post(
            reverse("manage_club", args=[club.pk]),
            {"username": ana.username, "action": action},
            follow=True,
        )
        assert "cannot remove or ban its owner" in answer.content.decode()
    assert clubs.is_admin(club, ana)
    assert client.post(reverse("hand_over_club", args=[club.pk]), {"username": "player1"})
    club.refresh_from_db()
    assert club.created_by == ana
    client.force_login(ana)
    page = client.get(club.get_absolute_url()).content.decode()
    assert "Hand the club over to" in page and '<option value="player1">' in page
    client.post(reverse("hand_over_club", args=[club.pk]), {"username": "player1"})
    club.refresh_from_db()
    assert club.created_by == bob


@pytest.mark.parametrize(
    "name",
    [
        "Red \u0421lub",  # a Cyrillic Es for the Latin C
        "Red \u202ebulC",  # a right-to-left override
        "\u200b",  # nothing but a zero-width space
        "Red\u200bClub",
    ],
)
def test_a_club_name_that_looks_like_another_or_hides_characters_is_refused(client, name):
    ana, bob = make_players(2)
    clubs.create_club(ana, "Red Club", "", ["belote"], Club.Access.OPEN)
    with pytest.raises(ClubError):
        clubs.create_club(bob, name, "", ["belote"], Club.Access.OPEN)
    client.force_login(bob)
    answer = client.post(reverse("new_club"), {"name": name, "games": ["belote"], "access": "open"})
    assert answer.status_code == 400
    assert Club.objects.count() == 1


def test_club_names_are_checked_as_usernames_are():
    ana = make_players(1)[0]
    clubs.create_club(ana, "Red Club", "", ["belote"], Club.Access.OPEN)
    with pytest.raises(ClubError, match="looks like another club's name"):
        clubs.checked_name("RED C1UB")  # a one for an L
    with pytest.raises(ClubError, match="different alphabets"):
        clubs.checked_name("Blue \u0421lub")
    with pytest.raises(ClubError, match="invisible characters"):
        clubs.checked_name("Blue\u2066Club")
    assert clubs.checked_name("  Червен клуб ") == "Червен клуб"
    # A moderator renaming a club in the admin meets the same checks.
    blue = clubs.create_club(ana, "Blue Club", "", ["belote"], Club.Access.OPEN)
    form = ClubForm(
        {"name": "Red C1ub", "games": '["belote"]', "access": "open", "created_by": ana.pk},
        instance=blue,
    )
    assert not form.is_valid() and "looks like" in str(form.errors["name"])


def test_only_members_sit_at_a_club_table():
    ana, bob = make_players(2)
    club = club_of(ana)
    table = rows.create_table(ana, "belote", OPTIONS, is_private=False, club=club)
    assert table.is_private  # a club's table is its members' only
    with pytest.raises(TableError, match="club's members"):
        seating.take_seat(table.pk, bob, 1)
    clubs.join(club, bob)
    assert seating.take_seat(table.pk, bob, 1)


def test_standings_count_finished_matches_at_club_tables_by_player_and_partnership():
    users = make_players(5)
    club = club_of(users[0])
    for user in users[1:]:
        clubs.join(club, user)
    table = rows.create_table(users[0], "belote", OPTIONS, is_private=True, club=club)
    for index, user in enumerate(users[1:4], start=1):
        seating.take_seat(table.pk, user, index)
    matches.start_match(table.pk, users[0])
    finish_match(table, users[:4])
    winner = Match.objects.get(table=table).result["winner"]
    [belote] = clubs.standings(club)
    lines = {line.name: (line.played, line.won) for line in belote.players}
    assert lines["player0"] == (1, 1 if winner == 0 else 0)
    assert "player4" not in lines  # did not play
    pairs = {line.name: line.won for line in belote.pairs}
    assert pairs == {"player0 & player2": int(winner == 0), "player1 & player3": int(winner == 1)}


def test_the_pages(client):
    ana, bob = make_players(2)
    client.force_login(ana)
    response = client.post(
        reverse("new_club"), {"name": "Fridays", "games": ["belote"], "access": "open"}
    )
    club = Club.objects.get()
    assert response.url == club.get_absolute_url()
    client.post(reverse("announce_in_club", args=[club.pk]), {"text": "Friday at eight!"})
    client.post(reverse("new_club_table", args=[club.pk]), {"game": "belote"})
    assert Table.objects.get().club == club
    client.force_login(bob)
    page = client.get(club.get_absolute_url()).content.decode()
    assert "Friday at eight!" in page and "Join the club" in page
    assert "Open a club table" not in page  # not a member: no tables shown
    client.post(reverse("join_club", args=[club.pk]))
    page = client.get(club.get_absolute_url()).content.decode()
    assert "Open a club table" in page and Table.objects.get().get_absolute_url() in page
    assert client.post(reverse("new_club_table", args=[club.pk]), {"game": "chess"}).status_code
    assert Table.objects.count() == 1
    Club.objects.update(hidden=True)
    assert client.get(club.get_absolute_url()).status_code == 404


def test_the_invite_link_lets_anyone_in_until_an_admin_makes_a_new_one(client):
    ana, bob, cid, eve = make_players(4)
    club = club_of(ana, Club.Access.INVITATION)
    with pytest.raises(ClubError, match="invitation only"):
        clubs.join(club, bob, "not-the-code")
    assert "Welcome" in clubs.join(club, bob, club.invite_code)
    assert access.is_member(club, bob)
    # A banned player cannot come back through the link.
    clubs.join(club, eve, club.invite_code)
    clubs.manage(club, ana, eve.username, "ban")
    with pytest.raises(ClubError, match="removed you"):
        clubs.join(club, eve, club.invite_code)
    with pytest.raises(ClubError, match="Only the club's admins"):
        clubs.new_invite_link(club, bob)
    old = club.invite_code
    clubs.new_invite_link(club, ana)
    club.refresh_from_db()
    assert club.invite_code != old
    with pytest.raises(ClubError, match="invitation only"):
        clubs.join(club, cid, old)
    # Through the pages: the link's page offers "Join the club" and the form carries the code.
    client.force_login(cid)
    page = client.get(club.get_absolute_url(), {"invite": club.invite_code}).content.decode()
    assert "Join the club" in page and club.invite_code in page
    client.post(reverse("join_club", args=[club.pk]), {"invite": club.invite_code})
    assert access.is_member(club, cid)
    client.force_login(bob)
    assert club.invite_code not in client.get(club.get_absolute_url()).content.decode()


def test_only_members_open_a_club_tables_page_or_its_chat(client):
    ana, bob = make_players(2)
    club = club_of(ana)
    table = rows.create_table(ana, "belote", OPTIONS, is_private=True, club=club)
    line = ChatMessage.objects.create(table=table, user=ana, text="members only")
    report = reverse("report_message", args=[table.code, line.pk])
    # Logged out, the invitation says whose table it is before anyone signs up for it.
    landing = client.get(table.get_absolute_url()).content.decode()
    assert "only its members can see or join it" in landing and "members only" not in landing
    client.force_login(bob)
    refused = client.get(table.get_absolute_url(), follow=True)
    assert refused.redirect_chain == [(club.get_absolute_url(), 302)]
    page = refused.content.decode()
    assert "Only the members of Tuesday Belote can see or join its tables." in page
    assert "/ws/table/" not in page and "members only" not in page
    assert client.get(report).status_code == 404
    clubs.join(club, bob)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'ws-connect="/ws/table/' in page
    assert client.get(report).status_code == 200


@live_test
async def test_only_members_watch_or_chat_at_a_club_table():
    ana, bob = await sync_to_async(make_players)(2)
    club = await sync_to_async(club_of)(ana)
    table = await sync_to_async(rows.create_table)(
        ana, "belote", OPTIONS, is_private=True, club=club
    )
    outsider, connected = await open_socket(bob, f"/ws/table/{table.code}/")
    assert connected  # accepted only to say why it closes
    assert "There is no table at this address." in await outsider.receive_from(FRAME_TIMEOUT)
    assert await close_code(outsider) == CLOSE_NOT_FOUND
    # A member removed from the club while watching says nothing more at its table.
    await sync_to_async(clubs.join)(club, bob)
    watcher = await connect(bob, f"/ws/table/{table.code}/")
    await receive_until(watcher, "Waiting for")
    await sync_to_async(clubs.manage)(club, ana, bob.username, "remove")
    await send(watcher, op="chat", text="still here")
    await receive_until(watcher, "You cannot chat at this table.")
    assert not await sync_to_async(ChatMessage.objects.filter(user=bob).exists)()
    await watcher.disconnect()


def test_a_renamed_club_is_found_by_its_new_look_however_it_is_saved():
    ana = make_players(1)[0]
    club = clubs.create_club(ana, "Red Club", "", ["belote"], Club.Access.OPEN)
    club.name = "Blue Club"
    club.save(update_fields=["name"])
    with pytest.raises(ClubError, match="looks like another club's name"):
        clubs.checked_name("Blue C1ub")
    club.name = "Green Club"
    club.save()
    assert Club.objects.get(pk=club.pk).name_skeleton == skeleton("Green Club")
