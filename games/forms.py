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
    turn_seconds = forms.TypedChoiceField(
        label=_("Turn timer"),
        choices=[
            (0, _("Off")),
            (15, _("15 seconds")),
            (30, _("30 seconds")),
            (60, _("60 seconds")),
        ],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
        help_text=_("When it runs out, a computer player moves for you until you act again."),
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


class GrabushOptionsForm(forms.Form):
    """Grabush table options (rules §1, §2, §4)."""

    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(2, "2"), (4, "4"), (6, "6"), (8, "8")],
        coerce=int,
        initial=2,
    )
    stock_size = forms.TypedChoiceField(
        label=_("Stock size"),
        choices=[(20, "20"), (25, "25"), (30, "30")],
        coerce=int,
        initial=20,
        help_text=_("25 and 30 are for tables of 6 or 8."),
    )
    table_talk_penalty = forms.BooleanField(
        label=_("Table-talk penalty: chat during a game lets the opponents claim a penalty"),
        required=False,
        initial=True,
    )

    def clean(self) -> dict:
        data = super().clean()
        if data.get("stock_size", 20) != 20 and data.get("players", 2) < 6:
            self.add_error("stock_size", _("Stocks of 25 or 30 are only for 6 or 8 players."))
        return data


class ReportForm(forms.Form):
    """Why a player reports a message or another player."""

    kind = forms.ChoiceField(
        label=_("What is wrong?"),
        choices=[
            ("abuse", _("Insults or harassment")),
            ("cheating", _("Cheating or collusion")),
            ("spam", _("Spam")),
            ("other", _("Something else")),
        ],
    )
    details = forms.CharField(
        label=_("Details (optional)"), required=False, max_length=400, widget=forms.Textarea
    )

    def reason(self) -> str:
        """The report's reason as one line for the moderators."""
        label = dict(self.fields["kind"].choices)[self.cleaned_data["kind"]]
        details = self.cleaned_data["details"].strip()
        return f"{label}: {details}" if details else str(label)
