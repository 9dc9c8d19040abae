"""The Python-built parts of the Belote board read as the templates they replaced did."""

from __future__ import annotations

from django.template import Context
from django.utils import translation

from games.presenters.belote import FeltPlayer
from games.templatetags import cards, felt


def test_a_place_at_the_felt_shows_the_player_escaped_with_turn_dealer_and_bubbles():
    player = FeltPlayer(
        index=2,
        name="<b>Ivan</b>",
        computer="",
        hand_size=1,
        call="NT",
        announced=("tierce", "belot"),
        is_dealer=True,
        is_active=True,
    )
    html = felt.felt_players([player])
    assert html.startswith('<div class="player at-2 active">')
    assert "&lt;b&gt;Ivan&lt;/b&gt;" in html and "<b>" not in html
    assert '<span class="chip" title="Dealer">dealer</span>' in html
    assert '<span class="turn-label">to play</span>' in html
    assert '<span class="hand-count">1 card</span>' in html
    bubbles = ["No trumps", "Tierce", "Belot"]
    assert html.count('<span class="bubble">') == 3 and all(b in html for b in bubbles)
    quiet = felt.felt_players([player._replace(is_dealer=False, is_active=False, call=None)])
    assert "chip" not in quiet and "turn-label" not in quiet and "No trumps" not in quiet
    assert quiet.startswith('<div class="player at-2">')


def test_a_computer_is_named_short_on_the_felt_and_whole_for_a_tooltip_and_a_screen_reader():
    whole = "Ivan · computer, hard"
    html = felt.felt_players([FeltPlayer(1, "Ivan", whole, 8, None, (), False, False)])
    assert f'<span class="player-name" title="{whole}">' in html
    assert '<span aria-hidden="true">Ivan</span>' in html
    assert f'<span class="visually-hidden">{whole}</span>' in html
    assert html.count(whole) == 2  # the tooltip and the screen reader's text, nothing shown
    assert 'class="computer-mark"' in html
    person = felt.felt_players([FeltPlayer(1, "ivan", "", 8, None, (), False, False)])
    assert "computer-mark" not in person and "title=" not in person


def test_the_hand_and_the_calls_are_labelled_groups_of_buttons():
    hand = cards.hand_group([{"card": "JH", "playable": True}, {"card": "7C", "playable": False}])
    assert hand.startswith('<div class="hand" role="group" aria-label="Your hand">')
    assert 'value="JH" aria-label="J♥ Jack of hearts"' in hand
    assert hand.count("disabled") == 1
    panel = cards.call_panel(Context({"calls": ["pass", "C", "contra"]}))
    assert panel.startswith('<div class="auction-panel" role="group" aria-label="Your call">')
    assert 'aria-label="♣ Clubs"' in panel and 'aria-label="Pass"' in panel
    assert 'aria-label="Contra"' in panel
    assert cards.call_panel(Context({"calls": []})) == ""
    choice = cards.call_panel(
        Context(
            {
                "calls": [],
                "announce": [
                    {"key": "d0", "kind": "tierce", "points": 20, "cards": ["7H", "8H", "9H"]}
                ],
            }
        )
    )
    assert 'name="announce-d0" value="no"' in choice and "Tierce" in choice


def test_the_kept_html_is_per_language():
    player = FeltPlayer(0, "Ana", "", 8, None, (), False, False)
    english = felt.felt_players([player])
    kept = felt.felt_player(player)
    assert felt.felt_player(player) is kept
    with translation.override("bg"):
        assert felt.felt_player(player) is not kept
        assert felt.felt_players([player]) == felt.felt_player(player)
    assert felt.felt_players([player]) == english


def test_the_history_lists_calls_and_the_last_trick_by_name():
    names = {0: "Ana", 1: "<Bo>", 2: "Vera"}
    items = cards.auction_items([[0, "pass"], [1, "H"], [2, "NT"]], names)
    assert items == "<li>Ana: Pass</li><li>&lt;Bo&gt;: Hearts</li><li>Vera: No trumps</li>"
    line = cards.trick_line([[1, "JH"], [3, "7C"]], names)
    assert line.startswith('&lt;Bo&gt;: <span class="playing-card red small"')
    assert ": <span" in line.split("</span></span> ", 1)[1]  # an unknown seat: no name
    assert line.count("playing-card") == 2


def test_the_trick_shows_its_cards_by_seat_and_a_resting_trick_its_taker():
    playing = felt.trick_area([{"seat": 1, "card": "JH"}], None)
    assert playing.startswith('<div class="trick" role="group" aria-label="Current trick">')
    assert playing.count('class="trick-card at-1"') == 1 and "trick-note" not in playing
    cards_ = [{"seat": s, "card": c} for s, c in enumerate(["7C", "8C", "AC", "9C"])]
    resting = felt.trick_area([], {"cards": cards_, "winner": 2, "winner_name": "<Ana>"})
    assert resting.count("resting") == 4
    assert resting.count(" won") == 1 and 'class="trick-card at-2 resting won"' in resting
    assert '<p class="trick-note">&lt;Ana&gt; took the trick</p>' in resting


def test_the_felt_says_declarations_as_bulgarian_players_say_them():
    kinds = ("tierce", "quarte", "quinte", "carre", "belot")
    player = FeltPlayer(0, "Ana", "", 8, None, kinds, False, False)
    with translation.override("bg"):
        html = felt.felt_players([player])
    bubbles = [part.split("</span>")[0] for part in html.split('<span class="bubble">')[1:]]
    assert bubbles == ["Терца", "50", "100", "Каре", "Белот"]
    assert felt.felt_players([player]).count("Quarte") == 1  # English keeps the names
