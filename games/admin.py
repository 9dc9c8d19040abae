"""Moderation in the Django admin: users, tables, matches, chat and reports; and the public
cups staff schedule.

Every moderation action goes through :mod:`games.people.moderation` (closing a table:
:func:`games.tables.rows.abort_table`) and is written to the admin's log (``LogEntry``) with
the moderator's name.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import live
from .events import cups
from .events.running import EventError
from .models import (
    Announcement,
    ChatMessage,
    Club,
    DailyEntry,
    Event,
    EventPair,
    EventTable,
    Invitation,
    Match,
    Membership,
    Move,
    PushChoices,
    PushSubscription,
    Report,
    Sanction,
    Table,
)
from .people import clubs, moderation
from .tables import rows

User = get_user_model()

MUTE_CHOICES = [
    (15, _("15 minutes")),
    (60, _("1 hour")),
    (60 * 24, _("1 day")),
    (60 * 24 * 7, _("1 week")),
    (60 * 24 * 30, _("30 days")),
]


class SanctionForm(forms.Form):
    """The intermediate page of the mute and ban actions."""

    reason = forms.CharField(label=_("Reason (shown to the player)"), max_length=300)
    minutes = forms.TypedChoiceField(
        label=_("Duration"), choices=MUTE_CHOICES, coerce=int, required=False
    )


def _sanction_page(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet,
    action: str,
    title: str,
    with_duration: bool,
) -> TemplateResponse | None:
    """Show the reason (and duration) form; None once the moderator has filled it in."""
    form = SanctionForm(request.POST if "apply" in request.POST else None)
    if not with_duration:
        del form.fields["minutes"]
    if form.is_bound and form.is_valid():
        request.sanction = form.cleaned_data
        return None
    return TemplateResponse(
        request,
        "admin/games/sanction.html",
        {
            **modeladmin.admin_site.each_context(request),
            "title": title,
            "form": form,
            "queryset": queryset,
            "action": action,
            "opts": modeladmin.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        },
    )


class SanctionInline(admin.TabularInline):
    model = Sanction
    fk_name = "user"
    extra = 0
    fields = ("kind", "reason", "until", "lifted_at", "created_by", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """Users, with mute, ban and unban actions."""

    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined")
    inlines = [SanctionInline]
    actions = ["mute_users", "ban_users", "unban_users"]

    @admin.action(description=_("Mute the selected players (no chat)"), permissions=["change"])
    def mute_users(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        page = _sanction_page(self, request, queryset, "mute_users", _("Mute players"), True)
        if page is not None:
            return page
        data = request.sanction
        for user in queryset:
            sanction = moderation.mute(user, data["minutes"] or 60, data["reason"], request.user)
            self.log_change(
                request, user, f"Muted until {sanction.until:%Y-%m-%d %H:%M} UTC: {data['reason']}"
            )
        self.message_user(request, _("Muted %(n)d players.") % {"n": queryset.count()})
        return None

    @admin.action(description=_("Ban the selected players"), permissions=["change"])
    def ban_users(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        page = _sanction_page(self, request, queryset, "ban_users", _("Ban players"), False)
        if page is not None:
            return page
        reason = request.sanction["reason"]
        for user in queryset.exclude(pk=request.user.pk):
            banned = moderation.ban(user, reason, request.user)
            live.close_sockets(user.pk, banned=True)
            for table_id in banned.table_ids:
                live.announce(table_id)
            self.log_change(request, user, f"Banned: {reason}")
        self.message_user(request, _("Banned the selected players."))
        return None

    @admin.action(description=_("Lift the ban of the selected players"), permissions=["change"])
    def unban_users(self, request: HttpRequest, queryset: QuerySet) -> None:
        for user in queryset.filter(is_active=False):
            moderation.unban(user)
            self.log_change(request, user, "Ban lifted")
        self.message_user(request, _("Lifted the bans."))


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records that moderators read but never edit."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("seq", "seat", "action", "user", "created_at")
    readonly_fields = fields
    can_delete = False
    ordering = ("seq",)

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    """Matches; the secret, contributions, seed, engine state and move log only once a match
    has ended (while it runs they hold every hand and every face-down card), and its result
    too at an event's table only once every table of its round has finished (the same deals)."""

    list_display = ("id", "game", "table", "number", "status", "started_at", "finished_at")
    list_filter = ("game", "status", "started_at")
    search_fields = ("table__code", "players__user__username")
    list_select_related = ("table",)
    fields = (
        "table",
        "number",
        "game",
        "options",
        "status",
        "version",
        "started_at",
        "finished_at",
        "replay_link",
    )
    ended_fields = ("result", "secret", "contributions", "seed", "engine_state")
    readonly_fields = fields + ended_fields
    #: Fields no changelist lookup may touch: filtering on them would probe a running match
    #: (or the result of an event's table whose round is still being played elsewhere).
    secret_fields = frozenset(
        {"secret", "contributions", "seed", "state", "last_seat", "last_action", "moves", "result"}
    )
    inlines = [MoveInline]

    @staticmethod
    def _ended(match: Match | None) -> bool:
        """Over, and at an event's table, over at every table of its round (same deals); at
        a daily Belote's, its day over (every player of the day plays the same deals)."""
        return (
            match is not None
            and match.status != Match.Status.RUNNING
            and not EventTable.objects.filter(table_id=match.table_id, revealed=False).exists()
            and not DailyEntry.objects.filter(
                table_id=match.table_id, daily__closes_at__gt=timezone.now()
            ).exists()
        )

    def get_fields(self, request: HttpRequest, obj: Match | None = None) -> tuple[str, ...]:
        return self.fields + self.ended_fields if self._ended(obj) else self.fields

    def get_inlines(self, request: HttpRequest, obj: Match | None) -> list:
        return self.inlines if self._ended(obj) else []

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if lookup.split(LOOKUP_SEP, 1)[0] in self.secret_fields:
            return False
        return super().lookup_allowed(lookup, value, request)

    @admin.display(description=_("engine state"))
    def engine_state(self, match: Match) -> str:
        """The engine's JSON, indented."""
        return format_html("<pre>{}</pre>", json.dumps(json.loads(match.state), indent=1))

    @admin.display(description=_("Replay"))
    def replay_link(self, match: Match) -> str:
        """Hands are visible only in the replay, and only once the match is over."""
        if match.status == Match.Status.RUNNING:
            return _("Shown once the match is over.")
        if not self._ended(match):
            return _("Shown once every table of the round has finished.")
        return format_html('<a href="{}">{}</a>', reverse("replay", args=[match.pk]), _("Replay"))


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """Tables, with the abort action."""

    list_display = ("id", "game", "status", "owner", "is_private", "created_at", "updated_at")
    list_filter = ("game", "status", "is_private", "created_at")
    search_fields = ("code", "owner__username", "seats__user__username")
    list_select_related = ("owner",)
    #: The next match's secret is shown to nobody, staff included (``games.engines.fair_deals``).
    exclude = ("next_secret",)
    readonly_fields = ("code", "revision", "created_at", "updated_at")
    actions = ["abort_tables"]

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if lookup.split(LOOKUP_SEP, 1)[0] in ("next_secret", "matches", "seats"):
            return False
        return super().lookup_allowed(lookup, value, request)

    @admin.action(description=_("Abort the selected tables"), permissions=["change"])
    def abort_tables(self, request: HttpRequest, queryset: QuerySet) -> None:
        for table in queryset.exclude(status=Table.Status.ABORTED):
            rows.abort_table(table.pk)
            live.announce(table.pk, lobby=True)
            self.log_change(request, table, "Aborted by a moderator")
        self.message_user(request, _("The tables were closed and their players told."))


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Chat lines, with hide and restore (live for everyone at the table)."""

    list_display = ("created_at", "user", "table", "text", "notice", "hidden")
    list_filter = ("hidden", "notice", "created_at")
    search_fields = ("text", "user__username", "table__code")
    list_select_related = ("user", "table")
    readonly_fields = ("table", "user", "text", "notice", "created_at")
    actions = ["hide_messages", "restore_messages"]

    def set_hidden(self, queryset: QuerySet, hidden: bool) -> int:
        """Hide or restore the messages; their tables' chats refresh live."""
        count = queryset.count()
        for table_id in moderation.set_hidden(queryset, hidden):
            live.announce(table_id, chat=True)
        return count

    @admin.action(description=_("Hide the selected messages"), permissions=["change"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet) -> None:
        for message in queryset:
            self.log_change(request, message, "Hidden")
        count = self.set_hidden(queryset, True)
        self.message_user(request, ngettext("Hid %d message.", "Hid %d messages.", count) % count)

    @admin.action(description=_("Restore the selected messages"), permissions=["change"])
    def restore_messages(self, request: HttpRequest, queryset: QuerySet) -> None:
        for message in queryset:
            self.log_change(request, message, "Restored")
        count = self.set_hidden(queryset, False)
        self.message_user(
            request, ngettext("Restored %d message.", "Restored %d messages.", count) % count
        )


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """The reports queue: open first, with the reported message and the table's recent chat."""

    list_display = ("created_at", "status", "reported_user", "reporter", "reason", "table")
    list_filter = ("status", "created_at")
    search_fields = ("reason", "reported_user__username", "reporter__username")
    list_select_related = ("reported_user", "reporter", "table")
    ordering = ("-status", "-created_at")  # "open" sorts after "resolved": open first
    fields = (
        "status",
        "reporter",
        "reported_user",
        "reason",
        "reported_message",
        "table_link",
        "recent_chat",
        "created_at",
        "resolved_at",
        "resolved_by",
    )
    readonly_fields = fields[1:]  # only the status is the moderator's to change
    actions = ["resolve_reports"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("Message"))
    def reported_message(self, report: Report) -> str:
        if report.message is None:
            return "—"
        hidden = _(" (hidden)") if report.message.hidden else ""
        link = reverse("admin:games_chatmessage_change", args=[report.message.pk])
        return format_html('<a href="{}">{}</a>{}', link, report.message.text, hidden)

    @admin.display(description=_("Table"))
    def table_link(self, report: Report) -> str:
        if report.table is None:
            return "—"
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:games_table_change", args=[report.table.pk]),
            report.table,
        )

    @admin.display(description=_("Recent chat at the table"))
    def recent_chat(self, report: Report) -> str:
        if report.table is None:
            return "—"
        lines = (
            ChatMessage.objects.filter(table=report.table)
            .select_related("user")
            .order_by("-created_at")[:15]
        )
        return format_html(
            "<ol>{}</ol>",
            format_html_join(
                "",
                "<li>{} {}: {}</li>",
                ((f"{m.created_at:%H:%M}", m.user.username, m.text) for m in reversed(lines)),
            ),
        )

    @admin.action(description=_("Mark the selected reports resolved"), permissions=["change"])
    def resolve_reports(self, request: HttpRequest, queryset: QuerySet) -> None:
        for report in queryset.filter(status=Report.Status.OPEN):
            self.log_change(request, report, "Resolved")
        count = moderation.resolve(queryset, request.user)
        messages.success(
            request, ngettext("Resolved %d report.", "Resolved %d reports.", count) % count
        )


@admin.register(Sanction)
class SanctionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "kind", "user", "reason", "until", "lifted_at", "created_by")
    list_filter = ("kind", "created_at")
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "created_by")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations to tables: moderators see them and remove any that abuse a player."""

    list_display = ("created_at", "from_user", "to_user", "table", "seat", "status")
    list_filter = ("status", "created_at")
    search_fields = ("from_user__username", "to_user__username")
    list_select_related = ("from_user", "to_user", "table")
    raw_id_fields = ("from_user", "to_user", "table")
    ordering = ("-created_at",)


class ClubForm(forms.ModelForm):
    """A club as moderators change it: a new name passes the checks a founder's does."""

    class Meta:
        model = Club
        fields = ["name", "description", "games", "access", "created_by", "hidden", "invite_code"]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if self.instance.pk is not None and name == self.instance.name:
            return name
        try:
            return clubs.checked_name(name, self.instance if self.instance.pk else None)
        except clubs.ClubError as error:
            raise forms.ValidationError(str(error)) from None


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Clubs: a moderator hides one (nobody else sees it) or shows it again, or gives it
    another owner ("created by"), whom its admins cannot remove or ban."""

    form = ClubForm
    list_display = ("name", "access", "created_by", "created_at", "hidden")
    list_filter = ("hidden", "access")
    search_fields = ("name", "created_by__username")
    raw_id_fields = ("created_by",)
    actions = ("hide", "show")

    @admin.action(description=_("Hide the selected clubs"), permissions=["change"])
    def hide(self, request: HttpRequest, queryset: QuerySet[Club]) -> None:
        queryset.update(hidden=True)

    @admin.action(description=_("Show the selected clubs again"), permissions=["change"])
    def show(self, request: HttpRequest, queryset: QuerySet[Club]) -> None:
        queryset.update(hidden=False)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("club", "user", "role", "status", "created_at")
    list_filter = ("role", "status")
    search_fields = ("club__name", "user__username")
    raw_id_fields = ("club", "user")


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    """Club announcements: a moderator removes one from its club's page."""

    list_display = ("club", "author", "created_at", "hidden", "text")
    list_filter = ("hidden",)
    search_fields = ("text", "club__name", "author__username")
    raw_id_fields = ("club", "author")
    actions = ("hide",)

    @admin.action(description=_("Remove the selected announcements"), permissions=["change"])
    def hide(self, request: HttpRequest, queryset: QuerySet[Announcement]) -> None:
        queryset.update(hidden=True)


class EventPairInline(admin.TabularInline):
    model = EventPair
    extra = 0
    fields = ("number", "player", "partner", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class CupForm(forms.ModelForm):
    """A new public cup: the site's duplicate event, open to every player."""

    turn_seconds = forms.TypedChoiceField(
        label=_("Turn timer"),
        choices=[(30, _("30 seconds a move")), (60, _("60 seconds a move")), (0, _("No timer"))],
        coerce=int,
        initial=30,
    )

    class Meta:
        model = Event
        fields = ("name", "starts_at", "rounds", "deals_per_round", "turn_seconds")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["starts_at"].required = True
        self.fields["rounds"].initial = 4
        self.fields["deals_per_round"].initial = 4

    def clean(self) -> dict:
        data = super().clean()
        if not self.errors:
            try:
                cups.check(data["name"], data["rounds"], data["deals_per_round"], data["starts_at"])
            except EventError as refusal:
                raise forms.ValidationError(str(refusal)) from None
        return data


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Duplicate events: staff schedule public cups (events of no club, open to every
    player); a moderator cancels one that has not started. The secret and seed show once the
    event is over (before, they would give every deal)."""

    list_display = ("name", "club", "status", "current_round", "rounds", "starts_at", "created_at")
    list_filter = ("status",)
    search_fields = ("name", "club__name", "created_by__username")
    fields = (
        "name",
        "club",
        "created_by",
        "status",
        "starts_at",
        "rounds",
        "deals_per_round",
        "turn_seconds",
        "current_round",
        "created_at",
        "finished_at",
    )
    readonly_fields = fields
    ended_fields = ("secret", "seed")
    inlines = [EventPairInline]
    actions = ("cancel",)

    def get_fields(self, request: HttpRequest, obj: Event | None = None) -> tuple[str, ...]:
        if obj is None:
            return CupForm.Meta.fields
        if obj.status == Event.Status.FINISHED:
            return self.fields + self.ended_fields
        return self.fields

    def get_readonly_fields(self, request: HttpRequest, obj: Event | None = None):
        return () if obj is None else self.get_fields(request, obj)

    def get_form(self, request: HttpRequest, obj: Event | None = None, **kwargs):
        if obj is None:
            kwargs["form"] = CupForm
        return super().get_form(request, obj, **kwargs)

    def get_inlines(self, request: HttpRequest, obj: Event | None = None) -> list:
        return [] if obj is None else self.inlines

    def save_model(self, request: HttpRequest, obj: Event, form, change: bool) -> None:
        if not change:  # a new public cup, run by the site
            obj.club = None
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if lookup.split(LOOKUP_SEP, 1)[0] in self.ended_fields:
            return False
        return super().lookup_allowed(lookup, value, request)

    @admin.action(description=_("Cancel the selected events that have not started"))
    def cancel(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        queryset.filter(status=Event.Status.REGISTRATION).update(status=Event.Status.CANCELLED)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnlyAdmin):
    """Devices that take a player's notifications: which player and which push service, never
    the endpoint or its keys. A moderator may delete one (the device stops getting news)."""

    list_display = ("created_at", "user", "host")
    fields = ("user", "host", "created_at")
    readonly_fields = fields
    search_fields = ("user__username",)
    list_select_related = ("user",)
    ordering = ("-created_at",)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return request.user.has_perm("games.delete_pushsubscription")

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        # The list filtered by a prefix of the endpoint or a key would spell it out.
        if lookup.split(LOOKUP_SEP, 1)[0] in ("endpoint", "p256dh", "auth"):
            return False
        return super().lookup_allowed(lookup, value, request)

    @admin.display(description=_("push service"))
    def host(self, obj: PushSubscription) -> str:
        return obj.host


@admin.register(PushChoices)
class PushChoicesAdmin(ReadOnlyAdmin):
    """Which news each player takes on their devices."""

    list_display = ("user", *PushChoices.KINDS)
    fields = ("user", *PushChoices.KINDS, "daily_pushed")
    readonly_fields = fields
    search_fields = ("user__username",)
    list_select_related = ("user",)
