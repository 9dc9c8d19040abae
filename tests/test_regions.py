"""Live frames send only the regions that changed, and that is never stale.

Two guarantees: every region renders the same from the values it declares (``Region.uses``) as
from the whole context, so an unchanged key really means unchanged HTML; and a page kept up to
date by swapping in each incremental frame by id, as the htmx ws extension does, always equals
a page rendered whole from the current state, for every seat and a spectator.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.utils import translation

from games.engines import belote
from games.live import frames, regions, snapshots
from games.live.regions import render as render_region
from games.live.regions import restricted
from games.models import Match, Table
from games.presenters import belote as belote_presenter
from games.presenters import lookup
from games.tables import matches, play
from games.templatetags.felt import felt_player

from .pages import Elements, by_id, swap_in


@pytest.fixture
def watched(started, make_user):
    """The started Belote table, its four players and a fifth user watching: (table, users)."""
    table, players = started
    return table, [*players, make_user("watcher")]


def _play_random(table: Table, users, rng: random.Random) -> None:
    """One move: the lowest bid to open the auction, then passes (so one deal cannot end the
    match), and random legal cards."""
    match = Match.objects.filter(table=table).latest("number")
    state = belote.loads(match.state)
    seat = state.to_act
    legal = belote.legal_actions(state, seat)
    view = belote.view(state, seat)
    if view["phase"] == "auction":
        action = "pass" if view["contract"] is not None else legal[1]
    else:
        action = rng.choice(legal)
    play.apply_action(table.pk, users[seat], action, match.version)


@pytest.mark.django_db
def test_every_belote_region_renders_from_its_declared_inputs_alone(watched):
    table, users = watched
    # The deal's result shows between deals, until every player asks for the next one.
    Match.objects.filter(table=table).update(options={**table.options, "deal_pause": 10})
    rng = random.Random(7)
    regions = (*belote_presenter.REGIONS, frames.STATUS, frames.SEATS, frames.ANNOUNCER)
    checked = 0
    seen = set()
    for step in range(60):  # the auction, a deal's tricks, its end, the next auction
        if step and matches.pause_active(Match.objects.get(table=table)):
            # One at a time: the pause waits for the others, then the next deal starts.
            ready = next(u for u in users if matches.ready_for_next_deal(table.pk, u))
            assert ready is not None
        for viewer in users:
            context = frames.table_context(table, viewer)
            context["flash"] = ""
            seen |= {context["view"]["phase"], "summary" if context["last_deal"] else ""}
            seen |= {"pause"} if context.get("pause") else set()
            for region in regions:
                alone = render_region(region, restricted(context, region.uses))
                assert alone == render_region(region, context), (region.template, viewer.username)
                if region.recurring:  # kept for the process by its key: plain values only
                    plain = (str, int, bool, type(None))
                    assert all(type(value) in plain for value in region.key(context))
                checked += 1
        if not matches.pause_active(Match.objects.get(table=table)):
            _play_random(table, users, rng)
    assert checked == 60 * 5 * len(regions)
    assert {"auction", "play", "summary", "pause"} <= seen


@pytest.mark.django_db
def test_incremental_frames_keep_every_page_equal_to_a_whole_render(watched):
    table, users = watched
    rng = random.Random(11)
    shown = [{} for _ in users]
    pages = [
        frames.render_frame(table, user, full=True, shown=s)
        for user, s in zip(users, shown, strict=True)
    ]
    Match.objects.filter(table=table).update(options={**table.options, "deal_pause": 10})
    sizes = {"incremental": 0, "whole": 0}
    skipped = set()
    paused = 0
    for _ in range(60):
        if matches.pause_active(Match.objects.get(table=table)):
            paused += 1
            next(u for u in users if matches.ready_for_next_deal(table.pk, u))
        else:
            _play_random(table, users, rng)
        table.refresh_from_db()
        # One read for every connection, as after a change event: what they derive alike
        # from it is built once (snapshot.derive); each page must still be its own.
        read = snapshots.load_snapshot(table.pk)
        for i, user in enumerate(users):
            frame = frames.render_frame(table, user, shown=shown[i], snapshot=read)
            pages[i] = swap_in(pages[i], frame)
            whole = frames.render_frame(table, user, full=True)  # from a read of its own
            assert by_id(pages[i]) == by_id(whole), user.username
            sizes["incremental"] += len(frame)
            sizes["whole"] += len(whole)
            skipped |= {"seats", "board-history", "board-sheet"} - set(Elements(frame).top)
    # Unchanged regions really are left out: the seats never change during play, and the
    # panels change only with a trick or a call (the history) or a deal's end (the sheet).
    assert skipped == {"seats", "board-history", "board-sheet"}
    assert sizes["incremental"] < 0.7 * sizes["whole"]
    assert paused, "a deal ended, and its pages showed its result"


@pytest.mark.django_db
def test_the_players_of_a_table_share_the_renders_of_equal_regions(monkeypatch, watched):
    table, users = watched
    shown = [{} for _ in range(4)]
    felt_player.cache_clear()
    for user, s in zip(users[:4], shown, strict=True):
        frames.render_frame(table, user, full=True, shown=s)
    _play_random(table, users, random.Random(3))  # the first bid: the auction panel changes
    rendered = Counter()
    render = regions.render

    def counted(region, context):
        rendered[region.template] += 1
        return render(region, context)

    monkeypatch.setattr(regions, "render", counted)
    misses = felt_player.cache_info().misses
    read = snapshots.load_snapshot(table.pk)  # the change's one read, as the consumers share it
    sent = [
        frames.render_frame(table, u, shown=s, snapshot=read)
        for u, s in zip(users[:4], shown, strict=True)
    ]
    assert all('id="table-status"' in frame and 'id="board-history"' in frame for frame in sent)
    assert not any('id="board-sheet"' in frame for frame in sent)  # no deal has ended
    # "Your turn" for one player, "Waiting for …" once for the other three.
    assert rendered["games/partials/status.html"] == 2
    # The calls so far and the felt are the same for every viewer.
    assert rendered["games/belote/board_history.html"] == 1
    assert rendered["games/belote/felt.html"] == 1
    # Around it, only the bidder (a call, no longer to act) and the next player changed.
    assert felt_player.cache_info().misses - misses == 2
    # In another language the renders are not reused.
    with translation.override("bg"):
        frames.render_frame(table, users[0], full=True, snapshot=read)
    assert rendered["games/partials/status.html"] == 3
    # From the next read, a region is rendered again, unless it is a recurring one (the
    # status) whose inputs read the same: its HTML is kept for the process.
    again = {k: v for k, v in shown[1].items() if not k.endswith(("status.html", "history.html"))}
    frame = frames.render_frame(
        table, users[1], shown=again, snapshot=snapshots.load_snapshot(table.pk)
    )
    assert 'id="table-status"' in frame and 'id="board-history"' in frame
    assert rendered["games/belote/board_history.html"] == 2
    assert rendered["games/partials/status.html"] == 3


def test_lookup_reads_dict_items_and_attributes():
    class Row:
        status = "playing"

    context = {"view": {"phase": "play"}, "table": Row()}
    assert lookup(context, "view.phase") == "play"
    assert lookup(context, "table.status") == "playing"
    assert lookup(context, "view.missing") is None
    assert restricted(context, ("view.phase", "table.status")) == {
        "view": {"phase": "play"},
        "table": {"status": "playing"},
    }
