"""The games the site offers: one :class:`Game` object each, registered once.

Everything game-specific that the rest of the site needs (engine, computer players, presenter,
options form, templates, how chat affects play, how a result reads) is reached through a
``Game``; nothing outside a game's own modules and templates names a game. Adding one means
an engine, its bots, a presenter, templates and one :func:`register` call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypedDict, TypeVar

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from ..bots import Bot
from ..engines.contract import Engine, GameState
from ..presenters import Presenter

#: A table's options as its form cleaned them (``Table.options``): names to plain values.
TableOptions = dict[str, str | int | bool]
#: The game's engine state and the view of it one seat is given.
StateT = TypeVar("StateT", bound=GameState)
ViewT = TypeVar("ViewT", bound=Mapping[str, object])


class MatchResult(TypedDict, total=False):
    """A finished match's summary as its record keeps it (``Match.result``)."""

    #: The winning side (None: a draw).
    winner: int | None
    #: Each side's score, for a game that keeps scores.
    scores: list[int]
    #: Each side's cards left in its stock (Grabush).
    stocks: list[int]


@dataclass(frozen=True)
class Game(Generic[StateT, ViewT]):
    """How the site runs one game. Subclasses override the methods where their game differs."""

    name: str
    label: str | Promise
    #: The pure rules engine (``shared/rules/engine-api.md``).
    engine: Engine[StateT, ViewT]
    #: Computer players by level, weakest first.
    bots: Mapping[str, Bot[ViewT]]
    #: Turns an engine view into the board's template context (``games.presenters``).
    presenter: Presenter[ViewT]
    options_form: type[forms.Form]
    #: The strongest computer player (as ``manage.py bench bots`` measures them) that thinks
    #: within its time budget: it moves for an absent or timed-out human, fills quick tables
    #: and is offered first for free seats.
    cover_level: str = "normal"
    #: Seats at a table when the options do not say (``players``).
    seats: int = 4
    #: What a score counts, when it needs saying beside the figures (in a match list).
    score_unit: str | Promise = ""
    #: Options a quick table ("Play now") sets apart from the options form's initial values.
    quick_options: ClassVar[TableOptions] = {}

    @property
    def board_template(self) -> str:
        return f"games/{self.name}/board.html"

    @property
    def record_template(self) -> str:
        """The game's part of a finished match's record page."""
        return f"games/{self.name}/record.html"

    def seat_count(self, options: TableOptions) -> int:
        return int(options.get("players", self.seats))

    def teams(self, options: TableOptions) -> list[list[int]]:
        """Seats of each side: seats alternate (0, 2, … against 1, 3, …)."""
        seats = range(self.seat_count(options))
        return [[s for s in seats if s % 2 == 0], [s for s in seats if s % 2 == 1]]

    def seating_note(self, seat_count: int) -> str:
        """A line under the seats saying who plays with whom."""
        if seat_count > 2:
            return _("Seats alternate sides: odd-numbered seats play against even-numbered seats.")
        return ""

    def engine_options(self, options: TableOptions) -> TableOptions:
        """The table's options that the engine takes (``new_game``'s keywords)."""
        return dict(options)

    def new_state(self, seed: int | str, options: TableOptions) -> StateT:
        return self.engine.new_game(seed=seed, **self.engine_options(options))

    def drawn_deals(
        self, seed: str, options: TableOptions, state: StateT
    ) -> list[dict[str, object]]:
        """The deals a match at ``state`` has drawn from ``seed``, each its ``dealer`` and its
        ``cards`` top first (a match log lists them; ``games.verify`` checks them)."""
        return []

    def apply_logged(self, state: StateT, seat: int, action: str) -> StateT:
        """Apply one entry of the move log (a player's action, or a game's own entry)."""
        return self.engine.apply(state, seat, action)

    def deals_done(self, state: StateT) -> int:
        """How many deals of the match are over (a game without deals: always 0)."""
        return 0

    def deal_pause_seconds(self, options: TableOptions) -> int:
        """How long a finished deal's result stays before the next deal starts (0: at once)."""
        return 0

    def last_deal_played(self, state: StateT) -> bool:
        """Whether the last finished deal was played (its result is worth a pause; a thrown-in
        deal's is not)."""
        return False

    def progress(self, state: StateT, seat: int) -> str:
        """How far a running match has gone, as someone who would take ``seat`` reads it
        ("10-39, deal 3"); empty when a newcomer starts with the next match anyway."""
        return ""

    @property
    def join_note(self) -> str:
        """What joining a quick table means (the lobby's "Join")."""
        return _("You take a computer player's seat in the next game.")

    def claim_note(self, number: int, name: str = "") -> str:
        """When someone who took a computer player's seat (seat ``number``) during a match
        starts playing: told to them, or to the others about ``name``."""
        if name:
            return _("%(name)s takes seat %(n)d in the next game.") % {"name": name, "n": number}
        return _("You take seat %(n)d in the next game.") % {"n": number}

    def chat_action(self, options: TableOptions, seat: int) -> str | None:
        """The move-log entry a running match gets when the player at ``seat`` chats, if any."""
        return None

    def chat_warning(self, options: TableOptions) -> str:
        """What the chat box says while a match runs, when chatting changes play ("")."""
        return ""

    def result(self, state: StateT) -> MatchResult:
        """A JSON summary of a finished match for its record: the winner and the scores."""
        view = self.engine.view(state, None)
        summary = MatchResult(winner=view.get("winner"))
        if "scores" in view:
            summary["scores"] = view["scores"]
        return summary

    def side_scores(self, result: MatchResult) -> list[int] | None:
        """Each side's score in a recorded result."""
        return result.get("scores")

    def score_text(self, score: int) -> str:
        """A side's score in words."""
        return str(score)

    def record_context(
        self,
        view: ViewT,
        names: dict[int, str],
        earlier: Mapping[int, tuple[int, str]] | None = None,
    ) -> dict[str, object]:
        """What :attr:`record_template` shows, from the final spectator's view (``earlier``: by
        seat, the first deal of a player who took over a computer's seat, and its name)."""
        return {}

    #: The version of the game's deal reviews (0: the game has none); a kept review of another
    #: version is worked out again.
    review_version: ClassVar[int] = 0

    @property
    def review_template(self) -> str:
        """The page of a deal's review."""
        return f"games/{self.name}/review.html"

    def reviewable_deals(self, state: StateT) -> list[int]:
        """The numbers (from 1) of the finished deals of ``state`` that have a review."""
        return []

    def review_deal(self, states: list[StateT], number: int) -> dict[str, Any] | None:
        """Work out the review of deal ``number`` of the match whose states, from the first,
        are ``states`` (None when that deal has none): JSON of the game's own shape."""
        return None

    def review_context(self, review: dict[str, Any], names: dict[int, str]) -> dict[str, object]:
        """What :attr:`review_template` shows of a kept review."""
        return {}


#: Every game offered; each has state and view types of its own.
_games: dict[str, Game[Any, Any]] = {}


def register(game: Game[StateT, ViewT]) -> Game[StateT, ViewT]:
    """Offer ``game`` on the site (once per process; ``GamesConfig.ready`` registers ours)."""
    _games[game.name] = game
    return game


def unregister(name: str) -> None:
    """Stop offering the game ``name`` (tests)."""
    _games.pop(name, None)


def get_game(name: str) -> Game[Any, Any]:
    """The game ``name``; ``LookupError`` when the site does not offer it."""
    try:
        return _games[name]
    except KeyError:
        raise LookupError(f"unknown game {name!r}") from None


def all_games() -> list[Game[Any, Any]]:
    """Every game offered, in the order they were registered."""
    return list(_games.values())


def game_choices() -> list[tuple[str, str]]:
    """``(name, label)`` of every game, for models' and forms' choices."""
    return [(game.name, game.label) for game in _games.values()]


def game_label(name: str) -> str:
    """A game's name for people (the name itself for a game no longer offered)."""
    game = _games.get(name)
    return str(game.label) if game is not None else name
