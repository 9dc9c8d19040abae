"""Bulgarian Belote (Бридж-белот): the rules engine.

Rules: ``shared/rules/belote.md``; surface: ``shared/rules/engine-api.md`` (the
:class:`~games.engines.contract.Engine` protocol) plus :func:`scores`, :func:`winner` and
:func:`deal_results`. Cards are ints and hands masks (:mod:`games.engines.belote_cards`). A state
is never changed once made: :func:`apply` returns a new one. After the last card of a deal the next
deal is dealt at once, so the finished deal is read from ``deal_results(state)[-1]``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict, cast

from . import chance
from .belote_cards import (
    AT,
    CARDS,
    CONTRACT_INDEX,
    CONTRACTS,
    HIGHER,
    INDEX,
    NT,
    POINTS,
    POINTS_PLAIN,
    POINTS_TRUMP,
    RANKS,
    STRENGTH,
    STRENGTH_PLAIN,
    STRENGTH_TRUMP,
    SUIT_MASK,
    TRUMP_MASK,
    beats,
    bits,
    codes,
    is_trump,
    mask,
    trick_winner,
)
from .cards import SUITS, DrawnDeal, IllegalAction, gettext_noop

__all__ = [
    "CARDS",
    "CONTRACTS",
    "POINTS_PLAIN",
    "POINTS_TRUMP",
    "RANKS",
    "STRENGTH_PLAIN",
    "STRENGTH_TRUMP",
    "Announcement",
    "Belot",
    "BeloteView",
    "Bid",
    "Combination",
    "Combo",
    "DealResult",
    "Declared",
    "IllegalAction",
    "Kind",
    "Options",
    "Outcome",
    "Pair",
    "Phase",
    "State",
    "Trick",
    "announcements",
    "apply",
    "best_plan",
    "card_points",
    "card_strength",
    "deal_results",
    "deals_dealt",
    "deck",
    "drawn_deals",
    "dumps",
    "first_dealer",
    "legal_actions",
    "legal_cards",
    "legal_mask",
    "loads",
    "new_game",
    "phase",
    "position",
    "result",
    "score_declarations",
    "scores",
    "settle",
    "sort_hand",
    "view",
    "winner",
]

# --------------------------------------------------------------------------------------------
# What the engine shows: the view and the score sheet (JSON-safe)

#: ``[seat, card]`` or ``[seat, call]``.
Pair = list[int | str]
Kind = Literal["tierce", "quarte", "quinte", "carre"]
Phase = Literal["auction", "play", "over"]
Outcome = Literal["made", "inside", "hanging", "redeal"]


class Bid(TypedDict):
    """The standing bid during the auction, the contract in play."""

    contract: str  # C D H S NT AT
    declarer: int
    multiplier: int  # 1, 2 (contra) or 4 (recontra)
    team: int  # the declaring team


class Trick(TypedDict):
    """A completed trick."""

    leader: int
    cards: list[Pair]  # in play order
    winner: int  # the seat that took it


class Announcement(TypedDict, total=False):
    """Something a player's next card announces unless kept quiet (:func:`announcements`)."""

    key: str  # d0, d1… (a declaration, by its place in the plan) or belot
    kind: str  # a declaration's kind, or belot
    points: int
    cards: list[str]
    with_cards: list[str]  # a belot's: the legal cards that would announce it


class Declared(TypedDict):
    """A declaration's kind, shown from its owner's first card of the deal."""

    seat: int
    kind: Kind


class Belot(TypedDict):
    """A belot announced by ``seat`` in ``suit``."""

    seat: int
    suit: str


class Options(TypedDict):
    """The table's options (rules §9)."""

    target: int
    declarations: Literal["separate", "pool"]
    finish_with_hanging: bool
    announce: Literal["auto", "ask"]


class Combination(Declared):
    """A declared sequence or carré on the score sheet, with its cards."""

    points: int
    cards: list[str]
    scored: bool


class DealResult(TypedDict):
    """One line of the score sheet: a finished deal. Pairs are per team unless said otherwise.

    An all-pass deal has contract, declarer, capot and last_ten None, no tricks, zero pairs and
    outcome "redeal".
    """

    dealer: int
    contract: str | None
    declarer: int | None
    multiplier: int
    tricks: list[list[Pair]]  # the eight tricks, each in play order
    declarations: list[int]  # sequence and carré points scored
    belot: list[int]
    raw: list[int]  # card points, declarations, belots and capot: what decides the deal
    capot: int | None  # the team that took every trick
    outcome: Outcome
    award: list[int]  # written + hanging_won: what the deal added to the match totals
    hanging_after: int  # points hanging once the deal is scored
    card_points: list[int]  # last ten included, doubled in No Trumps
    tricks_won: list[int]
    last_ten: int | None  # the team that took the last trick
    combinations: list[Combination]  # every declared sequence and carré
    belots: list[Belot]
    written: list[int]  # the deal's own rounded figures, multiplier applied
    hanging_before: int
    hanging_won: list[int]  # hanging points received
    hanging_added: int  # points this deal put on hanging
    winning_team: int | None  # higher raw total; None on a tie or a redeal
    scores_after: list[int]


class MatchResult(TypedDict):
    """A finished match's result, as stored with it."""

    winner: int | None
    scores: list[int]


class BeloteView(TypedDict):
    """What one seat (None: a spectator) may see (rules §10)."""

    seat: int | None
    to_act: int | None  # None once the match is over
    phase: Phase
    deal_no: int  # the current deal's index, all-pass deals included
    dealer: int
    hand: list[str]  # own cards sorted for display (sort_hand); [] for a spectator
    legal: list[str]  # own legal actions now; [] when not on turn
    announce: list[Announcement]  # what own next card announces (announcements()); [] off turn
    hand_sizes: list[int]  # per seat
    auction: list[Pair]  # this deal's calls
    contract: Bid | None  # None before any bid and once the match is over
    leader: int | None  # who led or leads the current trick
    trick: list[Pair]  # the current trick so far
    last_trick: Trick | None
    tricks: list[Trick]  # this deal's completed tricks
    tricks_won: list[int]  # per team, this deal
    trick_points: list[int]  # card points per team so far, last ten included, not doubled
    declarations: list[Declared]
    belots: list[Belot]  # this deal's
    scores: list[int]  # match totals per team
    hanging: int  # points hanging now
    target: int
    deals: int  # the match ends after this many deals (0: at the target)
    options: Options
    deal_results: list[DealResult]  # the score sheet; the dicts are shared: don't change them
    winner: int | None  # the team that won the match


# --------------------------------------------------------------------------------------------
# Cards (the tables live in belote_cards.py)


def card_strength(card: str, contract: str) -> int:
    """Strength 1..8 of ``card`` within its suit under ``contract`` (trump or plain order)."""
    return STRENGTH[CONTRACT_INDEX[contract]][INDEX[card]]


def card_points(card: str, contract: str) -> int:
    """Card points of ``card`` under ``contract`` (not doubled for No Trumps)."""
    return POINTS[CONTRACT_INDEX[contract]][INDEX[card]]


_DISPLAY_SUITS = "CDSH"  # alternating colours


def sort_hand(cards: Sequence[str], contract: str | None = None) -> list[str]:
    """Order cards for display: by suit (♣ ♦ ♠ ♥, alternating colours), strongest first.

    Strength follows ``contract`` (trump order for its trumps, plain order otherwise); with no
    contract yet (the auction) the plain order is used.
    """
    ct = CONTRACT_INDEX[contract] if contract is not None else NT
    strength = STRENGTH[ct]
    return sorted(cards, key=lambda c: (_DISPLAY_SUITS.index(c[1]), -strength[INDEX[c]]))


# --------------------------------------------------------------------------------------------
# Legal cards (rules §4)


def legal_mask(hand: int, trick: Sequence[int], contract: int, win_pos: int) -> int:
    """The cards of ``hand`` that may be played on ``trick`` (cards in play order).

    ``win_pos`` is the index in ``trick`` of the card winning it so far (see
    :func:`trick_winner`); the player to move sits after the last card, so his partner played
    ``trick[-2]``.
    """
    if not trick:
        return hand
    lead = trick[0]
    same = hand & SUIT_MASK[lead >> 3]
    tmask = TRUMP_MASK[contract]
    if same:
        if tmask >> lead & 1:
            # A trump suit was led: the winning card is the highest of that suit in the trick.
            return (same & HIGHER[contract][trick[win_pos]]) or same
        return same
    if contract >= NT or win_pos == len(trick) - 2:
        return hand
    trumps = hand & tmask
    if not trumps:
        return hand
    best = trick[win_pos]
    if tmask >> best & 1:
        return (trumps & HIGHER[contract][best]) or hand
    return trumps


def legal_cards(contract: str, hand: Sequence[str], trick: Sequence[str]) -> list[str]:
    """Return the cards of ``hand`` playable on ``trick`` (codes, in play order) in ``contract``."""
    ct = CONTRACT_INDEX[contract]
    played = tuple(INDEX[c] for c in trick)
    return codes(legal_mask(mask(hand), played, ct, trick_winner(played, ct)))


# --------------------------------------------------------------------------------------------
# Declarations (rules §6)

_RUN_KIND: dict[int, Kind] = {3: "tierce", 4: "quarte"}
_CARRE_POINTS = {2: 150, 3: 100, 4: 200, 5: 100, 6: 100, 7: 100}  # by rank index: 9 T J Q K A
# Carrés compare J > 9 > A > 10 > K > Q.
_CARRE_ORDER = {4: 6, 2: 5, 7: 4, 3: 3, 6: 2, 5: 1}


def _runs(byte: int) -> list[tuple[int, int]]:
    """Maximal runs of 3 or more set bits in an 8-bit suit pattern, as (lowest rank, length)."""
    runs = []
    r = 0
    while r < 8:
        if byte >> r & 1:
            start = r
            while r < 8 and byte >> r & 1:
                r += 1
            if r - start >= 3:
                runs.append((start, r - start))
        else:
            r += 1
    return runs


_RUNS = tuple(tuple(_runs(b)) for b in range(256))

#: A declared combination: (kind, points, cards mask, comparison key, is carré). Sequence keys
#: are (length, top rank index), carré keys (order,) in J > 9 > A > 10 > K > Q.
Combo = tuple[Kind, int, int, tuple[int, ...], bool]


def best_plan(hand: int) -> tuple[Combo, ...]:
    """Find the declarations of an 8-card hand (a card mask): the plan with the highest total.

    A card serves in a carré or in a sequence, not both; runs are maximal among the cards the
    chosen carrés leave; on equal totals the plan with more carré points wins.
    """
    quads = [
        r
        for r in range(2, 8)
        if hand >> r & hand >> (8 + r) & hand >> (16 + r) & hand >> (24 + r) & 1
    ]
    best: tuple[Combo, ...] = ()
    best_key = (0, 0)
    for choice in range(1 << len(quads)):
        combos: list[Combo] = []
        used = 0
        for i, r in enumerate(quads):
            if choice >> i & 1:
                m = 0x01010101 << r
                used |= m
                combos.append(("carre", _CARRE_POINTS[r], m, (_CARRE_ORDER[r],), True))
        carre_points = sum(c[1] for c in combos)
        rest = hand & ~used
        for s in range(4):
            for start, length in _RUNS[rest >> (8 * s) & 0xFF]:
                m = ((1 << length) - 1) << (8 * s + start)
                kind = _RUN_KIND.get(length, "quinte")
                points = 20 if length == 3 else 50 if length == 4 else 100
                combos.append((kind, points, m, (length, start + length - 1), False))
        key = (sum(c[1] for c in combos), carre_points)
        if key > best_key:
            best, best_key = tuple(combos), key
    return best


def score_declarations(
    plans: Sequence[Sequence[Combo]], pool: bool
) -> tuple[list[int], list[list[bool]]]:
    """Decide which declarations score: (points per team, per seat a flag per combo).

    ``plans[seat]`` is that seat's :func:`best_plan`; ``pool`` is the table's "pool" option.
    """
    flags = [[False] * len(p) for p in plans]
    points = [0, 0]

    def award(team: int, want_carre: bool | None) -> None:
        for seat in (team, team + 2):
            for i, combo in enumerate(plans[seat]):
                if want_carre is None or combo[4] == want_carre:
                    flags[seat][i] = True
                    points[team] += combo[1]

    if pool:
        bests: list[tuple | None] = []
        for team in (0, 1):
            keys: list[tuple] = [(c[1], c[4], c[3]) for s in (team, team + 2) for c in plans[s]]
            bests.append(max(keys) if keys else None)
        if bests[0] is not None and (bests[1] is None or bests[0] > bests[1]):
            award(0, None)
        elif bests[1] is not None and (bests[0] is None or bests[1] > bests[0]):
            award(1, None)
        return points, flags
    for carre in (False, True):
        bests = []
        for team in (0, 1):
            keys = [c[3] for s in (team, team + 2) for c in plans[s] if c[4] == carre]
            bests.append(max(keys) if keys else None)
        if bests[0] is not None and (bests[1] is None or bests[0] > bests[1]):
            award(0, carre)
        elif bests[1] is not None and (bests[0] is None or bests[1] > bests[0]):
            award(1, carre)
    return points, flags


# --------------------------------------------------------------------------------------------
# Scoring (rules §7)


def _round_team(contract: int, points: int, fewer: bool) -> int:
    """Round one team's raw total to the score sheet; ``fewer``: it has fewer raw points."""
    tens, r = divmod(points, 10)
    if contract == AT:
        up = r >= 5 or (r == 4 and fewer)
    elif contract == NT:
        up = r >= 5
    else:
        up = r >= 7 or (r == 6 and fewer)
    return tens + up


def _round_total(points: int) -> int:
    """Round a whole-deal total (inside, contra): to the nearest ten."""
    return (points + 5) // 10


def settle(contract: str, multiplier: int, declarers: int, defenders: int) -> tuple[int, int, int]:
    """Return (declarers' figure, defenders' figure, points that hang) for a deal's raw totals."""
    return _settle(CONTRACT_INDEX[contract], multiplier, declarers, defenders)


def _settle(ct: int, multiplier: int, declarers: int, defenders: int) -> tuple[int, int, int]:
    if multiplier > 1:
        whole = _round_total(declarers + defenders) * multiplier
        if declarers > defenders:
            return whole, 0, 0
        if declarers < defenders:
            return 0, whole, 0
        return 0, 0, whole
    if declarers > defenders:
        return (
            _round_team(ct, declarers, False),
            _round_team(ct, defenders, True),
            0,
        )
    if declarers < defenders:
        return 0, _round_total(declarers + defenders), 0
    # A tie: the defenders round as the team with more points, the declarers' share (which
    # hangs) as the team with fewer.
    return 0, _round_team(ct, defenders, False), _round_team(ct, declarers, True)


# --------------------------------------------------------------------------------------------
# State

_AUCTION, _PLAY, _OVER = 0, 1, 2
_PHASES: tuple[Phase, Phase, Phase] = ("auction", "play", "over")


class _Config:
    """The options of a match (never changes, shared by all its states)."""

    __slots__ = ("ask", "deals", "decks", "finish_with_hanging", "pool", "seed", "target")

    def __init__(
        self,
        seed: int | str,
        target: int,
        pool: bool,
        finish_with_hanging: bool,
        decks: tuple[tuple[int, ...], ...],
        ask: bool = False,
        deals: int = 0,
    ) -> None:
        self.seed = seed
        self.target = target
        self.pool = pool
        self.finish_with_hanging = finish_with_hanging
        self.decks = decks
        self.ask = ask  # players choose what their cards announce
        self.deals = deals  # the match ends after this many deals (0: at the target)


class State:
    """A match position. Treat as immutable; read ``to_act``, use the module's functions."""

    __slots__ = (
        "_legal",
        "belot_mask",
        "belots",
        "calls",
        "cfg",
        "contract",
        "deal_no",
        "dealer",
        "declarer",
        "hands",
        "hanging",
        "leader",
        "mult",
        "passes",
        "phase",
        "plans",
        "points",
        "quiet",
        "results",
        "scores",
        "stock",
        "to_act",
        "trick",
        "tricks",
        "win_pos",
        "winner",
        "won",
    )

    _legal: tuple[int, int] | None  # (seat, legal cards mask) once asked: legal_actions' cache
    cfg: _Config
    deal_no: int  # deals begun so far minus one: the index of the current deal
    dealer: int
    scores: tuple[int, int]
    hanging: int
    results: tuple[DealResult, ...]
    winner: int | None
    phase: int
    to_act: int | None
    hands: tuple[int, int, int, int]  # card masks
    stock: tuple[int, ...]  # the 12 cards dealt after the auction, in deck order
    calls: tuple[tuple[int, str], ...]
    contract: int  # -1: no bid yet
    declarer: int  # -1: no bid yet
    mult: int
    passes: int  # passes in a row since the last bid, contra or recontra
    trick: tuple[int, ...]  # cards of the current trick in play order
    leader: int
    win_pos: int  # index in trick of the card winning it
    tricks: tuple[tuple[int, ...], ...]  # (leader, 4 cards..., winner)
    points: tuple[int, int]  # card points per team this deal, last ten included, undoubled
    won: tuple[int, int]  # tricks per team this deal
    plans: tuple[tuple[Combo, ...], ...]  # each seat's declarations this deal
    belot_mask: tuple[int, ...]  # per seat: K and Q of suits whose belot may still be announced
    belots: tuple[tuple[int, int], ...]  # (seat, suit) announced
    quiet: tuple[tuple[int, int], ...]  # (seat, index in its best plan) kept quiet this deal

    def _copy(self) -> State:
        n = State.__new__(State)
        n._legal = None
        n.belot_mask = self.belot_mask
        n.belots = self.belots
        n.calls = self.calls
        n.cfg = self.cfg
        n.contract = self.contract
        n.deal_no = self.deal_no
        n.dealer = self.dealer
        n.declarer = self.declarer
        n.hands = self.hands
        n.hanging = self.hanging
        n.leader = self.leader
        n.mult = self.mult
        n.passes = self.passes
        n.phase = self.phase
        n.plans = self.plans
        n.points = self.points
        n.quiet = self.quiet
        n.results = self.results
        n.scores = self.scores
        n.stock = self.stock
        n.to_act = self.to_act
        n.trick = self.trick
        n.tricks = self.tricks
        n.win_pos = self.win_pos
        n.winner = self.winner
        n.won = self.won
        return n

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return dumps(self) == dumps(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<belote.State deal {self.deal_no} {_PHASES[self.phase]} to_act={self.to_act}>"


def deck(seed: int | str, number: int) -> list[str]:
    """The deck of deal ``number`` (0 first, thrown-in deals counted), top first, drawn from
    ``seed``: the cards in :data:`CARDS` order shuffled for ``belote/deal/<number>``."""
    return chance.shuffled(seed, f"belote/deal/{number}", CARDS)


def first_dealer(seed: int | str) -> int:
    """The match's first dealer, drawn from ``seed`` for ``belote/dealer``."""
    return chance.below(seed, "belote/dealer", 4)


def drawn_deals(seed: int | str, count: int) -> list[DrawnDeal]:
    """The first ``count`` deals of a match drawn from ``seed``: each one's ``dealer`` and its
    ``cards`` (the deck, top first)."""
    first = first_dealer(seed)
    return [{"dealer": (first + n) % 4, "cards": deck(seed, n)} for n in range(count)]


def deals_dealt(state: State) -> int:
    """How many deals the match has dealt so far (thrown-in deals counted)."""
    return state.deal_no + 1


def _deck_for(cfg: _Config, deal_no: int) -> tuple[int, ...]:
    if deal_no < len(cfg.decks):
        return cfg.decks[deal_no]
    return tuple(INDEX[c] for c in deck(cfg.seed, deal_no))


def _start_deal(s: State) -> None:
    """Deal the first five cards of deal ``s.deal_no`` by ``s.dealer`` (rules §2), in place."""
    deck = _deck_for(s.cfg, s.deal_no)
    d = s.dealer
    hands = [0, 0, 0, 0]
    for i in range(4):
        seat = (d + 1 + i) & 3
        for c in deck[3 * i : 3 * i + 3]:
            hands[seat] |= 1 << c
        for c in deck[12 + 2 * i : 14 + 2 * i]:
            hands[seat] |= 1 << c
    s.hands = tuple(hands)  # type: ignore[assignment]
    s.stock = tuple(deck[20:32])
    s.phase = _AUCTION
    s.to_act = (d + 1) & 3
    s.calls = ()
    s.contract = -1
    s.declarer = -1
    s.mult = 1
    s.passes = 0
    s.trick = ()
    s.leader = (d + 1) & 3
    s.win_pos = 0
    s.tricks = ()
    s.points = (0, 0)
    s.won = (0, 0)
    s.plans = ((), (), (), ())
    s.belot_mask = (0, 0, 0, 0)
    s.belots = ()
    s.quiet = ()


def _belot_masks(contract: int, hands: Sequence[int]) -> tuple[int, ...]:
    """Per seat, the K and Q of each trump suit in which it holds both (none in No Trumps)."""
    suits = (contract,) if contract < NT else (0, 1, 2, 3) if contract == AT else ()
    out = []
    for hand in hands:
        m = 0
        for s in suits:
            kq = 0b01100000 << (8 * s)
            if hand & kq == kq:
                m |= kq
        out.append(m)
    return tuple(out)


def _start_play(s: State) -> None:
    """Deal the last three cards each and set up trick play, in place."""
    d = s.dealer
    hands = list(s.hands)
    for i in range(4):
        seat = (d + 1 + i) & 3
        for c in s.stock[3 * i : 3 * i + 3]:
            hands[seat] |= 1 << c
    s.hands = tuple(hands)  # type: ignore[assignment]
    s.stock = ()
    s.phase = _PLAY
    s.to_act = s.leader = (d + 1) & 3
    s.plans = ((), (), (), ()) if s.contract == NT else tuple(best_plan(h) for h in hands)
    s.belot_mask = _belot_masks(s.contract, hands)


def new_game(
    seed: int | str,
    *,
    target: int = 151,
    declarations: str = "separate",
    finish_with_hanging: bool = True,
    announce: str = "auto",
    dealer: int | None = None,
    decks: Sequence[Sequence[str]] | None = None,
    deals: int | None = None,
) -> State:
    """Start a match; the first deal's first five cards are dealt and the auction is open.

    ``announce``: ``"auto"`` announces every declaration and belot (rules §6), ``"ask"`` lets a
    player keep some quiet (:func:`announcements`). ``dealer`` None: drawn from the seed.
    ``decks`` stacks the first deals (one 32-code deck per deal, top first, all-pass deals
    included); later deals are shuffled from the seed. ``deals``: the match ends after that
    many deals (thrown-in deals counted) whatever the scores, won by the team ahead (None on
    a tie), as at a duplicate event; None: it ends at the ``target``.
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError("seed must be an int or a str (it is stored as JSON)")
    if declarations not in ("separate", "pool"):
        raise ValueError(f"declarations must be 'separate' or 'pool', not {declarations!r}")
    if announce not in ("auto", "ask"):
        raise ValueError(f"announce must be 'auto' or 'ask', not {announce!r}")
    if not isinstance(target, int) or target <= 0:
        raise ValueError("target must be a positive int")
    if deals is not None and (isinstance(deals, bool) or not isinstance(deals, int) or deals < 1):
        raise ValueError("deals must be a positive int or None")
    stacked = []
    for deck in decks or ():
        if sorted(deck) != sorted(CARDS):
            raise ValueError("each stacked deck must hold the 32 cards exactly once")
        stacked.append(tuple(INDEX[c] for c in deck))
    cfg = _Config(
        seed,
        target,
        declarations == "pool",
        bool(finish_with_hanging),
        tuple(stacked),
        announce == "ask",
        deals or 0,
    )
    if dealer is None:
        dealer = first_dealer(seed)
    elif dealer not in (0, 1, 2, 3):
        raise ValueError("dealer must be 0..3")
    s = State.__new__(State)
    s._legal = None
    s.cfg = cfg
    s.deal_no = 0
    s.dealer = dealer
    s.scores = (0, 0)
    s.hanging = 0
    s.results = ()
    s.winner = None
    _start_deal(s)
    return s


def position(
    contract: str,
    seat: int,
    hand: Sequence[str],
    trick: Sequence[tuple[int, str]] = (),
    *,
    others: Mapping[int, Sequence[str]] | None = None,
    declarer: int | None = None,
    seed: int = 0,
    announce: str = "auto",
) -> State:
    """Build a trick-play position for tests and analysis: ``seat`` to play holding ``hand``.

    ``trick`` is the current trick as (seat, card) pairs in play order; ``others`` fixes cards of
    other seats, and the remaining cards fill their hands in card order, as many as each would
    hold. No earlier trick is recorded; declarations and belots count as if the hands held now
    were the hands dealt.
    """
    fixed = {p: list(cards) for p, cards in (others or {}).items() if p != seat}
    given = [*hand, *(c for _p, c in trick), *(c for cards in fixed.values() for c in cards)]
    if len(set(given)) != len(given):
        raise ValueError("a card is given twice")
    s = new_game(seed, dealer=(seat - 1) & 3, announce=announce)
    used = mask(given)
    rest = [c for c in range(32) if not used >> c & 1]
    leader = trick[0][0] if trick else seat
    played = {(leader + i) & 3 for i in range(len(trick))}
    hands = [0, 0, 0, 0]
    hands[seat] = mask(hand)
    for p in range(4):
        if p != seat:
            hands[p] = mask(fixed.get(p, ()))
            missing = len(hand) - (p in played) - hands[p].bit_count()
            if missing < 0:
                raise ValueError(f"seat {p} is given too many cards")
            for _ in range(missing):
                hands[p] |= 1 << rest.pop(0)
    s.hands = tuple(hands)  # type: ignore[assignment]
    s.stock = ()
    s.phase = _PLAY
    s.contract = CONTRACT_INDEX[contract]
    s.declarer = seat if declarer is None else declarer
    s.calls = ((s.declarer, contract), *(((s.declarer + i) & 3, "pass") for i in (1, 2, 3)))
    s.trick = tuple(INDEX[c] for _p, c in trick)
    s.leader = leader
    s.win_pos = trick_winner(s.trick, s.contract)
    s.to_act = seat
    s.plans = ((), (), (), ()) if s.contract == NT else tuple(best_plan(h) for h in hands)
    s.belot_mask = _belot_masks(s.contract, hands)
    return s


# --------------------------------------------------------------------------------------------
# Actions

_CALLS = ("pass", *CONTRACTS, "contra", "recontra")


def _auction_calls(s: State, seat: int) -> list[str]:
    calls = ["pass", *CONTRACTS[s.contract + 1 :]]
    if s.contract >= 0:
        own = (seat & 1) == (s.declarer & 1)
        if s.mult == 1 and not own:
            calls.append("contra")
        elif s.mult == 2 and own:
            calls.append("recontra")
    return calls


def _play_mask(s: State, seat: int) -> int:
    cached = s._legal
    if cached is not None and cached[0] == seat:
        return cached[1]
    m = legal_mask(s.hands[seat], s.trick, s.contract, s.win_pos)
    s._legal = (seat, m)
    return m


def legal_actions(state: State, seat: int) -> list[str]:
    """What ``seat`` may do now: calls in the auction, card codes in play; [] if not its turn."""
    if seat != state.to_act:
        return []
    if state.phase == _PLAY:
        return codes(_play_mask(state, seat))
    return _auction_calls(state, seat)


_FOLLOW = {
    0: gettext_noop("You must follow clubs"),
    1: gettext_noop("You must follow diamonds"),
    2: gettext_noop("You must follow hearts"),
    3: gettext_noop("You must follow spades"),
}


def _checked_card(s: State, seat: int, code: str) -> int:
    """The card ``code`` names, if ``seat`` may play it now."""
    card = INDEX.get(code)
    if card is None or not _play_mask(s, seat) >> card & 1:
        raise _card_refusal(s, seat, code)
    return card


def _card_refusal(s: State, seat: int, code: str) -> IllegalAction:
    """Why ``code`` may not be played now."""
    card = INDEX.get(code)
    if card is None:
        if code in _CALLS:
            return IllegalAction(gettext_noop("The auction is over: play a card"))
        return IllegalAction(gettext_noop("%(action)s is not a card"), action=code)
    hand = s.hands[seat]
    if not hand >> card & 1:
        return IllegalAction(gettext_noop("You do not hold %(card)s"), card=code)
    lead = s.trick[0]
    if hand & SUIT_MASK[lead >> 3]:
        if card >> 3 != lead >> 3:
            return IllegalAction(_FOLLOW[lead >> 3])
        return IllegalAction(gettext_noop("You must play a higher trump"))
    if is_trump(s.contract, s.trick[s.win_pos]):
        return IllegalAction(gettext_noop("You must over-trump with a higher trump"))
    return IllegalAction(gettext_noop("You must play a trump"))


def _call_refusal(s: State, seat: int, call: str) -> IllegalAction:
    """Why auction ``call`` is not allowed now."""
    own = s.declarer >= 0 and (seat & 1) == (s.declarer & 1)
    if call == "contra":
        if s.contract < 0:
            return IllegalAction(gettext_noop("There is no bid to double yet"))
        if s.mult == 4:
            return IllegalAction(gettext_noop("Nothing goes above recontra"))
        if own:
            return IllegalAction(
                gettext_noop("Contra is only for the opponents of the bidding team")
            )
        return IllegalAction(gettext_noop("The bid is already doubled"))
    if call == "recontra":
        if s.mult == 4:
            return IllegalAction(gettext_noop("Nothing goes above recontra"))
        if s.mult == 1:
            return IllegalAction(gettext_noop("Recontra is only possible over a contra"))
        return IllegalAction(gettext_noop("Recontra is only for the bidding team"))
    if s.contract == AT:
        return IllegalAction(
            gettext_noop("After All Trumps only pass, contra and recontra are allowed")
        )
    return IllegalAction(gettext_noop("You must bid higher than the current contract"))


def apply(state: State, seat: int, action: str) -> State:
    """Return the state after ``seat`` does ``action``; ``state`` itself is left unchanged.

    Raises :class:`IllegalAction` (a ValueError) with a player-facing message if the action is
    not allowed now.
    """
    if state.phase == _OVER:
        raise IllegalAction(gettext_noop("The match is over"))
    if seat != state.to_act:
        raise IllegalAction(gettext_noop("It is not your turn"))
    if not isinstance(action, str):
        raise IllegalAction(gettext_noop("%(action)s is not a valid action"), action=repr(action))
    if state.phase == _PLAY:
        card = INDEX.get(action)
        if card is not None and _play_mask(state, seat) >> card & 1:
            return _play(state, seat, card, 1 << card)
        if "/" in action:
            if not state.cfg.ask:
                raise IllegalAction(gettext_noop("At this table every declaration is announced"))
            return _play_quietly(state, seat, action)
        raise _card_refusal(state, seat, action)
    if action not in _CALLS:
        if action in INDEX:
            raise IllegalAction(gettext_noop("Cards are played after the auction"))
        raise IllegalAction(gettext_noop("%(action)s is not a call"), action=action)
    if action not in _auction_calls(state, seat):
        raise _call_refusal(state, seat, action)
    return _call(state, seat, action)


def announcements(state: State, seat: int) -> list[Announcement]:
    """What ``seat``'s next card announces unless the player keeps it quiet: its declarations
    on its first card of the deal (keys ``d0``, ``d1``… in the order of its best plan), and a
    belot (key ``belot``) with the legal cards (``with_cards``) that would announce it.

    At a table whose players announce (``announce="ask"``), a card played as
    ``"<card>/<keys>"`` (keys joined by ``+``) keeps those quiet; a plain card announces
    everything, as computers always do. Elsewhere everything is announced: the list is empty.
    """
    s = state
    if not s.cfg.ask or s.phase != _PLAY or seat != s.to_act:
        return []
    out: list[Announcement] = []
    if not s.tricks:
        out.extend(
            {"key": f"d{i}", "kind": combo[0], "points": combo[1], "cards": codes(combo[2])}
            for i, combo in enumerate(s.plans[seat])
        )
    pending = s.belot_mask[seat]
    if pending:
        carrying = [c for c in bits(_play_mask(s, seat) & pending) if _announces_belot(s, c)]
        if carrying:
            suits = {c >> 3 for c in carrying}
            out.append(
                {
                    "key": "belot",
                    "kind": "belot",
                    "points": 20,
                    "cards": codes(sum(pending & SUIT_MASK[suit] for suit in suits)),
                    "with_cards": [CARDS[c] for c in carrying],
                }
            )
    return out


def _announces_belot(s: State, card: int) -> bool:
    """Whether ``card`` (a K or Q of a pending belot) may announce it now (rules §6)."""
    trick = s.trick
    return not trick or card >> 3 == trick[0] >> 3 or s.contract < NT


def _play_quietly(state: State, seat: int, action: str) -> State:
    """Play ``"<card>/<keys>"``: the card, keeping quiet what the keys name."""
    code, _slash, keys = action.partition("/")
    card = _checked_card(state, seat, code)
    quiet = set(keys.split("+")) if keys else set()
    plan = state.plans[seat] if not state.tricks else ()
    if not quiet <= {f"d{i}" for i in range(len(plan))} | {"belot"}:
        raise IllegalAction(gettext_noop("You have nothing like that to keep quiet"))
    dropped = tuple(i for i in range(len(plan)) if f"d{i}" in quiet)
    if dropped:
        state = state._copy()
        plans = list(state.plans)
        plans[seat] = tuple(c for i, c in enumerate(plan) if i not in dropped)
        state.plans = tuple(plans)
        state.quiet = (*state.quiet, *((seat, i) for i in dropped))
    return _play(state, seat, card, 1 << card, announce_belot="belot" not in quiet)


def _call(state: State, seat: int, call: str) -> State:
    s = state._copy()
    s.calls = (*state.calls, (seat, call))
    s.to_act = (seat + 1) & 3
    if call == "pass":
        s.passes += 1
        if s.contract < 0:
            if s.passes == 4:
                _finish_deal(s)
        elif s.passes == 3:
            _start_play(s)
    elif call == "contra":
        s.mult, s.passes = 2, 0
    elif call == "recontra":
        s.mult, s.passes = 4, 0
    else:
        s.contract, s.declarer, s.mult, s.passes = CONTRACT_INDEX[call], seat, 1, 0
    return s


def _play(state: State, seat: int, card: int, bit: int, announce_belot: bool = True) -> State:
    s = state._copy()
    hands = list(state.hands)
    hands[seat] ^= bit
    s.hands = tuple(hands)  # type: ignore[assignment]
    ct = state.contract
    trick = state.trick
    if state.belot_mask[seat] & bit:
        kq = 0b01100000 << (card & ~7)
        masks = list(state.belot_mask)
        masks[seat] &= ~kq
        s.belot_mask = tuple(masks)
        if announce_belot and _announces_belot(state, card):
            s.belots = (*state.belots, (seat, card >> 3))
    if trick and beats(ct, card, trick[state.win_pos]):
        s.win_pos = len(trick)
    trick = (*trick, card)
    if len(trick) < 4:
        s.trick = trick
        s.to_act = (seat + 1) & 3
        return s
    leader = state.leader
    taker = (leader + s.win_pos) & 3
    team = taker & 1
    pts = POINTS[ct]
    gained = pts[trick[0]] + pts[trick[1]] + pts[trick[2]] + pts[trick[3]]
    s.tricks = (*state.tricks, (leader, *trick, taker))
    if len(s.tricks) == 8:
        gained += 10
    if team:
        s.points = (state.points[0], state.points[1] + gained)
        s.won = (state.won[0], state.won[1] + 1)
    else:
        s.points = (state.points[0] + gained, state.points[1])
        s.won = (state.won[0] + 1, state.won[1])
    s.trick = ()
    s.win_pos = 0
    s.leader = s.to_act = taker
    if len(s.tricks) == 8:
        _finish_deal(s)
    return s


def _combo_dict(seat: int, combo: Combo, scored: bool) -> Combination:
    return {
        "seat": seat,
        "kind": combo[0],
        "points": combo[1],
        "cards": codes(combo[2]),
        "scored": scored,
    }


def _redeal_result(dealer: int, hanging: int, scores_after: list[int]) -> DealResult:
    """The score-sheet line of an all-pass deal."""
    return {
        "dealer": dealer,
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
        "hanging_after": hanging,
        "card_points": [0, 0],
        "tricks_won": [0, 0],
        "last_ten": None,
        "combinations": [],
        "belots": [],
        "written": [0, 0],
        "hanging_before": hanging,
        "hanging_won": [0, 0],
        "hanging_added": 0,
        "winning_team": None,
        "scores_after": scores_after,
    }


def _finish_deal(s: State) -> None:
    """Score the finished deal (or the all-pass redeal), record it and move on, in place."""
    before = s.hanging
    if s.contract < 0:
        s.results = (*s.results, _redeal_result(s.dealer, before, list(s.scores)))
        if s.cfg.deals and len(s.results) >= s.cfg.deals:
            _end_match(s, _ahead(s.scores))
            return
        _next_deal(s)
        return
    ct = s.contract
    factor = 2 if ct == NT else 1
    card_pts = [s.points[0] * factor, s.points[1] * factor]
    capot = 0 if s.won[0] == 8 else 1 if s.won[1] == 8 else None
    decl, flags = score_declarations(s.plans, s.cfg.pool)
    belot = [0, 0]
    for seat, _suit in s.belots:
        belot[seat & 1] += 20
    raw = [card_pts[t] + decl[t] + belot[t] + (90 if capot == t else 0) for t in (0, 1)]
    dteam = s.declarer & 1
    d_fig, f_fig, hang = _settle(ct, s.mult, raw[dteam], raw[1 - dteam])
    written = [0, 0]
    written[dteam], written[1 - dteam] = d_fig, f_fig
    award = list(written)
    hanging_won = [0, 0]
    if raw[0] == raw[1]:
        deal_winner = None
        s.hanging = before + hang
        outcome: Outcome = "hanging"
    else:
        deal_winner = 0 if raw[0] > raw[1] else 1
        hanging_won[deal_winner] = before
        award[deal_winner] += before
        s.hanging = 0
        outcome = "made" if raw[dteam] > raw[1 - dteam] else "inside"
    s.scores = (s.scores[0] + award[0], s.scores[1] + award[1])
    last = s.tricks[-1]
    result: DealResult = {
        "dealer": s.dealer,
        "contract": CONTRACTS[ct],
        "declarer": s.declarer,
        "multiplier": s.mult,
        "tricks": [[[(t[0] + i) & 3, CARDS[t[1 + i]]] for i in range(4)] for t in s.tricks],
        "declarations": decl,
        "belot": belot,
        "raw": raw,
        "capot": capot,
        "outcome": outcome,
        "award": award,
        "hanging_after": s.hanging,
        "card_points": card_pts,
        "tricks_won": list(s.won),
        "last_ten": last[5] & 1,
        "combinations": [
            _combo_dict(seat, combo, flags[seat][i])
            for seat in range(4)
            for i, combo in enumerate(s.plans[seat])
        ],
        "belots": [{"seat": seat, "suit": SUITS[suit]} for seat, suit in s.belots],
        "written": written,
        "hanging_before": before,
        "hanging_won": hanging_won,
        "hanging_added": hang,
        "winning_team": deal_winner,
        "scores_after": list(s.scores),
    }
    s.results = (*s.results, result)
    sc = s.scores
    if s.cfg.deals:
        if len(s.results) >= s.cfg.deals:
            _end_match(s, _ahead(sc))
            return
    elif (
        capot is None
        and max(sc) >= s.cfg.target
        and sc[0] != sc[1]
        and (s.cfg.finish_with_hanging or s.hanging == 0)
    ):
        _end_match(s, 0 if sc[0] > sc[1] else 1)
        return
    _next_deal(s)


def _ahead(scores: Sequence[int]) -> int | None:
    """The team ahead on ``scores`` (None: level)."""
    return None if scores[0] == scores[1] else 0 if scores[0] > scores[1] else 1


def _end_match(s: State, winner: int | None) -> None:
    """End the match, won by ``winner`` (None: a tie), in place."""
    s.winner = winner
    s.phase = _OVER
    s.to_act = None
    s.hands = (0, 0, 0, 0)
    s.plans = ((), (), (), ())
    s.belot_mask = (0, 0, 0, 0)
    s.belots = ()
    s.quiet = ()
    s.trick = ()
    s.tricks = ()
    s.calls = ()
    s.points = s.won = (0, 0)


def _next_deal(s: State) -> None:
    s.deal_no += 1
    s.dealer = (s.dealer + 1) & 3
    _start_deal(s)


# --------------------------------------------------------------------------------------------
# Results


def phase(state: State) -> Phase:
    """Where the deal stands: ``"auction"``, ``"play"`` (trick play) or ``"over"`` (the match)."""
    return _PHASES[state.phase]


def scores(state: State) -> list[int]:
    """Match totals, ``[team 0, team 1]``."""
    return list(state.scores)


def winner(state: State) -> int | None:
    """The team that won the match, or None while it runs."""
    return state.winner


def result(state: State) -> MatchResult:
    """A finished match's result: the winning team and the match totals."""
    return {"winner": state.winner, "scores": list(state.scores)}


def deal_results(state: State) -> list[DealResult]:
    """Return the score sheet, one line per finished deal; read the lines, never change them."""
    return list(state.results)


# --------------------------------------------------------------------------------------------
# View


def _trick_dict(t: tuple[int, ...]) -> Trick:
    return {
        "leader": t[0],
        "cards": [[(t[0] + i) & 3, CARDS[t[1 + i]]] for i in range(4)],
        "winner": t[5],
    }


def _played_first_card(s: State, seat: int) -> bool:
    return s.phase == _PLAY and bool(s.tricks or seat in _trick_seats(s))


def _trick_seats(s: State) -> list[int]:
    return [(s.leader + i) & 3 for i in range(len(s.trick))]


def view(state: State, seat: int | None) -> BeloteView:
    """Return what ``seat`` may see now; ``seat`` None: a spectator."""
    s = state
    ct = s.contract
    contract_name = CONTRACTS[ct] if ct >= 0 else None
    bid: Bid | None = None
    if contract_name is not None:
        bid = {
            "contract": contract_name,
            "declarer": s.declarer,
            "multiplier": s.mult,
            "team": s.declarer & 1,
        }
    own = s.hands[seat] if seat is not None else 0
    declared: list[Declared] = []
    for p in range(4):
        if _played_first_card(s, p):
            declared.extend({"seat": p, "kind": combo[0]} for combo in s.plans[p])
    return {
        "seat": seat,
        "to_act": s.to_act,
        "phase": _PHASES[s.phase],
        "deal_no": s.deal_no,
        "dealer": s.dealer,
        "hand": sort_hand(codes(own), contract_name) if own else [],
        "legal": legal_actions(s, seat) if seat is not None else [],
        "announce": announcements(s, seat)
        if s.cfg.ask and seat == s.to_act and (not s.tricks or s.belot_mask[seat])
        else [],
        "hand_sizes": [h.bit_count() for h in s.hands],
        "auction": [[p, call] for p, call in s.calls],
        "contract": bid if s.phase != _OVER else None,
        "leader": s.leader if s.phase != _OVER else None,
        "trick": [[p, CARDS[c]] for p, c in zip(_trick_seats(s), s.trick, strict=True)],
        "last_trick": _trick_dict(s.tricks[-1]) if s.tricks else None,
        "tricks": [_trick_dict(t) for t in s.tricks],
        "tricks_won": list(s.won),
        "trick_points": list(s.points),
        "declarations": declared,
        "belots": [{"seat": p, "suit": SUITS[suit]} for p, suit in s.belots],
        "scores": list(s.scores),
        "hanging": s.hanging,
        "target": s.cfg.target,
        "deals": s.cfg.deals,  # 0: the match ends at the target
        "options": {
            "target": s.cfg.target,
            "declarations": "pool" if s.cfg.pool else "separate",
            "finish_with_hanging": s.cfg.finish_with_hanging,
            "announce": "ask" if s.cfg.ask else "auto",
        },
        "deal_results": deal_results(s),
        "winner": s.winner,
    }


# --------------------------------------------------------------------------------------------
# Serialisation


# A finished deal is stored by position, not by key, to keep dumps() text small.
_RESULT_KEYS = (
    "dealer",
    "contract",
    "declarer",
    "multiplier",
    "tricks",
    "declarations",
    "belot",
    "raw",
    "capot",
    "outcome",
    "award",
    "hanging_after",
    "card_points",
    "tricks_won",
    "last_ten",
    "combinations",
    "belots",
    "written",
    "hanging_before",
    "hanging_won",
    "hanging_added",
    "winning_team",
    "scores_after",
)


def _pack_result(r: DealResult) -> list:
    if r["outcome"] == "redeal":
        return [r["dealer"], r["hanging_after"], r["scores_after"]]
    packed = dict(r)
    packed["tricks"] = ["".join(card for _seat, card in t) + str(t[0][0]) for t in r["tricks"]]
    packed["combinations"] = [
        [c["seat"], c["kind"], c["points"], "".join(c["cards"]), int(c["scored"])]
        for c in r["combinations"]
    ]
    packed["belots"] = [[b["seat"], b["suit"]] for b in r["belots"]]
    return [packed[k] for k in _RESULT_KEYS]


def _unpack_result(packed: list) -> DealResult:
    if len(packed) == 3:
        return _redeal_result(*packed)
    r = dict(zip(_RESULT_KEYS, packed, strict=True))
    tricks = []
    for t in r["tricks"]:
        leader = int(t[8])
        tricks.append([[(leader + i) & 3, t[2 * i : 2 * i + 2]] for i in range(4)])
    r["tricks"] = tricks
    r["combinations"] = [
        {
            "seat": seat,
            "kind": kind,
            "points": points,
            "cards": [text[i : i + 2] for i in range(0, len(text), 2)],
            "scored": bool(scored),
        }
        for seat, kind, points, text, scored in r["combinations"]
    ]
    r["belots"] = [{"seat": seat, "suit": suit} for seat, suit in r["belots"]]
    return cast(DealResult, r)


def _cards_text(cards: Sequence[int]) -> str:
    return "".join(CARDS[c] for c in cards)


def _text_cards(text: str) -> tuple[int, ...]:
    return tuple(INDEX[text[i : i + 2]] for i in range(0, len(text), 2))


def dumps(state: State) -> str:
    """The state as compact JSON text; :func:`loads` gives it back exactly."""
    s = state
    cfg = s.cfg
    data = {
        "v": 1,
        "seed": cfg.seed,
        "target": cfg.target,
        "declarations": "pool" if cfg.pool else "separate",
        "finish_with_hanging": cfg.finish_with_hanging,
        "decks": [_cards_text(d) for d in cfg.decks],
        "deal_no": s.deal_no,
        "dealer": s.dealer,
        "scores": list(s.scores),
        "hanging": s.hanging,
        "winner": s.winner,
        "results": [_pack_result(r) for r in s.results],
        "phase": s.phase,
        "to_act": s.to_act,
        "hands": [_cards_text(bits(h)) for h in s.hands],
        "stock": _cards_text(s.stock),
        "calls": [[p, c] for p, c in s.calls],
        "contract": s.contract,
        "declarer": s.declarer,
        "mult": s.mult,
        "passes": s.passes,
        "trick": _cards_text(s.trick),
        "leader": s.leader,
        "win_pos": s.win_pos,
        "tricks": [_cards_text(t[1:5]) + f"{t[0]}{t[5]}" for t in s.tricks],
        "points": list(s.points),
        "won": list(s.won),
        "belots": [[p, suit] for p, suit in s.belots],
    }
    if cfg.ask:
        data["announce"] = "ask"
    if cfg.deals:
        data["deals"] = cfg.deals
    if s.quiet:
        data["quiet"] = [[p, i] for p, i in s.quiet]
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> State:
    """Rebuild a state from :func:`dumps` text."""
    data = json.loads(text)
    if data.get("v") != 1:
        raise ValueError("not a belote state (version 1)")
    cfg = _Config(
        data["seed"],
        data["target"],
        data["declarations"] == "pool",
        data["finish_with_hanging"],
        tuple(_text_cards(d) for d in data["decks"]),
        data.get("announce") == "ask",
        data.get("deals", 0),
    )
    s = State.__new__(State)
    s._legal = None
    s.cfg = cfg
    s.deal_no = data["deal_no"]
    s.dealer = data["dealer"]
    s.scores = tuple(data["scores"])  # type: ignore[assignment]
    s.hanging = data["hanging"]
    s.winner = data["winner"]
    s.results = tuple(_unpack_result(r) for r in data["results"])
    s.phase = data["phase"]
    s.to_act = data["to_act"]
    s.hands = tuple(mask([h[i : i + 2] for i in range(0, len(h), 2)]) for h in data["hands"])  # type: ignore[assignment]
    s.stock = _text_cards(data["stock"])
    s.calls = tuple((p, c) for p, c in data["calls"])
    s.contract = data["contract"]
    s.declarer = data["declarer"]
    s.mult = data["mult"]
    s.passes = data["passes"]
    s.trick = _text_cards(data["trick"])
    s.leader = data["leader"]
    s.win_pos = data["win_pos"]
    s.tricks = tuple((int(t[8]), *_text_cards(t[:8]), int(t[9])) for t in data["tricks"])
    s.points = tuple(data["points"])  # type: ignore[assignment]
    s.won = tuple(data["won"])  # type: ignore[assignment]
    s.belots = tuple((p, suit) for p, suit in data["belots"])
    s.quiet = tuple((p, i) for p, i in data.get("quiet", ()))
    # Declarations and pending belots follow from the hands the players held at the start of
    # play: their current cards plus those they have played.
    if s.phase == _PLAY:
        start = list(s.hands)
        for t in s.tricks:
            for i in range(4):
                start[(t[0] + i) & 3] |= 1 << t[1 + i]
        for i, c in enumerate(s.trick):
            start[(s.leader + i) & 3] |= 1 << c
        s.plans = ((), (), (), ()) if s.contract == NT else tuple(best_plan(h) for h in start)
        if s.quiet:
            s.plans = tuple(
                tuple(c for i, c in enumerate(plan) if (p, i) not in s.quiet)
                for p, plan in enumerate(s.plans)
            )
        eligible = _belot_masks(s.contract, start)
        s.belot_mask = tuple(
            sum(
                0b01100000 << (8 * suit)
                for suit in range(4)
                if eligible[p] >> (8 * suit + 5) & 1 and s.hands[p] >> (8 * suit + 5) & 3 == 3
            )
            for p in range(4)
        )
    else:
        s.plans = ((), (), (), ())
        s.belot_mask = (0, 0, 0, 0)
    return s
