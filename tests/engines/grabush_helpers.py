"""Position builders and checks shared by the Grabush tests."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence

from games.engines import grabush
from games.engines.grabush import State, full_deck


def _take(pool: Counter[str], cards: Iterable[str]) -> list[str]:
    taken = []
    for card in cards:
        assert pool[card] > 0, f"no {card} left for the position"
        pool[card] -= 1
        taken.append(card)
    return taken


def _filler(pool: Counter[str], count: int) -> list[str]:
    # Kings first: they can never be played on an Ace-started pile by accident early on.
    order = sorted(pool.elements(), key=lambda c: (-grabush.RANK[c[0]], c))
    out = order[:count]
    for card in out:
        pool[card] -= 1
    return out


def make_shoe(
    players: int,
    dealer: int,
    stocks: Sequence[Sequence[str]] = ((), ()),
    hands: dict[int, Sequence[str]] | None = None,
    supply: Sequence[str] = (),
    supply_bottom: Sequence[str] = (),
    stock_size: int = 20,
) -> list[str]:
    """A full shoe (top first): given stock tops (top first), hands, supply head and bottom."""
    pool = Counter(full_deck(players))
    hands = hands or {}
    fixed_stocks = [_take(pool, stock) for stock in stocks]
    fixed_hands = {seat: _take(pool, cards) for seat, cards in hands.items()}
    head = _take(pool, supply)
    bottom = _take(pool, supply_bottom)
    shoe: list[str] = []
    for stock in fixed_stocks:
        shoe += stock + _filler(pool, stock_size - len(stock))
    for i in range(players):
        seat = (dealer + 1 + i) % players
        cards = fixed_hands.get(seat, [])
        shoe += cards + _filler(pool, grabush.HAND - len(cards))
    rest = sum(pool.values())
    shoe += head + _filler(pool, rest) + bottom
    return shoe


def craft(
    players: int,
    to_act: int,
    *,
    stocks: Sequence[Sequence[str]],
    hands: Sequence[Sequence[str]],
    tables: dict[tuple[int, int], Sequence[str]] | None = None,
    centre: Sequence[Sequence[str]] = (),
    supply: Sequence[str] = (),
    rights: Sequence[int] | None = None,
    talk: bool = True,
    leftovers_to: str = "stocks",
) -> State:
    """A position after some play; stocks given top first. Leftover cards go face down into
    the stocks' bottoms (``leftovers_to="stocks"``) or under the supply, so no card is lost."""
    state = grabush.new_game(
        1, players=players, dealer=(to_act - 1) % players, table_talk_penalty=talk
    )
    data = json.loads(grabush.dumps(state))
    pool = Counter(full_deck(players))
    flat_tables = [[] for _ in range(players * grabush.SLOTS)]
    for (seat, slot), cards in (tables or {}).items():
        flat_tables[seat * grabush.SLOTS + slot] = _take(pool, cards)
    data["hands"] = [_take(pool, hand) for hand in hands]
    data["centre"] = [_take(pool, pile) for pile in centre]
    data["supply"] = _take(pool, supply)
    tops = [_take(pool, stock) for stock in stocks]
    leftovers = _filler(pool, sum(pool.values()))
    bottoms: list[list[str]] = [[], []]
    if leftovers_to == "stocks":
        half = len(leftovers) // 2
        bottoms = [leftovers[:half], leftovers[half:]]
    else:
        data["supply"] += leftovers
    data["stocks"] = [bottoms[i] + tops[i][::-1] for i in range(2)]
    data["tables"] = flat_tables
    data["to_act"] = to_act
    data["rights"] = list(rights) if rights is not None else [0] * players
    return grabush.loads(json.dumps(data))


def all_cards(state: State) -> Counter[str]:
    """Every card of the state, wherever it lies."""
    total: Counter[str] = Counter()
    for group in (state.stocks, state.hands, state.tables, state.centre):
        for cards in group:
            total.update(cards)
    total.update(state.supply)
    return total


def stock_top_first(state: State, side: int) -> list[str]:
    return state.stocks[side][::-1]


def table(state: State, seat: int, slot: int) -> list[str]:
    return list(state.tables[seat * grabush.SLOTS + slot])
