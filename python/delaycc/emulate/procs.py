"""The harness's child processes (delay line, queue monitor, flow ends): each writes its output to a file
of the run's work directory (a pipe could fill and stall it), runs in its own session so a terminal's
Ctrl-C reaches only the harness, and is stopped by its own pid."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

from .cleanup import Cleanup
from .errors import EmulationError


def kill_children() -> None:
    """Last resort: stops any child process still running (one started just as an interrupt came, before
    its Proc could register it). Only direct children of this process, by pid."""
    me = os.getpid()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(stat.parent.name), signal.SIGKILL)


class Proc:
    def __init__(self, name: str, args: list[str], workdir: Path, cleanup: Cleanup) -> None:
        self.name = name
        self.out = workdir / f"{name}.out"
        self.err = workdir / f"{name}.err"
        with self.out.open("w") as out, self.err.open("w") as err:
            self.popen = subprocess.Popen(
                args, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True
            )
        cleanup.push(f"process {name} ({self.popen.pid})", self.stop)

    def lines(self) -> list[str]:
        return self.out.read_text().splitlines()

    def error_text(self) -> str:
        return self.err.read_text().strip()

    def wait_ready(self, timeout_s: float = 10.0) -> None:
        """Waits for the "ready" line the tools print once they are listening or bound."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if "ready" in self.lines():
                return
            if self.popen.poll() is not None:
                raise EmulationError(f"{self.name} exited ({self.popen.returncode}): {self.error_text()}")
            time.sleep(0.01)
        raise EmulationError(f"{self.name} was not ready within {timeout_s} s")

    def wait(self, timeout_s: float) -> int | None:
        try:
            return self.popen.wait(timeout=max(timeout_s, 0.0))
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            if self.wait(2.0) is None:
                with contextlib.suppress(ProcessLookupError):
                    self.popen.kill()
                self.popen.wait()
