"""Duplicate Belote events of a club: registration, rounds of the same deals at every table,
standings after each round and the results (the pure rules: ``games.engines.duplicate``)."""
