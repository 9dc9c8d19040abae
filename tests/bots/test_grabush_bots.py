"""Grabush computer players: legality, honesty (view only), normal's §6 heuristics, harness."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from games.bots import grabush as bots
from games.catalog import get_game
from games.engines import grabush
from games.engines.grabush import apply, legal_actions, new_game, view
from tests.engines.grabush_helpers import make_shoe

Bot = Callable[[dict[str, Any], random.Random, float], str]

#: Hard with a fixed number of sampled worlds: deterministic and quick.
HARD_FIXED = partial(bots.choose_hard, samples=3)
TEST_LEVELS: dict[str, Bot] = {
    "easy": bots.choose_easy,
    "normal": bots.choose_normal,
    "hard": HARD_FIXED,
}


def _positions(players: int, seed: int, count: int) -> list[grabush.State]:
    """States along one random (easy-driven) playout, with penalty rights granted on the way."""
    rng = random.Random(seed)
    state = new_game(seed, players=players)
    out: list[grabush.State] = []
    steps = 0
    while not state.over and len(out) < count and steps < 5000:
        steps += 1
        if rng.random() < 0.03:
            state = grabush.grant_penalty(state, rng.randrange(2))
        if rng.random() < 0.15:
            out.append(state)
        seat = state.to_act
        state = apply(state, seat, bots.choose_easy(view(state, seat), rng, 0.0))
    return out


def _acting_seats(state: grabush.State) -> list[int]:
    return [seat for seat in range(state.n) if legal_actions(state, seat)]


# --- every level plays legally ----------------------------------------------------------------


def test_levels_registry():
    assert set(bots.LEVELS) == {"easy", "normal", "hard"}
    for level in ("easy", "normal", "hard"):
        assert get_game("grabush").bots[level] is bots.LEVELS[level]


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_every_level_returns_a_legal_action(players):
    out_of_turn = 0
    for seed in range(3):
        for state in _positions(players, 100 * players + seed, 12):
            for seat in _acting_seats(state):
                v = view(state, seat)
                out_of_turn += seat != state.to_act
                for level, bot in TEST_LEVELS.items():
                    action = bot(v, random.Random(seed), 0.02)
                    assert action in v["legal"], (level, action)
    assert out_of_turn > 0  # penalty rights were exercised outside the holder's turn


def test_clock_bound_hard_stays_legal_and_quick():
    for state in _positions(4, 7, 6):
        seat = state.to_act
        v = view(state, seat)
        assert bots.choose_hard(v, random.Random(1), 0.01) in v["legal"]


def test_single_legal_action_is_returned_at_once():
    state = new_game(3, players=2)
    seat = state.to_act
    state = grabush.grant_penalty(state, seat % 2)
    holder = (seat + 1) % 2
    data = json.loads(grabush.dumps(state))
    data["hands"][holder] = []
    state = grabush.loads(json.dumps(data))
    v = view(state, holder)
    assert v["legal"] == [f"decline:{seat % 2}"]
    for bot in TEST_LEVELS.values():
        assert bot(v, random.Random(0), 0.3) == v["legal"][0]


def test_a_computer_never_claims_a_table_talk_penalty():
    state = new_game(5, players=2)
    seat = state.to_act
    state = grabush.grant_penalty(state, seat % 2)
    holder = (seat + 1) % 2
    v = view(state, holder)
    assert any(action.startswith("penalty:") for action in v["legal"])  # it could
    for level in ("easy", "normal", "hard"):
        action = TEST_LEVELS[level](v, random.Random(0), 0.02)
        assert action == f"decline:{seat % 2}", level


# --- honesty: a bot sees only its view ----------------------------------------------------------


def _reshuffle_hidden(state: grabush.State, seat: int, rng: random.Random) -> grabush.State:
    """The same position for ``seat`` with the hidden cards (other hands, face-down stock
    cards, the supply) dealt differently among their places."""
    data = json.loads(grabush.dumps(state))
    places: list[tuple[str, int, int]] = []  # (field, index, count)
    hidden: list[str] = []
    for other, hand in enumerate(data["hands"]):
        if other != seat:
            places.append(("hands", other, len(hand)))
            hidden += hand
    for side, stock in enumerate(data["stocks"]):
        places.append(("stocks", side, max(len(stock) - 1, 0)))
        hidden += stock[:-1]
    places.append(("supply", -1, len(data["supply"])))
    hidden += data["supply"]
    rng.shuffle(hidden)
    pos = 0
    for field, index, count in places:
        cards, pos = hidden[pos : pos + count], pos + count
        if field == "hands":
            data["hands"][index] = cards
        elif field == "stocks":
            stock = data["stocks"][index]
            data["stocks"][index] = cards + stock[-1:]
        else:
            data["supply"] = cards
    return grabush.loads(json.dumps(data))


@pytest.mark.parametrize("players", [2, 4])
def test_bots_decide_from_the_view_alone(players):
    rng = random.Random(players)
    compared = 0
    for state in _positions(players, 40 + players, 10):
        for seat in _acting_seats(state):
            twin = _reshuffle_hidden(state, seat, rng)
            v1, v2 = view(state, seat), view(twin, seat)
            assert v1 == v2
            if twin.hands == state.hands and twin.supply == state.supply:
                continue
            for bot in TEST_LEVELS.values():
                a1 = bot(v1, random.Random(9), 0.05)
                a2 = bot(v2, random.Random(9), 0.05)
                assert a1 == a2
            compared += 1
    assert compared >= 5


def test_shoes_differing_only_in_hidden_cards_give_the_same_choices():
    mine = ["AS", "2D", "5C", "KH", "QS"]
    stocks = (["9H"], ["8D"])
    shoe1 = make_shoe(2, 1, stocks, {0: mine, 1: ["3C", "4C", "6C", "7C", "TC"]})
    shoe2 = make_shoe(2, 1, stocks, {0: mine, 1: ["JD", "JH", "JS", "JC", "TD"]})
    assert shoe1 != shoe2
    s1 = new_game(1, players=2, dealer=1, shoe=shoe1, shuffle_completed=False)
    s2 = new_game(1, players=2, dealer=1, shoe=shoe2, shuffle_completed=False)
    assert view(s1, 0) == view(s2, 0)
    for bot in TEST_LEVELS.values():
        for k in range(3):
            assert bot(view(s1, 0), random.Random(k), 0.05) == bot(
                view(s2, 0), random.Random(k), 0.05
            )


# --- normal's heuristics in stacked deals ---------------------------------------------------


def _deal(
    stocks: tuple[list[str], list[str]],
    hand: list[str],
    opponent: list[str] | None = None,
) -> grabush.State:
    """Two players, seat 0 on turn with ``hand``; stocks given top first."""
    hands = {0: hand}
    if opponent is not None:
        hands[1] = opponent
    shoe = make_shoe(2, dealer=1, stocks=stocks, hands=hands)
    return new_game(1, players=2, dealer=1, shoe=shoe, shuffle_completed=False)


def _turn(state: grabush.State, bot: Bot = bots.choose_normal) -> tuple[list[str], grabush.State]:
    """Let the bot play its whole turn; return its actions and the state after."""
    seat = state.to_act
    actions = []
    while state.to_act == seat and len(actions) < 60:
        action = bot(view(state, seat), random.Random(0), 0.05)
        actions.append(action)
        state = apply(state, seat, action)
    assert state.to_act != seat
    return actions, state


def test_normal_plays_the_stock_top_first():
    state = _deal((["AC", "2C"], ["9D"]), ["AH", "2S", "3D", "KC", "QC"])
    assert bots.choose_normal(view(state, 0), random.Random(0), 0.3) == "centre:stock:new"
    actions, _ = _turn(state)
    assert actions[:2] == ["centre:stock:new", "centre:stock:0"]


@pytest.mark.parametrize("bot", [bots.choose_normal, HARD_FIXED])
def test_normal_finds_a_sequence_that_frees_the_stock(bot):
    state = _deal((["4H", "KD"], ["9D"]), ["3S", "JC", "AD", "QH", "2C"])
    actions, after = _turn(state, bot)
    assert actions[:4] == [
        "centre:hand:AD:new",
        "centre:hand:2C:0",
        "centre:hand:3S:0",
        "centre:stock:0",
    ]
    assert after.stocks[0][-1] == "KD" and len(after.stocks[0]) == 19


def _with_table(state: grabush.State, piles: dict[int, list[str]], seat: int = 0) -> grabush.State:
    """``seat`` gets these table piles (slot -> cards bottom to top), taken from face-down
    stock cards or the supply so that no card is duplicated."""
    data = json.loads(grabush.dumps(state))
    for slot, cards in piles.items():
        data["tables"][seat * grabush.SLOTS + slot] = list(cards)
        for card in cards:
            for stock in data["stocks"]:
                if card in stock[:-1]:
                    stock.remove(card)
                    break
            else:
                data["supply"].remove(card)
    return grabush.loads(json.dumps(data))


def test_normal_frees_the_stock_through_a_table_pile():
    state = _with_table(_deal((["3H"], ["9D"]), ["AD", "KC", "KS", "QH", "QD"]), {0: ["5C", "2S"]})
    actions, _ = _turn(state)
    assert actions[:3] == ["centre:hand:AD:new", "centre:table:0:0:0", "centre:stock:0"]


def test_normal_does_not_build_to_one_below_the_opponents_stock_top():
    # Opponents show a 4: A-2-3 would hand it to them; A-2 (or less) is the alternative.
    state = _deal((["KH"], ["4D"]), ["AS", "2D", "3C", "QH", "JS"])
    actions, after = _turn(state)
    assert all(len(pile) != 3 for pile in after.centre)
    assert not any(a.startswith("centre:hand:3C") for a in actions)


def test_normal_covers_the_opponents_rank_instead():
    state = _deal((["KH"], ["4D"]), ["AS", "2D", "3C", "4H", "JS"])
    actions, after = _turn(state)
    assert [len(p) for p in after.centre] == [4]
    assert actions[-1].startswith("table:JS:")


def test_normal_puts_aces_in_the_centre_never_on_the_table():
    state = _deal((["9H"], ["7D"]), ["AS", "KC", "QD", "JH", "8S"])
    actions, after = _turn(state)
    assert "centre:hand:AS:new" in actions
    assert not any(a.startswith("table:A") for a in actions)
    assert after.centre == [["AS"]]


def test_normal_holds_an_ace_that_would_feed_the_opponents():
    state = _deal((["9H"], ["2D"]), ["AS", "KC", "QD", "JH", "8S"])
    actions, after = _turn(state)
    assert after.centre == []
    assert len(actions) == 1 and actions[0].startswith("table:") and "AS" not in actions[0]


def test_normal_keeps_table_piles_descending():
    state = _deal((["9H"], ["7D"]), ["KC", "QD", "JH", "8S", "6S"])
    state = _with_table(state, {0: ["KS"], 1: ["TC"], 2: ["5D"], 3: ["7C"]})
    actions, _ = _turn(state)
    # The 6 goes on the 7 or the Queen on the King: no buried pile.
    assert actions[-1] in ("table:6S:3", "table:QD:0")


# --- hard's look-ahead ------------------------------------------------------------------------


def test_hard_with_fixed_samples_is_deterministic():
    for state in _positions(2, 21, 8):
        seat = state.to_act
        v = view(state, seat)
        first = bots.choose_hard(v, random.Random(4), 0.3, samples=8)
        assert all(bots.choose_hard(v, random.Random(4), 0.3, samples=8) == first for _ in range(3))


def test_hard_obeys_the_budget():
    budget = 0.3
    slowest = 0.0
    for state in _positions(2, 23, 10) + _positions(4, 24, 6):
        seat = state.to_act
        v = view(state, seat)
        # CPU time: a busy test machine must not fail the bot for time it did not get.
        started = time.process_time()
        assert bots.choose_hard(v, random.Random(0), budget) in v["legal"]
        slowest = max(slowest, time.process_time() - started)
    assert slowest < budget


def test_hard_counts_the_opponents_table_piles_in_the_danger():
    # Their stock top is a 9 and they show a 6 and a 7: a pile at 5 is one rank from it.
    state = _deal((["KH"], ["9D"]), ["AS", "2D", "3C", "4H", "5S"])
    state = _with_table(state, {0: ["6C"], 1: ["7C"]}, seat=1)
    normal, hard = bots._Ctx(view(state, 0)), bots._HardCtx(view(state, 0))
    assert normal.danger_gap((5,)) == 3
    assert hard.danger_gap((5,)) == 1
    assert hard.danger_gap((4,)) == 4  # the 6 cannot go on a 4


def test_hard_guesses_that_the_opponent_kept_no_card_that_fitted():
    # Seat 0 has just ended his turn with 5 cards while the centre showed an Ace pile and a 4:
    # he would have played a 2 or a 5 (and any Ace), so the sampled hands hold none of them.
    state = _deal((["KH"], ["9D"]), ["5S", "6D", "7C", "8H", "QS"])
    data = json.loads(grabush.dumps(state))
    for pile in (["AC"], ["AH", "2H", "3H", "4C"]):
        for card in pile:
            data["supply"].remove(card)
        data["centre"].append(pile)
    data["to_act"] = 1
    ctx = bots._HardCtx(view(grabush.loads(json.dumps(data)), 1))
    assert ctx.centre == (1, 4) and ctx.stock == 9
    hands = ctx.opponent_hands(random.Random(0), 50)
    assert len(hands) == 50 and all(len(hand) == 5 for hand in hands)
    assert not any({1, 2, 5} & set(hand) for hand in hands)
    assert any(6 in hand for hand in hands)


# --- harness ---------------------------------------------------------------------------------


def test_play_game_normal_against_easy_ends():
    result = bots.play_game(["normal", "easy"], seed=11, budget=0.05)
    assert result["result"] in ("win", "draw")
    assert result["turns"] > 1
    assert set(result["times"]) == {"normal", "easy"}
    if result["result"] == "win":
        assert result["stocks"][result["winner"]] == 0


def test_play_game_four_players_with_hard():
    result = bots.play_game(["hard", "normal", "hard", "normal"], seed=5, budget=0.01, players=4)
    assert result["result"] in ("win", "draw")
    assert len(result["times"]["hard"]) > 0


def test_play_game_reports_the_cap():
    result = bots.play_game(["easy", "easy"], seed=2, budget=0.0, max_actions=5)
    assert result["result"] == "capped" and result["actions"] == 5
