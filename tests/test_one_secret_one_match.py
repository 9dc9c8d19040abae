"""A committed secret starts at most one match, whatever arrives at once: "Play now" clicks sent
together, two creators' "Start", every player's rematch, a quick table's next match. Each path
is raced from threads with connections of their own (on PostgreSQL in CI's second pass)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any

import pytest
from django.db import IntegrityError, connections, transaction
from django.test import Client
from django.urls import reverse

from games.engines import fair_deals
from games.models import Match, Table
from games.tables import matches, quick, rows
from games.views.tables import PLAY_NOW_SECRET
from tests.factories import make_players, seated_table
from tests.test_play_now import at_the_table

pytestmark = pytest.mark.django_db(transaction=True)


def together(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` at once, each in a thread with its own database connection; return what
    each returned or raised."""
    start = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            start.wait()
            results[index] = call()
        except Exception as error:  # the test looks at what each call did
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def same_session(client: Client) -> Client:
    """Another browser tab of ``client``'s session."""
    tab = Client()
    tab.cookies = SimpleCookie(client.cookies.output(header="", sep=";"))
    return tab


def distinct_secrets_and_seeds() -> None:
    secrets = list(Match.objects.values_list("secret", flat=True))
    seeds = list(Match.objects.values_list("seed", flat=True))
    assert len(set(secrets)) == len(secrets) and len(set(seeds)) == len(seeds)


@pytest.mark.parametrize("clicks", [2, 4])
def test_play_now_clicks_sent_together_give_one_quick_table(client, clicks):
    (alice,) = make_players(1)
    client.force_login(alice)
    client.get(reverse("home"))  # the page shows the commitment of her next quick table
    secret = client.session[PLAY_NOW_SECRET]
    form = {"game": "belote", "commitment": fair_deals.commitment(secret), "contribution": ""}
    tabs = [same_session(client) for _ in range(clicks)]
    answers = together(*(lambda tab=tab: tab.post(reverse("play_now"), form) for tab in tabs))
    table = Table.objects.get()
    assert all(answer.status_code == 302 for answer in answers)
    assert {answer.url for answer in answers} == {table.get_absolute_url()}
    assert Match.objects.get().secret == secret


def test_play_now_for_two_games_at_once_starts_one_match_from_the_shown_secret(client):
    (alice,) = make_players(1)
    client.force_login(alice)
    client.get(reverse("home"))
    secret = client.session[PLAY_NOW_SECRET]
    shown = {"commitment": fair_deals.commitment(secret), "contribution": ""}
    belote_tab, grabush_tab = same_session(client), same_session(client)
    together(
        lambda: belote_tab.post(reverse("play_now"), shown | {"game": "belote"}),
        lambda: grabush_tab.post(reverse("play_now"), shown | {"game": "grabush"}),
    )
    assert sorted(Table.objects.values_list("game", flat=True)) == ["belote", "grabush"]
    assert list(Match.objects.values_list("secret", flat=True)).count(secret) == 1
    distinct_secrets_and_seeds()


def test_the_database_refuses_a_second_match_of_one_secret_or_one_seed():
    users = make_players(4)
    first = matches.start_match(seated_table(users).pk, users[0])
    second = matches.start_match(seated_table(users).pk, users[0])
    for field in ("secret", "seed"):
        with pytest.raises(IntegrityError), transaction.atomic():
            Match.objects.filter(pk=second.pk).update(**{field: getattr(first, field)})
    table = seated_table(users)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=table.pk).update(next_secret=first.table.next_secret)


def test_start_pressed_together_starts_one_match():
    users = make_players(4)
    table = seated_table(users)
    secret = Table.objects.get(pk=table.pk).next_secret
    results = together(*[lambda: matches.start_match(table.pk, users[0])] * 3)
    started = [result for result in results if isinstance(result, Match)]
    assert len(started) == 1
    assert all(isinstance(result, rows.TableError) for result in results if result not in started)
    assert Match.objects.get().secret == secret


def finish(table: Table) -> None:
    """End the table's running match as its last move would (the deals do not matter here)."""
    Match.objects.filter(table=table, status=Match.Status.RUNNING).update(
        status=Match.Status.FINISHED
    )
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)


def test_every_player_asking_for_a_rematch_at_once_starts_one_match():
    users = make_players(4)
    table = seated_table(users)
    matches.start_match(table.pk, users[0])
    finish(table)
    secret = Table.objects.get(pk=table.pk).next_secret
    together(*(lambda user=user: matches.vote_rematch(table.pk, user) for user in users))
    assert list(table.matches.order_by("number").values_list("number", "status")) == [
        (1, Match.Status.FINISHED),
        (2, Match.Status.RUNNING),
    ]
    assert table.matches.get(number=2).secret == secret
    distinct_secrets_and_seeds()


def test_a_quick_tables_next_match_starts_once_however_it_is_asked_for():
    alice, bob = make_players(2)
    table = quick.play_now(alice, "grabush").table
    quick.claim_computer_seat(table.pk, bob)
    at_the_table(table, alice, bob)
    finish(table)
    together(
        lambda: matches.vote_rematch(table.pk, alice),
        lambda: matches.vote_rematch(table.pk, bob),
        lambda: matches.start_quick_rematch(table.pk),
        lambda: matches.start_quick_rematch(table.pk),
    )
    assert list(table.matches.order_by("number").values_list("number", flat=True)) == [1, 2]
    distinct_secrets_and_seeds()


def test_table_creations_sent_together_keep_to_the_accounts_limit(settings):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 3
    (alice,) = make_players(1)
    options = {"target": 151, "declarations": "separate", "finish_with_hanging": True}
    results = together(*[lambda: rows.create_table(alice, "belote", options, is_private=False)] * 8)
    assert Table.objects.filter(owner=alice).count() == 3
    refused = [result for result in results if isinstance(result, rows.TableError)]
    assert len(refused) == 5
    assert "3 tables waiting or playing already" in str(refused[0])
