"""Grabush of four with computers, as a player sees it when the turn comes back: the others sit
across in playing order, named partner or opponent, each with what they did in their latest
turn, in words."""

from __future__ import annotations

from playwright.sync_api import expect

from games.engines import grabush
from games.models import Match
from games.presenters.words import rank_text, suit_symbol

from .steps import sign_up, start_grabush_with_computers


def test_the_others_last_turns_are_on_the_board(live_server_url, new_page):
    page = new_page()
    sign_up(page, live_server_url, "follower")
    start_grabush_with_computers(page, live_server_url)
    # My turn: end it with a table card, and wait for the turn to come round again: each of
    # the others has then finished a turn, and says so. The pick waits for the turn's frame (a
    # card clicked as it is swapped picks nothing); an Ace never becomes a table card.
    expect(page.locator("#table-status .your-turn")).to_be_visible()
    expect(page.locator("#my-area .hand .source").first).to_be_visible()
    page.locator("#my-area .hand .source:not([data-pick^='hand:A'])").first.click()
    target = page.locator(".slot-target").first
    expect(target).to_be_visible()
    target.click()
    expect(page.locator(".gplayer.me .slot .playing-card").first).to_be_visible()
    others = page.locator(".gplayers.others .gplayer")
    expect(others).to_have_count(3)
    expect(others.locator(".last-turn-label")).to_have_text(["Last turn:"] * 3)
    expect(page.locator("#my-area .hand .source").first).to_be_visible()
    heads = others.locator(".player-name").all_inner_texts()
    # Named short, with the computer mark and words for screen readers; the level only in the
    # seats panel.
    assert [head.split("\n")[0] for head in heads] == ["Ivan", "Elena", "Georgi"]  # seats 2-4
    assert not any("computer," in head for head in heads)
    expect(others.locator(".player-name .computer-mark")).to_have_count(3)
    assert "(opponent)" in heads[0] and "(partner)" in heads[1] and "(opponent)" in heads[2]
    turns = grabush.view(grabush.loads(Match.objects.get().state), 0)["last_turns"]
    for seat, box in zip((1, 2, 3), others.all(), strict=True):
        log = box.locator(".last-turn")
        expect(log).to_contain_text("Last turn:")
        ended = turns[seat][-1]  # a turn ends with a table card, or with an empty hand
        if ended["kind"] == "table":
            card = f"{rank_text(ended['card'])}{suit_symbol(ended['card'])}"
            expect(log).to_contain_text(f"{card} to table pile {ended['slot'] + 1}")
        else:
            expect(log).to_contain_text("ended the turn")
    expect(page.locator(".gplayers.mine .gplayer.me")).to_be_visible()
