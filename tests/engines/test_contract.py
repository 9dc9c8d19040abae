"""Both engines follow the typed contract: the Protocol's names, the views' TypedDict keys."""

from __future__ import annotations

import random
import typing

from games.engines import belote, grabush
from games.engines.contract import Engine

from .belote_helpers import biased_choice


def keys(typed_dict: type) -> set[str]:
    return set(typed_dict.__required_keys__) | set(typed_dict.__optional_keys__)


def test_both_engines_are_engines() -> None:
    assert isinstance(belote, Engine)
    assert isinstance(grabush, Engine)
    assert belote.IllegalAction is grabush.IllegalAction


def test_belote_views_have_the_keys_of_their_typed_dicts() -> None:
    rng = random.Random(3)
    seen = {"contract": 0, "last_trick": 0, "result": 0, "combination": 0}
    state = belote.new_game(3, target=101)
    while state.to_act is not None:
        for seat in (None, state.to_act):
            v = belote.view(state, seat)
            assert set(v) == keys(belote.BeloteView)
            assert set(v["options"]) == keys(belote.Options)
            if v["contract"] is not None:
                assert set(v["contract"]) == keys(belote.Bid)
                seen["contract"] += 1
            if v["last_trick"] is not None:
                assert set(v["last_trick"]) == keys(belote.Trick)
                seen["last_trick"] += 1
            for d in v["declarations"]:
                assert set(d) == keys(belote.Declared)
            for b in v["belots"]:
                assert set(b) == keys(belote.Belot)
        state = belote.apply(
            state, state.to_act, biased_choice(rng, belote.legal_actions(state, state.to_act))
        )
    for r in belote.deal_results(state):
        assert set(r) == keys(belote.DealResult)
        assert r["outcome"] in typing.get_args(belote.Outcome)
        seen["result"] += 1
        for c in r["combinations"]:
            assert set(c) == keys(belote.Combination)
            assert c["kind"] in typing.get_args(belote.Kind)
            seen["combination"] += 1
    assert min(seen.values()) > 0


def test_grabush_views_have_the_keys_of_their_typed_dicts() -> None:
    event_kinds = set(typing.get_args(grabush.EventKind))
    seen: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        state = grabush.new_game(seed, players=4)
        for _ in range(300):
            if state.to_act is None:
                break
            for seat in (None, state.to_act):
                v = grabush.view(state, seat)
                assert set(v) == keys(grabush.GrabushView)
                for stock in v["stocks"]:
                    assert set(stock) == keys(grabush.Stock)
                for event in v["last_events"]:
                    assert event["kind"] in event_kinds
                    assert set(event) <= keys(grabush.Event)
                    seen.add(event["kind"])
            legal = grabush.legal_actions(state, state.to_act)
            state = grabush.apply(state, state.to_act, rng.choice(legal))
    assert {"play", "table", "turn", "book"} <= seen
