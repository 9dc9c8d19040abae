"""Grabush: sources and targets for the two-step play, piles, stocks, and events in words."""

from __future__ import annotations

from typing import TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..engines.grabush import PLAYER_COUNTS, Event, GrabushView
from . import PLAY_VERSION, LastMove, Region, SeatRow
from .words import card_name, card_object, rank_text, seats_label, suit_symbol

#: The parts of ``games/grabush/board.html`` a live frame sends again only when they change.
REGIONS = (
    PLAY_VERSION,
    Region("games/grabush/board_top.html", uses=("dealer_name", "view.supply", "view.completed")),
    Region("games/grabush/stocks.html", uses=("stocks", "us_label", "them_label")),
    Region("games/grabush/centre.html", uses=("centre", "new_pile_target")),
    Region(
        "games/grabush/my_area.html",
        uses=(
            "viewer",
            "view.over",
            "selected",
            "selected_text",
            "my_turn",
            "hand",
            "can_pick",
            "can_end",
            "penalties",
            "decline",
        ),
    ),
    # A player at the board (the piles of a table grow long): one region for each seat, whose
    # turn's countdown is that seat's deadline (none while another seat is on turn).
    *(
        Region(
            "games/grabush/player.html",
            uses=(f"by_seat.{seat}", f"seat_deadlines.{seat}", "table.turn_seconds"),
            given=(("p", f"by_seat.{seat}"), ("deadline_ms", f"seat_deadlines.{seat}")),
            name=f"player-{seat}",
        )
        for seat in range(max(PLAYER_COUNTS))
    ),
    Region("games/grabush/board_end.html", uses=("final", "events")),
)


class Slot(TypedDict):
    """One of a player's table piles as the board shows it."""

    slot: int
    number: int
    cards: list[str]
    top: str | None
    #: The source a pick of this pile sends ("" when it cannot be played from).
    source: str
    selected: bool
    #: The action that puts the picked card here ("" when it cannot go here).
    target: str


def side_label(players: int, side: int) -> str:
    """A side named by its seats, for spectators: "Seats 1 & 3" (side 0 of four players)."""
    return seats_label([seat + 1 for seat in range(side, players, 2)])


def split_action(action: str) -> tuple[str, str] | None:
    """``action`` as (source, target) for the two-step play, or None for other actions.

    Sources: ``hand:<card>``, ``stock``, ``table:<seat>:<slot>``. Targets: ``pile:<i>``,
    ``new`` (a new centre pile) and ``slot:<n>`` (own table slot, for the table card).
    """
    parts = action.split(":")
    if parts[0] == "centre":
        pile = parts[-1]
        target = "new" if pile == "new" else f"pile:{pile}"
        if parts[1] == "hand":
            return f"hand:{parts[2]}", target
        if parts[1] == "stock":
            return "stock", target
        if parts[1] == "table":
            return f"table:{parts[2]}:{parts[3]}", target
    if parts[0] == "table":
        return f"hand:{parts[1]}", f"slot:{parts[2]}"
    return None


def describe(action: str) -> str:
    """An action in words, for the screen-reader announcement."""
    parts = action.split(":")
    if parts[0] == "centre":
        where = (
            _("a new pile") if parts[-1] == "new" else _("pile %(n)s") % {"n": int(parts[-1]) + 1}
        )
        if parts[1] == "stock":
            return _("played the stock card to %(where)s") % {"where": where}
        if parts[1] == "hand":
            card = card_object(parts[2])
            return _("played %(card)s to %(where)s") % {"card": card, "where": where}
        return _("played a table card to %(where)s") % {"where": where}
    if parts[0] == "table":
        return _("placed %(card)s on a table pile") % {"card": card_object(parts[1])}
    if parts[0] == "end":
        return _("ended the turn")
    if parts[0] == "penalty":
        return _("claimed a table-talk penalty")
    if parts[0] == "decline":
        return _("declined a table-talk penalty")
    if parts[0] == "grant_penalty":
        return _("talked during the game: the opponents may claim a penalty")
    return action


def event_text(event: Event, names: dict[int, str]) -> str:
    """A public event of the last action in words ("Pile 2 is complete", "Ana drew a book")."""
    kind = event["kind"]
    name = names.get(event.get("seat"), "")
    if kind == "completed":
        return _("A pile reached the King and went to the bottom of the supply.")
    if kind == "stock_turned":
        return _("A stock card turned over: %(card)s.") % {"card": card_name(event["top"])}
    if kind == "book":
        return _("%(name)s drew %(count)s cards.") % {"name": name, "count": event["count"]}
    if kind == "win":
        return _("A stock is empty: the game is won!")
    if kind == "draw":
        return _("No one can go on: the game is drawn.")
    if kind == "penalty":
        return _("%(name)s put a penalty card into the other side's stock.") % {"name": name}
    if kind == "rights":
        return _("Table talk! The other side may claim a penalty.")
    return ""


def announce(view: GrabushView, last: LastMove, names: dict[int, str], side: None) -> list[str]:
    """Say what the last action did, from its public events: who played which card from
    where to which pile, a table card, the end of a turn, a book drawn, a completed pile, a
    stock's new card, table talk and penalties, the end of the game. Everyone is told alike."""
    new_pile = last["action"].endswith(":new")
    players = view["players"]
    said = (_event_sentence(event, names, players, new_pile) for event in view["last_events"])
    return [sentence for sentence in said if sentence]


def _side_name(side: int, names: dict[int, str], players: int) -> str:
    """A side as the live region names it: its player, or its seats ("Seats 1 & 3")."""
    return names.get(side, "") if players == 2 else side_label(players, side)


def _event_sentence(event: Event, names: dict[int, str], players: int, new: bool) -> str:
    """One public event in a sentence ("" for those the table need not be told)."""
    kind = event["kind"]
    name = names.get(event.get("seat"), "")
    if kind == "play":
        where = _("a new pile") if new else _("pile %(n)s") % {"n": event["pile"] + 1}
        values = {"name": name, "card": card_object(event["card"]), "where": where}
        if event["source"] == "hand":
            return _("%(name)s played %(card)s from their hand to %(where)s.") % values
        if event["source"] == "stock":
            return _("%(name)s played %(card)s from the stock to %(where)s.") % values
        values["slot"] = event["slot"] + 1
        if event["from_seat"] == event["seat"]:
            return _("%(name)s played %(card)s from their table pile %(slot)s to %(where)s.") % (
                values
            )
        values["owner"] = names.get(event["from_seat"], "")
        return (
            _("%(name)s played %(card)s from table pile %(slot)s of %(owner)s to %(where)s.")
            % values
        )
    if kind == "table":
        return _("%(name)s put %(card)s on their table pile %(slot)s and ended the turn.") % {
            "name": name,
            "card": card_object(event["card"]),
            "slot": event["slot"] + 1,
        }
    if kind == "end":
        return _("%(name)s ended the turn.") % {"name": name}
    if kind == "book":
        count = event["count"]
        return ngettext(
            "%(name)s drew %(count)s card.", "%(name)s drew %(count)s cards.", count
        ) % {
            "name": name,
            "count": count,
        }
    if kind == "completed":
        return _("Pile %(n)s reached the King and went to the supply.") % {"n": event["pile"] + 1}
    if kind == "stock_turned":
        return _("New stock card for %(side)s: %(card)s.") % {
            "side": _side_name(event["side"], names, players),
            "card": card_name(event["top"]),
        }
    if kind == "rights":
        return _("Table talk by %(side)s: the other side may claim a penalty.") % {
            "side": _side_name(event["side"], names, players)
        }
    if kind == "penalty":
        return _("%(name)s put a penalty card into the stock of %(side)s.") % {
            "name": name,
            "side": _side_name(event["side"], names, players),
        }
    if kind == "decline":
        return _("%(name)s declined a penalty.") % {"name": name}
    if kind == "win":
        return _("%(side)s won the game: the stock is empty.") % {
            "side": _side_name(event["side"], names, players)
        }
    if kind == "draw":
        return _("No one can go on: the game is drawn.")
    return ""


def turn_log(events: list[Event], seat: int, names: dict[int, str]) -> list[str]:
    """A player's latest turn in short ("3♠ from the hand → pile 1"), oldest first."""
    return [text for text in (_logged(event, seat, names) for event in events) if text]


def _short(card: str) -> str:
    return f"{rank_text(card)}{suit_symbol(card)}"


def _logged(event: Event, seat: int, names: dict[int, str]) -> str:
    kind = event["kind"]
    if kind == "play":
        if event["source"] == "hand":
            source = _("from the hand")
        elif event["source"] == "stock":
            source = _("from the stock")
        elif event["from_seat"] == seat:
            source = _("from table pile %(slot)s") % {"slot": event["slot"] + 1}
        else:
            source = _("from table pile %(slot)s of %(owner)s") % {
                "slot": event["slot"] + 1,
                "owner": names.get(event["from_seat"], ""),
            }
        target = _("a new pile") if event.get("new") else _("pile %(n)s") % {"n": event["pile"] + 1}
        return _("%(card)s %(source)s → %(target)s") % {
            "card": _short(event["card"]),
            "source": source,
            "target": target,
        }
    if kind == "table":
        return _("%(card)s to table pile %(slot)s") % {
            "card": _short(event["card"]),
            "slot": event["slot"] + 1,
        }
    if kind == "end":
        return _("ended the turn")
    if kind == "book":
        count = event["count"]
        return ngettext("drew %(count)s card", "drew %(count)s cards", count) % {"count": count}
    if kind == "completed":
        return _("a pile reached the King")
    return ""


def side_of(me: int | None) -> None:
    """The board is seen from each viewer's own seat: nothing is shown alike."""
    return None


def side_context(view: GrabushView, seats: list[SeatRow], me: int | None) -> dict[str, object]:
    return {}


def board_context(
    view: GrabushView,
    seats: list[SeatRow],
    me: int | None,
    selected: str = "",
    side: dict[str, object] | None = None,
) -> dict[str, object]:
    """Context for ``games/grabush/board.html``; ``selected`` is the source this connection
    picked (the first step of a play), if it is still playable."""
    # Named short, as the Belote felt does: a computer's level shows only in the seats panel.
    names = {seat["index"]: seat.get("short_name", seat["name"]) for seat in seats}
    split = {action: split_action(action) for action in view["legal"]}
    sources = {pair[0] for pair in split.values() if pair}
    if selected not in sources:
        selected = ""
    targets = {pair[1]: action for action, pair in split.items() if pair and pair[0] == selected}
    my_side = me % 2 if me is not None else 0

    def slots_of(seat: int) -> list[Slot]:
        piles = view["tables"][seat]
        return [
            {
                "slot": slot,
                "number": slot + 1,
                "cards": pile,
                "top": pile[-1] if pile else None,
                "source": f"table:{seat}:{slot}" if f"table:{seat}:{slot}" in sources else "",
                "selected": selected == f"table:{seat}:{slot}",
                "target": targets.get(f"slot:{slot}", "") if seat == me else "",
            }
            for slot, pile in enumerate(piles)
        ]

    order = sorted(seats, key=lambda s: (s["index"] - (me or 0)) % len(seats))
    # Only what a player's region shows: a seat's presence or cover does not send it again.
    players = [
        {
            "index": seat["index"],
            "name": names[seat["index"]],
            "computer": seat.get("is_bot", False),
            "is_me": seat["is_me"],
            "side": seat["index"] % 2,
            "partner": me is not None and seat["index"] != me and seat["index"] % 2 == my_side,
            "opponent": me is not None and seat["index"] % 2 != my_side,
            "hand_size": view["hand_sizes"][seat["index"]],
            "is_active": view["to_act"] == seat["index"],
            "is_dealer": view["dealer"] == seat["index"],
            "rights": view["penalty_rights"][seat["index"]],
            "slots": slots_of(seat["index"]),
            "last_turn": []
            if seat["is_me"]
            else turn_log(view["last_turns"][seat["index"]], seat["index"], names),
        }
        for seat in order
    ]
    centre = [
        {
            "number": index + 1,
            "top": pile[-1],
            "count": len(pile),
            "target": targets.get(f"pile:{index}", ""),
        }
        for index, pile in enumerate(view["centre"])
    ]
    stocks = [
        {
            "side": side,
            "ours": side == my_side,
            "mine": me is not None and side == my_side,
            "top": view["stocks"][side]["top"],
            "size": view["stocks"][side]["size"],
            "source": "stock" if side == my_side and "stock" in sources else "",
            "selected": side == my_side and selected == "stock",
        }
        for side in (my_side, 1 - my_side)
    ]
    hand = [
        {
            "card": card,
            "source": f"hand:{card}" if f"hand:{card}" in sources else "",
            "selected": selected == f"hand:{card}",
        }
        for card in view["hand"]
    ]
    penalties = [
        {"action": action, "card": action.split(":")[2]}
        for action in view["legal"]
        if action.startswith("penalty:")
    ]
    declines = [action for action in view["legal"] if action.startswith("decline:")]
    events = [text for text in (event_text(e, names) for e in view["last_events"]) if text]
    if me is None:
        us_label, them_label = (side_label(len(seats), side) for side in (my_side, 1 - my_side))
    else:
        us_label, them_label = _("Your side"), _("Opponents")
    final = None
    if view["over"]:
        final = {
            "drawn": view["result"] == "draw",
            "stocks": [
                {"label": us_label if stock["ours"] else them_label, "size": stock["size"]}
                for stock in stocks
            ],
        }
    return {
        "names": names,
        "players": players,
        "by_seat": {str(player["index"]): player for player in players},
        "compact": len(seats) > 4,
        "centre": centre,
        "new_pile_target": targets.get("new", ""),
        "stocks": stocks,
        "us_label": us_label,
        "them_label": them_label,
        "hand": hand,
        "selected": selected,
        "selected_text": _selected_text(selected, view),
        "penalties": penalties,
        "decline": declines[0] if declines else "",
        "penalty_side": declines[0].split(":")[1] if declines else "",
        "can_pick": bool(sources),
        "can_end": "end" in view["legal"],
        "my_turn": me is not None and view["to_act"] == me,
        "to_act_name": names.get(view["to_act"], "") if view["to_act"] is not None else "",
        "to_act_computer": any(s.get("is_bot") and s["index"] == view["to_act"] for s in seats),
        "dealer_name": names.get(view["dealer"], ""),
        "events": events,
        "final": final,
        "we_won": view["winner"] is not None and view["winner"] == my_side,
        "rank_text": rank_text,
    }


def _selected_text(selected: str, view: GrabushView) -> str:
    if selected.startswith("hand:"):
        return card_object(selected.removeprefix("hand:"))
    if selected == "stock":
        return _("your stock card")
    if selected.startswith("table:"):
        _t, seat, slot = selected.split(":")
        pile = view["tables"][int(seat)][int(slot)]
        return card_object(pile[-1]) if pile else ""
    return ""
