"""Per-game presenters: turn an engine view into what that game's templates show.

A presenter only rearranges the seat's own view (names, positions, "we/they"); it never sees
the engine state, so it cannot leak hidden cards.
"""
