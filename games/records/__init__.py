"""What stays after a match: history, replays, deal reviews and ratings."""
