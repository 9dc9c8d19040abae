"""An account's open sockets close when it signs out or its password changes (as on a ban; a
socket whose session is still valid may connect again)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.http import HttpRequest

from .notify import close_sockets


def on_logged_out(
    sender: type[AbstractBaseUser],
    request: HttpRequest | None,
    user: AbstractBaseUser | None,
    **kwargs: object,
) -> None:
    if user is not None:
        close_sockets(user.pk)


def note_password_change(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    update_fields: frozenset[str] | None = None,
    **kwargs: object,
) -> None:
    """Mark a user about to be saved with a new password (read before the row is written)."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    instance.password_changed = stored is not None and stored != instance.password


def on_saved(sender: type[AbstractBaseUser], instance: AbstractBaseUser, **kwargs: object) -> None:
    if getattr(instance, "password_changed", False):
        instance.password_changed = False
        user_id = instance.pk
        transaction.on_commit(lambda: close_sockets(user_id))


def connect() -> None:
    """Connect the receivers (``GamesConfig.ready``)."""
    user_logged_out.connect(on_logged_out, dispatch_uid="games.sockets.logged_out")
    user = get_user_model()
    pre_save.connect(note_password_change, sender=user, dispatch_uid="games.sockets.password")
    post_save.connect(on_saved, sender=user, dispatch_uid="games.sockets.password_saved")
