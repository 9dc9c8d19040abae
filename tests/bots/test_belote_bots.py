"""The Belote computer players: legality, honesty, normal's heuristics, hard's sampler."""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from games.bots import belote as bots
from games.engines import belote, belote_cards
from tests.engines import belote_helpers

LEVELS = ("easy", "normal", "hard")


def choose(level: str, view: dict, seed: int = 0) -> str:
    """``level``'s action, with hard on a fixed sample count so the choice is reproducible."""
    rng = random.Random(seed)
    if level == "hard":
        return bots.choose_hard(view, rng, 0.05, samples=4)
    return bots.LEVELS[level](view, rng, 0.05)


def stack(dealer: int, hands: dict[int, Sequence[str]]) -> list[str]:
    """A deck dealing ``hands[seat]`` (partial is fine) to each seat, leftovers filling up."""
    rest = [c for c in belote.CARDS if not any(c in h for h in hands.values())]
    full = []
    for seat in range(4):
        h = list(hands.get(seat, ()))
        while len(h) < 8:
            h.append(rest.pop(0))
        full.append(h)
    return belote_helpers.stack(dealer, full)


play = belote_helpers.calls


def me(state: belote.State) -> dict:
    return belote.view(state, state.to_act)


# --------------------------------------------------------------------------------------------
# Legality


def test_every_level_plays_legal_actions_in_random_positions() -> None:
    rng = random.Random(5)
    seen = {"auction": 0, "play": 0, "single": 0}
    for game in range(6):
        state = belote.new_game(100 + game, target=51)
        while state.to_act is not None:
            v = me(state)
            if len(v["legal"]) == 1:
                seen["single"] += 1
            seen[v["phase"]] += 1
            for level in LEVELS:
                if level == "hard" and rng.random() > 0.15 and len(v["legal"]) > 1:
                    continue  # hard is slow: check a sample of its positions
                assert choose(level, v, rng.randrange(10**6)) in v["legal"]
            state = belote.apply(state, v["seat"], rng.choice(v["legal"]))
    assert min(seen.values()) > 20


def test_hard_returns_at_once_with_a_single_legal_action() -> None:
    state = belote.new_game(3)
    while True:
        v = me(state)
        if v["phase"] == "play" and len(v["legal"]) == 1:
            break
        state = belote.apply(state, v["seat"], bots.choose_normal(v, random.Random(0)))
    assert bots.choose_hard(v, random.Random(0), 1.0) == v["legal"][0]


# --------------------------------------------------------------------------------------------
# Honesty: a bot sees only its view


def twin_states() -> tuple[belote.State, belote.State]:
    """Two deals that differ only in hidden cards of seats 1 and 3 (♣ 7 and ♣ 8 swapped)."""
    hands = {
        0: ["JS", "9S", "AH", "TD", "KC", "QD", "8H", "7D"],
        1: ["7C", "AD", "9H", "JD", "QS", "TC", "KH", "8D"],
        2: ["AS", "TS", "7S", "8S", "QC", "JC", "QH", "JH"],
        3: ["8C", "AC", "KD", "9D", "TH", "7H", "KS", "9C"],
    }
    swapped = {**hands, 1: ["8C", *hands[1][1:]], 3: ["7C", *hands[3][1:]]}
    a, b = (belote.new_game(1, dealer=0, decks=[stack(0, h)]) for h in (hands, swapped))
    return a, b


def seat0_positions() -> list[tuple[belote.State, belote.State]]:
    """Seat 0 to act in the twin deals: in the auction, and last to trick one."""
    a, b = twin_states()
    assert a.hands != b.hands
    out = []
    for actions in (("pass", "S", "pass"), ("pass", "pass", "AD", "TS", "KD")):
        a, b = play(a, *actions), play(b, *actions)
        assert a.to_act == 0
        out.append((a, b))
    return out


def test_bots_choose_the_same_from_the_same_view() -> None:
    for sa, sb in seat0_positions():
        va, vb = belote.view(sa, 0), belote.view(sb, 0)
        assert va == vb
        assert belote.view(sa, 1) != belote.view(sb, 1)
        for level in LEVELS:
            for seed in range(3):
                assert choose(level, va, seed) == choose(level, vb, seed)


def test_hard_is_reproducible_on_a_sample_count() -> None:
    _auction, (a, _b) = seat0_positions()
    v = belote.view(a, 0)
    picks = {bots.choose_hard(v, random.Random(9), 0.0, samples=6) for _ in range(3)}
    assert len(picks) == 1


# --------------------------------------------------------------------------------------------
# Normal's heuristics


def test_normal_gives_a_ten_to_a_partner_winning_the_trick() -> None:
    # Seat 2 leads A♠, seat 3 follows; seat 0 holds T♠ and 8♠ and must follow.
    hands = {
        2: ["AS", "JH", "9H", "AH", "TH", "KC", "QC", "7C"],
        3: ["7S", "8C", "9C", "TC", "JC", "7D", "8D", "9D"],
        0: ["TS", "8S", "7H", "8H", "AC", "TD", "JD", "QD"],
    }
    state = belote.new_game(1, dealer=1, decks=[stack(1, hands)])
    state = play(state, "H", "pass", "pass", "pass", "AS", "7S")
    v = me(state)
    assert v["seat"] == 0 and set(v["legal"]) == {"TS", "8S"}
    assert choose("normal", v) == "TS"


def lost_to_a_trump() -> belote.State:
    """Hearts by seat 3; seat 1 leads 7♦, seat 2 follows, seat 3 (void in ♦) trumps; seat 0,
    holding only high diamonds and the 9♦, must follow."""
    hands = {
        1: ["7D", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
        2: ["8D", "7S", "8S", "9S", "TS", "JS", "QS", "KS"],
        3: ["JH", "9H", "AH", "7H", "AS", "AC", "8H", "QH"],
        0: ["AD", "9D", "TD", "JD", "QD", "KD", "TH", "KH"],
    }
    return hearts_by_seat_3(hands, "7D", "8D", "7H")


def hearts_by_seat_3(hands: dict[int, list[str]], *trick: str) -> belote.State:
    """The deal of ``hands`` (dealer 0) after the auction that gives seat 3 hearts, seat 1 to
    lead, and the cards of ``trick``."""
    state = belote.new_game(1, dealer=0, decks=[stack(0, hands)])
    state = play(state, "pass", "pass", "H", "pass", "pass", "pass")
    return play(state, *trick)


def test_normal_keeps_its_ace_off_a_trick_lost_to_a_trump() -> None:
    v = me(lost_to_a_trump())
    assert v["seat"] == 0
    assert choose("normal", v) == "9D"


def test_normal_declarer_leads_trumps_with_a_strong_trump_hand() -> None:
    hands = {1: ["JS", "9S", "AS", "TS", "7S", "AC", "8D", "7H"]}
    state = belote.new_game(1, dealer=0, decks=[stack(0, hands)])
    v = me(state)
    assert choose("normal", v) == "S"
    state = play(state, "S", "pass", "pass", "pass")
    v = me(state)
    assert v["seat"] == 1
    assert choose("normal", v) == "JS"


def test_normal_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    strong = belote.new_game(1, dealer=0, decks=[stack(0, {1: ["JH", "9H", "AH", "AS", "AC"]})])
    weak = belote.new_game(1, dealer=0, decks=[stack(0, {1: ["7C", "8D", "9S", "QH", "8C"]})])
    assert choose("normal", me(strong)) == "H"
    assert choose("normal", me(weak)) == "pass"
    jacks = belote.new_game(1, dealer=0, decks=[stack(0, {1: ["JH", "9H", "JS", "9S", "JC"]})])
    assert choose("normal", me(jacks)) == "AT"
    aces = belote.new_game(1, dealer=0, decks=[stack(0, {1: ["AH", "TH", "AS", "AC", "7D"]})])
    assert choose("normal", me(aces)) == "NT"


def test_normal_does_not_overbid_its_partner_needlessly() -> None:
    hands = {1: ["JH", "9H", "AH", "7C", "8C"], 3: ["JD", "7D", "AS", "8S", "KC"]}
    state = belote.new_game(1, dealer=0, decks=[stack(0, hands)])
    state = play(state, "H", "pass")
    v = me(state)
    assert v["seat"] == 3
    assert choose("normal", v) == "pass"


# --------------------------------------------------------------------------------------------
# Hard's sampler


def test_sampler_respects_voids_and_declarations() -> None:
    # Seat 3 holds a quarte (declared as he plays his first card) and is void in diamonds.
    hands = {
        1: ["7D", "8D", "QD", "7C", "8C", "9C", "TC", "JC"],
        2: ["9D", "7S", "8S", "9S", "TS", "JS", "QS", "KS"],
        3: ["JH", "9H", "AH", "TH", "AS", "AC", "8H", "QC"],
        0: ["AD", "TD", "JD", "KD", "KC", "7H", "KH", "QH"],
    }
    state = belote.new_game(1, dealer=0, decks=[stack(0, hands)])
    state = play(state, "pass", "pass", "H", "pass", "pass", "pass")
    state = play(state, "7D", "9D", "8H")
    v = me(state)
    assert {"seat": 3, "kind": "quarte"} in v["declarations"]
    k = bots.knowledge_from_view(v)
    cons = bots.Constraints(v, k)
    diamonds = 0xFF << 8
    rng = random.Random(2)
    for _ in range(200):
        sample = cons.sample(rng)
        assert sample[0] == belote_cards.mask(v["hand"])
        assert not sample[3] & diamonds
        # Seat 3 trumped while an opponent was winning: any card is possible for him, but he
        # is void in diamonds; his start hand must hold exactly his declared quarte.
        rebuilt = belote.view(bots.build_state(v, sample), 0)
        assert rebuilt["declarations"] == v["declarations"]
        for key in ("hand", "legal", "trick", "tricks", "belots", "contract", "hand_sizes"):
            assert rebuilt[key] == v[key]
        assert [h.bit_count() for h in sample] == v["hand_sizes"]


def test_knowledge_infers_no_higher_trump() -> None:
    hands = {
        1: ["7S", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
        2: ["JS", "7D", "8D", "9D", "TD", "JD", "QD", "KD"],
        3: ["8S", "AD", "7H", "8H", "9H", "TH", "JH", "QH"],
    }
    state = belote.new_game(1, dealer=0, decks=[stack(0, hands)])
    state = play(state, "S", "pass", "pass", "pass", "7S", "JS", "8S")
    k = bots.knowledge_from_view(me(state))
    assert k.gone == belote_cards.mask(["7S", "JS", "8S"])
    state = play(state, "9S")  # seat 0 completes the trick; seat 2 won it and leads
    state = play(state, "7D", "AD", "TS")  # seat 0 is void in ♦ and trumps the opponent's ace
    k = bots.knowledge_from_view(me(state))
    assert k.forbid[0] & 0xFF << 8 == 0xFF << 8
    state = play(state, "8C")  # seat 0 wins with T♠ and leads
    state = play(state, "AS", "9C")  # seat 1 cannot follow trumps: he holds none
    k = bots.knowledge_from_view(me(state))
    assert k.forbid[1] & 0xFF << 24 == 0xFF << 24


def all_trumps_hand() -> dict:
    """Seat 0 holds every spade in a spade contract, to play last to trick one: each card wins."""
    hands = {0: ["JS", "9S", "AS", "TS", "KS", "QS", "8S", "7S"]}
    state = belote.new_game(1, dealer=0, decks=[stack(0, hands)])
    state = play(state, "pass", "pass", "pass", "S", "pass", "pass", "pass")
    for _ in range(3):
        state = play(state, me(state)["legal"][0])
    return me(state)


def test_hard_stops_early_when_the_candidates_are_equivalent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v = all_trumps_hand()
    assert v["seat"] == 0 and len(v["legal"]) == 8
    rollouts = []
    rollout = bots.rollout_exact

    def counting(*args: Any) -> float:
        rollouts.append(args[4])
        return rollout(*args)

    monkeypatch.setattr(bots, "rollout_exact", counting)
    # Each sampled deal takes a thousandth of the budget: time would allow hundreds of them.
    dealt = deals_taking(monkeypatch, 0.001)
    assert bots.choose_hard(v, random.Random(0), 1.0) in v["legal"]
    # Every card takes every trick: the candidates tie on each deal, so the minimum is enough;
    # after the first deals only the best few are rolled out.
    candidates = len(set(rollouts))
    assert candidates > bots.KEEP
    assert len(dealt) == bots.MIN_SAMPLES
    kept = (bots.MIN_SAMPLES - bots.SCREEN) * bots.KEEP
    assert len(rollouts) == bots.SCREEN * candidates + kept


def test_hard_clear_compares_the_paired_differences() -> None:
    def pairs_of(values: dict[int, list[float]]) -> dict[tuple[int, int], list[float]]:
        cands = list(values)
        out = {}
        for i, a in enumerate(cands):
            for b in cands[i + 1 :]:
                diffs = [x - y for x, y in zip(values[a], values[b], strict=True)]
                out[a, b] = [sum(diffs), sum(d * d for d in diffs)]
        return out

    def clear(values: dict[int, list[float]]) -> bool:
        totals = {c: sum(v) for c, v in values.items()}
        return bots.is_clear(list(values), totals, pairs_of(values), len(values[0]))

    rng = random.Random(1)
    noise = [rng.gauss(0, 30) for _ in range(16)]
    # Deal luck is shared by the candidates: only the paired difference counts.
    assert clear({0: [x + 10 for x in noise], 1: noise, 2: [x - 20 for x in noise]})
    assert clear({0: noise, 1: list(noise)})
    noisy = [x + rng.gauss(0, 30) for x in noise]
    assert not clear({0: [x + 1 for x in noise], 1: noisy})
    # The best must beat every other candidate, not just one.
    assert not clear({0: [x + 10 for x in noise], 1: noise, 2: [x + 9 for x in noisy]})


def deals_taking(monkeypatch: pytest.MonkeyPatch, seconds: float) -> list[int]:
    """Make every deal hard samples take ``seconds`` on hard's clock (and only there: nothing
    else moves it); returns the list that counts the deals drawn."""
    now = [0.0]
    dealt: list[int] = []
    sample = bots.Constraints.sample

    def slow_sample(self: bots.Constraints, rng: random.Random, *args: Any) -> list[int]:
        now[0] += seconds
        dealt.append(1)
        return sample(self, rng, *args)

    monkeypatch.setattr(bots.Constraints, "sample", slow_sample)
    monkeypatch.setattr(bots, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    return dealt


def first_card_of_a_deal() -> dict:
    """Seat to lead the first trick of a played deal, with eight cards to choose from."""
    state = belote.new_game(7, target=151)
    while True:
        v = me(state)
        if v["phase"] == "play":
            break
        state = belote.apply(state, v["seat"], bots.choose_normal(v, random.Random(0)))
    assert len(v["legal"]) == 8
    return v


@pytest.mark.parametrize(
    ("budget", "deal_seconds", "deals"),
    [
        (0.1, 0.025, 4),  # 90% of the budget: the fourth deal ends past 0.09 s
        (0.2, 0.025, 8),  # the eighth deal ends past 0.18 s
        (5.0, 0.025, 8),  # a table's longer allowance counts as hard's own 0.2 s
        (0.1, 0.5, 1),  # a deal longer than the whole budget: the first one is still played out
        (0.0, 0.025, 1),
    ],
)
def test_hard_samples_deals_until_its_budget_is_spent(
    monkeypatch: pytest.MonkeyPatch, budget: float, deal_seconds: float, deals: int
) -> None:
    v = first_card_of_a_deal()
    dealt = deals_taking(monkeypatch, deal_seconds)
    assert bots.choose_hard(v, random.Random(0), budget) in v["legal"]
    assert len(dealt) == deals


# --------------------------------------------------------------------------------------------
# Hard's auction


def an_auction_view(hand: Sequence[str], *calls: str, dealer: int = 3) -> dict:
    """The view of the seat to call after ``calls``, holding ``hand`` (its five cards)."""
    to_call = (dealer + 1 + len(calls)) % 4
    state = belote.new_game(0, dealer=dealer, decks=[stack(dealer, {to_call: hand})])
    state = play(state, *calls)
    assert state.to_act == to_call and belote.phase(state) == "auction"
    return me(state)


def test_hard_deals_the_unseen_cards_so_that_suit_bids_hold_their_jack_or_nine() -> None:
    # Seat 1 bid hearts, seat 2 and 3 passed; seat 0 holds J♥: seat 1 must hold 9♥.
    v = an_auction_view(["JH", "7C", "8C", "7D", "8D"], "H", "pass", "pass", dealer=0)
    own = belote_cards.mask(v["hand"])
    for seed in range(40):
        first, last = bots.auction_deal(v, random.Random(seed))
        assert first[0] == own
        assert [h.bit_count() for h in first] == [5, 5, 5, 5]
        assert [h.bit_count() for h in last] == [3, 3, 3, 3]
        every = 0
        for h in (*first, *last):
            assert not every & h
            every |= h
        assert every == belote_cards.ALL
        assert first[1] >> belote_cards.INDEX["9H"] & 1


def test_hard_calls_as_normal_when_no_sampled_deal_fits_the_bids() -> None:
    # Seat 0 holds every jack and nine but the nine of spades, and seat 1 bid clubs.
    v = an_auction_view(["JC", "9C", "JD", "JH", "JS"], "C", dealer=0)
    assert bots.auction_deal(v, random.Random(0)) is None
    assert bots.choose_hard_call(v, random.Random(0), 0.05) == bots.choose_call(v)


def test_a_deal_everyone_passes_is_worth_nothing_and_play_out_stops_there() -> None:
    v = an_auction_view(["7C", "8C", "7D", "8D", "7H"], "pass", "pass", "pass")
    first, last = bots.auction_deal(v, random.Random(1))
    state = belote.apply(bots.stacked_state(v, first, last), v["seat"], "pass")
    assert state.deal_no == 1
    assert bots.play_out(state, 0, v["seat"] & 1, 0) == 0.0


def test_play_out_plays_the_deal_to_its_score() -> None:
    v = an_auction_view(["JC", "9C", "AC", "TC", "KC"])
    first, last = bots.auction_deal(v, random.Random(2))
    base = bots.stacked_state(v, first, last)
    state = belote.apply(base, v["seat"], "C")
    value = bots.play_out(state, 0, v["seat"] & 1, 0)
    # The same deal finished by hand with normal's calls and cards writes the same.
    while belote.phase(state) == "auction":
        state = belote.apply(state, state.to_act, bots.choose_normal(me(state), random.Random(0)))
    while not belote.deal_results(state):
        state = belote.apply(state, state.to_act, bots.choose_normal(me(state), random.Random(0)))
    result = belote.deal_results(state)[0]
    team = v["seat"] & 1
    written, raw = result["written"], result["raw"]
    assert value == written[team] - written[1 - team] + 0.02 * (raw[team] - raw[1 - team])


def calls_worth(monkeypatch: pytest.MonkeyPatch, worth: dict[str, float]) -> list[str]:
    """Make every call hard tries worth ``worth[call]`` (0 if not named) on every sampled
    deal; returns the calls it tried."""
    tried: list[str] = []

    def value(state: belote.State, deal: int, team: int, hang: int) -> float:
        call = state.calls[-1][1]
        tried.append(call)
        return worth.get(call, 0.0)

    monkeypatch.setattr(bots, "play_out", value)
    return tried


def test_hard_makes_another_call_than_normal_only_when_it_writes_clearly_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Normal passes this hand; spades (jack, ace) are near enough to be tried.
    v = an_auction_view(["JS", "AS", "8C", "8D", "7H"])
    assert bots.choose_call(v) == "pass"
    tried = calls_worth(monkeypatch, {"S": bots.NEAR_TIE})
    assert bots.choose_hard_call(v, random.Random(0), 0.05, samples=8) == "pass"
    assert set(tried) == {"pass", "S"}  # nor No Trumps, All Trumps, nor suits without J or 9
    calls_worth(monkeypatch, {"S": 2 * bots.NEAR_TIE})
    assert bots.choose_hard_call(v, random.Random(0), 0.05, samples=8) == "S"


def test_hard_never_tries_a_contract_far_below_normals_threshold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v = an_auction_view(["7C", "8C", "7D", "8D", "7H"])
    tried = calls_worth(monkeypatch, {"AT": 50.0, "NT": 50.0})
    assert bots.choose_hard_call(v, random.Random(0), 0.05, samples=8) == "pass"
    assert tried == []  # pass alone is left: nothing to weigh


# --------------------------------------------------------------------------------------------
# Match harness


def test_play_match_finishes_with_a_winner() -> None:
    result = bots.play_match(["normal", "easy", "normal", "easy"], 11, 0.01, target=51)
    assert result["winner"] in (0, 1)
    assert max(result["scores"]) >= 51
    assert result["deals"] >= 1
    assert set(result["times"]) == {"normal", "easy"}
    assert all(t >= 0 for t in result["times"]["normal"])


def test_play_match_with_hard_seats() -> None:
    result = bots.play_match(["hard", "easy", "hard", "easy"], 4, 0.005, target=21)
    assert result["winner"] in (0, 1)
    assert result["times"]["hard"]


def test_near_equal_cards_go_to_the_one_that_gives_away_least() -> None:
    ct = belote_cards.CONTRACT_INDEX["H"]
    ten, seven, nine = (belote_cards.INDEX[c] for c in ("TD", "7D", "9C"))
    n = 20
    # The ten looks a little better, within the noise: the seven goes.
    totals = {ten: 5.0 * n, seven: (5.0 - bots.NEAR_TIE / 2) * n}
    assert bots.gentlest(ct, [ten, seven], totals, n) == seven
    # Clearly better: the ten goes.
    totals = {ten: 5.0 * n, seven: (5.0 - 2 * bots.NEAR_TIE) * n}
    assert bots.gentlest(ct, [ten, seven], totals, n) == ten
    # Two cards of no points: the preferred one (normal's choice) stays.
    totals = {seven: 1.0 * n, nine: 1.0 * n}
    assert bots.gentlest(ct, [seven, nine], totals, n, prefer=nine) == nine
    assert bots.gentlest(ct, [seven, nine], totals, n, prefer=seven) == seven


def test_hard_keeps_its_high_cards_off_a_trick_lost_to_a_trump() -> None:
    state = lost_to_a_trump()
    for seed in range(5):
        assert choose("hard", me(state), seed) in ("9D", "JD", "QD", "KD")


# --------------------------------------------------------------------------------------------
# Hard as a partner a person can read


def test_natural_contracts_are_the_ones_a_person_reads() -> None:
    def natural(cards: str, call: str) -> bool:
        return bots.natural_contract(belote_cards.mask(cards.split()), bots.CONTRACT_INDEX[call])

    assert natural("JS 7S 7C 8C 7D", "S")  # the jack
    assert natural("9S TS 7C 8C 7D", "S") and natural("9S AS 7C 8C 7D", "S")
    assert not natural("9S KS QS 8S AC", "S")  # the nine without the ace or the ten
    assert not natural("JC 9C AC 7D 8D", "S")
    assert natural("AC 7D 8D 7H 8H", "NT") and not natural("TC KC 8D 7H 8H", "NT")
    assert natural("JD 7C 8D 7H 8H", "AT") and not natural("9C 9D 9H 9S AC", "AT")


def test_hard_never_bids_a_suit_on_a_nine_alone_whatever_it_would_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v = an_auction_view(["9S", "KS", "QS", "8S", "AC"])
    assert bots.choose_call(v) == "S"  # normal bids it
    tried = calls_worth(monkeypatch, {"S": 50.0})
    assert bots.choose_hard_call(v, random.Random(0), 0.05, samples=8) == "pass"
    assert "S" not in tried


def contra_on_our_hearts(hand: Sequence[str]) -> dict:
    """Seat 2 bid hearts, seat 3 doubled: the view of seat 0, its partner, holding ``hand``."""
    v = an_auction_view(hand, "H", "contra", dealer=1)
    assert v["seat"] == 0 and "recontra" in v["legal"]
    return v


def test_hard_redoubles_only_when_its_sampled_deals_say_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A hand normal would not redouble with: hard redoubles on deals where that writes more.
    weak = contra_on_our_hearts(["7C", "8C", "7D", "8D", "7S"])
    assert bots.choose_call(weak) == "pass"
    tried = calls_worth(monkeypatch, {"recontra": bots.DOUBLE_MARGIN})
    assert bots.choose_hard_call(weak, random.Random(0), 0.05, samples=8) == "pass"
    assert {"pass", "recontra"} <= set(tried)
    calls_worth(monkeypatch, {"recontra": bots.DOUBLE_MARGIN + 0.5})
    assert bots.choose_hard_call(weak, random.Random(0), 0.05, samples=8) == "recontra"
    # Normal's fixed rule redoubles this hand; hard does not when its deals say otherwise.
    strong = contra_on_our_hearts(["JH", "AH", "TH", "KH", "QH"])
    assert bots.choose_call(strong) == "recontra"
    calls_worth(monkeypatch, {"recontra": -1.0})
    assert bots.choose_hard_call(strong, random.Random(0), 0.05, samples=8) == "pass"


def test_hard_doubles_only_when_clearly_better_than_its_best_bid_or_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v = an_auction_view(["JC", "AC", "AH", "TH", "AS"], "C", dealer=3)
    assert bots.choose_call(v) == "contra"
    calls_worth(monkeypatch, {"contra": bots.DOUBLE_MARGIN})
    assert bots.choose_hard_call(v, random.Random(0), 0.05, samples=8) == "pass"
    calls_worth(monkeypatch, {"NT": 1.0, "contra": 1.0 + bots.DOUBLE_MARGIN})
    assert bots.choose_hard_call(v, random.Random(0), 0.05, samples=8) == "NT"
    calls_worth(monkeypatch, {"NT": 1.0, "contra": 1.5 + bots.DOUBLE_MARGIN})
    assert bots.choose_hard_call(v, random.Random(0), 0.05, samples=8) == "contra"


def test_hard_reads_its_partners_suit_bid_as_natural() -> None:
    # Seat 2, the partner of seat 0, bid spades: every sampled deal gives it J♠ or 9♠.
    v = an_auction_view(["7C", "8C", "7D", "8D", "7H"], "pass", "pass", "S", "pass", dealer=3)
    assert v["seat"] == 0
    for seed in range(20):
        first, _last = bots.auction_deal(v, random.Random(seed))
        assert bots.holds_jack_or_nine(first[2], belote_cards.CONTRACT_INDEX["S"])


def test_hard_does_not_ruff_its_partners_sure_winner_with_a_high_trump() -> None:
    hands = {
        0: ["9H", "7H", "7D", "8D", "9D", "KS", "QS", "7S"],
        1: ["9C", "TC", "JC", "QD", "KD", "AD", "8S", "9S"],
        2: ["AC", "JH", "AH", "TH", "KC", "QC", "8H", "AS"],
        3: ["7C", "8C", "QH", "KH", "TD", "JD", "TS", "JS"],
    }
    deck = belote_helpers.stack(1, [hands[seat] for seat in range(4)])
    state = belote.new_game(1, dealer=1, decks=[deck])
    # Seat 2 bids hearts and leads the A♣; seat 3 follows; seat 0, void in clubs, may discard.
    state = play(state, "H", "pass", "pass", "pass", "AC", "7C")
    v = me(state)
    assert v["seat"] == 0 and "9H" in v["legal"] and "7D" in v["legal"]
    for seed in range(3):
        assert choose("hard", v, seed) != "9H"


def test_hard_deals_a_doubler_a_hand_that_defends_when_the_cards_allow_it() -> None:
    hearts = belote_cards.CONTRACT_INDEX["H"]
    weak = contra_on_our_hearts(["7C", "8C", "7D", "8D", "7S"])
    floor = bots.CONTRA_THRESHOLD[hearts] - bots.DOUBLER_BELOW
    defending = 0
    for seed in range(40):
        first, _last = bots.auction_deal(weak, random.Random(seed))
        defending += bots._defence_value(first[3], hearts) >= floor
    # One random hand in ten defends so well; the doubler's does unless the tries run out.
    assert defending >= 30
    # Holding every heart of value leaves the doubler none: the double is read as no sign.
    strong = contra_on_our_hearts(["JH", "AH", "TH", "KH", "QH"])
    assert bots.auction_deal(strong, random.Random(0)) is not None


def ace_or_seven() -> dict:
    """Hearts by seat 3; seat 1 leads 8♦, seat 2 plays 9♦ and seat 3 the K♦: seat 0, last,
    holds the A♦ and the 7♦ and may play either."""
    hands = {
        1: ["8D", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
        2: ["9D", "7S", "8S", "9S", "TS", "JS", "QS", "KS"],
        3: ["KD", "JH", "9H", "AH", "7H", "AS", "AC", "8H"],
        0: ["AD", "7D", "QH", "KH", "TH", "TD", "JD", "QD"],
    }
    return me(hearts_by_seat_3(hands, "8D", "9D", "KD"))


def rollouts_worth(monkeypatch: pytest.MonkeyPatch, worth: dict[str, float]) -> None:
    """Make every rollout of a card in ``worth`` score that, any other card far less."""

    def scripted(*args: Any) -> float:
        return worth.get(belote_cards.CARDS[args[4]], -50.0)

    monkeypatch.setattr(bots, "rollout_exact", scripted)


def paired(values: dict[int, list[float]]) -> tuple[dict[int, float], dict, int]:
    """Totals and paired sums of the per-deal ``values`` of each card, as hard keeps them."""
    cards = list(values)
    totals = dict.fromkeys(cards, 0.0)
    pairs = {(a, b): [0.0, 0.0] for i, a in enumerate(cards) for b in cards[i + 1 :]}
    n = len(values[cards[0]])
    for deal in range(n):
        bots.tally(totals, pairs, {c: values[c][deal] for c in cards})
    return totals, pairs, n


def test_a_high_card_is_spared_unless_it_gains_clearly() -> None:
    ct = belote_cards.CONTRACT_INDEX["H"]
    ace, ten, king, seven = (belote_cards.INDEX[c] for c in ("AD", "TD", "KD", "7D"))
    nine_of_trumps = belote_cards.INDEX["9H"]
    margin = bots.SPARE_MARGIN
    luck = [float(x % 7) for x in range(20)]

    def spared(gains: dict[int, float], card: int, z: float = 0.0) -> int:
        values = {c: [x + gain for x in luck] for c, gain in gains.items()}
        totals, pairs, n = paired(values)
        return bots.spared(ct, list(values), totals, pairs, n, card, margin, z)

    # The seven scores within the margin: the cheapest such card goes, not the ten.
    assert spared({ace: 5.0, ten: 4.9, seven: 5.0 - margin / 2}, ace) == seven
    assert spared({ace: 5.0, ten: 4.9, seven: 5.0 - 2 * margin}, ace) == ten
    assert spared({ace: 5.0, ten: 5.0 - 2 * margin, seven: 5.0 - 2 * margin}, ace) == ace
    # A card worth less than ten points is played as chosen; so is a card of another suit.
    assert spared({king: 5.0, seven: 5.0}, king) == king
    assert spared({nine_of_trumps: 6.0, seven: 5.0}, nine_of_trumps) == nine_of_trumps
    # A gain above the margin from one deal alone is not clear: the seven goes.
    rare = [0.0] * 19 + [20 * (margin + 1)]
    values = {ace: [x + r for x, r in zip(luck, rare, strict=True)], seven: luck}
    totals, pairs, n = paired(values)
    assert bots.spared(ct, [ace, seven], totals, pairs, n, ace, margin) == ace
    assert bots.spared(ct, [ace, seven], totals, pairs, n, ace, margin, z=2.0) == seven


def test_the_screen_keeps_a_lower_card_beside_each_high_one() -> None:
    ct = belote_cards.CONTRACT_INDEX["H"]
    ace, king, seven, jack = (belote_cards.INDEX[c] for c in ("AD", "KD", "7D", "JH"))
    totals = {ace: 9.0, jack: 8.0, king: 1.0, seven: 3.0}
    # The ace is kept with the best of the lower diamonds; the trump jack has no lower trump.
    assert bots.spare_candidates(ct, [ace, king, seven, jack], totals, [ace, jack]) == [seven]
    assert bots.spare_candidates(ct, [ace, king, seven, jack], totals, [ace, seven]) == []
    # A ten kept beside the ace brings a lower card of its own.
    ten = belote_cards.INDEX["TD"]
    totals[ten] = 8.5
    assert bots.spare_candidates(ct, [ace, ten, king, seven], totals, [ace]) == [ten, seven]


def test_hard_plays_the_seven_when_the_ace_gains_less_than_the_margin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v = ace_or_seven()
    assert v["seat"] == 0 and sorted(v["legal"]) == ["7D", "AD", "JD", "QD", "TD"]
    rollouts_worth(monkeypatch, {"AD": 10.0, "7D": 10.0 - bots.SPARE_MARGIN / 2})
    assert bots.choose_hard(v, random.Random(0), 0.05, samples=8) == "7D"
    rollouts_worth(monkeypatch, {"AD": 10.0, "7D": 10.0 - 2 * bots.SPARE_MARGIN})
    assert bots.choose_hard(v, random.Random(0), 0.05, samples=8) == "AD"
