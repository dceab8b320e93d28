"""The wheel installs into a fresh virtual environment and works there from a directory outside the
checkout: `import delaycc`, `delaycc list scenarios`, `delaycc validate` and `delaycc run` on a paper
scenario that came inside the wheel, and `delaycc reproduce` of a quick experiment; the extras [dask] and
[notebook] install too.

The wheel is built as `make wheel` builds it (`maturin build --release --locked`), into a temporary
directory; after `make build` the extension is compiled already, so this takes seconds. Dependencies come
from the package index with requirements.lock as constraints, so the environment gets the versions the
project pins (pip's cache, where it keeps one, makes later runs faster), and without compiling their
bytecode (`--no-compile`: a third of the time; Python compiles what it imports). The whole module takes
about 40 s here, most of it downloading and unpacking numpy, pandas, pyarrow and matplotlib.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import ROOT

# A quick experiment (ten runs of a 2 s scenario, a few seconds in all) and its scenario.
EXPERIMENT = "rttbased-parkinglot"
PAPER_SCENARIO = "papers/rttbased-parkinglot.toml"
TRACE_SCENARIO = "beyond/lte.toml"
"""A scenario whose link follows a trace file in scenarios/traces/ (the beyond-lte experiment)."""


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    cwd: Path
    """A working directory outside the checkout, where every command runs."""

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)


def _env() -> dict[str, str]:
    """The environment without the development virtual environment's traces."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    dev_bin = str(Path(sys.prefix) / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != dev_bin)
    env["PYTHONWARNINGS"] = "ignore"
    return env


def sh(*args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    p = subprocess.run(
        list(args), cwd=cwd, env=_env(), capture_output=True, text=True, timeout=timeout, check=False
    )
    assert p.returncode == 0, f"{' '.join(args)}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p


def pip_install(inst: Installed, requirement: str) -> None:
    sh(
        inst.bin("python"),
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-compile",
        "--constraint",
        str(ROOT / "requirements.lock"),
        requirement,
        cwd=inst.cwd,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("wheel")
    dist, cwd = base / "dist", base / "elsewhere"
    cwd.mkdir()
    assert not cwd.resolve().is_relative_to(ROOT.resolve())
    maturin = str(Path(sys.executable).parent / "maturin")  # the development environment's, as make's
    sh(maturin, "build", "--release", "--locked", "--quiet", "--out", str(dist), cwd=ROOT)
    (wheel,) = dist.glob("delaycc-*.whl")
    sh(sys.executable, "-m", "venv", str(base / "venv"), cwd=cwd)
    inst = Installed(wheel, base / "venv", cwd)
    pip_install(inst, str(wheel))
    yield inst


def test_the_wheel_holds_every_scenario_of_the_repository(installed: Installed) -> None:
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "scenarios"], capture_output=True, text=True, check=True
    ).stdout.split()
    with zipfile.ZipFile(installed.wheel) as z:
        packaged = sorted(
            n.removeprefix("delaycc/") for n in z.namelist() if n.startswith("delaycc/scenarios/")
        )
    assert packaged == sorted(f for f in tracked if f.endswith(".toml") or f.startswith("scenarios/traces/"))


def test_a_scenario_that_reads_a_trace_validates_from_the_wheel(installed: Installed) -> None:
    listed = sh(installed.bin("delaycc"), "list", "scenarios", cwd=installed.cwd).stdout.split()
    (scenario,) = [p for p in listed if p.endswith(TRACE_SCENARIO)]
    sh(installed.bin("delaycc"), "validate", scenario, cwd=installed.cwd)


def test_import_finds_the_installed_package_and_its_scenarios(installed: Installed) -> None:
    out = sh(
        installed.bin("python"),
        "-c",
        "import delaycc; print(delaycc.__file__); print(delaycc.scenarios_dir())",
        cwd=installed.cwd,
    ).stdout.split()
    site = installed.venv.resolve()
    assert all(Path(p).resolve().is_relative_to(site) for p in out), out


def test_run_and_validate_a_paper_scenario_that_came_with_the_wheel(installed: Installed) -> None:
    listed = sh(installed.bin("delaycc"), "list", "scenarios", cwd=installed.cwd).stdout.split()
    (scenario,) = [p for p in listed if p.endswith(PAPER_SCENARIO)]
    sh(installed.bin("delaycc"), "validate", scenario, cwd=installed.cwd)
    sh(installed.bin("delaycc"), "run", scenario, "--out", "run", "-q", "--no-figures", cwd=installed.cwd)
    assert (installed.cwd / "run" / "summary.json").is_file()


def test_reproduce_an_experiment_from_outside_the_checkout(installed: Installed) -> None:
    sh(installed.bin("delaycc"), "reproduce", EXPERIMENT, "--out", "rep", "-q", cwd=installed.cwd)
    report = (installed.cwd / "rep" / "report.md").read_text()
    assert EXPERIMENT in report and "reproduced" in report


def test_the_extras_install_from_the_lock(installed: Installed) -> None:
    """Last: it adds packages to the environment the tests above ran without."""
    pip_install(installed, f"{installed.wheel}[dask,notebook]")
    sh(
        installed.bin("python"),
        "-c",
        "import dask.distributed, ipykernel, nbclient, nbformat",
        cwd=installed.cwd,
    )
