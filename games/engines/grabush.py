"""Grabush (Грабуш): the rules engine.

Rules: ``shared/rules/grabush.md``; surface: ``shared/rules/engine-api.md`` (the
:class:`~games.engines.contract.Engine` protocol) plus :func:`grant_penalty` and :func:`cut`. A
state is never changed once made: :func:`apply` returns a new one. The deal, the random dealer
and each completed pile's shuffle are drawn from ``seed`` (:mod:`games.engines.chance`), so
``seed`` and the count of completed piles are the whole random state.

What the rules leave to the engine:

- A book is drawn only into an empty hand: at once when the last hand card goes to the centre
  (after a pile that card completes has gone to the supply), otherwise when the turn passes to
  the player. ``end`` is legal whenever the player on turn has an empty hand.
- A blocked game is checked whenever the turn passes while the supply is empty: a draw when no
  seat has a centre play (``"stuck"``) or the last ``players`` turns in a row were quiet, with no
  card to the centre and the supply empty at their end (``"quiet"``).
- A penalty right of a holder with an empty hand waits (only ``decline`` is legal) until a book
  gives him cards; rights lapse when the game ends.
- There is no move cap: random play ends with probability 1, but players who keep cycling cards
  through the supply on purpose could play for ever, as at a real table.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Literal, Required, TypedDict

from . import chance
from .cards import SUITS, DrawnDeal, IllegalAction, gettext_noop

__all__ = [
    "GRANT_PENALTY",
    "RANKS",
    "EndReason",
    "Event",
    "EventKind",
    "GrabushView",
    "IllegalAction",
    "State",
    "Stock",
    "apply",
    "apply_entry",
    "cut",
    "drawn_deals",
    "drawn_shoe",
    "dumps",
    "first_dealer",
    "full_deck",
    "grant_penalty",
    "legal_actions",
    "loads",
    "new_game",
    "result",
    "view",
]

EndReason = Literal["stock", "stuck", "quiet"]
EventKind = Literal[
    "play",
    "table",
    "end",
    "turn",
    "book",
    "completed",
    "stock_turned",
    "rights",
    "penalty",
    "decline",
    "win",
    "draw",
]


class Event(TypedDict, total=False):
    """A public fact of the last action. Its keys besides ``kind``, by kind:

    ``play``: seat, source, card, pile (its index after the play), new (True when the card
    started a new pile), and for a table card from_seat and slot; ``table``: seat, card, slot;
    ``end``, ``turn``: seat; ``book``: seat, count; ``completed``: pile (the index it had; its
    cards went under the supply);
    ``stock_turned``: side, top (the new face-up card); ``rights``: side (the side penalised);
    ``penalty``, ``decline``: seat, side (never the card); ``win``: side; ``draw``: reason,
    stocks (the sizes left, side 0 and 1).
    """

    kind: Required[EventKind]
    seat: int
    source: Literal["hand", "stock", "table"]
    card: str
    pile: int
    new: bool
    from_seat: int
    slot: int
    side: int
    top: str
    count: int
    reason: EndReason
    stocks: list[int]


class MatchResult(TypedDict):
    """A finished game's result, as stored with it."""

    winner: int | None
    stocks: list[int]


class CutCard(TypedDict):
    """A card one player cut for seats."""

    player: int
    card: str


class CutResult(TypedDict):
    """The cut for seats, sides and dealer (:func:`cut`)."""

    rounds: list[list[CutCard]]
    order: list[int]
    sides: list[list[int]]
    seats: list[int]
    dealer: int
    dealer_player: int


class Stock(TypedDict):
    """A side's stock as everyone sees it."""

    top: str | None  # the face-up top; None when empty
    size: int


class GrabushView(TypedDict):
    """What one seat (None: a spectator) may see (rules §5)."""

    seat: int | None
    side: int | None
    players: int
    dealer: int
    stock_size: int
    table_talk_penalty: bool
    to_act: int | None  # None once over
    over: bool
    winner: int | None  # the winning side; None while running or after a draw
    result: Literal["win", "draw"] | None  # None while running
    end_reason: EndReason | None
    hand: list[str]  # own cards in the order held; [] for a spectator
    hand_sizes: list[int]  # per seat
    stocks: list[Stock]  # per side
    centre: list[list[str]]  # per pile, oldest first: its cards bottom to top
    tables: list[list[list[str]]]  # per seat its four slots, each bottom to top ([] unused)
    supply: int  # cards left in the supply
    books_left: int  # ceil(supply / 5)
    completed: int  # centre piles completed and returned to the supply so far
    turn: int  # turns started so far (1 during the first)
    turn_centre_plays: int  # centre plays made in the current turn
    quiet_turns: int  # quiet turns in a row so far
    penalty_rights: list[int]  # per seat, the rights it holds against the other side
    legal: list[str]  # own legal actions now; [] for a spectator
    last_events: list[Event]  # what the last action did, oldest first
    last_turns: list[list[Event]]  # per seat, its latest turn so far: plays, books, piles done


RANKS = "A23456789TJQK"
RANK = {r: i + 1 for i, r in enumerate(RANKS)}  # centre value: A=1 .. K=13
#: The cut uses whist order, 2 low .. A high.
WHIST = {r: i for i, r in enumerate("23456789TJQKA")}
SLOTS = 4
BOOK = 5
HAND = 5
PLAYER_COUNTS = (2, 4, 6, 8)

_LABEL = {"T": "10"}


def _label(rank: int) -> str:
    code = RANKS[rank - 1]
    return _LABEL.get(code, code)


def full_deck(players: int) -> list[str]:
    """The cards of a ``players``-seat game: three packs, four for 8 players."""
    packs = 4 if players == 8 else 3
    return [r + s for _ in range(packs) for s in SUITS for r in RANKS]


class State:
    """A Grabush position. Treat as immutable: :func:`apply` returns a new one.

    Stocks and table piles are stored bottom first (top = last item), the supply top first.
    Inner lists may be shared between states and are replaced, never mutated, on change.
    """

    __slots__ = (
        "cache",
        "centre",
        "completed",
        "dealer",
        "end_reason",
        "events",
        "hands",
        "n",
        "over",
        "quiet",
        "rights",
        "seed",
        "shuffle_completed",
        "stock_size",
        "stocks",
        "supply",
        "tables",
        "talk",
        "to_act",
        "turn",
        "turn_plays",
        "turns",
        "winner",
    )

    seed: int | str
    n: int
    stock_size: int
    talk: bool
    shuffle_completed: bool
    dealer: int
    stocks: list[list[str]]
    hands: list[list[str]]
    tables: list[list[str]]  # flat: seat * SLOTS + slot
    centre: list[list[str]]
    supply: list[str]
    to_act: int | None
    over: bool
    winner: int | None
    end_reason: EndReason | None
    turn: int
    turn_plays: int
    quiet: int
    completed: int
    rights: list[int]
    events: list[Event]
    turns: list[list[Event]]  # per seat, the public events of its latest turn
    cache: list[str] | None  # the on-turn seat's actions; not serialised

    def _copy(self) -> State:
        s = State.__new__(State)
        s.seed = self.seed
        s.n = self.n
        s.stock_size = self.stock_size
        s.talk = self.talk
        s.shuffle_completed = self.shuffle_completed
        s.dealer = self.dealer
        s.stocks = self.stocks[:]
        s.hands = self.hands[:]
        s.tables = self.tables[:]
        s.centre = self.centre[:]
        s.supply = self.supply
        s.to_act = self.to_act
        s.over = self.over
        s.winner = self.winner
        s.end_reason = self.end_reason
        s.turn = self.turn
        s.turn_plays = self.turn_plays
        s.quiet = self.quiet
        s.completed = self.completed
        s.rights = self.rights[:]
        s.events = []
        s.turns = self.turns[:]
        s.cache = None
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return _to_dict(self) == _to_dict(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<grabush.State players={self.n} turn={self.turn} to_act={self.to_act}>"


# --- setting up ---------------------------------------------------------------------------


def new_game(
    seed: int | str,
    players: int,
    stock_size: int = 20,
    table_talk_penalty: bool = True,
    dealer: int | None = None,
    shoe: Sequence[str] | None = None,
    shuffle_completed: bool = True,
) -> State:
    """Deal a new game (rules §2). Bad options raise ``ValueError``.

    ``shoe`` stacks the deal (all the cards, top first); ``dealer`` defaults to a seat drawn
    from ``seed``; ``shuffle_completed=False`` returns completed piles to the supply Ace first.
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError("seed must be an int or a str")
    if players not in PLAYER_COUNTS:
        raise ValueError(f"Grabush is for 2, 4, 6 or 8 players, not {players!r}")
    allowed = (20, 25, 30) if players >= 6 else (20,)
    if stock_size not in allowed:
        raise ValueError(f"stock_size for {players} players must be one of {allowed}")
    if dealer is None:
        dealer = first_dealer(seed, players)
    elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0..{players - 1}")
    deck = full_deck(players)
    if shoe is None:
        cards = drawn_shoe(seed, players)
    else:
        cards = list(shoe)
        if Counter(cards) != Counter(deck):
            raise ValueError(f"shoe must hold exactly the {len(deck)} cards of {players} players")

    s = State.__new__(State)
    s.seed = seed
    s.n = players
    s.stock_size = stock_size
    s.talk = bool(table_talk_penalty)
    s.shuffle_completed = bool(shuffle_completed)
    s.dealer = dealer
    k = stock_size
    s.stocks = [cards[k - 1 :: -1], cards[2 * k - 1 : k - 1 : -1]]
    s.hands = [[] for _ in range(players)]
    pos = 2 * k
    for i in range(players):
        s.hands[(dealer + 1 + i) % players] = cards[pos : pos + HAND]
        pos += HAND
    s.supply = cards[pos:]
    s.tables = [[] for _ in range(players * SLOTS)]
    s.centre = []
    s.to_act = (dealer + 1) % players
    s.over = False
    s.winner = None
    s.end_reason = None
    s.turn = 1
    s.turn_plays = 0
    s.quiet = 0
    s.completed = 0
    s.rights = [0] * players
    s.events = [{"kind": "turn", "seat": s.to_act}]
    s.turns = [[] for _ in range(players)]
    s.cache = None
    return s


def drawn_shoe(seed: int | str, players: int) -> list[str]:
    """The game's shoe, top first, drawn from ``seed``: :func:`full_deck` shuffled for
    ``grabush/shoe``."""
    return chance.shuffled(seed, "grabush/shoe", full_deck(players))


def first_dealer(seed: int | str, players: int) -> int:
    """The game's dealer, drawn from ``seed`` for ``grabush/dealer``."""
    return chance.below(seed, "grabush/dealer", players)


def drawn_deals(seed: int | str, players: int) -> list[DrawnDeal]:
    """The game's one deal drawn from ``seed``: its ``dealer`` and ``cards`` (the shoe, top
    first)."""
    return [{"dealer": first_dealer(seed, players), "cards": drawn_shoe(seed, players)}]


def cut(seed: int | str, players: int) -> CutResult:
    """Cut for seats, sides and dealer (rules §1); deterministic for ``seed``.

    Players are numbered ``0..players-1`` in the order they cut (for a web table, e.g. the
    order they joined). Each round every player still cutting takes a different random card of a
    freshly shuffled shoe (three packs, four for 8). Cards rank in whist order (2 low .. A high,
    suits equal). A tie re-cuts among the tied players only when it matters: when the tied group
    straddles the line between the lower and higher half, or shares the lowest card. The re-cut
    orders the tied players among themselves.

    Returns ``{"rounds": [[{"player", "card"}, ...], ...], "order": [players, lowest cut first],
    "sides": [[players], [players]], "seats": [player at seat 0, 1, ...], "dealer": 0,
    "dealer_player": int}``. The lower half is side 0 and the lowest cut sits at seat 0 as
    dealer; the lower half takes seats 0, 2, 4, 6 and the higher half seats 1, 3, 5, 7, each in
    cut order. Pass ``dealer=result["dealer"]`` to :func:`new_game` and seat the players by
    ``seats``. A web table that lets players choose seats skips this and calls :func:`new_game`
    without ``dealer`` (a seat drawn at random from the seed).
    """
    if players not in PLAYER_COUNTS:
        raise ValueError(f"Grabush is for 2, 4, 6 or 8 players, not {players!r}")
    deck = full_deck(players)
    half = players // 2
    rounds: list[list[CutCard]] = []
    # Each player's key: the whist ranks of his cuts so far; ties compare the re-cuts.
    keys: dict[int, list[int]] = {p: [] for p in range(players)}
    cutting = list(range(players))
    while cutting:
        cards = chance.shuffled(seed, f"grabush/cut/{len(rounds)}", deck)[: len(cutting)]
        rounds.append([{"player": p, "card": c} for p, c in zip(cutting, cards, strict=True)])
        for p, c in zip(cutting, cards, strict=True):
            keys[p].append(WHIST[c[0]])
        order = sorted(range(players), key=lambda p: keys[p])
        cutting = []
        groups: dict[tuple[int, ...], list[int]] = {}
        for p in order:
            groups.setdefault(tuple(keys[p]), []).append(p)
        for group in groups.values():
            if len(group) < 2:
                continue
            first = order.index(group[0])
            last = first + len(group) - 1
            if first == 0 or first < half <= last:
                cutting.extend(group)
        cutting.sort()
    order = sorted(range(players), key=lambda p: keys[p])
    lower, higher = order[:half], order[half:]
    seats = [0] * players
    for i, p in enumerate(lower):
        seats[2 * i] = p
    for i, p in enumerate(higher):
        seats[2 * i + 1] = p
    return {
        "rounds": rounds,
        "order": order,
        "sides": [lower, higher],
        "seats": seats,
        "dealer": 0,
        "dealer_player": order[0],
    }


# --- legality -----------------------------------------------------------------------------


def _check_seat(state: State, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
        raise IllegalAction(gettext_noop("There is no seat %(seat)s"), seat=seat)
    return seat


# Action strings are built once: legal_actions runs in every bot simulation step.
_MAX_PILES = 16  # one centre pile per Ace at most: 4 packs
_CODES = [r + s for s in SUITS for r in RANKS]
_RANK_OF = {card: RANK[card[0]] for card in _CODES}
_HAND_NEW = {card: f"centre:hand:{card}:new" for card in _CODES}
_HAND_PILE = {card: [f"centre:hand:{card}:{i}" for i in range(_MAX_PILES)] for card in _CODES}
_STOCK_PILE = [f"centre:stock:{i}" for i in range(_MAX_PILES)]
_TABLE_PILE = [
    [f"centre:table:{owner}:{slot}:{i}" for i in range(_MAX_PILES)]
    for owner in range(8)
    for slot in range(SLOTS)
]
#: players -> side -> the flat table keys (seat * SLOTS + slot) of that side's seats
_SIDE_KEYS = {
    n: [tuple(k for k in range(n * SLOTS) if k // SLOTS % 2 == side) for side in (0, 1)]
    for n in PLAYER_COUNTS
}
_TABLE_ACTS = {
    card: () if card[0] == "A" else tuple(f"table:{card}:{slot}" for slot in range(SLOTS))
    for card in _CODES
}


def _turn_actions(state: State, seat: int) -> list[str]:
    """The actions of the seat on turn, penalty rights aside (cached on the state)."""
    cached = state.cache
    if cached is not None:
        return cached
    acts: list[str] = []
    wanted: dict[int, list[int]] = {}  # the rank a centre pile takes -> pile indices
    for i, pile in enumerate(state.centre):
        need = len(pile) + 1
        if need in wanted:
            wanted[need].append(i)
        else:
            wanted[need] = [i]
    hand = state.hands[seat]
    distinct = dict.fromkeys(hand)
    for card in distinct:
        rank = _RANK_OF[card]
        if rank == 1:
            acts.append(_HAND_NEW[card])
        elif rank in wanted:
            names = _HAND_PILE[card]
            for i in wanted[rank]:
                acts.append(names[i])
    stock = state.stocks[seat % 2]
    if stock:
        rank = _RANK_OF[stock[-1]]
        if rank == 1:
            acts.append("centre:stock:new")
        elif rank in wanted:
            for i in wanted[rank]:
                acts.append(_STOCK_PILE[i])
    tables = state.tables
    for key in _SIDE_KEYS[state.n][seat % 2]:
        pile = tables[key]
        if pile:
            rank = _RANK_OF[pile[-1]]
            if rank in wanted:
                names = _TABLE_PILE[key]
                for i in wanted[rank]:
                    acts.append(names[i])
    if hand:
        for card in distinct:
            acts.extend(_TABLE_ACTS[card])
    else:
        acts.append("end")
    state.cache = acts
    return acts


def legal_actions(state: State, seat: int) -> list[str]:
    """Every action ``seat`` may take now; a seat not on turn gets only its penalty actions."""
    seat = _check_seat(state, seat)
    if state.over:
        return []
    acts = list(_turn_actions(state, seat)) if seat == state.to_act else []
    if state.rights[seat]:
        target = 1 - seat % 2
        acts.extend(f"penalty:{target}:{card}" for card in dict.fromkeys(state.hands[seat]))
        acts.append(f"decline:{target}")
    return acts


def _pile_index(state: State, text: str) -> int:
    try:
        index = int(text)
    except ValueError:
        raise IllegalAction(gettext_noop("There is no centre pile %(pile)s"), pile=text) from None
    if not 0 <= index < len(state.centre) or text != str(index):
        raise IllegalAction(gettext_noop("There is no centre pile %(pile)s"), pile=text)
    return index


def _check_centre(state: State, card: str, target: str) -> int | None:
    """Validate ``card`` onto centre pile ``target``; return its index (None: a new pile)."""
    rank = RANK[card[0]]
    if target == "new":
        if rank != 1:
            raise IllegalAction(gettext_noop("Only an Ace starts a new centre pile"))
        return None
    index = _pile_index(state, target)
    if rank == 1:
        raise IllegalAction(gettext_noop("An Ace always starts a new centre pile"))
    top = len(state.centre[index])
    if rank != top + 1:
        raise IllegalAction(
            gettext_noop("%(rank)s goes on %(below)s; that pile shows %(top)s"),
            rank=_label(rank),
            below=_label(rank - 1),
            top=_label(top),
        )
    return index


def _is_card(text: str) -> bool:
    return len(text) == 2 and text[0] in RANK and text[1] in SUITS


# --- applying -----------------------------------------------------------------------------


def apply(state: State, seat: int, action: str) -> State:
    """Return the state after ``seat`` takes ``action``; raise :class:`IllegalAction` if barred.

    The new state's ``events`` (``view()["last_events"]``) lists the public facts of the action.
    """
    s = _apply(state, seat, action)
    _log_turns(s, seat)
    return s


#: What a player's turn log keeps (``view()["last_turns"]``): its plays and what they did.
_TURN_LOG = frozenset(("play", "table", "end", "book", "completed"))


def _log_turns(s: State, seat: int) -> None:
    """Add the action's events to the log of the turn they belong to; a turn that starts
    starts its player's log afresh."""
    current = seat
    for event in s.events:
        kind = event["kind"]
        if kind == "turn":
            current = event["seat"]
            s.turns[current] = []
        elif kind in _TURN_LOG:
            s.turns[current] = [*s.turns[current], event]


def _apply(state: State, seat: int, action: str) -> State:
    seat = _check_seat(state, seat)
    if state.over:
        raise IllegalAction(gettext_noop("The game is over"))
    if not isinstance(action, str):
        raise IllegalAction(gettext_noop("That is not a Grabush action: %(action)s"), action=action)
    parts = action.split(":")
    kind = parts[0]
    if kind in ("penalty", "decline"):
        return _apply_penalty(state, seat, parts, action)
    if kind not in ("centre", "table", "end"):
        raise IllegalAction(gettext_noop("That is not a Grabush action: %(action)s"), action=action)
    if seat != state.to_act:
        raise IllegalAction(gettext_noop("It is not your turn"))
    if kind == "centre":
        return _apply_centre(state, seat, parts, action)
    if kind == "table":
        return _apply_table(state, seat, parts, action)
    if len(parts) != 1:
        raise IllegalAction(gettext_noop("That is not a Grabush action: %(action)s"), action=action)
    if state.hands[seat]:
        raise IllegalAction(gettext_noop("You still have cards: end your turn with a table card"))
    s = state._copy()
    s.events.append({"kind": "end", "seat": seat})
    _pass_turn(s)
    return s


def _bad(action: str) -> IllegalAction:
    return IllegalAction(gettext_noop("That is not a Grabush action: %(action)s"), action=action)


def _apply_centre(state: State, seat: int, parts: list[str], action: str) -> State:
    source = parts[1] if len(parts) > 1 else ""
    side = seat % 2
    if source == "hand" and len(parts) == 4:
        card = parts[2]
        if not _is_card(card):
            raise _bad(action)
        if card not in state.hands[seat]:
            raise IllegalAction(gettext_noop("You have no %(card)s in your hand"), card=card)
        index = _check_centre(state, card, parts[3])
        s = state._copy()
        hand = s.hands[seat] = state.hands[seat][:]
        hand.remove(card)
        event: Event = {"kind": "play", "seat": seat, "source": "hand", "card": card}
    elif source == "stock" and len(parts) == 3:
        stock = state.stocks[side]
        card = stock[-1]
        index = _check_centre(state, card, parts[2])
        s = state._copy()
        s.stocks[side] = stock[:-1]
        event = {"kind": "play", "seat": seat, "source": "stock", "card": card}
    elif source == "table" and len(parts) == 5:
        try:
            owner, slot = int(parts[2]), int(parts[3])
        except ValueError:
            raise _bad(action) from None
        if not 0 <= owner < state.n:
            raise IllegalAction(gettext_noop("There is no seat %(seat)s"), seat=owner)
        if owner % 2 != side:
            raise IllegalAction(gettext_noop("Only your partners' table piles are yours to use"))
        if not 0 <= slot < SLOTS:
            raise IllegalAction(
                gettext_noop("There is no table slot %(slot)s; each player has four (0-3)"),
                slot=slot,
            )
        pile = state.tables[owner * SLOTS + slot]
        if not pile:
            raise IllegalAction(
                gettext_noop("Table pile %(slot)s of seat %(seat)s is empty"), slot=slot, seat=owner
            )
        card = pile[-1]
        index = _check_centre(state, card, parts[4])
        s = state._copy()
        s.tables[owner * SLOTS + slot] = pile[:-1]
        event = {
            "kind": "play",
            "seat": seat,
            "source": "table",
            "from_seat": owner,
            "slot": slot,
            "card": card,
        }
    else:
        raise _bad(action)

    s.turn_plays += 1
    events = s.events
    if index is None:
        s.centre.append([card])
        event["pile"] = len(s.centre) - 1
        event["new"] = True
        events.append(event)
    else:
        pile = s.centre[index] = state.centre[index] + [card]
        event["pile"] = index
        events.append(event)
        if len(pile) == 13:
            del s.centre[index]
            if s.shuffle_completed:
                pile = chance.shuffled(s.seed, f"grabush/pile/{s.completed}", pile)
            s.completed += 1
            s.supply = s.supply + pile
            events.append({"kind": "completed", "pile": index})
    if source == "stock":
        stock = s.stocks[side]
        if not stock:
            _finish(s, side, "stock")
            return s
        events.append({"kind": "stock_turned", "side": side, "top": stock[-1]})
    elif source == "hand" and not s.hands[seat]:
        _draw(s, seat)
    return s


def _apply_table(state: State, seat: int, parts: list[str], action: str) -> State:
    if len(parts) != 3 or not _is_card(parts[1]):
        raise _bad(action)
    card = parts[1]
    try:
        slot = int(parts[2])
    except ValueError:
        raise _bad(action) from None
    hand = state.hands[seat]
    if card not in hand:
        if state.stocks[seat % 2] and state.stocks[seat % 2][-1] == card:
            raise IllegalAction(gettext_noop("Stock cards never go to a table pile"))
        for owner in range(seat % 2, state.n, 2):
            for pile in state.tables[owner * SLOTS : owner * SLOTS + SLOTS]:
                if pile and pile[-1] == card:
                    raise IllegalAction(gettext_noop("Table cards never move between table piles"))
        raise IllegalAction(gettext_noop("You have no %(card)s in your hand"), card=card)
    if card[0] == "A":
        raise IllegalAction(gettext_noop("Aces can't be table cards"))
    if not 0 <= slot < SLOTS:
        raise IllegalAction(
            gettext_noop("There is no table slot %(slot)s; each player has four (0-3)"), slot=slot
        )
    s = state._copy()
    new_hand = s.hands[seat] = hand[:]
    new_hand.remove(card)
    key = seat * SLOTS + slot
    s.tables[key] = state.tables[key] + [card]
    s.events.append({"kind": "table", "seat": seat, "card": card, "slot": slot})
    _pass_turn(s)
    return s


def _apply_penalty(state: State, seat: int, parts: list[str], action: str) -> State:
    kind = parts[0]
    if not (len(parts) == 3 if kind == "penalty" else len(parts) == 2) or parts[1] not in (
        "0",
        "1",
    ):
        raise _bad(action)
    side = int(parts[1])
    if side == seat % 2 or not state.rights[seat]:
        raise IllegalAction(
            gettext_noop("You have no penalty right against side %(side)s"), side=side
        )
    s = state._copy()
    s.rights[seat] -= 1
    if kind == "decline":
        s.events.append({"kind": "decline", "seat": seat, "side": side})
        return s
    card = parts[2]
    hand = state.hands[seat]
    if not hand:
        raise IllegalAction(gettext_noop("You have no cards yet: the penalty waits for your book"))
    if card not in hand:
        raise IllegalAction(gettext_noop("You have no %(card)s in your hand"), card=card)
    new_hand = s.hands[seat] = hand[:]
    new_hand.remove(card)
    stock = s.stocks[side] = state.stocks[side][:]
    face_down = len(stock) - 1
    # Stored bottom first: ``face_down // 2`` cards from the top of the face-down part.
    stock.insert(face_down - face_down // 2, card)
    s.events.append({"kind": "penalty", "seat": seat, "side": side})
    return s


def grant_penalty(state: State, side: int) -> State:
    """A seated player of ``side`` chatted: each opponent gains one penalty right against it."""
    if side not in (0, 1) or isinstance(side, bool):
        raise ValueError("side must be 0 or 1")
    if not state.talk:
        raise IllegalAction(gettext_noop("This table does not use the table-talk penalty"))
    if state.over:
        raise IllegalAction(gettext_noop("The game is over"))
    s = state._copy()
    for seat in range(1 - side, s.n, 2):
        s.rights[seat] += 1
    s.events.append({"kind": "rights", "side": side})
    return s


# --- turn mechanics -----------------------------------------------------------------------


def _draw(s: State, seat: int) -> None:
    """Draw a book into ``seat``'s (empty) hand, if the supply has cards."""
    supply = s.supply
    if supply:
        s.hands[seat] = supply[:BOOK]
        s.supply = supply[BOOK:]
        s.events.append({"kind": "book", "seat": seat, "count": len(s.hands[seat])})


def _finish(s: State, winner: int | None, reason: EndReason) -> None:
    s.over = True
    s.winner = winner
    s.end_reason = reason
    s.to_act = None
    s.rights = [0] * s.n
    if winner is None:
        s.events.append(
            {"kind": "draw", "reason": reason, "stocks": [len(s.stocks[0]), len(s.stocks[1])]}
        )
    else:
        s.events.append({"kind": "win", "side": winner})


def _any_centre_play(s: State) -> bool:
    tops = {len(pile) + 1 for pile in s.centre}
    tops.add(1)
    for seat in range(s.n):
        for card in s.hands[seat]:
            if RANK[card[0]] in tops:
                return True
    for stock in s.stocks:
        if stock and RANK[stock[-1][0]] in tops:
            return True
    return any(pile and RANK[pile[-1][0]] in tops for pile in s.tables)


def _pass_turn(s: State) -> None:
    """End the current turn: check the blocked game, then start the next player's turn."""
    if s.turn_plays or s.supply:
        s.quiet = 0
    else:
        s.quiet += 1
    if not s.supply:
        if s.quiet >= s.n:
            _finish(s, None, "quiet")
            return
        if not _any_centre_play(s):
            _finish(s, None, "stuck")
            return
    nxt = (s.to_act + 1) % s.n  # type: ignore[operator]
    s.to_act = nxt
    s.turn += 1
    s.turn_plays = 0
    s.events.append({"kind": "turn", "seat": nxt})
    if not s.hands[nxt]:
        _draw(s, nxt)


# --- the move log ---------------------------------------------------------------------------

#: Move-log entry recording that a seated player of side ``<side>`` chatted while the game ran:
#: ``grant_penalty:<side>`` (see :func:`grant_penalty`).
GRANT_PENALTY = "grant_penalty:"


def apply_entry(state: State, seat: int, entry: str) -> State:
    """Apply one entry of a match's move log: a player's action, or a penalty grant."""
    if entry.startswith(GRANT_PENALTY):
        side = entry.removeprefix(GRANT_PENALTY)
        if side not in ("0", "1"):
            raise IllegalAction(gettext_noop("%(action)s is not a valid action"), action=entry)
        return grant_penalty(state, int(side))
    return apply(state, seat, entry)


def result(state: State) -> MatchResult:
    """A finished game's result: the winning side (None: a draw) and the cards left in each
    side's stock."""
    return {"winner": state.winner, "stocks": [len(stock) for stock in state.stocks]}


# --- views and serialisation --------------------------------------------------------------


def view(state: State, seat: int | None) -> GrabushView:
    """Return what ``seat`` may see; ``seat`` None: a spectator."""
    if seat is not None:
        seat = _check_seat(state, seat)
    n = state.n
    supply = len(state.supply)
    over = state.over
    return {
        "seat": seat,
        "side": None if seat is None else seat % 2,
        "players": n,
        "dealer": state.dealer,
        "stock_size": state.stock_size,
        "table_talk_penalty": state.talk,
        "to_act": state.to_act,
        "over": over,
        "winner": state.winner,
        "result": None if not over else ("draw" if state.winner is None else "win"),
        "end_reason": state.end_reason,
        "hand": [] if seat is None else list(state.hands[seat]),
        "hand_sizes": [len(h) for h in state.hands],
        "stocks": [
            {"top": stock[-1] if stock else None, "size": len(stock)} for stock in state.stocks
        ],
        "centre": [list(pile) for pile in state.centre],
        "tables": [
            [list(state.tables[p * SLOTS + slot]) for slot in range(SLOTS)] for p in range(n)
        ],
        "supply": supply,
        "books_left": -(-supply // BOOK),
        "completed": state.completed,
        "turn": state.turn,
        "turn_centre_plays": state.turn_plays,
        "quiet_turns": state.quiet,
        "penalty_rights": list(state.rights),
        "legal": [] if seat is None else legal_actions(state, seat),
        "last_events": [e.copy() for e in state.events],
        "last_turns": [[e.copy() for e in log] for log in state.turns],
    }


_FIELDS = (
    "seed",
    "n",
    "stock_size",
    "talk",
    "shuffle_completed",
    "dealer",
    "stocks",
    "hands",
    "tables",
    "centre",
    "supply",
    "to_act",
    "over",
    "winner",
    "end_reason",
    "turn",
    "turn_plays",
    "quiet",
    "completed",
    "rights",
    "events",
    "turns",
)


def _to_dict(state: State) -> dict[str, object]:
    return {name: getattr(state, name) for name in _FIELDS}


def dumps(state: State) -> str:
    """The state as JSON text (everything, hidden cards included: server side only)."""
    return json.dumps({"game": "grabush", "v": 1, **_to_dict(state)}, separators=(",", ":"))


def loads(text: str) -> State:
    """Rebuild a state from :func:`dumps` text."""
    data = json.loads(text)
    if data.get("game") != "grabush" or data.get("v") != 1:
        raise ValueError("not a Grabush state")
    s = State.__new__(State)
    data.setdefault("turns", [[] for _ in range(data["n"])])  # a state may hold no turn logs
    for name in _FIELDS:
        setattr(s, name, data[name])
    s.cache = None
    return s
