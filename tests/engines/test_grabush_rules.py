"""Grabush rules, one test (or a few) per rule of shared/rules/grabush.md."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.engines import cards, grabush
from games.engines.grabush import IllegalAction, apply, legal_actions, new_game, view

from .grabush_helpers import all_cards, craft, make_shoe, stock_top_first, table

SEQUENCE = ["AC", "2C", "3D", "4H", "5S", "6C", "7D", "8H", "9S", "TC", "JD", "QH", "KS"]


def play(state: grabush.State, *actions: str) -> grabush.State:
    """Apply actions, each by the seat on turn."""
    for action in actions:
        state = apply(state, state.to_act, action)
    return state


def illegal(state: grabush.State, seat: int, action: str) -> str:
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, action)
    return str(info.value)


# --- §1 table and §2 deal ------------------------------------------------------------------


def test_illegal_action_is_the_shared_class():
    assert grabush.IllegalAction is cards.IllegalAction
    assert issubclass(grabush.IllegalAction, ValueError)


@pytest.mark.parametrize(
    ("players", "stock", "supply", "total"),
    [
        (2, 20, 106, 156),
        (4, 20, 96, 156),
        (6, 20, 86, 156),
        (8, 20, 128, 208),
        (6, 25, 76, 156),
        (6, 30, 66, 156),
        (8, 25, 118, 208),
        (8, 30, 108, 208),
    ],
)
def test_deal_sizes(players, stock, supply, total):
    state = new_game(3, players=players, stock_size=stock)
    v = view(state, None)
    assert v["supply"] == supply
    assert v["books_left"] == -(-supply // 5)
    assert v["hand_sizes"] == [5] * players
    assert [s["size"] for s in v["stocks"]] == [stock, stock]
    assert sum(all_cards(state).values()) == total
    assert all_cards(state) == Counter(grabush.full_deck(players))


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3},
        {"players": 10},
        {"players": 4, "stock_size": 25},
        {"players": 2, "stock_size": 30},
        {"players": 6, "stock_size": 22},
        {"players": 4, "dealer": 4},
        {"players": 4, "dealer": -1},
        {"players": 2, "shoe": ["AC"] * 156},
        {"players": 2, "shoe": grabush.full_deck(2)[:-1]},
    ],
)
def test_bad_options_raise_value_error(options):
    with pytest.raises(ValueError):
        new_game(1, **options)


def test_shoe_order_stocks_hands_supply():
    shoe = grabush.full_deck(4)[::-1]
    state = new_game(5, players=4, dealer=2, shoe=shoe)
    s = 20
    v = view(state, 3)
    assert v["stocks"][0] == {"top": shoe[0], "size": 20}
    assert v["stocks"][1] == {"top": shoe[s], "size": 20}
    assert stock_top_first(state, 0) == shoe[0:s]
    assert stock_top_first(state, 1) == shoe[s : 2 * s]
    # Dealer 2: seat 3 is on his left, then 0, 1, 2.
    for i, seat in enumerate([3, 0, 1, 2]):
        assert state.hands[seat] == shoe[2 * s + 5 * i : 2 * s + 5 * i + 5]
    assert v["hand"] == shoe[40:45]
    assert state.supply == shoe[60:]
    assert state.to_act == 3


def test_first_book_comes_from_the_supply_top():
    shoe = make_shoe(2, dealer=1, hands={0: ["AC", "2C", "3C", "4C", "5C"]})
    state = new_game(1, players=2, dealer=1, shoe=shoe)
    state = play(state, "centre:hand:AC:new", "centre:hand:2C:0", "centre:hand:3C:0")
    state = play(state, "centre:hand:4C:0", "centre:hand:5C:0")
    assert state.hands[0] == shoe[50:55]


def test_random_dealer_comes_from_the_seed():
    dealers = {new_game(seed, players=4).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    for seed in range(10):
        a, b = new_game(seed, players=6), new_game(seed, players=6)
        assert grabush.dumps(a) == grabush.dumps(b)
        assert a.to_act == (a.dealer + 1) % 6
    assert grabush.dumps(new_game(1, players=4)) != grabush.dumps(new_game(2, players=4))


def test_first_player_is_left_of_dealer():
    for dealer in range(8):
        state = new_game(1, players=8, dealer=dealer)
        assert state.to_act == (dealer + 1) % 8
        assert view(state, None)["dealer"] == dealer


# --- the cut -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_cut_rules(players):
    recuts = 0
    for seed in range(150):
        result = grabush.cut(seed, players)
        assert result == grabush.cut(seed, players)
        rounds = result["rounds"]
        assert sorted(c["player"] for c in rounds[0]) == list(range(players))

        def keys(player, rounds=rounds):
            return [grabush.WHIST[c["card"][0]] for r in rounds for c in r if c["player"] == player]

        order = result["order"]
        assert sorted(order) == list(range(players))
        assert [keys(p) for p in order] == sorted(keys(p) for p in order)
        lower, higher = result["sides"]
        assert len(lower) == len(higher) == players // 2
        first = {c["player"]: grabush.WHIST[c["card"][0]] for c in rounds[0]}
        # Lower half one side, higher half the other, by the first cut.
        assert max(first[p] for p in lower) <= min(first[p] for p in higher)
        # No tie left where it matters: lowest cut and the line between the halves.
        assert keys(order[0]) < keys(order[1])
        assert keys(order[players // 2 - 1]) < keys(order[players // 2])
        assert result["dealer_player"] == order[0]
        assert min(first.values()) == first[order[0]]
        # Seats alternate sides; the dealer sits at seat ``dealer``, on the lower side.
        seats = result["seats"]
        assert sorted(seats) == list(range(players))
        assert {seats[i] for i in range(0, players, 2)} == set(lower)
        assert seats[result["dealer"]] == order[0]
        # A re-cut is only among players who tied before.
        for later in rounds[1:]:
            recuts += 1
            tied = [c["player"] for c in later]
            assert len(tied) >= 2
            for p in tied:
                assert any(first[q] == first[p] for q in tied if q != p)
    assert recuts > 0  # the seeds exercise ties


def test_cut_rejects_bad_player_count():
    with pytest.raises(ValueError):
        grabush.cut(1, 5)


# --- §3 centre plays -----------------------------------------------------------------------


def test_aces_open_any_number_of_piles():
    state = craft(2, 0, stocks=[["QS"], ["QH"]], hands=[["AC", "AD", "AH", "AS", "9C"], ["9D"]])
    for ace in ["AC", "AD", "AH", "AS"]:
        assert f"centre:hand:{ace}:new" in legal_actions(state, 0)
        state = play(state, f"centre:hand:{ace}:new")
    assert view(state, 0)["centre"] == [["AC"], ["AD"], ["AH"], ["AS"]]


def test_centre_needs_one_rank_higher_and_suits_do_not_matter():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["7H", "5D", "AC", "2S", "9C"], ["9D"]],
        centre=[["AC", "2C", "3C", "4C"], ["AH", "2H"]],
        supply=["9H"],
        leftovers_to="supply",
    )
    acts = legal_actions(state, 0)
    assert "centre:hand:5D:0" in acts
    assert "centre:hand:7H:0" not in acts
    assert "centre:hand:2S:1" not in acts
    with pytest.raises(IllegalAction) as info:
        apply(state, 0, "centre:hand:7H:0")
    assert str(info.value) == "7 goes on 6; that pile shows 4"
    assert info.value.template == "%(rank)s goes on %(below)s; that pile shows %(top)s"
    assert illegal(state, 0, "centre:hand:7H:new") == "Only an Ace starts a new centre pile"
    assert illegal(state, 0, "centre:hand:AC:1") == "An Ace always starts a new centre pile"
    assert illegal(state, 0, "centre:hand:5D:7") == "There is no centre pile 7"
    assert illegal(state, 0, "centre:hand:8D:0") == "You have no 8D in your hand"
    state = play(state, "centre:hand:5D:0")
    assert view(state, 1)["centre"][0] == ["AC", "2C", "3C", "4C", "5D"]


def test_centre_play_is_optional_table_card_right_away():
    state = new_game(4, players=4)
    seat = state.to_act
    card = next(c for c in state.hands[seat] if c[0] != "A")
    state2 = apply(state, seat, f"table:{card}:0")
    assert state2.to_act == (seat + 1) % 4
    assert table(state2, seat, 0) == [card]


def test_stock_top_plays_and_next_card_turns_at_once():
    shoe = make_shoe(2, dealer=1, stocks=[["AS", "2D", "9H"], ["5C"]])
    state = new_game(1, players=2, dealer=1, shoe=shoe)
    assert "centre:stock:new" in legal_actions(state, 0)
    state = play(state, "centre:stock:new")
    assert view(state, 1)["stocks"][0] == {"top": "2D", "size": 19}
    assert {"kind": "stock_turned", "side": 0, "top": "2D"} in view(state, 1)["last_events"]
    state = play(state, "centre:stock:0")
    assert view(state, None)["stocks"][0]["top"] == "9H"


def test_only_own_sides_stock():
    # Side 1's top is an Ace, but seat 0 (side 0) may not use it.
    shoe = make_shoe(2, dealer=1, stocks=[["9S"], ["AH"]], hands={0: ["9C"] * 1})
    state = new_game(1, players=2, dealer=1, shoe=shoe)
    assert not [a for a in legal_actions(state, 0) if a.startswith("centre:stock")]
    assert illegal(state, 0, "centre:stock:new") == "Only an Ace starts a new centre pile"


def test_own_table_pile_plays_and_frees_the_slot():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C", "9D", "9H", "9S", "8C"], ["8D"]],
        tables={(0, 0): ["2D"], (0, 1): ["5H", "3C"]},
        centre=[["AC"]],
        supply=["7C"],
        leftovers_to="supply",
    )
    state = play(state, "centre:table:0:0:0", "centre:table:0:1:0")
    assert table(state, 0, 0) == [] and table(state, 0, 1) == ["5H"]
    assert view(state, 0)["centre"] == [["AC", "2D", "3C"]]
    state = play(state, "table:9C:0")
    assert table(state, 0, 0) == ["9C"]


def test_partners_table_pile_usable():
    state = craft(
        4,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C"], ["9D"], ["9H"], ["9S"]],
        tables={(2, 1): ["2D"], (1, 0): ["2H"]},
        centre=[["AC"]],
        supply=["7C"],
        leftovers_to="supply",
    )
    acts = legal_actions(state, 0)
    assert "centre:table:2:1:0" in acts
    assert not any(a.startswith("centre:table:1:") for a in acts)
    state = play(state, "centre:table:2:1:0")
    assert table(state, 2, 1) == []
    assert view(state, 3)["centre"] == [["AC", "2D"]]


def test_opponents_table_pile_refused():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C"], ["9D"]],
        tables={(1, 0): ["2H"]},
        centre=[["AC"]],
        supply=["7C"],
        leftovers_to="supply",
    )
    assert "centre:table:1:0:0" not in legal_actions(state, 0)
    message = illegal(state, 0, "centre:table:1:0:0")
    assert message == "Only your partners' table piles are yours to use"
    assert illegal(state, 0, "centre:table:0:2:0") == "Table pile 2 of seat 0 is empty"


# --- books ---------------------------------------------------------------------------------


def test_book_drawn_mid_turn_when_last_hand_card_goes_to_centre():
    head = ["9H", "9D", "9S", "9C", "TH", "TD"]
    shoe = make_shoe(
        2, dealer=1, stocks=[["QS"], ["QH"]], hands={0: ["AC", "2C", "3C", "4C", "5C"]}, supply=head
    )
    state = new_game(1, players=2, dealer=1, shoe=shoe)
    state = play(state, "centre:hand:AC:new", "centre:hand:2C:0", "centre:hand:3C:0")
    state = play(state, "centre:hand:4C:0")
    assert state.hands[0] == ["5C"] and view(state, 0)["supply"] == 106
    state = play(state, "centre:hand:5C:0")
    assert state.to_act == 0
    assert state.hands[0] == head[:5]
    assert view(state, 0)["supply"] == 101
    assert {"kind": "book", "seat": 0, "count": 5} in view(state, 0)["last_events"]
    # He plays on with the new book.
    state = play(state, "table:9H:0")
    assert state.to_act == 1


def test_no_top_up_at_turn_start():
    shoe = make_shoe(
        2, dealer=1, stocks=[["QS"], ["QH"]], hands={0: ["AC", "2C", "3C", "9H", "9D"]}
    )
    state = new_game(1, players=2, dealer=1, shoe=shoe)
    state = play(state, "centre:hand:AC:new", "centre:hand:2C:0", "centre:hand:3C:0")
    state = play(state, "table:9H:0")
    other = next(c for c in state.hands[1] if c[0] != "A")
    state = play(state, f"table:{other}:0")
    assert state.to_act == 0
    assert state.hands[0] == ["9D"]
    assert view(state, 0)["supply"] == 106


def test_book_drawn_at_turn_start_into_empty_hand():
    head = ["9H", "9D", "9S", "9C", "TH"]
    shoe = make_shoe(
        2,
        dealer=1,
        stocks=[["QS"], ["QH"]],
        hands={0: ["AC", "2C", "3C", "4C", "JH"]},
        supply=head,
    )
    state = new_game(1, players=2, dealer=1, shoe=shoe)
    state = play(state, "centre:hand:AC:new", "centre:hand:2C:0", "centre:hand:3C:0")
    state = play(state, "centre:hand:4C:0", "table:JH:0")
    assert view(state, 1)["hand_sizes"][0] == 0
    assert view(state, 1)["supply"] == 106
    other = next(c for c in state.hands[1] if c[0] != "A")
    state = play(state, f"table:{other}:0")
    assert state.to_act == 0 and state.hands[0] == head
    assert view(state, 0)["supply"] == 101


def test_short_last_book_and_empty_supply():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["AC"], ["9D"]],
        supply=["9H", "9S", "9C"],
    )
    state = play(state, "centre:hand:AC:new")
    assert state.hands[0] == ["9H", "9S", "9C"]
    assert view(state, 0)["supply"] == 0 and view(state, 0)["books_left"] == 0


def test_empty_hand_and_supply_plays_on_then_ends():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["3H"]],
        hands=[["AC"], ["9D", "2D"]],
        tables={(0, 0): ["2C"]},
    )
    state = play(state, "centre:hand:AC:new")
    assert state.hands[0] == [] and state.to_act == 0
    assert legal_actions(state, 0) == ["centre:table:0:0:0", "end"]
    state = play(state, "centre:table:0:0:0", "end")
    assert state.to_act == 1


def test_end_needs_an_empty_hand():
    state = new_game(2, players=2)
    message = illegal(state, state.to_act, "end")
    assert message == "You still have cards: end your turn with a table card"
    assert "end" not in legal_actions(state, state.to_act)


# --- completed piles ----------------------------------------------------------------------


def _stock_run_game(shuffle: bool, seed: int = 1) -> grabush.State:
    shoe = make_shoe(2, dealer=1, stocks=[[*SEQUENCE, "AH", "2H"], ["QH"]])
    return new_game(seed, players=2, dealer=1, shoe=shoe, shuffle_completed=shuffle)


def _play_run(state: grabush.State) -> grabush.State:
    state = play(state, "centre:stock:new")
    for _ in range(12):
        state = play(state, "centre:stock:0")
    return state


def test_king_returns_pile_to_bottom_of_supply_in_order():
    state = _stock_run_game(shuffle=False)
    before = list(state.supply)
    state = play(state, "centre:stock:new")
    for _ in range(11):
        state = play(state, "centre:stock:0")
    assert len(state.centre) == 1 and len(state.centre[0]) == 12
    state = play(state, "centre:stock:0")
    assert state.centre == []
    assert state.supply == before + SEQUENCE
    v = view(state, 0)
    assert v["supply"] == 106 + 13 and v["completed"] == 1
    assert {"kind": "completed", "pile": 0} in v["last_events"]
    assert all_cards(state) == Counter(grabush.full_deck(2))
    # The next pile index starts again at 0 and the turn goes on.
    assert state.to_act == 0
    state = play(state, "centre:stock:new")
    assert view(state, 0)["centre"] == [["AH"]]


def test_completed_pile_shuffle_is_seeded_and_kept_across_dumps():
    a = _play_run(_stock_run_game(shuffle=True, seed=11))
    b = _play_run(grabush.loads(grabush.dumps(_stock_run_game(shuffle=True, seed=11))))
    assert a.supply == b.supply
    assert Counter(a.supply[-13:]) == Counter(SEQUENCE)
    shuffles = {tuple(_play_run(_stock_run_game(True, seed)).supply[-13:]) for seed in range(6)}
    assert len(shuffles) > 1
    assert tuple(SEQUENCE) not in shuffles or len(shuffles) > 1


def test_pile_index_shifts_when_an_older_pile_completes():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["KC", "3D", "9C"], ["9D"]],
        centre=[SEQUENCE[:12], ["AD", "2D"]],
        supply=["7C"],
        leftovers_to="supply",
    )
    state = play(state, "centre:hand:KC:0")
    assert view(state, 0)["centre"] == [["AD", "2D"]]
    assert "centre:hand:3D:0" in legal_actions(state, 0)


# --- table cards ---------------------------------------------------------------------------


def test_table_card_ends_turn_any_rank_on_any_pile():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["KC", "2D", "9C"], ["9D"]],
        tables={(0, 0): ["3H"]},
        supply=["7C"],
        leftovers_to="supply",
    )
    state = play(state, "table:KC:0")
    assert table(state, 0, 0) == ["3H", "KC"]
    assert state.to_act == 1
    assert illegal(state, 0, "table:2D:0") == "It is not your turn"


def test_fifth_table_pile_refused():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["5C", "2D"], ["9D"]],
        tables={(0, 0): ["9C"], (0, 1): ["8C"], (0, 2): ["7C"], (0, 3): ["6C"]},
        supply=["7D"],
        leftovers_to="supply",
    )
    message = illegal(state, 0, "table:5C:4")
    assert message == "There is no table slot 4; each player has four (0-3)"
    assert sorted(a for a in legal_actions(state, 0) if a.startswith("table:5C")) == [
        f"table:5C:{slot}" for slot in range(4)
    ]
    state = play(state, "table:5C:2")
    assert table(state, 0, 2) == ["7C", "5C"]


def test_aces_are_never_table_cards():
    state = craft(2, 0, stocks=[["QS"], ["QH"]], hands=[["AC", "AD"], ["9D"]], supply=["7D"])
    assert illegal(state, 0, "table:AC:0") == "Aces can't be table cards"
    assert legal_actions(state, 0) == ["centre:hand:AC:new", "centre:hand:AD:new"]


def test_stock_and_table_cards_never_go_to_a_table_pile():
    state = craft(
        2,
        0,
        stocks=[["9S"], ["QH"]],
        hands=[["5C"], ["9D"]],
        tables={(0, 0): ["8S"]},
        supply=["7D"],
        leftovers_to="supply",
    )
    assert illegal(state, 0, "table:9S:1") == "Stock cards never go to a table pile"
    assert illegal(state, 0, "table:8S:1") == "Table cards never move between table piles"
    assert not any(a.startswith(("table:9S", "table:8S")) for a in legal_actions(state, 0))


def test_malformed_actions_are_refused():
    state = new_game(1, players=2)
    seat = state.to_act
    for action in ["", "play", "centre", "centre:hand:XX:0", "table:5C", "centre:deck:0", "end:1"]:
        with pytest.raises(IllegalAction):
            apply(state, seat, action)
    with pytest.raises(IllegalAction):
        legal_actions(state, 5)


# --- §3 win and blocked game ---------------------------------------------------------------


def test_empty_stock_wins_at_once_mid_turn():
    stock = [*SEQUENCE, "AH", "2H", "3H", "4H", "5H", "6H", "7H"]
    shoe = make_shoe(2, dealer=1, stocks=[stock, ["QH"]])
    state = new_game(1, players=2, dealer=1, shoe=shoe)
    hand = list(state.hands[0])
    state = _play_run(state)
    state = play(state, "centre:stock:new")
    for _ in range(5):
        state = play(state, "centre:stock:0")
    assert state.to_act == 0 and not state.over
    state = play(state, "centre:stock:0")
    v = view(state, None)
    assert v["over"] and v["winner"] == 0 and v["result"] == "win" and v["to_act"] is None
    assert v["end_reason"] == "stock"
    assert v["stocks"][0] == {"top": None, "size": 0}
    assert state.hands[0] == hand  # no table card needed
    assert legal_actions(state, 0) == [] and legal_actions(state, 1) == []
    assert illegal(state, 0, "table:9C:0") == "The game is over"


def test_quiet_round_with_empty_supply_is_a_draw():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C", "8C"], ["3C", "8D"]],
        centre=[["AD", "2D"]],
    )
    state = play(state, "table:9C:0")
    assert not state.over and view(state, 1)["quiet_turns"] == 1
    state = play(state, "table:8D:0")  # seat 1 could have played 3C: a quiet turn
    v = view(state, None)
    assert v["over"] and v["winner"] is None and v["result"] == "draw"
    assert v["end_reason"] == "quiet"
    assert {
        "kind": "draw",
        "reason": "quiet",
        "stocks": [v["stocks"][0]["size"], v["stocks"][1]["size"]],
    } in v["last_events"]


def test_centre_play_resets_the_quiet_count():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C", "4C"], ["3C", "8D"]],
        centre=[["AD", "2D"]],
    )
    state = play(state, "table:9C:0")
    state = play(state, "centre:hand:3C:0", "table:8D:0")
    assert not state.over and view(state, 0)["quiet_turns"] == 0
    state = play(state, "centre:hand:4C:0", "end")
    # Nobody has a 5 or an Ace left: stuck.
    assert state.over and state.end_reason == "stuck" and state.winner is None


def test_no_draw_while_the_supply_has_cards():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C", "8C", "7C"], ["9D", "8D", "7D"]],
        supply=["5S", "5H", "5D", "5C", "6C", "6D"],
    )
    for card in ["9C", "9D", "8C", "8D", "7C", "7D"]:
        state = play(state, f"table:{card}:0")
        assert not state.over
    assert view(state, 0)["quiet_turns"] == 0


def test_stuck_position_is_a_draw_at_once():
    state = craft(
        4,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C"], ["9D"], ["5C"], ["7D"]],
        tables={(1, 0): ["6S"]},
        centre=[["AD", "2D", "3D"]],
    )
    # A 4 (or an Ace) is needed and nobody has one in hand, on a table or on a stock.
    state = play(state, "table:9C:0")
    assert state.over and state.end_reason == "stuck"
    assert view(state, 2)["legal"] == []


def test_not_stuck_when_someone_can_still_play():
    state = craft(
        4,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C"], ["9D"], ["4C"], ["7D"]],
        centre=[["AD", "2D", "3D"]],
    )
    state = play(state, "table:9C:0")
    assert not state.over and state.to_act == 1


# --- §4 table talk ---------------------------------------------------------------------------


def test_grant_penalty_gives_each_opponent_one_right_per_message():
    state = new_game(3, players=4, dealer=3)
    state = grabush.grant_penalty(state, 1)
    assert view(state, None)["penalty_rights"] == [1, 0, 1, 0]
    state = grabush.grant_penalty(state, 1)
    state = grabush.grant_penalty(state, 0)
    assert view(state, None)["penalty_rights"] == [2, 1, 2, 1]
    # Seat 2 is not on turn: only its penalty actions.
    acts = legal_actions(state, 2)
    assert set(acts) == {f"penalty:1:{c}" for c in state.hands[2]} | {"decline:1"}
    assert legal_actions(new_game(3, players=4, dealer=3), 2) == []


def test_penalty_inserts_in_the_middle_of_the_face_down_stock():
    for face_down, position in [(19, 9), (4, 2), (5, 2), (0, 0), (1, 0)]:
        stock = ["QH", *[r + s for r in "23456789TJK" for s in "SDH"][:face_down]]
        state = craft(
            2,
            0,
            stocks=[["QS"], stock],
            hands=[["5C", "6C"], ["9D"]],
            rights=[1, 0],
            leftovers_to="supply",
        )
        before = stock_top_first(state, 1)
        state = apply(state, 0, "penalty:1:5C")
        after = stock_top_first(state, 1)
        assert after[0] == "QH"  # the face-up top does not change
        assert after[1:] == [*before[1 : 1 + position], "5C", *before[1 + position :]]
        assert state.hands[0] == ["6C"]
        assert view(state, 0)["penalty_rights"] == [0, 0]
        assert state.to_act == 0
        assert {"kind": "penalty", "seat": 0, "side": 1} in view(state, 1)["last_events"]


def test_penalty_outside_own_turn_and_decline():
    state = grabush.grant_penalty(new_game(8, players=4, dealer=3), 0)
    assert state.to_act == 0
    card = state.hands[3][0]
    state2 = apply(state, 3, f"penalty:0:{card}")
    assert state2.to_act == 0 and view(state2, None)["stocks"][0]["size"] == 21
    assert view(state2, None)["penalty_rights"] == [0, 1, 0, 0]
    state3 = apply(state2, 1, "decline:0")
    assert view(state3, None)["penalty_rights"] == [0, 0, 0, 0]
    assert view(state3, None)["stocks"][0]["size"] == 21
    message = illegal(state3, 1, "decline:0")
    assert message == "You have no penalty right against side 0"
    assert illegal(state, 0, f"penalty:0:{state.hands[0][0]}").startswith("You have no penalty")
    assert illegal(state, 1, "penalty:0:ZZ") == "You have no ZZ in your hand"


def test_penalty_right_waits_for_the_next_book():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C", "8C"], []],
        rights=[0, 1],
        supply=["5S", "5H", "5D", "5C", "6C", "6D"],
    )
    assert legal_actions(state, 1) == ["decline:0"]
    message = illegal(state, 1, "penalty:0:9C")
    assert message == "You have no cards yet: the penalty waits for your book"
    state = play(state, "table:9C:0")
    assert state.to_act == 1 and state.hands[1] == ["5S", "5H", "5D", "5C", "6C"]
    assert "penalty:0:5H" in legal_actions(state, 1)
    state = apply(state, 1, "penalty:0:5H")
    assert "5H" in stock_top_first(state, 0)[1:]
    assert state.to_act == 1 and len(state.hands[1]) == 4


def test_penalty_needs_the_rule_and_a_running_game():
    state = new_game(1, players=2, table_talk_penalty=False)
    with pytest.raises(IllegalAction):
        grabush.grant_penalty(state, 0)
    with pytest.raises(ValueError):
        grabush.grant_penalty(new_game(1, players=2), 2)


def test_rights_lapse_when_the_game_ends():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C"], ["8D"]],
        rights=[0, 1],
    )
    assert legal_actions(state, 1) == ["penalty:0:8D", "decline:0"]
    state = play(state, "table:9C:0")  # nobody can play to the centre: stuck
    assert state.over
    assert view(state, None)["penalty_rights"] == [0, 0]
    assert legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        grabush.grant_penalty(state, 0)


# --- §5 views, serialisation, immutability ---------------------------------------------------


def test_view_shows_only_public_cards_and_own_hand():
    state = new_game(12, players=4)
    seat = state.to_act
    v = view(state, seat)
    required = {"to_act", "over", "winner", "hand", "hand_sizes", "stocks", "centre", "tables"}
    required |= {"supply", "seat", "players", "dealer", "side", "legal", "penalty_rights"}
    required |= {"books_left", "completed", "last_events", "turn_centre_plays", "quiet_turns"}
    assert required <= set(v)
    assert v["hand"] == state.hands[seat] and v["side"] == seat % 2
    assert v["legal"] == legal_actions(state, seat)
    spectator = view(state, None)
    assert spectator["hand"] == [] and spectator["legal"] == [] and spectator["seat"] is None
    # Stocks show their tops only; hands only as sizes.
    assert spectator["stocks"] == [{"top": s[-1], "size": len(s)} for s in state.stocks]
    assert spectator["hand_sizes"] == [5, 5, 5, 5]
    other = view(state, (seat + 1) % 4)
    assert other["hand"] != v["hand"] or state.hands[seat] == state.hands[(seat + 1) % 4]
    assert json.loads(json.dumps(v)) == v


def test_dumps_loads_round_trip_and_same_future():
    state = new_game(21, players=6, stock_size=25)
    state = grabush.grant_penalty(state, 1)
    text = grabush.dumps(state)
    again = grabush.loads(text)
    assert grabush.dumps(again) == text and again == state
    seat = state.to_act
    action = legal_actions(state, seat)[0]
    assert grabush.dumps(apply(state, seat, action)) == grabush.dumps(apply(again, seat, action))
    with pytest.raises(ValueError):
        grabush.loads('{"game": "belote", "v": 1}')


def test_apply_leaves_the_input_unchanged():
    state = grabush.grant_penalty(new_game(5, players=4), 0)
    text = grabush.dumps(state)
    seat = state.to_act
    for action in legal_actions(state, seat):
        apply(state, seat, action)
    for other in range(4):
        for action in legal_actions(state, other) if other != seat else []:
            apply(state, other, action)
    assert grabush.dumps(state) == text


def test_not_your_turn():
    state = new_game(1, players=4)
    seat = (state.to_act + 1) % 4
    card = state.hands[seat][0]
    assert illegal(state, seat, f"table:{card}:0") == "It is not your turn"
    assert illegal(state, seat, "end") == "It is not your turn"


def test_legal_actions_returns_a_fresh_list():
    state = new_game(4, players=4)
    seat = state.to_act
    first = legal_actions(state, seat)
    expected = list(first)
    first.clear()
    assert legal_actions(state, seat) == expected
    assert legal_actions(grabush.loads(grabush.dumps(state)), seat) == expected


def test_penalty_emptying_own_hand_mid_turn_then_end_and_draw_next_turn():
    state = craft(
        2,
        0,
        stocks=[["QS"], ["QH"]],
        hands=[["9C"], ["8D", "7D"]],
        rights=[1, 0],
        supply=["5S", "5H", "5D", "5C", "6C", "6D"],
    )
    state = apply(state, 0, "penalty:1:9C")
    assert state.to_act == 0 and state.hands[0] == []
    assert legal_actions(state, 0) == ["end"]  # no book mid-turn: it was no centre play
    state = play(state, "end", "table:8D:0")
    assert state.to_act == 0 and state.hands[0] == ["5S", "5H", "5D", "5C", "6C"]


# --- what the others did ------------------------------------------------------------------


def test_each_players_latest_turn_is_kept_in_order_until_their_next_turn():
    state = craft(
        2,
        0,
        stocks=[["2D", "9S"], ["KC"]],
        hands=[["AC", "3C", "QH", "7S", "8S"], ["AH", "KS", "KD", "QD", "JD"]],
    )
    state = play(state, "centre:hand:AC:new", "centre:stock:0", "table:QH:1")
    turns = view(state, 1)["last_turns"]
    assert [(e["kind"], e.get("card"), e.get("source")) for e in turns[0]] == [
        ("play", "AC", "hand"),
        ("play", "2D", "stock"),
        ("table", "QH", None),
    ]
    assert turns[0][0]["new"] and "new" not in turns[0][1]
    assert turns[1] == []  # seat 1's turn has begun: nothing done yet
    state = play(state, "centre:hand:AH:new")
    assert [e["card"] for e in view(state, 0)["last_turns"][1]] == ["AH"]
    assert grabush.loads(grabush.dumps(state)) == state
    state = play(state, "table:KS:0")
    turns = view(state, 0)["last_turns"]
    assert turns[0] == []  # seat 0's next turn starts its log afresh
    assert [e["card"] for e in turns[1]] == ["AH", "KS"]
    state = play(state, "centre:hand:3C:0")
    assert [e["card"] for e in view(state, 1)["last_turns"][0]] == ["3C"]
