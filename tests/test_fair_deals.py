"""Provably fair deals: the seed's derivation, the commitment shown before contributions are
taken, contributions over the socket, and the secret kept from everyone while a match runs
(every frame and page of a played match scanned for it)."""

from __future__ import annotations

import hashlib
import json

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.engines import belote, chance, fair_deals, grabush
from games.models import Match, Seat, Table
from games.records import history
from games.tables import matches, play, rows, seating
from games.verify import verify

from .factories import OPTIONS, make_players, match_of
from .live import connect, frames_until, heard, live_test, queued, receive_until, send, version_mark

SECRET = "5e" * 32
MINE, YOURS = "a1" * 32, "0f" * 32


# -- the derivation, against the rule as docs/fair-deals.md states it -------------------------


def test_the_commitment_is_the_sha256_of_the_secret_text():
    assert fair_deals.commitment(SECRET) == hashlib.sha256(SECRET.encode()).hexdigest()


def test_the_seed_mixes_the_secret_and_every_contribution_in_seat_order():
    text = f"cardroom-seed-1\n{SECRET}\n0:{MINE}\n3:{YOURS}\n"
    expected = hashlib.sha256(text.encode()).hexdigest()
    contributions = [{"seat": 3, "value": YOURS}, {"seat": 0, "value": MINE}]
    assert fair_deals.derive_seed(SECRET, contributions) == expected
    alone = hashlib.sha256(f"cardroom-seed-1\n{SECRET}\n".encode()).hexdigest()
    assert fair_deals.derive_seed(SECRET, []) == alone
    # Any one contribution changes the seed.
    changed = [{"seat": 3, "value": YOURS}, {"seat": 0, "value": "a2" + MINE[2:]}]
    assert fair_deals.derive_seed(SECRET, changed) != expected


def words(seed: str, label: str):
    """The rule's stream of 32-bit words, written out again from its description."""
    block = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{label}:{block}".encode()).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        block += 1


def by_the_rule(seed: str, label: str, items: list) -> list:
    stream = words(seed, label)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        word = next(stream)
        while word >= limit:
            word = next(stream)
        j = word % n
        out[i], out[j] = out[j], out[i]
    return out


def test_deals_are_drawn_by_the_documented_rule():
    seed = fair_deals.derive_seed(SECRET, [{"seat": 1, "value": MINE}])
    for number in range(5):
        assert belote.deck(seed, number) == by_the_rule(seed, f"belote/deal/{number}", belote.CARDS)
    assert grabush.drawn_shoe(seed, 4) == by_the_rule(seed, "grabush/shoe", grabush.full_deck(4))
    assert belote.first_dealer(seed) == next(words(seed, "belote/dealer")) % 4  # no redraw below 4
    # The engine deals exactly these cards: seat d+1 gets the top three.
    state = belote.new_game(seed)
    dealer = belote.first_dealer(seed)
    first = belote.view(state, (dealer + 1) % 4)["hand"]
    assert set(first) == {*belote.deck(seed, 0)[0:3], *belote.deck(seed, 0)[12:14]}


def test_a_draw_below_n_is_unbiased_and_redraws_past_the_last_multiple():
    draw = chance.Draw("x", "y")
    assert all(0 <= draw.below(3) < 3 for _ in range(200))
    with pytest.raises(ValueError):
        draw.below(0)
    assert sorted(chance.shuffled("s", "l", list(range(32)))) == list(range(32))


# -- contributions at the table -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_match_takes_the_committed_secret_and_the_seated_players_contributions():
    users = make_players(4)
    table = rows.create_table(users[0], "belote", OPTIONS, is_private=True)
    committed = table.next_secret
    seating.take_seat(table.pk, users[1], 1, MINE)
    seating.take_seat(table.pk, users[2], 2)  # a browser without one adds none
    seating.take_seat(table.pk, users[3], 3, YOURS)
    match = matches.start_match(table.pk, users[0], "b2" * 32)
    contributions = [
        {"seat": 0, "value": "b2" * 32},
        {"seat": 1, "value": MINE},
        {"seat": 3, "value": YOURS},
    ]
    assert match.secret == committed
    assert match.contributions == contributions
    assert match.seed == fair_deals.derive_seed(committed, contributions)
    assert belote.dumps(belote.new_game(match.seed, **OPTIONS)) == match.state
    table.refresh_from_db()
    assert table.next_secret != committed  # the next match has a secret of its own
    assert not Seat.objects.filter(table=table).exclude(contribution="").exists()


@pytest.mark.django_db
def test_computer_players_add_nothing_and_a_rematch_takes_new_contributions():
    users = make_players(2)
    table = rows.create_table(users[0], "grabush", {"players": 4}, is_private=False)
    seating.take_seat(table.pk, users[1], 2, MINE)
    seating.fill_with_bots(table.pk, users[0], "easy")
    first = matches.start_match(table.pk, users[0])
    assert first.contributions == [{"seat": 2, "value": MINE}]
    Match.objects.filter(pk=first.pk).update(status=Match.Status.FINISHED)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    matches.vote_rematch(table.pk, users[1], YOURS)
    second = matches.vote_rematch(table.pk, users[0]).match
    assert second is not None and second.contributions == [{"seat": 2, "value": YOURS}]
    assert second.secret != first.secret


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["A1" * 32, "a1" * 31, "zz" * 32, "a1" * 32 + "0"])
def test_a_malformed_contribution_is_refused_and_changes_nothing(bad):
    users = make_players(2)
    table = rows.create_table(users[0], "belote", OPTIONS, is_private=True)
    with pytest.raises(rows.TableError, match="64 hexadecimal digits"):
        seating.take_seat(table.pk, users[1], 1, bad)
    assert not Seat.objects.filter(table=table, user=users[1]).exists()
    # Nor does a start or a rematch vote carrying one.
    seating.take_seat(table.pk, users[1], 1)
    table.refresh_from_db()
    secret = table.next_secret
    with pytest.raises(rows.TableError, match="64 hexadecimal digits"):
        matches.start_match(table.pk, users[0], bad)
    with pytest.raises(rows.TableError, match="64 hexadecimal digits"):
        matches.vote_rematch(table.pk, users[0], bad)
    table.refresh_from_db()
    assert not Match.objects.filter(table=table).exists()
    assert (table.next_secret, table.rematch_votes) == (secret, [])
    assert not Seat.objects.filter(table=table).exclude(contribution="").exists()


@live_test
@pytest.mark.parametrize("op", ["sit", "start"])
async def test_an_over_long_contribution_over_the_socket_is_refused_not_cut(op):
    users = await sync_to_async(make_players)(2)
    table = await sync_to_async(rows.create_table)(users[0], "belote", OPTIONS, is_private=True)
    if op == "start":
        await sync_to_async(seating.take_seat)(table.pk, users[1], 1)
    seats = Seat.objects.filter(table=table).order_by("index")
    before = await sync_to_async(list)(seats.values_list("user", "contribution"))
    socket = await connect(users[0] if op == "start" else users[1], f"/ws/table/{table.code}/")
    await frames_until(socket, 'id="connection"')
    await send(socket, op=op, seat="2", contribution=MINE + "0f")  # valid in its first 64
    said = await receive_until(socket, "64 hexadecimal digits")
    assert 'role="alert"' in said
    assert await sync_to_async(list)(seats.values_list("user", "contribution")) == before
    assert not await sync_to_async(Match.objects.filter(table=table).exists)()
    await socket.disconnect()


# -- the secret stays secret while the match runs ---------------------------------------------


def pages(client: Client, table: Table, match: Match) -> dict[str, tuple[int, str]]:
    urls = [
        reverse("table", args=[table.code]),
        reverse("home"),
        reverse("match", args=[match.pk]),
        reverse("match_log", args=[match.pk]),
        reverse("replay", args=[match.pk]),
    ]
    return {url: (r.status_code, r.content.decode()) for url in urls for r in [client.get(url)]}


@live_test
async def test_no_frame_or_page_shows_the_secret_or_seed_before_the_match_ends():
    users = await sync_to_async(make_players)(5)
    options = {**OPTIONS, "target": 11}
    table = await sync_to_async(rows.create_table)(users[0], "belote", options, is_private=False)
    path = f"/ws/table/{table.code}/"
    sockets = [await connect(user, path) for user in users]  # four players and a spectator
    lobby = await connect(users[4], "/ws/lobby/")  # its frames queue up until read at the end
    frames: list[str] = []
    for socket in sockets:
        frames += await frames_until(socket, 'id="connection"')  # the whole table, first
    committed = fair_deals.commitment(table.next_secret)
    assert any(committed in frame for frame in frames)  # shown before anyone contributes
    for seat in (1, 2, 3):
        await send(sockets[seat], op="sit", seat=str(seat), contribution=f"{seat:02x}" * 32)
        frames += await frames_until(sockets[0], users[seat].username)
    await send(sockets[0], op="start", contribution=MINE)
    frames += await frames_until(sockets[4], 'id="board"')
    match = await sync_to_async(match_of)(table)
    assert match.commitment == committed
    assert [c["seat"] for c in match.contributions] == [0, 1, 2, 3]
    next_secret = (await sync_to_async(Table.objects.get)(pk=table.pk)).next_secret
    hidden = {match.secret, match.seed, next_secret}
    clients = []
    for user in users:
        client = Client()
        await sync_to_async(client.force_login)(user)
        clients.append(client)

    # Play the match out over the players' sockets, keeping every frame anyone receives.
    while match.status == Match.Status.RUNNING:
        state = belote.loads(match.state)
        seat = state.to_act
        legal = belote.legal_actions(state, seat)
        bid = any(call != "pass" for _, call in belote.view(state, None)["auction"])
        action = legal[1] if legal[0] == "pass" and not bid else legal[0]
        await send(sockets[seat], op="play", action=action, version=str(match.version))
        for socket in sockets:  # everyone sees every move
            frames += await frames_until(socket, version_mark(match.version + 1))
        if match.version % 9 == 0:  # pages too, now and then, for every player and spectator
            for client in clients:
                for url, (status, text) in (
                    await sync_to_async(pages)(client, table, match)
                ).items():
                    assert not any(secret in text for secret in hidden), url
                    if "/m/" in url:
                        assert status == 404, url  # no record, log or replay while it runs
        match = await sync_to_async(match_of)(table)
    for received in await heard(table.pk, *sockets):  # and whatever the end of the match told
        frames += received
    for socket in sockets:
        await socket.disconnect()
    lobby_frames = await frames_until(lobby, table.code)
    lobby_frames += queued(lobby)  # and the later ones that came by now
    await lobby.disconnect()
    assert len(frames) > 100
    assert any(table.code in frame for frame in lobby_frames)  # the lobby listed the table
    for frame in frames + lobby_frames:
        assert not any(secret in frame for secret in hidden)

    # Once it is over, the record shows the secret, and its log checks out.
    assert match.status == Match.Status.FINISHED
    record = await sync_to_async(clients[4].get)(reverse("match", args=[match.pk]))
    text = record.content.decode()
    assert match.secret in text and match.seed in text and committed in text and MINE in text
    assert next_secret not in text
    log = await sync_to_async(clients[4].get)(reverse("match_log", args=[match.pk]))
    assert log["Content-Type"] == "application/json"
    assert all(finding.ok for finding in verify(json.loads(log.content)))


@pytest.mark.django_db
def test_the_log_lists_what_the_match_dealt_and_did():
    users = make_players(4)
    table = rows.create_table(users[0], "belote", {**OPTIONS, "target": 11}, is_private=True)
    for seat in (1, 2, 3):
        seating.take_seat(table.pk, users[seat], seat)
    matches.start_match(table.pk, users[0], MINE)
    match = match_of(table)
    state = belote.loads(match.state)
    while state.to_act is not None:
        action = belote.legal_actions(state, state.to_act)[-1]
        match = play.apply_action(table.pk, users[state.to_act], action, match.version).match
        state = belote.loads(match.state)
    log = history.match_log(match)
    assert log["contributions"] == [{"seat": 0, "value": MINE}]
    assert len(log["actions"]) == match.version
    assert len(log["deals"]) == len(belote.deal_results(state))
    assert log["deals"][0] == {
        "dealer": belote.first_dealer(match.seed),
        "cards": belote.deck(match.seed, 0),
    }
    assert log["result"] == match.result
    assert "deal_pause" not in log["options"]
    # Private: only its players see it.
    outsider = Client()
    outsider.force_login(get_user_model().objects.create_user("outsider", password="pw-123456789"))
    assert outsider.get(reverse("match_log", args=[match.pk])).status_code == 404
    me = Client()
    me.force_login(users[2])
    assert me.get(reverse("match_log", args=[match.pk])).status_code == 200
