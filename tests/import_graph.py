"""The project's import graph, file by file, for the layer test (tests/test_layers.py).

Rust: `use` trees and inline `crate::`/`super::` paths of crates/sim/src, each resolved to the file that
defines the imported item (a `pub use` re-export is followed to its source, and is itself not an edge:
it routes names, it does not depend on them). `#[cfg(test)]` modules are left out: unit tests may use any
layer. Python: `import`/`from ... import` statements of python/delaycc (anywhere in a module, lazy ones
included), resolved the same way through package `__init__` re-exports.

The layers themselves are read from the `layers` block of ARCHITECTURE.md, so the map a reader sees is
the rule the test enforces.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

Edge = tuple[str, str]  # (importing file, imported file), both relative to the source root


@dataclass
class Graph:
    root: Path
    files: list[str]
    edges: set[Edge] = field(default_factory=set)

    def cycles(self) -> list[list[str]]:
        """Strongly connected components of more than one file (Tarjan), each sorted."""
        adjacency: dict[str, list[str]] = {f: [] for f in self.files}
        for a, b in self.edges:
            adjacency.setdefault(a, []).append(b)
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        found: list[list[str]] = []

        def visit(v: str) -> None:
            index[v] = low[v] = len(index)
            stack.append(v)
            on_stack.add(v)
            for w in adjacency.get(v, []):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

        for v in sorted(adjacency):
            if v not in index:
                visit(v)
        return found


# ---------------------------------------------------------------------------------------------- Rust


def _strip_rust(text: str) -> str:
    """Source without comments, string literals and `#[cfg(test)]` modules."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    out = []
    i = 0
    marker = re.compile(r"#\[cfg\(test\)\]\s*(?:pub\s+)?mod\s+\w+\s*(\{|;)")
    while True:
        m = marker.search(text, i)
        if not m:
            out.append(text[i:])
            break
        out.append(text[i : m.start()])
        if m.group(1) == ";":
            i = m.end()
            continue
        depth = 1
        j = m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    return "".join(out)


def _expand_use(tree: str) -> list[tuple[list[str], str]]:
    """`a::{b, c::{d as e}}` -> [(["a","b"], "b"), (["a","c","d"], "e")] (path, local name)."""
    tree = re.sub(r"\s+", "", tree)
    results: list[tuple[list[str], str]] = []

    def split_top(s: str) -> list[str]:
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += {"{": 1, "}": -1}.get(ch, 0)
            cur += ch
        if cur:
            parts.append(cur)
        return parts

    def walk(prefix: list[str], s: str) -> None:
        if "{" in s:
            head, _, rest = s.partition("{")
            inner = rest[: rest.rfind("}")]
            segs = [p for p in head.split("::") if p]
            for part in split_top(inner):
                walk(prefix + segs, part)
            return
        name, _, alias = s.partition("as")
        segs = [p for p in name.split("::") if p]
        if segs == ["self"]:
            results.append((prefix, alias or (prefix[-1] if prefix else "self")))
        elif segs:
            results.append((prefix + segs, alias or segs[-1]))

    walk([], tree)
    return results


class RustCrate:
    def __init__(self, src: Path) -> None:
        self.src = src
        self.files = sorted(str(p.relative_to(src)) for p in src.rglob("*.rs") if "bin" not in p.parts)
        self.text = {f: _strip_rust((src / f).read_text()) for f in self.files}

    @staticmethod
    def module_of(file: str) -> list[str]:
        parts = file[:-3].split("/")
        if parts[-1] in ("mod", "lib"):
            parts = parts[:-1]
        return parts

    def file_of(self, module: list[str]) -> str | None:
        if not module:
            return "lib.rs"
        base = "/".join(module)
        for candidate in (base + ".rs", base + "/mod.rs"):
            if candidate in self.text:
                return candidate
        return None

    def _absolute(self, file: str, path: list[str]) -> list[str] | None:
        here = self.module_of(file)
        if path[0] == "crate":
            return path[1:]
        if path[0] == "self":
            return here + path[1:]
        if path[0] == "super":
            base = here
            while path and path[0] == "super":
                base = base[:-1]
                path = path[1:]
            return base + path
        return None  # an external crate or std

    def _reexports(self, file: str) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", self.text[file]):
            for path, local in _expand_use(m.group(1)):
                absolute = self._absolute(file, path) if path[0] in ("crate", "self", "super") else None
                if absolute is None:
                    absolute = self.module_of(file) + path
                found[local] = absolute
        return found

    def resolve(self, absolute: list[str], depth: int = 0) -> str | None:
        """The file defining the item (or module) at an absolute path."""
        module: list[str] = []
        rest = list(absolute)
        while rest and self.file_of([*module, rest[0]]):
            module.append(rest.pop(0))
        file = self.file_of(module)
        if file is None or not rest or rest[0] == "*" or depth > 8:
            return file
        item = rest[0]
        reexports = self._reexports(file)
        if item in reexports:
            return self.resolve(reexports[item] + rest[1:], depth + 1)
        if not re.search(rf"\b(?:fn|struct|enum|trait|type|const|static)\s+{item}\b", self.text[file]):
            for target in (v for k, v in reexports.items() if k == "*"):
                inner = self.resolve([*target, item], depth + 1)
                if inner:
                    return inner
        return file

    def graph(self) -> Graph:
        g = Graph(self.src, self.files)
        for file, text in self.text.items():
            if file == "lib.rs":
                continue
            paths: list[list[str]] = []
            reexport_spans = [m.span() for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+[^;]+;", text)]
            for m in re.finditer(r"\buse\s+([^;]+);", text):
                if any(a <= m.start() < b for a, b in reexport_spans):
                    continue
                paths.extend(p for p, _ in _expand_use(m.group(1)))
            for m in re.finditer(r"(?<![:\w])((?:crate|super)(?:::\w+)+)", text):
                if not any(a <= m.start() < b for a, b in reexport_spans):
                    paths.append(m.group(1).split("::"))
            for path in paths:
                if not path or path[0] not in ("crate", "self", "super"):
                    continue
                absolute = self._absolute(file, path)
                target = self.resolve(absolute) if absolute is not None else None
                if target and target != file and target != "lib.rs":
                    g.edges.add((file, target))
        return g


# -------------------------------------------------------------------------------------------- Python


class PythonPackage:
    def __init__(self, package_dir: Path) -> None:
        self.dir = package_dir
        self.name = package_dir.name
        self.files = sorted(str(p.relative_to(package_dir)) for p in package_dir.rglob("*.py"))
        self.files += sorted(str(p.relative_to(package_dir)) for p in package_dir.rglob("*.pyi"))
        self.trees = {f: ast.parse((package_dir / f).read_text()) for f in self.files if f.endswith(".py")}

    def _file_of(self, module: list[str]) -> str | None:
        base = "/".join(module)
        for candidate in (base + ".py", base + "/__init__.py", base + ".pyi"):
            if candidate.lstrip("/") in self.files:
                return candidate.lstrip("/")
        return None

    @staticmethod
    def module_of(file: str) -> list[str]:
        parts = file.rsplit(".", 1)[0].split("/")
        return parts[:-1] if parts[-1] == "__init__" else parts

    def _package_of(self, file: str) -> list[str]:
        module = self.module_of(file)
        return module if file.endswith("__init__.py") else module[:-1]

    def _reexports(self, file: str) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for node in ast.walk(self.trees.get(file, ast.Module(body=[], type_ignores=[]))):
            if isinstance(node, ast.ImportFrom):
                base = self._absolute(file, node)
                if base is None:
                    continue
                for alias in node.names:
                    found[alias.asname or alias.name] = [*base, alias.name]
        return found

    def _absolute(self, file: str, node: ast.ImportFrom) -> list[str] | None:
        module = (node.module or "").split(".") if node.module else []
        if node.level:
            package = self._package_of(file)
            if node.level > 1:
                package = package[: len(package) - (node.level - 1)]
            return package + module
        if module and module[0] == self.name:
            return module[1:]
        return None

    def resolve(self, absolute: list[str], depth: int = 0) -> str | None:
        module: list[str] = []
        rest = list(absolute)
        while rest and self._file_of([*module, rest[0]]):
            module.append(rest.pop(0))
        file = self._file_of(module) if module else "__init__.py"
        if file is None or not rest or depth > 8:
            return file
        reexports = self._reexports(file)
        if rest[0] in reexports and file.endswith("__init__.py"):
            return self.resolve(reexports[rest[0]] + rest[1:], depth + 1)
        return file

    def graph(self) -> Graph:
        """Edges as Python executes them: `from pkg import name` runs pkg/__init__.py (an edge to it,
        and one to the file defining `name`), and a package's __init__ depends on the modules it
        gathers, so a module taking a name from its own package's __init__ is a cycle."""
        g = Graph(self.dir, self.files)
        for file, tree in self.trees.items():
            for node in ast.walk(tree):
                targets: list[list[str]] = []
                if isinstance(node, ast.ImportFrom):
                    base = self._absolute(file, node)
                    if base is None:
                        continue
                    targets = [[*base, a.name] for a in node.names]
                    holder = self._file_of(base) if base else "__init__.py"
                    takes_a_name = any(not self._file_of([*base, a.name]) for a in node.names)
                    if holder and holder.endswith("__init__.py") and holder != file and takes_a_name:
                        g.edges.add((file, holder))
                elif isinstance(node, ast.Import):
                    targets = [a.name.split(".")[1:] for a in node.names if a.name.split(".")[0] == self.name]
                for absolute in targets:
                    target = self.resolve(absolute)
                    if target and target != file:
                        g.edges.add((file, target))
        return g


# -------------------------------------------------------------------------------------------- Layers


def read_layers(architecture: Path) -> dict[str, list[list[str]]]:
    """The `layers` block of ARCHITECTURE.md: `root: a b | c | d`, lowest layer first (a root may take
    several lines, continuing upwards); names in one layer may import each other (cycles between files
    are refused separately)."""
    text = architecture.read_text()
    m = re.search(r"```layers\n(.*?)```", text, flags=re.S)
    if not m:
        raise AssertionError(f"{architecture}: no ```layers block")
    layers: dict[str, list[list[str]]] = {}
    for line in m.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        root, _, spec = line.partition(":")
        layers.setdefault(root.strip(), []).extend(group.split() for group in spec.split("|"))
    return layers


def top_name(file: str) -> str:
    first = file.split("/", 1)[0]
    return first.rsplit(".", 1)[0] if first.endswith((".py", ".pyi", ".rs")) else first


def upward_imports(graph: Graph, layers: list[list[str]], exempt: Iterable[str] = ()) -> list[str]:
    """Edges from a file to a file of a higher layer, and files whose top-level name is in no layer."""
    rank = {name: i for i, group in enumerate(layers) for name in group}
    problems = []
    exempt = set(exempt)
    for f in graph.files:
        if top_name(f) not in rank and top_name(f) not in exempt:
            problems.append(f"{f}: its module {top_name(f)!r} is in no layer")
    for a, b in sorted(graph.edges):
        ta, tb = top_name(a), top_name(b)
        if ta in exempt or tb in exempt or ta not in rank or tb not in rank:
            continue
        if rank[tb] > rank[ta]:
            problems.append(f"{a} imports {b}: {tb!r} is a layer above {ta!r}")
    return problems
