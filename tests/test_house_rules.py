"""Rules of the tree: the product never imports the benchmarks (they import the product); only
the live layer, the views and the admin tell the screens (services never import
``games.live``); no module of ``games`` imports itself through others; and ``games/`` keeps few
modules at its top, the rest housed by what they are about."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    found = benchmark_imports(sorted(tmp_path.rglob("*.py")), tmp_path)
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
    found = imports_of("games.live", sorted(tmp_path.rglob("*.py")), tmp_path)
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
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = import_graph(sorted(tmp_path.rglob("*.py")), tmp_path)
    assert circles(graph) == [["games.a", "games.b", "games.c"]]


def test_games_keeps_at_most_eight_modules_at_its_top():
    top = sorted(path.name for path in (ROOT / "games").glob("*.py") if path.name != "__init__.py")
    assert "verify.py" in top  # ``python -m games.verify`` stays where outside checks find it
    assert len(top) <= 8, top


#: Packages and what they may not import: nothing runs up a layer.
BELOW = {
    "games/engines": ("games.models", "games.presenters", "games.templatetags", "games.live"),
    "games/bots": ("games.models", "games.presenters", "games.templatetags", "games.live"),
    "games/analysis": ("games.models", "games.presenters", "games.templatetags", "games.live"),
    "games/presenters": ("games.templatetags", "games.views", "games.live"),
}


def test_no_import_runs_up_a_layer():
    found = [
        line
        for folder, above in BELOW.items()
        for package in above
        for line in imports_of(package, sorted((ROOT / folder).rglob("*.py")))
    ]
    assert found == []


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
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = access_answers_elsewhere(sorted(tmp_path.rglob("*.py")), tmp_path)
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
    found = imports_of("games.events", sorted(tmp_path.rglob("*.py")), tmp_path)
    assert found == [
        "games/live/moves.py: games.events",
        "games/live/moves.py: games.events.running",
    ]
