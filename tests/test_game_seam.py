"""The game seam: a game registered from the tests alone is offered, played, recorded, listed and
replayed like the site's own, and no line of the site's code names it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games import catalog
from games.models import Match, Move, Table

from .factories import make_players
from .highcard import engine
from .highcard.game import GAME, TEMPLATES
from .live import connect, live_test, receive_until, send

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def highcard(settings):
    """High card on offer, with its templates, for one test."""
    catalog.register(GAME)
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEMPLATES]}
    ]
    yield GAME
    catalog.unregister(GAME.name)


def test_no_line_of_the_sites_code_names_the_test_game():
    tracked = subprocess.run(
        ["git", "grep", "-il", "highcard", "--", "games", "cardroom", "templates", "static"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert tracked.returncode == 1 and tracked.stdout == ""  # 1: nothing found


@live_test
async def test_a_game_registered_from_the_tests_is_played_recorded_listed_and_replayed(highcard):
    users = await sync_to_async(make_players)(3)
    owner = Client()
    await sync_to_async(owner.force_login)(users[0])
    lobby = await sync_to_async(owner.get)(reverse("home"))
    assert b'value="highcard"' in lobby.content  # offered in the new-table form
    created = await sync_to_async(owner.post)(
        reverse("new_table"), {"game": "highcard", "options-rounds": "3"}
    )
    table = await sync_to_async(Table.objects.get)(game="highcard")
    assert created.url == table.get_absolute_url()
    assert await sync_to_async(table.seats.count)() == 2
    path = f"/ws/table/{table.code}/"
    sockets = [await connect(user, path) for user in users[:2]]
    await send(sockets[1], op="sit", seat="1")  # the creator sits already
    await receive_until(sockets[0], users[1].username)
    await send(sockets[0], op="start")
    await receive_until(sockets[1], 'id="board"')
    # Play every round over the sockets: each player plays their first card when on turn.
    while True:
        match = await sync_to_async(Match.objects.get)(table=table)
        state = engine.loads(match.state)
        if state.to_act is None:
            break
        card = engine.legal_actions(state, state.to_act)[0]
        mover = sockets[state.to_act]
        await send(mover, op="play", action=card, version=str(match.version))
        await receive_until(mover, f'value="{match.version + 1}"')
    assert match.status == Match.Status.FINISHED and match.version == 6
    assert match.result == {"winner": engine.winner(state), "scores": list(state.scores)}
    assert await sync_to_async(Move.objects.filter(match=match).count)() == 6
    for socket in sockets:
        await socket.disconnect()

    record = (await sync_to_async(owner.get)(reverse("match", args=[match.pk]))).content.decode()
    assert "High card" in record and "highcard-record" in record
    assert f"{state.scores[0]} to {state.scores[1]}" in record
    profile = await sync_to_async(Client().get)(reverse("profile", args=[users[1].username]))
    assert reverse("match", args=[match.pk]) in profile.content.decode()  # a public table
    replay = await sync_to_async(owner.get)(reverse("replay", args=[match.pk]), {"step": 6})
    assert "The move log leads exactly to the recorded end of the match." in replay.content.decode()
    first = await sync_to_async(owner.get)(reverse("replay", args=[match.pk]), {"step": 0})
    assert first.status_code == 200 and "Points: 0 to 0" in first.content.decode()
