"""Rules of the tree: the product never imports the benchmarks (they import the product) nor
installs them in production, and holds no module the site never runs; only the live layer, the
views and the admin tell the screens (services never import ``games.live``); no module of
``games`` imports itself through others; and ``games/`` keeps few modules at its top, the rest
housed by what they are about."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
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
