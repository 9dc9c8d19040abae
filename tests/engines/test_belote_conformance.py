"""The engine against vectors recorded from the 2001 program "Бридж Белот v2.06".

The vectors are a copy of ``shared/conformance/belote-v206/golden.json`` in
``tests/data/belote-v206/`` (MIT-licensed; its README gives their origin, licence and encoding),
so they run on every checkout.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

from games.engines import belote, belote_cards

CONTRACT = {
    "Clubs": "C",
    "Diamonds": "D",
    "Hearts": "H",
    "Spades": "S",
    "NoTrumps": "NT",
    "AllTrumps": "AT",
}
RANK = {7: "7", 8: "8", 9: "9", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


GOLDEN = Path(__file__).resolve().parents[1] / "data" / "belote-v206" / "golden.json"


@cache
def golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def code(suit: str, rank: int) -> str:
    return RANK[rank] + suit


def test_vector_counts() -> None:
    data = golden()
    assert len(data["validcards"]) == 2000
    assert len(data["announces"]) == 500
    assert len(data["cardtables"]) == 192


def test_valid_cards_all_2000() -> None:
    failures = []
    for n, case in enumerate(golden()["validcards"]):
        hand = [code(s, r) for s, r in case["hand"]]
        trick = [code(s, r) for _seat, s, r in case["trick"]]
        if case["trick"]:
            # The player to move sits right after the last card of the trick.
            assert (case["trick"][-1][0] % 4) + 1 == case["seat"]
        legal = belote.legal_cards(CONTRACT[case["contract"]], hand, trick)
        got = sorted(hand.index(c) for c in legal)
        if got != sorted(case["legal"]):
            failures.append((n, case, got))
    assert not failures, failures[:5]


def test_valid_cards_through_a_real_state() -> None:
    """The same positions driven through legal_actions() on a state built to match."""
    failures = []
    for n, case in enumerate(golden()["validcards"][:400]):
        seat = case["seat"] - 1
        hand = [code(s, r) for s, r in case["hand"]]
        state = belote.position(
            CONTRACT[case["contract"]],
            seat,
            hand,
            [(p - 1, code(s, r)) for p, s, r in case["trick"]],
        )
        got = sorted(hand.index(c) for c in belote.legal_actions(state, seat))
        if got != sorted(case["legal"]):
            failures.append((n, got))
    assert not failures, failures[:5]


def describe(plan: tuple) -> Counter:
    """A plan as the vectors' multiset of (kind, rank): carré rank or top rank of the run."""
    out: Counter = Counter()
    for kind, _points, mask, key, is_carre in plan:
        if is_carre:
            out["carre", 7 + ((mask & -mask).bit_length() - 1) % 8] += 1
        else:
            out[kind, 7 + key[1]] += 1
    return out


def test_announces_all_500() -> None:
    failures = []
    for n, case in enumerate(golden()["announces"]):
        mask = belote_cards.mask([code(s, r) for s, r in case["hand"]])
        d = case["desc"]
        want: Counter = Counter()
        for kind, slots in (
            ("carre", d[0:2]),
            ("tierce", d[2:4]),
            ("quarte", d[4:6]),
            ("quinte", d[6:7]),
        ):
            for rank in slots:
                if rank:
                    want[kind, rank] += 1
        got = describe(belote.best_plan(mask))
        if got != want:
            failures.append((n, case, got))
    assert not failures, failures[:5]


def test_card_tables() -> None:
    for case in golden()["cardtables"]:
        contract = CONTRACT[case["contract"]]
        card = code(case["suit"], case["rank"])
        assert belote.card_strength(card, contract) == case["strength"], case
        assert belote.card_points(card, contract) == case["points"], case
