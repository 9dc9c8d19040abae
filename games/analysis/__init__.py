"""Analysis of deals with every card known: Belote's double-dummy solver and deal reviews.

Pure, like the engines (no Django, no I/O). The solver's search is a small C module compiled
at install (``setup.py``); the review and the computer players build on the solver.
"""
