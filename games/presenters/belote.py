"""Belote: the players around the felt, the We/They score sheet, the deal summary."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..templatetags.cards import call_name, card_name
from . import Region

#: The parts of ``games/belote/board.html`` a live frame sends again only when they change.
REGIONS = (
    Region(
        "games/belote/board_top.html",
        uses=(
            "contract",
            "contract_declarer_name",
            "view.phase",
            "view.target",
            "view.hanging",
            "us_label",
            "them_label",
            "we_score",
            "they_score",
        ),
    ),
    Region("games/belote/felt.html", uses=("players", "trick", "resting")),
    Region("games/partials/play_version.html", uses=("version",), recurring=True),
    Region("games/belote/my_area.html", uses=("viewer", "view.phase", "calls", "hand")),
    Region(
        "games/belote/board_history.html",
        uses=("view.auction", "view.phase", "view.last_trick", "names"),
    ),
    Region(
        "games/belote/board_sheet.html",
        uses=(
            "view.phase",
            "view.target",
            "last_deal",
            "sheet",
            "us_label",
            "them_label",
            "we_score",
            "they_score",
        ),
    ),
)


class FeltPlayer(NamedTuple):
    """A player's place at the felt, as every viewer sees it (hashable: its HTML is kept while
    it reads the same, see ``games.templatetags.felt``)."""

    index: int
    name: str
    hand_size: int
    call: str | None
    announced: tuple[str, ...]
    is_dealer: bool
    is_active: bool


def describe(action: str) -> str:
    """An action in words: a card ("Jack of hearts") or a call ("No trumps")."""
    if len(action) == 2 and action[1] in "CDHS":
        return card_name(action)
    return call_name(action)


OUTCOMES = {
    "made": gettext_lazy("made"),
    "inside": gettext_lazy("inside"),
    "hanging": gettext_lazy("hanging"),
    "redeal": gettext_lazy("all passed"),
}


def _outcome_text(outcome: str) -> str:
    text = OUTCOMES.get(outcome)
    return outcome if text is None else str(text)


def score_sheet(view: dict[str, Any], us: int, names: dict[int, str]) -> list[dict[str, Any]]:
    """One row per deal, from the point of view of team ``us`` (We / They)."""
    rows = []
    for number, deal in enumerate(view["deal_results"], start=1):
        them = 1 - us
        declarer = deal["declarer"]
        rows.append(
            {
                "number": number,
                "deal": deal,
                "we": deal["award"][us],
                "they": deal["award"][them],
                "we_total": deal["scores_after"][us],
                "they_total": deal["scores_after"][them],
                "declarer_name": names.get(declarer, "") if declarer is not None else "",
                "outcome": _outcome_text(deal["outcome"]),
                "hanging": deal["hanging_after"],
                "we_raw": deal["raw"][us],
                "they_raw": deal["raw"][them],
                "we_cards": deal["card_points"][us],
                "they_cards": deal["card_points"][them],
                "we_declarations": deal["declarations"][us],
                "they_declarations": deal["declarations"][them],
                "we_belot": deal["belot"][us],
                "they_belot": deal["belot"][them],
                "last_ten_ours": deal["last_ten"] == us if deal["last_ten"] is not None else None,
                "capot_ours": deal["capot"] == us if deal["capot"] is not None else None,
                "we_written": deal["written"][us],
                "they_written": deal["written"][them],
                "we_hanging_won": deal["hanging_won"][us],
                "they_hanging_won": deal["hanging_won"][them],
                "combinations": [
                    {**combo, "name": names.get(combo["seat"], "")}
                    for combo in deal["combinations"]
                ],
                "belots": [
                    {**belot, "name": names.get(belot["seat"], "")} for belot in deal["belots"]
                ],
            }
        )
    return rows


def _team_labels() -> dict[str, Any]:
    """How the two teams are named: for a player "We" and "They", for a spectator by their
    seats."""
    return {"we": _("We"), "they": _("They"), "seats": (_("Seats 1 & 3"), _("Seats 2 & 4"))}


def side_of(me: int | None) -> int | None:
    """Partners see the felt and the score sheet alike; spectators read it from seats 1 & 3."""
    return None if me is None else me % 2


def side_context(
    view: dict[str, Any], seats: list[dict[str, Any]], me: int | None
) -> dict[str, Any]:
    """The felt, the calls and the score sheet, as the viewer's team (or a spectator) sees them."""
    public = _public_context(view, seats)
    us = (me if me is not None else 0) % 2
    return {**public, **_team_context(view, us, me is None, public["names"])}


def board_context(
    view: dict[str, Any],
    seats: list[dict[str, Any]],
    me: int | None,
    selected: str = "",
    side: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Context for ``games/belote/board.html``."""
    if side is None:
        side = side_context(view, seats, me)
    legal = view["legal"]
    playable = set(legal) if view["phase"] == "play" else set()
    return {
        **side,
        "calls": [action for action in legal if view["phase"] == "auction"],
        "hand": [{"card": card, "playable": card in playable} for card in view["hand"]],
        "my_turn": me is not None and view["to_act"] == me,
    }


def _public_context(view: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    """What every viewer of the table is shown alike: the felt, the contract, whose turn."""
    names = {seat["index"]: seat["name"] for seat in seats}
    last_calls: dict[int, str] = {}
    for seat, call in view["auction"]:
        last_calls[seat] = call
    bubbles: dict[int, list[str]] = {i: [] for i in range(4)}
    for item in view["declarations"]:
        bubbles[item["seat"]].append(item["kind"])
    for item in view["belots"]:
        bubbles[item["seat"]].append("belot")
    # Only what the felt shows, the same for every viewer (where each sits is the CSS's job).
    players = []
    for seat in seats:
        index = seat["index"]
        players.append(
            FeltPlayer(
                index=index,
                name=seat["name"],
                hand_size=view["hand_sizes"][index],
                call=last_calls.get(index) if view["phase"] == "auction" else None,
                announced=tuple(bubbles[index]),
                is_dealer=view["dealer"] == index,
                is_active=view["to_act"] == index,
            )
        )
    trick = [{"seat": seat, "card": card} for seat, card in view["trick"]]
    last_trick = view["last_trick"]
    resting = None
    if not trick and last_trick and view["phase"] == "play":
        # The completed trick stays on the table until the next lead (ui.md).
        resting = {
            "cards": [{"seat": seat, "card": card} for seat, card in last_trick["cards"]],
            "winner_name": names.get(last_trick["winner"], ""),
        }
    contract = view["contract"]
    return {
        "players": players,
        "names": names,
        "trick": trick,
        "resting": resting,
        "contract": contract,
        "contract_declarer_name": names.get(contract["declarer"], "") if contract else "",
        "to_act_name": names.get(view["to_act"], "") if view["to_act"] is not None else "",
    }


def _team_context(
    view: dict[str, Any], us: int, spectator: bool, names: dict[int, str]
) -> dict[str, Any]:
    """What the players of team ``us`` (or spectators, who read it from seats 1 & 3) are shown
    alike: the score sheet and the scores, from that side."""
    labels = _team_labels()
    if spectator:
        us_label, them_label = labels["seats"][us], labels["seats"][1 - us]
    else:
        us_label, them_label = labels["we"], labels["they"]
    contract = view["contract"]
    sheet = score_sheet(view, us, names)
    return {
        "us_label": us_label,
        "them_label": them_label,
        "us": us,
        "contract_ours": contract is not None and contract["team"] == us,
        "sheet": sheet,
        "last_deal": sheet[-1] if sheet and view["phase"] == "auction" else None,
        "we_score": view["scores"][us],
        "they_score": view["scores"][1 - us],
        "we_won": view["winner"] is not None and view["winner"] == us,
    }
