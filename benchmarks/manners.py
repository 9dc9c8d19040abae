"""Does a Belote computer player play like a good human partner? Three faults a partner notices,
judged from the acting seat's own view (pure, no Django):

- ``high_on_lost``: a card worth 10 points or more thrown on a trick already lost to the
  opponents (an opponent wins it, the partner has played, no legal card of ours beats it)
  while a card worth less was legal;
- ``suit_without_jack_or_nine``: a suit bid whose suit's jack and nine are both missing from
  the five cards in hand;
- ``overtook_partner``: playing last, beating the partner's winning card worth 10 points or
  more (the trick was ours anyway) while a legal card would have left it winning.

``manage.py bench bots`` counts them per 1,000 decisions of each level. Faults are rare in
whole matches, so it also asks each level in the positions where one is possible
(:func:`testing_positions`) and counts its faults per 1,000 of them.
"""

from __future__ import annotations

import random

from games.bots import belote as bots
from games.engines import belote
from games.engines.belote_cards import CONTRACT_INDEX, INDEX, POINTS, beats, trick_winner

FAULTS = ("high_on_lost", "suit_without_jack_or_nine", "overtook_partner")
#: The faults of the card play (those :func:`testing_positions` offer).
CARD_FAULTS = ("high_on_lost", "overtook_partner")
HIGH = 10


def faults(view: belote.BeloteView, action: str) -> list[str]:
    """The faults of ``action`` taken from ``view`` (its seat's view, on its turn)."""
    if view["phase"] == "auction":
        if action in ("C", "D", "H", "S"):
            ranks = {card[0] for card in view["hand"] if card[1] == action}
            if not ranks & {"J", "9"}:
                return ["suit_without_jack_or_nine"]
        return []
    trick = view["trick"]
    if not trick:
        return []
    ct = CONTRACT_INDEX[view["contract"]["contract"]]
    me = view["seat"]
    cards = [INDEX[code] for _seat, code in trick]
    win = trick_winner(cards, ct)
    winner_seat, best = trick[win][0], cards[win]
    legal = [INDEX[code] for code in view["legal"]]
    card = INDEX[action]
    points = POINTS[ct]
    partner_played = any(seat == me ^ 2 for seat, _code in trick)
    lost = (winner_seat - me) % 2 and partner_played and not any(beats(ct, c, best) for c in legal)
    found = []
    if lost and points[card] >= HIGH and min(points[c] for c in legal) < HIGH:
        found.append("high_on_lost")
    partners = len(trick) == 3 and winner_seat == me ^ 2 and points[best] >= HIGH
    if partners and beats(ct, card, best) and any(not beats(ct, c, best) for c in legal):
        found.append("overtook_partner")
    return found


def testing_positions(count: int, seed: int) -> list[belote.BeloteView]:
    """``count`` card-play views where some legal card is a fault and some is not, from
    deals the normal player plays out."""
    rng = random.Random(seed)
    found: list[belote.BeloteView] = []
    game = 0
    while len(found) < count:
        game += 1
        state = belote.new_game(f"manners:{seed}:{game}")
        while state.to_act is not None and not belote.deal_results(state):
            view = belote.view(state, state.to_act)
            if view["phase"] == "play" and len(view["legal"]) > 1:
                judged = [bool(faults(view, card)) for card in view["legal"]]
                if any(judged) and not all(judged):
                    found.append(view)
            state = belote.apply(state, state.to_act, bots.choose_normal(view, rng, 0.3))
    return found[:count]
