"""Running one translated scenario in ns-2: a time limit, and a clear line when ns-2 fails, hangs or writes
nothing usable. The raw files (the script, ns-2's CSVs, its stdout and stderr) stay in ``raw_dir``."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ..files import atomic_write_text
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


def check_agents(ns2: Ns2, s: Scenario) -> None:
    """Ns2Error when the binary lacks an agent the scenario's flows need (FAST: where to get it)."""
    if any(f.agent == "Fast" for f in s.flows) and not ns2.has_fast:
        raise Ns2Error(
            f"{s.source}: the ns-2 at {ns2.path} has no Agent/TCP/Fast (Debian's ns2 package lacks the FAST "
            "module); build one with tools/ns2/build-fast.sh and pass it with --ns2 or DELAYCC_NS2"
        )
    missing = sorted({f.agent for f in s.flows} - ns2.agents)
    if missing:
        raise Ns2Error(f"{s.source}: the ns-2 at {ns2.path} has no Agent/TCP/{missing[0]}")


def run(ns2: Ns2, s: Scenario, raw_dir: Path, timeout_s: float = DEFAULT_TIMEOUT_S) -> RawRun:
    check_agents(ns2, s)
    raw_dir.mkdir(parents=True, exist_ok=True)
    drop_indices = calibrate(ns2, s, raw_dir, timeout_s)
    t0 = time.perf_counter()
    script = translate(s, drop_indices)
    translate_s = time.perf_counter() - t0
    wall = _run_script(ns2, s, raw_dir, script, timeout_s)
    for name in RAW_FILES:
        p = raw_dir / name
        if not p.exists() or len(p.read_text().splitlines()) < 2:
            raise Ns2Error(f"{s.source}: ns-2 wrote an empty trace ({p.name} in {raw_dir})")
    return RawRun(raw_dir, wall, translate_s)


def calibrate(ns2: Ns2, s: Scenario, raw_dir: Path, timeout_s: float) -> dict[int, list[int]]:
    """The ErrorModel/List index of each deterministic drop: the position, among the packets entering the
    direction, of the first transmission of that flow's sequence number. Retransmissions before it shift
    it, so each drop is found by a run with the earlier ones in place (one extra ns-2 run per drop)."""
    targets = sorted(
        ((seq, i, fid) for i, d in enumerate(s.directions) for fid, seq in d.drop_seqs), key=lambda x: x[0]
    )
    known: dict[int, list[int]] = {i: [] for _, i, _ in targets}
    index = {f.id: f.index for f in s.flows}
    syn = {f.id: int(f.syn) for f in s.flows}
    for seq, i, fid in targets:
        work = raw_dir / "calibration"
        work.mkdir(parents=True, exist_ok=True)
        _run_script(ns2, s, work, translate(s, {k: list(v) for k, v in known.items()}, (i,)), timeout_s)
        found = _first_arrival(work / f"trace-{i}.tr", index[fid], seq + syn[fid])
        if found is None:
            raise Ns2Error(
                f"{s.source}: drop_packets: flow {fid} never sends sequence number {seq} across "
                f"{s.directions[i].link_id} {s.directions[i].label} in ns-2"
            )
        known[i].append(found)
    return known


def _first_arrival(trace: Path, flow: int, seqno: int) -> int | None:
    """Position among the arrivals ("+" lines of an ns-2 queue trace) of the first with that flow id
    (field 8) and sequence number (field 11)."""
    n = 0
    with open(trace) as f:
        for line in f:
            if not line.startswith("+"):
                continue
            parts = line.split()
            if int(parts[7]) == flow and int(parts[10]) == seqno:
                return n
            n += 1
    return None


def _run_script(ns2: Ns2, s: Scenario, raw_dir: Path, script: str, timeout_s: float) -> float:
    for name in (*RAW_FILES, "done"):
        (raw_dir / name).unlink(missing_ok=True)
    atomic_write_text(raw_dir / "scenario.tcl", script)
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
            f"{s.source}: ns-2 failed (exit {proc.returncode}): {_message(raw_dir / 'stderr.txt')}"
        )
    if not (raw_dir / "done").exists():
        raise Ns2Error(
            f"{s.source}: ns-2 exited before the end of the run: {_message(raw_dir / 'stderr.txt')}"
        )
    return wall


def _message(path: Path) -> str:
    """What ns-2 said: the first line of its stderr (Tcl's error message; the lines after it are the
    stack of "while executing" and "(file ...)" context)."""
    lines = [x.strip() for x in path.read_text(errors="replace").splitlines() if x.strip()]
    return lines[0][:300] if lines else "no message"
