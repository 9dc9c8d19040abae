"""One test per rule and per worked example of shared/rules/belote.md."""

from __future__ import annotations

import itertools
import json
import random
from functools import cache

import pytest

from games.engines import belote, belote_cards, cards
from games.engines.belote import IllegalAction

from .belote_helpers import biased_choice, calls, edited, play_deal, stack

# Hands with no run and no carré outside the suit seat 0 gets (used by the capot deals).
NO_RUNS = {
    1: ["7C", "9C", "JC", "KC", "8D", "TD", "QD", "AD"],
    2: ["7D", "9D", "JD", "KD", "8S", "TS", "QS", "AS"],
    3: ["7S", "9S", "JS", "KS", "8C", "TC", "QC", "AC"],
}
ALL_HEARTS = ["JH", "9H", "AH", "TH", "KH", "QH", "8H", "7H"]
ALL_SPADES = ["JS", "9S", "AS", "TS", "KS", "QS", "8S", "7S"]
NO_RUNS_NT = {
    1: ["7C", "9C", "JC", "KC", "8D", "TD", "QD", "AD"],
    2: ["7D", "9D", "JD", "KD", "8H", "TH", "QH", "AH"],
    3: ["7H", "9H", "JH", "KH", "8C", "TC", "QC", "AC"],
}
HEARTS_CAPOT = stack(3, [ALL_HEARTS, NO_RUNS[1], NO_RUNS[2], NO_RUNS[3]])
SPADES_CAPOT = stack(3, [ALL_SPADES, NO_RUNS_NT[1], NO_RUNS_NT[2], NO_RUNS_NT[3]])


def raises(state: belote.State, seat: int, action: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        belote.apply(state, seat, action)
    return info.value


def position_legal(contract: str, seat: int, hand: list[str], trick: list) -> list[str]:
    return belote.legal_actions(belote.position(contract, seat, hand, trick), seat)


def with_scores(state: belote.State, scores: tuple[int, int], hanging: int = 0) -> belote.State:
    return edited(state, scores=list(scores), hanging=hanging)


def bid_spades(legal: list[str]) -> str:
    """A policy that opens Spades, then passes and plays its first legal card."""
    return "S" if "S" in legal else legal[0]


# ---------------------------------------------------------------------------- table and deal


def test_illegal_action_is_the_shared_class() -> None:
    assert belote.IllegalAction is cards.IllegalAction
    assert issubclass(IllegalAction, ValueError)


def test_deal_order_from_a_stacked_deck() -> None:
    deck = list(belote.CARDS)
    random.Random(4).shuffle(deck)
    d = 1
    state = belote.new_game(9, dealer=d, decks=[deck])
    for i in range(4):
        seat = (d + 1 + i) % 4
        first_five = deck[3 * i : 3 * i + 3] + deck[12 + 2 * i : 14 + 2 * i]
        assert sorted(belote.view(state, seat)["hand"]) == sorted(first_five)
    assert belote.view(state, 0)["hand_sizes"] == [5, 5, 5, 5]
    state = calls(state, "C", "pass", "pass", "pass")
    for i in range(4):
        seat = (d + 1 + i) % 4
        eight = (
            deck[3 * i : 3 * i + 3] + deck[12 + 2 * i : 14 + 2 * i] + deck[20 + 3 * i : 23 + 3 * i]
        )
        assert sorted(belote.view(state, seat)["hand"]) == sorted(eight)


def test_seat_after_dealer_bids_first_and_leads_first_trick() -> None:
    state = belote.new_game(1, dealer=2)
    assert state.to_act == 3
    state = calls(state, "pass", "H", "pass", "pass", "pass")  # seat 0 declares
    assert belote.view(state, 0)["contract"]["declarer"] == 0
    assert state.to_act == 3  # the lead does not go to the declarer


def test_dealer_rotates_after_every_deal_including_all_pass() -> None:
    state = belote.new_game(1, dealer=0)
    state = calls(state, "pass", "pass", "pass", "pass")
    assert state.dealer == 1 and state.to_act == 2
    state = play_deal(state, bid_spades)
    assert state.dealer == 2 and state.to_act == 3
    assert [r["dealer"] for r in belote.deal_results(state)] == [0, 1]


def test_all_pass_deal_is_thrown_in_and_recorded() -> None:
    second = list(reversed(belote.CARDS))
    state = belote.new_game(1, dealer=0, decks=[list(belote.CARDS), second])
    state = calls(state, "pass", "pass", "pass", "pass")
    assert belote.deal_results(state) == [
        {
            **belote.deal_results(state)[0],
            "dealer": 0,
            "contract": None,
            "declarer": None,
            "multiplier": 1,
            "tricks": [],
            "declarations": [0, 0],
            "belot": [0, 0],
            "raw": [0, 0],
            "capot": None,
            "outcome": "redeal",
            "award": [0, 0],
            "hanging_after": 0,
        }
    ]
    assert belote.scores(state) == [0, 0]
    # The next stacked deck serves the next deal, dealt by seat 1.
    assert sorted(belote.view(state, 2)["hand"]) == sorted(second[0:3] + second[12:14])


def test_first_dealer_is_random_from_the_seed() -> None:
    dealers = {belote.new_game(seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert belote.new_game(77).dealer == belote.new_game(77).dealer


def test_same_seed_and_actions_give_the_same_states() -> None:
    def run(seed: int) -> str:
        rng = random.Random(3)
        state = belote.new_game(seed)
        for _ in range(120):
            if state.to_act is None:
                break
            state = belote.apply(
                state, state.to_act, rng.choice(belote.legal_actions(state, state.to_act))
            )
        return belote.dumps(state)

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_later_deals_are_shuffled_from_the_seed() -> None:
    a = calls(belote.new_game(5, dealer=0), "pass", "pass", "pass", "pass")
    b = calls(belote.new_game(5, dealer=0), "pass", "pass", "pass", "pass")
    c = calls(belote.new_game(6, dealer=0), "pass", "pass", "pass", "pass")
    assert a.hands == b.hands
    assert a.hands != c.hands


def test_bad_stacked_deck_is_refused() -> None:
    with pytest.raises(ValueError):
        belote.new_game(1, decks=[[*belote.CARDS[:31], "7C"]])


# ---------------------------------------------------------------------------- auction


def test_opening_calls() -> None:
    state = belote.new_game(1, dealer=3)
    assert belote.legal_actions(state, 0) == ["pass", "C", "D", "H", "S", "NT", "AT"]
    assert belote.legal_actions(state, 1) == []


def test_bid_must_be_higher() -> None:
    state = calls(belote.new_game(1, dealer=3), "H")
    assert belote.legal_actions(state, 1) == ["pass", "S", "NT", "AT", "contra"]
    err = raises(state, 1, "C")
    assert err.template == "You must bid higher than the current contract"
    err = raises(state, 1, "H")
    assert err.template == "You must bid higher than the current contract"


def test_passed_player_may_bid_later_and_partners_may_overbid() -> None:
    state = calls(belote.new_game(1, dealer=3), "pass", "pass", "C", "pass", "D")
    assert belote.view(state, 0)["contract"] == {
        "contract": "D",
        "declarer": 0,
        "multiplier": 1,
        "team": 0,
    }
    state = calls(state, "pass", "pass", "pass")
    assert belote.view(state, 0)["contract"]["declarer"] == 0
    assert belote.view(state, 0)["phase"] == "play"


def test_declarer_is_the_last_bidder() -> None:
    state = calls(belote.new_game(1, dealer=3), "C", "D", "pass", "pass", "pass")
    assert belote.view(state, 0)["contract"] == {
        "contract": "D",
        "declarer": 1,
        "multiplier": 1,
        "team": 1,
    }


def test_contra_need_not_follow_the_bid_directly() -> None:
    state = calls(belote.new_game(1, dealer=3), "D", "pass", "pass")
    assert "contra" in belote.legal_actions(state, 3)
    state = calls(state, "contra")
    assert state.mult == 2


def test_contra_only_for_the_opponents() -> None:
    state = calls(belote.new_game(1, dealer=3), "D", "pass")
    assert "contra" not in belote.legal_actions(state, 2)
    assert raises(state, 2, "contra").template == (
        "Contra is only for the opponents of the bidding team"
    )


def test_contra_needs_a_bid_and_is_not_repeated() -> None:
    state = belote.new_game(1, dealer=3)
    assert raises(state, 0, "contra").template == "There is no bid to double yet"
    state = calls(state, "D", "contra", "pass")
    assert "contra" not in belote.legal_actions(state, 3)
    assert raises(state, 3, "contra").template == "The bid is already doubled"


def test_recontra_only_by_the_bidding_team_over_a_contra() -> None:
    state = calls(belote.new_game(1, dealer=3), "D")
    assert raises(state, 1, "recontra").template == "Recontra is only possible over a contra"
    state = calls(state, "contra")
    assert "recontra" in belote.legal_actions(state, 2)
    state2 = calls(state, "pass")
    assert "recontra" not in belote.legal_actions(state2, 3)
    assert raises(state2, 3, "recontra").template == "Recontra is only for the bidding team"
    state = calls(state, "recontra")
    assert state.mult == 4


def test_nothing_above_recontra() -> None:
    state = calls(belote.new_game(1, dealer=3), "D", "contra", "recontra")
    for _ in range(2):
        legal = belote.legal_actions(state, state.to_act)
        assert "contra" not in legal and "recontra" not in legal
        assert raises(state, state.to_act, "contra").template == "Nothing goes above recontra"
        assert raises(state, state.to_act, "recontra").template == "Nothing goes above recontra"
        state = calls(state, "pass")


def test_a_higher_bid_escapes_the_contra() -> None:
    state = calls(belote.new_game(1, dealer=3), "D", "contra", "H")
    assert (state.mult, state.declarer, state.contract) == (1, 2, 2)
    state = calls(state, "contra", "recontra", "S")  # 3 doubles, 0 redoubles, 1 escapes
    assert (state.mult, state.declarer, state.contract) == (1, 1, 3)
    state = calls(state, "pass", "pass", "pass")
    assert belote.view(state, 0)["contract"] == {
        "contract": "S",
        "declarer": 1,
        "multiplier": 1,
        "team": 1,
    }


def test_after_all_trumps_only_pass_contra_recontra() -> None:
    state = calls(belote.new_game(1, dealer=3), "AT")
    assert belote.legal_actions(state, 1) == ["pass", "contra"]
    assert raises(state, 1, "NT").template == (
        "After All Trumps only pass, contra and recontra are allowed"
    )
    state = calls(state, "contra")
    assert belote.legal_actions(state, 2) == ["pass", "recontra"]
    state = calls(state, "pass")
    assert belote.legal_actions(state, 3) == ["pass"]


def test_auction_ends_after_three_passes_following_a_contra() -> None:
    state = calls(belote.new_game(1, dealer=3), "D", "pass", "pass", "contra", "pass", "pass")
    assert belote.view(state, 0)["phase"] == "auction"
    state = calls(state, "pass")
    view = belote.view(state, 0)
    assert view["phase"] == "play"
    assert view["contract"] == {"contract": "D", "declarer": 0, "multiplier": 2, "team": 0}
    assert view["hand_sizes"] == [8, 8, 8, 8]


def test_turn_and_action_errors() -> None:
    state = belote.new_game(1, dealer=3)
    assert raises(state, 2, "pass").template == "It is not your turn"
    assert raises(state, 0, "JH").template == "Cards are played after the auction"
    err = raises(state, 0, "XX")
    assert err.template == "%(action)s is not a call" and err.params == {"action": "XX"}
    state = calls(state, "C", "pass", "pass", "pass")
    assert raises(state, 0, "pass").template == "The auction is over: play a card"
    held = set(belote.view(state, 0)["hand"])
    other = next(c for c in belote.CARDS if c not in held)
    err = raises(state, 0, other)
    assert err.template == "You do not hold %(card)s" and str(err) == f"You do not hold {other}"


# ---------------------------------------------------------------------------- legal cards


def test_example_void_must_not_trump_when_following_is_possible() -> None:
    # [Suit ♥, E leads A♠, N holds 7♠ K♠ J♥ → legal 7♠ K♠.] Seats: S 0, E 1, N 2, W 3.
    assert position_legal("H", 2, ["7S", "KS", "JH"], [(1, "AS")]) == ["7S", "KS"]
    state = belote.position("H", 2, ["7S", "KS", "JH"], [(1, "AS")])
    assert str(raises(state, 2, "JH")) == "You must follow spades"


def test_example_must_over_trump_an_opponent() -> None:
    # [♥, trick 7♣ K♣ 9♥ (an opponent trumped), S holds J♥ 8♥ 7♦ → only J♥.]
    trick = [(1, "7C"), (2, "KC"), (3, "9H")]
    assert position_legal("H", 0, ["JH", "8H", "7D"], trick) == ["JH"]
    state = belote.position("H", 0, ["JH", "8H", "7D"], trick)
    assert str(raises(state, 0, "8H")) == "You must over-trump with a higher trump"
    assert str(raises(state, 0, "7D")) == "You must over-trump with a higher trump"


def test_example_over_trump_a_low_trump() -> None:
    # [♥, trick J♦ 7♦ 7♥, S holds 8♥ 9♠ A♣ → only 8♥.]
    assert position_legal("H", 0, ["8H", "9S", "AC"], [(1, "JD"), (2, "7D"), (3, "7H")]) == ["8H"]


def test_example_all_trumps_must_go_higher() -> None:
    # [All Trumps, N leads 9♦, W 7♦, S holds J♦ A♦ 8♦ 7♣ → only J♦.]
    trick = [(2, "9D"), (3, "7D")]
    assert position_legal("AT", 0, ["JD", "AD", "8D", "7C"], trick) == ["JD"]
    state = belote.position("AT", 0, ["JD", "AD", "8D", "7C"], trick)
    assert str(raises(state, 0, "AD")) == "You must play a higher trump"
    assert str(raises(state, 0, "7C")) == "You must follow diamonds"


def test_leader_may_play_any_card() -> None:
    assert position_legal("H", 0, ["7S", "KS", "JH", "AC"], []) == ["AC", "JH", "7S", "KS"]


def test_trump_lead_must_go_higher_even_when_partner_wins() -> None:
    assert position_legal("H", 0, ["JH", "8H", "7C"], [(2, "9H"), (3, "7H")]) == ["JH"]


def test_trump_lead_without_a_higher_trump_any_trump() -> None:
    assert position_legal("H", 0, ["QH", "8H", "7C"], [(2, "9H"), (3, "7H")]) == ["8H", "QH"]


def test_plain_suit_carries_no_duty_to_go_higher() -> None:
    assert position_legal("H", 0, ["AC", "7C", "JH"], [(1, "TC")]) == ["7C", "AC"]


def test_void_partner_winning_any_card() -> None:
    assert position_legal("H", 0, ["7H", "8D"], [(2, "AC"), (3, "7C")]) == ["8D", "7H"]


def test_void_opponent_winning_no_trump_in_trick_must_trump() -> None:
    assert position_legal("H", 0, ["7H", "8D"], [(1, "AC")]) == ["7H"]
    state = belote.position("H", 0, ["7H", "8D"], [(1, "AC")])
    assert str(raises(state, 0, "8D")) == "You must play a trump"


def test_void_cannot_over_trump_no_forced_under_trump() -> None:
    trick = [(1, "AC"), (2, "7C"), (3, "JH")]
    assert position_legal("H", 0, ["7H", "8D"], trick) == ["8D", "7H"]


def test_void_without_trumps_any_card() -> None:
    assert position_legal("H", 0, ["7S", "8D"], [(1, "AC")]) == ["8D", "7S"]


@pytest.mark.parametrize("contract", ["NT", "AT"])
def test_void_in_no_trumps_and_all_trumps_any_card(contract: str) -> None:
    assert position_legal(contract, 0, ["7H", "8D"], [(1, "AC")]) == ["8D", "7H"]


def test_position_fixes_other_hands_and_refuses_impossible_ones() -> None:
    state = belote.position("H", 0, ["KH", "7C"], [(3, "AS")], others={2: ["QH", "7D"]})
    assert belote.view(state, 2)["hand"] == ["7D", "QH"]
    assert belote.view(state, 0)["hand_sizes"] == [2, 2, 2, 1]
    with pytest.raises(ValueError):
        belote.position("H", 0, ["KH"], others={2: ["KH"]})
    with pytest.raises(ValueError):
        belote.position("H", 0, ["KH"], others={2: ["QH", "7D"]})


# ---------------------------------------------------------------------------- trick winner


def finish_trick(contract: str, trick: list, card: str) -> int:
    state = belote.position(contract, 0, [card], trick)
    state = belote.apply(state, 0, card)
    return belote.view(state, None)["last_trick"]["winner"]


def test_highest_trump_wins() -> None:
    assert finish_trick("H", [(1, "AC"), (2, "7H"), (3, "JC")], "8C") == 2
    assert finish_trick("H", [(1, "AC"), (2, "7H"), (3, "9H")], "8C") == 3


def test_highest_of_led_suit_wins_without_trumps() -> None:
    assert finish_trick("H", [(1, "KC"), (2, "TC"), (3, "AS")], "8C") == 2
    # No Trumps: plain order, 10 beats K; an off-suit Ace does not count.
    assert finish_trick("NT", [(1, "KC"), (2, "TC"), (3, "AS")], "9C") == 2


def test_all_trumps_led_suit_in_trump_order_wins() -> None:
    # 9 beats A in trump order; the off-suit Jack does not win.
    assert finish_trick("AT", [(1, "AD"), (2, "JC"), (3, "8D")], "9D") == 0


def test_winner_leads_next_trick() -> None:
    state = belote.position("H", 0, ["8C", "9C"], [(1, "AC"), (2, "7H"), (3, "JC")])
    state = belote.apply(state, 0, "8C")
    assert state.to_act == 2 and belote.view(state, None)["leader"] == 2


# ---------------------------------------------------------------------------- card points


def test_card_point_tables() -> None:
    assert [belote.card_points(r + "H", "H") for r in "789TJQKA"] == [0, 0, 14, 10, 20, 3, 4, 11]
    assert [belote.card_points(r + "C", "H") for r in "789TJQKA"] == [0, 0, 0, 10, 2, 3, 4, 11]
    assert [belote.card_points(r + "C", "AT") for r in "789TJQKA"] == [0, 0, 14, 10, 20, 3, 4, 11]
    assert [belote.card_points(r + "H", "NT") for r in "789TJQKA"] == [0, 0, 0, 10, 2, 3, 4, 11]
    total = {c: sum(belote.card_points(x, c) for x in belote.CARDS) for c in belote.CONTRACTS}
    assert total == {"C": 152, "D": 152, "H": 152, "S": 152, "NT": 120, "AT": 248}


def test_sort_hand_for_display() -> None:
    hand = ["7H", "JH", "AH", "9H", "TC", "AC", "KS"]
    assert belote.sort_hand(hand, "H") == ["AC", "TC", "KS", "JH", "9H", "AH", "7H"]
    assert belote.sort_hand(hand, "NT") == ["AC", "TC", "KS", "AH", "JH", "9H", "7H"]
    assert belote.sort_hand(hand) == belote.sort_hand(hand, "NT")


# ---------------------------------------------------------------------------- declarations


def plan(cards_: list[str]) -> list[tuple[str, int, list[str]]]:
    mask = belote_cards.mask(cards_)
    return [(k, p, belote_cards.codes(m)) for k, p, m, _key, _c in belote.best_plan(mask)]


def test_example_carre_of_nines_beats_tierce_sharing_a_card() -> None:
    # [7♠ 8♠ 9♠ 9♣ 9♦ 9♥ K♣ A♠ → carré of 9s, 150]
    assert plan(["7S", "8S", "9S", "9C", "9D", "9H", "KC", "AS"]) == [
        ("carre", 150, ["9C", "9D", "9H", "9S"])
    ]


def test_example_carre_and_quarte_beat_quinte() -> None:
    # [Q♠ Q♦ Q♥ Q♣ 8♠ 9♠ 10♠ J♠ → carré of Qs + quarte 8♠-J♠ = 150]
    assert plan(["QS", "QD", "QH", "QC", "8S", "9S", "TS", "JS"]) == [
        ("carre", 100, ["QC", "QD", "QH", "QS"]),
        ("quarte", 50, ["8S", "9S", "TS", "JS"]),
    ]


def test_equal_totals_prefer_the_carre() -> None:
    # Carré of Queens (100) or the quinte 10-A of hearts that needs the Q♥ (100): the carré.
    assert plan(["TH", "JH", "QH", "KH", "AH", "QC", "QD", "QS"]) == [
        ("carre", 100, ["QC", "QD", "QH", "QS"])
    ]


def test_runs_are_maximal() -> None:
    assert plan(["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]) == [
        ("quinte", 100, ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"])
    ]
    assert plan(["7H", "8H", "9H", "TH", "QH", "KH", "AH", "7C"]) == [
        ("quarte", 50, ["7H", "8H", "9H", "TH"]),
        ("tierce", 20, ["QH", "KH", "AH"]),
    ]


def test_carre_points_and_sevens_eights_are_nothing() -> None:
    assert plan(["7C", "7D", "7H", "7S", "8C", "8D", "8H", "8S"]) == []
    for rank, points in {"9": 150, "T": 100, "J": 200, "Q": 100, "K": 100, "A": 100}.items():
        other = "8" if rank != "8" else "7"
        hand = [rank + s for s in "CDHS"] + [other + "C", other + "D", "7H", "7S"]
        assert plan(hand)[0][:2] == ("carre", points)


def test_no_wrap_around() -> None:
    assert plan(["KS", "AS", "7S", "8S", "TC", "QD", "9H", "JH"]) == []


def plans(hands: dict[int, list[str]]) -> list:
    return [belote.best_plan(belote_cards.mask(hands.get(s, []))) for s in range(4)]


def test_longer_sequence_wins_and_team_scores_all_its_sequences() -> None:
    points, flags = belote.score_declarations(
        plans({0: ["7C", "8C", "9C", "TC"], 2: ["7D", "8D", "9D"], 1: ["QS", "KS", "AS"]}),
        pool=False,
    )
    assert points == [70, 0]
    assert flags[1] == [False]


def test_equal_length_higher_top_wins() -> None:
    points, _ = belote.score_declarations(
        plans({0: ["7C", "8C", "9C"], 1: ["9S", "TS", "JS"], 3: ["7D", "8D", "9D"]}), pool=False
    )
    assert points == [0, 40]


def test_equal_best_sequences_cancel_every_sequence() -> None:
    points, flags = belote.score_declarations(
        plans({0: ["9H", "TH", "JH", "7C", "8C", "9C"], 1: ["9S", "TS", "JS"]}), pool=False
    )
    assert points == [0, 0]
    assert flags == [[False, False], [False], [], []]


def test_carres_compare_in_their_own_order() -> None:
    # J > 9 > A > 10 > K > Q; only the team with the best carré scores carrés (all of its own).
    order = ["J", "9", "A", "T", "K", "Q"]
    for hi, lo in itertools.pairwise(order):
        points, _ = belote.score_declarations(
            plans({0: [lo + s for s in "CDHS"], 1: [hi + s for s in "CDHS"]}), pool=False
        )
        assert points[0] == 0 and points[1] > 0, (hi, lo)
    points, _ = belote.score_declarations(
        plans(
            {0: ["AC", "AD", "AH", "AS"], 2: ["QC", "QD", "QH", "QS"], 1: ["TC", "TD", "TH", "TS"]}
        ),
        pool=False,
    )
    assert points == [200, 0]


def test_sequences_and_carres_compete_separately() -> None:
    points, _ = belote.score_declarations(
        plans(
            {0: ["KC", "KD", "KH", "KS"], 1: ["7H", "8H", "9H", "TH", "JH"], 3: ["7S", "8S", "9S"]}
        ),
        pool=False,
    )
    assert points == [100, 100 + 20]


def test_pool_mode_highest_single_declaration_takes_everything() -> None:
    hands = {0: ["QC", "QD", "QH", "QS", "7C", "8C", "9C"], 1: ["7S", "8S", "9S", "TS", "JS"]}
    points, _ = belote.score_declarations(plans(hands), pool=True)
    assert points == [120, 0]  # equal value 100: the carré beats the quinte
    points, _ = belote.score_declarations(plans(hands), pool=False)
    assert points == [100, 100]
    hands = {0: ["9C", "9D", "9H", "9S"], 1: ["AC", "AD", "AH", "AS"], 3: ["TS", "JS", "QS", "KS"]}
    points, _ = belote.score_declarations(plans(hands), pool=True)
    assert points == [150, 0]
    points, _ = belote.score_declarations(plans(hands), pool=False)
    assert points == [150, 50]


def test_pool_mode_exact_tie_cancels_all() -> None:
    hands = {0: ["9H", "TH", "JH", "QC", "QD", "KC"], 1: ["9S", "TS", "JS"], 2: ["7D", "8D", "9D"]}
    points, _ = belote.score_declarations(plans(hands), pool=True)
    assert points == [0, 0]


TRUMP_TIE_HANDS = [
    ["9H", "TH", "JH", "7C", "9C", "JD", "7S", "AD"],
    ["9S", "TS", "JS", "8C", "TC", "7D", "9D", "KH"],
    ["QH", "AH", "7H", "QC", "KC", "8D", "TD", "QS"],
    ["JC", "AC", "QD", "KD", "8H", "8S", "KS", "AS"],
]


def test_trump_suit_never_breaks_a_sequence_tie() -> None:
    state = belote.new_game(1, dealer=3, decks=[stack(3, TRUMP_TIE_HANDS)])
    state = calls(state, "H", "pass", "pass", "pass")
    result = play_deal(state)
    r = belote.deal_results(result)[0]
    assert r["declarations"] == [0, 0]
    assert [(c["seat"], c["kind"], c["scored"]) for c in r["combinations"]] == [
        (0, "tierce", False),
        (1, "tierce", False),
    ]


def test_declaration_kinds_shown_after_first_card_cards_only_at_deal_end() -> None:
    state = belote.new_game(1, dealer=3, decks=[stack(3, TRUMP_TIE_HANDS)])
    state = calls(state, "H", "pass", "pass", "pass")
    assert belote.view(state, 2)["declarations"] == []
    state = belote.apply(state, 0, belote.legal_actions(state, 0)[0])
    v = belote.view(state, 2)
    assert v["declarations"] == [{"seat": 0, "kind": "tierce"}]
    assert "9H" not in json.dumps({k: v[k] for k in v if k != "hand"})
    state = belote.apply(state, 1, belote.legal_actions(state, 1)[0])
    assert belote.view(state, None)["declarations"] == [
        {"seat": 0, "kind": "tierce"},
        {"seat": 1, "kind": "tierce"},
    ]
    state = play_deal(state)
    combos = belote.view(state, None)["deal_results"][0]["combinations"]
    assert combos[0]["cards"] == ["9H", "TH", "JH"] and combos[1]["cards"] == ["9S", "TS", "JS"]


def test_no_declarations_and_no_belot_in_no_trumps() -> None:
    state = belote.new_game(1, dealer=3, decks=[SPADES_CAPOT])
    state = calls(state, "NT", "pass", "pass", "pass")
    state = play_deal(state)
    r = belote.deal_results(state)[0]
    assert r["combinations"] == [] and r["declarations"] == [0, 0] and r["belot"] == [0, 0]


# ---------------------------------------------------------------------------- belot


def test_belot_in_suit_contract_counts_once() -> None:
    state = belote.position("H", 0, ["KH", "QH", "7C"], [])
    state = belote.apply(state, 0, "QH")
    assert belote.view(state, None)["belots"] == [{"seat": 0, "suit": "H"}]
    state = belote.position("H", 0, ["KH", "7C"], [])
    state = belote.apply(state, 0, "KH")
    assert belote.view(state, None)["belots"] == []  # one card alone is no belot


def test_belot_as_trump_on_a_plain_lead() -> None:
    state = belote.position("H", 0, ["KH", "QH", "7S"], [(1, "AC")])
    state = belote.apply(state, 0, "KH")
    assert state.belots == ((0, 2),)


def test_belot_in_all_trumps_every_suit_lead_or_follow_only() -> None:
    led = belote.apply(belote.position("AT", 0, ["KD", "QD", "7S"], []), 0, "KD")
    assert led.belots == ((0, 1),)
    followed = belote.apply(belote.position("AT", 0, ["KD", "QD"], [(1, "7D")]), 0, "QD")
    assert followed.belots == ((0, 1),)
    discarded = belote.apply(belote.position("AT", 0, ["KD", "QD", "7S"], [(1, "7C")]), 0, "KD")
    assert discarded.belots == ()
    # The second card, later led, does not announce it either.
    s = edited(discarded, trick="", to_act=0, leader=0, win_pos=0)
    assert belote.apply(s, 0, "QD").belots == ()


def test_no_belot_in_a_plain_suit_or_split_between_partners() -> None:
    plain = belote.apply(belote.position("H", 0, ["KD", "QD"], []), 0, "KD")
    assert plain.belots == ()
    split = belote.position("H", 0, ["KH", "7C"], others={2: ["QH", "7D"]})
    split = belote.apply(split, 0, "KH")
    split = calls(split, belote.legal_actions(split, 1)[0], "QH")
    assert split.belots == ()
    together = belote.apply(belote.position("H", 0, ["KH", "QH"]), 0, "KH")
    assert together.belots == ((0, 2),)
    no_trumps = belote.apply(belote.position("NT", 0, ["KH", "QH"]), 0, "KH")
    assert no_trumps.belots == ()


# ---------------------------------------------------------------------------- rounding and settling

H, NT, AT, C = "H", "NT", "AT", "C"


@pytest.mark.parametrize(
    ("contract", "declarers", "defenders", "expected"),
    [
        (H, 106, 56, (10, 6, 0)),  # [56-106 → 6-10]
        (H, 85, 77, (8, 8, 0)),  # [85-77 → 8-8]
        (H, 86, 76, (8, 8, 0)),  # [86-76 → 8-8]
        (H, 76, 86, (0, 16, 0)),  # inside: the defenders write all
        (AT, 224, 34, (22, 4, 0)),  # [34-224 → 4-22]
        (AT, 194, 164, (19, 17, 0)),  # [164-194 → 17-19]
        (AT, 165, 93, (17, 9, 0)),  # r = 5 rounds up (never round() per team)
        (NT, 136, 124, (14, 12, 0)),  # [136-124 → 14-12]
        (H, 0, 162, (0, 16, 0)),
        (H, 0, 252, (0, 25, 0)),
        (NT, 0, 260, (0, 26, 0)),
        (NT, 0, 350, (0, 35, 0)),
        (AT, 0, 258, (0, 26, 0)),
        (AT, 0, 348, (0, 35, 0)),
        (H, 81, 81, (0, 8, 8)),  # [suit 81-81 → defenders 8, 8 hang]
        (H, 106, 106, (0, 10, 11)),  # [suit 106-106 → defenders 10, 11 hang]
        (AT, 154, 154, (0, 15, 16)),  # [All Trumps 154-154 → 15, 16 hang]
        (AT, 131, 131, (0, 13, 13)),  # [All Trumps 131-131 → 13, 13 hang]
        (NT, 136, 136, (0, 14, 14)),  # [No Trumps 136-136 → 14, 14 hang]
        (H, 101, 101, (0, 10, 10)),  # the declarers' share is not a ceiling
        (H, 87, 87, (0, 9, 9)),  # r = 7 rounds up for either team
        (AT, 149, 149, (0, 15, 15)),
        (H, 90, 72, (32, 0, 0)),  # contra: [♥ x2, 90-72 → 32-0]
        (AT, 100, 228, (0, 132, 0)),  # recontra: [All Trumps x4, 100-228 → 0-132]
        (C, 91, 91, (0, 0, 36)),  # [♣ x2, 91-91 → 0-0, 36 hang]
    ],
)
def test_settle_examples(contract: str, declarers: int, defenders: int, expected: tuple) -> None:
    multiplier = {(H, 90, 72): 2, (AT, 100, 228): 4, (C, 91, 91): 2}.get(
        (contract, declarers, defenders), 1
    )
    assert belote.settle(contract, multiplier, declarers, defenders) == expected


def test_contra_goes_to_the_team_with_more_points_whoever_declared() -> None:
    assert belote.settle(H, 2, 72, 90) == (0, 32, 0)
    assert belote.settle(H, 4, 90, 72) == (64, 0, 0)


# ---------------------------------------------------------------------------- whole deals


def test_capot_deal_in_a_suit_contract() -> None:
    state = calls(belote.new_game(1, dealer=3, decks=[HEARTS_CAPOT]), "H", "pass", "pass", "pass")
    state = play_deal(state)
    r = belote.deal_results(state)[0]
    assert r["capot"] == 0 and r["tricks_won"] == [8, 0] and r["last_ten"] == 0
    assert r["card_points"] == [162, 0]
    assert r["declarations"] == [100, 0]  # an 8-card run is one quinte
    assert r["belot"] == [20, 0]
    assert r["raw"] == [162 + 90 + 100 + 20, 0]
    assert r["outcome"] == "made" and r["award"] == [37, 0]
    assert len(r["tricks"]) == 8 and all(t[0][0] == 0 for t in r["tricks"])
    assert belote.scores(state) == [37, 0]


def test_no_trumps_doubles_points_and_last_ten_but_not_capot() -> None:
    state = calls(belote.new_game(1, dealer=3, decks=[SPADES_CAPOT]), "NT", "pass", "pass", "pass")
    r = belote.deal_results(play_deal(state))[0]
    assert r["card_points"] == [260, 0]
    assert r["raw"] == [350, 0] and r["award"] == [35, 0]


def test_all_trumps_capot_with_declarations_and_belot() -> None:
    state = calls(belote.new_game(1, dealer=3, decks=[SPADES_CAPOT]), "AT", "pass", "pass", "pass")
    r = belote.deal_results(play_deal(state))[0]
    assert r["card_points"] == [258, 0]
    assert r["raw"] == [258 + 90 + 100 + 20, 0] and r["award"] == [47, 0]


def test_contra_deal_whole_amount_doubled() -> None:
    state = belote.new_game(1, dealer=3, decks=[HEARTS_CAPOT])
    state = calls(state, "H", "contra", "pass", "pass", "pass")
    r = belote.deal_results(play_deal(state))[0]
    assert r["multiplier"] == 2 and r["award"] == [37 * 2, 0]


def test_inside_defenders_write_everything() -> None:
    # Seat 1 declares hearts against seat 0 who holds every heart: seat 0 takes all tricks.
    state = belote.new_game(1, dealer=3, decks=[HEARTS_CAPOT])
    state = calls(state, "pass", "H", "pass", "pass", "pass")
    r = belote.deal_results(play_deal(state))[0]
    assert r["outcome"] == "inside" and r["declarer"] == 1
    assert r["award"] == [37, 0]


@cache
def a_tied_deal() -> tuple[str, str]:
    """(state text before the last card of a tied, undoubled deal; that card), found by play."""
    for seed in range(500):
        rng = random.Random(seed)
        state = belote.new_game(seed)
        while state.to_act is not None:
            action = biased_choice(rng, belote.legal_actions(state, state.to_act))
            after = belote.apply(state, state.to_act, action)
            results = belote.deal_results(after)
            if (
                len(results) > len(belote.deal_results(state))
                and results[-1]["outcome"] == "hanging"
                and results[-1]["multiplier"] == 1
                and state.hanging == 0
            ):
                return belote.dumps(state), action
            state = after
    raise AssertionError("no tied deal found")


def test_tied_deal_hangs_the_declarers_points() -> None:
    text, card = a_tied_deal()
    before = belote.loads(text)
    after = belote.apply(before, before.to_act, card)
    r = belote.deal_results(after)[-1]
    d = r["declarer"] % 2
    assert r["raw"][0] == r["raw"][1]
    tens, rest = divmod(r["raw"][d], 10)
    # Rules §7.3, written out: the defenders round as the team with more points, the
    # declarers' hanging share as the team with fewer.
    up_from = {"AT": 4, "NT": 5}.get(r["contract"], 6)
    more_up_from = {"AT": 5, "NT": 5}.get(r["contract"], 7)
    assert r["award"][d] == 0
    assert r["award"][1 - d] == tens + (rest >= more_up_from)
    assert r["hanging_after"] == after.hanging == tens + (rest >= up_from) > 0


def test_hanging_points_survive_all_pass_and_go_to_next_deal_winner() -> None:
    text, card = a_tied_deal()
    state = belote.apply(belote.loads(text), belote.loads(text).to_act, card)
    hanging = state.hanging
    score_before = belote.scores(state)
    state = calls(state, "pass", "pass", "pass", "pass")
    assert state.hanging == hanging and belote.deal_results(state)[-1]["hanging_after"] == hanging
    assert belote.view(state, None)["hanging"] == hanging
    state = play_deal(state, bid_spades)
    r = belote.deal_results(state)[-1]
    if r["outcome"] == "hanging":  # pragma: no cover - depends on the shuffled deal
        pytest.skip("the next deal tied as well")
    w = r["winning_team"]
    assert r["raw"][w] > r["raw"][1 - w]
    assert r["hanging_won"][w] == hanging and r["award"][w] == r["written"][w] + hanging
    assert state.hanging == 0 and r["hanging_after"] == 0
    assert belote.scores(state) == [score_before[t] + r["award"][t] for t in (0, 1)]


def test_hanging_accumulates_over_ties() -> None:
    text, card = a_tied_deal()
    before = belote.loads(text)
    primed = with_scores(before, before.scores, hanging=13)
    after = belote.apply(primed, primed.to_act, card)
    r = belote.deal_results(after)[-1]
    assert after.hanging == 13 + r["hanging_added"] and r["hanging_before"] == 13


# ---------------------------------------------------------------------------- end of the match


def seed12_spades_deal(pre: tuple[int, int]) -> belote.State:
    """Seed 12, dealer 3: seat 0 plays Spades; the deal ends 73-179, inside, award [0, 25]."""
    state = with_scores(belote.new_game(12, dealer=3), pre)
    return play_deal(calls(state, "S", "pass", "pass", "pass"))


def test_reaching_the_target_ends_the_match() -> None:
    assert belote.deal_results(seed12_spades_deal((0, 0)))[0]["award"] == [0, 25]
    state = seed12_spades_deal((140, 130))
    assert belote.scores(state) == [140, 155] and belote.winner(state) == 1
    assert state.to_act is None and belote.legal_actions(state, 0) == []
    assert belote.view(state, 0)["phase"] == "over"
    assert raises(state, 0, "pass").template == "The match is over"
    # Both past the target: the team with more points wins.
    assert belote.winner(seed12_spades_deal((180, 150))) == 0
    assert belote.winner(seed12_spades_deal((160, 150))) == 1
    assert belote.winner(seed12_spades_deal((100, 100))) is None


def test_level_totals_play_on() -> None:
    level = seed12_spades_deal((200, 175))
    assert belote.scores(level) == [200, 200] and belote.winner(level) is None
    assert level.to_act is not None


def test_capot_can_never_end_the_match() -> None:
    state = belote.new_game(1, dealer=3, decks=[HEARTS_CAPOT, HEARTS_CAPOT])
    state = calls(with_scores(state, (150, 0)), "H", "pass", "pass", "pass")
    state = play_deal(state)
    assert belote.scores(state) == [187, 0] and belote.winner(state) is None
    # The next stacked deal is a capot again (dealt by seat 0: seat 1 gets the hearts).
    state = calls(state, "H", "pass", "pass", "pass")
    state = play_deal(state)
    assert belote.deal_results(state)[-1]["capot"] == 1 and belote.winner(state) is None
    # All-pass deals don't count either.
    state = calls(state, "pass", "pass", "pass", "pass")
    assert belote.winner(state) is None
    state = play_deal(state, bid_spades)
    while belote.deal_results(state)[-1]["capot"] is not None:
        assert belote.winner(state) is None
        state = play_deal(state, bid_spades)
    expected = (
        None if state.scores[0] == state.scores[1] else int(state.scores[1] > state.scores[0])
    )
    assert belote.winner(state) == expected


def test_match_may_end_while_points_hang_unless_the_option_says_no() -> None:
    text, card = a_tied_deal()
    before = with_scores(belote.loads(text), (300, 10))
    over = belote.apply(before, before.to_act, card)
    assert belote.winner(over) == 0 and over.hanging > 0
    patient = edited(before, finish_with_hanging=False)
    going_on = belote.apply(patient, patient.to_act, card)
    assert belote.winner(going_on) is None and going_on.hanging > 0
    assert belote.view(going_on, None)["options"]["finish_with_hanging"] is False


def test_options_are_kept() -> None:
    state = belote.new_game(
        1, target=101, declarations="pool", finish_with_hanging=False, announce="ask"
    )
    again = belote.loads(belote.dumps(state))
    assert belote.view(again, None)["options"] == {
        "target": 101,
        "declarations": "pool",
        "finish_with_hanging": False,
        "announce": "ask",
    }
    with pytest.raises(ValueError):
        belote.new_game(1, declarations="both")


# ---------------------------------------------------------------------------- view


def test_view_during_the_auction() -> None:
    state = calls(belote.new_game(1, dealer=3), "H")
    v = belote.view(state, 1)
    assert v["phase"] == "auction" and v["to_act"] == 1 and v["dealer"] == 3
    assert len(v["hand"]) == 5 and v["hand_sizes"] == [5, 5, 5, 5]
    assert v["legal"] == ["pass", "S", "NT", "AT", "contra"]
    assert v["auction"] == [[0, "H"]]
    assert v["contract"] == {"contract": "H", "declarer": 0, "multiplier": 1, "team": 0}
    assert belote.view(belote.new_game(1, dealer=3), 0)["contract"] is None
    assert belote.view(state, 2)["legal"] == []
    spectator = belote.view(state, None)
    assert spectator["hand"] == [] and spectator["legal"] == [] and spectator["seat"] is None
    json.dumps(v)


def test_view_hides_other_hands_and_undealt_cards() -> None:
    state = belote.new_game(1, dealer=3)
    text = json.dumps(belote.view(state, 0))
    own = set(belote.view(state, 0)["hand"])
    for code in belote.CARDS:
        if code not in own:
            assert f'"{code}"' not in text, code


def test_view_keys_are_stable() -> None:
    state = calls(belote.new_game(1, dealer=3), "H", "pass", "pass", "pass")
    first = belote.legal_actions(state, 0)[0]
    state = belote.apply(state, 0, first)
    v = belote.view(state, 1)
    assert set(v) == {
        "seat", "to_act", "phase", "deal_no", "dealer", "hand", "legal", "announce",
        "hand_sizes", "auction", "contract", "leader", "trick", "last_trick", "tricks",
        "tricks_won", "trick_points", "declarations", "belots", "scores", "hanging", "target",
        "deals", "options", "deal_results", "winner",
    }  # fmt: skip
    assert v["hand"] == belote.sort_hand(v["hand"], "H")
    assert v["legal"] == belote.legal_actions(state, 1) and v["legal"]
    assert v["trick"] == [[0, first]] and v["leader"] == 0 and v["last_trick"] is None
    assert v["hand_sizes"] == [7, 8, 8, 8]


# ---------------------------------------------------------------------------- keeping quiet


def test_a_player_may_keep_a_declaration_quiet_with_the_first_card() -> None:
    state = belote.new_game(1, dealer=3, decks=[stack(3, TRUMP_TIE_HANDS)], announce="ask")
    state = calls(state, "H", "pass", "pass", "pass")
    choices = belote.announcements(state, 0)
    assert [(c["key"], c["kind"], c["cards"]) for c in choices] == [
        ("d0", "tierce", ["9H", "TH", "JH"])
    ]
    assert belote.announcements(state, 1) == []  # not its turn
    assert belote.view(state, 0)["announce"] == choices
    assert belote.view(state, 1)["announce"] == belote.view(state, None)["announce"] == []
    card = belote.legal_actions(state, 0)[0]
    quiet = belote.apply(state, 0, f"{card}/d0")
    assert belote.view(quiet, 2)["declarations"] == []
    assert belote.loads(belote.dumps(quiet)) == quiet
    # Seat 1's tierce is now the only one: it scores, as it could not against an equal one.
    done = play_deal(quiet)
    result = belote.deal_results(done)[0]
    assert [(c["seat"], c["scored"]) for c in result["combinations"]] == [(1, True)]
    assert result["declarations"] == [0, 20]
    announced = play_deal(belote.apply(state, 0, card))
    assert belote.deal_results(announced)[0]["declarations"] == [0, 0]


def test_declarations_are_kept_quiet_only_with_the_first_card() -> None:
    state = belote.new_game(1, dealer=3, decks=[stack(3, TRUMP_TIE_HANDS)], announce="ask")
    state = calls(state, "H", "pass", "pass", "pass")
    card = belote.legal_actions(state, 0)[0]
    assert "nothing like that" in raises(state, 0, f"{card}/d1").template
    assert "nothing like that" in raises(state, 0, f"{card}/tierce").template
    assert raises(state, 0, "XX/d0").template == "%(action)s is not a card"
    for _card in range(4):
        state = belote.apply(state, state.to_act, belote.legal_actions(state, state.to_act)[0])
    seat = state.to_act
    later = belote.legal_actions(state, seat)[0]
    assert belote.announcements(state, seat) == []
    assert "nothing like that" in raises(state, seat, f"{later}/d0").template


def test_a_player_may_keep_a_belot_quiet() -> None:
    state = belote.position("H", 0, ["KH", "QH", "7C"], [], announce="ask")
    [belot] = belote.announcements(state, 0)
    assert belot["key"] == "belot" and belot["cards"] == ["QH", "KH"]
    assert belot["with_cards"] == ["QH", "KH"]
    quiet = belote.apply(state, 0, "QH/belot")
    assert quiet.belots == ()
    assert belote.announcements(belote.loads(belote.dumps(quiet)), 0) == []
    # Keeping quiet a belot the card does not carry changes nothing.
    assert belote.apply(state, 0, "7C/belot") == belote.apply(state, 0, "7C")


def test_no_belot_to_keep_quiet_where_the_card_could_not_announce_it() -> None:
    discarding = belote.position("AT", 0, ["KD", "QD", "7S"], [(1, "7C")], announce="ask")
    assert belote.announcements(discarding, 0) == []


def test_where_everything_is_announced_nothing_can_be_kept_quiet() -> None:
    state = belote.position("H", 0, ["KH", "QH", "7C"], [])
    assert belote.announcements(state, 0) == belote.view(state, 0)["announce"] == []
    assert "every declaration is announced" in raises(state, 0, "QH/belot").template
