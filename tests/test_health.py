"""``/healthz`` checks the database and the channel layer for real."""

from __future__ import annotations

import pytest
from django.db import connections

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_healthy(async_client):
    response = await async_client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "channel_layer": "ok"},
    }


@pytest.mark.asyncio
async def test_database_down_gives_503(async_client, monkeypatch):
    wrapper_class = type(connections["default"])

    def broken_cursor(self, *args, **kwargs):
        raise self.Database.OperationalError("database is gone")

    # Patched on the class: the check runs in another thread with its own connection.
    monkeypatch.setattr(wrapper_class, "cursor", broken_cursor)
    response = await async_client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"].startswith("error")
    assert response.json()["checks"]["channel_layer"] == "ok"


@pytest.mark.asyncio
async def test_channel_layer_down_gives_503(async_client, monkeypatch):
    from channels.layers import get_channel_layer

    layer = get_channel_layer()

    async def lost(*args, **kwargs):
        raise ConnectionError("layer is gone")

    monkeypatch.setattr(layer, "group_send", lost)
    response = await async_client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"].startswith("error")
