"""Belote: the players around the felt, the We/They score sheet, the deal summary, a deal's
review."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple, TypedDict

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from ..engines.belote import Belot, BeloteView, Bid, Combination, DealResult
from ..engines.belote_cards import CONTRACT_INDEX, INDEX, trick_winner
from . import PLAY_VERSION, LastMove, Region, SeatRow
from .words import call_name, card_name, declaration_name, per_language

if TYPE_CHECKING:
    from ..analysis.belote_review import Par, Review

#: The parts of ``games/belote/board.html`` a live frame sends again only when they change.
REGIONS = (
    Region(
        "games/belote/board_top.html",
        uses=(
            "contract",
            "contract_declarer_name",
            "pause",
            "view.phase",
            "view.target",
            "view.deals",
            "view.deal_no",
            "view.hanging",
            "us_label",
            "them_label",
            "we_score",
            "they_score",
        ),
    ),
    Region(
        "games/belote/felt.html",
        uses=("players", "trick", "resting", "seat_deadlines", "table.turn_seconds"),
    ),
    PLAY_VERSION,
    Region(
        "games/belote/my_area.html",
        uses=(
            "viewer",
            "view.phase",
            "calls",
            "hand",
            "announce",
            "announced_for_me",
            "table.quick",
            "pause",
            "ready_for_next_deal",
            "waiting_for",
            "last_deal",
            "us_label",
            "them_label",
        ),
    ),
    Region(
        "games/belote/board_history.html",
        uses=(
            "view.auction",
            "view.phase",
            "view.last_trick",
            "names",
            "last_taker",
            "last_taker_computer",
        ),
    ),
    Region(
        "games/belote/board_sheet.html",
        uses=(
            "view.phase",
            "view.target",
            "view.deals",
            "last_deal",
            "pause",
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
    #: The name shown at the place: a computer's first name.
    name: str
    #: A computer's whole name with its level ("Ivan · computer, hard"); empty for a person.
    computer: str
    hand_size: int
    call: str | None
    announced: tuple[str, ...]
    is_dealer: bool
    is_active: bool


class CardAt(TypedDict):
    """A card on the felt and the seat that played it."""

    seat: int
    card: str


class RestingTrick(TypedDict):
    """A completed trick left on the felt, and who took it."""

    cards: list[CardAt]
    winner: int
    winner_name: str


class Felt(TypedDict):
    """What every viewer of the table is shown alike (:func:`_public_context`)."""

    players: list[FeltPlayer]
    names: dict[int, str]
    short_names: dict[int, str]
    trick: list[CardAt]
    resting: RestingTrick | None
    contract: Bid | None
    contract_declarer_name: str
    last_taker: str
    last_taker_computer: bool
    to_act_name: str
    to_act_computer: bool


class TeamLabels(TypedDict):
    """How the teams are named: "We" and "They" for a player, by their seats for a spectator."""

    we: str
    they: str
    seats: tuple[str, str]


class NamedCombination(Combination):
    """A declared sequence or carré with its player's name."""

    name: str


class NamedBelot(Belot):
    """A belot with its player's name."""

    name: str


class SheetRow(TypedDict):
    """One deal of the score sheet, from one team's point of view (We / They)."""

    number: int
    deal: DealResult
    we: int
    they: int
    we_total: int
    they_total: int
    declarer_name: str
    outcome: str
    hanging: int
    we_raw: int
    they_raw: int
    we_cards: int
    they_cards: int
    #: The tricks' points apart from the last ten, so that the parts add up.
    we_tricks: int
    they_tricks: int
    last_ten_points: int
    us: int
    we_declarations: int
    they_declarations: int
    we_belot: int
    they_belot: int
    last_ten_ours: bool | None
    capot_ours: bool | None
    we_written: int
    they_written: int
    we_hanging_won: int
    they_hanging_won: int
    combinations: list[NamedCombination]
    belots: list[NamedBelot]


def describe(action: str, language: str | None = None) -> str:
    """An action in words: a card ("Jack of hearts") or a call ("No trumps"), in ``language``
    (default: the active one)."""
    if language is None:
        language = get_language()
    if "/" in action:  # what a card kept quiet is the player's own
        action = action.partition("/")[0]
    if len(action) == 2 and action[1] in "CDHS":
        return card_name.in_language(language, action)
    return call_name.in_language(language, action)


OUTCOMES = {
    "made": gettext_lazy("made"),
    "inside": gettext_lazy("inside"),
    "hanging": gettext_lazy("hanging"),
    "redeal": gettext_lazy("all passed"),
}


@per_language
def _outcome_text(outcome: str) -> str:
    text = OUTCOMES.get(outcome)
    return outcome if text is None else str(text)


MULTIPLIERS = {2: gettext_lazy("doubled"), 4: gettext_lazy("redoubled")}


def announce(
    view: BeloteView, last: LastMove, names: dict[int, str], side: int | None
) -> list[str]:
    """Say what the last move did: the call or card and who made it, then what it settled
    (the contract, a declaration or belot, the trick, the deal, the match), the teams named
    as the viewers of ``side`` (:func:`side_of`) call them."""
    seat, action = last["seat"], last["action"]
    if "/" in action:  # a card that kept something quiet: only the card is told
        action = action.partition("/")[0]
    language = get_language()
    phrases = _phrases.in_language(language)
    said = [phrases["said"] % {"name": names.get(seat, ""), "action": describe(action, language)}]
    phase = view["phase"]
    if action not in INDEX:  # a call
        contract = view["contract"]
        if phase == "play" and contract is not None and not view["tricks"] and not view["trick"]:
            said.append(_contract_sentence(contract, names))
        elif phase == "auction" and not view["auction"] and view["deal_results"]:
            said.append(_("Everyone passed: the cards were thrown in."))
        return said
    if phase == "play":
        return said + _card_news(view, seat, action, names, phrases)
    # The deal's last card: the engine has scored the deal and dealt the next (or ended).
    return said + _deal_news(view, names, side)


def _contract_sentence(contract: Bid, names: dict[int, str]) -> str:
    """The contract in words ("Contract: Hearts, doubled, by Maria.")."""
    values = {
        "contract": call_name(contract["contract"]),
        "name": names.get(contract["declarer"], ""),
    }
    multiplier = MULTIPLIERS.get(contract["multiplier"])
    if multiplier is None:
        return _("Contract: %(contract)s, by %(name)s.") % values
    return _("Contract: %(contract)s, %(multiplier)s, by %(name)s.") % {
        **values,
        "multiplier": str(multiplier),
    }


def _card_news(
    view: BeloteView, seat: int, card: str, names: dict[int, str], phrases: dict[str, str]
) -> list[str]:
    """What a card within a deal settled: its player's declarations (shown with his first
    card), a belot (with the first of its two cards), a finished trick."""
    name = names.get(seat, "")
    played = [pair for trick in view["tricks"] for pair in trick["cards"]] + view["trick"]
    news = []
    if sum(1 for who, _code in played if who == seat) == 1:
        kinds = [
            declaration_name(item["kind"]) for item in view["declarations"] if item["seat"] == seat
        ]
        if kinds:
            news.append(
                _("%(name)s declares %(kinds)s.") % {"name": name, "kinds": ", ".join(kinds)}
            )
    if card[0] in "KQ" and {"seat": seat, "suit": card[1]} in view["belots"]:
        other = ("Q" if card[0] == "K" else "K") + card[1]
        if all(code != other for _who, code in played):
            news.append(_("%(name)s: Belot.") % {"name": name})
    if not view["trick"]:
        winner = names.get(view["last_trick"]["winner"], "")
        news.append(phrases["takes"] % {"name": winner})
    return news


@per_language
def _phrases() -> dict[str, str]:
    """The sentences said of most moves (kept per language: one is said on every move)."""
    return {"said": _("%(name)s: %(action)s."), "takes": _("%(name)s takes the trick.")}


def _deal_news(view: BeloteView, names: dict[int, str], side: int | None) -> list[str]:
    """The end of a deal: who took its last trick, both teams' points, and the match's total
    or result, from ``side``'s point of view (a spectator's: seats 1 & 3 first)."""
    deal = view["deal_results"][-1]
    final = _final_trick(deal, names)
    news = [_("%(name)s takes the trick.") % {"name": final["winner_name"] if final else ""}]
    us = 0 if side is None else side
    labels = _team_labels()
    team = labels["seats"] if side is None else (labels["we"], labels["they"])
    if side is not None and us == 1:
        team = (team[1], team[0])  # indexed by team number: ours is "We"

    def points(figures: list[int]) -> str:
        if side is None:
            return _("%(first)s for %(first_team)s, %(second)s for %(second_team)s") % {
                "first": figures[0],
                "first_team": team[0],
                "second": figures[1],
                "second_team": team[1],
            }
        return _("%(we)s %(ours)s, %(they)s %(theirs)s") % {
            "we": team[us],
            "ours": figures[us],
            "they": team[1 - us],
            "theirs": figures[1 - us],
        }

    number = len(view["deal_results"])
    news.append(
        _("Deal %(number)s: %(points)s.") % {"number": number, "points": points(deal["award"])}
    )
    if deal["capot"] is not None:
        news.append(_("Capot: %(team)s took every trick.") % {"team": team[deal["capot"]]})
    if deal["outcome"] == "inside":
        news.append(_("The contract went inside."))
    if deal["hanging_after"]:
        news.append(
            _("%(points)s points hang over to the next deal.") % {"points": deal["hanging_after"]}
        )
    winner, scores = view["winner"], view["scores"]
    if winner is None:
        news.append(_("Total: %(points)s.") % {"points": points(scores)})
    else:
        news.append(
            _("Match over: %(team)s won, %(won)s to %(lost)s.")
            % {"team": team[winner], "won": scores[winner], "lost": scores[1 - winner]}
        )
    return news


def score_sheet(
    view: BeloteView,
    us: int,
    names: dict[int, str],
    earlier: Mapping[int, tuple[int, str]] | None = None,
) -> list[SheetRow]:
    """One row per deal, from the point of view of team ``us`` (We / They). ``earlier``: by
    seat, the first deal of a player who took a computer's seat, and the computer's name,
    which names the seat in the deals before it."""
    rows: list[SheetRow] = []
    now = names
    for number, deal in enumerate(view["deal_results"], start=1):
        names = now
        if earlier:
            names = dict(now)
            for seat, (first, before) in earlier.items():
                if number < first:
                    names[seat] = before
        them = 1 - us
        last_ten = 20 if deal["contract"] == "NT" else 10
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
                # The tricks' points apart from the last ten, so that the parts add up.
                "we_tricks": deal["card_points"][us] - (last_ten if deal["last_ten"] == us else 0),
                "they_tricks": deal["card_points"][them]
                - (last_ten if deal["last_ten"] == them else 0),
                "last_ten_points": last_ten,
                "us": us,
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


def written_because(row: SheetRow, us_label: str, them_label: str) -> str:
    """Why a deal's written points are what they are, in one sentence ("Inside: the defenders
    take all 182 points → 18."), the teams named as the sheet names them."""
    deal = row["deal"]
    label = {row["us"]: us_label, 1 - row["us"]: them_label}
    raw, written, multiplier = deal["raw"], deal["written"], deal["multiplier"]
    total = raw[0] + raw[1]
    defenders = 1 - deal["declarer"] % 2
    parts = []
    if deal["capot"] is not None:
        parts.append(_("capot (%(team)s): every trick, +90") % {"team": label[deal["capot"]]})
    call = {2: _("×2 contra"), 4: _("×4 recontra")}.get(multiplier)  # noqa: RUF001
    if deal["outcome"] == "hanging" and call:
        parts.append(
            _("%(call)s with equal points: the whole deal, %(points)s, waits for the next one")
            % {"call": call, "points": deal["hanging_added"]}
        )
    elif deal["outcome"] == "hanging":
        parts.append(
            _("hanging: the defenders write %(written)s, %(points)s wait for the next deal")
            % {"written": written[defenders], "points": deal["hanging_added"]}
        )
    elif call:
        winner = deal["winning_team"]
        parts.append(
            _(
                "%(call)s: the whole deal, %(total)s → %(written)s, to the team with more "
                "points (%(team)s)"
            )
            % {"call": call, "team": label[winner], "total": total, "written": written[winner]}
        )
    elif deal["outcome"] == "inside":
        parts.append(
            _("inside: the defenders take all the points, %(total)s → %(written)s")
            % {"total": total, "written": written[defenders]}
        )
    else:
        us, them = row["us"], 1 - row["us"]
        parts.append(
            _(
                "made: each team writes its own points, rounded: %(first)s %(first_raw)s → "
                "%(first_written)s, %(second)s %(second_raw)s → %(second_written)s"
            )
            % {
                "first": label[us],
                "first_raw": raw[us],
                "first_written": written[us],
                "second": label[them],
                "second_raw": raw[them],
                "second_written": written[them],
            }
        )
    won = deal["hanging_won"]
    for team in (0, 1):
        if won[team]:
            parts.append(
                _("hanging points from earlier deals: +%(points)s (%(team)s)")
                % {"team": label[team], "points": won[team]}
            )
    sentence = "; ".join(parts)
    return sentence[:1].upper() + sentence[1:] + "."


@per_language
def _team_labels() -> TeamLabels:
    """How the two teams are named: for a player "We" and "They", for a spectator by their
    seats (kept per language: read-only)."""
    return {"we": _("We"), "they": _("They"), "seats": (_("Seats 1 & 3"), _("Seats 2 & 4"))}


def side_of(me: int | None) -> int | None:
    """Partners see the felt and the score sheet alike; spectators read it from seats 1 & 3."""
    return None if me is None else me % 2


def side_context(view: BeloteView, seats: list[SeatRow], me: int | None) -> dict[str, object]:
    """The felt, the calls and the score sheet, as the viewer's team (or a spectator) sees them."""
    public = _public_context(view, seats)
    us = (me if me is not None else 0) % 2
    # The score sheet names computers short, as the felt does (its rows are read at a glance),
    # and each deal's players as they were then.
    earlier = {row["index"]: row["earlier"] for row in seats if row.get("earlier")}
    team = _team_context(view, us, me is None, public["short_names"], earlier)
    return {**public, **team}


def board_context(
    view: BeloteView,
    seats: list[SeatRow],
    me: int | None,
    selected: str = "",
    side: dict[str, object] | None = None,
) -> dict[str, object]:
    """Context for ``games/belote/board.html``."""
    if side is None:
        side = side_context(view, seats, me)
    legal = view["legal"]
    playable = set(legal) if view["phase"] == "play" else set()
    return {
        **side,
        "calls": [action for action in legal if view["phase"] == "auction"],
        "hand": [{"card": card, "playable": card in playable} for card in view["hand"]],
        "announce": view["announce"],
        # Whether the table announced a declaration or belot of the viewer's for them.
        "announced_for_me": me is not None
        and view["options"]["announce"] == "auto"
        and any(item["seat"] == me for item in (*view["declarations"], *view["belots"])),
        "my_turn": me is not None and view["to_act"] == me,
    }


def _public_context(view: BeloteView, seats: list[SeatRow]) -> Felt:
    """What every viewer of the table is shown alike: the felt, the contract, whose turn."""
    last_calls: dict[int, str] = {}
    if view["phase"] == "auction":
        for seat, call in view["auction"]:
            last_calls[seat] = call
    bubbles: dict[int, list[str]] = {0: [], 1: [], 2: [], 3: []}
    for item in view["declarations"]:
        bubbles[item["seat"]].append(item["kind"])
    for item in view["belots"]:
        bubbles[item["seat"]].append("belot")
    # Only what the felt shows, the same for every viewer (where each sits is the CSS's job).
    # Every line of the table names a player short, as the felt does: a computer's level
    # shows only in the seats panel.
    felt_names: dict[int, str] = {}
    computers: set[int] = set()
    players = []
    sizes, dealer, to_act = view["hand_sizes"], view["dealer"], view["to_act"]
    for row in seats:
        index, name = row["index"], row["name"]
        short = row.get("short_name", name)
        felt_names[index] = short
        if row.get("is_bot"):
            computers.add(index)
        players.append(
            FeltPlayer(
                index,
                short,
                name if row.get("is_bot") else "",
                sizes[index],
                last_calls.get(index),
                tuple(bubbles[index]),
                dealer == index,
                to_act == index,
            )
        )
    trick: list[CardAt] = [{"seat": seat, "card": card} for seat, card in view["trick"]]
    last_trick = view["last_trick"]
    resting: RestingTrick | None = None
    if not trick and last_trick and view["phase"] == "play":
        # The completed trick stays on the table until the next lead (ui.md).
        resting = {
            "cards": [{"seat": seat, "card": card} for seat, card in last_trick["cards"]],
            "winner": last_trick["winner"],
            "winner_name": felt_names.get(last_trick["winner"], ""),
        }
    elif view["phase"] == "auction" and not view["auction"] and view["deal_results"]:
        # And the last deal's last trick until the first call of the next.
        resting = _final_trick(view["deal_results"][-1], felt_names)
    contract = view["contract"]
    return {
        "players": players,
        "names": felt_names,
        "short_names": felt_names,
        "trick": trick,
        "resting": resting,
        "contract": contract,
        "contract_declarer_name": felt_names.get(contract["declarer"], "") if contract else "",
        "last_taker": felt_names.get(last_trick["winner"], "") if last_trick else "",
        "last_taker_computer": bool(last_trick) and last_trick["winner"] in computers,
        "to_act_name": felt_names.get(to_act, "") if to_act is not None else "",
        "to_act_computer": to_act in computers,
    }


def _final_trick(deal: DealResult, names: dict[int, str]) -> RestingTrick | None:
    """A finished deal's last trick and who took it (None after an all-pass deal)."""
    if not deal["tricks"]:
        return None
    cards = deal["tricks"][-1]
    taken = trick_winner([INDEX[code] for _seat, code in cards], CONTRACT_INDEX[deal["contract"]])
    return {
        "cards": [{"seat": seat, "card": card} for seat, card in cards],
        "winner": cards[taken][0],
        "winner_name": names.get(cards[taken][0], ""),
    }


def _team_context(
    view: BeloteView,
    us: int,
    spectator: bool,
    names: dict[int, str],
    earlier: Mapping[int, tuple[int, str]] | None = None,
) -> dict[str, object]:
    """What the players of team ``us`` (or spectators, who read it from seats 1 & 3) are shown
    alike: the score sheet and the scores, from that side."""
    labels = _team_labels()
    if spectator:
        us_label, them_label = labels["seats"][us], labels["seats"][1 - us]
    else:
        us_label, them_label = labels["we"], labels["they"]
    contract = view["contract"]
    sheet = score_sheet(view, us, names, earlier)
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


def deal_summary(result: DealResult) -> str:
    """A finished deal in a few words, as an event's results list it: its contract (doubled or
    redoubled), the declarer's seat and how it went; a thrown-in deal says so."""
    if result["contract"] is None:
        return _outcome_text("redeal")
    contract = call_name(result["contract"])
    if result["multiplier"] in MULTIPLIERS:
        contract = f"{contract} {MULTIPLIERS[result['multiplier']]}"
    return _("%(contract)s by seat %(seat)d: %(outcome)s") % {
        "contract": contract,
        "seat": result["declarer"] + 1,
        "outcome": _outcome_text(result["outcome"]),
    }


# --------------------------------------------------------------------------------------------
# A deal's review (``games.analysis.belote_review``)


def _review_line(par: Par, declaring: int) -> dict[str, object]:
    """A line of play's figures: raw points and written figures per team, and the outcome."""
    return {
        "contract": par["contract"],
        "raw": par["raw"],
        "written": par["written"],
        "outcome": _outcome_text(par["outcome"]),
        "declarers": par["raw"][declaring],
        "defenders": par["raw"][1 - declaring],
        "declarers_written": par["written"][declaring],
        "defenders_written": par["written"][1 - declaring],
    }


def review_context(review: Review, names: dict[int, str]) -> dict[str, object]:
    """A deal's review as its page shows it: hands, par against the play, every card, each
    player, and par for each contract the declarer could have bid."""
    declaring = review["declarer"] % 2
    plays = []
    for i, play in enumerate(review["plays"]):
        plays.append(
            {
                **play,
                "name": names.get(play["seat"], ""),
                "trick": i // 4 + 1,
                "first_of_trick": i % 4 == 0,
            }
        )
    players = [
        {
            **player,
            "name": names.get(player["seat"], ""),
            "number": player["seat"] + 1,
            "share": round(100 * player["exact"] / player["cards"]) if player["cards"] else 0,
        }
        for player in review["players"]
    ]
    return {
        "contract": review["contract"],
        "multiplier": review["multiplier"],
        "declarer_name": names.get(review["declarer"], ""),
        "team_labels": _team_labels()["seats"],
        "hands": [
            {"number": seat + 1, "name": names.get(seat, ""), "side": seat % 2, "cards": cards}
            for seat, cards in enumerate(review["hands"])
        ],
        "par": _review_line(review["par"], declaring),
        "actual": _review_line(review["actual"], declaring),
        "par_lost": sum(play["lost"] for play in review["plays"]),
        "plays": plays,
        "players": players,
        "contracts": [
            {**_review_line(line, declaring), "bid": line["contract"] == review["contract"]}
            for line in review["contracts"]
        ],
    }
