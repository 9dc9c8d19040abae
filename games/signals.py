"""What follows a change to an account: logging out or changing the password closes its open
sockets (as a ban does; a socket whose session is still valid may connect again), and a
renamed account's look-alike skeleton is kept current, and logging in brings back the
language the account keeps."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save

from .languages import remember_on_login
from .live import close_sockets
from .models import UsernameSkeleton
from .text import skeleton


def on_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None:
        close_sockets(user.pk)


def note_password_change(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any):
    """Mark a user about to be saved with a new password (read before the row is written)."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    instance.password_changed = stored is not None and stored != instance.password


def on_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    if getattr(instance, "password_changed", False):
        instance.password_changed = False
        user_id = instance.pk
        transaction.on_commit(lambda: close_sockets(user_id))


def remember_username(
    sender: Any, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any
) -> None:
    """Keep a saved user's skeleton current (a save that leaves the name alone skips this)."""
    update_fields = kwargs.get("update_fields")
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    look = skeleton(instance.get_username())
    if created:
        UsernameSkeleton.objects.create(user=instance, skeleton=look)
    else:
        UsernameSkeleton.objects.update_or_create(user=instance, defaults={"skeleton": look})


def connect() -> None:
    """Connect the receivers (``GamesConfig.ready``)."""
    user_logged_out.connect(on_logged_out, dispatch_uid="games.sockets.logged_out")
    user_logged_in.connect(remember_on_login, dispatch_uid="games.language.logged_in")
    user = get_user_model()
    pre_save.connect(note_password_change, sender=user, dispatch_uid="games.sockets.password")
    post_save.connect(on_saved, sender=user, dispatch_uid="games.sockets.password_saved")
    post_save.connect(remember_username, sender=user, dispatch_uid="games.username_skeleton")
