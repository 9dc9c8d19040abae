"""What follows a change to an account or a club: a renamed account's or club's look-alike
skeleton is kept current, and logging in brings back the language the account keeps."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save, pre_save

from ..models import Club, UsernameSkeleton
from .languages import remember_on_login
from .text import skeleton


def remember_username(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    created: bool = False,
    raw: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: object,
) -> None:
    """Keep a saved user's skeleton current (a save that leaves the name alone skips this)."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    look = skeleton(instance.get_username())
    if created:
        UsernameSkeleton.objects.create(user=instance, skeleton=look)
    else:
        UsernameSkeleton.objects.update_or_create(user=instance, defaults={"skeleton": look})


def remember_club_name(
    sender: type[Club],
    instance: Club,
    raw: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: object,
) -> None:
    """Keep a club's name skeleton current as its name is saved."""
    if raw or (update_fields is not None and "name" not in update_fields):
        return
    instance.name_skeleton = skeleton(instance.name)
    if update_fields is not None and "name_skeleton" not in update_fields:
        # Such a save writes only the fields it names: the skeleton is written beside it.
        Club.objects.filter(pk=instance.pk).update(name_skeleton=instance.name_skeleton)


def connect() -> None:
    """Connect the receivers (``GamesConfig.ready``)."""
    user_logged_in.connect(remember_on_login, dispatch_uid="games.language.logged_in")
    post_save.connect(
        remember_username, sender=get_user_model(), dispatch_uid="games.username_skeleton"
    )
    pre_save.connect(remember_club_name, sender=Club, dispatch_uid="games.club_name_skeleton")
