"""Hard's exact endings: the last tricks of a sampled Belote deal solved double-dummy.

Once few tricks are left, hard no longer guesses how a deal it sampled ends: the double-dummy
solver (:mod:`games.analysis.belote_solver`) plays it out perfectly for both sides, and
:func:`tail_value` turns the solved margin into the deal's written score for one team (contract,
contra, declarations, belots, capot and hanging points included), counted as hard's rollouts
count a deal (:func:`games.bots.belote.rollout`).
"""

from __future__ import annotations

import threading

from games.analysis.belote_solver import Solver, TooLong, belot_pairs, position_of
from games.engines import belote as engine
from games.engines.belote_cards import CONTRACTS, NT, POINTS

#: Tricks left when the solver takes over from the heuristic play: in play from the fourth
#: trick on, and at the end of every rollout started before it.
EXACT_TRICKS = 5
#: Positions one solved ending may cost before its sampled deal is dropped.
NODES = 20_000

__all__ = ["EXACT_TRICKS", "NODES", "TooLong", "solver_for", "tail_value"]

_local = threading.local()


def solver_for(contract: int) -> Solver:
    """This thread's solver for ``contract`` (one per contract, reused from deal to deal)."""
    cache = getattr(_local, "solvers", None)
    if cache is None:
        cache = _local.solvers = {}
    if contract not in cache:
        cache[contract] = Solver(contract, bits=16)
    return cache[contract]


def tail_value(
    state: engine.State, team: int, hang: int, card: int = -1, nodes: int = NODES
) -> float:
    """The deal's value for ``team`` from ``state`` (in trick play) when both sides play
    perfectly from here, after the seat to act plays ``card`` when given: written points less
    the other team's, a fiftieth of the raw difference, and the hanging ``hang`` to the team
    that takes the deal. Raises :class:`TooLong` past ``nodes`` positions.
    """
    ct = state.contract
    position = position_of(state)
    margin = solver_for(ct).value(position, card, nodes)
    factor = 2 if ct == NT else 1
    points = POINTS[ct]
    total = sum(points) + 10
    decl = engine.score_declarations(state.plans, state.cfg.pool)[0]
    raw = [factor * state.points[t] + decl[t] for t in (0, 1)]
    for seat, _suit in state.belots:
        raw[seat & 1] += 20
    left = factor * (total - state.points[0] - state.points[1])
    left += 20 * (belot_pairs(ct, position.hands).bit_count() // 2)
    # Beyond the points left, only a capot's 90 explains the margin.
    share = left + 90 if abs(margin) > left else left
    raw[0] += (share + margin) // 2
    raw[1] += (share - margin) // 2
    dteam = state.declarer & 1
    d_fig, f_fig, _hang = engine.settle(CONTRACTS[ct], state.mult, raw[dteam], raw[1 - dteam])
    written = [0, 0]
    written[dteam], written[1 - dteam] = d_fig, f_fig
    value = written[team] - written[1 - team] + 0.02 * (raw[team] - raw[1 - team])
    if raw[team] > raw[1 - team]:
        value += hang
    elif raw[team] < raw[1 - team]:
        value -= hang
    return value
