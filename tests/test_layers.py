"""The layers of ARCHITECTURE.md hold: no file imports a higher layer, and no files import each other in
a circle, in the Rust crate and in the Python package alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from import_graph import Graph, PythonPackage, RustCrate, read_layers, upward_imports

ROOT = Path(__file__).resolve().parent.parent
LAYERS = read_layers(ROOT / "ARCHITECTURE.md")
# The crate root declares the modules and re-exports the entry points; it is not a layer.
EXEMPT = {"crates/sim/src": ["lib"]}


def graph(root: str) -> Graph:
    path = ROOT / root
    return RustCrate(path).graph() if root.startswith("crates/") else PythonPackage(path).graph()


@pytest.mark.parametrize("root", sorted(LAYERS))
def test_no_file_imports_a_higher_layer(root: str) -> None:
    problems = upward_imports(graph(root), LAYERS[root], EXEMPT.get(root, []))
    assert not problems, f"{root}:\n" + "\n".join(problems)


@pytest.mark.parametrize("root", sorted(LAYERS))
def test_no_import_cycles(root: str) -> None:
    cycles = graph(root).cycles()
    assert not cycles, f"{root}: files importing each other in a circle:\n" + "\n".join(
        " <-> ".join(c) for c in cycles
    )


def test_the_checker_sees_a_cycle_and_an_upward_import(tmp_path: Path) -> None:
    (tmp_path / "low").mkdir()
    (tmp_path / "low" / "mod.rs").write_text("pub mod a;\npub mod b;\n")
    (tmp_path / "low" / "a.rs").write_text("use super::b::B;\npub struct A;\n")
    (tmp_path / "low" / "b.rs").write_text("use crate::low::a::A;\nuse crate::high::H;\npub struct B;\n")
    (tmp_path / "high.rs").write_text("pub struct H;\n")
    (tmp_path / "lib.rs").write_text("pub mod high;\npub mod low;\n")
    g = RustCrate(tmp_path).graph()
    assert g.cycles() == [["low/a.rs", "low/b.rs"]]
    assert upward_imports(g, [["low"], ["high"]], ["lib"]) == [
        "low/b.rs imports high.rs: 'high' is a layer above 'low'"
    ]


def test_the_checker_follows_reexports_and_skips_unit_tests(tmp_path: Path) -> None:
    (tmp_path / "cc").mkdir()
    (tmp_path / "cc" / "mod.rs").write_text("mod reg;\npub use reg::build;\npub trait Cc {}\n")
    (tmp_path / "cc" / "reg.rs").write_text("use super::Cc;\npub fn build() {}\n")
    (tmp_path / "sim.rs").write_text(
        "use crate::cc::build;\n#[cfg(test)]\nmod tests {\n    use crate::top::X;\n}\n"
    )
    (tmp_path / "top.rs").write_text("pub struct X;\n")
    g = RustCrate(tmp_path).graph()
    assert ("sim.rs", "cc/reg.rs") in g.edges
    assert ("sim.rs", "top.rs") not in g.edges
    assert g.cycles() == []


def test_python_cycles_through_a_package_are_seen(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "out").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "out" / "__init__.py").write_text("from .write import write\n")
    (pkg / "out" / "write.py").write_text("from ..plots import draw\n\ndef write(): ...\n")
    (pkg / "plots.py").write_text("def draw():\n    from .out import write\n")
    g = PythonPackage(pkg).graph()
    assert g.cycles() == [["out/write.py", "plots.py"]]
