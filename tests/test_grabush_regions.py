"""Grabush frames carry only the regions of the board that changed, and pages never go stale."""

from __future__ import annotations

import json
import random
import re
from html.parser import HTMLParser

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string

from games.engines import grabush
from games.live import frames
from games.live.regions import render as render_region
from games.live.regions import restricted
from games.models import Match, Table
from games.presenters import grabush as presenter
from games.tables import matches, play, rows, seating

from .engines.grabush_helpers import craft
from .live import FRAME_TIMEOUT, connect, frames_until, heard, live_test, send, settle, version_mark
from .pages import VOID, Elements, by_id, swap_in
from .test_grabush_live import start

#: The id of each region of a four-player Grabush board (``presenter.REGIONS``, in that order;
#: the regions of the seats a larger table would have render nothing).
REGION_IDS = (
    "play-version",
    "board-top",
    "stocks",
    "centre",
    "my-area",
    *(f"gplayer-{seat}" for seat in range(4)),
    "board-end",
)
OPTIONS = {"players": 4, "stock_size": 20, "table_talk_penalty": True}


def short_game() -> grabush.State:
    """Seat 0 to play, stocks of three cards: a game of a few dozen moves, with books drawn,
    stock cards turned and a pile completed on the way."""
    return craft(
        4,
        0,
        stocks=[["7S", "AD", "3C"], ["8H", "2D", "KC"]],
        hands=[
            ["AS", "2S", "5D", "9C", "JH"],
            ["AH", "3S", "6D", "TC", "QH"],
            ["2H", "4S", "7D", "JC", "KH"],
            ["3H", "5S", "8D", "QC", "AC"],
        ],
        supply=["4H", "5H", "6H", "4D", "9S", "TS", "JS", "QS", "KS", "2C"],
        leftovers_to="supply",
    )


def choose(state: grabush.State, rng: random.Random) -> tuple[int, str]:
    """The next move of the short game: seat 2 claims a penalty as soon as it may, else the
    seat to act plays, most often to the centre."""
    claims = [a for a in grabush.legal_actions(state, 2) if a.startswith("penalty:")]
    if claims:
        return 2, rng.choice(claims)
    legal = grabush.legal_actions(state, state.to_act)
    centre = [action for action in legal if action.startswith("centre:")]
    return state.to_act, rng.choice(centre if centre and rng.random() < 0.8 else legal)


def start_with(users, state: grabush.State) -> Table:
    table = rows.create_table(users[0], "grabush", OPTIONS, is_private=True)
    for index, user in enumerate(users[:4]):
        seating.take_seat(table.pk, user, index)
    matches.start_match(table.pk, users[0])
    Match.objects.filter(table=table).update(state=grabush.dumps(state))
    return table


def current(table: Table) -> tuple[Match, grabush.State]:
    match = Match.objects.get(table=table)
    return match, grabush.loads(match.state)


def top_ids(frame: str) -> list[str]:
    """The ids of a frame's top-level elements: what it swaps."""
    return Elements(frame).top


def apply_frame(page: str, frame: str) -> str:
    """``page`` after ``frame``, as the htmx ws extension swaps it: each top-level element
    replaces the one with its id, or (``hx-swap-oob="beforeend"``: a chat line) is appended to
    it; an element whose id the page lacks (the chat form, outside the frames) is left out."""
    elements = Elements(frame)
    known = Elements(page).spans
    kept = []
    for ident in elements.top:
        start, end = elements.spans[ident]
        html = frame[start:end]
        opening = html[: html.index(">") + 1]
        if 'hx-swap-oob="beforeend"' in opening:
            inner = html[len(opening) : html.rindex("</")]
            closing = known[ident][1] - len("</div>")
            page = page[:closing] + inner + page[closing:]
            known = Elements(page).spans
        elif ident in known:
            kept.append(html)
    return swap_in(page, "".join(kept))


class _Sends(HTMLParser):
    """What each ``ws-send`` button of a page sends besides its own name and value: its
    ``op`` (the closest ``hx-vals`` naming one) and its ``hx-include`` (the closest)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.open: list[tuple[str, dict[str, str | None]]] = []
        self.sends: list[tuple[str | None, str | None, str | None, list[str]]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "button" and "ws-send" in attrs:
            chain = [attrs, *(a for _t, a in reversed(self.open))]
            op = next(
                (
                    json.loads(a["hx-vals"])["op"]
                    for a in chain
                    if "op" in json.loads(a.get("hx-vals") or "{}")
                ),
                None,
            )
            include = next((a["hx-include"] for a in chain if a.get("hx-include")), None)
            ids = [a["id"] for _t, a in self.open if a.get("id")]
            self.sends.append((attrs.get("name"), op, include, ids))
        if tag not in VOID:
            self.open.append((tag, attrs))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                return


def check_sends(page: str) -> int:
    """Every play button of the board in ``page`` sends op "play" and the version, every pick
    op "select": a region swapped in by id still sits in #board and inherits its hx-vals and
    hx-include. Returns how many there are."""
    sends = [send for send in _Sends(page).sends if "board" in send[3]]
    for name, op, include, ids in sends:
        assert ids[ids.index("board") + 1] in REGION_IDS, ids  # the region, then the button
        if name == "action":
            assert (op, include) == ("play", "#play-version"), ids
        else:
            assert (name, op) == ("source", "select"), ids
    return len(sends)


# -- the declared inputs -------------------------------------------------------------------


def _sources(context) -> list[str]:
    pairs = (presenter.split_action(action) for action in context["view"]["legal"])
    return sorted({pair[0] for pair in pairs if pair})


@pytest.mark.django_db
def test_every_grabush_region_renders_from_its_declared_inputs_alone(make_user):
    users = [make_user(f"r{i}") for i in range(4)] + [make_user("watcher")]
    table = start_with(users, short_game())
    rng = random.Random(11)
    seen: set[str] = set()
    for _ in range(100):
        match, state = current(table)
        for viewer in users:
            plain = frames.table_context(table, viewer)
            for selected in ["", *_sources(plain)]:
                context = frames.table_context(table, viewer, selected)
                seen |= {
                    name for name in ("selected", "penalties", "events", "final") if context[name]
                }
                for region in presenter.REGIONS:
                    alone = render_region(region, restricted(context, region.uses))
                    assert alone == render_region(region, context), (
                        region.template,
                        viewer.username,
                    )
        if state.over:
            break
        if match.version == 6:  # table talk: the other side may claim a penalty
            play.apply_chat_rule(table.pk, users[1])
            continue
        seat, action = choose(state, rng)
        play.apply_action(table.pk, users[seat], action, match.version)
    assert state.over
    assert seen == {"selected", "penalties", "events", "final"}


@pytest.mark.django_db
def test_the_board_is_its_regions_in_order(make_user):
    """The whole board (a match's first frame, a fresh page, a replay) holds every region as
    it renders alone, each rooted in one element with its id."""
    users = [make_user(f"o{i}") for i in range(4)]
    table = start(users)
    context = frames.table_context(table, users[0], "hand:KS")
    board = render_to_string("games/grabush/board.html", context)
    parts = [render_region(region, context) for region in presenter.REGIONS]
    parts = [part for part in parts if part.strip()]  # not the seats 5 to 8
    assert [top_ids(part) for part in parts] == [[ident] for ident in REGION_IDS]
    assert all(part in board for part in parts)
    assert check_sends(board) > 5


@pytest.mark.parametrize("players", grabush.PLAYER_COUNTS)
def test_the_regions_of_every_table_size_render_from_their_declared_inputs(players):
    """Two to eight players, each seat and a spectator, with every pick they could make."""
    rng = random.Random(players)
    state = grabush.new_game(players, players)
    seats = [{"index": i, "name": f"p{i}", "is_me": False} for i in range(players)]
    for _ in range(30):
        for viewer in [*range(players), None]:
            view = grabush.view(state, viewer)
            rows = [dict(seat, is_me=seat["index"] == viewer) for seat in seats]
            base = {"view": view, "viewer": viewer, "version": 1}
            for selected in ["", *_sources(base)]:
                context = {**base, **presenter.board_context(view, rows, viewer, selected)}
                ids = []
                for region in presenter.REGIONS:
                    html = render_region(region, context)
                    assert render_region(region, restricted(context, region.uses)) == html
                    ids += top_ids(html)
                seated = [f"gplayer-{seat}" for seat in range(players)]
                assert ids == [*REGION_IDS[:5], *seated, "board-end"]
        seat = state.to_act
        state = grabush.apply(state, seat, rng.choice(grabush.legal_actions(state, seat)))


# -- over websockets -----------------------------------------------------------------------


def whole_board(table: Table, user, selected: str = "") -> str:
    """The board as a fresh page shows it to ``user`` now (what every frame sent before)."""
    return render_to_string("games/grabush/board.html", frames.table_context(table, user, selected))


@live_test
async def test_a_move_sends_each_connection_only_the_regions_it_changed():
    User = get_user_model()
    users = await sync_to_async(lambda: [User.objects.create_user(f"m{i}") for i in range(5)])()
    table = await sync_to_async(start)(users)
    sockets = [await connect(user, f"/ws/table/{table.code}/") for user in users]
    await settle(table.pk, *sockets)  # everyone's arrival is shown everywhere
    match, _state = await sync_to_async(current)(table)

    # An Ace to a new pile: the centre, the mover's hand and everyone's count of its cards.
    await send(sockets[0], op="play", action="centre:hand:AH:new", version=str(match.version))
    sent = [await frames_until(c, version_mark(match.version + 1)) for c in sockets]
    for viewer, received in enumerate(sent):
        frame = received[-1]
        ids = set(top_ids(frame))
        mine = {"my-area"} if viewer == 0 else set()
        assert ids & set(REGION_IDS) == {"play-version", "centre", "gplayer-0", *mine}, viewer
        assert {"board-top", "stocks", "board-end", "seats"}.isdisjoint(ids)
        whole = await sync_to_async(whole_board)(table, users[viewer])
        assert len(frame) < 0.5 * len(whole), (viewer, len(frame), len(whole))

    # A pick is this connection's alone: its hand and the targets it lights (a centre pile,
    # its own table piles), not the stocks, the supply or the version.
    await settle(table.pk, *sockets)
    await send(sockets[0], op="select", source="hand:2H")
    frame = (await frames_until(sockets[0], "You picked"))[-1]
    assert set(top_ids(frame)) == {"flash", "my-area", "centre", "gplayer-0"}
    assert 'value="centre:hand:2H:1"' in frame and 'value="table:2H:0"' in frame
    whole = await sync_to_async(whole_board)(table, users[0], "hand:2H")
    assert len(frame) < 0.6 * len(whole)
    assert await settle(table.pk, *sockets) == [[]] * len(sockets)  # nobody heard of it
    # Dropping the pick puts back what it changed.
    await send(sockets[0], op="select", source="")
    frame = (await frames_until(sockets[0], 'id="my-area"'))[-1]
    assert set(top_ids(frame)) == {"flash", "my-area", "centre", "gplayer-0"}
    assert "You picked" not in frame
    for communicator in sockets:
        await communicator.disconnect()


def fresh(table: Table, user, selected: str = "") -> str:
    return frames.render_frame(table, user, full=True, selected=selected)


def same(page: str, whole: str) -> bool:
    """Whether ``page`` shows what ``whole`` does, element by element (a chat line appended
    live is spaced from its neighbours unlike one of a whole log: no matter)."""
    mine, theirs = by_id(page), by_id(whole)
    for parts in (mine, theirs):
        parts["chat-log"] = re.sub(r">\s+<", "><", parts["chat-log"])
    return mine == theirs


@live_test
# A whole game, five pages rendered afresh and compared after each of some forty steps: half a
# minute on an idle machine, several on a crowded one.
@pytest.mark.timeout(600)
async def test_a_whole_game_leaves_every_page_equal_to_a_fresh_render():
    """Four players and a watcher, a short game to its end: picks, plays, a book drawn, table
    talk and its penalty. After every step each page, built from its first frame and every
    later one swapped in by id, reads as a fresh render of the table for that connection."""
    User = get_user_model()
    users = await sync_to_async(lambda: [User.objects.create_user(f"w{i}") for i in range(5)])()
    table = await sync_to_async(start_with)(users, short_game())
    sockets = [await connect(user, f"/ws/table/{table.code}/") for user in users]
    # Each page starts as its connection's first frame, the whole table.
    pages = [await communicator.receive_from(timeout=FRAME_TIMEOUT) for communicator in sockets]
    rng = random.Random(11)  # 32 moves: books, a completed pile, penalties claimed and let go
    #: Bytes of the frames sent, and of the same frames with the whole board in each instead
    #: of its regions that changed (as every frame of a match carried it before).
    sizes = {"sent": 0, "whole board": 0}
    pending: list[list[str]] = [[] for _ in users]
    steps = 0
    kinds: set[str] = set()

    async def check(selected: dict[int, str]) -> None:
        for i, user in enumerate(users):
            whole = await sync_to_async(fresh)(table, user, selected.get(i, ""))
            assert same(pages[i], whole), (steps, user.username)
            check_sends(pages[i])
            board = await sync_to_async(whole_board)(table, user, selected.get(i, ""))
            for frame in pending[i]:
                elements = Elements(frame)
                regions = sum(
                    end - start
                    for ident, (start, end) in elements.spans.items()
                    if ident in elements.top and ident in REGION_IDS
                )
                sizes["sent"] += len(frame)
                sizes["whole board"] += len(frame) - regions + len(board)
            pending[i].clear()

    def take(received: dict[int, list[str]]) -> None:
        for i, frames_in in received.items():
            for frame in frames_in:
                pages[i] = apply_frame(pages[i], frame)
            pending[i] += frames_in

    async def collect(needle: str, who: range | list[int]) -> None:
        """The frames up to ``needle`` on the sockets ``who``, then whatever else the table
        was told by then, on every socket."""
        received = {i: await frames_until(sockets[i], needle) for i in who}
        for i, more in enumerate(await heard(table.pk, *sockets)):
            received.setdefault(i, []).extend(more)
        take(received)

    take(dict(enumerate(await settle(table.pk, *sockets))))
    await check({})
    while True:
        match, state = await sync_to_async(current)(table)
        if state.over:
            break
        steps += 1
        assert steps < 100
        if match.version == 6:  # table talk: the other side may claim a penalty
            await send(sockets[1], op="chat", text="play the seven!")
            await collect(version_mark(match.version + 1), range(5))
            await check({})
            continue
        seat, action = choose(state, rng)
        pair = presenter.split_action(action)
        if pair is not None:  # the first step: pick the source
            await send(sockets[seat], op="select", source=pair[0])
            await collect('aria-pressed="true"', [seat])
            await check({seat: pair[0]})
        await send(sockets[seat], op="play", action=action, version=str(match.version))
        await collect(version_mark(match.version + 1), range(5))
        await check({})
        _m, after = await sync_to_async(current)(table)
        kinds |= {event["kind"] for event in after.events}
    take(dict(enumerate(await heard(table.pk, *sockets))))  # what the game's end told, if more
    await check({})
    assert {"book", "completed", "stock_turned", "penalty", "decline", "win"} <= kinds
    assert all("The game is over." in page for page in pages)
    assert sizes["sent"] < 0.5 * sizes["whole board"], sizes
    for communicator in sockets:
        await communicator.disconnect()
