"""Choosing the site's language: the browser's at first, then the switcher's (a cookie), and a
logged-in player's choice kept in their profile for every device they log in on."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import Profile

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def html_lang(response) -> str:
    text = response.content.decode()
    start = text.index('<html lang="') + len('<html lang="')
    return text[start : text.index('"', start)]


def test_the_first_visit_follows_the_browser(client):
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="bg,en;q=0.5")) == "bg"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="ru-RU")) == "ru"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "en"


def test_every_page_offers_the_switcher_in_each_languages_own_name(client):
    page = client.get("/rules/belote/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    for code, name in (("bg", "Български"), ("ru", "Русский"), ("en", "English")):
        assert f'value="{code}" lang="{code}"' in page and name in page
    assert 'value="ru" lang="ru" class="link-button" aria-current="true"' in page


def test_the_switcher_sets_the_language_and_goes_back(client):
    response = client.post(reverse("set_language"), {"language": "ru", "next": "/rules/grabush/"})
    assert response.status_code == 302 and response.url == "/rules/grabush/"
    assert response.cookies[COOKIE].value == "ru"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="bg")) == "ru"  # the choice wins


@pytest.mark.parametrize(
    ("data", "status", "where"),
    [
        ({"language": "de", "next": "/"}, 400, None),
        ({"language": "bg", "next": "https://evil.example/"}, 302, "/"),
        ({"language": "bg"}, 302, "/"),
    ],
)
def test_the_switcher_refuses_unknown_languages_and_foreign_pages(client, data, status, where):
    response = client.post(reverse("set_language"), data)
    assert response.status_code == status
    if where is not None:
        assert response.url == where


def test_a_players_language_follows_them_to_another_device(make_user):
    user = make_user("vesela")
    phone = Client()
    phone.force_login(user)
    phone.post(reverse("set_language"), {"language": "bg", "next": "/"})
    assert Profile.objects.get(user=user).language == "bg"

    laptop = Client(HTTP_ACCEPT_LANGUAGE="en")  # a browser that asks for English, no cookie
    laptop.post(reverse("login"), {"username": "vesela", "password": "a-Long-secret-42"})
    response = laptop.get("/")
    assert html_lang(response) == "bg"
    assert response.cookies[COOKIE].value == "bg"  # for the table's sockets too
    assert "Вход" not in response.content.decode()  # logged in: no "Log in" link


def test_a_player_without_a_choice_keeps_the_browsers_language(make_user):
    make_user("petar")
    browser = Client(HTTP_ACCEPT_LANGUAGE="ru")
    browser.post(reverse("login"), {"username": "petar", "password": "a-Long-secret-42"})
    assert html_lang(browser.get("/")) == "ru"


@pytest.mark.parametrize(
    ("language", "written"),
    [("bg", "2 декември 2026 г."), ("ru", "2 декабря 2026 г."), ("en", "Dec. 2, 2026")],
)
def test_dates_are_written_the_languages_way(client, make_user, language, written):
    user = make_user("dara")
    type(user).objects.filter(pk=user.pk).update(date_joined="2026-12-02T10:00:00Z")
    page = client.get(f"/u/{user.username}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert written in page


@pytest.mark.parametrize("language", ["bg", "ru"])
def test_the_password_reset_mail_speaks_the_language(client, make_user, mailoutbox, language):
    user = make_user("mila")
    user.email = "mila@example.com"
    user.save()
    client.post("/accounts/password_reset/", {"email": user.email}, HTTP_ACCEPT_LANGUAGE=language)
    (mail,) = mailoutbox
    known = r"https?://\S+|mila|testserver|example|com|Cardroom"  # link, name, address, brand
    text = re.sub(known, " ", mail.subject + mail.body)
    assert re.findall(r"[A-Za-z]{2,}", text) == []
