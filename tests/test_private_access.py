"""A private table's chat, invite code and matches reach only those who may open it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import ChatMessage, Report
from games.tables import matches, rows, seating

from .factories import OPTIONS, finish_match, finished_short_match, make_players, seated_table

REASON = {"kind": "abuse", "details": "rude"}


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def private_line(db):
    """A chat line at a private table, and a stranger who does not know the table's code."""
    users = make_players(5)
    table = seated_table(users)
    line = ChatMessage.objects.create(table=table, user=users[1], text="our secret plan")
    return table, line, users


def test_a_stranger_cannot_read_or_report_private_chat_by_number(private_line):
    table, line, users = private_line
    stranger = logged_in(users[4])
    for pk in range(line.pk - 2, line.pk + 3):
        for url in (f"/report/message/{pk}/", f"/t/wrong-code/report/{pk}/"):
            response = stranger.get(url)
            assert response.status_code == 404
            assert b"our secret plan" not in response.content
            assert table.code.encode() not in response.content
            response = stranger.post(url, REASON)
            assert response.status_code == 404
    assert not Report.objects.exists()


def test_a_hidden_message_cannot_be_reported(private_line):
    table, line, users = private_line
    line.hidden = True
    line.save()
    response = logged_in(users[2]).get(reverse("report_message", args=[table.code, line.pk]))
    assert response.status_code == 404


def test_a_message_of_another_table_is_not_reported_through_this_tables_code(private_line):
    _table, line, users = private_line
    other = rows.create_table(users[4], "belote", OPTIONS, is_private=False)
    url = reverse("report_message", args=[other.code, line.pk])
    assert logged_in(users[4]).get(url).status_code == 404


def test_a_report_goes_back_where_the_reporter_came_from_when_it_is_safe(private_line):
    table, line, users = private_line
    client = logged_in(users[2])
    url = reverse("report_message", args=[table.code, line.pk])
    page = client.get(url, {"next": "/u/player2/"})
    assert b"our secret plan" in page.content
    assert b'name="next" value="/u/player2/"' in page.content
    response = client.post(url, {**REASON, "next": "/u/player2/"})
    assert response.status_code == 302 and response.url == "/u/player2/"
    for unsafe in ("https://evil.example/", "//evil.example/", "javascript:alert(1)"):
        response = client.post(url, {**REASON, "details": unsafe, "next": unsafe})
        assert response.status_code == 302 and response.url == table.get_absolute_url()
    player_page = client.post(
        reverse("report_player", args=["player1"]), {**REASON, "next": "https://evil.example/"}
    )
    assert player_page.url == reverse("profile", args=["player1"])


@pytest.mark.django_db
def test_profiles_list_private_matches_only_to_their_players_and_staff():
    users = make_players(5)
    _table, match = finished_short_match(users)  # a private table
    profile = reverse("profile", args=[users[0].username])
    link = reverse("match", args=[match.pk]).encode()
    staff = get_user_model().objects.create_superuser("mod", password="x-12345678")
    for viewer, sees in ((None, False), (users[4], False), (users[1], True), (staff, True)):
        client = Client() if viewer is None else logged_in(viewer)
        html = client.get(profile).content
        assert (link in html) is sees
        assert (users[3].username.encode() in html) is sees  # an opponent's name
    # A public table's match is listed to anyone.
    public = rows.create_table(users[0], "belote", {**OPTIONS, "target": 11}, is_private=False)
    for index, user in enumerate(users[:4]):
        seating.take_seat(public.pk, user, index)
    matches.start_match(public.pk, users[0])
    shown = finish_match(public, users)
    assert reverse("match", args=[shown.pk]).encode() in Client().get(profile).content
