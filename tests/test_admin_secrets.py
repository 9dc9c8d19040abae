"""Staff learn nothing hidden about a running match from the admin: no hand, no face-down card,
no secret, no seed; once the match has ended its secret, seed, engine state and move log show.
A table's secret for its next match shows to nobody."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import Match
from games.tables import play, rows

from .factories import finished_short_match, make_players
from .test_grabush_live import start as start_grabush

pytestmark = pytest.mark.django_db

PENALTY = "penalty:1:3H"  # seat 2 slips its 3H into side 1's face-down stock


def staff_client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("mod", password="x-12345678"))
    return client


def secrets(match: Match) -> set[str]:
    """The match's secret, its seed and every card in a hand: each code, and a Belote hand's
    stored text; and the table's secret for its next match."""
    found = {match.secret, match.seed, match.table.next_secret}
    for hand in json.loads(match.state)["hands"]:
        if isinstance(hand, str):
            found.add(hand)
            found.update(hand[i : i + 2] for i in range(0, len(hand), 2))
        else:
            found.update(hand)
    found.discard("")
    return found


def revealed(content: bytes, hidden: set[str]) -> set[str]:
    """The items of ``hidden`` that a page shows."""
    text = html.unescape(content.decode())
    return {item for item in hidden if re.search(rf"(?<!\w){re.escape(item)}(?!\w)", text)}


def admin_pages(client: Client, match: Match) -> dict[str, bytes]:
    """Every admin page that concerns the match, its table or its players, by URL."""
    table = match.table
    urls = [
        reverse("admin:index"),
        reverse("admin:games_match_changelist"),
        reverse("admin:games_match_change", args=[match.pk]),
        reverse("admin:games_match_history", args=[match.pk]),
        reverse("admin:games_table_changelist"),
        reverse("admin:games_table_change", args=[table.pk]),
        reverse("admin:games_table_delete", args=[table.pk]),
        reverse("admin:auth_user_delete", args=[table.owner_id]),
        reverse("admin:games_chatmessage_changelist"),
        reverse("admin:games_report_changelist"),
    ]
    pages = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        pages[url] = response.content
    # The "delete selected" action's confirmation lists everything the tables take with them.
    response = client.post(
        reverse("admin:games_table_changelist"),
        {"action": "delete_selected", "_selected_action": [table.pk]},
    )
    assert response.status_code == 200
    pages["delete_selected"] = response.content
    return pages


def assert_nothing_revealed(client: Client, match: Match, hidden: set[str]) -> None:
    for url, content in admin_pages(client, match).items():
        assert not revealed(content, hidden), url


def test_a_running_belote_match_shows_its_state_only_once_aborted(started):
    table, _ = started
    match = Match.objects.get(table=table)
    client = staff_client()
    hidden = secrets(match)
    assert len(hidden) == 3 + 4 + 20  # two secrets, the seed, four hands of five cards and texts
    assert_nothing_revealed(client, match, hidden)

    rows.abort_table(table.pk)
    page = client.get(reverse("admin:games_match_change", args=[match.pk])).content
    hands = {hand for hand in json.loads(match.state)["hands"]}
    assert revealed(page, hidden) >= {match.secret, match.seed, *hands}
    for content in admin_pages(client, match).values():
        assert match.table.next_secret not in content.decode()


def test_a_running_grabush_match_keeps_its_penalty_card_secret():
    users = make_players(4)
    table = start_grabush(users)
    assert play.apply_chat_rule(table.pk, users[1])  # side 1 talked: seats 0 and 2 get a right
    match = Match.objects.get(table=table)
    match = play.apply_action(table.pk, users[2], PENALTY, match.version).match
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING and match.last_action == PENALTY
    hidden = secrets(match) | {"3H"}
    client = staff_client()
    assert_nothing_revealed(client, match, hidden)

    rows.abort_table(table.pk)
    page = html.unescape(client.get(reverse("admin:games_match_change", args=[match.pk])).text)
    assert PENALTY in page  # the move log
    assert str(match.seed) in page
    assert '"hands"' in page  # the engine state


def test_a_finished_match_shows_its_seed_state_and_moves():
    users = make_players(4)
    _table, match = finished_short_match(users)
    assert match.status == Match.Status.FINISHED
    response = staff_client().get(reverse("admin:games_match_change", args=[match.pk]))
    text = html.unescape(response.text)
    assert str(match.seed) in text
    assert '"hands"' in text
    actions = re.findall(r'<td class="field-action">\s*<p>([^<]*)</p>', text)
    assert actions == list(match.moves.order_by("seq").values_list("action", flat=True))


@pytest.mark.parametrize(
    "lookup",
    [
        "seed",
        "seed__gt",
        "secret__startswith",
        "contributions__contains",
        "state__contains",
        "last_action__contains",
        "last_seat",
    ],
)
def test_the_match_list_cannot_be_filtered_to_probe_a_running_match(started, lookup):
    table, _ = started
    match = Match.objects.get(table=table)
    value = match.seed if lookup.startswith("seed") else match.secret[:4]
    url = reverse("admin:games_match_changelist")
    response = staff_client().get(url, {lookup: value})
    assert response.status_code == 400
    assert not revealed(response.content, secrets(match))


@pytest.mark.parametrize(
    "lookup", ["next_secret__startswith", "matches__secret__startswith", "matches__seed__gt"]
)
def test_the_table_list_cannot_be_filtered_to_probe_a_secret(started, lookup):
    table, _ = started
    url = reverse("admin:games_table_changelist")
    response = staff_client().get(url, {lookup: table.next_secret[:4]})
    assert response.status_code == 400
