"""The product's import graph, read from the source with ``ast``, for the layout tests.

Only imports that run when a module is imported count: those at module level,
inside ``if``/``try``/``with`` blocks (``if TYPE_CHECKING:`` included, since a
circle there is still a circle for a reader and for a type checker) and in
class bodies. Imports inside functions run later, on a call, and are left out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Import:
    """One import statement's target, as the importing module names it."""

    importer: str
    target: str
    line: int


def module_name(root: Path, path: Path) -> str:
    """``server/store/_keys.py`` → ``server.store._keys``; an ``__init__`` → its package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules_under(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of the given top-level packages, by dotted name."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            found[module_name(root, path)] = path
    return found


def _eager_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of ``body`` that run on import, blocks opened, functions skipped."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        yield node
        if isinstance(node, ast.ClassDef):
            yield from _eager_statements(node.body)
        elif isinstance(node, ast.If | ast.While | ast.For | ast.With):
            yield from _eager_statements(node.body)
            yield from _eager_statements(getattr(node, "orelse", []))
        elif isinstance(node, ast.Try):
            yield from _eager_statements(node.body)
            for handler in node.handlers:
                yield from _eager_statements(handler.body)
            yield from _eager_statements(node.orelse)
            yield from _eager_statements(node.finalbody)


def _base(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names, relative levels resolved."""
    if not node.level:
        return node.module or ""
    parts = importer.split(".")
    keep = len(parts) - node.level + (1 if is_package else 0)
    base = ".".join(parts[:keep])
    return f"{base}.{node.module}" if node.module else base


def imports_of(name: str, path: Path, known: set[str]) -> list[Import]:
    """What module ``name`` imports on import: product modules by their own name.

    ``from pkg import sub`` counts as importing ``pkg.sub`` when that is a module
    of the product, else as importing ``pkg`` itself.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[Import] = []
    for node in _eager_statements(tree.body):
        if isinstance(node, ast.Import):
            found.extend(Import(name, alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _base(name, is_package, node)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append(Import(name, sub if sub in known else base, node.lineno))
    return found


def import_graph(root: Path, packages: Iterable[str]) -> list[Import]:
    """Every eager import of every module of ``packages`` under ``root``."""
    modules = modules_under(root, packages)
    known = set(modules)
    return [found for name, path in modules.items() for found in imports_of(name, path, known)]


def circles(edges: Iterable[Import]) -> list[list[str]]:
    """The import circles among the modules: strongly connected groups of two or more,
    or a module importing itself (Tarjan's algorithm, iterative)."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.importer, set()).add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1 or node in graph.get(node, ()):
                        groups.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(groups)
