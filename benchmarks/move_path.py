"""The move path, counted: ``python manage.py bench moves`` (a count, never a timed test).

T Belote tables of four human players (and a spectator each, by default) are seated and their
matches started on a SQLite file of the benchmark's own, with the in-memory channel layer, and
every player and spectator opens the table's websocket in this process, through the site's ASGI
application (``cardroom.asgi.application``), logged in by a session cookie and coming from the
site's own origin, as a browser does. Then M moves, round-robin over the tables, are replayed:
each move is the frame a browser sends (``{"op": "play", "action": …, "version": …}``), and it
is done when every socket of its table has had a frame showing the match's next version. The
moves are legal actions the engine (``games.engines.belote``) offers, picked by a seeded random
generator, and each table's match is dealt from a fixed seed: every run makes the same moves
with the same cards.

Reported per move:

- instructions: Python bytecode instructions executed, in every thread (the event loop's and
  the database thread's), counted from ``sys.settrace`` opcode events (``threading.settrace``
  for the threads). Not counted: what runs in C (SQLite, json, regular expressions, the
  solver); the driving side, that is this module and the Channels and asgiref test
  communicators, and whatever they call (Channels' communicator patches a function with
  ``unittest.mock`` for every frame it hands over); and the machinery whose amount of work
  follows timing rather than the move: asyncio, selectors, threading, concurrent.futures and
  queue (the event loop's polling, the hand-offs to the database thread), though the site's
  code they call back (its coroutines, its work in the database thread) is counted.
- calls: Python call events of the counted code (function calls, and each resumption of a
  coroutine or generator).
- queries: SQL statements run through Django's cursors (a transaction's ``BEGIN`` is one, its
  commit is not).
- CPU ms: the process's CPU time (every thread, the driving side's included) in a separate
  run without tracing: a timing, as noisy as the machine it runs on.

Each run is a fresh process working on a copy of one migrated database file, so that the
database rows' ids, the caches and the modules loaded are the same in every run. Before the
counted moves, the same moves are made on a second set of tables dealt the same cards (a
warm-up: templates compiled, caches filled, modules imported, as on a server that has been up
for a while), and the garbage collector is off while counting (a collection falls where setup
left the allocation count, and its weakref callbacks are Python code). The process runs in
production mode (``DEBUG`` off), as the load test's servers do, with nothing timed inside a
count: the presence heartbeat, the database connections' age and a player's absence are set to
a day, and the sweep of expired messages by the site's in-memory layer (at most once every few
seconds) is held off. Two counting runs are compared: the count is only worth anything if they
are equal.

``--profile`` adds the functions that run the most instructions per move: by their own
instructions and by inclusive ones (while the function is on its thread's stack: a coroutine's
count pauses while it is suspended at an ``await``); and the walk of the site's own code (under
``games/`` and ``cardroom/``) that the moves crossed: its files, its functions and their calls a
move (``--tables 1 --moves 1 --spectators 0``: one card, from the frame to every socket).

The file also runs on its own from any checkout of the site, older ones included: it imports
only the standard library, Django, Channels, asgiref, ``cardroom.asgi``, ``games.engines.belote``,
``games.models`` and the table services (``games.tables``, or ``games.play`` in older trees).
From a checkout's directory:
``python path/to/move_path.py --root .`` (``--tables``, ``--moves``, ``--seed``, ``--profile``,
``--json``), which makes a before/after comparison one command per tree.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

TABLES = 4
MOVES = 200
SPECTATORS = 1
TOP = 15
OPTIONS = {"target": 151, "declarations": "separate", "finish_with_hanging": True}
#: Seconds a socket may wait for a move's frame (tracing slows the server many times over).
MOVE_TIMEOUT = 120.0
CONNECT_TIMEOUT = 60.0
#: Seconds without a frame on any socket after which setup counts the tables as settled.
QUIET_SECONDS = 0.15
#: Turns of the event loop given to what a move leaves running, after the last move.
SETTLE_TURNS = 50
#: The settings of the measured process: production mode, as the load test's servers run,
#: and no timer (heartbeat, absence) that could fall inside a count.
CHILD_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "move-path-benchmark-only-never-a-real-key",
    "ALLOWED_HOSTS": "localhost",
    "SECURE_SSL_REDIRECT": "0",
    "LOG_LEVEL": "WARNING",
    "DJANGO_SETTINGS_MODULE": "cardroom.settings",
    "PRESENCE_HEARTBEAT_SECONDS": "86400",
    "PRESENCE_STALE_SECONDS": "172800",
    "AWAY_GRACE_SECONDS": "86400",
    "BOTS_IN_WORKERS": "0",
    "PYTHONHASHSEED": "0",
    # Static files are never served here: whitenoise need not say their folder is missing.
    "PYTHONWARNINGS": "ignore:No directory at:UserWarning",
}
#: Settings of the environment that the measured process must not inherit.
DROPPED_ENV = ("REDIS_URL", "DATABASE_URL", "PYTHONPATH")
HERE = Path(__file__).resolve()


# -- the plan: which moves, at which versions -------------------------------------------------


@dataclass(frozen=True)
class PlannedMove:
    """One move of the replay: who sends which frame, and the version that shows it made."""

    table: int
    seat: int
    action: str
    version: int

    def frame(self) -> str:
        """The frame a browser sends for this move (htmx's ``ws-send`` with its headers)."""
        headers = {"HX-Request": "true", "HX-Trigger": None, "HX-Target": "play"}
        return json.dumps(
            {"action": self.action, "version": str(self.version), "op": "play", "HEADERS": headers}
        )

    def mark(self) -> str:
        """How a frame says the move was made (``#play-version`` at the next version)."""
        return f'name="version" value="{self.version + 1}"'


def deal_seed(seed: int, table: int) -> str:
    return f"move-path:{seed}:{table}"


def plan_moves(table_count: int, moves: int, seed: int, first_version: int) -> list[PlannedMove]:
    """``moves`` legal moves, round-robin over the tables, each table's match dealt from its
    own seed; a table whose match ends plays no more."""
    from games.engines import belote

    per_table: list[list[PlannedMove]] = []
    for table in range(table_count):
        state = belote.new_game(deal_seed(seed, table), **OPTIONS)
        rng = random.Random(deal_seed(seed, table))
        planned = []
        for number in range(len(range(table, moves, table_count))):
            seat = state.to_act
            if seat is None:
                break
            action = rng.choice(belote.legal_actions(state, seat))
            planned.append(PlannedMove(table, seat, action, first_version + number))
            state = belote.apply(state, seat, action)
        per_table.append(planned)
    interleaved = itertools.zip_longest(*per_table)
    return [move for round_ in interleaved for move in round_ if move is not None]


# -- setup in the measured process (sync, through the site's services) ------------------------


@dataclass
class SeatedTable:
    code: str
    #: Session cookies: the four players by seat, then the spectators.
    cookies: list[str]


def session_cookie(user: Any) -> str:
    """A logged-in session for ``user``, as the ``Cookie`` header a browser sends."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = user._meta.pk.value_to_string(user)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


def seat_tables(name: str, table_count: int, spectators: int, seed: int) -> list[SeatedTable]:
    """Open ``table_count`` Belote tables of four new users each, start their matches and deal
    table ``i`` from :func:`deal_seed` (``i``); each table has ``spectators`` more users."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from games.engines import belote
    from games.models import Match

    try:  # the services' house since games/ was arranged by topic
        from games.tables import rows, seating
    except ImportError:  # an older checkout: flat modules
        from games import tables as rows
        from games import tables as seating
    try:
        from games.tables.matches import start_match
    except ImportError:  # an older checkout starts a match in play
        try:
            from games.tables.play import start_match
        except ImportError:
            from games.play import start_match

    model = get_user_model()
    seated = []
    for number in range(table_count):
        users = []
        for index in range(4 + spectators):
            user = model(username=f"moves-{name}-{number}-{index}")
            user.set_unusable_password()
            user.save()
            users.append(user)
        with transaction.atomic():
            table = rows.create_table(users[0], "belote", dict(OPTIONS), is_private=True)
            for seat in range(4):
                seating.take_seat(table.pk, users[seat], seat)
            start_match(table.pk, users[0])
            state = belote.new_game(deal_seed(seed, number), **OPTIONS)
            match = Match.objects.filter(table_id=table.pk).order_by("-number").first()
            Match.objects.filter(pk=match.pk).update(state=belote.dumps(state))
        seated.append(SeatedTable(table.code, [session_cookie(user) for user in users]))
    return seated


def first_version(code: str) -> int:
    from games.models import Match

    return Match.objects.filter(table__code=code).order_by("-number").first().version


# -- counting ---------------------------------------------------------------------------------


#: How a code object is counted (:meth:`Counter.kind`).
COUNTED, MACHINERY, DRIVER = 0, 1, 2


def uncounted_paths() -> tuple[tuple[str, ...], frozenset[str], tuple[str, ...], frozenset[str]]:
    """The folders and files of the machinery (not counted; what it calls back is), then those
    of the driving side (neither counted nor anything they call): see the module's docstring."""
    import concurrent.futures
    import queue
    import selectors

    import asgiref.testing
    import channels.testing

    machinery_folders = (
        os.path.dirname(asyncio.__file__) + os.sep,
        os.path.dirname(concurrent.futures.__file__) + os.sep,
    )
    machinery_files = frozenset({selectors.__file__, threading.__file__, queue.__file__})
    driver_folders = (os.path.dirname(channels.testing.__file__) + os.sep,)
    driver_files = frozenset({asgiref.testing.__file__, str(HERE), __file__})
    return machinery_folders, machinery_files, driver_folders, driver_files


class Counter:
    """Counts the opcode and call events of counted code in every thread, each thread on its
    own (a shared count would lose increments when the interpreter switches threads)."""

    def __init__(self, profile: bool) -> None:
        self.profile = profile
        self.active = False
        self.paths = uncounted_paths()
        #: How each code object is counted (filled as code runs; dict writes are atomic).
        self.kinds: dict[Any, int] = {}
        #: Each thread's totals, read once the counting stopped.
        self.readers: list[Any] = []

    def kind(self, code: Any) -> int:
        machinery_folders, machinery_files, driver_folders, driver_files = self.paths
        name = code.co_filename
        if name in driver_files or name.startswith(driver_folders):
            kind = DRIVER
        elif name in machinery_files or name.startswith(machinery_folders):
            kind = MACHINERY
        else:
            kind = COUNTED
        self.kinds[code] = kind
        return kind

    def install(self) -> None:
        """Before the event loop and its threads start: every thread started later counts as
        soon as :meth:`start` is called (until then each call costs one check)."""
        threading.settrace(self._thread_start)

    def _thread_start(self, frame: Any, event: str, arg: Any) -> Any:
        if not self.active:
            return None
        tracer = self._thread_tracer()
        sys.settrace(tracer)
        return tracer(frame, event, arg)

    def start(self) -> None:
        self.active = True
        sys.settrace(self._thread_tracer())

    def stop(self) -> None:
        sys.settrace(None)
        self.active = False  # the other threads drop their tracers at their next call

    def totals(self) -> tuple[int, int]:
        instructions = calls = 0
        for read in self.readers:
            counted = read()
            instructions += counted["instructions"]
            calls += counted["calls"]
        return instructions, calls

    def profile_rows(self, moves: int, top: int) -> dict[str, Any]:
        own: dict[Any, int] = {}
        inclusive: dict[Any, int] = {}
        called: dict[Any, int] = {}
        for read in self.readers:
            counted = read()
            for code, cell in counted["own"].items():
                own[code] = own.get(code, 0) + cell[0]
                called[code] = called.get(code, 0) + cell[1]
            for code, value in counted["inclusive"].items():
                inclusive[code] = inclusive.get(code, 0) + value

        def row(code: Any) -> dict[str, Any]:
            return {
                "function": function_name(code),
                "own": round(own.get(code, 0) / moves, 1),
                "inclusive": round(inclusive.get(code, 0) / moves, 1),
            }

        by_own = sorted(own, key=lambda code: -own[code])[:top]
        by_inclusive = sorted(inclusive, key=lambda code: -inclusive[code])[:top]
        return {
            "by_own": [row(c) for c in by_own],
            "by_inclusive": [row(c) for c in by_inclusive],
            "walk": walk(called, moves),
        }

    def _thread_tracer(self) -> Any:
        """A tracer for the calling thread, with its own counts."""
        kinds, decide, profile = self.kinds, self.kind, self.profile
        instructions = calls = 0
        own: dict[Any, list[int]] = {}
        inclusive: dict[Any, int] = {}
        depth: dict[Any, int] = {}
        stack: list[tuple[Any, Any, int]] = []
        #: Frames of other code that the driving side called, until they return.
        driven: set[Any] = set()

        def local(frame: Any, event: str, arg: Any) -> Any:
            nonlocal instructions
            if event == "opcode":
                instructions += 1
            return local

        def local_for(code: Any) -> Any:
            cell = own.setdefault(code, [0, 0])
            cell[1] += 1

            def profiled(frame: Any, event: str, arg: Any) -> Any:
                nonlocal instructions
                if event == "opcode":
                    instructions += 1
                    cell[0] += 1
                elif event == "return":
                    returned(frame)
                return profiled

            return profiled

        def returned(frame: Any) -> None:
            for index in range(len(stack) - 1, -1, -1):
                if stack[index][0] is frame:
                    break
            else:
                return  # entered before the counting started
            while len(stack) > index:
                _, code, start = stack.pop()
                depth[code] -= 1
                if not depth[code]:  # a recursive call's instructions count once
                    inclusive[code] = inclusive.get(code, 0) + instructions - start

        def leave(frame: Any, event: str, arg: Any) -> Any:
            if event == "return":
                driven.discard(frame)
            return leave

        def on_call(frame: Any, event: str, arg: Any) -> Any:
            nonlocal calls
            if not self.active:
                sys.settrace(None)
                return None
            code = frame.f_code
            kind = kinds.get(code)
            if kind is None:
                kind = decide(code)
            if kind == DRIVER:
                return None
            caller = frame.f_back
            if caller is not None and (caller in driven or kinds.get(caller.f_code) == DRIVER):
                # Called by the driving side (e.g. Channels' communicator patching a
                # function while it hands a frame over): not counted, nor what it calls.
                driven.add(frame)
                frame.f_trace_lines = False
                return leave
            if kind == MACHINERY:
                return None
            calls += 1
            frame.f_trace_lines = False
            frame.f_trace_opcodes = True
            if not profile:
                return local
            stack.append((frame, code, instructions))
            depth[code] = depth.get(code, 0) + 1
            return local_for(code)

        def read() -> dict[str, Any]:
            return {
                "instructions": instructions,
                "calls": calls,
                "own": own,
                "inclusive": inclusive,
            }

        self.readers.append(read)
        return on_call


def walk(called: dict[Any, int], moves: int) -> dict[str, Any]:
    """The site's own code the moves crossed (files under ``games/`` and ``cardroom/`` of the
    measured checkout): how many files and functions, and their calls per move."""
    root = os.getcwd() + os.sep
    ours = {
        code: count
        for code, count in called.items()
        if code.co_filename.startswith((root + "games" + os.sep, root + "cardroom" + os.sep))
    }
    return {
        "files": len({code.co_filename for code in ours}),
        "functions": len(ours),
        "calls_per_move": round(sum(ours.values()) / moves, 1),
    }


def function_name(code: Any) -> str:
    """``path:line qualified name``, the path from the checkout or from site-packages."""
    path = code.co_filename
    for marker in ("site-packages" + os.sep, os.sep + "lib" + os.sep + "python"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    else:
        root = os.getcwd() + os.sep
        if path.startswith(root):
            path = path[len(root) :]
    name = getattr(code, "co_qualname", code.co_name)
    return f"{path}:{code.co_firstlineno} {name}"


class QueryCount:
    """Counts the SQL statements run through Django's cursors, in every thread."""

    def __init__(self) -> None:
        from django.db.backends.utils import CursorWrapper

        self.counter = itertools.count()
        original = CursorWrapper._execute_with_wrappers
        counter = self.counter

        def counting(wrapper: Any, *args: Any, **kwargs: Any) -> Any:
            next(counter)
            return original(wrapper, *args, **kwargs)

        CursorWrapper._execute_with_wrappers = counting

    def read(self) -> int:
        return next(self.counter)


# -- the measured process ---------------------------------------------------------------------


@dataclass
class Measured:
    moves: int
    instructions: int = 0
    calls: int = 0
    queries: int = 0
    cpu_seconds: float = 0.0
    profile: dict[str, Any] = field(default_factory=dict)


async def open_sockets(seated: list[SeatedTable]) -> list[list[Any]]:
    from channels.testing import WebsocketCommunicator

    from cardroom.asgi import application

    tables = []
    for table in seated:
        sockets = []
        for cookie in table.cookies:
            socket = WebsocketCommunicator(
                application,
                f"/ws/table/{table.code}/",
                headers=[
                    (b"origin", b"http://localhost"),
                    (b"host", b"localhost"),
                    (b"cookie", cookie.encode()),
                ],
            )
            connected, _ = await socket.connect(timeout=CONNECT_TIMEOUT)
            if not connected:
                raise RuntimeError(f"table {table.code}: a socket was refused")
            sockets.append(socket)
        tables.append(sockets)
    return tables


async def settle(tables: list[list[Any]]) -> None:
    """Read every frame waiting until no socket has had one for QUIET_SECONDS."""
    while True:
        await asyncio.sleep(QUIET_SECONDS)
        read = 0
        for socket in itertools.chain.from_iterable(tables):
            while not socket.output_queue.empty():
                message = socket.output_queue.get_nowait()
                if message["type"] != "websocket.send":
                    raise RuntimeError(f"a socket closed during setup: {message}")
                read += 1
        if not read:
            return


async def replay(tables: list[list[Any]], plan: list[PlannedMove]) -> None:
    """Make the planned moves, each once the one before it reached every socket of its table."""
    frames = [(move, move.frame(), move.mark()) for move in plan]
    for number, (move, frame, mark) in enumerate(frames):
        sockets = tables[move.table]
        await sockets[move.seat].send_to(text_data=frame)
        for socket in sockets:
            try:
                while mark not in await socket.receive_from(timeout=MOVE_TIMEOUT):
                    pass
            except TimeoutError:
                raise RuntimeError(
                    f"move {number} ({move.action} at table {move.table}, version "
                    f"{move.version}) never showed on every socket"
                ) from None


async def run_moves(
    warm: list[SeatedTable],
    measured: list[SeatedTable],
    plan: list[PlannedMove],
    counter: Counter | None,
    queries: QueryCount | None,
) -> Measured:
    warm_sockets = await open_sockets(warm)
    sockets = await open_sockets(measured)
    await settle(warm_sockets + sockets)
    await replay(warm_sockets, plan)
    await settle(warm_sockets + sockets)
    result = Measured(len(plan))
    gc.collect()
    if counter is not None:
        gc.disable()
        counter.start()
    queries_before = queries.read() if queries is not None else 0
    cpu = time.process_time()
    await replay(sockets, plan)
    for _ in range(SETTLE_TURNS):
        await asyncio.sleep(0)
    result.cpu_seconds = time.process_time() - cpu
    if counter is not None:
        counter.stop()
        gc.enable()
        result.instructions, result.calls = counter.totals()
    if queries is not None:
        result.queries = queries.read() - queries_before - 1
    for socket in itertools.chain(*warm_sockets, *sockets):
        await socket.disconnect()
    return result


def measure_here(mode: str, table_count: int, moves: int, spectators: int, seed: int, top: int):
    """Set up and measure in this process (Django set up, its database migrated)."""
    import django

    django.setup()
    import cardroom.asgi  # noqa: F401  (the application, as a server imports it)

    warm = seat_tables("warm", table_count, spectators, seed)
    measured = seat_tables("measured", table_count, spectators, seed)
    versions = {first_version(table.code) for table in warm + measured}
    if len(versions) != 1:
        raise RuntimeError(f"the matches started at different versions: {versions}")
    plan = plan_moves(table_count, moves, seed, versions.pop())
    from channels.layers import get_channel_layer
    from django.db import connections

    connections.close_all()  # the database thread has its own connection
    layer = get_channel_layer()
    if hasattr(layer, "sweep_interval"):
        # The site's in-memory layer sweeps expired messages at most every few seconds: when a
        # sweep falls depends on the clock, and at a server's pace it costs nothing per move.
        layer.sweep_interval = float("inf")
    counter = Counter(profile=mode == "profile") if mode in ("count", "profile") else None
    queries = QueryCount() if counter is not None else None
    if counter is not None:
        counter.install()
    result = asyncio.run(run_moves(warm, measured, plan, counter, queries))
    if counter is not None and counter.profile:
        result.profile = counter.profile_rows(len(plan), top)
    return result


# -- the runs, each in a process of its own ---------------------------------------------------


def child_env(root: Path, database: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in DROPPED_ENV}
    env.update(CHILD_ENV, DATABASE_URL=f"sqlite:///{database}", PYTHONPATH=str(root))
    return env


def start_child(root: Path, workdir: Path, template: Path, mode: str, args: argparse.Namespace):
    database = workdir / f"{mode}-{len(list(workdir.iterdir()))}.sqlite3"
    shutil.copyfile(template, database)
    out = database.with_suffix(".json")
    command = [
        sys.executable,
        str(HERE),
        "--child",
        mode,
        "--out",
        str(out),
        "--tables",
        str(args.tables),
        "--moves",
        str(args.moves),
        "--spectators",
        str(args.spectators),
        "--seed",
        str(args.seed),
        "--top",
        str(args.top),
    ]
    process = subprocess.Popen(
        command, cwd=root, env=child_env(root, database), stdout=subprocess.DEVNULL
    )
    return process, out


def finish_child(started: tuple[subprocess.Popen, Path]) -> Measured:
    process, out = started
    if process.wait():
        raise RuntimeError(f"a measuring process failed (exit code {process.returncode})")
    return Measured(**json.loads(out.read_text()))


def run(
    *,
    tables: int = TABLES,
    moves: int = MOVES,
    spectators: int = SPECTATORS,
    seed: int = 1,
    profile: bool = False,
    top: int = TOP,
    root: Path | str | None = None,
    say: Any = None,
) -> dict[str, Any]:
    """Count the move path twice and time it once, each in a fresh process on a copy of one
    migrated SQLite file (``root``: the checkout measured; this file's by default)."""
    if root is None:
        root = HERE.parent.parent if (HERE.parent.parent / "manage.py").exists() else Path.cwd()
    root = Path(root).resolve()
    if not (root / "manage.py").exists():
        raise ValueError(f"{root} is not a checkout of the site (no manage.py)")
    if tables < 1 or moves < 1 or spectators < 0:
        raise ValueError("tables and moves must be at least 1, spectators at least 0")
    args = argparse.Namespace(tables=tables, moves=moves, spectators=spectators, seed=seed, top=top)
    say = say or (lambda text: None)
    workdir = Path(tempfile.mkdtemp(prefix="cardroom-moves-"))
    try:
        template = workdir / "template.sqlite3"
        say("migrating a database of the benchmark's own")
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
            cwd=root,
            env=child_env(root, template),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        say(f"counting {moves} moves on {tables} tables, twice")
        first = start_child(root, workdir, template, "profile" if profile else "count", args)
        second = start_child(root, workdir, template, "count", args)
        counts = [finish_child(first), finish_child(second)]
        say("timing them without tracing")
        timed = finish_child(start_child(root, workdir, template, "time", args))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    made = counts[0].moves
    result: dict[str, Any] = {
        "tables": tables,
        "spectators": spectators,
        "seed": seed,
        "moves": made,
        "instructions": [count.instructions for count in counts],
        "repeatable": counts[0].instructions == counts[1].instructions,
        "instructions_per_move": counts[0].instructions / made,
        "calls_per_move": counts[0].calls / made,
        "queries_per_move": counts[0].queries / made,
        "cpu_ms_per_move": 1000 * timed.cpu_seconds / made,
    }
    if profile:
        result["profile"] = counts[0].profile
    return result


def format_result(result: dict[str, Any]) -> str:
    first, second = result["instructions"]
    lines = [
        f"move path: {result['moves']} moves on {result['tables']} Belote table(s) of 4 players "
        f"and {result['spectators']} spectator(s), seed {result['seed']}",
        "",
        f"{'moves':>6} {'instructions/move':>18} {'calls/move':>11} {'queries/move':>13} "
        f"{'CPU ms/move':>12}",
        f"{result['moves']:>6} {result['instructions_per_move']:>18,.1f} "
        f"{result['calls_per_move']:>11,.1f} {result['queries_per_move']:>13.2f} "
        f"{result['cpu_ms_per_move']:>12.2f}",
        "",
        f"instructions of the two counts: {first:,} and {second:,} "
        + ("(equal)" if result["repeatable"] else f"(NOT equal: {second - first:+,})"),
    ]
    profile = result.get("profile")
    if profile:
        crossed = profile["walk"]
        lines += [
            "",
            f"the site's own code crossed: {crossed['files']} files, {crossed['functions']} "
            f"functions, {crossed['calls_per_move']:,.1f} calls a move",
        ]
        for key, title in (("by_own", "own"), ("by_inclusive", "inclusive")):
            lines += ["", f"top functions by {title} instructions per move:"]
            lines.append(f"{'own':>10} {'inclusive':>10}  function")
            for row in profile[key]:
                lines.append(f"{row['own']:>10,.0f} {row['inclusive']:>10,.0f}  {row['function']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--moves", type=int, default=MOVES, help="moves in all")
    parser.add_argument("--spectators", type=int, default=SPECTATORS, help="per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="the top functions too")
    parser.add_argument("--top", type=int, default=TOP)
    parser.add_argument(
        "--root", help="the checkout measured (default: this file's, else the current folder)"
    )
    parser.add_argument("--json", help="also write the results to this JSON file")
    parser.add_argument("--child", choices=["count", "profile", "time"], help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        measured = measure_here(
            args.child, args.tables, args.moves, args.spectators, args.seed, args.top
        )
        Path(args.out).write_text(json.dumps(asdict(measured)))
        return
    result = run(
        tables=args.tables,
        moves=args.moves,
        spectators=args.spectators,
        seed=args.seed,
        profile=args.profile,
        top=args.top,
        root=args.root,
        say=lambda text: print(text, file=sys.stderr),
    )
    print(format_result(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    if sys.path and Path(sys.path[0]).resolve() == HERE.parent:
        sys.path.pop(0)  # run as a script: the checkout comes from PYTHONPATH, not this folder
    main()
