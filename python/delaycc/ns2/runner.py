"""Running one translated scenario in ns-2: a time limit, and a clear line when ns-2 fails, hangs or writes
nothing usable. The raw files (the script, ns-2's CSVs, its stdout and stderr) stay in ``raw_dir``."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import Ns2Error
from .locate import Ns2
from .model import Scenario
from .translate import translate

DEFAULT_TIMEOUT_S = 1800.0
RAW_FILES = ("flows.csv", "queues.csv", "end.csv")


@dataclass(frozen=True)
class RawRun:
    dir: Path
    wall_s: float
    translate_s: float


def run(ns2: Ns2, s: Scenario, raw_dir: Path, timeout_s: float = DEFAULT_TIMEOUT_S) -> RawRun:
    if any(f.agent == "Fast" for f in s.flows) and not ns2.has_fast:
        raise Ns2Error(
            f"{s.source}: the ns-2 at {ns2.path} has no Agent/TCP/Fast (Debian's ns2 package lacks the FAST "
            "module); build one with tools/ns2/build-fast.sh and pass it with --ns2 or DELAYCC_NS2"
        )
    missing = sorted({f.agent for f in s.flows} - ns2.agents)
    if missing:
        raise Ns2Error(f"{s.source}: the ns-2 at {ns2.path} has no Agent/TCP/{missing[0]}")
    raw_dir.mkdir(parents=True, exist_ok=True)
    for name in (*RAW_FILES, "done"):
        (raw_dir / name).unlink(missing_ok=True)
    t0 = time.perf_counter()
    script = translate(s, str(raw_dir.resolve()))
    (raw_dir / "scenario.tcl").write_text(script)
    translate_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    with open(raw_dir / "stdout.txt", "w") as out, open(raw_dir / "stderr.txt", "w") as err:
        try:
            proc = subprocess.run(
                [ns2.path, "scenario.tcl"],
                cwd=raw_dir,
                stdout=out,
                stderr=err,
                timeout=timeout_s,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise Ns2Error(
                f"{s.source}: ns-2 did not finish within {timeout_s:g} s (raise it with --ns2-timeout)"
            ) from None
        except OSError as e:
            raise Ns2Error(f"{s.source}: ns-2 at {ns2.path} cannot be started: {e.strerror or e}") from None
    wall = time.perf_counter() - t1
    if proc.returncode != 0:
        raise Ns2Error(
            f"{s.source}: ns-2 failed (exit {proc.returncode}): {_last_line(raw_dir / 'stderr.txt')}"
        )
    if not (raw_dir / "done").exists():
        raise Ns2Error(
            f"{s.source}: ns-2 exited before the end of the run: {_last_line(raw_dir / 'stderr.txt')}"
        )
    for name in RAW_FILES:
        p = raw_dir / name
        if not p.exists() or len(p.read_text().splitlines()) < 2:
            raise Ns2Error(f"{s.source}: ns-2 wrote an empty trace ({p.name} in {raw_dir})")
    return RawRun(raw_dir, wall, translate_s)


def _last_line(path: Path) -> str:
    lines = [x.strip() for x in path.read_text(errors="replace").splitlines() if x.strip()]
    return lines[-1][:300] if lines else "no message"
