"""URLs of the card room."""

from django.urls import path

from .views import accounts, health, home

urlpatterns = [
    path("", home.home, name="home"),
    path("signup/", accounts.signup, name="signup"),
    path("u/<str:username>/", accounts.profile, name="profile"),
    path("healthz", health.healthz, name="healthz"),
]
