"""Players as people: their languages, their text, moderation and what follows an account's
changes."""
