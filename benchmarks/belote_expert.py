"""A candidate for a Belote level above hard: hard's auction, sampled deals solved exactly in play.

The tables do not offer it: it is level with hard by duplicate deals, against frozen hard and
against the 2001 program's AI, and over whole matches against that AI (``docs/benchmarks.md``).
So it lives with the benchmarks, which measure it (``expert``), and it comes back to the
product's bots (``games/bots/``) once it beats hard.

It calls as hard does (:func:`games.bots.belote.choose_hard_call`). Its own valued auction,
:func:`choose_call` (every call tried on sampled deals, each contract valued by a learnt
model), declared far more, went inside twice as often and redoubled every contra against the
2001 program's AI, which won most of those deals: the benchmarks keep it as a candidate
(``benchmarks.belote_bots``' ``expert-bidding``), the tables do not use it.

Card play is perfect-information Monte Carlo: it deals the unseen cards at random, consistently
with everything public (as hard does, :class:`~games.bots.belote.Constraints`), solves each
such deal exactly for every candidate card with the double-dummy solver
(:mod:`games.analysis.belote_solver`), turns each solved margin into the deal's written score
(contract, contra and hanging points included) and plays the card with the best average.
Equal cards go to the one a good partner would play: the fewest points, the lowest.

In the first tricks, while too much is unknown for that, it judges cards by hard's rollouts
for as long as its budget allows, on deals the auction makes likely.

From trick :data:`SOLVE_FROM` on, a decision weighs a fixed number of sampled deals, so the
same view and random numbers give the same choice however loaded the machine; the clock only
guards the budget (at most :data:`BUDGET`). A sampled deal that costs the solver more than
:data:`NODES` positions is dropped.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Sequence

from games.analysis.belote_solver import Position, Solver, TooLong, belot_pairs
from games.bots import belote as bots
from games.engines import belote as engine
from games.engines.belote_cards import (
    CARDS,
    CONTRACT_INDEX,
    CONTRACTS,
    INDEX,
    NT,
    bits,
    mask,
)

from . import belote_values

View = engine.BeloteView

#: Sampled deals a card decision solves at most, and after how many it stops once one card is
#: clearly best.
SOLVE_SAMPLES = 24
MIN_SAMPLES = 12
#: Positions one sampled deal may cost the solver before it is dropped.
NODES = 150_000
#: The first trick (counted from 0) played by solving sampled deals: before it, too much is
#: unknown for deals solved with every card in view, and hard's rollouts judge better.
SOLVE_FROM = 4
#: Samples drawn to find one the auction makes likely, before any will do.
LIKELY_TRIES = 40
#: A deal's card points with the last ten: 162 in a suit (No Trumps doubled).
DEAL_POINTS = {NT: 260, CONTRACT_INDEX["AT"]: 258}

_solvers = threading.local()


def solver_for(contract: int) -> Solver:
    """This thread's solver for ``contract`` (its table is reused from decision to decision)."""
    cache = getattr(_solvers, "by_contract", None)
    if cache is None:
        cache = _solvers.by_contract = {}
    if contract not in cache:
        cache[contract] = Solver(contract)
    return cache[contract]


def position_from(view: View, hands: Sequence[int]) -> Position:
    """The solver's position of the deal in ``view`` with the sampled current ``hands``."""
    won = view["tricks_won"]
    return Position(
        CONTRACT_INDEX[view["contract"]["contract"]],
        tuple(hands),  # type: ignore[arg-type]
        view["leader"],
        tuple(INDEX[code] for _seat, code in view["trick"]),
        (won[0] > 0) | (won[1] > 0) << 1,
    )


def sheet_margin(
    contract: str, multiplier: int, declaring: int, raw: Sequence[float], team: int
) -> float:
    """``team``'s written margin over the other's when the teams' raw totals are ``raw``, and
    a little of the raw one, to break ties."""
    d, f = round(raw[declaring]), round(raw[1 - declaring])
    d_fig, f_fig, _hang = engine.settle(contract, multiplier, d, f)
    written = [0, 0]
    written[declaring], written[1 - declaring] = d_fig, f_fig
    return written[team] - written[1 - team] + 0.02 * (raw[team] - raw[1 - team])


class Scorer:
    """Turns a sampled deal's margin from here on into its score for one team."""

    def __init__(self, view: View) -> None:
        contract = view["contract"]
        self.ct = CONTRACT_INDEX[contract["contract"]]
        self.name = contract["contract"]
        self.multiplier = contract["multiplier"]
        self.declaring = contract["team"]
        self.team = view["seat"] & 1
        self.hanging = view["hanging"]
        self.pool = view["options"]["declarations"] == "pool"
        factor = 2 if self.ct == NT else 1
        cards = [factor * points for points in view["trick_points"]]
        belots = [0, 0]
        for belot in view["belots"]:
            belots[belot["seat"] & 1] += 20
        #: What each team has scored so far (cards with the last ten, belots).
        self.so_far = [cards[t] + belots[t] for t in (0, 1)]
        #: The card points still to win, the last ten included.
        self.left = DEAL_POINTS.get(self.ct, 162) - cards[0] - cards[1]
        self.played = bots.knowledge_from_view(view).played_by

    def declarations(self, hands: Sequence[int]) -> list[int]:
        """Each team's scoring declarations, from the sampled hands as dealt, and (last) the
        points of the belots still to come (a king and queen of trumps held together)."""
        belots = 20 * (belot_pairs(self.ct, hands).bit_count() // 2)
        if self.ct == NT:
            return [0, 0, belots]
        plans = [engine.best_plan(hands[p] | self.played[p]) for p in range(4)]
        return [*engine.score_declarations(plans, self.pool)[0], belots]

    def value(self, margin: int, declared: list[int]) -> float:
        """The deal's written margin for our team (and a little of the raw one, to break ties)
        when team 0's margin from here on is ``margin``.

        The margin fixes the raw totals' difference exactly; the points still to win (with the
        belots still to come) are split by it (a capot's 90, which the margin holds, shifts the
        split). The margin has the parity of the points left, so the split is whole.
        """
        left = self.left + declared[2]
        future = ((left + margin) // 2, (left - margin) // 2)
        raw = [self.so_far[t] + future[t] + declared[t] for t in (0, 1)]
        value = sheet_margin(self.name, self.multiplier, self.declaring, raw, self.team)
        us, them = self.team, 1 - self.team
        if raw[us] > raw[them]:
            value += self.hanging
        elif raw[us] < raw[them]:
            value -= self.hanging
        return value


class Auction:
    """What the auction says of the other players' hands.

    A player is taken to call as :func:`games.bots.belote.choose_call` does on the first five
    cards of their hand. A sampled hand is kept with the probability that a random five of its
    eight cards would have made that player's calls (one random five, kept or not), which is
    what the calls make of a deal dealt at random: exact for opponents who bid that way.
    """

    def __init__(self, view: View) -> None:
        me = view["seat"]
        # Each call's moment, replayed on a stand-in deal: the legal calls and the standing bid.
        state = engine.new_game(0, dealer=view["dealer"])
        self.moments: dict[int, list[tuple[str, dict]]] = {p: [] for p in range(4) if p != me}
        for seat, call in view["auction"]:
            if seat != me:
                standing = engine.view(state, seat)
                self.moments[seat].append(
                    (
                        call,
                        {
                            "seat": seat,
                            "legal": engine.legal_actions(state, seat),
                            "contract": standing["contract"],
                            "auction": standing["auction"],
                        },
                    )
                )
            state = engine.apply(state, seat, call)

    def fits(self, seat: int, first: int) -> bool:
        """Whether ``seat``, holding ``first`` (its first five cards), calls as it did."""
        cards = [CARDS[c] for c in bits(first)]
        for call, moment in self.moments[seat]:
            if bots.choose_call({**moment, "hand": cards}) != call:  # type: ignore[typeddict-item]
                return False
        return True

    def calls_fit(self, first: Sequence[int]) -> bool:
        """Whether each other player, holding ``first[seat]`` (five cards), calls as they did."""
        return all(self.fits(seat, first[seat]) for seat in self.moments)

    def likely(self, rng: random.Random, hands: Sequence[int], played: Sequence[int]) -> bool:
        """Keep this sample? (See the class.)"""
        first = [0, 0, 0, 0]
        for seat in self.moments:
            first[seat] = sum(1 << c for c in rng.sample(bits(hands[seat] | played[seat]), 5))
        return self.calls_fit(first)


def choose_card(
    view: View, rng: random.Random, budget: float = 0.3, samples: int | None = None
) -> str:
    """The expert's card (see the module): hard's rollouts on deals the auction makes likely
    while much is unknown, perfect-information Monte Carlo with the solver from trick
    :data:`SOLVE_FROM` on."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if len(view["tricks"]) < SOLVE_FROM:
        auction = Auction(view)
        k = bots.knowledge_from_view(view)
        # A fixed ``samples`` makes the choice depend on the view and ``rng`` alone.
        deadline = time.perf_counter() + 0.9 * budget if samples is None else math.inf

        def likely(constraints: bots.Constraints, rng: random.Random) -> list[int]:
            """A deal that fits the auction, or once the time is up any deal that fits the play."""
            hands = constraints.sample(rng)
            for _ in range(LIKELY_TRIES):
                if auction.likely(rng, hands, k.played_by) or time.perf_counter() >= deadline:
                    break
                hands = constraints.sample(rng)
            return hands

        return bots.choose_hard(view, rng, budget, samples, likely)
    return solved_card(view, rng, budget, samples)


def solved_card(
    view: View, rng: random.Random, budget: float = 0.3, samples: int | None = None
) -> str:
    """Perfect-information Monte Carlo with the double-dummy solver (see the module):
    :data:`SOLVE_SAMPLES` deals, fewer once one card is clearly best; ``samples`` fixes the
    number of deals, with no early stop (tests)."""
    legal = view["legal"]
    deadline = time.perf_counter() + 0.9 * budget
    k = bots.knowledge_from_view(view)
    me = view["seat"]
    hand = mask(view["hand"])
    cands = bots._distinct(k, hand, bits(mask(legal)))
    if len(cands) == 1:
        return CARDS[cands[0]]
    cons = bots.Constraints(view, k)
    auction = Auction(view)
    scorer = Scorer(view)
    solver = solver_for(scorer.ct)
    totals = dict.fromkeys(cands, 0.0)
    pairs: dict[tuple[int, int], list[float]] = {
        (a, b): [0.0, 0.0] for i, a in enumerate(cands) for b in cands[i + 1 :]
    }
    n = tries = 0
    while tries < 2 * (samples or SOLVE_SAMPLES):
        if samples is None:
            if n >= SOLVE_SAMPLES or time.perf_counter() >= deadline:
                break
            if n >= MIN_SAMPLES and bots.is_clear(cands, totals, pairs, n):
                break
        elif n >= samples:
            break
        tries += 1
        hands = cons.sample(rng)
        for _ in range(LIKELY_TRIES):
            if auction.likely(rng, hands, k.played_by):
                break
            hands = cons.sample(rng)
        position = position_from(view, hands)
        declared = scorer.declarations(hands)
        try:
            margins = {c: solver.value(position, c, NODES) for c in cands}
        except TooLong:
            continue
        values = {c: scorer.value(margins[c], declared) for c in cands}
        bots.tally(totals, pairs, values)
        n += 1
    if not n:  # not one deal solved in time: the normal player's card
        return CARDS[bots.policy_card(k, me, hand, mask(legal))]
    return CARDS[bots.gentlest(scorer.ct, cands, totals, n)]


# --------------------------------------------------------------------------------------------
# The auction: sampled deals valued by the learnt model


#: Sampled deals an expert call weighs.
CALL_SAMPLES = 64
#: A call must beat passing by this much (expected points written on the sheet, our side's
#: less theirs) to be made: the auction goes on after it, which the estimate leaves out.
CALL_MARGIN = {"bid": 1.0, "contra": 2.0, "recontra": 2.0}
_SUITS = "CDHS"


def _deal_for_auction(
    view: View, rng: random.Random, auction: Auction, tries: int = 40
) -> tuple[list[int], list[int]]:
    """The other players' first five cards and everyone's last three, at random, such that the
    others' calls are what :class:`Auction`'s model makes of their five: each player's five
    in turn, drawn again (``tries`` times at most) until they fit."""
    me = view["seat"]
    first = [0, 0, 0, 0]
    first[me] = mask(view["hand"])
    unseen = [c for c in range(32) if not first[me] >> c & 1]
    for seat in sorted(auction.moments, key=lambda p: -len(auction.moments[p])):
        for _ in range(tries):
            five = rng.sample(unseen, 5)
            hand = sum(1 << c for c in five)
            if auction.fits(seat, hand):
                break
        first[seat] = hand
        unseen = [c for c in unseen if not hand >> c & 1]
    rng.shuffle(unseen)
    last = [sum(1 << c for c in unseen[3 * i : 3 * i + 3]) for i in range(4)]
    return first, last


def _margins(hands: Sequence[int], leader: int, rng: random.Random) -> list[float]:
    """Team 0's margin under each contract for a sampled deal as real play makes it: the learnt
    estimate scaled to play, with its uncertainty drawn at random (once per contract: every
    call is judged on the same draw)."""
    out = []
    for ct in range(6):
        slope, _intercept, noise = belote_values.in_play(belote_values.FAMILIES[ct])
        estimate = belote_values.margin(hands, ct, leader)
        out.append(slope * estimate + rng.gauss(0.0, noise))
    return out


def _written(
    ct: int, multiplier: int, declaring: int, margin: float, declared: Sequence[int], team: int
) -> float:
    """Our written margin (and a little of the raw one) when team 0's margin of card points,
    last ten, capot and belots is ``margin`` under ``ct``."""
    total = DEAL_POINTS.get(ct, 162)
    extra = (0, 0) if ct == NT else declared
    raw = [(total + margin) / 2 + extra[0], (total - margin) / 2 + extra[1]]
    return sheet_margin(CONTRACTS[ct], multiplier, declaring, raw, team)


def _auction_end(state: engine.State) -> tuple[int, int, int] | None:
    """Finish the auction with every seat calling as the normal player does: the contract,
    the declaring team and the multiplier (None: all passed)."""
    deal = state.deal_no
    while engine.phase(state) == "auction" and state.deal_no == deal:
        seat = state.to_act
        state = engine.apply(state, seat, bots.choose_call(bots.auction_view(state, seat)))  # type: ignore[arg-type]
    if state.deal_no != deal or state.contract < 0:
        return None
    return state.contract, state.declarer & 1, state.mult


def choose_call(
    view: View, rng: random.Random, budget: float = 0.3, samples: int | None = None
) -> str:
    """The valued call (see the module: not the expert's at the tables). It deals the unseen
    cards many times so that the others' calls fit
    (:class:`Auction`); on each deal it tries every call it may make, lets the auction run on
    as the normal player would call it, and values the contract it ends in with the learnt
    model (declarations exact), on :data:`CALL_SAMPLES` deals (``samples``: as many). It makes
    the call with the best average written score, a call other than pass only when it beats
    passing by :data:`CALL_MARGIN`. A suit is bid only with its jack or nine."""
    legal = view["legal"]
    me, team = view["seat"], view["seat"] & 1
    hand = mask(view["hand"])
    calls = [
        c
        for c in legal
        if c not in CONTRACT_INDEX
        or CONTRACT_INDEX[c] >= NT
        or bots.holds_jack_or_nine(hand, CONTRACT_INDEX[c])
    ]
    if calls == ["pass"]:
        return "pass"
    deadline = time.perf_counter() + 0.9 * budget
    auction = Auction(view)
    leader = (view["dealer"] + 1) % 4
    opts = view["options"]
    totals = dict.fromkeys(calls, 0.0)
    n = 0
    wanted = CALL_SAMPLES if samples is None else samples
    while n < wanted and (samples is not None or not n or time.perf_counter() < deadline):
        first, last = _deal_for_auction(view, rng, auction)
        hands = [first[p] | last[p] for p in range(4)]
        declared = engine.score_declarations(
            [engine.best_plan(h) for h in hands], opts["declarations"] == "pool"
        )[0]
        margins = _margins(hands, leader, rng)
        state = bots.stacked_state(view, first, last)
        for call in calls:
            end = _auction_end(engine.apply(state, me, call))
            if end is not None:
                ct, declaring, multiplier = end
                totals[call] += _written(ct, multiplier, declaring, margins[ct], declared, team)
        n += 1
    if not n:
        return bots.choose_call(view)

    def merit(call: str) -> float:
        if call == "pass":
            return totals[call] / n
        return totals[call] / n - CALL_MARGIN["bid" if call in CONTRACT_INDEX else call]

    return max(calls, key=merit)


#: The longest the expert thinks, whatever budget a table allows: it answers within 200 ms
#: also on a loaded machine (the sampled deals it weighs are fixed; the clock cuts them short).
BUDGET = 0.2


def choose_expert(view: View, rng: random.Random, budget: float = BUDGET) -> str:
    """The expert: hard's calls, sampled deals solved exactly in play."""
    budget = min(budget, BUDGET)
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if view["phase"] != "play":
        return bots.choose_hard_call(view, rng, budget)
    return choose_card(view, rng, budget)
