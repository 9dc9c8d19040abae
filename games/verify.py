"""Check a finished match's log, or a duplicate event's: ``python -m games.verify log.json``.

Needs only the Python standard library and the pure engines (``games/engines``), so it runs
from a copy of those few files (the site offers them as one zip) as well as from the project.
It checks, and says exactly what differs:

1. the secret's SHA-256 is the commitment the table showed before the match;
2. the seed is the SHA-256 of the secret and the players' contributions;
3. every deal listed is the one the seed gives (``docs/fair-deals.md``);
4. every action, replayed through the game's engine from the seed, is legal, and they lead
   to the recorded result.

An event's log is checked the same way, once for the event (its secret, commitment,
contributions and seed) and once for every table of every round: its seed is the round's,
so it got the same deals as every other table of the round, and its actions replay.

Exit status 0 when everything holds, 1 when something differs, 2 when the log can't be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import NamedTuple, TypeVar

from .engines import belote, chance, duplicate, fair_deals, grabush
from .engines.cards import DrawnDeal

FORMAT = "cardroom-match-log"
EVENT_FORMAT = "cardroom-event-log"
VERSION = 1
ENGINES: dict[object, ModuleType] = {"belote": belote, "grabush": grabush}

#: A log as decoded from JSON: nothing in it is trusted until checked.
Log = Mapping[str, object]
T = TypeVar("T")


class Finding(NamedTuple):
    """One check: whether it held, and what was found."""

    ok: bool
    text: str


class BadLog(ValueError):
    """The log is not a match log this verifier can read."""


def _field(log: Log, name: str, kind: type[T]) -> T:
    value = log.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise BadLog(f"the log's {name!r} is missing or not the right kind of value")
    return value


def _deals(engine: ModuleType, seed: str, options: dict, count: int) -> list[DrawnDeal]:
    if engine is belote:
        return belote.drawn_deals(seed, count)
    return grabush.drawn_deals(seed, int(options.get("players", 2)))


def _compare_deal(number: int, logged: object, drawn: DrawnDeal) -> Finding:
    if not isinstance(logged, dict) or not isinstance(logged.get("cards"), list):
        return Finding(False, f"Deal {number + 1}: the log does not list its cards.")
    if logged.get("dealer") != drawn["dealer"]:
        return Finding(
            False,
            f"Deal {number + 1}: the log says seat {logged.get('dealer')} dealt; "
            f"the seed gives seat {drawn['dealer']}.",
        )
    cards = logged["cards"]
    for position, (theirs, ours) in enumerate(zip(cards, drawn["cards"], strict=False)):
        if theirs != ours:
            return Finding(
                False,
                f"Deal {number + 1}: card {position + 1} from the top is {theirs} in the log; "
                f"the seed gives {ours}.",
            )
    if len(cards) != len(drawn["cards"]):
        return Finding(
            False,
            f"Deal {number + 1}: the log lists {len(cards)} cards; the seed gives "
            f"{len(drawn['cards'])}.",
        )
    return Finding(True, f"Deal {number + 1} is the one the seed gives.")


def _algorithms(log: Log, form: str) -> None:
    if log.get("format") != form or log.get("version") != VERSION:
        raise BadLog(f"this is not a {form} of version {VERSION}")
    if log.get("deal_algorithm") != chance.ALGORITHM:
        raise BadLog(f"this verifier knows the deal algorithm {chance.ALGORITHM} only")
    if log.get("seed_algorithm") != fair_deals.SEED_ALGORITHM:
        raise BadLog(f"this verifier knows the seed algorithm {fair_deals.SEED_ALGORITHM} only")


def verify(log: Log) -> list[Finding]:
    """Check ``log`` (a match log as ``/m/<id>/log.json`` serves it, or an event's as
    ``/events/<id>/log.json`` does); raise :class:`BadLog` when it can't be read as one."""
    if log.get("format") == EVENT_FORMAT:
        return verify_event(log)
    _algorithms(log, FORMAT)
    engine = ENGINES.get(log.get("game"))
    if engine is None:
        raise BadLog(f"unknown game {log.get('game')!r}")
    options = _field(log, "options", dict)
    deals = _field(log, "deals", list)
    actions = _field(log, "actions", list)
    findings, derived = _seed_findings(log, "match")
    # Everything after this is checked against the seed the secret and contributions give.
    for number, (logged, drawn) in enumerate(
        zip(deals, _deals(engine, derived, options, len(deals)), strict=False)
    ):
        findings.append(_compare_deal(number, logged, drawn))
    findings.extend(_replay(engine, derived, options, actions, deals, log.get("result")))
    return findings


def verify_event(log: Log) -> list[Finding]:
    """Check a duplicate event's log: its seed, then every table of every round."""
    _algorithms(log, EVENT_FORMAT)
    if log.get("game") != "belote":
        raise BadLog("duplicate events are Belote's")
    count = _field(log, "deals_per_round", int)
    rounds = _field(log, "rounds", list)
    findings, derived = _seed_findings(log, "event")
    for entry in rounds:
        if not isinstance(entry, dict) or not isinstance(entry.get("round"), int):
            raise BadLog(f"a round is not an object with its number: {entry!r}")
        number = entry["round"]
        seed = duplicate.round_seed(derived, number)
        drawn = duplicate.event_deals(derived, number, count)
        for table in _field(entry, "tables", list):
            if not isinstance(table, dict):
                raise BadLog(f"a table of round {number} is not an object")
            where = f"Round {number}, table {table.get('table')}"
            if table.get("seed") != seed:
                findings.append(Finding(False, f"{where}: its seed is not the round's ({seed})."))
                continue
            deals = _field(table, "deals", list)
            same = all(
                _compare_deal(n, logged, drawn[n]).ok
                for n, logged in enumerate(deals[: len(drawn)])
            ) and len(deals) <= len(drawn)
            findings.append(
                Finding(True, f"{where} got the round's {len(drawn)} deals.")
                if same
                else Finding(False, f"{where}: its deals are not the round's.")
            )
            for finding in _replay(
                belote,
                seed,
                _field(table, "options", dict),
                _field(table, "actions", list),
                deals,
                table.get("result"),
            ):
                findings.append(Finding(finding.ok, f"{where}: {finding.text}"))
    return findings


def _seed_findings(log: Log, what: str) -> tuple[list[Finding], str]:
    """Check the secret against its commitment and derive the seed; the findings and the
    seed that the secret and contributions give."""
    secret = _field(log, "secret", str)
    committed = _field(log, "commitment", str)
    contributions = _field(log, "contributions", list)
    seed = _field(log, "seed", str)
    findings = []
    digest = fair_deals.commitment(secret)
    if digest == committed:
        findings.append(
            Finding(True, f"The secret matches the commitment shown before the {what}.")
        )
    else:
        findings.append(
            Finding(
                False,
                f"The secret does not match the commitment: its SHA-256 is {digest}, the log's "
                f"commitment is {committed}.",
            )
        )
    for contribution in contributions:
        if (
            not isinstance(contribution, dict)
            or not isinstance(contribution.get("seat"), int)
            or not fair_deals.is_contribution(contribution.get("value"))
        ):
            raise BadLog(f"a contribution is not a seat and 64 hex digits: {contribution!r}")
    derived = fair_deals.derive_seed(secret, contributions)
    if derived == seed:
        findings.append(Finding(True, "The seed follows from the secret and the contributions."))
    else:
        findings.append(
            Finding(
                False,
                f"The seed does not follow from the secret and the contributions: they give "
                f"{derived}, the log says {seed}.",
            )
        )
    return findings, derived


def _replay(
    engine: ModuleType,
    seed: str,
    options: dict,
    actions: list[object],
    deals: list[object],
    result: object,
) -> list[Finding]:
    try:
        state = engine.new_game(seed=seed, **options)
    except (TypeError, ValueError) as error:
        return [Finding(False, f"The engine refuses the options {options!r}: {error}")]
    apply = getattr(engine, "apply_entry", engine.apply)
    for number, entry in enumerate(actions, start=1):
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or not isinstance(entry[0], int)
            or not isinstance(entry[1], str)
        ):
            return [Finding(False, f"Action {number} is not a [seat, action] pair: {entry!r}")]
        seat, action = entry
        try:
            state = apply(state, seat, action)
        except ValueError as error:
            return [
                Finding(
                    False,
                    f"Action {number} (seat {seat + 1}: {action}) is not allowed at that point: "
                    f"{error}.",
                )
            ]
    findings = [Finding(True, f"All {len(actions)} actions are legal, replayed from the seed.")]
    dealt = belote.deals_dealt(state) if engine is belote else len(deals)
    if dealt != len(deals):
        findings.append(
            Finding(False, f"The actions deal {dealt} deals; the log lists {len(deals)}.")
        )
    if result is None:
        findings.append(Finding(True, "The match was stopped before its end: no result to check."))
    elif state.to_act is not None:
        findings.append(Finding(False, "The actions stop before the match's end."))
    elif (reached := engine.result(state)) != result:
        findings.append(Finding(False, f"The actions lead to {reached}; the log records {result}."))
    else:
        findings.append(Finding(True, f"The actions lead to the recorded result {result}."))
    return findings


def main(argv: Sequence[str] | None = None) -> int:
    """Check the log file named on the command line and print what was found."""
    parser = argparse.ArgumentParser(
        prog="python -m games.verify", description="Check a Cardroom match or event log."
    )
    parser.add_argument("log", help="the match log (JSON), as the match record offers it")
    path = parser.parse_args(argv).log
    try:
        with open(path, encoding="utf-8") as file:
            log = json.load(file)
        if not isinstance(log, dict):
            raise BadLog("the file does not hold a JSON object")
        findings = verify(log)
    except (OSError, ValueError) as error:
        print(f"Can't check {path}: {error}", file=sys.stderr)
        return 2
    for finding in findings:
        print(("ok    " if finding.ok else "WRONG ") + finding.text)
    if all(finding.ok for finding in findings):
        print("Everything checks: the deals were fixed before play, and the result follows.")
        return 0
    print("Something differs: this log is not what the site's match would give.")
    return 1


if __name__ == "__main__":
    sys.exit(main())
