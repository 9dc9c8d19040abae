"""The in-memory channel layer's bounded sweep still drops what expired."""

from __future__ import annotations

import pytest

from cardroom import layers


@pytest.mark.asyncio
async def test_expired_messages_and_groups_are_swept_at_most_once_per_interval(monkeypatch):
    clock = {"wall": 1000.0, "mono": 50.0}
    monkeypatch.setattr(layers.time, "monotonic", lambda: clock["mono"])
    monkeypatch.setattr("channels.layers.time.time", lambda: clock["wall"])
    layer = layers.InMemoryChannelLayer(expiry=10)
    await layer.group_add("table.1", "a.inmemory!x")
    await layer.group_send("table.1", {"type": "table.changed"})  # sweeps (first time)
    assert "a.inmemory!x" in layer.channels

    clock["wall"] += 11  # the message has expired...
    clock["mono"] += 0.5  # ...but the last sweep was half a second ago: nothing is swept
    layer._clean_expired()
    assert "a.inmemory!x" in layer.channels
    assert "a.inmemory!x" in layer.groups["table.1"]

    clock["mono"] += 0.6  # past the interval: the next look sweeps it and its group membership
    layer._clean_expired()
    assert "a.inmemory!x" not in layer.channels
    assert "a.inmemory!x" not in layer.groups["table.1"]
