"""Grabush in Chromium: two-step plays by clicking, a greeting that costs nothing, and a
table-talk penalty said in the chat and claimed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engines import grabush
from games.models import Match
from tests.engines.grabush_helpers import craft

from .steps import open_grabush_table


@pytest.mark.services
def test_two_players_take_turns_by_clicking(live_server_url, new_page):
    pages = [new_page(), new_page()]
    open_grabush_table(pages, live_server_url, ["vera", "yana"], players=2)
    # A known position (seat 0 to play, an Ace on top of its stock), then both reload.
    Match.objects.update(
        state=grabush.dumps(
            craft(
                2,
                0,
                stocks=[["AS", "7H"], ["KC"]],
                hands=[["2S", "9D", "KH", "QH", "JH"], ["5C", "6C", "8C", "QC", "KD"]],
                supply=["3D", "3H", "3S", "3C", "4D"],
                leftovers_to="supply",
            )
        )
    )
    for page in pages:
        page.reload()
        expect(page.locator("#connection")).to_have_text("Connected")
    vera, yana = pages
    expect(vera.locator(".your-turn")).to_have_text("Your turn")
    # Stock Ace to a new centre pile: pick the source, then the lit target.
    vera.get_by_role("button", name="A♠ Ace of spades, your stock card").click()
    vera.get_by_role("button", name="Start a new pile").click()
    expect(vera.locator(".stock.ours")).to_contain_text("1 card left")  # 7♥ turned up
    expect(yana.locator(".centre")).to_contain_text("A→A")
    # A hand card on that pile.
    vera.get_by_role("button", name="2♠ Two of spades", exact=True).click()
    vera.get_by_role("button", name="A♠ Ace of spades, top of pile 1: play on it").click()
    expect(yana.locator(".centre")).to_contain_text("A→2")
    # The table card ends the turn.
    vera.get_by_role("button", name="9♦ Nine of diamonds", exact=True).click()
    vera.get_by_role(
        "button", name="+ Your table pile 1, empty: place it here and end the turn"
    ).click()
    expect(yana.locator(".your-turn")).to_have_text("Your turn")
    expect(vera.locator("#table-status")).to_contain_text("Waiting for yana")
    # Yana cannot use Vera's table pile; she ends her turn with a table card of her own.
    yana.get_by_role("button", name="5♣ Five of clubs", exact=True).click()
    yana.get_by_role(
        "button", name="+ Your table pile 1, empty: place it here and end the turn"
    ).click()
    expect(vera.locator(".your-turn")).to_have_text("Your turn")
    expect(vera.locator(".gplayer:not(.me)")).to_contain_text("4 cards in hand")


@pytest.mark.services
def test_table_talk_penalty_is_claimed(live_server_url, new_page):
    names = ["ivo", "kalin", "lora", "mila"]
    pages = [new_page() for _ in names]
    open_grabush_table(pages, live_server_url, names, players=4)
    ivo, kalin = pages[0], pages[1]
    version = Match.objects.get().version
    # A greeting from the phrases costs nothing.
    kalin.locator(".chat-phrases").get_by_role("button", name="Good luck!").click()
    expect(ivo.locator("#chat-log")).to_contain_text("kalin: Good luck!")
    expect(ivo.locator(".chat-notice")).to_have_count(0)
    expect(ivo.locator(".penalty-panel")).to_have_count(0)
    assert Match.objects.get().version == version
    # Free text during the game is table talk: said in the chat, with the reason.
    kalin.get_by_role("textbox", name="Message").fill("play your seven!")
    kalin.get_by_role("button", name="Send").click()
    expect(ivo.locator("#chat-log")).to_contain_text("play your seven!")
    talk = "Table talk: kalin wrote during the game, so the other side may claim a penalty."
    expect(ivo.locator(".chat-notice")).to_have_text(talk)
    expect(kalin.locator(".chat-notice")).to_have_text(talk)
    panel = ivo.locator(".penalty-panel")
    expect(panel).to_contain_text("You may claim a penalty")
    expect(pages[3].locator(".penalty-panel")).to_have_count(0)  # Kalin's partner gets none
    panel.get_by_role("button").first.click()
    expect(ivo.locator(".stock").nth(1)).to_contain_text("21 cards left")
    expect(kalin.locator(".stock.ours")).to_contain_text("21 cards left")
    claimed = "ivo claimed the table-talk penalty: a card into the other side's stock."
    expect(kalin.locator(".chat-notice").last).to_have_text(claimed)
