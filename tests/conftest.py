from __future__ import annotations

import os
import select
import subprocess
import sys
import time
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


def run_cli(
    *args: str, cwd: Path = ROOT, env_changes: dict[str, str | None] | None = None
) -> subprocess.CompletedProcess[str]:
    """Runs the installed ``delaycc`` command as a user would, in a separate process; ``env_changes``
    sets variables (or, with None, removes them) for that process only."""
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    for name, value in (env_changes or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run(
        [sys.executable, "-m", "delaycc", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def read_pty(fd: int, timeout_s: float, until: bytes | None = None) -> bytes:
    """What a pseudo-terminal shows until ``until`` appears (if given), its other end closes, or the
    timeout passes."""
    seen = b""
    deadline = time.monotonic() + timeout_s
    while (until is None or until not in seen) and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen
