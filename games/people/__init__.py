"""Players as people: their languages, their text, their limits, who is online, moderation,
friends, clubs and what follows an account's changes."""
