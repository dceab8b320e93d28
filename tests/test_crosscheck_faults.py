"""`delaycc crosscheck` when ns-2 is missing or misbehaves: one line naming what is wrong, exit 2, and
delaycc's own outputs left intact. A fake `ns` (a shell script that answers the probe, then crashes, hangs
or writes nothing) stands in for ns-2, so these run on every machine."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

SCENARIO = ROOT / "scenarios" / "crosscheck" / "newreno-droptail.toml"
PROBE_ANSWER = 'echo "has Agent/TCP/Newreno"; echo "has Agent/TCP/Reno"; echo "missing Agent/TCP/Fast"'


def fake_ns(tmp_path: Path, behaviour: str) -> Path:
    path = tmp_path / "ns"
    path.write_text(f'#!/bin/sh\ncase "$1" in *probe.tcl) {PROBE_ANSWER}; exit 0;; esac\n{behaviour}\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def crosscheck(
    tmp_path: Path, ns: Path | str, *extra: str, scenario: Path = SCENARIO
) -> tuple[int, str, Path]:
    out = tmp_path / "out"
    p = run_cli("crosscheck", str(scenario), "--out", str(out), "--ns2", str(ns), "--no-figures", *extra)
    return p.returncode, p.stderr.strip(), out


def assert_one_line(stderr: str, *parts: str) -> None:
    assert len(stderr.splitlines()) == 1, stderr
    for part in parts:
        assert part in stderr, stderr


def assert_delaycc_outputs_intact(out: Path) -> None:
    summary = json.loads((out / "delaycc" / "summary.json").read_text())
    assert summary["scenario"] == "newreno-droptail" and summary["flows"]
    assert not (out / "comparison.json").exists()


def test_no_ns2(tmp_path: Path) -> None:
    code, err, out = crosscheck(tmp_path, tmp_path / "missing-ns")
    assert code == 2
    assert_one_line(err, "ns-2 not found", "missing-ns")
    assert not out.exists()


def test_no_ns2_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DELAYCC_NS2", raising=False)
    monkeypatch.setenv("PATH", str(Path(os.__file__).parent.parent.parent / "bin"))  # python, no ns
    p = run_cli("crosscheck", str(SCENARIO), "--no-figures")
    assert p.returncode == 2
    assert_one_line(p.stderr.strip(), "ns-2 not found", "DELAYCC_NS2", "apt-get install ns2")


def test_ns2_without_the_fast_module(tmp_path: Path) -> None:
    ns = fake_ns(tmp_path, "exit 0")
    code, err, out = crosscheck(tmp_path, ns, scenario=ROOT / "scenarios" / "crosscheck" / "fast-single.toml")
    assert code == 2
    assert_one_line(err, "no Agent/TCP/Fast", "build-fast.sh")
    assert not (out / "delaycc").exists()  # refused before anything ran


def test_ns2_crashing(tmp_path: Path) -> None:
    ns = fake_ns(tmp_path, 'echo "ns: segmentation violation" >&2; exit 139')
    code, err, out = crosscheck(tmp_path, ns)
    assert code == 2
    assert_one_line(err, "ns-2 failed (exit 139)", "segmentation violation")
    assert_delaycc_outputs_intact(out)


def test_ns2_hanging(tmp_path: Path) -> None:
    ns = fake_ns(tmp_path, "exec sleep 60")
    code, err, out = crosscheck(tmp_path, ns, "--ns2-timeout", "1")
    assert code == 2
    assert_one_line(err, "did not finish within 1 s", "--ns2-timeout")
    assert_delaycc_outputs_intact(out)


def test_ns2_stopping_early(tmp_path: Path) -> None:
    ns = fake_ns(tmp_path, "exit 0")
    code, err, out = crosscheck(tmp_path, ns)
    assert code == 2
    assert_one_line(err, "ns-2 exited before the end of the run")
    assert_delaycc_outputs_intact(out)


def test_ns2_writing_an_empty_trace(tmp_path: Path) -> None:
    ns = fake_ns(
        tmp_path,
        "echo time,flow > flows.csv; echo time,queue > queues.csv; echo kind,id,name,value > end.csv; "
        "echo 1 > done; exit 0",
    )
    code, err, out = crosscheck(tmp_path, ns)
    assert code == 2
    assert_one_line(err, "ns-2 wrote an empty trace", "flows.csv")
    assert_delaycc_outputs_intact(out)


def test_untranslatable_scenario(tmp_path: Path) -> None:
    ns = fake_ns(tmp_path, "exit 0")
    code, err, out = crosscheck(tmp_path, ns, scenario=ROOT / "scenarios" / "papers" / "vfast-IV.toml")
    assert code == 2
    assert_one_line(err, "vfast-IV.toml: flows[0].algorithm: 'vfast' has no ns-2 agent")
    assert not out.exists()


def test_usage_errors(tmp_path: Path) -> None:
    p = run_cli("crosscheck")
    assert p.returncode == 2 and "give a scenario FILE or --suite" in p.stderr
    p = run_cli("crosscheck", str(SCENARIO), "--ns2-agent", "f1")
    assert p.returncode == 2 and "write FLOW=AGENT" in p.stderr
    p = run_cli("crosscheck", "--suite", "--manifest", str(tmp_path / "none.toml"))
    assert p.returncode == 2 and "none.toml: no such file" in p.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('[[cases]]\nfile = "x.toml"\nwhy = "w"\nexpect = "agree"\ntolerance = { speed = 0.1 }\n')
    p = run_cli("crosscheck", "--suite", "--manifest", str(bad))
    assert p.returncode == 2
    assert_one_line(p.stderr.strip(), "bad.toml: cases[0].tolerance.speed: not one of")
