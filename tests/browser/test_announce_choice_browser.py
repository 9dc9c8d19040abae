"""A Belote table that asks before announcing: with the first card the player announces a
tierce or keeps it quiet, and with the first of a trump king and queen says belot or not; the
felt and the other players learn only what was announced."""

from __future__ import annotations

from django.db.models import F
from playwright.sync_api import Page, expect

from games.engines import belote
from games.models import Match, Move

from ..engines.belote_helpers import calls, stack
from .steps import sign_up, switch_language, words
from .test_accessibility import SIZES, serious_violations

#: Seat 0 holds a tierce (7-8-9 of hearts) and the belot of hearts.
HANDS = [
    ["7H", "8H", "9H", "KH", "QH", "7C", "8D", "AS"],
    ["9C", "JC", "KC", "9D", "JD", "KD", "9S", "JS"],
    ["TC", "QC", "AC", "TD", "QD", "AD", "TS", "QS"],
    ["8C", "7D", "7S", "8S", "KS", "TH", "JH", "AH"],
]


def deal_hearts_to_seat_0() -> Match:
    """Make the running match a Hearts contract by seat 0, who leads the first card; the
    version moves on, so the page is reloaded to play on it."""
    state = belote.new_game(1, dealer=3, decks=[stack(3, HANDS)], announce="ask")
    state = calls(state, "H", "pass", "pass", "pass")
    match = Match.objects.get(status=Match.Status.RUNNING)
    Match.objects.filter(pk=match.pk).update(
        state=belote.dumps(state), version=F("version") + 1, last_seat=3, last_action="pass"
    )
    return Match.objects.get(pk=match.pk)


def my_bubbles(page: Page) -> str:
    return " ".join(page.locator("#felt .player.at-0 .bubble").all_inner_texts())


def test_announce_or_keep_quiet_a_tierce_and_a_belot(live_server_url, new_page):
    page = new_page()
    sign_up(page, live_server_url, "quiet")
    expect(page.get_by_label("Ask me before announcing")).to_be_checked()
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    page.get_by_role("button", name="Fill empty seats with computers").click()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("#my-area .playing-card").first).to_be_visible()

    # Keep the tierce quiet, say belot with the queen.
    deal_hearts_to_seat_0()
    page.reload()
    choice = page.locator(".announce-choice")
    tierce = choice.get_by_role("group", name="Tierce")
    belot = choice.get_by_role("group", name="Belot")
    expect(tierce).to_contain_text("7♥ 8♥ 9♥")
    expect(belot).to_contain_text("Q♥ K♥")
    for group in (tierce, belot):  # announcing is what happens unless the player says no
        expect(group.get_by_label("Announce")).to_be_checked()
    for size in SIZES.values():
        page.set_viewport_size({"width": size[0], "height": size[1]})
        assert not serious_violations(page), size
    tierce.get_by_label("Don't").check()
    page.locator("#my-area .playable[value='QH']").click()
    expect(page.locator(".announce-choice")).to_have_count(0)
    expect(page.locator("#felt .player.at-0 .bubble", has_text="Belot")).to_be_visible()
    assert "Tierce" not in my_bubbles(page)
    assert Move.objects.exclude(user=None).get().action == "QH/d0"
    assert all(item["seat"] != 0 for item in belote.view(current_state(), 1)["declarations"])

    # Announce the tierce, keep the belot quiet: the king is played without a word.
    deal_hearts_to_seat_0()
    page.reload()
    page.get_by_role("group", name="Belot").get_by_label("Don't").check()
    page.locator("#my-area .playable[value='KH']").click()
    expect(page.locator("#felt .player.at-0 .bubble", has_text="Tierce")).to_be_visible()
    assert "Belot" not in my_bubbles(page)
    assert Move.objects.exclude(user=None).latest("pk").action == "KH/belot"
    assert belote.view(current_state(), 1)["belots"] == []


def test_the_choice_in_bulgarian(live_server_url, new_page):
    page = new_page()
    sign_up(page, live_server_url, "tiho")
    switch_language(page, "bg")
    say = words("bg")
    page.get_by_role("button", name=say("Open the table")).click()
    expect(page.locator("#connection")).to_have_text(say("Connected"))
    page.get_by_role("button", name=say("Fill empty seats with computers")).click()
    page.get_by_role("button", name=say("Start the match")).click()
    expect(page.locator("#my-area .playing-card").first).to_be_visible()
    deal_hearts_to_seat_0()
    page.reload()
    choice = page.locator(".announce-choice")
    expect(choice.get_by_role("group", name="Терца")).to_be_visible()
    choice.get_by_role("group", name="Терца").get_by_label("Премълчи", exact=True).check()
    page.locator("#my-area .playable[value='7C']").click()
    expect(page.locator(".announce-choice")).to_have_count(0)
    assert Move.objects.exclude(user=None).get().action == "7C/d0"


def current_state() -> belote.State:
    return belote.loads(Match.objects.get(status=Match.Status.RUNNING).state)
