"""The live region's sentences: each game's presenter says what the last move did, from the
engine's view after it; the frames join them and add "Your turn." for the player on turn."""

from __future__ import annotations

import random

import pytest

from games.engines import belote, grabush
from games.live import frames, regions, snapshots
from games.models import Match
from games.presenters import PLAY_VERSION
from games.presenters import belote as belote_presenter
from games.presenters import grabush as grabush_presenter
from games.tables import play

from .engines.belote_helpers import stack
from .engines.grabush_helpers import craft

NAMES = {0: "Ana", 1: "Ivan", 2: "Maria", 3: "Petar"}
#: Seat 0 holds a tierce (7-8-9 of hearts) and, with spades trumps, a belot; seat 3 leads
#: nothing, seat 0 leads first when seat 3 deals.
HANDS = [
    ["7H", "8H", "9H", "KS", "QS", "AC", "AD", "7C"],
    ["8C", "9C", "JC", "8D", "9D", "JD", "7S", "8S"],
    ["TC", "QC", "KC", "TD", "QD", "KD", "TH", "JH"],
    ["7D", "QH", "KH", "AH", "9S", "TS", "JS", "AS"],
]


def told(state: belote.State, seat: int, action: str, side: int | None = 0) -> list[str]:
    """What the Belote presenter says once ``seat`` did ``action`` (``side``: the listener's)."""
    after = belote.apply(state, seat, action)
    view = belote.view(after, None if side is None else side)
    return belote_presenter.announce(view, {"seat": seat, "action": action}, NAMES, side)


def calls(state: belote.State, *actions: str) -> belote.State:
    for action in actions:
        state = belote.apply(state, state.to_act, action)
    return state


def dealt() -> belote.State:
    return belote.new_game(5, dealer=3, decks=[stack(3, HANDS)])


# --- Belote -----------------------------------------------------------------------------------


def test_a_call_is_said_with_who_made_it():
    assert told(dealt(), 0, "H") == ["Ana: Hearts."]
    assert told(calls(dealt(), "H"), 1, "contra") == ["Ivan: Contra."]


@pytest.mark.parametrize(
    ("auction", "contract"),
    [
        (["H", "pass", "pass"], "Contract: Hearts, by Ana."),
        (["H", "contra", "pass", "pass"], "Contract: Hearts, doubled, by Ana."),
        (["NT", "contra", "recontra", "pass", "pass"], "Contract: No trumps, redoubled, by Ana."),
        (["pass", "AT", "pass", "pass"], "Contract: All trumps, by Ivan."),
    ],
)
def test_the_end_of_the_auction_says_the_contract_with_its_multiplier_and_bidder(auction, contract):
    state = calls(dealt(), *auction)
    assert told(state, state.to_act, "pass") == [f"{NAMES[state.to_act]}: Pass.", contract]


def test_four_passes_say_the_cards_are_thrown_in():
    state = calls(dealt(), "pass", "pass", "pass")
    assert told(state, 3, "pass") == [
        "Petar: Pass.",
        "Everyone passed: the cards were thrown in.",
    ]


def test_a_first_card_shows_its_players_declarations_and_the_first_of_a_belot_says_it():
    state = calls(dealt(), "S", "pass", "pass", "pass")
    assert told(state, 0, "KS") == [
        "Ana: King of spades.",
        "Ana declares Tierce.",
        "Ana: Belot.",
    ]
    state = belote.apply(state, 0, "KS")
    assert told(state, 1, "7S") == ["Ivan: Seven of spades."]  # nothing to declare


def test_a_belot_and_each_players_declarations_are_said_once_a_deal():
    state = calls(dealt(), "S", "pass", "pass", "pass")
    said = []
    while belote.view(state, None)["phase"] == "play":
        seat = state.to_act
        action = belote.legal_actions(state, seat)[0]
        said += told(state, seat, action, side=None)
        state = belote.apply(state, seat, action)
    assert said.count("Ana: Belot.") == 1
    assert said.count("Ana declares Tierce.") == 1
    assert sum(1 for sentence in said if sentence.startswith("Petar declares ")) == 1
    assert sum(1 for sentence in said if sentence.endswith(" takes the trick.")) == 8


def test_the_fourth_card_of_a_trick_says_who_takes_it():
    state = belote.position("S", 0, ["9D", "7C", "8C"], [(1, "7D"), (2, "AD"), (3, "8D")])
    assert told(state, 0, "9D") == ["Ana: Nine of diamonds.", "Maria takes the trick."]


def _bid_then_play(state: belote.State, rng: random.Random) -> tuple[belote.State, int, str]:
    """One move of a deal that always gets a contract: the lowest bid, then passes and
    random cards. Returns the state before the move, the seat and the action."""
    seat = state.to_act
    view = belote.view(state, seat)
    if view["phase"] == "auction":
        action = "pass" if view["contract"] is not None else view["legal"][1]
    else:
        action = rng.choice(view["legal"])
    return state, seat, action


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_the_last_card_of_a_deal_says_the_trick_both_teams_points_and_the_total(seed):
    rng = random.Random(seed)
    state = belote.new_game(seed)
    while not belote.deal_results(state):
        before, seat, action = _bid_then_play(state, rng)
        state = belote.apply(before, seat, action)
    deal = belote.deal_results(state)[0]
    we, they = deal["award"]
    total = belote.scores(state)
    ours = told(before, seat, action, side=0)
    theirs = told(before, seat, action, side=1)
    watched = told(before, seat, action, side=None)
    assert ours[0] == watched[0] == f"{NAMES[seat]}: {belote_presenter.describe(action)}."
    taker = next(index for index, name in NAMES.items() if ours[1] == f"{name} takes the trick.")
    assert taker % 2 == deal["last_ten"]
    assert f"Deal 1: We {we}, They {they}." in ours
    assert f"Deal 1: We {they}, They {we}." in theirs
    assert f"Deal 1: {we} for Seats 1 & 3, {they} for Seats 2 & 4." in watched
    assert ours[-1] == f"Total: We {total[0]}, They {total[1]}."
    assert watched[-1] == f"Total: {total[0]} for Seats 1 & 3, {total[1]} for Seats 2 & 4."
    for sentence, shown in (
        ("The contract went inside.", deal["outcome"] == "inside"),
        (f"{deal['hanging_after']} points hang over to the next deal.", deal["hanging_after"]),
    ):
        assert (sentence in ours) == bool(shown)
    capot = [sentence for sentence in ours if sentence.startswith("Capot: ")]
    if deal["capot"] is None:
        assert not capot
    else:
        assert capot == [f"Capot: {'We' if deal['capot'] == 0 else 'They'} took every trick."]


def test_the_last_card_of_the_match_says_who_won_it_from_each_side():
    rng = random.Random(8)
    state = belote.new_game(8, target=1)
    while belote.winner(state) is None:
        before, seat, action = _bid_then_play(state, rng)
        state = belote.apply(before, seat, action)
    winner, scores = belote.winner(state), belote.scores(state)
    figures = f"{scores[winner]} to {scores[1 - winner]}"
    assert told(before, seat, action, side=winner)[-1] == f"Match over: We won, {figures}."
    assert told(before, seat, action, side=1 - winner)[-1] == f"Match over: They won, {figures}."
    seats = ("Seats 1 & 3", "Seats 2 & 4")[winner]
    assert told(before, seat, action, side=None)[-1] == f"Match over: {seats} won, {figures}."


# --- Grabush ----------------------------------------------------------------------------------

PILE = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC"]


def heard(state: grabush.State, seat: int, action: str) -> list[str]:
    after = grabush.apply(state, seat, action)
    view = grabush.view(after, None)
    return grabush_presenter.announce(view, {"seat": seat, "action": action}, NAMES, None)


def test_a_grabush_play_says_who_played_which_card_from_where_to_which_pile():
    state = craft(
        4,
        0,
        stocks=[["2S", "9D"], ["6H"]],
        hands=[["AH", "KD", "5D"], [], [], []],
        tables={(2, 1): ["3H"], (0, 0): ["4S"]},
    )
    assert heard(state, 0, "centre:hand:AH:new") == [
        "Ana played Ace of hearts from their hand to a new pile."
    ]
    state = grabush.apply(state, 0, "centre:hand:AH:new")
    assert heard(state, 0, "centre:stock:0") == [
        "Ana played Two of spades from the stock to pile 1.",
        "New stock card for Seats 1 & 3: Nine of diamonds.",
    ]
    state = grabush.apply(state, 0, "centre:stock:0")
    assert heard(state, 0, "centre:table:2:1:0") == [
        "Ana played Three of hearts from table pile 2 of Maria to pile 1."
    ]
    state = grabush.apply(state, 0, "centre:table:2:1:0")
    assert heard(state, 0, "centre:table:0:0:0") == [
        "Ana played Four of spades from their table pile 1 to pile 1."
    ]
    state = grabush.apply(state, 0, "centre:table:0:0:0")
    assert heard(state, 0, "table:KD:2")[0] == (
        "Ana put King of diamonds on their table pile 3 and ended the turn."
    )


def test_a_completed_pile_and_a_book_are_said():
    state = craft(
        4,
        0,
        stocks=[["5S"], ["6H"]],
        hands=[["KS", "2H"], [], [], []],
        centre=[PILE, ["AD"]],
        supply=["7D", "8D", "9D", "TD", "JD", "KD"],
    )
    assert heard(state, 0, "centre:hand:KS:0") == [
        "Ana played King of spades from their hand to pile 1.",
        "Pile 1 reached the King and went to the supply.",
    ]
    state = grabush.apply(state, 0, "centre:hand:KS:0")
    assert heard(state, 0, "centre:hand:2H:0") == [
        "Ana played Two of hearts from their hand to pile 1.",
        "Ana drew 5 cards.",
    ]


def test_ending_a_turn_with_an_empty_hand_is_said():
    state = craft(
        4,
        0,
        stocks=[["5S"], ["6H"]],
        hands=[[], ["2H"], [], []],
        centre=[["AD"]],
    )
    assert heard(state, 0, "end") == ["Ana ended the turn."]


def test_table_talk_and_penalties_are_said_with_the_side_they_hit():
    state = craft(4, 0, stocks=[["5S"], ["6H"]], hands=[["KS", "2H"], ["KD"], [], []])
    talked = grabush.grant_penalty(state, 1)
    view = grabush.view(talked, None)
    last = {"seat": 1, "action": "grant_penalty:1"}
    assert grabush_presenter.announce(view, last, NAMES, None) == [
        "Table talk by Seats 2 & 4: the other side may claim a penalty."
    ]
    assert heard(talked, 0, "penalty:1:KS") == [
        "Ana put a penalty card into the stock of Seats 2 & 4."
    ]
    assert heard(talked, 2, "decline:1") == ["Maria declined a penalty."]


def test_the_end_of_a_grabush_game_says_the_winner_or_the_draw():
    alone = {"leftovers_to": "supply"}  # the stocks hold only the cards given
    state = craft(4, 0, stocks=[["2S"], ["6H"]], hands=[["AH"], [], [], []], **alone)
    state = grabush.apply(state, 0, "centre:hand:AH:new")
    assert heard(state, 0, "centre:stock:0") == [
        "Ana played Two of spades from the stock to pile 1.",
        "Seats 1 & 3 won the game: the stock is empty.",
    ]
    two = craft(2, 1, stocks=[["6H"], ["2S"]], hands=[[], ["AH"]], **alone)
    two = grabush.apply(two, 1, "centre:hand:AH:new")
    after = grabush.apply(two, 1, "centre:stock:0")
    view = grabush.view(after, None)
    said = grabush_presenter.announce(view, {"seat": 1, "action": "centre:stock:0"}, NAMES, None)
    assert said[-1] == "Ivan won the game: the stock is empty."  # two players: by name
    stuck = craft(4, 0, stocks=[["9S"], ["9H"]], hands=[["KD"], ["KS"], ["QS"], ["QH"]])
    assert heard(stuck, 0, "table:KD:0") == [
        "Ana put King of diamonds on their table pile 1 and ended the turn.",
        "No one can go on: the game is drawn.",
    ]


# --- The live region --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_live_region_adds_your_turn_for_the_player_on_turn_only(started, make_user):
    table, users = started
    watcher = make_user("watcher")
    match = Match.objects.get(table=table)
    seat = belote.loads(match.state).to_act
    play.apply_action(table.pk, users[seat], "H", match.version)
    read = snapshots.load_snapshot(table.pk)
    mover = users[seat].username
    for user in [*users, watcher]:
        context = frames.table_context(table, user, snapshot=read)
        html = regions.render(frames.ANNOUNCER, context)
        assert f"{mover}: Hearts." in html
        on_turn = user == users[(seat + 1) % 4]
        assert ("Your turn." in html) == on_turn, user.username


@pytest.mark.django_db
def test_each_side_is_told_once_per_read(monkeypatch, started, make_user):
    table, users = started
    watchers = [make_user("watcher"), make_user("other-watcher")]
    match = Match.objects.get(table=table)
    seat = belote.loads(match.state).to_act
    play.apply_action(table.pk, users[seat], "H", match.version)
    asked = []
    announce = belote_presenter.announce

    def counted(view, last, names, side):
        asked.append(side)
        return announce(view, last, names, side)

    monkeypatch.setattr(belote_presenter, "announce", counted)
    read = snapshots.load_snapshot(table.pk)
    texts = {}
    for user in [*users, *watchers]:
        texts[user.username] = frames.table_context(table, user, snapshot=read)["announcement"]
    assert sorted(asked, key=str) == sorted([0, 1, None], key=str)  # two teams and spectators
    assert len(set(texts.values())) == 1  # a call reads the same for everyone


@pytest.mark.django_db
def test_the_same_words_twice_in_a_row_still_change_the_live_region(started):
    table, users = started
    context = frames.table_context(table, users[0])
    first = regions.render(frames.ANNOUNCER, {**context, "version": 6})
    again = regions.render(frames.ANNOUNCER, {**context, "version": 7})
    assert first != again  # the same words, but a change a screen reader reads again
    assert first.replace("&#8203;", "") == again.replace("&#8203;", "")
    key = frames.ANNOUNCER.key
    assert key({**context, "version": 6}) != key({**context, "version": 7})
    # The region is swapped inside the element that stays in the page (a live region that
    # is replaced whole is often not read).
    assert 'hx-swap-oob="innerHTML"' in first and 'aria-live="polite"' in first


@pytest.mark.django_db
def test_the_status_marks_the_version_a_players_turn_began(started):
    """The page plays its turn sound on a new mark: frames may skip the states between one
    turn of the player and the next, so the seat on turn alone cannot tell a new turn."""
    table, users = started
    match = Match.objects.get(table=table)
    seat = belote.loads(match.state).to_act

    def status() -> str:
        context = frames.table_context(table, users[seat])
        return regions.render(frames.STATUS, context) + regions.render(PLAY_VERSION, context)

    assert f'data-turn-began="{match.version}"' in status()  # the first turn of the match
    for action in ["H", "pass", "pass", "pass"]:  # back to the bidder, who leads
        mover = belote.loads(match.state).to_act
        match = play.apply_action(table.pk, users[mover], action, match.version).match
        on_turn = belote.loads(match.state).to_act == seat
        assert ("your-turn" in status()) == on_turn
        assert ("data-turn-began" in status()) == on_turn
    assert f'data-turn-began="{match.version}"' in status()
