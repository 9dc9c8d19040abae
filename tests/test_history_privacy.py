"""A private table's finished matches are shown only to their players and to staff."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from .factories import finished_short_match, make_players


@pytest.mark.django_db
def test_private_match_record_and_replay_are_for_its_players_and_staff():
    users = make_players(5)
    _table, match = finished_short_match(users)  # on a private table
    urls = [reverse("match", args=[match.pk]), reverse("replay", args=[match.pk])]
    outsider, player, staff = Client(), Client(), Client()
    outsider.force_login(users[4])
    player.force_login(users[1])
    staff.force_login(get_user_model().objects.create_superuser("mod", password="x-12345678"))
    for url in urls:
        assert Client().get(url).status_code == 404
        assert outsider.get(url).status_code == 404
        assert player.get(url).status_code == 200
        assert staff.get(url).status_code == 200
