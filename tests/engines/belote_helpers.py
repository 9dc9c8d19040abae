"""Helpers shared by the belote tests: stacked decks and small drivers."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from games.engines import belote


def stack(dealer: int, hands: Sequence[Sequence[str]]) -> list[str]:
    """A deck (top first) that deals ``hands[seat]`` to each seat: cards 0-2, 3-4, 5-7."""
    deck = [""] * 32
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        h = list(hands[seat])
        assert len(h) == 8
        deck[3 * i : 3 * i + 3] = h[0:3]
        deck[12 + 2 * i : 14 + 2 * i] = h[3:5]
        deck[20 + 3 * i : 23 + 3 * i] = h[5:8]
    assert sorted(deck) == sorted(belote.CARDS)
    return deck


def calls(state: belote.State, *actions: str) -> belote.State:
    """Apply ``actions`` in turn order."""
    for action in actions:
        state = belote.apply(state, state.to_act, action)
    return state


def play_deal(state: belote.State, pick=None) -> belote.State:
    """Play to the end of the current deal, each seat playing ``pick(legal)`` (first by default)."""
    n = len(belote.deal_results(state))
    while len(belote.deal_results(state)) == n:
        seat = state.to_act
        legal = belote.legal_actions(state, seat)
        state = belote.apply(state, seat, pick(legal) if pick else legal[0])
    return state


def biased_choice(rng: random.Random, legal: list[str]) -> str:
    """A random legal action that passes often in the auction (varied contracts, some redeals)."""
    if "pass" in legal and rng.random() < 0.6:
        return "pass"
    return rng.choice(legal)


def edited(state: belote.State, **fields: object) -> belote.State:
    """``state`` with some fields of its ``dumps`` record replaced, rebuilt by ``loads``."""
    data = json.loads(belote.dumps(state))
    unknown = set(fields) - set(data)
    assert not unknown, unknown
    data.update(fields)
    return belote.loads(json.dumps(data))
