"""Every Grabush control's accessible name starts with what it shows (WCAG 2.5.3, label in
name): a player who says a button's visible label to a voice control ("click seven hearts")
reaches it. Nothing that is not a control or a named group or image carries an aria-label."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string

from games.engines import grabush
from games.live import frames
from games.models import Match
from games.presenters import grabush as presenter
from games.tables import matches, rows, seating

from .engines.grabush_helpers import craft
from .factories import make_players
from .pages import VOID

CONTROLS = {"button", "summary", "a", "select", "input", "textarea"}
#: Roles that take a name of their own from aria-label (a named group, a card drawn in text).
NAMED_ROLES = {"group", "img", "region", "status"}
GENERIC = {"span", "div", "p", "li", "strong", "em", "b", "i"}


@dataclass
class Control:
    """A control as a user meets it: its tag and attributes, what it shows, what it is called."""

    tag: str
    attrs: dict[str, str]
    visible: list[str] = field(default_factory=list)
    content: list[str] = field(default_factory=list)

    @property
    def shown(self) -> str:
        return " ".join("".join(self.visible).split())

    @property
    def name(self) -> str:
        label = self.attrs.get("aria-label")
        return " ".join((label if label is not None else "".join(self.content)).split())

    def kind(self) -> str:
        """What the control does on the board ("hand", "pile", "slot-card", …)."""
        name, value = self.attrs.get("name"), self.attrs.get("value") or ""
        if self.tag == "summary":
            return "fan"
        if name == "source":
            if not value:
                return "unpick" if "aria-pressed" in self.attrs else "cancel"
            return value.split(":")[0]  # hand, stock, table
        if name == "action":
            if value.startswith("centre:"):
                return "new" if value.endswith(":new") else "pile"
            if value.startswith("table:"):
                return "slot-empty" if self.shown == "+" else "slot-card"
            return value.split(":")[0]  # penalty, decline, end
        return "other"


class Controls(HTMLParser):
    """The controls of a page, and every generic element that carries an aria-label."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.open: list[tuple[str, bool, bool, Control | None]] = []
        self.controls: list[Control] = []
        self.misnamed: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = {key: value or "" for key, value in attrs}
        if "aria-label" in attrs and tag in GENERIC and attrs.get("role") not in NAMED_ROLES:
            self.misnamed.append(self.get_starttag_text() or tag)
        if tag in VOID:
            return
        unseen = "visually-hidden" in attrs.get("class", "").split() or "hidden" in attrs
        silent = attrs.get("aria-hidden") == "true"
        if self.open:
            unseen = unseen or self.open[-1][1]
            silent = silent or self.open[-1][2]
        control = None
        if tag in CONTROLS and not unseen:
            control = Control(tag, attrs)
            self.controls.append(control)
        self.open.append((tag, unseen, silent, control))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                return

    def handle_data(self, data):
        if not self.open:
            return
        _tag, unseen, silent, _control = self.open[-1]
        for _t, _u, _s, control in self.open:
            if control is None:
                continue
            if not unseen:
                control.visible.append(data)
            if not silent:
                control.content.append(data)


def misnamed(html: str) -> list[str]:
    """The controls of ``html`` whose name does not start with what they show (or that show
    nothing), and the generic elements named by an aria-label."""
    page = Controls(html)
    wrong = [
        f"{c.tag} shows {c.shown!r} but is named {c.name!r}"
        for c in page.controls
        if not c.shown or not c.name.casefold().startswith(c.shown.casefold())
    ]
    return wrong + [f"aria-label on a generic element: {tag}" for tag in page.misnamed]


def sources(view: dict) -> list[str]:
    pairs = (presenter.split_action(action) for action in view["legal"])
    return sorted({pair[0] for pair in pairs if pair})


def every_position():
    """Every pick of every viewer of a crafted four-player position that has each kind of
    control: hand, stock and table sources (own and partner's), centre piles and a new pile,
    empty and covered table slots, a fanned pile, a penalty to claim or let go; and of a
    two-player position where the player's empty hand ends the turn."""
    rich = craft(
        4,
        0,
        stocks=[["4C", "9C"], ["QD"]],
        hands=[["AS", "3H", "7D", "TC", "KH"], ["5S", "6S", "JC", "2C", "8D"], [], []],
        tables={(0, 0): ["9S", "8H"], (0, 1): ["3D"], (2, 0): ["QS", "4S"], (1, 0): ["5C"]},
        centre=[["AD", "2D"], ["AH", "2H", "3S"]],
        rights=[0, 1, 0, 0],
        leftovers_to="supply",
    )
    empty_hand = craft(
        2, 0, stocks=[["6S"], ["7S"]], hands=[[], ["KC"]], centre=[["AD", "2D", "3D", "4D"]]
    )
    for state in (rich, empty_hand):
        for viewer in [*range(state.n), None]:
            view = grabush.view(state, viewer)
            for selected in ["", *sources(view)]:
                yield state, viewer, selected


def board(state: grabush.State, viewer: int | None, selected: str) -> str:
    view = grabush.view(state, viewer)
    seats = [{"index": i, "name": f"p{i}", "is_me": i == viewer} for i in range(state.n)]
    context = {"view": view, "viewer": viewer, "version": 1}
    context |= presenter.board_context(view, seats, viewer, selected)
    return render_to_string("games/grabush/board.html", context)


def test_every_kind_of_grabush_control_is_named_after_what_it_shows():
    seen: dict[str, str] = {}
    for state, viewer, selected in every_position():
        html = board(state, viewer, selected)
        assert misnamed(html) == [], (viewer, selected)
        for control in Controls(html).controls:
            seen.setdefault(control.kind(), control.name)
    assert set(seen) >= {
        "hand",
        "stock",
        "table",
        "unpick",
        "cancel",
        "pile",
        "new",
        "slot-empty",
        "slot-card",
        "fan",
        "penalty",
        "decline",
        "end",
    }
    # The name goes on from the card's face to what it is and what pressing it does.
    assert seen["stock"] == "4♣ Four of clubs, your stock card"
    assert seen["pile"].startswith("2♦ Two of diamonds, top of pile 1")
    assert seen["slot-empty"] == "+ Your table pile 3, empty: place it here and end the turn"


@pytest.mark.parametrize("players", grabush.PLAYER_COUNTS)
def test_the_controls_of_a_game_in_play_stay_named_after_what_they_show(players):
    """Random play at every table size, each seat and a spectator, with every pick."""
    rng = random.Random(players)
    state = grabush.new_game(players, players)
    for move in range(40):
        if move == 10:
            state = grabush.grant_penalty(state, 1)  # seat 0's side may claim
        for viewer in [*range(players), None]:
            for selected in ["", *sources(grabush.view(state, viewer))]:
                assert misnamed(board(state, viewer, selected)) == [], (move, viewer, selected)
        claims = [a for a in grabush.legal_actions(state, 0) if a.startswith("penalty:")]
        if claims:
            state = grabush.apply(state, 0, claims[0])
            continue
        seat = state.to_act
        state = grabush.apply(state, seat, rng.choice(grabush.legal_actions(state, seat)))


@pytest.mark.django_db
def test_the_table_page_a_player_receives_names_each_control_after_what_it_shows():
    """The live frame a seated player gets (status, seats, chat and the board), each pick."""
    users = make_players(2)
    options = {"players": 2, "stock_size": 20, "table_talk_penalty": True}
    table = rows.create_table(users[0], "grabush", options, is_private=True)
    seating.take_seat(table.pk, users[1], 1)
    matches.start_match(table.pk, users[0])
    state = grabush.loads(Match.objects.get(table=table).state)
    user = users[state.to_act]
    picks = sources(grabush.view(state, state.to_act))
    assert picks
    for selected in ["", *picks]:
        frame = frames.render_frame(table, user, full=True, selected=selected)
        assert misnamed(frame) == [], selected
        assert Controls(frame).controls


def test_the_check_itself_catches_a_name_that_does_not_start_with_the_face():
    wrong = (
        '<button aria-label="Play Queen of clubs"><span aria-hidden="true">Q</span>'
        '<span aria-hidden="true">♣</span></button><span aria-label="empty pile"></span>'
    )
    assert len(misnamed(wrong)) == 2
    right = (
        '<button aria-label="Q♣ Queen of clubs"><span aria-hidden="true">Q</span>'
        '<span aria-hidden="true">♣</span></button>'
        '<button>+<span class="visually-hidden"> new pile</span></button>'
        '<span role="img" aria-label="Queen of clubs">Q♣</span>'
    )
    assert misnamed(right) == []
