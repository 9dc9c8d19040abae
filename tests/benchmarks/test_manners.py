"""The faults a human partner notices, judged from a seat's own view."""

from __future__ import annotations

from benchmarks import manners
from games.engines import belote


def faults(contract: str, hand: list[str], trick: list[tuple[int, str]], card: str) -> list[str]:
    """The faults of seat 3 playing ``card`` last to ``trick`` holding ``hand``."""
    state = belote.position(contract, 3, hand, trick, declarer=0)
    return manners.faults(belote.view(state, 3), card)


def test_a_high_card_thrown_on_a_trick_the_opponents_have_won():
    # The opponent's A♠ wins, the partner has played, nothing of ours beats it.
    lost = [(0, "AS"), (1, "8S"), (2, "7S")]
    assert faults("NT", ["TS", "9S"], lost, "TS") == ["high_on_lost"]
    assert faults("NT", ["TS", "9S"], lost, "9S") == []
    # Nothing cheaper to play: no fault.
    assert faults("NT", ["TS", "KD"], lost, "TS") == []
    # The partner winning it is not a lost trick.
    ours = [(0, "7S"), (1, "AS"), (2, "8S")]
    assert "high_on_lost" not in faults("NT", ["TS", "9S"], ours, "TS")


def test_overtaking_the_partners_winning_card_as_the_last_to_play():
    ten = [(0, "7S"), (1, "TS"), (2, "8S")]
    assert faults("NT", ["AS", "9S"], ten, "AS") == ["overtook_partner"]
    assert faults("NT", ["AS", "9S"], ten, "9S") == []
    # Ruffing it in Hearts while a diamond could go: the same fault.
    assert faults("H", ["7H", "8D"], ten, "7H") == ["overtook_partner"]
    assert faults("H", ["7H", "8D"], ten, "8D") == []
    # Forced to overtake (only higher cards of the suit): no fault.
    assert faults("NT", ["AS", "KD"], [(0, "7S"), (1, "TS"), (2, "8S")], "AS") == []


def test_a_suit_bid_without_its_jack_or_nine():
    state = belote.new_game(3)
    view = belote.view(state, state.to_act)
    for suit in "CDHS":
        ranks = {card[0] for card in view["hand"] if card[1] == suit}
        expected = [] if ranks & {"J", "9"} else ["suit_without_jack_or_nine"]
        assert manners.faults(view, suit) == expected
    assert manners.faults(view, "NT") == manners.faults(view, "pass") == []


def test_the_testing_positions_each_offer_a_fault_and_a_clean_card():
    views = manners.testing_positions(12, seed=5)
    assert len(views) == 12
    for view in views:
        judged = [bool(manners.faults(view, card)) for card in view["legal"]]
        assert any(judged) and not all(judged)
