"""Sign up, log in, log out, passwords and profiles."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from games.tables import rows

from .factories import OPTIONS

pytestmark = pytest.mark.django_db
PASSWORD = "a-Long-secret-42"


def sign_up(client, username: str, **options):
    """Post the sign-up form for ``username`` with a valid password."""
    return client.post(
        reverse("signup"),
        {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD},
        **options,
    )


def test_signup_logs_in_and_lands_in_the_lobby(client):
    response = sign_up(client, "alice", follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert response.context["user"].username == "alice"
    assert b"Welcome to Cardroom, alice!" in response.content
    assert b'id="new-table-title"' in response.content


def _link(html: str, text: str) -> str:
    """The address of the link reading ``text`` in the page's main part."""
    main = html[html.index("<main") :]
    match = re.search(r'<a href="([^"]+)"[^>]*>' + re.escape(text) + "</a>", main)
    assert match, text
    return unescape(match.group(1))


def test_an_invited_friend_signs_up_and_lands_at_the_table(client, make_user):
    host = make_user("host")
    table = rows.create_table(host, "belote", OPTIONS, is_private=True)
    invite = reverse("table", args=[table.code])
    landing = client.get(invite)
    page = landing.content.decode()
    assert landing.status_code == 200 and "host invites you to a Belote table" in page
    signup_address = _link(page, "Sign up")
    assert signup_address == f"{reverse('signup')}?next={quote(invite)}"
    assert _link(page, "Log in") == f"{reverse('login')}?next={quote(invite)}"
    assert page.index(">Sign up<") < page.index(">Log in<", page.index("<main"))
    form = client.get(signup_address)
    assert f'name="next" value="{invite}"' in form.content.decode()
    answer = client.post(
        signup_address,
        {"username": "friend", "password1": PASSWORD, "password2": PASSWORD, "next": invite},
        follow=True,
    )
    assert answer.redirect_chain[-1][0] == invite
    assert answer.context["table"].pk == table.pk


def test_a_sign_up_never_sends_the_player_to_another_site(client):
    answer = client.post(
        reverse("signup") + "?next=https://evil.example/",
        {"username": "carol", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert answer.status_code == 302 and answer["Location"] == reverse("home")


def test_signup_shows_clear_errors(client, make_user):
    make_user("bob")
    response = client.post(
        reverse("signup"),
        {"username": "BOB", "email": "not-an-email", "password1": PASSWORD, "password2": "x"},
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "username" in form.errors  # usernames are unique regardless of case
    assert "email" in form.errors
    assert "password2" in form.errors
    assert b'role="alert"' in response.content
    assert get_user_model().objects.count() == 1


def test_login_and_logout(client, make_user):
    make_user("carol")
    response = client.post(reverse("login"), {"username": "carol", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"].is_authenticated
    response = client.post(reverse("login"), {"username": "carol", "password": "wrong"})
    assert response.status_code == 200 and response.context["form"].errors
    client.post(reverse("logout"))
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_change_password(client, make_user):
    user = make_user("dave")
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "An0ther-Secret",
            "new_password2": "An0ther-Secret",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("An0ther-Secret")


def test_password_reset_by_email(client, make_user):
    make_user("erin", email="erin@example.com")
    response = client.post(reverse("password_reset"), {"email": "erin@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0]
    response = client.post(
        form_url, {"new_password1": "Brand-New-Pass9", "new_password2": "Brand-New-Pass9"}
    )
    assert response.status_code == 302
    response = client.post(reverse("login"), {"username": "erin", "password": "Brand-New-Pass9"})
    assert response.status_code == 302 and response.url == reverse("home")


def test_profile_has_a_stable_url(client, make_user):
    make_user("frank")
    response = client.get("/u/frank/")
    assert response.status_code == 200
    assert b"frank" in response.content
    assert client.get("/u/nobody/").status_code == 404


def test_logout_link_is_a_post_form(client, make_user):
    client.force_login(make_user("gina"))
    html = client.get(reverse("home")).content.decode()
    assert re.search(r'<form method="post" action="/accounts/logout/"', html)


def username_errors(username: str) -> list[str]:
    """The sign-up form's error codes for ``username`` (with a valid password)."""
    from games.views.accounts import SignupForm

    form = SignupForm(
        {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD}
    )
    form.is_valid()
    return [error.code for error in form.errors.as_data().get("username", [])]


def test_a_username_that_looks_like_a_taken_one_is_refused(client, make_user):
    make_user("alice")
    make_user("ace")
    make_user("Ivan")
    cyrillic_a = "\N{CYRILLIC SMALL LETTER A}lice"
    response = sign_up(client, cyrillic_a)
    assert response.status_code == 200
    assert "looks like one that is already taken" in response.content.decode()
    assert not get_user_model().objects.filter(username=cyrillic_a).exists()
    all_cyrillic = (
        "\N{CYRILLIC SMALL LETTER A}\N{CYRILLIC SMALL LETTER ES}\N{CYRILLIC SMALL LETTER IE}"
    )
    assert username_errors(all_cyrillic) == ["look_alike"]
    assert username_errors("AIice") == ["look_alike"]  # a capital I for the l
    assert username_errors("lvan") == ["look_alike"]  # an l for the capital I
    assert username_errors("ALICE") == ["unique"]
    # Names that only share letters with taken ones, or are written in one other alphabet, pass.
    assert username_errors("alicia") == []
    assert username_errors("\u0410\u043b\u0438\u0441\u0430") == []  # "Алиса"


def test_a_username_mixing_alphabets_with_look_alike_letters_is_refused(client):
    paypal = "p\N{CYRILLIC SMALL LETTER A}ypal"
    response = sign_up(client, paypal)
    assert response.status_code == 200
    assert "mixes letters of different alphabets" in response.content.decode()
    assert username_errors(paypal) == ["mixed_script"]
    assert get_user_model().objects.count() == 0


def test_a_renamed_user_keeps_their_new_name_from_look_alikes(make_user):
    user = make_user("bob")
    user.username = "carol"
    user.save()
    look_alike = "\N{CYRILLIC SMALL LETTER ES}\N{CYRILLIC SMALL LETTER A}rol"
    assert username_errors(look_alike) == ["look_alike"]
    assert username_errors("bob") == []
