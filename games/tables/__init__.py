"""Tables and what happens at them: rows and locks, seating, quick tables, a match's life
around its moves, the move itself, chat, invitations and the lobby's list."""
