"""High card's pure rules: each player gets ``rounds`` cards; in turn, each plays one; the higher
card of a round scores a point for its player (the first card wins a tie); the most points win.

The same surface as the site's engines (``shared/rules/engine-api.md``).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any

from games.engines.cards import IllegalAction

RANKS = "789TJQKA"
DECK = [rank + suit for suit in "CDHS" for rank in RANKS]


@dataclass(frozen=True)
class State:
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    #: The card on the table in this round, if the first player has played.
    led: str | None
    leader: int
    scores: tuple[int, int]
    to_act: int | None


def new_game(seed: int, rounds: int = 3) -> State:
    cards = random.Random(seed).sample(DECK, 2 * rounds)
    hands = (tuple(sorted(cards[:rounds])), tuple(sorted(cards[rounds:])))
    return State(hands=hands, led=None, leader=0, scores=(0, 0), to_act=0)


def legal_actions(state: State, seat: int) -> list[str]:
    return list(state.hands[seat]) if seat == state.to_act else []


def apply(state: State, seat: int, action: str) -> State:
    if seat != state.to_act:
        raise IllegalAction("It is not your turn.")
    if action not in state.hands[seat]:
        raise IllegalAction("You do not hold %(card)s.", card=action)
    hands = list(state.hands)
    hands[seat] = tuple(card for card in state.hands[seat] if card != action)
    if state.led is None:
        return replace(state, hands=tuple(hands), led=action, to_act=1 - seat)
    led_wins = RANKS.index(state.led[0]) >= RANKS.index(action[0])
    winner = state.leader if led_wins else seat
    scores = list(state.scores)
    scores[winner] += 1
    over = not any(hands)
    return State(
        hands=tuple(hands),
        led=None,
        leader=winner,
        scores=tuple(scores),
        to_act=None if over else winner,
    )


def winner(state: State) -> int | None:
    if state.to_act is not None or state.scores[0] == state.scores[1]:
        return None
    return 0 if state.scores[0] > state.scores[1] else 1


def view(state: State, seat: int | None) -> dict[str, Any]:
    return {
        "to_act": state.to_act,
        "hand": list(state.hands[seat]) if seat is not None else [],
        "hand_sizes": [len(hand) for hand in state.hands],
        "led": state.led,
        "scores": list(state.scores),
        "over": state.to_act is None,
        "winner": winner(state),
        "result": "draw" if state.to_act is None and winner(state) is None else "",
    }


def dumps(state: State) -> str:
    return json.dumps(
        {
            "hands": state.hands,
            "led": state.led,
            "leader": state.leader,
            "scores": state.scores,
            "to_act": state.to_act,
        }
    )


def loads(text: str) -> State:
    data = json.loads(text)
    return State(
        hands=tuple(tuple(hand) for hand in data["hands"]),
        led=data["led"],
        leader=data["leader"],
        scores=tuple(data["scores"]),
        to_act=data["to_act"],
    )
