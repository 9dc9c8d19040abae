"""A page that reconnects names what it shows: the table as it is needs no new render."""

from __future__ import annotations

import re

from asgiref.sync import sync_to_async

from games.live import autoplay, snapshots
from games.models import Match

from .factories import make_players, seated_table, start_with_dealer
from .live import LIVE_MARKS, connect, receive_until, send, version_mark

pytestmark = LIVE_MARKS

TOKEN = re.compile(r'id="page-token" hidden data-token="([^"]+)"')


async def shown_token(communicator) -> str:
    frame = await receive_until(communicator, 'id="page-token"')
    found = TOKEN.search(frame)
    assert found is not None
    return found.group(1)


async def seated_match():
    users = await sync_to_async(make_players)(4)
    table = await sync_to_async(seated_table)(users)
    await sync_to_async(start_with_dealer)(table, users[0], dealer=3)  # seat 0 calls first
    return users, table


async def page_closed(user, path: str) -> str:
    """Open ``user``'s page at ``path`` and close it; the token it showed."""
    page = await connect(user, path)
    token = await shown_token(page)
    await page.disconnect()
    return token


async def test_a_page_back_with_the_table_as_it_is_gets_the_connection_line_only():
    users, table = await seated_match()
    path = f"/ws/table/{table.code}/"
    token = await page_closed(users[1], path)
    again = await connect(users[1], f"{path}?token={token}")
    frame = await receive_until(again, 'id="connection"')
    assert "Connected" in frame
    assert 'id="board"' not in frame and 'id="page-token"' not in frame
    assert 'id="chat-log"' in frame  # lines said while it was away are not lost
    # The next change sends the whole table: the server no longer knows what the page shows.
    mover = await connect(users[0], path)
    await receive_until(mover, 'id="board"')
    match = await sync_to_async(Match.objects.get)(table=table)
    await send(mover, op="play", action="pass", version=str(match.version))
    frame = await receive_until(again, 'id="board"')
    assert TOKEN.search(frame) is not None
    await mover.disconnect()
    await again.disconnect()


async def test_a_page_back_after_a_move_gets_the_whole_table():
    users, table = await seated_match()
    path = f"/ws/table/{table.code}/"
    token = await page_closed(users[1], path)
    mover = await connect(users[0], path)
    await receive_until(mover, 'id="board"')
    match = await sync_to_async(Match.objects.get)(table=table)
    await send(mover, op="play", action="pass", version=str(match.version))
    await receive_until(mover, version_mark(match.version + 1))
    again = await connect(users[1], f"{path}?token={token}")
    frame = await receive_until(again, 'id="connection"')
    assert 'id="board"' in frame and TOKEN.search(frame).group(1) != token
    forged = await connect(users[2], f"{path}?token=1.2.3.nonsense")
    assert 'id="board"' in await receive_until(forged, 'id="connection"')
    for communicator in (mover, again, forged):
        await communicator.disconnect()


async def test_a_page_back_to_the_table_as_its_driver_last_read_it_starts_no_new_read():
    _, table = await seated_match()
    autoplay.kick(table.pk)
    driver = autoplay._drivers[table.pk]
    await driver.task  # four people: no automatic move owed, the look ends
    assert driver.looked_at == await sync_to_async(snapshots.current_token)(table.pk)
    looked = driver.task
    driver.kick(token=driver.looked_at)
    assert driver.task is looked  # nothing changed since: no new read
    driver.kick(token="1.2.3.changed")
    assert driver.task is not looked
    await driver.task
