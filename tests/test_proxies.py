"""Behind trusted proxies the client's own address counts; without them the headers are ignored."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from cardroom.proxies import client_ip

PASSWORD = "a-Long-secret-42"


@pytest.mark.parametrize(
    ("proxies", "forwarded_for", "expected"),
    [
        (0, "6.6.6.6", "10.0.0.1"),  # no proxy configured: the header is the client's word
        (1, "8.8.8.8", "8.8.8.8"),
        (1, "6.6.6.6, 8.8.8.8", "8.8.8.8"),  # the client's own header is ignored
        (2, "6.6.6.6, 8.8.8.8, 10.0.0.7", "8.8.8.8"),
        (2, "8.8.8.8", "8.8.8.8"),
        (1, "", "10.0.0.1"),
    ],
)
def test_the_client_is_the_address_the_first_trusted_proxy_saw(
    settings, proxies, forwarded_for, expected
):
    settings.TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded_for)
    assert client_ip(request) == expected


def failed_logins(client: Client, username: str, forwarded_for: str, count: int) -> int:
    for _ in range(count):
        response = client.post(
            reverse("login"),
            {"username": username, "password": "wrong"},
            HTTP_X_FORWARDED_FOR=forwarded_for,
        )
    return response.status_code


@pytest.mark.django_db
def test_behind_a_proxy_bad_passwords_lock_out_only_their_sender(settings, make_user):
    settings.TRUSTED_PROXIES = 1
    make_user("victim")
    attacker = Client(REMOTE_ADDR="10.0.0.1")  # every request comes through the proxy
    assert failed_logins(attacker, "victim", "6.6.6.6", settings.AXES_FAILURE_LIMIT) == 429
    # The attacker cannot hide behind a header of their own: still counted as 6.6.6.6.
    assert failed_logins(attacker, "victim", "1.2.3.4, 6.6.6.6", 1) == 429
    victim = Client(REMOTE_ADDR="10.0.0.1")
    response = victim.post(
        reverse("login"),
        {"username": "victim", "password": PASSWORD},
        HTTP_X_FORWARDED_FOR="8.8.8.8",
    )
    assert response.status_code == 302  # logged in
