"""Grabush on the site: two to eight players in two sides, and its table-talk penalty."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..bots import grabush as bots
from ..engines import grabush as engine
from ..presenters import grabush as presenter
from . import Game, MatchResult, TableOptions


class GrabushOptionsForm(forms.Form):
    """Grabush table options (rules §1, §2, §4)."""

    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"),
        choices=[(2, "2"), (4, "4"), (6, "6"), (8, "8")],
        coerce=int,
        initial=2,
    )
    stock_size = forms.TypedChoiceField(
        label=gettext_lazy("Stock size"),
        choices=[(20, "20"), (25, "25"), (30, "30")],
        coerce=int,
        initial=20,
        help_text=gettext_lazy("25 and 30 are for tables of 6 or 8."),
    )
    table_talk_penalty = forms.BooleanField(
        label=gettext_lazy(
            "Table-talk penalty: chat during a game lets the opponents claim a penalty"
        ),
        help_text=gettext_lazy(
            "As at a real table: every chat message from a seated player while the game runs "
            "lets each opponent put a card from their hand into the middle of that side's stock."
        ),
        required=False,
        initial=True,
    )

    def clean(self) -> dict:
        data = super().clean()
        if data.get("stock_size", 20) != 20 and data.get("players", 2) < 6:
            self.add_error(
                "stock_size", gettext_lazy("Stocks of 25 or 30 are only for 6 or 8 players.")
            )
        return data


class Grabush(Game[engine.State, engine.GrabushView]):
    """Grabush's stocks as scores, and the chat that grants penalty rights."""

    #: A newcomer's greeting should not cost cards: the rule is for tables that choose it.
    quick_options: ClassVar[TableOptions] = {"table_talk_penalty": False}

    def apply_logged(self, state: engine.State, seat: int, action: str) -> engine.State:
        return engine.apply_entry(state, seat, action)

    def chat_action(self, options: TableOptions, seat: int) -> str | None:
        if options.get("table_talk_penalty", True):
            return f"{engine.GRANT_PENALTY}{seat % 2}"
        return None

    def chat_warning(self, options: TableOptions) -> str:
        if options.get("table_talk_penalty", True):
            return _(
                "Table talk: while the game runs, a message from a player lets the other side "
                "claim a penalty."
            )
        return ""

    def result(self, state: engine.State) -> MatchResult:
        return engine.result(state)

    def drawn_deals(
        self, seed: str, options: TableOptions, state: engine.State
    ) -> list[dict[str, object]]:
        return engine.drawn_deals(seed, self.seat_count(options))

    def side_scores(self, result: MatchResult) -> list[int] | None:
        return result.get("stocks")

    def score_text(self, score: int) -> str:
        return ngettext("%(n)d card left", "%(n)d cards left", score) % {"n": score}

    def record_context(
        self,
        view: engine.GrabushView,
        names: dict[int, str],
        earlier: Mapping[int, tuple[int, str]] | None = None,
    ) -> dict[str, object]:
        return {"end_reason": view["end_reason"]}


GAME = Grabush(
    name="grabush",
    label=gettext_lazy("Grabush"),
    engine=engine,
    bots=bots.LEVELS,
    presenter=presenter,
    options_form=GrabushOptionsForm,
    seats=2,
    score_unit=gettext_lazy("cards left"),
    cover_level="hard",
)
