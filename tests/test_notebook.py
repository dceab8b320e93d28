"""examples/quickstart.ipynb runs from top to bottom without an error, in a fresh kernel and a temporary
working directory (it finds its scenarios through the package, wherever it runs), in well under a minute;
and it is committed without outputs, so that its diffs show only what changed in the code."""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from conftest import ROOT

NOTEBOOK = ROOT / "examples" / "quickstart.ipynb"
BUDGET_S = 60.0


def test_the_notebook_is_committed_without_outputs() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"cell {i} has outputs: strip them"


def test_the_notebook_runs_without_an_error(tmp_path: Path) -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    t0 = time.perf_counter()
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on any error
    elapsed = time.perf_counter() - t0
    assert elapsed < BUDGET_S, f"the notebook took {elapsed:.0f} s (budget {BUDGET_S:.0f} s)"
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 2, "the run's and the sweep's figures"
    assert (tmp_path / "results" / "quickstart" / "sweep" / "results.parquet").is_file()
