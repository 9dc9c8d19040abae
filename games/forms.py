"""Forms: creating a table and each game's table options."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import GAME_CHOICES


class TableForm(forms.Form):
    """The part of "new table" that every game shares."""

    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)
    is_private = forms.BooleanField(
        label=_("Private table (only people with the link can join)"), required=False
    )


class BeloteOptionsForm(forms.Form):
    """Belote table options (rules §9)."""

    target = forms.TypedChoiceField(
        label=_("Play to"),
        choices=[(151, "151"), (101, "101"), (251, "251")],
        coerce=int,
        initial=151,
    )
    declarations = forms.ChoiceField(
        label=_("Declarations"),
        choices=[
            ("separate", _("Sequences and carrés compared separately (official)")),
            ("pool", _("One pool: the best single declaration wins (2001 program)")),
        ],
        initial="separate",
    )
    finish_with_hanging = forms.BooleanField(
        label=_("The match may end while points hang"), required=False, initial=True
    )
