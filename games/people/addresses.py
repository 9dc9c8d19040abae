"""Confirming an account's e-mail address: a link sent to it, signed with the account and the
address, confirms it while the account still has that address. Mail other than password
resets goes only to a confirmed address.

Every refusal raises :class:`AddressError` with a message for the player and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.core.mail import send_mail
from django.utils.translation import gettext as _

from cardroom import metrics

from ..models import Profile
from ..refusals import Refusal
from . import friends, limits

#: Keeps these links' signatures apart from every other signed value of the site.
SALT = "games.people.addresses"
#: How long a confirmation link works.
MAX_AGE = 3 * 24 * 3600


class AddressError(Refusal):
    """A confirmation that cannot be done; the message says why."""


def confirmed_address(user: AbstractBaseUser, choices: Profile | None = None) -> str:
    """``user``'s address if its owner confirmed it, else "" (``choices``: their profile,
    when at hand)."""
    choices = choices or friends.choices_of(user)
    return user.email if user.email and choices.confirmed_email == user.email else ""


def token(user: AbstractBaseUser) -> str:
    """The signed, timestamped token of a link that confirms ``user``'s current address."""
    return signing.dumps({"user": user.pk, "email": user.email}, salt=SALT, compress=True)


def send_link(user: AbstractBaseUser, link: Callable[[str], str]) -> str:
    """Mail ``user``'s address a confirmation link (``link`` makes its URL from the token);
    in words. At most ``EMAIL_CONFIRMATIONS_PER_HOUR`` an hour."""
    if not user.email:
        raise AddressError(_("There is no address to confirm."))
    if confirmed_address(user):
        raise AddressError(_("Your address is confirmed already."))
    key = f"email-confirmations:{user.pk}"
    if not limits.spend(key, settings.EMAIL_CONFIRMATIONS_PER_HOUR, limits.HOUR):
        raise AddressError(
            _("Many confirmation links were sent this hour: ask for another one later."),
            reason=metrics.LIMIT,
        )
    values = {"name": user.get_username(), "url": link(token(user))}
    send_mail(
        _("Confirm your e-mail address for Cardroom"),
        _(
            "Open this link to confirm that Cardroom may e-mail the invitations of %(name)s to"
            " this address: %(url)s\n\nIf you did not ask for it, do nothing: no invitation"
            " will be mailed to you."
        )
        % values,
        None,
        [user.email],
        fail_silently=True,
    )
    return _("A confirmation link was sent to %(email)s.") % {"email": user.email}


def holder(signed: str) -> tuple[AbstractBaseUser, str]:
    """The account and address a link's token names, while the account still has that
    address."""
    try:
        named = signing.loads(signed, salt=SALT, max_age=MAX_AGE)
        user_id, email = named["user"], named["email"]
    except signing.SignatureExpired:
        raise AddressError(_("This link is too old: ask for a new one.")) from None
    except (signing.BadSignature, KeyError, TypeError):
        raise AddressError(_("This link is not a confirmation link of ours.")) from None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not email or user.email != email:
        raise AddressError(_("This link is for an address the account no longer has."))
    return user, email


def confirm(signed: str) -> str:
    """Confirm the address a link's token names; in words."""
    user, email = holder(signed)
    Profile.objects.update_or_create(user=user, defaults={"confirmed_email": email})
    return _("%(email)s is confirmed.") % {"email": email}
