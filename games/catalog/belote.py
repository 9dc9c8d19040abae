"""Bulgarian Belote on the site: four players in two partnerships."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..bots import belote as bots
from ..engines import belote as engine
from ..presenters import belote as presenter
from . import Game


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


class Belote(Game):
    """Belote's score sheet and partnerships."""

    def seating_note(self, seat_count: int) -> str:
        return _("Partners sit opposite each other: seats 1 and 3 play against seats 2 and 4.")

    def record_context(self, view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
        return {"sheet": presenter.score_sheet(view, 0, names)}


GAME = Belote(
    name="belote",
    label=gettext_lazy("Belote"),
    engine=engine,
    bots=bots.LEVELS,
    presenter=presenter,
    options_form=BeloteOptionsForm,
)
