"""The "Play now" button in Chromium: one click on the home page, and a real game runs."""

from __future__ import annotations

import pytest
from django.db import connections
from playwright.sync_api import expect

from games.catalog import get_game
from games.engines import fair_deals
from games.models import Match, MatchPlayer, Seat, Table
from games.tables import quick
from tests.factories import make_players

from .steps import sign_up
from .test_accessibility import check, logged_in, serious_violations


def test_play_now_on_the_home_page_lands_on_a_running_game_with_my_cards(live_server_url, new_page):
    page = new_page()
    sign_up(page, live_server_url, "quick")
    page.goto(live_server_url + "/")
    # The secret of the first match is chosen first: its fingerprint is on the page.
    shown = page.locator("input[name='commitment']").first.get_attribute("value")
    expect(page.locator(".fair-note")).to_contain_text(shown[:12])
    page.get_by_role("button", name="Play Belote now").click()
    expect(page).to_have_url(f"{live_server_url}{Table.objects.get().get_absolute_url()}")
    # That secret fixes the match's deals, mixed with my browser's random contribution.
    match = Match.objects.get()
    assert fair_deals.commitment(match.secret) == shown
    assert [c["seat"] for c in match.contributions] == [0]
    expect(page.locator("#fair-deals summary")).to_contain_text(shown[:12])
    expect(page.locator("#connection")).to_have_text("Connected")
    expect(page.locator("#seats")).to_contain_text("quick (you)")
    expect(page.locator("#seats .seat-name", has_text="computer, hard")).to_have_count(3)
    # My own cards, face up and named, and the match under way: no "Start" to press.
    expect(page.locator("#my-area .hand .playing-card")).to_have_count(5)
    expect(page.get_by_role("button", name="Start the match")).to_have_count(0)
    match = Match.objects.get()
    assert match.status == Match.Status.RUNNING and match.table.quick
    # The computers bid until it is my turn; then I bid too, and the game goes on.
    expect(page.locator(".your-turn")).to_have_text("Your turn")
    version = Match.objects.get().version
    page.locator(".auction-panel button").first.click()
    expect(page.locator("#play-version input")).not_to_have_attribute("value", str(version))
    assert Match.objects.get().moves.exclude(user=None).count() == 1


def test_a_visitors_play_now_goes_through_sign_up_to_the_game(live_server_url, new_page):
    page = new_page()
    page.goto(live_server_url + "/")
    page.get_by_role("link", name="Play Grabush now").click()
    expect(page).to_have_url(f"{live_server_url}/signup/?next=/play/grabush/")
    page.get_by_label("Username").fill("visitor")
    page.get_by_label("Password", exact=True).fill("a-Long-secret-42")
    page.get_by_label("Password confirmation").fill("a-Long-secret-42")
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(f"{live_server_url}/play/grabush/")
    page.get_by_role("button", name="Play Grabush now").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    expect(page.locator("#seats")).to_contain_text("visitor (you)")
    expect(page.get_by_role("group", name="Your hand")).to_be_visible()
    assert Table.objects.get().quick


def test_join_from_the_lobby_holds_a_computers_seat_until_the_next_deal(live_server_url, new_page):
    host, guest = make_players(2)
    table = quick.play_now(host, "belote").table
    connections.close_all()
    page = logged_in(new_page, guest, live_server_url)
    check(page, live_server_url + "/", "#lobby-tables .table-item")  # the lobby, joinable
    row = page.locator("#lobby-tables .table-item", has_text="opened by player0")
    expect(row).to_contain_text("You take a computer player's seat at the next deal.")
    row.get_by_role("button", name="Join").click()  # an htmx POST with the CSRF header
    expect(page).to_have_url(live_server_url + table.get_absolute_url())
    expect(page.locator("#table-status")).to_contain_text("You take seat 2 at the next deal.")
    expect(page.locator("#seats")).to_contain_text("player1 takes seat 2 at the next deal.")
    assert Seat.objects.get(table=table, index=1).user == guest
    assert MatchPlayer.objects.get(match__table=table, seat=1).user is None
    check(page, live_server_url + table.get_absolute_url(), "#table-status .claim-note")
    page.get_by_role("button", name="Give the seat back").click()
    expect(page.locator("#table-status")).not_to_contain_text("You take seat 2")
    assert Seat.objects.get(table=table, index=1).bot_level == get_game("belote").cover_level


@pytest.fixture
def computers_wait(settings):
    """The server's computers take their time: a computer's turn stays on screen."""
    settings.BOT_DELAY_SECONDS = 3600


def test_a_first_play_now_is_a_fresh_match_and_joining_one_in_progress_is_a_choice(
    computers_wait, live_server_url, new_page
):
    from games.engines import belote
    from tests.test_play_now import play_deals

    host, guest = make_players(2)
    left = quick.play_now(host, "belote").table
    match = play_deals(left, 2)
    state = belote.loads(match.state)
    scores = belote.view(state, None)["scores"]
    deal = len(belote.deal_results(state)) + 1
    connections.close_all()
    page = logged_in(new_page, guest, live_server_url)
    page.goto(live_server_url + "/")
    # Seat 2 would be the guest's: the score of seats 2 & 4 first.
    join = page.get_by_role(
        "button", name=f"Join a match in progress — {scores[1]}–{scores[0]}, deal {deal}"
    )
    expect(join).to_be_visible()
    expect(join).to_have_accessible_description(
        "You take a computer player's seat at the next deal."
    )
    check(page, live_server_url + "/", ".join-in-progress")
    # "Play now" itself starts the guest's own match at 0-0.
    page.get_by_role("button", name="Play Belote now").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    mine = Table.objects.exclude(pk=left.pk).get()
    expect(page).to_have_url(live_server_url + mine.get_absolute_url())
    assert belote.deal_results(belote.loads(Match.objects.get(table=mine).state)) == []
    assert Seat.objects.get(table=left, index=1).user is None
    expect(page.locator("#seats")).to_contain_text("player1 (you)")
    # A computer to act is its short name and mark; its level only in the seats panel.
    status = page.locator("#table-status")
    expect(status.locator(".computer-name").or_(page.locator(".your-turn"))).to_be_visible()
    if page.locator(".your-turn").count():
        page.locator(".auction-panel button").first.click()
    expect(status.locator(".computer-name .computer-mark")).to_be_visible()
    expect(status).to_contain_text("Waiting for")
    expect(status).not_to_contain_text("computer, hard")
    expect(page.locator("#seats .seat-name", has_text="computer, hard")).to_have_count(3)
    check(page, live_server_url + mine.get_absolute_url(), "#table-status .computer-name")


def test_a_quick_table_says_once_that_at_tables_you_open_you_choose_what_to_announce(
    computers_wait, live_server_url, new_page
):
    from django.db.models import F

    from games.engines import belote
    from tests.engines.belote_helpers import calls, stack

    from .test_announce_choice_browser import HANDS

    (player,) = make_players(1)
    table = quick.play_now(player, "belote").table
    # Seat 1 holds a tierce and leads: at a quick table the first card announces it.
    state = calls(belote.new_game(1, dealer=3, decks=[stack(3, HANDS)]), "H", *["pass"] * 3)
    Match.objects.filter(table=table).update(
        state=belote.dumps(state), version=F("version") + 1, last_seat=3, last_action="pass"
    )
    connections.close_all()
    page = logged_in(new_page, player, live_server_url)
    page.goto(live_server_url + table.get_absolute_url())
    note = page.locator("#my-area [data-once='announce-choice']")
    expect(page.locator("#my-area .playable[value='7H']")).to_be_visible()
    expect(note).to_have_count(0)
    page.locator("#my-area .playable[value='7H']").click()
    expect(note).to_contain_text("At tables you open, you can choose what to announce.")
    expect(note).to_be_visible()
    assert not serious_violations(page)
    # Said once: the next page has it in its HTML, and hides it.
    page.reload()
    expect(note).to_have_count(1)
    expect(note).to_be_hidden()
