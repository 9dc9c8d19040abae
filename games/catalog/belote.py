"""Bulgarian Belote on the site: four players in two partnerships."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..analysis import belote_review
from ..bots import belote as bots
from ..engines import belote as engine
from ..presenters import belote as presenter
from ..presenters.words import per_language
from . import Game, MatchResult, TableOptions


class BeloteOptionsForm(forms.Form):
    """Belote table options (rules §9)."""

    target = forms.TypedChoiceField(
        label=gettext_lazy("Play to"),
        choices=[(151, "151"), (101, "101"), (251, "251")],
        coerce=int,
        initial=151,
    )
    declarations = forms.ChoiceField(
        label=gettext_lazy("Declarations"),
        choices=[
            ("separate", gettext_lazy("Sequences and carrés compared separately (official)")),
            ("pool", gettext_lazy("One pool: the best single declaration wins (2001 program)")),
        ],
        initial="separate",
    )
    finish_with_hanging = forms.BooleanField(
        label=gettext_lazy("The match may end while points hang"), required=False, initial=True
    )
    ask_to_announce = forms.BooleanField(
        label=gettext_lazy("Ask me before announcing"),
        help_text=gettext_lazy(
            "With your first card you choose which declarations to announce, and with the first "
            "of a trump king and queen whether to say belot. Off: everything is announced."
        ),
        required=False,
        initial=True,
    )
    deal_pause = forms.TypedChoiceField(
        label=gettext_lazy("After each deal"),
        choices=[
            (10, gettext_lazy("Show its result for up to 10 seconds")),
            (20, gettext_lazy("Show its result for up to 20 seconds")),
            (5, gettext_lazy("Show its result for up to 5 seconds")),
            (0, gettext_lazy("Start the next deal at once")),
        ],
        coerce=int,
        initial=10,
        required=False,
        empty_value=10,
        help_text=gettext_lazy("The next deal starts sooner when every player clicks “Next deal”."),
    )


#: Table options the site reads itself; the others are the engine's.
TABLE_ONLY = ("deal_pause",)


@per_language
def _seating_note() -> str:
    return _("Partners sit opposite each other: seats 1 and 3 play against seats 2 and 4.")


class Belote(Game[engine.State, engine.BeloteView]):
    """Belote's score sheet and partnerships."""

    #: A newcomer at a quick table is not asked what to announce: everything is.
    quick_options: ClassVar[TableOptions] = {"ask_to_announce": False}

    def seating_note(self, seat_count: int) -> str:
        return _seating_note()

    def engine_options(self, options: TableOptions) -> TableOptions:
        kept = {name: value for name, value in options.items() if name not in TABLE_ONLY}
        if kept.pop("ask_to_announce", False):
            kept["announce"] = "ask"
        return kept

    def drawn_deals(
        self, seed: str, options: TableOptions, state: engine.State
    ) -> list[dict[str, object]]:
        return engine.drawn_deals(seed, engine.deals_dealt(state))

    def deals_done(self, state: engine.State) -> int:
        return len(engine.deal_results(state))

    @property
    def join_note(self) -> str:
        return _("You take a computer player's seat at the next deal.")

    def progress(self, state: engine.State, seat: int) -> str:
        scores = engine.view(state, None)["scores"]
        return _("%(ours)d–%(theirs)d, deal %(n)d") % {  # noqa: RUF001
            "ours": scores[seat % 2],
            "theirs": scores[1 - seat % 2],
            "n": self.deals_done(state) + 1,
        }

    def claim_note(self, number: int, name: str = "") -> str:
        if name:
            return _("%(name)s takes seat %(n)d at the next deal.") % {"name": name, "n": number}
        return _("You take seat %(n)d at the next deal.") % {"n": number}

    def deal_pause_seconds(self, options: TableOptions) -> int:
        return int(options.get("deal_pause", 0))

    def last_deal_played(self, state: engine.State) -> bool:
        results = engine.deal_results(state)
        return bool(results) and results[-1]["contract"] is not None

    def result(self, state: engine.State) -> MatchResult:
        return engine.result(state)

    def record_context(
        self,
        view: engine.BeloteView,
        names: dict[int, str],
        earlier: Mapping[int, tuple[int, str]] | None = None,
    ) -> dict[str, object]:
        return {"sheet": presenter.score_sheet(view, 0, names, earlier)}

    review_version = belote_review.VERSION

    def reviewable_deals(self, state: engine.State) -> list[int]:
        results = engine.deal_results(state)
        return [number for number, deal in enumerate(results, start=1) if deal["contract"]]

    def review_deal(self, states: list[engine.State], number: int) -> dict[str, Any] | None:
        played = belote_review.deal_starts(states).get(number - 1)
        if played is None:
            return None
        start, cards = played
        return dict(belote_review.review_deal(start, cards))

    def review_context(self, review: dict[str, Any], names: dict[int, str]) -> dict[str, object]:
        return presenter.review_context(review, names)


GAME = Belote(
    name="belote",
    label=gettext_lazy("Belote"),
    engine=engine,
    bots=bots.LEVELS,
    presenter=presenter,
    options_form=BeloteOptionsForm,
    cover_level="hard",
)
