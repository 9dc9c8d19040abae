"""The session middleware of the websocket stack."""

from __future__ import annotations

from channels.sessions import InstanceSessionWrapper, SessionMiddleware


class WebsocketSessionMiddleware(SessionMiddleware):
    """Channels' ``SessionMiddleware`` for websockets, without its wrapper around ``send``.

    The wrapper saves a modified session only when it sends ``http.response.start``, which a
    websocket never sends, and yet it looks at the session (modified? empty?) for every frame
    sent. The session is still read (``scope["session"]``, for ``AuthMiddleware``); our
    consumers never change it.
    """

    async def __call__(self, scope, receive, send):
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)
