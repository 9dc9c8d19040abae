"""A live connection speaks the language its page was shown in."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import translation

from cardroom.asgi import application
from games.live import consumers
from games.tables import rows

from .factories import empty_public_table
from .live import FRAME_TIMEOUT, heard, live_test, receive_until, render_languages, session_cookie


def scope(cookies=None, accept_language=None) -> dict:
    headers = [] if accept_language is None else [(b"accept-language", accept_language)]
    return {"cookies": cookies or {}, "headers": headers}


def test_the_socket_language_is_chosen_like_a_page_request():
    assert consumers.socket_language(scope(accept_language=b"bg,en;q=0.8")) == "bg"
    assert consumers.socket_language(scope(accept_language=b"ru-RU")) == "ru"
    # The language cookie (the language switcher's choice) comes before the browser's list.
    cookie = {settings.LANGUAGE_COOKIE_NAME: "ru"}
    assert consumers.socket_language(scope(cookie, accept_language=b"bg")) == "ru"
    # A language the site does not offer falls back to its default.
    assert consumers.socket_language(scope(accept_language=b"de-DE")) == settings.LANGUAGE_CODE
    assert consumers.socket_language(scope()) == settings.LANGUAGE_CODE


@live_test
async def test_table_frames_render_in_the_language_of_the_socket(make_user, monkeypatch):
    user = await sync_to_async(make_user)("bogdan")
    table = await sync_to_async(rows.create_table)(user, "belote", {}, is_private=False)
    languages = render_languages(monkeypatch, consumers, "render_frame")
    cookie = await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    communicator = WebsocketCommunicator(
        application, f"/ws/table/{table.code}/", headers=[*headers, (b"accept-language", b"bg")]
    )
    connected, _ = await communicator.connect()
    assert connected
    assert 'id="table-status"' in await communicator.receive_from(timeout=FRAME_TIMEOUT)
    await communicator.disconnect()
    assert languages and set(languages) == {"bg"}


@live_test
async def test_sockets_of_one_table_in_two_languages_each_get_their_own(make_user, monkeypatch):
    """The frames of one change are rendered together (``games.live.batching``), each in the
    language of the socket it is for."""
    users = [await sync_to_async(make_user)(name) for name in ("boyana", "rusalka")]
    table = await sync_to_async(empty_public_table)(users[0], {})
    rendered = []
    render = consumers.render_frame

    def recording(table, user, **kwargs):
        rendered.append((user.get_username(), translation.get_language()))
        return render(table, user, **kwargs)

    monkeypatch.setattr(consumers, "render_frame", recording)
    communicators = []
    for user, language in zip(users, (b"bg", b"ru"), strict=True):
        cookie = await sync_to_async(session_cookie)(user)
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
        communicator = WebsocketCommunicator(
            application,
            f"/ws/table/{table.code}/",
            headers=[*headers, (b"accept-language", language)],
        )
        assert (await communicator.connect())[0]
        communicators.append(communicator)
        await communicator.receive_from(timeout=FRAME_TIMEOUT)
    await heard(table.pk, *communicators)  # the arrivals told the table (the presence dots)
    rendered.clear()
    await communicators[0].send_json_to({"op": "sit", "seat": "0"})
    for communicator in communicators:
        assert 'id="seats"' in await receive_until(communicator, "boyana")
    for communicator in communicators:
        await communicator.disconnect()
    assert {name for name, _ in rendered} == {"boyana", "rusalka"}
    assert set(rendered) == {("boyana", "bg"), ("rusalka", "ru")}
