"""Tables and what happens at them: seating, quick tables, matches and their moves, chat,
limits, the lobby's list and fair deals."""
