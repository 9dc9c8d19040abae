"""High card: a tiny two-player game that lives only in the test suite.

Registered from the tests (``games.catalog.register``), it proves the game seam: no line of
the site's own code names it, yet it is created in the lobby, played over the websocket,
recorded, listed on profiles and replayed.
"""
