"""Packet traces (``trace = "pcap"``, ``delaycc run --pcap``; docs/scenario-format.md, Packet traces): the
files read by Debian's tshark and tcptrace agree with the run's own counters, the same run writes the same
bytes, and the command and the API refuse what they cannot do in one line.

tshark and tcptrace are installed by tools/pcap/deps.sh when they are missing and the tests run as root;
otherwise the tests that need them report themselves as not run, with the reason."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import delaycc

from conftest import ROOT, run_cli

SCENARIO = ROOT / "tests" / "scenarios" / "pcap.toml"
DEPS = ROOT / "tools" / "pcap" / "deps.sh"
PAYLOAD = 960  # packet_size 1000 - header_size 40
TOOLS = ("tshark", "tcptrace")


def _missing() -> list[str]:
    return [t for t in TOOLS if shutil.which(t) is None]


@pytest.fixture(scope="module")
def tools() -> None:
    """tshark and tcptrace, installed when missing and possible; otherwise the test is not run."""
    if _missing() and os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run([str(DEPS)], capture_output=True, text=True, timeout=1800, check=False)
    missing = _missing()
    if missing:
        pytest.skip(
            f"not run: {' and '.join(missing)} missing (as root: apt-get install -y tshark tcptrace, "
            "or tools/pcap/deps.sh)"
        )


def run_traced(out: Path, *extra: str) -> dict[str, Any]:
    p = run_cli("run", str(SCENARIO), "--out", str(out), "-q", "--no-figures", *extra)
    assert p.returncode == 0, p.stderr
    summary: dict[str, Any] = json.loads((out / "summary.json").read_text())
    return summary


def tshark(path: Path, display_filter: str, field: str = "frame.number", *prefs: str) -> list[str]:
    """One value of ``field`` per frame of ``path`` that passes ``display_filter``."""
    args = ["tshark", "-n", "-r", str(path), "-T", "fields", "-e", field]
    for pref in prefs:
        args += ["-o", pref]
    if display_filter:
        args += ["-Y", display_filter]
    p = subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)
    assert p.returncode == 0, p.stderr
    return [line for line in p.stdout.splitlines() if line.strip()]


def tcptrace(path: Path) -> str:
    p = subprocess.run(
        ["tcptrace", "-l", str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert p.returncode == 0 and not p.stderr.strip(), p.stderr
    return p.stdout


def by_id(rows: list[dict[str, Any]], **match: str) -> dict[str, Any]:
    return next(r for r in rows if all(r[k] == v for k, v in match.items()))


def test_tshark_and_tcptrace_agree_with_the_runs_counters(tmp_path: Path, tools: None) -> None:
    s = run_traced(tmp_path)
    pcap = tmp_path / "pcap"
    files = {(r["kind"], r["id"], r.get("direction")): r for r in s["pcap"]}
    assert sorted(p.name for p in pcap.iterdir()) == sorted(r["file"] for r in s["pcap"])
    for row in s["pcap"]:
        assert len(tshark(pcap / row["file"], "")) == row["packets"]
        assert row["complete"] is True
        # Every IPv4, TCP and UDP checksum tshark can verify is right (data packets are captured without
        # their payload, so only their IPv4 checksum can be verified).
        checks = ("ip.check_checksum:TRUE", "tcp.check_checksum:TRUE", "udp.check_checksum:TRUE")
        bad = "ip.checksum.status == 0 or tcp.checksum.status == 0 or udp.checksum.status == 0"
        assert tshark(pcap / row["file"], bad, "frame.number", *checks) == []
        assert len(tshark(pcap / row["file"], "tcp.checksum.status == 1", "frame.number", *checks)) > 0

    for flow in s["flows"]:
        path = pcap / files[("flow", flow["id"], None)]["file"]
        lengths = [int(n) for n in tshark(path, "tcp.len > 0", "tcp.len")]
        assert len(lengths) == flow["sent_pkts"]
        assert sum(lengths) == flow["sent_pkts"] * PAYLOAD
        retransmissions = len(tshark(path, "tcp.analysis.retransmission"))
        out_of_order = len(tshark(path, "tcp.analysis.out_of_order"))
        assert retransmissions > 0
        if flow["id"] == "sack":
            assert (retransmissions, out_of_order) == (flow["retransmits"], 0)
            assert len(tshark(path, "tcp.options.sack_le")) > 0
        else:
            # tshark calls a segment below the highest one sent "out of order" rather than a
            # retransmission when it comes within one handshake RTT of that segment (its guess for
            # captures in the middle of a path). At the sender nothing is reordered, so both are
            # retransmissions: NewReno's retransmissions on partial ACKs are such segments.
            assert retransmissions + out_of_order == flow["retransmits"]
            assert tshark(path, "tcp.options.sack_le") == []
        # tcptrace counts retransmissions itself, without that guess.
        report = tcptrace(path)
        assert "1 TCP connection traced" in report
        rexmt = next(line for line in report.splitlines() if "rexmt data pkts:" in line)
        assert int(rexmt.split()[3]) == flow["retransmits"]

    for link in (r for r in s["links"] if r["id"] == "bottleneck"):
        path = pcap / files[("link", "bottleneck", link["direction"])]["file"]
        frames = tshark(path, "")
        assert len(frames) == link["pkts_sent"]
        if link["direction"] == "a->b":
            # Data packets and CBR datagrams are 1000 bytes of IPv4; SYNs are headers only.
            lengths = [int(n) for n in tshark(path, "not tcp.flags.syn == 1", "ip.len")]
            assert lengths and set(lengths) == {1000}
            assert len(tshark(path, "udp")) == s["traffic"][0]["sent_pkts"]
        else:
            assert tshark(path, "tcp.len > 0") == []
        assert "TCP connection" in tcptrace(path)


def test_the_same_run_writes_the_same_bytes(tmp_path: Path) -> None:
    a = run_traced(tmp_path / "a")
    run_traced(tmp_path / "b")
    for row in a["pcap"]:
        assert (tmp_path / "a" / "pcap" / row["file"]).read_bytes() == (
            tmp_path / "b" / "pcap" / row["file"]
        ).read_bytes()


def test_pcap_traces_every_flow_and_replaces_an_earlier_runs_traces(tmp_path: Path) -> None:
    stale = tmp_path / "pcap" / "old-flow.pcap"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"")
    untraced = tmp_path / "untraced.toml"
    untraced.write_text(SCENARIO.read_text().replace('trace = "pcap"', 'trace = "none"'))
    p = run_cli("run", str(untraced), "--out", str(tmp_path), "-q", "--no-figures", "--pcap")
    assert p.returncode == 0, p.stderr
    s = json.loads((tmp_path / "summary.json").read_text())
    assert [(r["kind"], r["file"]) for r in s["pcap"]] == [("flow", "sack.pcap"), ("flow", "plain.pcap")]
    assert sorted(x.name for x in (tmp_path / "pcap").iterdir()) == ["plain.pcap", "sack.pcap"]


def test_a_run_stopped_by_a_budget_keeps_its_traces(tmp_path: Path) -> None:
    p = run_cli("run", str(SCENARIO), "--out", str(tmp_path), "-q", "--no-figures", "--max-events", "3000")
    assert p.returncode == 3, p.stderr
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["partial"] is True
    assert sum(row["packets"] for row in s["pcap"]) > 0
    for row in s["pcap"]:
        assert row["complete"] is False
        assert (tmp_path / "pcap" / row["file"]).stat().st_size >= 24
    assert not [x for x in (tmp_path / "pcap").iterdir() if x.name.startswith(".")], "no temporary files"


def test_pcap_without_out_is_refused_in_one_line() -> None:
    p = run_cli("run", str(SCENARIO), "-q", "--pcap")
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "--out" in p.stderr


def test_the_api_writes_traces_only_with_a_directory(tmp_path: Path) -> None:
    assert delaycc.run(SCENARIO).summary["pcap"] == []
    r = delaycc.run(SCENARIO, pcap_dir=tmp_path / "traces")
    assert [x["file"] for x in r.summary["pcap"]] == [
        "sack.pcap",
        "plain.pcap",
        "bottleneck-r-d.pcap",
        "bottleneck-d-r.pcap",
    ]
    assert all((tmp_path / "traces" / x["file"]).is_file() for x in r.summary["pcap"])
    with pytest.raises(ValueError, match="pcap_dir"):
        delaycc.run(SCENARIO, pcap_flows=True)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(delaycc.SimulationError) as e:
        delaycc.run(SCENARIO, pcap_dir=blocker / "sub")
    assert str(blocker / "sub") in str(e.value) and "\n" not in str(e.value)
