"""The layers of the Python package: each entry of LAYERS may import only entries before it (or itself),
and no module imports, directly or round about, a module that imports it. Every import counts, also one
inside a function or under TYPE_CHECKING."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "delaycc"

LAYERS = [
    # The engine, and modules that import nothing of delaycc but it.
    "_core",
    "files",
    "keypath",
    "summary_rules",
    "table",
    "progress",
    "result_like",
    "limits",
    "units",
    # A run's results: figures and files from anything like a Result, then Result, which saves through them.
    "plots",
    "output",
    "result",
    "errors",
    # Running a scenario.
    "scenario_input",
    "api",
    # What is built on runs (sweep, the ns-2 referee, the kernel and its emulation, the crosscheck, the
    # papers' reproduction), the public API, and the command.
    "sweep",
    "ns2",
    "kernel",
    "emulate",
    "crosscheck",
    "reproduce",
    "__init__",
    "cli",
    "__main__",
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return name in MODULES and MODULES[name].name == "__init__.py"


def _imports(name: str) -> set[str]:
    """The delaycc modules `name` imports; a name taken from a package's __init__ counts as the package."""
    package = name if _is_package(name) else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "delaycc"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            elif node.module and node.module.split(".")[0] == "delaycc":
                module = node.module
            else:
                continue
            for a in node.names:
                sub = f"{module}.{a.name}"
                found.add(sub if sub in MODULES or sub == "delaycc._core" else module)
    found.discard(name)
    return found


GRAPH = {name: _imports(name) for name in MODULES}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_module_is_in_a_layer() -> None:
    assert {_layer(m) for m in MODULES} - set(LAYERS) == set()


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module: str) -> None:
    rank = LAYERS.index(_layer(module))
    upward = sorted(t for t in GRAPH[module] if LAYERS.index(_layer(t)) > rank)
    assert upward == [], f"{module} ({_layer(module)}) imports from a higher layer"


def test_no_import_cycles() -> None:
    """Also inside packages: no module imports its own package's __init__ (only __main__ may)."""
    done: set[str] = set()
    path: list[str] = []

    def visit(m: str) -> None:
        if m in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(m) :], m]))
        if m in done or m not in GRAPH:
            return
        path.append(m)
        for t in sorted(GRAPH[m]):
            visit(t)
        path.pop()
        done.add(m)

    for m in sorted(GRAPH):
        if not m.endswith("__main__"):
            visit(m)
