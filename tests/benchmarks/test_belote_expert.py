"""The expert Belote player: legal and honest like the others, perfect when its samples are the
truth, its auction's inference and manners, and the learnt contract values it bids with."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest

from benchmarks import belote_expert as expert
from benchmarks import belote_values
from games.analysis.belote_solver import Solver
from games.bots import belote as bots
from games.engines import belote
from games.engines.belote_cards import CARDS, INDEX, POINTS, mask
from tests.bots.test_belote_bots import me, play, seat0_positions, stack


def choose(view: dict, seed: int = 0) -> str:
    """The expert's action on a fixed number of sampled deals (reproducible)."""
    rng = random.Random(seed)
    if view["phase"] == "play":
        return expert.choose_card(view, rng, 0.05, samples=4)
    return expert.choose_call(view, rng, 0.05, samples=8)


def test_the_expert_plays_legal_actions_in_random_positions() -> None:
    rng = random.Random(11)
    seen = {"auction": 0, "play": 0}
    for game in range(3):
        state = belote.new_game(200 + game, target=51)
        while state.to_act is not None:
            view = me(state)
            seen[view["phase"]] += 1
            if rng.random() < 0.3 or view["phase"] == "auction":
                assert choose(view, rng.randrange(10**6)) in view["legal"]
            state = belote.apply(state, view["seat"], rng.choice(view["legal"]))
    assert min(seen.values()) > 20


def test_the_expert_chooses_the_same_from_the_same_view() -> None:
    for sa, sb in seat0_positions():
        va, vb = belote.view(sa, 0), belote.view(sb, 0)
        assert va == vb
        for seed in range(2):
            assert choose(va, seed) == choose(vb, seed)


def first_tricks_views(seeds: range) -> list[dict]:
    """The views of every player with a choice in the first two tricks of normal players' deals."""
    views = []
    for seed in seeds:
        state, rng = belote.new_game(seed), random.Random(seed)
        while state.to_act is not None:
            view = me(state)
            if view["phase"] == "play":
                if len(view["tricks"]) == 2:
                    break
                if len(view["legal"]) > 1:
                    views.append(view)
            state = belote.apply(state, view["seat"], bots.choose_normal(view, rng))
    return views


def test_a_loaded_machine_does_not_change_a_choice_on_fixed_samples(monkeypatch) -> None:
    """With ``samples`` fixed, the clock decides nothing, however slow the machine (in the
    first tricks, the deals that fit the auction are drawn for as long as it takes)."""
    views = first_tricks_views(range(1, 4))
    assert len(views) > 10
    calm = [choose(view, seed) for view in views for seed in range(2)]
    ticks = iter(range(10**9))
    monkeypatch.setattr(expert, "time", SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    assert [choose(view, seed) for view in views for seed in range(2)] == calm


def test_the_expert_thinks_no_longer_than_its_own_budget_whatever_a_table_allows(monkeypatch):
    """A table may allow more time than the expert's answer should take; a smaller allowance
    is kept."""
    asked: list[float] = []
    monkeypatch.setattr(expert, "choose_card", lambda view, rng, budget: asked.append(budget))
    playing = me(play(belote.new_game(5), "H", "pass", "pass", "pass"))
    for allowed in (1.0, expert.BUDGET / 4):
        expert.choose_expert(playing, random.Random(0), allowed)
    assert asked == [expert.BUDGET, expert.BUDGET / 4]


def test_the_expert_calls_as_hard_does(monkeypatch):
    """Its valued auction lost to an outside player (``docs/benchmarks.md``): it bids as hard,
    within its own budget."""
    asked: list[float] = []

    def hard_call(view, rng, budget):
        asked.append(budget)
        return "pass"

    monkeypatch.setattr(bots, "choose_hard_call", hard_call)
    state = belote.new_game(11)
    while belote.phase(state) == "auction" and state.deal_no == 0:
        view = me(state)
        expected = view["legal"][0] if len(view["legal"]) == 1 else "pass"
        assert expert.choose_expert(view, random.Random(1), 1.0) == expected
        state = belote.apply(state, state.to_act, expected)
    assert asked and set(asked) == {expert.BUDGET}


def test_when_no_sampled_deal_can_be_solved_in_time_it_stops_and_plays_the_normal_card(
    monkeypatch,
):
    """A sampled deal too long to solve is dropped; once the time is up the expert tries no
    more of them and plays what the normal player would."""
    state = play(belote.new_game(7), "H", "pass", "pass", "pass")
    while len(state.tricks) < expert.SOLVE_FROM or len(set(me(state)["legal"])) < 2:
        state = belote.apply(state, state.to_act, belote.legal_actions(state, state.to_act)[0])
    view = me(state)
    tries = []

    class TooLongEveryTime:
        def value(self, position, card, nodes):
            tries.append(card)
            raise expert.TooLong("too long")

    ticks = iter(range(10**6))
    monkeypatch.setattr(expert, "solver_for", lambda contract: TooLongEveryTime())
    clock = SimpleNamespace(perf_counter=lambda: next(ticks) * expert.BUDGET / 4)
    monkeypatch.setattr(expert, "time", clock)
    card = expert.solved_card(view, random.Random(0), expert.BUDGET)
    assert 0 < len(tries) <= 4
    k = bots.knowledge_from_view(view)
    hand, legal = mask(view["hand"]), mask(view["legal"])
    assert card == CARDS[bots.policy_card(k, view["seat"], hand, legal)]


def test_early_in_the_play_it_stops_looking_for_deals_that_fit_the_auction_once_time_is_up(
    monkeypatch,
):
    """While much is unknown it weighs deals the auction makes likely; when none turns up
    before its time is up, it takes the next deals as they come instead of trying on."""
    state = play(belote.new_game(7), "H", "pass", "pass", "pass")
    while not state.tricks or len(set(me(state)["legal"])) < 2:
        state = belote.apply(state, state.to_act, belote.legal_actions(state, state.to_act)[0])
    view = me(state)
    asked, dealt = [], []
    monkeypatch.setattr(expert.Auction, "likely", lambda self, *args: asked.append(1) or False)
    sample = bots.Constraints.sample
    monkeypatch.setattr(
        bots.Constraints, "sample", lambda self, rng: dealt.append(1) or sample(self, rng)
    )
    ticks = iter(range(10**6))
    clock = SimpleNamespace(perf_counter=lambda: next(ticks) * expert.BUDGET / 4)
    monkeypatch.setattr(expert, "time", clock)
    assert expert.choose_card(view, random.Random(0), expert.BUDGET) in view["legal"]
    assert 0 < len(asked) == len(dealt)  # each deal asked once, then taken


def test_knowing_the_hands_it_plays_a_best_card_and_the_gentlest_of_equals(monkeypatch):
    """Solving sampled deals with the true hands as its only sample, its card is one the
    solver says keeps the deal's best score (within what counts as equal), and of several
    such it gives away the fewest points."""
    rng = random.Random(4)
    checked = 0
    for game in range(40):
        state = play(belote.new_game(300 + game), "H", "pass", "pass", "pass")
        for _ in range(rng.randrange(4, 24)):
            state = belote.apply(
                state, state.to_act, rng.choice(belote.legal_actions(state, state.to_act))
            )
        view = me(state)
        if len(view["legal"]) < 2:
            continue
        truth = list(state.hands)
        monkeypatch.setattr(bots.Constraints, "sample", lambda self, rng, t=truth: list(t))
        monkeypatch.setattr(expert.Auction, "likely", lambda self, rng, hands, played: True)
        card = INDEX[expert.solved_card(view, random.Random(0), 1.0, samples=1)]
        position = expert.position_from(view, truth)
        solver = Solver(position.contract)
        scorer = expert.Scorer(view)
        declared = scorer.declarations(truth)
        values = {
            c: scorer.value(solver.value_after(position, c), declared) for c in position.legal()
        }
        best = max(values.values())
        assert values[card] >= best - bots.NEAR_TIE
        tied = [c for c, v in values.items() if v >= best - bots.NEAR_TIE]
        assert POINTS[position.contract][card] == min(POINTS[position.contract][c] for c in tied)
        checked += 1
    assert checked >= 20


def test_the_scorer_reads_the_deal_as_the_engine_scores_it():
    """Playing a solved line to the end, the engine's raw totals differ by the margin the
    scorer was given, and the scorer's written figures are the engine's."""
    rng = random.Random(6)
    checked = 0
    for game in range(30):
        state = belote.new_game(400 + game)
        state = play(state, "S", "pass", "pass", "pass")
        for _ in range(rng.randrange(0, 20)):
            state = belote.apply(
                state, state.to_act, rng.choice(belote.legal_actions(state, state.to_act))
            )
        view = me(state)
        position = expert.position_from(view, list(state.hands))
        solver = Solver(position.contract)
        margin = solver.value(position)
        end = state
        for card in solver.line(position):
            end = belote.apply(end, end.to_act, CARDS[card])
        deal = belote.deal_results(end)[-1]
        if deal["capot"] is not None:
            continue  # the split of a capot's points is approximate
        scorer = expert.Scorer(view)
        declared = scorer.declarations(list(state.hands))
        team = view["seat"] % 2
        written = deal["written"][team] - deal["written"][1 - team]
        raw = deal["raw"][team] - deal["raw"][1 - team]
        assert scorer.value(margin, declared) == pytest.approx(written + 0.02 * raw)
        checked += 1
    assert checked >= 20


def test_the_auction_keeps_only_deals_where_the_others_would_have_called_so():
    # Seat 1 opened hearts: the normal player bids a suit only with its jack or nine.
    state = belote.new_game(1, dealer=0, decks=[stack(0, {1: ["JH", "9H", "AH", "TH", "KH"]})])
    state = play(state, "H")
    view = me(state)
    assert view["seat"] == 2
    auction = expert.Auction(view)
    rng = random.Random(3)
    kept = 0
    for _ in range(300):
        first = [0, 0, 0, 0]
        unseen = [c for c in range(32) if not mask(view["hand"]) >> c & 1]
        rng.shuffle(unseen)
        for i, seat in enumerate((0, 1, 3)):
            first[seat] = sum(1 << c for c in unseen[5 * i : 5 * i + 5])
        if auction.calls_fit(first):
            kept += 1
            hearts = first[1] >> 16 & 0xFF
            assert hearts & (1 << 4 | 1 << 2)  # J or 9 of hearts with the bidder
    assert 0 < kept < 300


def test_the_expert_never_bids_a_suit_without_its_jack_or_nine():
    rng = random.Random(8)
    bids = 0
    for game in range(60):
        state = belote.new_game(500 + game)
        view = me(state)
        call = expert.choose_call(view, rng, 0.05, samples=12)
        if call in ("C", "D", "H", "S"):
            bids += 1
            assert {card[0] for card in view["hand"] if card[1] == call} & {"J", "9"}
    assert bids >= 3


# -- the learnt contract values -------------------------------------------------------------------


def deal(rng: random.Random) -> tuple[int, int, int, int]:
    cards = list(range(32))
    rng.shuffle(cards)
    return tuple(sum(1 << c for c in cards[8 * i : 8 * i + 8]) for i in range(4))  # type: ignore[return-value]


def test_swapping_the_teams_negates_the_estimate():
    rng = random.Random(1)
    for _ in range(50):
        hands = deal(rng)
        turned = (hands[1], hands[2], hands[3], hands[0])
        for contract in range(6):
            leader = rng.randrange(4)
            assert belote_values.margin(turned, contract, (leader - 1) % 4) == pytest.approx(
                -belote_values.margin(hands, contract, leader)
            )


def test_the_estimate_follows_exact_play():
    """On fresh random deals the estimate explains most of the exact margin's spread."""
    rng = random.Random(99)
    errors, spread = [], []
    for _ in range(60):
        hands = deal(rng)
        contract, leader = rng.randrange(4), rng.randrange(4)
        exact = Solver(contract).value(expert.Position(contract, hands, leader))
        errors.append(exact - belote_values.margin(hands, contract, leader))
        spread.append(exact)
    mse = sum(e * e for e in errors) / len(errors)
    variance = sum(s * s for s in spread) / len(spread)
    assert mse < 0.5 * variance


def test_the_weights_are_small_and_trained_by_a_command(tmp_path):
    assert belote_values.WEIGHTS.stat().st_size < 5 * 1024 * 1024
    out = tmp_path / "values.json"
    belote_values.main(["--deals", "12", "--played", "6", "--workers", "1", "--out", str(out)])
    trained = json.loads(out.read_text())
    kept = json.loads(belote_values.WEIGHTS.read_text())
    assert {f: len(w) for f, w in trained["weights"].items()} == {
        f: len(w) for f, w in kept["weights"].items()
    }
    assert set(trained["played"]) == set(kept["played"]) == {"suit", "nt", "at"}
