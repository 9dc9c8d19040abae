"""Benchmarks, never timed tests: run them with ``manage.py loadtest`` and ``manage.py bench``.

``load`` and ``floor``: paced websocket load on real tables beside a bare fan-out;
``lobby``: a move's round trip beside a lobby flood; ``engines``: random playouts;
``belote_bots`` and ``grabush_bots``: bot strength and decision times; ``belote_expert`` and
``belote_values``: the Belote candidate the tables do not offer and the contract values it
learnt. Their latest figures and how to rerun each are in ``docs/benchmarks.md``.

The site's settings (``cardroom.settings``) do not install this app; ``benchmarks.settings``
does, and ``manage.py`` runs ``bench`` and ``loadtest`` with it.
"""
