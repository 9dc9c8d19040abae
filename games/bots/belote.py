"""Belote computer players: easy (random), normal (heuristics), hard (determinized Monte Carlo).

Every bot is ``choose(view, rng, budget) -> action`` and sees only ``belote.view(state, seat)``.

- **easy** plays a uniformly random legal action.
- **normal** values its five auction cards per contract (trumps, jacks and nines, aces and tens,
  length, belot; the partner's and the opponents' calls) and plays by card-counting rules: the
  declaring side draws trumps, masters are cashed, points go to a partner whose trick is safe,
  nothing of value goes on a lost trick, suits an opponent can ruff are not led.
- **hard** calls naturally (a suit with its jack, or its nine beside its ace or ten; No Trumps
  with an ace; All Trumps with a jack) after trying its calls on sampled deals: normal's own
  call, pass and every natural contract its hand nearly supports, each followed by the rest of
  the auction as normal would call it and the deal played out by normal's card play; it makes
  another call than normal's only when that wrote clearly more, a double or redouble only when
  that wrote more by a wide margin. In play it deals the unseen cards at random, consistently with
  everything public (voids and "no higher trump" inferred from the legal-card rules, declared
  kinds, belots announced or not, hand sizes), and rebuilds an engine state for each such deal
  by replaying this deal's public actions. With five tricks or fewer left it solves each deal
  exactly for every candidate card (double-dummy, :mod:`games.bots.belote_endgame`); before
  that it plays every candidate out with the normal policy at all four seats until five tricks
  are left and solves the rest exactly, rolling out only the three best candidates after the
  first few deals. It plays the card with the best average deal score (of cards within a hair
  of it, the one that gives away least; before the ending, never a card worth points on a trick
  surely lost while a cheaper one of its suit loses it as well, nor an ace or a ten, a trump
  jack or nine, that does not clearly beat a lower card of its suit on the sampled deals, by a
  margin and by the deals' spread). It samples until its time
  budget runs out, or earlier once the best card is clearly ahead or the candidates tie on
  every sampled deal.

Cards are ints and sets of cards masks, read with the engine's own tables
(:mod:`games.engines.belote_cards`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TypedDict

from games.engines import belote as engine
from games.engines.belote_cards import (
    ALL,
    AT,
    CARDS,
    CONTRACT_INDEX,
    CONTRACTS,
    HIGHER,
    INDEX,
    NT,
    POINTS,
    R7,
    R8,
    R9,
    RA,
    RJ,
    RK,
    RQ,
    RT,
    STRENGTH,
    SUIT_MASK,
    TRUMP_MASK,
    beats,
    bits,
    is_trump,
    mask,
)

from . import Bot
from .belote_endgame import EXACT_TRICKS, TooLong, tail_value

View = engine.BeloteView


# --------------------------------------------------------------------------------------------
# Public knowledge of a deal in play


class Knowledge:
    """What every player knows about the deal in play: cards gone and what each seat can't hold.

    ``forbid[p]`` collects the cards seat ``p`` cannot hold, inferred from the legal-card rules
    (a failure to follow, to trump or to go higher). :meth:`observe` takes one card play.
    """

    __slots__ = (
        "ct",
        "declarer",
        "dteam",
        "forbid",
        "gone",
        "kq_silent",
        "ntricks",
        "played_by",
        "trick",
        "win",
    )

    def __init__(self, ct: int, declarer: int) -> None:
        self.ct = ct
        self.declarer = declarer
        self.dteam = declarer & 1
        self.gone = 0  # every card played this deal, the current trick included
        self.forbid = [0, 0, 0, 0]
        self.played_by = [0, 0, 0, 0]
        self.trick: list[tuple[int, int]] = []
        self.win = 0  # index in trick of the card winning it
        self.ntricks = 0
        # (seat, other card) for a first K/Q of a trump suit played where belot would be
        # announced: if no belot shows up, that seat never held the other card.
        self.kq_silent: list[tuple[int, int, int]] = []

    def copy(self) -> Knowledge:
        """An independent copy (for rollouts)."""
        k = Knowledge.__new__(Knowledge)
        k.ct = self.ct
        k.declarer = self.declarer
        k.dteam = self.dteam
        k.gone = self.gone
        k.forbid = list(self.forbid)
        k.played_by = list(self.played_by)
        k.trick = list(self.trick)
        k.win = self.win
        k.ntricks = self.ntricks
        k.kq_silent = self.kq_silent
        return k

    def observe(self, seat: int, card: int) -> None:
        """Record that ``seat`` played ``card`` on the current trick."""
        ct = self.ct
        trick = self.trick
        tmask = TRUMP_MASK[ct]
        if ct != NT and card & 7 in (RK, RQ) and tmask >> card & 1:
            suit_kq = 0b01100000 << (card & ~7)
            if not self.played_by[seat] & suit_kq:
                qualifies = not trick or card >> 3 == trick[0][1] >> 3 or ct < NT
                if qualifies:
                    other = (suit_kq & ~(1 << card)).bit_length() - 1
                    self.kq_silent = [*self.kq_silent, (seat, card >> 3, other)]
        if trick:
            lead = trick[0][1]
            suit = lead >> 3
            best_seat, best = trick[self.win]
            if card >> 3 != suit:
                self.forbid[seat] |= SUIT_MASK[suit]
                if ct < NT and best_seat != seat ^ 2:
                    # An opponent was winning: he had to trump, and over a trump to go higher.
                    if tmask >> best & 1:
                        if not beats(ct, card, best):
                            self.forbid[seat] |= HIGHER[ct][best]
                    elif not tmask >> card & 1:
                        self.forbid[seat] |= tmask
            elif tmask >> lead & 1 and not beats(ct, card, best):
                # Trumps led: he had to go higher if he could.
                self.forbid[seat] |= HIGHER[ct][best]
            if beats(ct, card, best):
                self.win = len(trick)
        self.gone |= 1 << card
        self.played_by[seat] |= 1 << card
        trick.append((seat, card))
        if len(trick) == 4:
            self.trick = []
            self.win = 0
            self.ntricks += 1

    @property
    def winner_seat(self) -> int:
        """Seat winning the current trick (only while it is not empty)."""
        return self.trick[self.win][0]


def knowledge_from_view(view: View) -> Knowledge:
    """Replay the public card plays of the deal in ``view``."""
    c = view["contract"]
    k = Knowledge(CONTRACT_INDEX[c["contract"]], c["declarer"])
    for t in view["tricks"]:
        for seat, code in t["cards"]:
            k.observe(seat, INDEX[code])
    for seat, code in view["trick"]:
        k.observe(seat, INDEX[code])
    return k


# --------------------------------------------------------------------------------------------
# Normal: card play


def _master(ct: int, card: int, outside: int) -> bool:
    """No card outside our knowledge beats ``card`` in its suit."""
    return not HIGHER[ct][card] & outside


def _can_beat(k: Knowledge, p: int, best: int, suit: int, outside: int) -> bool:
    """Whether seat ``p``, still to play, may hold a card that takes the trick from ``best``."""
    ct = k.ct
    avail = outside & ~k.forbid[p]
    in_suit = avail & SUIT_MASK[suit]
    if in_suit:
        if best >> 3 == suit and in_suit & HIGHER[ct][best]:
            return True
        # With several cards of the suit still out he most likely follows.
        if (outside & SUIT_MASK[suit]).bit_count() >= 3:
            return False
    if ct >= NT or suit == ct:
        return False
    trumps = avail & TRUMP_MASK[ct]
    if not trumps:
        return False
    if TRUMP_MASK[ct] >> best & 1:
        return bool(trumps & HIGHER[ct][best])
    return True


def _belot_break(k: Knowledge, card: int, hand: int) -> bool:
    """Playing ``card`` now would spend a K/Q of a belot pair without announcing it."""
    ct = k.ct
    if ct != AT or card & 7 not in (RK, RQ):
        return False
    kq = 0b01100000 << (card & ~7)
    return hand & kq == kq and bool(k.trick) and k.trick[0][1] >> 3 != card >> 3


def _discard_cost(k: Knowledge, card: int, hand: int, outside: int) -> float:
    """How much it hurts to throw ``card`` on a trick we don't win (lower is better)."""
    ct = k.ct
    cost = POINTS[ct][card] + 0.1 * STRENGTH[ct][card]
    if ct < NT and is_trump(ct, card):
        cost += 12 + STRENGTH[ct][card]
    if _master(ct, card, outside):
        cost += 8
    if _belot_break(k, card, hand):
        cost += 25
    if ct < NT and not is_trump(ct, card) and (hand & SUIT_MASK[card >> 3]).bit_count() == 1:
        cost -= 1  # makes a void
    return cost


def _give_value(k: Knowledge, card: int, hand: int, outside: int) -> float:
    """How good it is to put ``card`` on a trick the partner surely wins (higher is better)."""
    ct = k.ct
    if ct < NT and is_trump(ct, card):
        return -30 - STRENGTH[ct][card]
    value = POINTS[ct][card] - 0.1 * STRENGTH[ct][card]
    if _master(ct, card, outside) and (outside & SUIT_MASK[card >> 3]):
        value -= 8  # it could win a trick of its own
    if _belot_break(k, card, hand):
        value -= 25
    return value


def _win_key(k: Knowledge, card: int) -> tuple[int, int]:
    """Among winning cards: plain cards carrying most points, else the lowest trump."""
    ct = k.ct
    if is_trump(ct, card):
        return (0, -STRENGTH[ct][card])
    return (1, POINTS[ct][card])


def _follow(k: Knowledge, seat: int, hand: int, cards: list[int], outside: int) -> int:
    ct = k.ct
    trick = k.trick
    suit = trick[0][1] >> 3
    best_seat, best = trick[k.win]
    after = [(seat + i) & 3 for i in range(1, 4 - len(trick))]
    opps_after = [p for p in after if (p ^ seat) & 1]
    partner_wins = best_seat == seat ^ 2
    if partner_wins and not any(_can_beat(k, p, best, suit, outside) for p in opps_after):
        return max(cards, key=lambda c: _give_value(k, c, hand, outside))
    winners = [c for c in cards if beats(ct, c, best)]
    if winners:
        sure = [
            c for c in winners if not any(_can_beat(k, p, c, suit, outside) for p in opps_after)
        ]
        if sure:
            return max(sure, key=lambda c: _win_key(k, c))
        points = sum(POINTS[ct][c] for _p, c in trick)
        if not partner_wins and (seat ^ 2) not in after and (points >= 10 or k.ntricks == 7):
            return max(winners, key=lambda c: STRENGTH[ct][c])
    return min(cards, key=lambda c: _discard_cost(k, c, hand, outside))


def _lead_cost(k: Knowledge, seat: int, card: int, hand: int, outside: int) -> float:
    """How bad a lead ``card`` is when there is no master worth cashing (lower is better)."""
    ct = k.ct
    suit = card >> 3
    declaring = (seat & 1) == k.dteam
    cost = POINTS[ct][card] + 0.2 * STRENGTH[ct][card]
    if ct < NT:
        trumps_out = outside & TRUMP_MASK[ct]
        if suit == ct:
            cost += 6 if declaring else 20
        else:
            for p in (seat ^ 1, seat ^ 3):
                if k.forbid[p] & SUIT_MASK[suit] == SUIT_MASK[suit] and trumps_out & ~k.forbid[p]:
                    cost += 25  # he ruffs it
            p = seat ^ 2
            if (
                k.forbid[p] & SUIT_MASK[suit] == SUIT_MASK[suit]
                and trumps_out & ~k.forbid[p]
                and not declaring
            ):
                cost -= 5  # partner ruffs
    if card & 7 == RT and not is_trump(ct, card) and outside >> (card | 7) & 1:
        cost += 10  # a ten whose ace is still out
    if ct == AT and card & 7 == R9 and outside >> (card & ~7 | RJ) & 1:
        cost += 10  # a nine whose jack is still out
    if ct == NT:
        cost -= 0.5 * (hand & SUIT_MASK[suit]).bit_count()  # lead from length
    return cost


def _lead(k: Knowledge, seat: int, hand: int, cards: list[int], outside: int) -> int:
    ct = k.ct
    declaring = (seat & 1) == k.dteam
    opps = (seat ^ 1, seat ^ 3)
    if ct < NT:
        tmask = TRUMP_MASK[ct]
        mine = [c for c in cards if tmask >> c & 1]
        opp_trumps = any(outside & tmask & ~k.forbid[p] for p in opps)
        if declaring and mine and opp_trumps:
            top = max(mine, key=lambda c: STRENGTH[ct][c])
            if _master(ct, top, outside):
                return top
            if k.declarer == seat ^ 2 or len(mine) >= 3:
                return min(mine, key=lambda c: STRENGTH[ct][c])
        masters = []
        for c in cards:
            if tmask >> c & 1 or not _master(ct, c, outside):
                continue
            suit_mask = SUIT_MASK[c >> 3]
            ruffed = any(
                k.forbid[p] & suit_mask == suit_mask and outside & tmask & ~k.forbid[p]
                for p in opps
            )
            # Many cards of the suit already gone: someone is probably void.
            thin = opp_trumps and (outside & suit_mask).bit_count() <= 1 and not declaring
            if not ruffed and not thin:
                masters.append(c)
        if masters:
            return max(masters, key=lambda c: POINTS[ct][c])
    else:
        masters = [c for c in cards if _master(ct, c, outside) and outside & SUIT_MASK[c >> 3]]
        if masters:
            return max(masters, key=lambda c: (POINTS[ct][c], STRENGTH[ct][c]))
    return min(cards, key=lambda c: _lead_cost(k, seat, c, hand, outside))


def policy_card(k: Knowledge, seat: int, hand: int, legal: int) -> int:
    """Normal's card for ``seat`` holding ``hand`` (mask) with ``legal`` cards (mask)."""
    cards = bits(legal)
    if len(cards) == 1:
        return cards[0]
    outside = ALL & ~(hand | k.gone)
    if not k.trick:
        return _lead(k, seat, hand, cards, outside)
    return _follow(k, seat, hand, cards, outside)


# --------------------------------------------------------------------------------------------
# Normal: auction

# A contract is bid when its valuation reaches this threshold (five-card hands).
BID_THRESHOLD = {0: 5.0, 1: 5.0, 2: 5.0, 3: 5.0, NT: 6.0, AT: 8.0}


def _suit_ranks(hand: int, suit: int) -> int:
    return hand >> (8 * suit) & 0xFF


def holds_jack_or_nine(hand: int, suit: int) -> bool:
    """Whether ``hand`` holds the jack or the nine of ``suit``: a suit is bid only then (a
    partner counts on one of them)."""
    return bool(_suit_ranks(hand, suit) & (1 << RJ | 1 << R9))


def natural_contract(hand: int, ct: int) -> bool:
    """Whether bidding contract ``ct`` with ``hand`` says what a person reads into it: a suit
    with its jack, or its nine beside its ace or ten; No Trumps with an ace; All Trumps with a
    jack."""
    if ct == NT:
        return bool(hand & (0x01010101 << RA))
    if ct == AT:
        return bool(hand & (0x01010101 << RJ))
    r = _suit_ranks(hand, ct)
    return bool(r >> RJ & 1 or (r >> R9 & 1 and r & (1 << RA | 1 << RT)))


def _value_suit(hand: int, trump: int) -> float:
    """Strength of ``hand`` for a suit contract in ``trump``."""
    t = _suit_ranks(hand, trump)
    n = t.bit_count()
    v = 0.0
    if t >> RJ & 1:
        v += 3.0
    if t >> R9 & 1:
        v += 2.0 if (t >> RJ & 1 or n >= 3) else 1.5
    v += 1.0 * (t >> RA & 1) + 1.0 * (t >> RT & 1)
    v += 0.5 * ((t >> RK & 1) + (t >> RQ & 1) + (t >> R8 & 1) + (t >> R7 & 1))
    if t >> RK & 1 and t >> RQ & 1:
        v += 1.0
    v += 0.5 * max(0, n - 2)
    for s in range(4):
        if s == trump:
            continue
        r = _suit_ranks(hand, s)
        if r >> RA & 1:
            v += 1.0
            if r >> RT & 1:
                v += 0.7
        elif r >> RT & 1 and r.bit_count() >= 2:
            v += 0.3
    if n == 0 or not t & (1 << RJ | 1 << R9):
        v -= 2.0
    return v


def _value_nt(hand: int) -> float:
    """Strength of ``hand`` for No Trumps."""
    v = 0.0
    for s in range(4):
        r = _suit_ranks(hand, s)
        if r >> RA & 1:
            v += 2.0
            if r >> RT & 1:
                v += 1.5
                if r >> RK & 1:
                    v += 0.5
        elif r >> RT & 1 and r.bit_count() >= 2:
            v += 0.5
    return v


def _value_at(hand: int) -> float:
    """Strength of ``hand`` for All Trumps."""
    v = 0.0
    for s in range(4):
        r = _suit_ranks(hand, s)
        if r >> RJ & 1:
            v += 3.0
            if r >> R9 & 1:
                v += 2.0
            if r >> RA & 1:
                v += 0.5
        elif r >> R9 & 1:
            v += 1.0 if r.bit_count() >= 2 else 0.5
        if r >> RK & 1 and r >> RQ & 1:
            v += 0.7
    return v


def contract_values(hand: int) -> list[float]:
    """Valuation of ``hand`` for each contract C D H S NT AT, minus its bid threshold."""
    vals = [_value_suit(hand, s) for s in range(4)]
    vals += [_value_nt(hand), _value_at(hand)]
    return [v - BID_THRESHOLD[ct] for ct, v in enumerate(vals)]


def _defence_value(hand: int, ct: int) -> float:
    """How well ``hand`` defends against contract ``ct`` (for contra)."""
    v = 0.0
    for s in range(4):
        r = _suit_ranks(hand, s)
        trump = ct == AT or s == ct
        if trump:
            v += 3.0 * (r >> RJ & 1) + (2.0 if r >> R9 & 1 and r.bit_count() >= 2 else 0.0)
            v += 1.0 * (r >> RA & 1) + 0.5 * (r >> RT & 1)
        else:
            v += 1.5 * (r >> RA & 1) + (0.8 if r >> RT & 1 and r >> RA & 1 else 0.0)
    return v


CONTRA_THRESHOLD = {0: 7.0, 1: 7.0, 2: 7.0, 3: 7.0, NT: 7.5, AT: 9.0}


def choose_call(view: View) -> str:
    """Normal's auction call: bid the best contract the hand supports, contra when strong."""
    legal = view["legal"]
    seat = view["seat"]
    hand = mask(view["hand"])
    margins = contract_values(hand)
    standing = view["contract"]
    partner_bids = {
        CONTRACT_INDEX[c] for p, c in view["auction"] if p == seat ^ 2 and c in CONTRACT_INDEX
    }
    if partner_bids & {0, 1, 2, 3}:
        margins[AT] += 1.5  # partner's suit bid suggests a jack
    options = [
        ct
        for ct in (CONTRACT_INDEX[c] for c in legal if c in CONTRACT_INDEX)
        if ct >= NT or holds_jack_or_nine(hand, ct)
    ]
    if standing is None:
        best = max(options, key=lambda ct: margins[ct], default=None)
        if best is not None and margins[best] >= 0:
            return CONTRACTS[best]
        return "pass"
    current = CONTRACT_INDEX[standing["contract"]]
    ours = standing["team"] == (seat & 1)
    if ours:
        own_margin = margins[current] if current < NT else margins[current] + 1.0
        if "recontra" in legal and own_margin >= 2.0:
            return "recontra"
        if standing["declarer"] == seat ^ 2 and options:
            # Overbid the partner only with a clearly better hand of our own.
            support = current < NT and _suit_ranks(hand, current) & (1 << RJ | 1 << R9)
            for ct in sorted(options, key=lambda c: -margins[c]):
                need = 1.0 if ct >= NT and support else 3.0
                if margins[ct] >= need:
                    return CONTRACTS[ct]
        return "pass"
    if "contra" in legal and _defence_value(hand, current) >= CONTRA_THRESHOLD[current]:
        return "contra"
    best = max(options, key=lambda ct: margins[ct], default=None)
    if best is not None and margins[best] >= 0.5:
        return CONTRACTS[best]
    return "pass"


# --------------------------------------------------------------------------------------------
# The bots


def choose_easy(view: View, rng: random.Random, budget: float = 0.3) -> str:
    """A uniformly random legal action."""
    return rng.choice(view["legal"])


def choose_normal(view: View, rng: random.Random, budget: float = 0.3) -> str:
    """Heuristic bidding and card play (deterministic, well under a millisecond)."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if view["phase"] != "play":
        return choose_call(view)
    k = knowledge_from_view(view)
    card = policy_card(k, view["seat"], mask(view["hand"]), mask(legal))
    return CARDS[card]


# --------------------------------------------------------------------------------------------
# Hard: sampling the unseen cards


class Constraints:
    """Everything public that limits how the unseen cards may lie, from one seat's view."""

    def __init__(self, view: View, k: Knowledge) -> None:
        me = view["seat"]
        self.me = me
        self.k = k
        self.hand = mask(view["hand"])
        self.unseen = ALL & ~(self.hand | k.gone)
        self.others = [p for p in range(4) if p != me]
        self.need = list(view["hand_sizes"])
        self.forbid = list(k.forbid)
        self.forced = [0, 0, 0, 0]
        announced = {(b["seat"], "CDHS".index(b["suit"])) for b in view["belots"]}
        for seat, suit in announced:
            other = 0b01100000 << (8 * suit) & ~k.played_by[seat]
            self.forced[seat] |= other & self.unseen
        for seat, suit, other in k.kq_silent:
            if (seat, suit) not in announced:
                self.forbid[seat] |= 1 << other
        for p in self.others:
            self.forbid[p] &= ~self.forced[p]
        # Declared kinds of the seats that have played a card (None: nothing known yet).
        self.kinds: list[list[str] | None] = [None] * 4
        if k.ct != NT:
            for p in self.others:
                if k.played_by[p]:
                    self.kinds[p] = sorted(
                        d["kind"] for d in view["declarations"] if d["seat"] == p
                    )

    def _fill(self, rng: random.Random, forced: list[int], forbid: list[int]) -> list[int] | None:
        """Deal the unforced unseen cards to the other seats within ``forbid``; None if stuck."""
        hands = list(forced)
        cap = [self.need[p] - forced[p].bit_count() for p in range(4)]
        if any(cap[p] < 0 for p in self.others):
            return None
        rest = bits(self.unseen & ~(forced[0] | forced[1] | forced[2] | forced[3]))
        rng.shuffle(rest)
        allowed = {c: [p for p in self.others if not forbid[p] >> c & 1] for c in rest}
        rest.sort(key=lambda c: len(allowed[c]))
        for c in rest:
            seats = [p for p in allowed[c] if cap[p] > 0]
            if not seats:
                return None
            total = sum(cap[p] for p in seats)
            x = rng.randrange(total)
            for p in seats:
                x -= cap[p]
                if x < 0:
                    break
            hands[p] |= 1 << c
            cap[p] -= 1
        hands[self.me] = self.hand
        return hands

    def _place_declarations(self, rng: random.Random, forced: list[int]) -> bool:
        """Force into each declaring seat the cards of one random placement of its kinds."""
        for p in self.others:
            kinds = self.kinds[p]
            if not kinds:
                continue
            used = 0
            for kind in kinds:
                taken = forced[p ^ 1] | forced[p ^ 2] | forced[p ^ 3] | used
                pool = (self.k.played_by[p] | self.unseen & ~self.forbid[p]) & ~taken
                if kind == "carre":
                    quads = (0x01010101 << r for r in range(R9, 8))
                    options = [m for m in quads if pool & m == m]
                else:
                    length = {"tierce": 3, "quarte": 4}.get(kind, 5)
                    runs = (
                        ((1 << length) - 1) << (8 * s + r)
                        for s in range(4)
                        for r in range(9 - length)
                    )
                    options = [m for m in runs if pool & m == m]
                if not options:
                    return False
                chosen = rng.choice(options)
                used |= chosen
                forced[p] |= chosen & self.unseen
        return True

    def _consistent(self, hands: list[int]) -> bool:
        for p in self.others:
            kinds = self.kinds[p]
            if kinds is None:
                continue
            start = hands[p] | self.k.played_by[p]
            # The engine's own declaration finder, so the kinds match it exactly.
            if sorted(combo[0] for combo in engine.best_plan(start)) != kinds:
                return False
        return True

    def sample(self, rng: random.Random, tries: int = 100) -> list[int]:
        """Four hands (masks) consistent with the view; constraints relax if none is found."""
        for _ in range(tries):
            forced = list(self.forced)
            if not self._place_declarations(rng, forced):
                continue
            hands = self._fill(rng, forced, self.forbid)
            if hands is not None and self._consistent(hands):
                return hands
        for _ in range(tries):
            hands = self._fill(rng, self.forced, self.forbid)
            if hands is not None:
                return hands
        while True:
            hands = self._fill(rng, [0, 0, 0, 0], [0, 0, 0, 0])
            if hands is not None:
                return hands


def build_state(view: View, hands: Sequence[int]) -> engine.State:
    """An engine state of this deal with the given current hands, replaying the public actions."""
    k_played = [0, 0, 0, 0]
    for t in view["tricks"]:
        for seat, code in t["cards"]:
            k_played[seat] |= 1 << INDEX[code]
    for seat, code in view["trick"]:
        k_played[seat] |= 1 << INDEX[code]
    dealer = view["dealer"]
    deck: list[str] = [""] * 32
    for i in range(4):
        seat = (dealer + 1 + i) & 3
        cards = [CARDS[c] for c in bits(hands[seat] | k_played[seat])]
        deck[3 * i : 3 * i + 3] = cards[0:3]
        deck[12 + 2 * i : 14 + 2 * i] = cards[3:5]
        deck[20 + 3 * i : 23 + 3 * i] = cards[5:8]
    opts = view["options"]
    state = engine.new_game(
        0,
        dealer=dealer,
        decks=[deck],
        target=opts["target"],
        declarations=opts["declarations"],
        finish_with_hanging=opts["finish_with_hanging"],
    )
    for seat, call in view["auction"]:
        state = engine.apply(state, seat, call)
    for t in view["tricks"]:
        for seat, code in t["cards"]:
            state = engine.apply(state, seat, code)
    for seat, code in view["trick"]:
        state = engine.apply(state, seat, code)
    return state


# --------------------------------------------------------------------------------------------
# Hard: auction

#: Contracts hard tries beside normal's call: those valued at most this far below normal's
#: threshold (:data:`BID_THRESHOLD`).
TRY_BELOW = 2.0
#: Attempts at the others' five cards that fit their suit bids, before hard calls as normal.
FIT_TRIES = 50
#: Written points a deal by which a double or redouble must beat hard's best bid or pass on
#: sampled deals: doubled deals swing widely, and a person reads a double as a strong hand.
DOUBLE_MARGIN = 2.0
#: How far below normal's doubling threshold (:data:`CONTRA_THRESHOLD`) the hand of a player
#: who doubled may be valued on hard's sampled deals: a double says the doubler defends well.
DOUBLER_BELOW = 3.0
DOUBLES = ("contra", "recontra")


def auction_view(state: engine.State, seat: int) -> dict:
    """What :func:`choose_call` reads of ``seat``'s view, cheaply."""
    contract = None
    if state.contract >= 0:
        contract = {
            "contract": CONTRACTS[state.contract],
            "declarer": state.declarer,
            "multiplier": state.mult,
            "team": state.declarer & 1,
        }
    return {
        "seat": seat,
        "legal": engine.legal_actions(state, seat),
        "hand": [CARDS[c] for c in bits(state.hands[seat])],
        "contract": contract,
        "auction": [[p, call] for p, call in state.calls],
    }


def stacked_state(view: View, first: Sequence[int], last: Sequence[int]) -> engine.State:
    """The auction in ``view`` on a deal where each seat's five cards are ``first`` and the
    three it gets after the auction ``last`` (an engine state on a stacked deck)."""
    dealer = view["dealer"]
    deck = [""] * 32
    for i in range(4):
        seat = (dealer + 1 + i) & 3
        cards = [CARDS[c] for c in bits(first[seat])]
        deck[3 * i : 3 * i + 3] = cards[0:3]
        deck[12 + 2 * i : 14 + 2 * i] = cards[3:5]
        deck[20 + 3 * i : 23 + 3 * i] = [CARDS[c] for c in bits(last[seat])]
    opts = view["options"]
    state = engine.new_game(
        0,
        dealer=dealer,
        decks=[deck],
        target=opts["target"],
        declarations=opts["declarations"],
        finish_with_hanging=opts["finish_with_hanging"],
    )
    for seat, call in view["auction"]:
        state = engine.apply(state, seat, call)
    return state


def auction_deal(
    view: View, rng: random.Random, strict: bool = False
) -> tuple[list[int], list[int]] | None:
    """The other players' five cards and everyone's last three, at random, each player who bid
    a suit holding its jack or nine (as normal bids) and each who doubled a hand that defends
    nearly as normal doubles (:data:`DOUBLER_BELOW`), unless no such deal turns up (``strict``:
    then None); None if none fits the suit bids."""
    me = view["seat"]
    hand = mask(view["hand"])
    suits: dict[int, set[int]] = {}
    doubled: dict[int, int] = {}
    standing = -1
    for seat, call in view["auction"]:
        if call in CONTRACT_INDEX:
            standing = CONTRACT_INDEX[call]
        if seat == me:
            continue
        if call == "contra":
            doubled[seat] = standing
        elif call in CONTRACT_INDEX and CONTRACT_INDEX[call] < NT:
            suits.setdefault(seat, set()).add(CONTRACT_INDEX[call])
    others = [p for p in range(4) if p != me]
    unseen = bits(ALL & ~hand)
    # A double the cards cannot explain by defence (one made on the score) says nothing.
    for read in (doubled, {}) if doubled and not strict else (doubled,):
        for _ in range(FIT_TRIES):
            rng.shuffle(unseen)
            first = [0, 0, 0, 0]
            first[me] = hand
            for i, seat in enumerate(others):
                first[seat] = sum(1 << c for c in unseen[5 * i : 5 * i + 5])
            if all(holds_jack_or_nine(first[p], s) for p in suits for s in suits[p]) and all(
                _defence_value(first[p], ct) >= CONTRA_THRESHOLD[ct] - DOUBLER_BELOW
                for p, ct in read.items()
            ):
                rest = unseen[15:]
                last = [sum(1 << c for c in rest[3 * i : 3 * i + 3]) for i in range(4)]
                return first, last
    return None


def play_out(state: engine.State, deal: int, team: int, hang: int) -> float:
    """Finish deal ``deal``'s auction with normal's calls and the deal with normal's card
    play: the deal's value for ``team`` as :func:`rollout` counts it (nothing if all pass)."""
    while state.deal_no == deal and engine.phase(state) == "auction":
        seat = state.to_act
        legal = engine.legal_actions(state, seat)
        call = legal[0] if len(legal) == 1 else choose_call(auction_view(state, seat))  # type: ignore[arg-type]
        state = engine.apply(state, seat, call)
    if state.deal_no != deal or engine.phase(state) != "play":
        return 0.0  # thrown in
    seat = state.to_act
    k = Knowledge(state.contract, state.declarer)
    hands = list(state.hands)
    card = policy_card(k, seat, hands[seat], mask(engine.legal_actions(state, seat)))
    return rollout(state, k, hands, seat, card, team, hang)


def choose_hard_call(
    view: View, rng: random.Random, budget: float = 0.3, samples: int | None = None
) -> str:
    """Hard's call: a natural one (:func:`natural_contract`), normal's unless another call
    writes clearly more on sampled deals.

    The candidates are pass, normal's call when natural, the natural contracts within
    :data:`TRY_BELOW` of normal's threshold, a double when normal would double, and a redouble
    whenever one is allowed and the doubler can hold a defending hand. Each sampled deal
    (:func:`auction_deal`) plays every candidate out (:func:`play_out`); sampling stops as
    :func:`choose_hard` does, or after ``samples`` deals. The usual call is normal's if
    natural and no double, else pass; another bid replaces it only when its mean is more than
    :data:`NEAR_TIE` above, and a double or redouble only when it is more than
    :data:`DOUBLE_MARGIN` above the bid so chosen.
    """
    legal = view["legal"]
    me = view["seat"]
    normal = choose_call(view)
    hand = mask(view["hand"])
    margins = contract_values(hand)
    natural = normal not in CONTRACT_INDEX or natural_contract(hand, CONTRACT_INDEX[normal])
    usual = normal if natural and normal not in DOUBLES else "pass"
    cands = {usual, "pass"}
    for call in legal:
        ct = CONTRACT_INDEX.get(call)
        if ct is not None and margins[ct] >= -TRY_BELOW and natural_contract(hand, ct):
            cands.add(call)
    if normal in DOUBLES:
        cands.add(normal)
    # Redouble only a double the cards explain: one made on the score may hide anything.
    if "recontra" in legal and any(auction_deal(view, rng, strict=True) for _ in range(4)):
        cands.add("recontra")
    calls = sorted(cands)
    if len(calls) == 1:
        return usual
    deadline = time.perf_counter() + 0.9 * max(0.0, min(budget, BUDGET))
    totals = dict.fromkeys(calls, 0.0)
    pairs: dict[tuple[str, str], list[float]] = {
        (a, b): [0.0, 0.0] for i, a in enumerate(calls) for b in calls[i + 1 :]
    }
    n = 0
    while True:
        if samples is None:
            if n and time.perf_counter() >= deadline:
                break
            if n >= MIN_SAMPLES and is_clear(calls, totals, pairs, n):
                break
        elif n >= samples:
            break
        deal = auction_deal(view, rng)
        if deal is None:
            return usual
        base = stacked_state(view, *deal)
        values = {
            call: play_out(engine.apply(base, me, call), view["deal_no"], me & 1, view["hanging"])
            for call in calls
        }
        tally(totals, pairs, values)
        n += 1
    bids = [call for call in calls if call not in DOUBLES]
    best = max(bids, key=lambda call: totals[call])
    choice = best if totals[best] - totals[usual] > NEAR_TIE * n else usual
    for call in calls:
        if call in DOUBLES and totals[call] - totals[choice] > DOUBLE_MARGIN * n:
            choice = call
    return choice


# --------------------------------------------------------------------------------------------
# Hard: rollouts


def rollout(
    state: engine.State, k: Knowledge, hands: list[int], seat: int, card: int, team: int, hang: int
) -> float:
    """Play ``card`` then finish the deal with the normal policy; the deal's score for ``team``."""
    k = k.copy()
    hands = list(hands)
    left = sum(h.bit_count() for h in hands)
    while True:
        k.observe(seat, card)
        hands[seat] ^= 1 << card
        state = engine.apply(state, seat, CARDS[card])
        left -= 1
        if not left:
            break
        seat = state.to_act
        legal = mask(engine.legal_actions(state, seat))
        card = policy_card(k, seat, hands[seat], legal)
    return finished_value(state, team, hang)


def finished_value(state: engine.State, team: int, hang: int) -> float:
    """A finished deal's value for ``team``: written points less the others', a fiftieth of
    the raw difference, and the ``hang`` points hanging to whichever team won them."""
    result = engine.deal_results(state)[-1]
    written = result["written"]
    raw = result["raw"]
    value = written[team] - written[1 - team] + 0.02 * (raw[team] - raw[1 - team])
    if result["winning_team"] == team:
        value += hang
    elif result["winning_team"] == 1 - team:
        value -= hang
    return value


def rollout_exact(
    state: engine.State, k: Knowledge, hands: list[int], seat: int, card: int, team: int, hang: int
) -> float:
    """Play ``card``, the normal policy until :data:`EXACT_TRICKS` tricks are left, then the
    rest perfectly (:func:`tail_value`); the deal's score for ``team`` as :func:`rollout` counts
    it. Raises :class:`TooLong` when the ending costs the solver too much."""
    k = k.copy()
    hands = list(hands)
    while True:
        k.observe(seat, card)
        hands[seat] ^= 1 << card
        state = engine.apply(state, seat, CARDS[card])
        if not state.trick and len(state.tricks) >= 8 - EXACT_TRICKS:
            return tail_value(state, team, hang)
        seat = state.to_act
        legal = mask(engine.legal_actions(state, seat))
        card = policy_card(k, seat, hands[seat], legal)


def _distinct(k: Knowledge, hand: int, cards: list[int]) -> list[int]:
    """Drop cards equivalent to another candidate (same suit, same points, nothing between)."""
    ct = k.ct
    outside = ALL & ~(hand | k.gone)
    keep: list[int] = []
    for c in sorted(cards, key=lambda c: (c >> 3, STRENGTH[ct][c])):
        if keep:
            prev = keep[-1]
            between = HIGHER[ct][prev] & ~HIGHER[ct][c] & ~(1 << c)
            if (
                prev >> 3 == c >> 3
                and POINTS[ct][prev] == POINTS[ct][c]
                and not between & outside
                and not _belot_break(k, c, hand)
                and c & 7 not in (RK, RQ)
            ):
                continue
        keep.append(c)
    return keep


def _surely_lost(k: Knowledge, seat: int, hand: int, card: int) -> bool:
    """Whether the opponents take the current trick whatever ``seat`` plays, ``card`` included:
    an opponent holds it with a card ``card`` does not beat, and the partner has played or
    cannot beat it either."""
    if not k.trick:
        return False
    best_seat, best = k.trick[k.win]
    if not (best_seat ^ seat) & 1 or beats(k.ct, card, best):
        return False
    partner = seat ^ 2
    if any(p == partner for p, _c in k.trick):
        return True
    outside = ALL & ~(hand | k.gone)
    return not _can_beat(k, partner, best, k.trick[0][1] >> 3, outside)


def undonated(k: Knowledge, seat: int, hand: int, legal: int, card: int) -> int:
    """``card``, or a lower card of its suit with fewer points when the trick is surely lost:
    a card worth points is not given to the opponents while a cheaper one of the same suit
    loses the trick as well."""
    ct = k.ct
    if not _surely_lost(k, seat, hand, card):
        return card
    cheaper = [
        c
        for c in bits(legal & SUIT_MASK[card >> 3])
        if POINTS[ct][c] < POINTS[ct][card] and STRENGTH[ct][c] < STRENGTH[ct][card]
    ]
    if not cheaper:
        return card
    return min(cheaper, key=lambda c: (POINTS[ct][c], STRENGTH[ct][c]))


#: The longest hard thinks, whatever a table allows: the strongest level answers within 200 ms
#: on a loaded machine, and thinking longer did not make it stronger (``docs/benchmarks.md``).
BUDGET = 0.2
#: Hard samples at least this many deals before it may stop early (:func:`is_clear`).
MIN_SAMPLES = 16
#: How many standard errors of the paired per-deal difference make the best card clear.
CLEAR_Z = 2.75
#: Written points a deal: cards whose mean values differ by less are equal (sampling noise is
#: larger), and the one that gives away least is played, as a good partner would.
NEAR_TIE = 0.25
#: Before the ending is solved exactly, only the :data:`KEEP` best candidates after the first
#: :data:`SCREEN` sampled deals are rolled out on the rest.
SCREEN = 8
KEEP = 3
#: The same for endings solved exactly, where equal cards score exactly alike.
EXACT_TIE = 0.01
#: Card points from which a card is spared (an ace or a ten; a trump jack or nine): unless it
#: beats a lower card of its suit clearly on the sampled deals, the lower one is played
#: (:func:`spared`). A person sees such a card given to the opponents as points thrown away.
SPARE_FROM = 10
#: Written points a deal a high card must gain over a lower one of its suit to be played
#: before the ending is solved exactly.
SPARE_MARGIN = 2.0
#: Standard errors of their paired difference by which it must gain as well: a gain that a few
#: sampled deals make is not one to give ten points away for.
SPARE_Z = 3.0
#: The margin in endings solved exactly (the sampled deals' own values, no standard error).
SPARE_EXACT = 0.0


def gentlest(
    ct: int,
    cands: Sequence[int],
    totals: dict[int, float],
    n: int,
    prefer: int | None = None,
    tie: float = NEAR_TIE,
) -> int:
    """Among the cards within ``tie`` of the best mean over ``n`` deals, the one that gives
    away least: its points, then its strength; ``prefer`` if it is among them and gives away
    no more points."""
    best = max(totals[c] for c in cands)
    near = [c for c in cands if totals[c] >= best - tie * n]
    least = min(near, key=lambda c: (POINTS[ct][c], STRENGTH[ct][c]))
    if prefer in near and POINTS[ct][prefer] == POINTS[ct][least]:
        return prefer
    return least


def spared(
    ct: int,
    cands: Sequence[int],
    totals: dict[int, float],
    pairs: dict[tuple[int, int], list[float]],
    n: int,
    card: int,
    margin: float,
    z: float = 0.0,
) -> int:
    """``card``, or the cheapest candidate of its suit with fewer points when ``card`` is worth
    :data:`SPARE_FROM` points or more and does not beat that one clearly over the ``n`` deals:
    by more than ``margin`` a deal, and by more than ``z`` standard errors of their paired
    difference (``pairs`` as :func:`tally` keeps it). A high card is not risked for a gain the
    sampled deals hardly show."""
    points = POINTS[ct]
    if points[card] < SPARE_FROM:
        return card
    rank = {c: i for i, c in enumerate(cands)}
    lower = []
    for c in cands:
        if c >> 3 != card >> 3 or points[c] >= points[card]:
            continue
        total, squares = pairs[card, c] if rank[card] < rank[c] else pairs[c, card]
        if rank[card] > rank[c]:
            total = -total
        mean = total / n
        var = max(0.0, (squares - total * total / n) / (n - 1)) if n > 1 else math.inf
        if mean <= margin or (z and mean <= z * math.sqrt(var / n)):
            lower.append(c)
    if not lower:
        return card
    cheaper = min(lower, key=lambda c: (points[c], STRENGTH[ct][c]))
    return spared(ct, cands, totals, pairs, n, cheaper, margin, z)


def spare_candidates(
    ct: int, cands: Sequence[int], totals: dict[int, float], top: Sequence[int]
) -> list[int]:
    """For each high card of ``top`` (:data:`SPARE_FROM` points or more), the best-scoring
    candidate of its suit with fewer points when none of ``top`` is one, and so on for a high
    card so added: what :func:`spared` weighs it against."""
    points = POINTS[ct]
    kept = list(top)
    for card in kept:
        if points[card] < SPARE_FROM:
            continue
        lower = [c for c in cands if c >> 3 == card >> 3 and points[c] < points[card]]
        if lower and not any(c in kept for c in lower):
            kept.append(max(lower, key=lambda c: totals[c]))
    return kept[len(top) :]


def tally(
    totals: dict[int, float], pairs: dict[tuple[int, int], list[float]], values: dict[int, float]
) -> None:
    """Add one sampled deal's ``values`` to each card's total and to the sum and sum of squares
    of each pair's difference (what :func:`is_clear` reads)."""
    for c, value in values.items():
        totals[c] += value
    for (a, b), acc in pairs.items():
        d = values[a] - values[b]
        acc[0] += d
        acc[1] += d * d


def is_clear(
    cands: Sequence[int],
    totals: dict[int, float],
    pairs: dict[tuple[int, int], list[float]],
    n: int,
) -> bool:
    """Whether more sampled deals would hardly change hard's choice among ``cands``.

    Every candidate is rolled out on the same ``n`` deals, so each is compared with the best
    mean on the per-deal difference: ``pairs[a, b]`` holds the sum and the sum of squares of
    ``value(a) - value(b)`` over the deals (for ``a`` before ``b`` in ``cands``). The choice is
    clear when against every other candidate the best either wins by more than :data:`CLEAR_Z`
    standard errors of that difference, or scored exactly the same on every deal so far.
    """
    best = max(cands, key=lambda c: totals[c])
    rank = {c: i for i, c in enumerate(cands)}
    for c in cands:
        if c == best:
            continue
        if rank[best] < rank[c]:
            total, squares = pairs[best, c]
        else:
            total, squares = pairs[c, best]
            total = -total
        if squares == 0.0:
            continue  # equal on every deal so far
        mean = total / n
        var = max(0.0, (squares - total * total / n) / (n - 1))
        if mean <= CLEAR_Z * math.sqrt(var / n):
            return False
    return True


def choose_hard(
    view: View,
    rng: random.Random,
    budget: float = 0.3,
    samples: int | None = None,
    sampler: Callable[[Constraints, random.Random], list[int]] | None = None,
) -> str:
    """Determinized Monte Carlo over the unseen cards: exact endings, normal policy rollouts.

    Each sampled deal values every candidate card: solved exactly from here when
    :data:`EXACT_TRICKS` tricks or fewer are left, else rolled out by :func:`rollout_exact`;
    after :data:`SCREEN` deals only the :data:`KEEP` best go on. A deal whose ending costs the
    solver too much counts for no candidate.

    Up to 90% of ``budget`` seconds (at most :data:`BUDGET`) are spent, but after
    :data:`MIN_SAMPLES` deals sampling stops as soon as the choice is clear
    (:func:`is_clear`): one card is far ahead of all others, or the candidates tie on every
    deal. ``samples`` instead fixes the number of sampled deals, with
    no early stop, which makes the choice depend only on ``view`` and ``rng`` (tests).
    ``sampler`` deals the unseen cards instead of :meth:`Constraints.sample` (the expert
    candidate's, which also reads the auction).
    """
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if view["phase"] != "play":
        return choose_hard_call(view, rng, budget, samples)
    start = time.perf_counter()
    deadline = start + 0.9 * max(0.0, min(budget, BUDGET))
    k = knowledge_from_view(view)
    me = view["seat"]
    hand = mask(view["hand"])
    cands = _distinct(k, hand, bits(mask(legal)))
    fallback = policy_card(k, me, hand, mask(legal))
    if len(cands) == 1:
        return CARDS[cands[0]]
    cons = Constraints(view, k)
    totals = dict.fromkeys(cands, 0.0)
    # (a, b) -> [sum, sum of squares] of the per-deal difference value(a) - value(b).
    pairs: dict[tuple[int, int], list[float]] = {
        (a, b): [0.0, 0.0] for i, a in enumerate(cands) for b in cands[i + 1 :]
    }
    team = me & 1
    hang = view["hanging"]
    exact = k.ntricks >= 8 - EXACT_TRICKS
    n = tries = 0
    while True:
        if samples is None:
            if tries and time.perf_counter() >= deadline:
                break
            if n >= MIN_SAMPLES and is_clear(cands, totals, pairs, n):
                break
        elif n >= samples or tries >= 4 * samples:
            break
        tries += 1
        hands = cons.sample(rng) if sampler is None else sampler(cons, rng)
        base = build_state(view, hands)
        values = {}
        try:
            for c in cands:
                if samples is None and time.perf_counter() >= deadline:
                    break
                if exact:
                    values[c] = tail_value(base, team, hang, c)
                else:
                    values[c] = rollout_exact(base, k, hands, me, c, team, hang)
        except TooLong:
            continue  # a deal one candidate could not finish counts for none
        if len(values) < len(cands):
            break
        tally(totals, pairs, values)
        n += 1
        if not exact and n == SCREEN and len(cands) > KEEP:
            top = sorted(cands, key=lambda c: totals[c], reverse=True)[:KEEP]
            top += spare_candidates(k.ct, cands, totals, top)
            cands = [c for c in cands if c in top]  # in their order, which keys ``pairs``
            pairs = {(a, b): acc for (a, b), acc in pairs.items() if a in top and b in top}
    if not n:
        return CARDS[fallback]
    if exact:
        choice = gentlest(k.ct, cands, totals, n, prefer=fallback, tie=EXACT_TIE)
        return CARDS[spared(k.ct, cands, totals, pairs, n, choice, SPARE_EXACT)]
    choice = gentlest(k.ct, cands, totals, n, prefer=fallback)
    choice = spared(k.ct, cands, totals, pairs, n, choice, SPARE_MARGIN, SPARE_Z)
    return CARDS[undonated(k, me, hand, mask(legal), choice)]


LEVELS: dict[str, Bot[View]] = {
    "easy": choose_easy,
    "normal": choose_normal,
    "hard": choose_hard,
}


# --------------------------------------------------------------------------------------------
# Matches


class MatchRecord(TypedDict):
    """One match :func:`play_match` played: its winner and scores, and each level's times."""

    winner: int | None
    scores: list[int]
    deals: int
    levels: list[str]
    times: dict[str, list[float]]  # level -> decision seconds


def play_match(
    levels: Sequence[str], seed: int, budget: float = 0.3, **options: int | str | bool
) -> MatchRecord:
    """Play a whole match, seat ``i`` played by ``levels[i]``; ``options`` go to ``new_game``.

    Returns ``{"winner", "scores", "deals", "levels", "times"}``, ``times`` mapping each level to
    its decision times in seconds.
    """
    state = engine.new_game(seed, **options)
    rngs = [random.Random(f"belote-bots:{seed}:{seat}") for seat in range(4)]
    bots = [LEVELS[level] for level in levels]
    times: dict[str, list[float]] = {level: [] for level in levels}
    while state.to_act is not None:
        seat = state.to_act
        v = engine.view(state, seat)
        t0 = time.perf_counter()
        action = bots[seat](v, rngs[seat], budget)
        times[levels[seat]].append(time.perf_counter() - t0)
        state = engine.apply(state, seat, action)
    return {
        "winner": engine.winner(state),
        "scores": engine.scores(state),
        "deals": len(engine.deal_results(state)),
        "levels": list(levels),
        "times": times,
    }
