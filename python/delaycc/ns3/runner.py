"""Whether the ns3 wheel is here, and running the dumbbells in it through worker.py in a child process."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from dataclasses import asdict

from .model import NS3_HEADER_BYTES, NS3_TYPE, Dumbbell, FlowFigures, RunFigures, Transport

DEFAULT_TIMEOUT_S = 1800.0
INSTALL_HINT = "pip install ns3==3.44.post0 (about 70 MB, 520 MB installed with cppyy; docs/crosscheck.md)"


class Ns3Unavailable(RuntimeError):
    """The ns3 wheel (`from ns import ns`) is not installed in this Python."""


class Ns3Error(RuntimeError):
    """ns-3 failed: its exit status and the last line it wrote."""


def available() -> bool:
    return importlib.util.find_spec("ns") is not None and importlib.util.find_spec("cppyy") is not None


def run(
    cases: list[Dumbbell], transport: Transport | None = None, timeout_s: float = DEFAULT_TIMEOUT_S
) -> list[RunFigures]:
    """Runs every case in one ns-3 child process; Ns3Unavailable without the wheel, Ns3Error if it fails."""
    if not available():
        raise Ns3Unavailable(f"ns-3 is not installed in {sys.executable}: {INSTALL_HINT}")
    t = transport or Transport()
    payload = [
        {
            **asdict(c),
            "ns3_types": [NS3_TYPE[a] for a in c.algorithms],
            "segment_bytes": c.packet_size - NS3_HEADER_BYTES,
            "transport": asdict(t),
        }
        for c in cases
    ]
    with tempfile.TemporaryDirectory(prefix="delaycc-ns3-") as cwd:
        proc = subprocess.run(
            [sys.executable, "-m", "delaycc.ns3.worker"],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            cwd=cwd,
            timeout=timeout_s,
            check=False,
        )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or len(lines) != len(cases):
        err = [ln for ln in proc.stderr.splitlines() if ln.strip() and "materialize symbols" not in ln]
        raise Ns3Error(f"ns-3 exited with status {proc.returncode}: {err[-1] if err else 'no output'}")
    out = []
    for case, line in zip(cases, lines, strict=True):
        got = json.loads(line)
        fig = RunFigures(
            "ns-3",
            mean_queue_pkts=got["link"]["mean_queue_pkts"],
            max_queue_pkts=got["link"]["max_queue_pkts"],
            drops=int(got["link"]["drops"]),
            bandwidth_bps=case.bandwidth_bps,
            packet_size=case.packet_size,
        )
        for fid, alg, f in zip(case.ids, case.algorithms, got["flows"], strict=True):
            fig.flows.append(
                FlowFigures(
                    fid,
                    alg,
                    f["goodput_bps"],
                    f["mean_rtt_s"] if f["mean_rtt_s"] >= 0 else None,
                    f["mean_cwnd_pkts"] if f["mean_cwnd_pkts"] >= 0 else None,
                    f["timeouts"],
                )
            )
        out.append(fig)
    return out
