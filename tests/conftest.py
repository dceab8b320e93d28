from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
INVALID = ROOT / "tests" / "scenarios" / "invalid"

ARTIFACTS: list[tuple[str, Path]] = []
"""Files a test keeps for a person to look at (the browser tests' screenshots), listed after the run."""


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if ARTIFACTS:
        terminalreporter.section("kept for a look")
        for what, path in ARTIFACTS:
            terminalreporter.write_line(f"{what}: {path}")


@pytest.fixture
def root() -> Path:
    return ROOT


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Runs the installed ``delaycc`` command as a user would, in a separate process."""
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    return subprocess.run(
        [sys.executable, "-m", "delaycc", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
