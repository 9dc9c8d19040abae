"""The verifier (``python -m games.verify``) on real match logs and on tampered ones: it says
exactly what differs. Also run as the zip the site offers, with nothing but Python."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest
from django.test import Client
from django.urls import reverse

from games.catalog import get_game
from games.engines.belote_cards import CARDS
from games.models import Match
from games.records import history
from games.tables import matches, play, rows, seating
from games.verify import main, verify

from .factories import OPTIONS, make_players, match_of

pytestmark = pytest.mark.django_db
MINE = "a1" * 32


def played_belote() -> dict:
    users = make_players(4)
    table = rows.create_table(users[0], "belote", {**OPTIONS, "target": 11}, is_private=False)
    for seat in (1, 2, 3):
        seating.take_seat(table.pk, users[seat], seat, f"{seat:02x}" * 32)
    matches.start_match(table.pk, users[0], MINE)
    rng = random.Random(4)
    match = match_of(table)
    engine = get_game("belote").engine
    state = engine.loads(match.state)
    while state.to_act is not None:
        legal = engine.legal_actions(state, state.to_act)
        action = "pass" if "pass" in legal and rng.random() < 0.5 else rng.choice(legal)
        match = play.apply_action(table.pk, users[state.to_act], action, match.version).match
        state = engine.loads(match.state)
    return history.match_log(match)


def played_grabush() -> dict:
    """A two-player Grabush game with table talk: the log holds the penalty grants."""
    users = make_players(2)
    table = rows.create_table(users[0], "grabush", {"players": 2}, is_private=False)
    seating.take_seat(table.pk, users[1], 1, MINE)
    matches.start_match(table.pk, users[0])
    engine = get_game("grabush").engine
    rng = random.Random(9)
    match = match_of(table)
    state = engine.loads(match.state)
    step = 0
    while state.to_act is not None:
        step += 1
        if step == 3 or rng.random() < 0.02:  # at least one chat, however short the game
            play.apply_chat_rule(table.pk, users[rng.randrange(2)])
        else:
            legal = engine.legal_actions(state, state.to_act)
            play.apply_action(table.pk, users[state.to_act], rng.choice(legal), match.version)
        match = Match.objects.get(pk=match.pk)
        state = engine.loads(match.state)
    return history.match_log(match)


@pytest.fixture(scope="module")
def belote_log(django_db_setup, django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            log = played_belote()
            transaction.set_rollback(True)
    return log


def wrong(log: dict) -> list[str]:
    return [finding.text for finding in verify(log) if not finding.ok]


def test_a_real_belote_log_checks_out(belote_log):
    findings = verify(belote_log)
    assert all(finding.ok for finding in findings), findings
    assert len(belote_log["deals"]) >= 1 and len(belote_log["actions"]) > 30


def test_a_real_grabush_log_with_table_talk_checks_out():
    log = played_grabush()
    assert any(action.startswith("grant_penalty:") for _seat, action in log["actions"])
    findings = verify(log)
    assert all(finding.ok for finding in findings), findings


def test_a_changed_card_in_a_deal_is_named(belote_log):
    log = copy.deepcopy(belote_log)
    cards = log["deals"][0]["cards"]
    cards[4], cards[20] = cards[20], cards[4]
    assert wrong(log) == [
        f"Deal 1: card 5 from the top is {cards[4]} in the log; the seed gives {cards[20]}."
    ]


def test_a_changed_action_is_named(belote_log):
    log = copy.deepcopy(belote_log)
    # The second card of the first trick becomes the first card: gone already, nobody holds it.
    cards = [i for i, (_seat, action) in enumerate(log["actions"]) if action in CARDS]
    first, second = cards[0], cards[1]
    seat, _card = log["actions"][second]
    log["actions"][second] = [seat, log["actions"][first][1]]
    assert wrong(log) == [
        f"Action {second + 1} (seat {seat + 1}: {log['actions'][first][1]}) is not allowed at "
        f"that point: You do not hold {log['actions'][first][1]}."
    ]


def test_a_changed_result_is_named(belote_log):
    log = copy.deepcopy(belote_log)
    log["result"] = {**log["result"], "scores": [0, 0]}
    assert len(wrong(log)) == 1 and "the log records" in wrong(log)[0]


def test_a_changed_contribution_breaks_the_seed(belote_log):
    log = copy.deepcopy(belote_log)
    log["contributions"][1]["value"] = "b0" * 32
    found = wrong(log)
    assert found[0].startswith("The seed does not follow from the secret and the contributions")
    # The deals the true contributions gave are not what this one gives.
    assert any(text.startswith("Deal 1:") for text in found[1:])


def test_a_changed_secret_breaks_the_commitment(belote_log):
    log = copy.deepcopy(belote_log)
    log["secret"] = "0" + log["secret"][1:] if log["secret"][0] != "0" else "1" + log["secret"][1:]
    found = wrong(log)
    assert found[0].startswith("The secret does not match the commitment")
    assert found[1].startswith("The seed does not follow")


def test_the_command_line_and_the_zip_the_site_offers(belote_log, tmp_path, capsys):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(belote_log))
    assert main([str(path)]) == 0
    assert "Everything checks" in capsys.readouterr().out
    tampered = copy.deepcopy(belote_log)
    tampered["seed"] = "0" * 64
    path.write_text(json.dumps(tampered))
    assert main([str(path)]) == 1
    (tmp_path / "junk.json").write_text("[1, 2]")
    assert main([str(tmp_path / "junk.json")]) == 2

    path.write_text(json.dumps(belote_log))
    archive = tmp_path / "cardroom-verifier.zip"
    response = Client().get(reverse("verifier"))
    archive.write_bytes(
        b"".join(response.streaming_content) if response.streaming else response.content
    )
    # -I: isolated from this project and its packages: the standard library and the zip only.
    run = subprocess.run(
        [sys.executable, "-I", str(archive), str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert "Everything checks" in run.stdout
