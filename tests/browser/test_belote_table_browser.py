"""Four new users play a whole Belote deal by clicking, in four Chromium contexts."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engines import belote
from games.models import Match
from tests.live import leaked_cards

from .steps import join_and_sit, sign_up


def record_frames(page) -> list[str]:
    """Collect every websocket frame the page receives (raw, before any rendering)."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    return frames


def expect_seen_from(page, seat: int) -> None:
    """The felt as ``seat`` sees it (ui.md): itself at the bottom saying "(you)", its partner
    on top, the player after it on the right; it counts everyone's cards but its own."""
    felt = page.locator("#felt")
    me, right, partner, left = (felt.locator(f".player.at-{(seat + k) % 4}") for k in range(4))
    expect(me.locator(".you-label")).to_be_visible()
    expect(me.locator(".hand-count")).to_be_hidden()
    for other in (right, partner, left):
        expect(other.locator(".you-label")).to_be_hidden()
        expect(other.locator(".hand-count")).to_have_text("5 cards")
    me_box, right_box = me.bounding_box(), right.bounding_box()
    partner_box, left_box = partner.bounding_box(), left.bounding_box()
    assert me_box["y"] > partner_box["y"] + partner_box["height"]
    assert right_box["x"] > left_box["x"] + left_box["width"]
    assert left_box["y"] > partner_box["y"] and left_box["y"] < me_box["y"]


@pytest.mark.services
def test_four_friends_play_a_deal(live_server_url, new_page):
    base = live_server_url
    names = ["ana", "boris", "cveta", "dimo"]
    pages = [new_page() for _ in names]
    frames = [record_frames(page) for page in pages]
    for page, name in zip(pages, names, strict=True):
        sign_up(page, base, name)

    # Ana opens a private table and shares its link.
    host = pages[0]
    host.goto(base + "/")
    host.get_by_label("Private table").check()
    host.get_by_role("button", name="Open the table").click()
    expect(host.get_by_role("heading", level=1)).to_have_text("Belote")
    invite = host.get_by_label("Invite link").input_value()
    assert invite.startswith(base + "/t/")
    # A private table is not listed in anyone's lobby.
    pages[1].goto(base + "/")
    expect(pages[1].locator("#lobby-tables")).not_to_contain_text("ana")

    join_and_sit(pages, invite, names)
    host.get_by_role("button", name="Start the match").click()
    for seat, page in enumerate(pages):
        expect(page.locator("#play-version input")).to_have_attribute("value", "0")
        expect_seen_from(page, seat)

    version = 0
    bid_made = False
    while True:
        match = Match.objects.get()
        state = belote.loads(match.state)
        if belote.deal_results(state):
            break
        seat = state.to_act
        page = pages[seat]
        expect(page.locator(".your-turn")).to_have_text("Your turn")
        view = belote.view(state, seat)
        if view["phase"] == "auction":
            page.get_by_role("button", name="Pass" if bid_made else "♣ Clubs").click()
            bid_made = True
        else:
            if len(view["tricks"]) == 0 and not view["trick"]:
                # The auction is over: no frame so far showed anyone another hand.
                hands = [set(belote.view(state, s)["hand"]) for s in range(4)]
                for viewer in range(4):
                    hidden = set().union(*(hands[s] for s in range(4) if s != viewer))
                    assert not any(leaked_cards(f, hidden) for f in frames[viewer])
            page.locator(".hand button.playable").first.click()
        version += 1
        for other in pages:
            expect(other.locator("#play-version input")).to_have_attribute("value", str(version))
        if version == 12:
            # Cveta reloads mid-deal and carries on from the same state.
            pages[2].reload()
            expect(pages[2].locator("#connection")).to_have_text("Connected")
            area = pages[2].locator("#play-version input")
            expect(area).to_have_attribute("value", str(version))

    assert version == 4 + 32
    for page in pages:
        expect(page.locator(".score-sheet .deal-row")).to_have_count(1)
        expect(page.locator(".deal-summary")).to_contain_text("Tricks' points")
