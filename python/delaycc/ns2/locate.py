"""Finding ns-2 and what it can run: `--ns2 PATH`, else $DELAYCC_NS2, else `ns` on PATH; a probe script
asks the binary whether it has Agent/TCP/Fast (Debian's `ns2` package does not; docs/crosscheck.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import Ns2Error

ENV = "DELAYCC_NS2"
PROBE_TIMEOUT_S = 30.0
_PROBE = """set ns [new Simulator]
foreach c {Agent/TCP/Fast Agent/TCP/Vegas Agent/TCP/Newreno Agent/TCP/Reno Agent/TCP/Sack1} {
    if {[catch {new $c}]} { puts "missing $c" } else { puts "has $c" }
}
exit 0
"""


@dataclass(frozen=True)
class Ns2:
    path: str
    agents: frozenset[str]
    """The Agent/TCP classes this binary has (Fast, Vegas, Newreno, Reno, Sack1)."""

    @property
    def has_fast(self) -> bool:
        return "Fast" in self.agents


def find(explicit: str | None = None) -> str:
    """The ns-2 binary to use, or Ns2Error naming where it looked."""
    if explicit:
        where = f"--ns2 {explicit}"
        path = explicit
    elif os.environ.get(ENV):
        path = os.environ[ENV]
        where = f"{ENV}={path}"
    else:
        found = shutil.which("ns")
        where = "ns on PATH"
        if found is None:
            raise Ns2Error(
                "ns-2 not found: give --ns2 PATH, set DELAYCC_NS2, or install it "
                "(apt-get install ns2; docs/crosscheck.md)"
            )
        path = found
    p = Path(path)
    if not p.is_file():
        raise Ns2Error(f"ns-2 not found: {where}: no such file")
    if not os.access(p, os.X_OK):
        raise Ns2Error(f"ns-2 not usable: {where}: not executable")
    return str(p.resolve())


@lru_cache(maxsize=8)
def _probe(path: str) -> Ns2:
    with tempfile.TemporaryDirectory(prefix="delaycc-ns2-probe-") as tmp:
        script = Path(tmp) / "probe.tcl"
        script.write_text(_PROBE)
        try:
            proc = subprocess.run(
                [path, str(script)], capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, cwd=tmp
            )
        except subprocess.TimeoutExpired:
            raise Ns2Error(f"ns-2 at {path} did not answer a probe within {PROBE_TIMEOUT_S:g} s") from None
        except OSError as e:
            raise Ns2Error(f"ns-2 at {path} cannot be started: {e.strerror or e}") from None
    agents = {line.split("/")[-1] for line in proc.stdout.splitlines() if line.startswith("has Agent/TCP/")}
    if proc.returncode != 0 or not agents:
        last = (proc.stderr.strip().splitlines() or proc.stdout.strip().splitlines() or ["no output"])[-1]
        raise Ns2Error(f"ns-2 at {path} failed a probe (exit {proc.returncode}): {last}")
    return Ns2(path, frozenset(agents))


def locate(explicit: str | None = None) -> Ns2:
    """The binary and the agents it has; Ns2Error when there is none or it does not run."""
    return _probe(find(explicit))
