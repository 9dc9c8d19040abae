"""Grabush computer players: ``easy``, ``normal`` and ``hard`` (rules §6 strategy).

Each bot is ``choose(view, rng, budget) -> action`` over ``grabush.view(state, seat)`` only; it
returns one action and is called again while it is still its turn. Suits never matter in the
centre, so the planners work on ranks (A=1 .. K=13) and map a rank back to a card code only for
the action they return.

- easy: a random legal action, with each centre play and each hand card (as a table card)
  equally likely, so a turn ends soon.
- normal: a breadth-first search over the centre plays of this turn (hand, own and partners'
  table tops) up to a node limit; every reachable position is scored (stock top playable first,
  then cards shed, a fresh book, and piles left near the opponents' stock top as a penalty) and
  the first step towards the best one is played. With nothing better, the table card is chosen
  to keep piles descending or of one rank without burying useful cards.
- hard: normal plus a look-ahead at the next opponent's turn. The danger of a position counts
  the centre plays the opponents' visible table piles allow (a 7 they show bridges a pile at 6
  to their 8). The best ``HARD_CANDIDATES`` positions are then re-scored by the share of
  ``HARD_SAMPLES`` sampled hands of the next opponent with which he frees his stock top at
  once. With 2 players he has just ended his turn, so his hand is sampled without the ranks
  that fitted the centre (he would have shed them). A fixed number of samples keeps hard
  deterministic for a given ``rng`` and unhurt by a loaded machine; the clock only guards
  ``budget``.
"""

from __future__ import annotations

import random
import time
from collections import Counter, deque
from typing import TypedDict

from games.engines import grabush
from games.engines.grabush import EndReason, GrabushView

from . import Bot

__all__ = ["LEVELS", "choose_easy", "choose_hard", "choose_normal", "play_game"]

RANK: dict[str, int] = grabush.RANK
SLOTS = grabush.SLOTS
BOOK = grabush.BOOK

# Scores of normal's static evaluation (one hand card shed = 1).
W_STOCK = 100.0  # our stock top becomes playable
W_SHED = 1.0
W_TABLE = 0.25  # a table card played to the centre (uncovers the next one)
W_BOOK = 3.5  # the hand emptied while the supply has cards: a fresh book at once
DANGER = (6.0, 1.5, 0.5)  # a pile needing the opponents' stock top (0, 1, 2 ranks below)
OURS = (0.0, 0.8, 0.3)  # a pile that needs 1 or 2 more cards before our stock top fits

NORMAL_NODES = 1500
HARD_SAMPLES = 16  # sampled hands of the next opponent per decision
HARD_CANDIDATES = 60  # best positions by the static score that the threat re-scores
HARD_THREAT = 16.0  # the next opponent surely frees his stock top, in shed units
THREAT_NODES = 150  # search limit of one sampled opponent turn
GAP_NODES = 100  # search limit of the opponents' table piles alone

# A planning position: (hand ranks sorted, table pile heights, centre tops sorted).
Key = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
# A first move: ("hand", rank, top) or ("table", pile index, top); top 0 = a new pile.
Move = tuple[str, int, int]


# --- shared helpers -----------------------------------------------------------------------


def _push(centre: tuple[int, ...], rank: int) -> tuple[int, ...]:
    """The sorted centre tops after ``rank`` goes onto a pile (a King completes it)."""
    tops = list(centre)
    if rank == 1:
        tops.insert(0, 1)
        return tuple(tops)
    tops.remove(rank - 1)
    if rank < 13:
        tops.append(rank)
        tops.sort()
    return tuple(tops)


def _fits(rank: int, centre: tuple[int, ...]) -> bool:
    return rank == 1 or (rank - 1) in centre


def _explore(
    hand: tuple[int, ...],
    piles: list[tuple[int, ...]],
    heights: tuple[int, ...],
    centre: tuple[int, ...],
    stock: int | None,
    book_waits: bool,
    limit: int,
    early: bool = False,
) -> dict[Key, Move | None]:
    """Positions reachable by centre plays from hand and table tops, breadth first.

    Maps each position to the first move of a shortest way there (None: the start). A position
    where the stock top fits, or (``book_waits``) whose hand is empty, is not expanded: the
    next card there is unknown. ``early`` stops at the first position where the stock fits.
    """
    start: Key = (hand, heights, centre)
    seen: dict[Key, Move | None] = {start: None}
    queue = deque([start])
    while queue:
        key = queue.popleft()
        h, hs, c = key
        if stock is not None and _fits(stock, c):
            if early:
                return {key: seen[key]}
            if key != start:
                continue
        if book_waits and not h and key != start:
            continue
        first = seen[key]
        prev = 0
        for i, r in enumerate(h):
            if r == prev:
                continue
            prev = r
            if r == 1 or (r - 1) in c:
                nxt = (h[:i] + h[i + 1 :], hs, _push(c, r))
                if nxt not in seen:
                    seen[nxt] = first or ("hand", r, r - 1)
                    queue.append(nxt)
        for j, height in enumerate(hs):
            if height:
                r = piles[j][height - 1]
                if r == 1 or (r - 1) in c:
                    nxt = (h, (*hs[:j], height - 1, *hs[j + 1 :]), _push(c, r))
                    if nxt not in seen:
                        seen[nxt] = first or ("table", j, r - 1)
                        queue.append(nxt)
        if len(seen) >= limit:
            break
    if early:
        return {}
    return seen


class _Ctx:
    """The planning context of one decision, built from the view."""

    def __init__(self, view: GrabushView) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.n: int = view["players"]
        self.side = self.seat % 2
        self.hand_codes: list[str] = list(view["hand"])
        self.hand = tuple(sorted(RANK[c[0]] for c in self.hand_codes))
        top = view["stocks"][self.side]["top"]
        self.stock = RANK[top[0]] if top else None
        opp = view["stocks"][1 - self.side]["top"]
        self.opp = RANK[opp[0]] if opp else None
        self.supply: int = view["supply"]
        self.centre_piles: list[list[str]] = view["centre"]
        self.centre = tuple(sorted(len(p) for p in self.centre_piles))
        # Our side's table piles: (owner, slot), their ranks bottom to top.
        self.pile_keys: list[tuple[int, int]] = []
        self.piles: list[tuple[int, ...]] = []
        self.pile_codes: list[list[str]] = []
        for owner in range(self.side, self.n, 2):
            for slot, cards in enumerate(view["tables"][owner]):
                self.pile_keys.append((owner, slot))
                self.piles.append(tuple(RANK[c[0]] for c in cards))
                self.pile_codes.append(list(cards))
        self.heights = tuple(len(p) for p in self.piles)

    def explore(self, limit: int) -> dict[Key, Move | None]:
        return _explore(
            self.hand,
            self.piles,
            self.heights,
            self.centre,
            self.stock,
            self.supply > 0,
            limit,
        )

    def static(self, key: Key) -> float:
        """Normal's score of the position ``key`` reached by centre plays this turn."""
        hand, heights, centre = key
        shed = len(self.hand) - len(hand)
        score = W_SHED * shed + W_TABLE * (sum(self.heights) - sum(heights))
        if not hand and self.hand and self.supply > 0:
            score += W_BOOK
        if self.stock is not None and _fits(self.stock, centre):
            return score + W_STOCK
        gap = self.danger_gap(centre)
        if gap < len(DANGER):
            score -= DANGER[gap]
        if self.stock is not None and self.stock > 1:
            gap = min((self.stock - 1 - t for t in centre if t < self.stock), default=99)
            if gap < len(OURS):
                score += OURS[gap]
        return score

    def danger_gap(self, centre: tuple[int, ...]) -> int:
        """Ranks the opponents still need on a centre pile before their stock top fits."""
        if self.opp is None or self.opp <= 1:
            return 99
        return min((self.opp - 1 - t for t in centre if t < self.opp), default=99)

    def action(self, move: Move) -> str:
        """The action string of a planned first move, for the current view."""
        kind, what, top = move
        if top == 0:
            pile = "new"
        else:
            pile = str(next(i for i, p in enumerate(self.centre_piles) if len(p) == top))
        if kind == "hand":
            code = next(c for c in self.hand_codes if RANK[c[0]] == what)
            return f"centre:hand:{code}:{pile}"
        owner, slot = self.pile_keys[what]
        return f"centre:table:{owner}:{slot}:{pile}"

    def stock_action(self) -> str | None:
        """Play the stock top if it fits anywhere now."""
        if self.stock is None or not _fits(self.stock, self.centre):
            return None
        if self.stock == 1:
            return "centre:stock:new"
        index = next(i for i, p in enumerate(self.centre_piles) if len(p) == self.stock - 1)
        return f"centre:stock:{index}"

    def usefulness(self, rank: int, centre: tuple[int, ...]) -> float:
        """How much we want ``rank`` reachable soon (playable now, or a builder to our stock)."""
        value = 0.0
        if _fits(rank, centre):
            value += 2.0
        if self.stock is not None and self.stock - 3 <= rank < self.stock:
            value += 1.5
        return value

    def table_card(self, hand: tuple[int, ...], key: Key) -> tuple[int, int] | None:
        """Normal's table card (rank, slot) for the position ``key``; None if none is legal."""
        _, heights, centre = key
        own = [j for j, (owner, _) in enumerate(self.pile_keys) if owner == self.seat]
        best: tuple[float, int, int] | None = None
        for rank in sorted(set(hand), reverse=True):
            if rank == 1:
                continue
            for j in own:
                height = heights[j]
                if height == 0:
                    score = 1.0 + rank / 20
                else:
                    top = self.piles[j][height - 1]
                    if top == rank + 1:
                        score = 2.0
                    elif top == rank:
                        score = 1.6
                    elif top > rank:
                        score = 0.8 - 0.05 * (top - rank) - 0.6 * self.usefulness(top, centre)
                    else:
                        score = 0.2 - 0.05 * (rank - top) - self.usefulness(top, centre)
                if best is None or score > best[0]:
                    best = (score, rank, self.pile_keys[j][1])
        return None if best is None else (best[1], best[2])

    def table_action(self, rank: int, slot: int) -> str:
        code = next(c for c in self.hand_codes if RANK[c[0]] == rank)
        return f"table:{code}:{slot}"


def _rights_action(view: GrabushView) -> str | None:
    """Decline a held penalty right: a computer never claims a table-talk penalty (people
    chat to computers as they would at a friendly table)."""
    return next((a for a in view["legal"] if a.startswith("decline:")), None)


# --- easy ----------------------------------------------------------------------------------


def choose_easy(view: GrabushView, rng: random.Random, budget: float = 0.3) -> str:
    """Random legal play: each centre play and each hand card (to a random slot) alike."""
    legal: list[str] = view["legal"]
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    declined = _rights_action(view)
    if declined is not None:
        return declined
    options: list[str | list[str]] = []
    by_card: dict[str, list[str]] = {}
    for action in legal:
        if action.startswith("table:"):
            by_card.setdefault(action.split(":")[1], []).append(action)
        elif action.startswith(("centre:", "end")):
            options.append(action)
    options.extend(by_card.values())
    pick = rng.choice(options)
    return rng.choice(pick) if isinstance(pick, list) else pick


# --- normal --------------------------------------------------------------------------------


def _plan(ctx: _Ctx, limit: int) -> tuple[list[tuple[float, Key]], dict[Key, Move | None]]:
    """Every reachable position with its static score, best first (shorter paths on ties)."""
    seen = ctx.explore(limit)
    scored = [(ctx.static(key), key) for key in seen]
    order = {key: i for i, key in enumerate(seen)}
    scored.sort(key=lambda item: (-item[0], order[item[1]]))
    return scored, seen


def _finish_turn(ctx: _Ctx, scored: list[tuple[float, Key]], seen: dict[Key, Move | None]) -> str:
    """Table card, ``end``, or (a hand of Aces only) the best centre play there is."""
    start = next(key for key in seen if seen[key] is None)
    if not ctx.hand_codes:
        return "end"
    choice = ctx.table_card(ctx.hand, start)
    if choice is not None:
        rights = _rights_action(ctx.view) if len(ctx.hand_codes) > 1 else None
        return rights or ctx.table_action(*choice)
    for _, key in scored:
        move = seen[key]
        if move is not None:
            return ctx.action(move)
    return _rights_action(ctx.view) or ctx.view["legal"][0]


def _normal_decision(
    view: GrabushView,
) -> tuple[_Ctx, str | None, list[tuple[float, Key]], dict[Key, Move | None]]:
    """Shared by normal and hard: an immediate answer, or the scored positions to pick from."""
    ctx = _Ctx(view)
    legal = view["legal"]
    if view["to_act"] != view["seat"]:
        return ctx, _rights_action(view) or legal[0], [], {}
    stock = ctx.stock_action()
    if stock is not None:
        return ctx, stock, [], {}
    scored, seen = _plan(ctx, NORMAL_NODES)
    return ctx, None, scored, seen


def choose_normal(view: GrabushView, rng: random.Random, budget: float = 0.3) -> str:
    """Rules §6: stock first, a sequence that frees it, block, shed, tidy table piles."""
    legal: list[str] = view["legal"]
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    ctx, action, scored, seen = _normal_decision(view)
    if action is None:
        best = scored[0][1]
        move = seen[best]
        action = ctx.action(move) if move is not None else _finish_turn(ctx, scored, seen)
    return action if action in legal else legal[0]


# --- hard ----------------------------------------------------------------------------------


def _unseen(view: GrabushView) -> list[int]:
    """Ranks of the cards this seat cannot see (other hands, face-down stocks, the supply)."""
    pool = Counter(grabush.full_deck(view["players"]))
    pool.subtract(view["hand"])
    for seat_piles in view["tables"]:
        for pile in seat_piles:
            pool.subtract(pile)
    for pile in view["centre"]:
        pool.subtract(pile)
    for stock in view["stocks"]:
        if stock["top"]:
            pool[stock["top"]] -= 1
    return sorted(RANK[card[0]] for card, count in pool.items() for _ in range(max(count, 0)))


class _HardCtx(_Ctx):
    """Normal's context seen from the opponents' side too: their table piles and hands."""

    def __init__(self, view: GrabushView) -> None:
        super().__init__(view)
        self.opp_seat = (self.seat + 1) % self.n
        self.opp_piles: list[tuple[int, ...]] = [
            tuple(RANK[c[0]] for c in cards)
            for owner in range(1 - self.side, self.n, 2)
            for cards in view["tables"][owner]
        ]
        self.opp_heights = tuple(len(p) for p in self.opp_piles)
        self._gaps: dict[tuple[int, ...], int] = {}

    def danger_gap(self, centre: tuple[int, ...]) -> int:
        """Normal's gap, after every centre play the opponents' table piles allow.

        A pile at 7 against a stock top of 10 is two ranks away for normal, but none when the
        opponents show an 8 and a 9 on their table piles.
        """
        if self.opp is None or self.opp <= 1:
            return 99
        if centre not in self._gaps:
            seen = _explore(
                (), self.opp_piles, self.opp_heights, centre, self.opp, False, GAP_NODES
            )
            self._gaps[centre] = min(super(_HardCtx, self).danger_gap(c) for _, _, c in seen)
        return self._gaps[centre]

    def opponent_hands(self, rng: random.Random, count: int) -> list[tuple[int, ...]]:
        """``count`` guesses at the next opponent's hand (ranks) when his turn starts.

        Drawn from the unseen cards. With 2 players he has just ended his turn, so he holds
        no card that fitted the centre then (he would have shed it) unless it built towards our
        stock top. The centre is read as it is now: exact at the start of our turn, later it
        also holds our own plays (in trials no weaker than the exact start-of-turn centre).
        An empty hand draws a book.
        """
        view = self.view
        pool = _unseen(view)
        size = view["hand_sizes"][self.opp_seat]
        if size == 0:
            size = min(BOOK, view["supply"])
        elif self.n == 2:
            fitted = {1} | {t + 1 for t in self.centre}
            if self.stock is not None:
                fitted -= {self.stock - 1, self.stock - 2}
                if self.stock <= 3:
                    fitted.discard(1)
            likely = [r for r in pool if r not in fitted]
            if len(likely) >= size:
                pool = likely
        if size == 0 or len(pool) < size:
            return [()]
        return [tuple(sorted(rng.sample(pool, size))) for _ in range(count)]

    def threat(self, centre: tuple[int, ...], hands: list[tuple[int, ...]]) -> float:
        """The share of ``hands`` with which the next opponent frees his stock top from
        ``centre`` (with his and his partners' table piles)."""
        assert self.opp is not None
        hits = sum(
            1
            for hand in hands
            if _explore(
                hand, self.opp_piles, self.opp_heights, centre, self.opp, False, THREAT_NODES, True
            )
        )
        return hits / len(hands)


def _rescore(
    ctx: _HardCtx,
    scored: list[tuple[float, Key]],
    order: dict[Key, int],
    hands: list[tuple[int, ...]],
    deadline: float | None,
) -> list[tuple[float, Key]] | None:
    """The best candidates re-scored by the sampled threat, best first; None past ``deadline``."""
    threats: dict[tuple[int, ...], float] = {}
    rescored = []
    for score, key in scored[:HARD_CANDIDATES]:
        centre = key[2]
        if centre not in threats:
            if deadline is not None and time.perf_counter() > deadline:
                return None
            threats[centre] = ctx.threat(centre, hands)
        rescored.append((score - HARD_THREAT * threats[centre], key))
    rescored.sort(key=lambda item: (-item[0], order[item[1]]))
    return rescored + scored[HARD_CANDIDATES:]


def choose_hard(
    view: GrabushView,
    rng: random.Random,
    budget: float = 0.3,
    samples: int | None = None,
) -> str:
    """Normal, with the opponents' threats looked ahead: their table piles and sampled hands.

    ``samples`` hands of the next opponent are sampled (``HARD_SAMPLES`` by default); a given
    ``samples`` is deterministic for the same ``rng``. Without it the clock is a safety net:
    past 80% of ``budget`` the threat is dropped and the static choice played.
    """
    started = time.perf_counter()
    legal: list[str] = view["legal"]
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    ctx = _HardCtx(view)
    if view["to_act"] != view["seat"]:
        return _rights_action(view) or legal[0]
    stock = ctx.stock_action()
    if stock is not None:
        return stock
    scored, seen = _plan(ctx, NORMAL_NODES)
    if scored[0][0] < W_STOCK and ctx.opp is not None and ctx.opp > 1:
        hands = ctx.opponent_hands(rng, samples if samples is not None else HARD_SAMPLES)
        deadline = None if samples is not None else started + 0.8 * budget
        order = {key: i for i, key in enumerate(seen)}
        scored = _rescore(ctx, scored, order, hands, deadline) or scored
    move = seen[scored[0][1]]
    action = ctx.action(move) if move is not None else _finish_turn(ctx, scored, seen)
    return action if action in legal else legal[0]


LEVELS: dict[str, Bot[GrabushView]] = {
    "easy": choose_easy,
    "normal": choose_normal,
    "hard": choose_hard,
}


# --- a whole game ----------------------------------------------------------------------------

#: Actions after which :func:`play_game` gives up; reported as ``"capped"``, never hidden.
MAX_ACTIONS = 20_000


class GameRecord(TypedDict):
    """One game :func:`play_game` played: how it ended and each level's decision times."""

    result: str  # "win", "draw" or "capped"
    winner: int | None  # the winning side
    end_reason: EndReason | None
    stocks: list[int]  # cards left, side 0 and 1
    turns: int
    actions: int
    times: dict[str, list[float]]  # level -> decision seconds


def play_game(
    levels: list[str],
    seed: int,
    budget: float = 0.3,
    players: int = 2,
    max_actions: int = MAX_ACTIONS,
    **options: bool | int,
) -> GameRecord:
    """Play one game, seat ``i`` at ``levels[i]``; return the result and decision times.

    Result keys: ``result`` ("win", "draw" or "capped"), ``winner`` (side or None),
    ``end_reason``, ``stocks`` (cards left, side 0 and 1), ``turns``, ``actions`` and
    ``times`` (level -> list of decision seconds).
    """
    if len(levels) != players:
        raise ValueError(f"need {players} levels, got {len(levels)}")
    bots = [LEVELS[level] for level in levels]
    rngs = [random.Random(f"grabush-bot:{seed}:{seat}") for seat in range(players)]
    state = grabush.new_game(seed, players=players, **options)
    times: dict[str, list[float]] = {level: [] for level in levels}
    actions = 0
    while not state.over and actions < max_actions:
        seat = state.to_act
        assert seat is not None
        v = grabush.view(state, seat)
        t0 = time.perf_counter()
        action = bots[seat](v, rngs[seat], budget)
        times[levels[seat]].append(time.perf_counter() - t0)
        state = grabush.apply(state, seat, action)
        actions += 1
    result = ("draw" if state.winner is None else "win") if state.over else "capped"
    return {
        "result": result,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "stocks": [len(state.stocks[0]), len(state.stocks[1])],
        "turns": state.turn,
        "actions": actions,
        "times": times,
    }
