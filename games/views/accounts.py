"""Sign-up and profile pages (log in, log out and passwords use Django's auth views)."""

from __future__ import annotations

from confusable_homoglyphs import confusables
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from cardroom import metrics
from cardroom.proxies import client_ip

from ..events import daily
from ..models import UsernameSkeleton
from ..people import addresses, friends, limits
from ..people.text import skeleton
from ..records import history
from ..refusals import Refusal
from ..tables.lobby import my_tables
from . import next_url

User = get_user_model()


class SignupForm(UserCreationForm):
    """Username and password, with an optional e-mail address for password resets."""

    email = forms.EmailField(
        label=gettext_lazy("E-mail (optional)"),
        required=False,
        help_text=gettext_lazy("Only used to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str | None:
        """Refuse, besides a name taken in any case, one that looks like a taken name (Cyrillic
        letters for Latin ones) and one that mixes alphabets with look-alike letters."""
        username = super().clean_username()
        if not username:
            return username
        if UsernameSkeleton.objects.filter(skeleton=skeleton(username)).exists():
            raise ValidationError(
                _("This username looks like one that is already taken; choose another."),
                code="look_alike",
            )
        if confusables.is_dangerous(username):
            raise ValidationError(
                _(
                    "This username mixes letters of different alphabets that look alike; "
                    "write it in one alphabet."
                ),
                code="mixed_script",
            )
        return username


class CardroomAuthenticationForm(AuthenticationForm):
    """Log in; a banned player who gives the right password is told why, and until when."""

    def clean(self) -> dict:
        try:
            return super().clean()
        except ValidationError:
            message = self._ban_message()
            if message:
                raise ValidationError(message, code="banned") from None
            raise

    def _ban_message(self) -> str:
        from ..people.moderation import active_ban

        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        user = User.objects.filter(username=username, is_active=False).first()
        if user is None or not password or not user.check_password(password):
            return ""
        ban = active_ban(user)
        if ban is None:
            return ""
        if ban.until is None:
            return _("A moderator closed your account: %(reason)s") % {"reason": ban.reason}
        return _("A moderator closed your account until %(until)s: %(reason)s") % {
            "until": formats.date_format(ban.until, "DATETIME_FORMAT"),
            "reason": ban.reason,
        }


login_view = LoginView.as_view(authentication_form=CardroomAuthenticationForm)


def axes_username(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """The username django-axes records for a log-in attempt, cut to its column's 255
    characters (an over-long username must be refused, not crash PostgreSQL)."""
    source = credentials if credentials else getattr(request, "POST", {})
    username = source.get("username")
    return None if username is None else str(username)[:255]


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, log it in and go on to ``next`` (an invited friend's table), else the
    lobby."""
    after = next_url(request, resolve_url("home"))
    if request.user.is_authenticated:
        return redirect(after)
    # An empty POST is a submission too: it gets its errors, not a blank form.
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        key = limits.signup_key(client_ip(request))
        if not limits.spend(key, settings.SIGNUPS_PER_ADDRESS_PER_HOUR, limits.HOUR):
            metrics.refused(metrics.LIMIT)
            form.add_error(
                None, _("Too many accounts were created from your address; try again in an hour.")
            )
            context = {"form": form, "next": after}
            return render(request, "registration/signup.html", context, status=429)
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Cardroom, %(name)s!") % {"name": user.username})
        return redirect(after)
    return render(request, "registration/signup.html", {"form": form, "next": after})


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public profile: results and rating per game, then their matches, paginated."""
    player = get_object_or_404(User, username=username, is_active=True)
    page, rows = history.player_matches(player, request.user, request.GET.get("page"))
    dailies, streak = daily.dailies_of(player)
    return render(
        request,
        "games/profile.html",
        {
            "player": player,
            "stats": history.game_stats(player),
            "page": page,
            "rows": rows,
            "is_friend": request.user.is_authenticated
            and friends.are_friends(request.user, player),
            "my_tables": my_tables(player) if player == request.user else [],
            "dailies": dailies,
            "daily_streak": streak,
        },
    )


@require_http_methods(["GET", "POST"])
def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """A confirmation link: its page names the account and the address, and its button (a
    POST, which no mail scanner opening links presses) confirms the address."""
    try:
        user, email = addresses.holder(token)
    except Refusal as error:
        return render(request, "games/confirm_email.html", {"error": str(error)}, status=400)
    if request.method == "POST":
        messages.success(request, addresses.confirm(token))
        return redirect("friends" if request.user == user else "home")
    confirmed = addresses.confirmed_address(user) == email
    return render(
        request,
        "games/confirm_email.html",
        {"player": user, "email": email, "confirmed": confirmed},
    )
