"""Forms: creating a table (each game's options form is its own), reporting, and naming a player."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ..catalog import game_choices


class TableForm(forms.Form):
    """The part of "new table" that every game shares."""

    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
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
        help_text=_(
            "When it runs out, a computer player makes that move for you; after a few in a row,"
            " it plays on for you until you come back."
        ),
    )


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


class UsernameForm(forms.Form):
    """A player named by their username (to befriend, block, invite, manage in a club...).

    The name is cut to the longest a username can be and kept as typed: the service that acts
    on it finds the player, or refuses with a message naming what was typed.
    """

    username = forms.CharField(required=False, strip=False)

    def clean_username(self) -> str:
        longest = get_user_model()._meta.get_field("username").max_length
        return self.cleaned_data["username"][:longest]

    @classmethod
    def named_in(cls, request: HttpRequest) -> str:
        """The username the request's form names ("" when none, or none an account can have)."""
        form = cls(request.POST)
        return form.cleaned_data["username"] if form.is_valid() else ""
