"""The installable site (its manifest, service worker and offline page) and the player's push
notifications: which news, and the devices that take them."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from ..live import push
from ..models import PushChoices, PushSubscription

#: What the service worker keeps for the offline page: the page and what it shows.
OFFLINE_FILES = ("css/site.css", "favicon.svg", "icons/icon-192.png")
#: The site's colours (the felt and the page), as the manifest gives them.
THEME_COLOR = "#14532d"
BACKGROUND_COLOR = "#f4f1ea"


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the visitor's language: installed, the site opens at the
    lobby."""
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    data = {
        "id": "/",
        "name": _("Cardroom — Belote and Grabush"),
        "short_name": "Cardroom",
        "description": _("Bulgarian Belote and Grabush with friends."),
        "lang": get_language(),
        "dir": "rtl" if get_language_bidi() else "ltr",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so that it controls every page; its cache is
    named after what it keeps, so a release with new static files installs a new one."""
    offline = reverse("offline")
    files = [static(name) for name in OFFLINE_FILES]
    version = hashlib.sha256(json.dumps([offline, *files]).encode()).hexdigest()[:12]
    context = {
        "cache_name": f"cardroom-{version}",
        "offline_url": json.dumps(offline),
        "precache": json.dumps([offline, *files]),
        "static_prefix": json.dumps("/" + settings.STATIC_URL.lstrip("/")),
        "icon": static("icons/icon-192.png"),
    }
    return render(request, "sw.js", context, content_type="text/javascript")


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when the site cannot be reached: nothing of any
    player or table, so that it may be kept."""
    return render(request, "offline.html")


class PushChoicesForm(forms.ModelForm):
    """Which news the player wants on their devices while no page of the site is open."""

    class Meta:
        model = PushChoices
        fields = list(PushChoices.KINDS)


def _choices(user) -> PushChoices:
    return PushChoices.objects.filter(user=user).first() or PushChoices(user=user)


@login_required
def push_settings(request: HttpRequest) -> HttpResponse:
    """The player's choice of news per kind, and this device's notifications on or off."""
    choices = _choices(request.user)
    if request.method == "POST":
        form = PushChoicesForm(request.POST, instance=choices)
        if form.is_valid():
            form.save()
            messages.success(request, _("Saved."))
            return redirect("push_settings")
        messages.error(request, _("Those choices could not be saved."))
    else:
        form = PushChoicesForm(instance=choices)
    keys = push.keys()
    context = {
        "form": form,
        "public_key": keys.public if keys else "",
        "devices": PushSubscription.objects.filter(user=request.user).count(),
    }
    return render(request, "games/push_settings.html", context)


def _key(value: object, length: int) -> str:
    """``value`` if it is a base64url key of ``length`` bytes, else ""."""
    if not isinstance(value, str) or len(value) > 200:
        return ""
    try:
        decoded = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return ""
    return value if len(decoded) == length else ""


def _endpoint(value: object) -> str:
    """``value`` if it is a push service's address (https; http also in development, for a
    local push service)."""
    if not isinstance(value, str) or len(value) > 1000:
        return ""
    parts = urlsplit(value)
    schemes = ("https", "http") if settings.VAPID_DEVELOPMENT_KEYS else ("https",)
    return value if parts.scheme in schemes and parts.netloc else ""


def _posted(request: HttpRequest) -> dict:
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


@require_POST
@login_required
def subscribe(request: HttpRequest) -> JsonResponse:
    """Keep this device's push subscription (the Push API's JSON: endpoint and keys)."""
    if push.keys() is None:
        return JsonResponse({"error": _("Notifications are off on this site.")}, status=409)
    data = _posted(request)
    posted_keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    endpoint = _endpoint(data.get("endpoint"))
    p256dh = _key(posted_keys.get("p256dh"), 65)
    auth = _key(posted_keys.get("auth"), 16)
    if not (endpoint and p256dh and auth):
        return JsonResponse({"error": _("This device's subscription is not valid.")}, status=400)
    push.subscribe(request.user, endpoint, p256dh, auth)
    return JsonResponse({"devices": PushSubscription.objects.filter(user=request.user).count()})


@require_POST
@login_required
def unsubscribe(request: HttpRequest) -> JsonResponse:
    """Forget this device's push subscription (notifications turned off, or blocked)."""
    endpoint = _posted(request).get("endpoint")
    if isinstance(endpoint, str):
        PushSubscription.objects.filter(user=request.user, endpoint=endpoint).delete()
    return JsonResponse({"devices": PushSubscription.objects.filter(user=request.user).count()})
