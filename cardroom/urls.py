"""Top-level URLs: the admin, accounts (Django's auth views) and the games app."""

from django.contrib import admin
from django.urls import include, path

from games.views.accounts import login_view

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", login_view, name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("games.urls")),
]
