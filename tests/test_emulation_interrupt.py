"""Interrupting `delaycc emulate` midway (Ctrl-C or SIGTERM) removes everything it created."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kernel_support import DUMBBELL, our_namespaces, our_processes, registered_ours, requires_root, variant

pytestmark = requires_root


def _wait_for(condition: object, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_interrupted_emulation_tears_everything_down(sig: signal.Signals, tmp_path: Path) -> None:
    before = set(registered_ours())
    path = variant(DUMBBELL, tmp_path, "vfast", 'alpha = 20\ncadence = "round"', "30s")
    p = subprocess.Popen(
        [sys.executable, "-m", "delaycc", "emulate", str(path), "--out", str(tmp_path / "out"), "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    prefix = f"dcck{p.pid}n"
    try:
        # Midway: the namespaces exist, the algorithm is registered and the flow is sending.
        assert _wait_for(lambda: len([n for n in our_namespaces() if n.startswith(prefix)]) == 4, 30)
        assert _wait_for(lambda: "dcc_vfast" in registered_ours() and len(our_processes()) >= 4, 30)
        time.sleep(2.0)
        p.send_signal(sig)
        _, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    assert [n for n in our_namespaces() if n.startswith(prefix)] == []
    assert our_processes() == []
    assert set(registered_ours()) == before
    assert not (tmp_path / "out" / "summary.json").exists()
    assert os.path.exists("/proc/self")  # the test process itself is untouched
