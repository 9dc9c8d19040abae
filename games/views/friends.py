"""Friends, invitations and the player's notifications: pages and the forms that answer them.

Every action is a POST; a refusal comes back as a message and changes nothing. Answers made
through htmx (a live notice's buttons) get the notice's replacement, or a redirect to the table.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect
from friendship.models import FriendshipRequest

from .. import live
from ..events import running
from ..models import Invitation, Profile
from ..people import addresses, friends
from ..records.together import records_with
from ..refusals import Refusal
from ..tables import invitations
from . import done, next_url
from .forms import UsernameForm


class ChoicesForm(forms.ModelForm):
    """Who may reach the player, and whether invitations also come by e-mail (to the
    account's address, kept on the account)."""

    email = forms.EmailField(label=gettext_lazy("E-mail address"), required=False)

    class Meta:
        model = Profile
        fields = ["requests_from", "invitations_from", "online_to", "email_invitations"]
        labels = {
            "requests_from": gettext_lazy("Who may send me friend requests"),
            "invitations_from": gettext_lazy("Who may invite me to a table"),
            "online_to": gettext_lazy("Who sees when I am online, and at which table"),
            "email_invitations": gettext_lazy("Also e-mail me my invitations"),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].initial = self.instance.user.email

    def clean(self) -> dict:
        data = super().clean()
        if data.get("email_invitations") and not data.get("email"):
            self.add_error("email", _("Give the address the invitations go to."))
        return data

    def save(self, commit: bool = True) -> Profile:
        user = self.instance.user
        user.email = self.cleaned_data["email"]
        user.save(update_fields=["email"])
        return super().save(commit)


@require_GET
@login_required
def friends_page(request: HttpRequest) -> HttpResponse:
    """The player's friends with their presence and tables, requests waiting both ways, the
    players they block, and who may reach them."""
    page, rows = friends.friend_rows(request.user, request.GET.get("page"))
    together = records_with(request.user, [row.user for row in rows])
    choices = friends.choices_of(request.user)
    return render(
        request,
        "games/friends.html",
        {
            "page": page,
            "rows": [(row, together.get(row.user.pk)) for row in rows],
            "incoming": friends.requests_for(request.user),
            "outgoing": friends.requests_from(request.user),
            "blocked": friends.blocked_by(request.user),
            "choices": ChoicesForm(instance=choices),
            "email_confirmed": bool(addresses.confirmed_address(request.user, choices)),
        },
    )


@require_POST
@login_required
def send_request(request: HttpRequest) -> HttpResponse:
    username = UsernameForm.named_in(request)

    def ask() -> str:
        said = friends.request_friend(request.user, username)
        waiting = FriendshipRequest.objects.filter(
            from_user=request.user, to_user__username__iexact=username, rejected__isnull=True
        ).first()
        if waiting is not None:
            live.notice(waiting.to_user_id, "friend_request", waiting.pk)
        return said

    return done(request, next_url(request, "friends"), ask)


@require_POST
@login_required
def answer_friend_request(request: HttpRequest, pk: int, answer: str) -> HttpResponse:
    try:
        said = friends.answer_request(request.user, pk, answer == "accept")
    except Refusal as error:
        said = str(error)
    if request.htmx:
        return render(request, "games/partials/notice_said.html", {"said": said})
    messages.info(request, said)
    return redirect(next_url(request, "friends"))


@require_POST
@login_required
def cancel_request(request: HttpRequest, pk: int) -> HttpResponse:
    return done(request, next_url(request, "friends"), friends.cancel_request, request.user, pk)


@require_POST
@login_required
def remove_friend(request: HttpRequest) -> HttpResponse:
    username = UsernameForm.named_in(request)
    return done(
        request, next_url(request, "friends"), friends.remove_friend, request.user, username
    )


@require_POST
@login_required
def block(request: HttpRequest) -> HttpResponse:
    username = UsernameForm.named_in(request)
    return done(request, next_url(request, "friends"), friends.block, request.user, username)


@require_POST
@login_required
def unblock(request: HttpRequest) -> HttpResponse:
    username = UsernameForm.named_in(request)
    return done(request, next_url(request, "friends"), friends.unblock, request.user, username)


@require_POST
@login_required
def save_choices(request: HttpRequest) -> HttpResponse:
    """Save the player's choices; a new address, or invitations by e-mail asked for with an
    unconfirmed one, gets a confirmation link."""
    choices = friends.choices_of(request.user)
    before = (request.user.email, choices.email_invitations)
    form = ChoicesForm(request.POST, instance=choices)
    if form.is_valid():
        form.save()
        messages.success(request, _("Saved."))
        user = form.instance.user
        asked = form.instance.email_invitations and not before[1]
        if (
            user.email
            and not addresses.confirmed_address(user, form.instance)
            and (user.email != before[0] or asked)
        ):
            send_confirmation(request, user)
    else:
        messages.error(request, _("Those choices could not be saved."))
    return redirect("friends")


def send_confirmation(request: HttpRequest, user) -> None:
    """Mail ``user``'s address its confirmation link; say so, or why not."""

    def link(signed: str) -> str:
        return request.build_absolute_uri(reverse("confirm_email", args=[signed]))

    try:
        messages.info(request, addresses.send_link(user, link))
    except Refusal as error:
        messages.error(request, str(error))


@require_POST
@login_required
def resend_confirmation(request: HttpRequest) -> HttpResponse:
    send_confirmation(request, request.user)
    return redirect("friends")


@require_GET
@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """Invitations, friend requests and requests to partner someone at an event waiting
    for the player's answer."""
    return render(
        request,
        "games/notifications.html",
        {
            "waiting": invitations.waiting_for(request.user),
            "incoming": friends.requests_for(request.user),
            "partners": running.requests_for(request.user),
        },
    )


@require_POST
@login_required
def answer_invitation(request: HttpRequest, pk: int, answer: str) -> HttpResponse:
    """Accept (to the table, seated) or decline an invitation; the inviter is told."""
    try:
        invitation, why = invitations.answer(pk, request.user, answer == "accept")
    except Refusal as error:
        said, to_table = str(error), None
    else:
        live.notice(invitation.from_user_id, "answer", invitation.pk)
        if invitation.status == Invitation.Status.ACCEPTED:
            live.notify.announce(invitation.table_id, lobby=True)
        said = why or (
            "" if invitation.status == Invitation.Status.ACCEPTED else _("Invitation declined.")
        )
        to_table = None if why or answer != "accept" else invitation.table
    if to_table is not None:
        if request.htmx:
            return HttpResponseClientRedirect(to_table.get_absolute_url())
        return redirect(to_table)
    if request.htmx:
        return render(request, "games/partials/notice_said.html", {"said": said})
    messages.info(request, said)
    return redirect("notifications")
