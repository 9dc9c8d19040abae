"""WSGI entry point (HTTP only; the site is meant to run under ASGI with daphne)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
application = get_wsgi_application()
