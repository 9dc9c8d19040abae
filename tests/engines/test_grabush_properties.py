"""Grabush properties over random legal playouts (hypothesis drives seeds and choices)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import grabush
from games.engines.grabush import legal_actions, view

from .grabush_helpers import all_cards

#: A safety cap for the test loop only (the engine has none); real games end far sooner.
MAX_STEPS = 30_000

PROFILE = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


def _public(state: grabush.State) -> Counter[str]:
    seen: Counter[str] = Counter()
    for pile in state.centre:
        seen.update(pile)
    for pile in state.tables:
        seen.update(pile)
    for stock in state.stocks:
        if stock:
            seen[stock[-1]] += 1
    return seen


def _view_cards(v: dict) -> Counter[str]:
    """Every card a view shows, outside ``last_events`` (checked on their own)."""
    shown: Counter[str] = Counter(v["hand"])
    for pile in v["centre"]:
        shown.update(pile)
    for slots in v["tables"]:
        for pile in slots:
            shown.update(pile)
    for stock in v["stocks"]:
        if stock["top"]:
            shown[stock["top"]] += 1
    return shown


def _action_cards(actions: list[str]) -> set[str]:
    return {p for a in actions for p in a.split(":") if len(p) == 2 and p[0] in grabush.RANK}


def _check_views(state: grabush.State, moved: str | None) -> None:
    public = _public(state)
    for seat in [None, *range(state.n)]:
        v = view(state, seat)
        json.dumps(v)
        own = Counter(state.hands[seat]) if seat is not None else Counter()
        assert not _view_cards(v) - (public + own), "a view shows a hidden card"
        assert v["hand_sizes"] == [len(h) for h in state.hands]
        assert _action_cards(v["legal"]) <= set(public + own)
        for event in v["last_events"]:
            if event["kind"] in ("book", "penalty", "decline", "rights"):
                assert "card" not in event
            if "card" in event:
                assert event["card"] == moved
            if event["kind"] == "stock_turned":
                assert event["top"] == state.stocks[event["side"]][-1]


def _playout(seed: int, players: int, chat: bool, check_views: bool) -> tuple[int, int]:
    rng = random.Random(seed)
    stock = rng.choice((20, 25, 30)) if players >= 6 else 20
    state = grabush.new_game(seed, players=players, stock_size=stock)
    deck = Counter(grabush.full_deck(players))
    steps = 0
    while state.to_act is not None:
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"
        if chat and rng.random() < 0.02:
            state = grabush.grant_penalty(state, rng.randrange(2))
        seat = state.to_act
        holders = [s for s in range(players) if state.rights[s]]
        if holders and rng.random() < 0.3:
            seat = rng.choice(holders)
        actions = legal_actions(state, seat)
        assert actions, "the seat on turn (or a right holder) always has an action"
        for action in actions:
            if action.startswith("table:"):
                assert action[6] != "A"
        action = rng.choice(actions)
        before = grabush.dumps(state)
        new = grabush.apply(state, seat, action)
        assert grabush.dumps(state) == before, "apply changed its input"
        assert all_cards(new) == deck
        if rng.random() < 0.05:
            again = grabush.loads(grabush.dumps(new))
            assert again == new
            # Same future after a round trip, shuffles of completed piles included.
            probe_seat = new.to_act if new.to_act is not None else seat
            probe = legal_actions(new, probe_seat)
            if probe:
                choice = probe[rng.randrange(len(probe))]
                assert grabush.dumps(grabush.apply(again, probe_seat, choice)) == grabush.dumps(
                    grabush.apply(new, probe_seat, choice)
                )
        state = new
        if check_views:
            moved = next(
                (p for p in action.split(":") if len(p) == 2 and p[0] in grabush.RANK), None
            )
            if action.startswith("centre:stock"):
                moved = json.loads(before)["stocks"][seat % 2][-1]
            elif action.startswith("centre:table"):
                _, _, owner, slot, _ = action.split(":")
                moved = json.loads(before)["tables"][int(owner) * 4 + int(slot)][-1]
            _check_views(state, moved)
    assert state.over
    if state.winner is not None:
        assert state.stocks[state.winner] == [] and state.end_reason == "stock"
    else:
        assert state.supply == [] and state.end_reason in ("quiet", "stuck")
    assert legal_actions(state, 0) == []
    return steps, state.completed


@PROFILE
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 4, 6, 8]), chat=st.booleans())
def test_random_playouts_end_and_keep_invariants(seed, players, chat):
    _playout(seed, players, chat, check_views=False)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 4, 6, 8]))
def test_views_never_leak_hidden_cards(seed, players):
    _playout(seed, players, chat=True, check_views=True)


def test_every_player_count_ends():
    for players in (2, 4, 6, 8):
        for seed in range(3):
            _playout(seed * 7 + players, players, chat=False, check_views=False)


@PROFILE
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 4, 6, 8]))
def test_same_seed_same_game(seed, players):
    def run() -> list[str]:
        rng = random.Random(seed)
        state = grabush.new_game(seed, players=players)
        texts = []
        for _ in range(300):
            if state.to_act is None:
                break
            state = grabush.apply(
                state, state.to_act, rng.choice(legal_actions(state, state.to_act))
            )
            texts.append(grabush.dumps(state))
        return texts

    assert run() == run()
