"""One click on "Play now" seats a player at a new quick table with computer players and starts
it at 0-0; joining a match in progress, taking a computer's seat from its next deal, is a choice
of its own."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.catalog import get_game
from games.engines import belote, fair_deals
from games.live import moves, presence, snapshots
from games.live.autoplay import pending_in
from games.live.frames import render_frame, table_context
from games.models import Match, MatchPlayer, RatingChange, Seat, Server, Table
from games.records import ratings
from games.tables import matches, play, quick, rows, seating
from games.tables.lobby import render_lobby_frame
from games.views.tables import PLAY_NOW_SECRET
from tests.factories import OPTIONS, make_players, match_of
from tests.pages import by_id

pytestmark = pytest.mark.django_db


def seats_of(table: Table) -> list[tuple[int | None, str]]:
    return list(Seat.objects.filter(table=table).order_by("index").values_list("user", "bot_level"))


def players_of(match: Match) -> list[tuple[int | None, str]]:
    return list(match.players.order_by("seat").values_list("user", "bot_level"))


def at_the_table(table: Table, *users) -> None:
    """Give each of ``users`` an open page of ``table`` (a presence of a live server)."""
    Server.objects.update_or_create(
        name=presence.server_name(), defaults={"seen_at": timezone.now()}
    )
    for user in users:
        presence.join(table.code, user, f"channel-{table.pk}-{user.pk}")


def move(table: Table, match: Match) -> Match:
    """Make the next move of the running match as whoever plays its seat: its human, or its
    computer player (both through ``apply_action``); a finished deal's pause is ended first by
    every human asking for the next deal."""
    if matches.pause_active(match):
        for player in match.players.exclude(user=None).select_related("user"):
            if matches.pause_active(match_of(table)):
                matches.ready_for_next_deal(table.pk, player.user)
        match = match_of(table)
    engine = get_game(match.game).engine
    state = engine.loads(match.state)
    seat = state.to_act
    player = match.players.select_related("user").get(seat=seat)
    action = random.Random(match.version).choice(engine.legal_actions(state, seat))
    if player.user is not None:
        return play.apply_action(table.pk, player.user, action, match.version).match
    return play.apply_action(table.pk, None, action, match.version, seat=seat).match


def play_to_end(table: Table) -> Match:
    match = match_of(table)
    while match.status == Match.Status.RUNNING:
        match = move(table, match)
    return match


@pytest.mark.parametrize("game", ["belote", "grabush"])
def test_one_click_opens_a_quick_table_with_computers_and_starts_it(client, game):
    (alice,) = make_players(1)
    client.force_login(alice)
    response = client.post(reverse("play_now"), {"game": game})
    table = Table.objects.get()
    assert response.status_code == 302 and response.url == table.get_absolute_url()
    assert table.quick and not table.is_private and table.owner == alice
    assert table.status == Table.Status.PLAYING
    assert table.turn_seconds == 0  # alone with computers: no clock while she learns
    assert table.options == quick.default_options(game)
    count = get_game(game).seat_count(table.options)
    assert seats_of(table) == [(alice.pk, "")] + [(None, get_game(game).cover_level)] * (count - 1)
    match = match_of(table)
    assert match.status == Match.Status.RUNNING and match.number == 1
    assert players_of(match) == seats_of(table)
    # The table page is a real game for her: her own seat's view, her cards.
    page = client.get(table.get_absolute_url())
    assert page.context["viewer"] == 0 and page.context["seated"]
    assert "hand" in page.context["view"] and page.context["view"]["hand"]


def test_options_are_the_options_forms_initial_values_but_no_table_talk_penalty():
    assert quick.default_options("belote") == {
        **OPTIONS,
        **{
            name: field.initial
            for name, field in get_game("belote").options_form.base_fields.items()
            if name not in OPTIONS
        },
        "ask_to_announce": False,  # a newcomer is not asked: everything is announced
    }
    assert quick.default_options("grabush") == {
        "players": 2,
        "stock_size": 20,
        "table_talk_penalty": False,  # a quick table's greeting costs nothing
    }


def test_a_later_player_holds_a_computers_seat_and_takes_it_over_at_the_next_deal():
    alice, bob = make_players(2)
    table = quick.play_now(alice, "belote").table
    assert quick.claim_computer_seat(table.pk, bob) == 1
    table.refresh_from_db()
    assert seats_of(table)[1] == (bob.pk, "")  # the table's seat is his at once…
    assert 1 in table.rematch_votes  # …and so is the next match, should this one end first
    match = match_of(table)
    deals = len(belote.deal_results(belote.loads(match.state)))
    while True:  # …but the computer plays the seat for the rest of the deal
        assert players_of(match)[1] == (None, get_game("belote").cover_level)
        before = match.version
        match = move(table, match)
        if len(belote.deal_results(belote.loads(match.state))) > deals:
            break
    # Exactly at the move that started the next deal, the seat is his in the match too.
    player = MatchPlayer.objects.get(match=match, seat=1)
    assert (player.user_id, player.bot_level) == (bob.pk, "")
    assert player.joined_version == before + 1 == match.version
    assert player.away_since is not None  # no page of the table open: away, covered in time
    assert match.status == Match.Status.RUNNING
    table.refresh_from_db()  # two people at the table now: the clock runs
    assert table.turn_seconds == quick.QUICK_TURN_SECONDS
    # The other seats are untouched.
    assert players_of(match)[0] == (alice.pk, "")
    assert players_of(match)[2:] == [(None, get_game("belote").cover_level)] * 2


def test_a_player_at_the_table_takes_over_with_no_away_mark_and_plays_his_own_cards():
    alice, bob = make_players(2)
    table = quick.play_now(alice, "belote").table
    quick.claim_computer_seat(table.pk, bob)
    at_the_table(table, alice, bob)
    snapshot = snapshots.load_snapshot(table.pk)
    context = table_context(table, bob, snapshot=snapshot)
    # Until the next deal he watches, and is told when he plays.
    assert context["my_claim_note"] == "You take seat 2 at the next deal."
    assert context["viewer"] is None and not context["seated"]
    assert context["seats"][1]["name"] == "Ivan · computer, hard"
    assert context["seats"][1]["claim_note"] == "player1 takes seat 2 at the next deal."
    frame = render_frame(table, bob, snapshot=snapshot)
    assert "You take seat 2 at the next deal." in by_id(frame)["table-status"]
    assert "player1 takes seat 2 at the next deal." in by_id(frame)["seats"]
    assert "(you)" not in by_id(frame)["seats"]
    match = match_of(table)
    deals = len(belote.deal_results(belote.loads(match.state)))
    while len(belote.deal_results(belote.loads(match.state))) == deals:
        match = move(table, match)
    player = MatchPlayer.objects.get(match=match, seat=1)
    assert player.user_id == bob.pk and player.away_since is None and not player.covered
    context = table_context(table, bob)
    assert context["my_claim_note"] == "" and context["viewer"] == 1 and context["seated"]
    assert context["seats"][1]["name"] == "player1"
    # Once the deal's result has been seen, his turns wait for him: no computer move is owed.
    for user in (alice, bob):
        matches.ready_for_next_deal(table.pk, user)
    match = match_of(table)
    state = belote.loads(match.state)
    while state.to_act != 1:
        match = move(table, match)
        state = belote.loads(match.state)
    pending = pending_in(snapshots.load_snapshot(table.pk))
    assert pending.seat == 1  # only his turn timer's move, half a minute after his turn began
    assert (pending.due - match.turn_started_at).total_seconds() == quick.QUICK_TURN_SECONDS
    action = belote.legal_actions(state, 1)[0]
    match = play.apply_action(table.pk, bob, action, match.version).match
    assert match.last_seat == 1


def test_the_deal_that_hands_a_seat_over_is_read_again_not_carried_forward(
    django_capture_on_commit_callbacks,
):
    """A move made on a held read, in the process that made it, normally needs no new read;
    the move that hands a seat over changes the players, so its event reads them."""
    alice, bob = make_players(2)
    table = quick.play_now(alice, "belote").table
    quick.claim_computer_seat(table.pk, bob)
    match = match_of(table)
    deals = len(belote.deal_results(belote.loads(match.state)))
    while True:
        state = belote.loads(match.state)
        seat = state.to_act
        # No contra or recontra: a doubled first deal may end the match, and then no deal follows.
        legal = belote.legal_actions(state, seat)
        action = [a for a in legal if a not in ("contra", "recontra")][-1]
        snapshots.event_snapshot(table.pk, "")  # this process holds the table
        user = alice if seat == 0 else None
        with django_capture_on_commit_callbacks(execute=True):
            match = moves.apply(
                table.pk, user, action, match.version, seat=None if user else seat
            ).match
        held = snapshots.event_snapshot(
            table.pk, f"move {match.version}", news={"match": match.pk, "version": match.version}
        )
        assert held.match.version == match.version
        if len(belote.deal_results(belote.loads(match.state))) > deals:
            break
        assert held.table is not None and {p.seat: p.user_id for p in held.players}[1] is None
    assert {p.seat: p.user_id for p in held.players}[1] == bob.pk


def test_play_now_takes_a_seated_player_back_to_their_table(client):
    alice, bob = make_players(2)
    table = quick.play_now(alice, "belote").table
    assert quick.play_now(alice, "belote") == (table, "back")
    quick.claim_computer_seat(table.pk, bob)
    assert quick.play_now(bob, "belote") == (table, "back")  # waiting for his deal
    client.force_login(bob)
    response = client.post(reverse("play_now"), {"game": "belote"})
    assert response.url == table.get_absolute_url()
    assert Table.objects.count() == 1
    computer = get_game("belote").cover_level
    assert seats_of(table)[1:] == [(bob.pk, ""), (None, computer), (None, computer)]
    # Another game is another quick table.
    other = quick.play_now(alice, "grabush")
    assert other.how == "created" and other.table != table


def test_full_private_and_finished_tables_are_not_joined():
    users = make_players(6)
    table = quick.play_now(users[0], "belote").table
    for user in users[1:4]:
        quick.claim_computer_seat(table.pk, user)
    assert seats_of(table) == [(user.pk, "") for user in users[:4]]
    with pytest.raises(quick.SeatGone):  # no computer left there
        quick.claim_computer_seat(table.pk, users[4])
    # A table opened from the lobby is never joined by "Play now", even with computers in it.
    own = rows.create_table(users[5], "grabush", quick.default_options("grabush"), is_private=False)
    seating.fill_with_bots(own.pk, users[5], "easy")
    matches.start_match(own.pk, users[5])
    with pytest.raises(rows.TableError):
        quick.claim_computer_seat(own.pk, users[0])
    grabush = quick.play_now(users[0], "grabush")
    assert grabush.how == "created" and grabush.table != own


def test_play_now_respects_the_open_tables_limit(client, settings):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 1
    alice, bob = make_players(2)
    table = quick.play_now(alice, "belote").table
    rows.create_table(bob, "belote", OPTIONS, is_private=True)  # bob is at his limit
    with pytest.raises(rows.TableError, match="1 table waiting or playing"):
        quick.play_now(bob, "belote")
    with pytest.raises(rows.TableError, match="1 table waiting or playing"):
        quick.claim_computer_seat(table.pk, bob)
    assert (
        seats_of(table)[1] == (None, get_game("belote").cover_level) and Table.objects.count() == 2
    )
    client.force_login(bob)
    response = client.post(reverse("play_now"), {"game": "belote"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "1 table waiting or playing" in response.content.decode()
    # A seat held at someone else's quick table counts too.
    assert quick.play_now(alice, "belote").how == "back"
    carol = get_user_model().objects.create_user("carol", password="pw-123456789")
    quick.claim_computer_seat(table.pk, carol)
    with pytest.raises(rows.TableError, match="1 table waiting or playing"):
        quick.play_now(carol, "grabush")


def test_a_visitor_is_sent_to_sign_up_and_comes_back_to_play(client):
    home = client.get("/").content.decode()
    after = reverse("play_now_game", args=["belote"])
    assert f'href="{reverse("signup")}?next=/play/belote/"' in home
    assert "Play Belote now" in home and "Play Grabush now" in home
    response = client.get(after)
    assert response.status_code == 302 and response.url == f"{reverse('login')}?next={after}"
    response = client.post(reverse("play_now"), {"game": "belote"})
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not Table.objects.exists()
    password = "a-Long-secret-42"
    response = client.post(
        f"{reverse('signup')}?next={after}",
        {"username": "newbie", "password1": password, "password2": password, "next": after},
    )
    assert response.status_code == 302 and response.url == after
    page = client.get(after).content.decode()
    assert 'action="/play/"' in page and 'value="belote"' in page
    response = client.post(reverse("play_now"), {"game": "belote"})
    table = Table.objects.get()
    assert response.url == table.get_absolute_url() and table.owner.username == "newbie"
    assert client.post(reverse("play_now"), {"game": "chess"}).status_code == 404


def test_the_lobby_offers_play_now_and_lists_quick_tables_with_computer_seats(client):
    alice, bob, carol = make_players(3)
    client.force_login(bob)
    lobby = client.get("/").content.decode()
    assert lobby.count('action="/play/"') == 2
    assert 'name="csrfmiddlewaretoken"' in lobby
    table = quick.play_now(alice, "belote").table
    join = reverse("join_quick_table", args=[table.code])
    frame = render_lobby_frame()
    assert f'hx-post="{join}"' in frame
    assert "You take a computer player's seat at the next deal." in html.unescape(frame)
    response = client.post(join, headers={"HX-Request": "true"})
    assert response.status_code == 200 and response["HX-Redirect"] == table.get_absolute_url()
    assert seats_of(table)[1] == (bob.pk, "")
    for name in ("dave", "erin"):
        user = get_user_model().objects.create_user(name, password="pw-123456789")
        quick.claim_computer_seat(table.pk, user)
    frame = render_lobby_frame()
    assert f'hx-post="{join}"' not in frame and table.get_absolute_url() in frame  # "Watch"
    client.force_login(carol)
    response = client.post(join, follow=True)
    assert "Every seat at this table has a player now." in response.content.decode()


def test_a_waiting_player_may_give_the_seat_back_but_nobody_leaves_a_seat_in_play():
    alice, bob = make_players(2)
    table = quick.play_now(alice, "belote").table
    quick.claim_computer_seat(table.pk, bob)
    with pytest.raises(rows.TableError, match="can't change"):
        seating.leave_seat(table.pk, alice)
    seating.leave_seat(table.pk, bob)
    table.refresh_from_db()
    assert seats_of(table)[1] == (None, get_game("belote").cover_level)
    assert 1 not in table.rematch_votes
    assert players_of(match_of(table))[1] == (None, get_game("belote").cover_level)
    # After the match its creator cannot empty a seat either: the table stays full for the next.
    play_to_end(table)
    with pytest.raises(rows.TableError, match="keeps a computer player"):
        seating.set_bot(table.pk, alice, 1, "")


def test_a_quick_match_stays_unrated_even_when_people_took_every_computer_seat():
    users = make_players(4)
    table = quick.play_now(users[0], "belote").table
    for user in users[1:]:
        quick.claim_computer_seat(table.pk, user)
    match = play_to_end(table)
    players = list(match.players.all())
    assert [p.user_id for p in players] == [u.pk for u in users]  # humans by the end…
    assert not any(p.bot_level for p in players)
    assert not ratings.is_rated(players)  # …but computers played their seats at first
    assert not RatingChange.objects.filter(match=match).exists()
    assert all(p.outcome for p in players)


def test_grabush_hands_a_claimed_seat_over_with_the_next_match():
    alice, bob = make_players(2)
    table = quick.play_now(alice, "grabush").table
    assert quick.claim_computer_seat(table.pk, bob) == 1
    at_the_table(table, alice, bob)
    first = play_to_end(table)  # a game without deals: the computer plays it to its end
    assert players_of(first)[1] == (None, get_game("grabush").cover_level)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.rematch_votes == [1]
    status = by_id(render_frame(table, bob))["table-status"]
    assert "You lost." not in status and "You won!" not in status  # he did not play it
    assert "Waiting for the other players" in status
    vote = matches.vote_rematch(table.pk, alice)  # bob pressed "Play now": he had asked already
    assert vote.match is not None and vote.match.number == 2
    assert players_of(vote.match) == [(alice.pk, ""), (bob.pk, "")]
    assert MatchPlayer.objects.get(match=vote.match, seat=1).joined_version is None


def test_a_quick_tables_next_match_waits_only_for_the_players_still_at_it():
    alice, bob = make_players(2)
    table = quick.play_now(alice, "grabush").table
    quick.claim_computer_seat(table.pk, bob)
    at_the_table(table, alice, bob)
    presence.leave(table.pk, bob.pk, f"channel-{table.pk}-{bob.pk}")  # bob closes the page
    play_to_end(table)
    # Bob had asked for the next match (he pressed "Play now"), but he has gone: his seat goes
    # back to a computer player rather than hold the table.
    vote = matches.vote_rematch(table.pk, alice)
    assert vote.match is not None
    assert players_of(vote.match) == [(alice.pk, ""), (None, get_game("grabush").cover_level)]
    assert seats_of(table) == [(alice.pk, ""), (None, get_game("grabush").cover_level)]


@pytest.mark.parametrize("how", ["closes the page", "leaves the seat"])
def test_a_finished_quick_table_starts_again_once_the_one_it_waits_for_leaves(how):
    alice, bob = make_players(2)
    table = quick.play_now(alice, "grabush").table
    quick.claim_computer_seat(table.pk, bob)
    at_the_table(table, alice, bob)
    play_to_end(table)
    assert matches.vote_rematch(table.pk, alice).match.number == 2
    play_to_end(table)
    vote = matches.vote_rematch(table.pk, alice)
    assert vote.changed and vote.match is None  # bob is still at the table: he is waited for
    if how == "closes the page":
        presence.leave(table.pk, bob.pk, f"channel-{table.pk}-{bob.pk}")
    else:
        seating.leave_seat(table.pk, bob)
    match = match_of(table)
    assert match.number == 3 and match.status == Match.Status.RUNNING
    assert players_of(match) == [(alice.pk, ""), (None, get_game("grabush").cover_level)]


def commitment_shown(client) -> str:
    """The fingerprint the lobby's "Play now" forms carry (the secret of the next quick table)."""
    page = client.get(reverse("home")).content.decode()
    shown = set(re.findall(r'name="commitment" value="([0-9a-f]{64})"', page))
    assert len(shown) == 1
    return shown.pop()


def test_play_now_shows_its_secrets_fingerprint_first_and_takes_the_browsers_contribution(client):
    (alice,) = make_players(1)
    client.force_login(alice)
    shown = commitment_shown(client)
    assert commitment_shown(client) == shown  # the same secret until it is used
    secret = client.session[PLAY_NOW_SECRET]
    assert secret not in client.get(reverse("home")).content.decode()
    mine = "ab" * 32
    client.post(reverse("play_now"), {"game": "belote", "commitment": shown, "contribution": mine})
    match = match_of(Table.objects.get())
    assert fair_deals.commitment(match.secret) == shown
    assert match.contributions == [{"seat": 0, "value": mine}]
    assert match.seed == fair_deals.derive_seed(secret, match.contributions)
    assert PLAY_NOW_SECRET not in client.session
    assert commitment_shown(client) != shown  # the next quick table gets a new secret
    # While it runs, neither its secret nor its seed reaches the player.
    shown_to_her = client.get(match.table.get_absolute_url()).content.decode()
    shown_to_her += render_frame(match.table, alice)
    assert match.secret not in shown_to_her and match.seed not in shown_to_her


def test_a_play_now_form_from_a_stale_page_starts_without_a_contribution(client):
    (alice,) = make_players(1)
    client.force_login(alice)
    stale = commitment_shown(client)
    form = {"game": "grabush", "commitment": stale, "contribution": "cd" * 32}
    client.post(reverse("play_now"), form)
    Table.objects.all().delete()
    # That secret is used; a page still showing it must not claim it for a new table.
    client.post(reverse("play_now"), form | {"contribution": "ef" * 32})
    match = match_of(Table.objects.get())
    assert fair_deals.commitment(match.secret) != stale
    assert match.contributions == []


def test_a_malformed_contribution_opens_no_table(client):
    (alice,) = make_players(1)
    client.force_login(alice)
    shown = commitment_shown(client)
    response = client.post(
        reverse("play_now"), {"game": "belote", "commitment": shown, "contribution": "not hex"}
    )
    assert response.status_code == 302 and response.url == reverse("home")
    assert not Table.objects.exists()


def play_deals(table: Table, count: int) -> Match:
    """Play the running match on until ``count`` deals are done, their pauses ended (no contra
    or recontra: a doubled deal may end the match early)."""
    match = match_of(table)
    while len(belote.deal_results(belote.loads(match.state))) < count:
        if matches.pause_active(match):
            match = move(table, match)
            continue
        state = belote.loads(match.state)
        seat = state.to_act
        legal = [a for a in belote.legal_actions(state, seat) if a not in ("contra", "recontra")]
        action = random.Random(match.version).choice(legal)
        user = match.players.select_related("user").get(seat=seat).user
        where = None if user is not None else seat
        match = play.apply_action(table.pk, user, action, match.version, seat=where).match
    if matches.pause_active(match):
        match = move(table, match)  # ends the pause (every human asks for the next deal)
        match = match_of(table)
    assert match.status == Match.Status.RUNNING
    return match


def test_a_first_play_now_starts_a_fresh_match_not_one_someone_left(client):
    alice, newcomer = make_players(2)
    left = quick.play_now(alice, "belote").table
    play_deals(left, 2)  # a match under way, with points on the sheet
    assert quick.match_in_progress(newcomer, "belote") is not None
    client.force_login(newcomer)
    response = client.post(reverse("play_now"), {"game": "belote"})
    mine = Table.objects.exclude(pk=left.pk).get()
    assert response.url == mine.get_absolute_url()
    assert seats_of(left)[1] == (None, get_game("belote").cover_level)  # not joined
    match = match_of(mine)
    state = belote.loads(match.state)
    assert belote.deal_results(state) == [] and belote.view(state, 0)["scores"] == [0, 0]
    assert players_of(match)[0] == (newcomer.pk, "")
    context = table_context(mine, newcomer)
    assert context["viewer"] == 0 and context["my_claim_note"] == ""


def test_joining_a_match_in_progress_is_a_choice_that_shows_its_score(client):
    alice, bob = make_players(2)
    table = quick.play_now(alice, "belote").table
    match = play_deals(table, 2)
    state = belote.loads(match.state)
    scores = belote.view(state, None)["scores"]
    deal = len(belote.deal_results(state)) + 1
    going = quick.match_in_progress(bob, "belote")
    # Bob would take seat 2, on the side of seats 2 & 4: its score comes first.
    assert going.table == table
    assert going.progress == f"{scores[1]}–{scores[0]}, deal {deal}"
    client.force_login(bob)
    lobby = html.unescape(client.get("/").content.decode())
    join = reverse("join_quick_table", args=[table.code])
    form = lobby[lobby.index(f'action="{join}"') :]
    assert f"Join a match in progress — {scores[1]}–{scores[0]}, deal {deal}" in form
    assert "You take a computer player's seat at the next deal." in form
    assert quick.match_in_progress(bob, "grabush") is None  # no Grabush table is playing
    response = client.post(join)
    assert response.url == table.get_absolute_url()
    assert seats_of(table)[1] == (bob.pk, "")
    # Sitting at one, they are offered no other; their own "Play now" takes them back.
    assert quick.match_in_progress(bob, "belote") is None
    assert quick.play_now(bob, "belote") == (table, "back")


def test_the_score_sheet_names_each_deals_declarer_as_it_was_then():
    alice, bob = make_players(2)
    table = quick.play_now(alice, "belote").table
    quick.claim_computer_seat(table.pk, bob)
    at_the_table(table, alice, bob)
    # The first deal, still the computer's in seat 2: it bids, the others pass.
    match = match_of(table)
    while not belote.deal_results(belote.loads(match.state)):
        state = belote.loads(match.state)
        legal = belote.legal_actions(state, state.to_act)
        if belote.phase(state) == "auction":
            bids = [a for a in legal if a not in ("pass", "contra", "recontra")]
            action = bids[0] if state.to_act == 1 and bids else "pass"
        else:
            action = legal[0]
        user = alice if state.to_act == 0 else None
        seat = None if user else state.to_act
        match = play.apply_action(table.pk, user, action, match.version, seat=seat).match
    assert belote.deal_results(belote.loads(match.state))[0]["declarer"] == 1
    match = play_deals(table, 3)  # bob plays the next ones
    player = MatchPlayer.objects.get(match=match, seat=1)
    assert player.user_id == bob.pk and player.replaced_level == get_game("belote").cover_level
    first = player.joined_deal
    assert first is not None and first >= 2
    sheet = table_context(table, alice)["sheet"]
    for row in sheet:
        if row["deal"]["declarer"] == 1:
            assert row["declarer_name"] == ("Ivan" if row["number"] < first else "player1")
    earlier = [row for row in sheet if row["deal"]["declarer"] == 1 and row["number"] < first]
    assert earlier  # the computer's own contract, still its own
    # The match's record names it too, with its level.
    from games.records.history import match_record

    record = match_record(match)
    named = {row["number"]: row["declarer_name"] for row in record["sheet"]}
    assert named[earlier[0]["number"]] == "Ivan · computer, hard"


def test_the_status_line_and_last_trick_name_a_computer_short_with_its_mark():
    (alice,) = make_players(1)
    table = quick.play_now(alice, "belote").table
    match = match_of(table)
    state = belote.loads(match.state)
    while state.to_act == 0 or not belote.view(state, None)["last_trick"]:
        match = move(table, match)
        state = belote.loads(match.state)
    frame = by_id(render_frame(table, alice))
    status = frame["table-status"]
    name = ["Maria", "Ivan", "Elena", "Georgi"][state.to_act]
    assert f'Waiting for <span class="computer-name">{name}<svg' in status
    assert "computer, hard" not in status
    history = frame["board-history"]
    assert "Last trick, taken by" in history and "computer, hard" not in history
    assert "computer, hard" in frame["seats"]  # the level stays in the seats panel


def test_a_quick_table_that_announces_for_a_player_says_at_their_own_tables_they_choose():
    from django.db.models import F

    from tests.browser.test_announce_choice_browser import HANDS
    from tests.engines.belote_helpers import calls, stack

    (alice,) = make_players(1)
    table = quick.play_now(alice, "belote").table
    # Seat 1 holds a tierce; at a quick table it is announced with the first card.
    state = belote.new_game(1, dealer=3, decks=[stack(3, HANDS)])
    state = calls(state, "H", "pass", "pass", "pass")
    match = match_of(table)
    Match.objects.filter(pk=match.pk).update(
        state=belote.dumps(state), version=F("version") + 1, last_seat=3, last_action="pass"
    )
    note = "At tables you open, you can choose what to announce."
    assert note not in html.unescape(by_id(render_frame(table, alice))["my-area"])
    match = match_of(table)
    play.apply_action(table.pk, alice, "7H", match.version)
    area = html.unescape(by_id(render_frame(table, alice))["my-area"])
    assert note in area and 'data-once="announce-choice"' in area
    # A table the player opened, announcing everything as they chose, says nothing of it.
    table.quick = False
    table.save(update_fields=["quick"])
    assert note not in html.unescape(by_id(render_frame(table, alice))["my-area"])
