"""axe-core finds no serious or critical violation on the site's pages and table states.

Each state is set up through the services (as players would reach it), then opened in
Chromium at a phone's and a desktop's size, and checked with the axe-core that
``axe-playwright-python`` bundles.
"""

from __future__ import annotations

import random

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.db import connections
from playwright.sync_api import Page, expect

from games.bots import grabush as grabush_bots
from games.engines import belote, grabush
from games.models import Match, Move
from games.tables import chat, matches, play, rows, seating
from tests.factories import OPTIONS, finish_match, make_players, seated_table, start_with_dealer
from tests.live import session_cookie

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
AXE = Axe()
#: axe's defaults, plus its experimental check that a control's name holds its visible text
#: (WCAG 2.5.3, label in name).
AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}


def serious_violations(page: Page) -> list[str]:
    """The serious and critical axe-core violations of the page as it shows now."""
    results = AXE.run(page, options=AXE_OPTIONS)
    return [
        f"{violation['id']}: {node['target']} {node.get('failureSummary', '')}"
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
        for node in violation["nodes"]
    ]


def check(page: Page, url: str, ready: str = "main") -> None:
    """Open ``url`` at each size and assert axe finds nothing serious."""
    for width, height in SIZES.values():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(url)
        expect(page.locator(ready).first).to_be_visible()
        found = serious_violations(page)
        assert not found, f"{url} at {width}x{height}: {found}"


def logged_in(new_page, user, base: str) -> Page:
    page = new_page()
    name, _, value = session_cookie(user).decode().partition("=")
    page.context.add_cookies([{"name": name, "value": value, "url": base}])
    return page


def test_pages_for_visitors(live_server_url, new_page):
    page = new_page()
    for path in ("/", "/accounts/login/", "/signup/", "/rules/belote/", "/rules/grabush/"):
        check(page, live_server_url + path)
    check(page, live_server_url + "/offline/")


@pytest.mark.parametrize("language", ["bg", "ru"])
def test_pages_in_bulgarian_and_russian(live_server_url, new_page, language):
    page = new_page()
    page.set_extra_http_headers({"Accept-Language": language})
    for path in ("/", "/signup/", "/rules/belote/", "/rules/grabush/", "/offline/"):
        check(page, live_server_url + path)
        expect(page.locator("html")).to_have_attribute("lang", language)


@pytest.mark.parametrize("language", ["en", "bg"])
def test_the_notifications_page(live_server_url, new_page, language):
    [player] = make_players(1)
    page = logged_in(new_page, player, live_server_url)
    page.set_extra_http_headers({"Accept-Language": language})
    check(page, live_server_url + "/notifications/", "#push-device[data-state]")
    expect(page.locator("html")).to_have_attribute("lang", language)


def test_belote_table_states(live_server_url, new_page):
    everyone = make_players(8)
    users = everyone[:4]
    waiting = rows.create_table(users[0], "belote", OPTIONS, is_private=True)
    running = seated_table(users)
    match = start_with_dealer(running, users[0], dealer=3)  # seat 0 bids first
    finished = seated_table(everyone[4:])
    finished.options = {**OPTIONS, "target": 11}
    finished.save()
    owner = finished.seats.get(index=0).user
    matches.start_match(finished.pk, owner)
    ended = finish_match(finished, [seat.user for seat in finished.seats.order_by("index")])
    connections.close_all()
    page = logged_in(new_page, users[0], live_server_url)
    check(page, live_server_url + "/")  # the lobby
    check(page, live_server_url + waiting.get_absolute_url(), "#seats")
    check(new_page(), live_server_url + waiting.get_absolute_url(), ".invite-landing")
    check(page, live_server_url + running.get_absolute_url(), ".auction-panel")
    # Clubs and three passes: the play begins, and the page shows the hand to play from.
    for call in ("C", "pass", "pass", "pass"):
        current = Match.objects.get(pk=match.pk)
        seat = belote.loads(current.state).to_act
        play.apply_action(running.pk, users[seat], call, current.version)
    assert belote.view(belote.loads(Match.objects.get(pk=match.pk).state), 0)["phase"] == "play"
    check(page, live_server_url + running.get_absolute_url(), ".hand .playable")
    watcher = logged_in(new_page, owner, live_server_url)
    check(watcher, live_server_url + finished.get_absolute_url(), "#board")
    check(watcher, live_server_url + f"/m/{ended.pk}/")
    check(watcher, live_server_url + f"/m/{ended.pk}/replay/?step=5")
    check(watcher, live_server_url + f"/u/{owner.username}/")
    check(watcher, live_server_url + "/leaderboard/")


@pytest.mark.parametrize("players", [2, 4, 8])
def test_grabush_tables(players, live_server_url, new_page):
    users = make_players(players)
    options = {"players": players, "stock_size": 20, "table_talk_penalty": True}
    table = rows.create_table(users[0], "grabush", options, is_private=True)
    for index, user in enumerate(users):
        seating.take_seat(table.pk, user, index)
    matches.start_match(table.pk, users[0])
    match = Match.objects.get(table=table)
    seat = grabush.loads(match.state).to_act
    connections.close_all()
    page = logged_in(new_page, users[seat], live_server_url)
    check(page, live_server_url + table.get_absolute_url(), ".grabush-board")


def finish_grabush(table, users) -> Match:
    """Play the table's running Grabush match to its end with the easy computer's choices;
    on the way seat 1 chats (table talk) and seat 0 claims the penalty."""
    match = Match.objects.get(table=table, status=Match.Status.RUNNING)
    state = grabush.loads(match.state)
    rng = random.Random(5)
    while not state.over:
        if match.version == 6:
            chat.post_message(table.pk, users[1], "play your seven!")
            assert play.apply_chat_rule(table.pk, users[1])
        elif state.rights[0]:
            claim = next(a for a in grabush.legal_actions(state, 0) if a.startswith("penalty:"))
            play.apply_action(table.pk, users[0], claim, match.version)
        else:
            seat = state.to_act
            action = grabush_bots.choose_easy(grabush.view(state, seat), rng)
            play.apply_action(table.pk, users[seat], action, match.version)
        match = Match.objects.get(pk=match.pk)
        state = grabush.loads(match.state)
    return match


def test_grabush_penalty_replays_and_records(live_server_url, new_page):
    """A table-talk penalty to claim (and the chat that caused it), the replays of a Belote and
    a Grabush match at a middle step, and the record of a Grabush match."""
    everyone = make_players(10)
    users = everyone[:4]
    options = {"players": 4, "stock_size": 20, "table_talk_penalty": True}
    talk = rows.create_table(users[0], "grabush", options, is_private=True)
    for index, user in enumerate(users):
        seating.take_seat(talk.pk, user, index)
    matches.start_match(talk.pk, users[0])
    chat.post_message(talk.pk, users[1], "play your seven!")
    assert play.apply_chat_rule(talk.pk, users[1])
    pair = everyone[4:6]
    two = {"players": 2, "stock_size": 20, "table_talk_penalty": True}
    finished = rows.create_table(pair[0], "grabush", two, is_private=True)
    seating.take_seat(finished.pk, pair[1], 1)
    matches.start_match(finished.pk, pair[0])
    ended = finish_grabush(finished, pair)
    belote_users = everyone[6:]
    belote_table = seated_table(belote_users)
    belote_table.options = {**OPTIONS, "target": 11}
    belote_table.save()
    matches.start_match(belote_table.pk, belote_users[0])
    belote_ended = finish_match(belote_table, belote_users)
    middles = {m.pk: Move.objects.filter(match=m).count() // 2 for m in (ended, belote_ended)}
    assert all(step > 10 for step in middles.values())
    connections.close_all()

    claimant = logged_in(new_page, users[0], live_server_url)
    check(claimant, live_server_url + talk.get_absolute_url(), ".penalty-panel")
    chatter = logged_in(new_page, users[1], live_server_url)
    check(chatter, live_server_url + talk.get_absolute_url(), "#chat-log .chat-line")
    watcher = logged_in(new_page, pair[0], live_server_url)
    check(watcher, live_server_url + f"/m/{ended.pk}/", ".match-record")
    check(watcher, live_server_url + f"/m/{ended.pk}/replay/?step={middles[ended.pk]}", "#replay")
    player = logged_in(new_page, belote_users[0], live_server_url)
    step = middles[belote_ended.pk]
    check(player, live_server_url + f"/m/{belote_ended.pk}/replay/?step={step}", "#replay")
