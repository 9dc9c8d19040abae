"""Rules of the tree: the product never imports the benchmarks (they import the product) nor
installs them in production, and holds no module the site never runs; only the live layer, the
views and the admin tell the screens (services never import ``games.live``); no module of
``games`` imports itself through others, nor does a package; the packages of ``games`` stand in
layers and none imports one above it; ``games/`` keeps few modules at its top, the rest housed
by what they are about; and the cache keys of who is online are spelt by their owner alone."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_tree(root: Path, sources: Mapping[str, str]) -> list[Path]:
    """Write each text of ``sources`` at its path under ``root``; the Python files there."""
    for name, text in sources.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return sorted(root.rglob("*.py"))


def imported(path: Path, root: Path = ROOT) -> Iterator[str]:
    """The absolute names of the modules the file ``path`` imports (``from a import b`` names
    ``a`` and ``a.b``; relative imports resolved), ``import_module("a")`` calls included."""
    package = path.relative_to(root).parts[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = [*base, *([node.module] if node.module else [])]
            yield ".".join(module)
            yield from (".".join([*module, alias.name]) for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.args[0].value


def imports_of(package: str, paths: list[Path], root: Path = ROOT) -> list[str]:
    """``file: module`` for each import of ``package`` (or a module in it) in ``paths``."""
    return [
        f"{path.relative_to(root)}: {name}"
        for path in paths
        for name in imported(path, root)
        if name == package or name.startswith(package + ".")
    ]


def benchmark_imports(paths: list[Path], root: Path = ROOT) -> list[str]:
    """``file: module`` for each import of the ``benchmarks`` app in ``paths``."""
    return imports_of("benchmarks", paths, root)


def product_and_product_tests() -> list[Path]:
    """Every module of the product (games/, cardroom/) and every test outside tests/benchmarks/."""
    product = [*(ROOT / "games").rglob("*.py"), *(ROOT / "cardroom").rglob("*.py")]
    tests = (ROOT / "tests").rglob("*.py")
    tests = [p for p in tests if p.relative_to(ROOT / "tests").parts[0] != "benchmarks"]
    return product + tests


def test_no_product_module_and_no_product_test_imports_the_benchmarks():
    paths = product_and_product_tests()
    assert len(paths) > 100  # the walk found the tree
    assert ROOT / "games" / "live" / "routing.py" in paths
    assert ROOT / "tests" / "test_dispatch.py" in paths
    assert benchmark_imports(paths) == []


def test_the_rule_sees_every_way_of_importing_the_benchmarks(tmp_path):
    sources = {
        "games/a.py": "from benchmarks import load\n",
        "games/b.py": "import benchmarks.floor as floor\n",
        "games/c.py": "def f():\n    from benchmarks.floor import FanOutConsumer\n",
        "games/d.py": "from importlib import import_module\nimport_module('benchmarks.load')\n",
        "pkg/e.py": "from .. import benchmarks\n",  # pkg is under the root: ..benchmarks
        "games/ok.py": "from games import benchmarks_free\nimport tests.benchmarks\n",
    }
    paths = write_tree(tmp_path, sources)
    found = benchmark_imports(paths, tmp_path)
    assert [line.split(":")[0] for line in found] == [
        "games/a.py",
        "games/a.py",
        "games/b.py",
        "games/c.py",
        "games/c.py",
        "games/d.py",
        "pkg/e.py",
    ]


#: Who may tell the screens: the live layer itself, the views, the admin, the management
#: commands (run by hand or by cron, like a view by a request), and the app's wiring.
ANNOUNCERS = (
    "games/live/",
    "games/views/",
    "games/admin.py",
    "games/management/",
    "games/apps.py",
)


def services() -> list[Path]:
    """Every module of ``games/`` that may not tell the screens."""
    return [
        path
        for path in (ROOT / "games").rglob("*.py")
        if not str(path.relative_to(ROOT)).startswith(ANNOUNCERS)
    ]


def test_services_never_import_the_live_layer():
    paths = services()
    assert ROOT / "games" / "tables" / "play.py" in paths
    assert ROOT / "games" / "people" / "moderation.py" in paths
    assert imports_of("games.live", paths) == []


def test_the_rule_sees_a_service_that_imports_the_live_layer(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "svc.py").write_text("from .live import notify\n")
    (tmp_path / "games" / "ok.py").write_text("from .lively import x\n")
    paths = sorted(tmp_path.rglob("*.py"))
    found = imports_of("games.live", paths, tmp_path)
    assert found == ["games/svc.py: games.live", "games/svc.py: games.live.notify"]


def module_name(path: Path, root: Path = ROOT) -> str:
    """``games/tables/play.py`` → ``games.tables.play`` (a package: its ``__init__``'s name)."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(paths: list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    """Which of the modules in ``paths`` each one imports (anywhere in it, functions too)."""
    names = {module_name(path, root): path for path in paths}
    return {
        name: {other for other in imported(path, root) if other in names and other != name}
        for name, path in names.items()
    }


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another, round a circle (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for other in sorted(graph[name]):
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == name:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_no_module_of_games_imports_itself_round_a_circle():
    graph = import_graph(sorted((ROOT / "games").rglob("*.py")))
    assert "games.tables.play" in graph["games.live.moves"]  # the walk sees the imports
    assert circles(graph) == []


def test_the_rule_sees_a_circle(tmp_path):
    sources = {
        "games/__init__.py": "",
        "games/a.py": "from . import b\n",
        "games/b.py": "def f():\n    from .c import x\n",
        "games/c.py": "from games.a import y\n",
        "games/d.py": "from . import a\n",
    }
    paths = write_tree(tmp_path, sources)
    graph = import_graph(paths, tmp_path)
    assert circles(graph) == [["games.a", "games.b", "games.c"]]


def test_games_keeps_at_most_eight_modules_at_its_top():
    top = sorted(path.name for path in (ROOT / "games").glob("*.py") if path.name != "__init__.py")
    assert "verify.py" in top  # ``python -m games.verify`` stays where outside checks find it
    assert len(top) <= 8, top


def package_of(name: str) -> str | None:
    """The package of ``games`` a module is in: ``games.tables.play`` → ``tables``,
    ``games.models`` → ``models`` (a module at the top is a package of its own); None for
    ``games`` itself and anything outside it."""
    parts = name.split(".")
    return parts[1] if parts[0] == "games" and len(parts) > 1 else None


def package_imports(paths: list[Path], root: Path = ROOT) -> Iterator[tuple[str, str, str]]:
    """``(file, its package, the package it imports)`` for each import of another package of
    ``games`` in ``paths``, once per file and package."""
    for path in paths:
        source = package_of(module_name(path, root))
        seen = set()
        for name in imported(path, root):
            target = package_of(name)
            if source and target and target != source and target not in seen:
                seen.add(target)
                yield str(path.relative_to(root)), source, target


#: The packages of ``games``, lowest first: each imports only those of the layers below its
#: own and of its own layer. At the bottom the pure rules and what shows them, then the small
#: helpers anyone may import (``UTILITIES``), the models, and the services, each room on the
#: rooms below it; at the top what a request, a command or the app's start reaches first.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("engines",),
    ("analysis",),
    ("bots",),
    ("presenters",),
    ("catalog",),
    ("verify", "processes", "background", "refusals"),
    ("models",),
    ("people",),
    ("records",),
    ("tables",),
    ("events", "live"),
    (
        "views",
        "admin",
        "management",
        "templatetags",
        "urls",
        "apps",
        "context_processors",
        "migrations",
    ),
)
#: Helpers any package may import (they import only the pure layers below them).
UTILITIES = LAYERS[5]
#: Packages of one layer that may not import each other either.
APART = {frozenset({"events", "live"})}


def layer_crossings(
    imports: list[tuple[str, str, str]],
    layers: tuple[tuple[str, ...], ...] = LAYERS,
    utilities: tuple[str, ...] = UTILITIES,
    apart: set[frozenset[str]] = APART,
) -> list[str]:
    """``file: package -> package`` for each import of a package above the file's own (or of
    one it stands apart from, or of a package no layer names)."""
    rank = {package: level for level, layer in enumerate(layers) for package in layer}
    return [
        f"{path}: {source} -> {target}"
        for path, source, target in imports
        if target not in utilities
        and (
            rank.get(source, -1) < rank.get(target, len(layers))
            or frozenset({source, target}) in apart
        )
    ]


def games_imports() -> list[tuple[str, str, str]]:
    """The imports between the packages of ``games``."""
    return list(package_imports(sorted((ROOT / "games").rglob("*.py"))))


def package_graph(imports: list[tuple[str, str, str]]) -> dict[str, set[str]]:
    """Which packages each package imports."""
    graph: dict[str, set[str]] = {}
    for _path, source, target in imports:
        graph.setdefault(source, set()).add(target)
        graph.setdefault(target, set())
    return graph


def test_every_package_of_games_has_a_layer():
    games = ROOT / "games"
    folders = {path.name for path in games.iterdir() if path.is_dir() and any(path.glob("*.py"))}
    modules = {path.stem for path in games.glob("*.py") if path.name != "__init__.py"}
    assert {"models", "people", "tables", "live", "views", "verify"} <= folders | modules
    assert folders | modules <= {package for layer in LAYERS for package in layer}


def test_no_package_of_games_imports_itself_round_a_circle():
    graph = package_graph(games_imports())
    assert "tables" in graph["live"]
    assert circles(graph) == []


def test_the_rule_sees_a_circle_of_packages_that_no_module_closes(tmp_path):
    sources = {
        "games/__init__.py": "",
        "games/a/__init__.py": "",
        "games/a/one.py": "from ..b import two\n",
        "games/b/__init__.py": "",
        "games/b/two.py": "from games.a import three\n",
        "games/a/three.py": "",
        "games/c.py": "from .a import one\n",
    }
    paths = write_tree(tmp_path, sources)
    assert circles(import_graph(paths, tmp_path)) == []  # no module imports itself
    assert circles(package_graph(list(package_imports(paths, tmp_path)))) == [["a", "b"]]


def test_no_package_imports_one_above_it():
    assert layer_crossings(games_imports()) == []


def test_the_rule_sees_an_import_up_a_layer(tmp_path):
    sources = {
        "games/models.py": "from .tables.computers import computer_name\n",
        "games/people/friends.py": "from ..tables import limits\nfrom .. import verify\n",
        "games/tables/chat.py": "from ..people import friends\nfrom ..events import running\n",
        "games/live/moves.py": "from ..events.running import table_finished\n",
        "games/views/home.py": "from ..live import notify\nfrom ..tables import chat\n",
        "games/verify.py": "from .engines import belote\n",
        "games/engines/belote.py": "from .. import processes\n",
        "games/hats/brim.py": "from ..engines import belote\n",
    }
    paths = write_tree(tmp_path, sources)
    imports = list(package_imports(paths, tmp_path))
    assert layer_crossings(imports) == [
        "games/hats/brim.py: hats -> engines",
        "games/live/moves.py: live -> events",
        "games/models.py: models -> tables",
        "games/people/friends.py: people -> tables",
        "games/tables/chat.py: tables -> events",
    ]


def spelt_strings(path: Path) -> Iterator[str]:
    """The string constants of the file at ``path``, the literal parts of f-strings included."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def spelling(prefix: str, paths: list[Path], root: Path = ROOT) -> list[str]:
    """The files of ``paths`` whose strings start with ``prefix``."""
    return [
        str(path.relative_to(root))
        for path in paths
        if any(text.startswith(prefix) for text in spelt_strings(path))
    ]


def test_only_the_owner_of_who_is_online_spells_its_cache_keys():
    paths = [*sorted((ROOT / "games").rglob("*.py")), *sorted((ROOT / "benchmarks").rglob("*.py"))]
    assert spelling("sockets:", paths) == ["games/people/online.py"]


def test_the_rule_sees_a_module_that_spells_the_keys(tmp_path):
    sources = {
        "a.py": 'KEYS = [f"sockets:{uid}:{n}" for n in range(3)]\n',
        "b.py": 'key = "sockets:" + str(uid)\n',
        "ok.py": '"""Open sockets: each holds a place."""\nx = "sockets"\n',
    }
    paths = write_tree(tmp_path, sources)
    assert spelling("sockets:", paths, tmp_path) == ["a.py", "b.py"]


# -- One way to refuse: every refusal is a Refusal, and a posted username is read by one form.

#: The calls that put a message into the player's language.
TRANSLATING = {
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
}


def last_name(node: ast.AST) -> str:
    """``C`` of ``C`` or ``a.b.C`` (a class or a function as the code names it), else ""."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def translates(node: ast.AST) -> bool:
    """Whether the expression puts a message into the player's language."""
    return any(
        isinstance(inner, ast.Call) and last_name(inner.func) in TRANSLATING
        for inner in ast.walk(node)
    )


def unrefused(paths: list[Path], root: Path = ROOT) -> tuple[list[str], set[str]]:
    """``file: Class`` for each exception class in ``paths`` that carries a message for the
    player (its name ends in ``Error``, or it is made with a translated message, or hands one
    to its base) but does not derive from ``Refusal``; and the names of all that carry one."""
    bases: dict[str, list[str]] = {}
    where: dict[str, str] = {}
    said: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = [last_name(base) for base in node.bases]
                where[node.name] = str(path.relative_to(root))
                if any(
                    isinstance(inner, ast.Call)
                    and last_name(inner.func) == "__init__"
                    and any(translates(arg) for arg in inner.args)
                    for inner in ast.walk(node)
                ):
                    said.add(node.name)
            elif isinstance(node, ast.Call) and node.args and translates(node.args[0]):
                said.add(last_name(node.func))

    def ancestry(name: str) -> set[str]:
        """``name`` and the names of every class it derives from, as far as ``paths`` tell."""
        seen, todo = set(), [name]
        while todo:
            if (current := todo.pop()) not in seen:
                seen.add(current)
                todo.extend(bases.get(current, []))
        return seen

    exceptions = {
        name
        for name in bases
        if any(base.endswith(("Error", "Exception", "Refusal")) for base in ancestry(name))
    }
    carrying = {name for name in exceptions if name.endswith("Error") or name in said}
    wrong = [f"{where[name]}: {name}" for name in carrying if "Refusal" not in ancestry(name)]
    return sorted(wrong), carrying


def test_every_exception_with_a_message_for_the_player_is_a_refusal():
    wrong, carrying = unrefused(sorted((ROOT / "games").rglob("*.py")))
    assert {"FriendError", "ClubError", "EventError", "TableError", "AddressError"} <= carrying
    assert {"NoMatch", "BadFrame"} <= carrying  # a message handed to the base, or raised with one
    assert "BadLog" not in carrying  # the verifier's errors are for whoever runs it
    assert wrong == []


def test_the_rule_sees_an_exception_with_a_message_that_is_no_refusal(tmp_path):
    sources = {
        "games/refusals.py": "class Refusal(Exception):\n    pass\n",
        "games/a.py": (
            "from .refusals import Refusal\n"
            "class GoodError(Refusal):\n    pass\n"
            "class Later(GoodError):\n    pass\n"
            "def f():\n    raise Later(_('No.'))\n"
        ),
        "games/b.py": "class OldError(ValueError):\n    '''The message says why.'''\n",
        "games/c.py": (
            "from django.utils.translation import gettext as _\n"
            "class Denied(Exception):\n    pass\n"
            "def f(name):\n    raise Denied(_('No %(name)s.') % {'name': name})\n"
        ),
        "games/d.py": (
            "class Quiet(Exception):\n    pass\n"
            "class Gone(Quiet):\n"
            "    def __init__(self):\n        super().__init__(gettext_lazy('Gone.'))\n"
        ),
        "games/e.py": "class Label:\n    pass\nLABEL = Label(_('Name'))\n",
    }
    paths = write_tree(tmp_path, sources)
    wrong, _carrying = unrefused(paths, tmp_path)
    assert wrong == ["games/b.py: OldError", "games/c.py: Denied", "games/d.py: Gone"]


def posted_reads(paths: list[Path], field: str, root: Path = ROOT) -> list[str]:
    """``file:line`` for each direct read of the posted ``field`` (``….POST.get(field)``,
    ``….POST.getlist(field)``, ``….POST[field]``)."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                read = node.func.attr in ("get", "getlist") and node.args
                source, key = node.func.value, node.args[0] if read else None
            elif isinstance(node, ast.Subscript):
                source, key = node.value, node.slice
            else:
                continue
            if (
                isinstance(source, ast.Attribute)
                and source.attr == "POST"
                and isinstance(key, ast.Constant)
                and key.value == field
            ):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_view_reads_a_posted_username_but_through_the_username_form():
    paths = sorted((ROOT / "games").rglob("*.py"))
    assert posted_reads(paths, "next")  # the walk sees the views' reads of the form
    assert posted_reads(paths, "username") == []


def test_the_rule_sees_every_direct_read_of_a_posted_username(tmp_path):
    sources = {
        "games/views/a.py": 'def v(request):\n    return request.POST.get("username", "")[:150]\n',
        "games/views/b.py": 'def v(request):\n    name = request.POST["username"]\n',
        "games/c.py": 'def v(r):\n    return r.POST.getlist("username")\n',
        "games/views/ok.py": (
            "def v(request):\n"
            "    name = UsernameForm.named_in(request)\n"
            '    return request.POST.get("user"), request.GET.get("username"), {}.get("username")\n'
        ),
    }
    paths = write_tree(tmp_path, sources)
    found = posted_reads(paths, "username", tmp_path)
    assert found == ["games/c.py:2", "games/views/a.py:2", "games/views/b.py:2"]


#: The one home of who may open, watch, sit at, or see the record of a table or match.
ACCESS = "games/people/access.py"
#: Who else reads blocks: the block list itself, and who may reach whom (requests, presence).
BLOCK_LIST = "games/people/friends.py"
#: A function named as an answer to "who may open, see, sit at or watch this".
ACCESS_ANSWER = re.compile(r"(may_(open|see|sit|watch)\w*|\w*(visible|shown|listed)_to)")


def access_answers_elsewhere(paths: list[Path], root: Path = ROOT) -> list[str]:
    """``file: name`` for each function outside :data:`ACCESS` named as an access answer, and
    each import of friendship's ``Block`` outside it and :data:`BLOCK_LIST`."""
    found = []
    for path in paths:
        where = str(path.relative_to(root))
        if where == ACCESS:
            continue
        tree = ast.parse(path.read_text(), where)
        found += [
            f"{where}: {node.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and ACCESS_ANSWER.fullmatch(node.name)
        ]
        if where != BLOCK_LIST:
            found += [
                f"{where}: {name}"
                for name in imported(path, root)
                if name == "friendship.models.Block"
            ]
    return found


def test_who_may_open_sit_or_see_is_answered_in_one_place():
    paths = sorted((ROOT / "games").rglob("*.py"))
    assert ROOT / ACCESS in paths and ROOT / "games" / "tables" / "seating.py" in paths
    assert access_answers_elsewhere(paths) == []


def test_the_rule_sees_an_access_answer_outside_its_home(tmp_path):
    sources = {
        "games/tables/seats.py": "from friendship.models import Block\n",
        "games/events/run.py": "def may_open(table_id, user):\n    return True\n",
        "games/records/hist.py": "async def records_visible_to(viewer):\n    return None\n",
        "games/people/friends.py": "from friendship.models import Block\n",
        "games/people/access.py": "from friendship.models import Block\ndef may_sit(t, u): ...\n",
        "games/ok.py": "from friendship.models import Friend\ndef shows_online_to(o, v): ...\n",
    }
    paths = write_tree(tmp_path, sources)
    found = access_answers_elsewhere(paths, tmp_path)
    assert found == [
        "games/events/run.py: may_open",
        "games/records/hist.py: records_visible_to",
        "games/tables/seats.py: friendship.models.Block",
    ]


def test_the_door_imports_nothing_of_events():
    paths = sorted((ROOT / "games" / "live").rglob("*.py"))
    assert ROOT / "games" / "live" / "moves.py" in paths
    assert imports_of("games.events", paths) == []


def test_the_rule_sees_the_door_import_events(tmp_path):
    (tmp_path / "games" / "live").mkdir(parents=True)
    (tmp_path / "games" / "live" / "moves.py").write_text("from ..events import running\n")
    (tmp_path / "games" / "live" / "ok.py").write_text("from ..tables import extensions\n")
    paths = sorted(tmp_path.rglob("*.py"))
    found = imports_of("games.events", paths, tmp_path)
    assert found == [
        "games/live/moves.py: games.events",
        "games/live/moves.py: games.events.running",
    ]


#: How Django and the site reach modules no import names: the apps' conventional modules, and
#: the command-line checker README names (``python -m games.verify``).
CONVENTIONAL = ("apps", "admin", "models", "migrations", "management", "templatetags")
COMMAND_LINE = ("games.verify",)


def dotted_strings(path: Path) -> Iterator[str]:
    """Every string constant of the file ``path`` and, for ``a.b.c``, ``a.b`` too (settings
    name classes and functions by their dotted paths)."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value
            yield node.value.rsplit(".", 1)[0]


def unreached(paths: list[Path], root: Path = ROOT) -> list[str]:
    """The modules in ``paths`` that no entry point of the site reaches: every module of
    ``cardroom`` (settings, URLs, ASGI; what its settings name by a dotted string counts as
    imported), the conventional modules of ``games``, and :data:`COMMAND_LINE`."""
    names = {module_name(path, root): path for path in paths}
    todo = [
        name
        for name in names
        if name.split(".")[0] == "cardroom"
        or name == "games"
        or name in COMMAND_LINE
        or name.split(".")[1] in CONVENTIONAL
    ]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        targets = set(imported(names[name], root))
        if name.split(".")[0] == "cardroom":
            targets.update(dotted_strings(names[name]))
        for target in targets:
            parts = target.split(".")
            # Importing ``a.b.c`` runs ``a`` and ``a.b`` first.
            todo += [".".join(parts[:n]) for n in range(1, len(parts) + 1)]
        todo = [other for other in todo if other in names and other not in seen]
    return sorted(set(names) - seen)


def product() -> list[Path]:
    """Every module of the product: games/ and cardroom/."""
    return sorted([*(ROOT / "games").rglob("*.py"), *(ROOT / "cardroom").rglob("*.py")])


def test_the_product_holds_no_module_the_site_never_runs():
    """What no table, page or command uses (the Belote expert no table offers, its learnt
    values) lives with the benchmarks, not in the product."""
    paths = product()
    assert ROOT / "games" / "bots" / "belote.py" in paths  # the walk found the tree
    assert unreached(paths) == []


def test_the_rule_sees_a_module_nothing_reaches(tmp_path):
    sources = {
        "cardroom/__init__.py": "",
        "cardroom/settings.py": "MIDDLEWARE = ['games.middle.Layer']\n",
        "cardroom/urls.py": "from games.views import pages\n",
        "games/__init__.py": "",
        "games/apps.py": "",
        "games/middle.py": "",
        "games/views/__init__.py": "",
        "games/views/pages.py": "from ..bots import easy\n",
        "games/bots/__init__.py": "",
        "games/bots/easy.py": "",
        "games/bots/expert.py": "from . import values\n",
        "games/bots/values.py": "",
        "games/templatetags/__init__.py": "",
        "games/templatetags/cards.py": "",
        "games/verify.py": "",
    }
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = unreached(sorted(tmp_path.rglob("*.py")), tmp_path)
    assert found == ["games.bots.expert", "games.bots.values"]


SITE_APPS = """
import django, json
from django.apps import apps
django.setup()
print(json.dumps([config.name for config in apps.get_app_configs()]))
"""


def installed_apps(settings: str, debug: str) -> list[str]:
    """The apps the settings module ``settings`` installs, read in a fresh process."""
    env = dict(os.environ, DJANGO_SETTINGS_MODULE=settings, DEBUG=debug, SECRET_KEY="rules")
    result = subprocess.run(
        [sys.executable, "-c", SITE_APPS], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_production_installs_no_benchmarks_and_their_commands_do():
    production = installed_apps("cardroom.settings", debug="0")
    assert "games" in production
    assert "benchmarks" not in production
    assert "benchmarks" not in installed_apps("cardroom.settings", debug="1")
    assert "benchmarks" in installed_apps("benchmarks.settings", debug="0")


def test_manage_runs_the_benchmarks_commands_with_the_benchmarks_settings():
    spec = importlib.util.spec_from_file_location("manage", ROOT / "manage.py")
    assert spec and spec.loader
    manage = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(manage)
    assert manage.settings_module(["manage.py", "bench", "moves"]) == "benchmarks.settings"
    assert manage.settings_module(["manage.py", "loadtest", "--soak"]) == "benchmarks.settings"
    for command in (["manage.py", "migrate"], ["manage.py", "runworker", "bot-moves"]):
        assert manage.settings_module(command) == "cardroom.settings"
    assert manage.settings_module(["manage.py"]) == "cardroom.settings"
