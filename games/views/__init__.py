"""Views of the card room, one module per area."""
