"""Settings come from the environment: each case imports the settings in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import json
from django.conf import settings
import django
django.setup()
print(json.dumps({
    "debug": settings.DEBUG,
    "engine": settings.DATABASES["default"]["ENGINE"],
    "db_name": settings.DATABASES["default"]["NAME"],
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "cache": settings.CACHES["default"]["BACKEND"],
    "hosts": settings.ALLOWED_HOSTS,
    "csrf": settings.CSRF_TRUSTED_ORIGINS,
    "secure_cookies": getattr(settings, "SESSION_COOKIE_SECURE", False),
    "csrf_secure": getattr(settings, "CSRF_COOKIE_SECURE", False),
    "hsts": getattr(settings, "SECURE_HSTS_SECONDS", 0),
    "storage": settings.STORAGES["staticfiles"]["BACKEND"],
    "proxy_ssl_header": getattr(settings, "SECURE_PROXY_SSL_HEADER", None),
    "proxies": settings.TRUSTED_PROXIES,
}))
"""


def load(**env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"}
    }
    clean["DJANGO_SETTINGS_MODULE"] = "cardroom.settings"
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def settings_with(**env: str) -> dict:
    result = load(**env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_development_defaults():
    s = settings_with(DEBUG="1")
    assert s["debug"] is True
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["layer"] == "cardroom.layers.InMemoryChannelLayer"
    assert s["cache"].endswith("LocMemCache")


def test_secret_key_required_without_debug():
    result = load(DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_is_secure_by_default():
    s = settings_with(
        SECRET_KEY="x" * 50,
        ALLOWED_HOSTS="cards.example.com",
        CSRF_TRUSTED_ORIGINS="https://cards.example.com",
    )
    assert s["debug"] is False
    assert s["hosts"] == ["cards.example.com"]
    assert s["csrf"] == ["https://cards.example.com"]
    assert s["secure_cookies"] and s["csrf_secure"]
    assert s["hsts"] >= 31536000
    assert s["storage"].startswith("whitenoise.")


def test_database_url_and_redis_url_switch_backends():
    s = settings_with(
        DEBUG="1",
        DATABASE_URL="postgres://cards@db.internal:5432/cardroom",
        REDIS_URL="redis://cache.internal:6379/0",
    )
    assert s["engine"] == "django.db.backends.postgresql"
    assert s["db_name"] == "cardroom"
    assert s["layer"] == "cardroom.layers.RedisChannelLayer"
    assert s["cache"] == "django.core.cache.backends.redis.RedisCache"


def test_the_forwarded_scheme_is_trusted_only_behind_configured_proxies():
    production = {"SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "cards.example.com"}
    assert settings_with(**production)["proxy_ssl_header"] is None
    behind = settings_with(**production, TRUSTED_PROXIES="1")
    assert behind["proxies"] == 1
    assert behind["proxy_ssl_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
