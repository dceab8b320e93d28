"""delaycc.ns3: the scenarios it builds are valid delaycc scenarios, the tool says when ns3 is missing, and,
when the optional ns3 wheel is installed, one short case runs in both simulators."""

from __future__ import annotations

import dataclasses
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import delaycc
from delaycc import ns3

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("case", ns3.CASES, ids=[c.name for c in ns3.CASES])
def test_scenarios_validate(case: ns3.Dumbbell) -> None:
    delaycc.validate(ns3.scenario(case))


def test_tool_says_when_ns3_is_missing() -> None:
    if ns3.available():
        pytest.skip("ns3 is installed here")
    p = subprocess.run(
        [sys.executable, str(ROOT / "tools/ns3/compare.py")], capture_output=True, text=True, check=False
    )
    assert p.returncode == 2
    assert "ns3 is not installed" in p.stderr


@pytest.mark.skipif(importlib.util.find_spec("ns") is None, reason="the optional ns3 wheel is not installed")
def test_short_case_runs_in_both() -> None:
    case = dataclasses.replace(ns3.CASES[3], duration_s=5.0, starts_s=(0.0, 1.0))
    ours = ns3.run_delaycc(case)
    theirs = ns3.run_ns3([case])[0]
    assert len(theirs.flows) == len(ours.flows) == 2
    assert all(f.goodput_bps > 0 for f in theirs.flows)
    assert "tcp-lp-newreno" in ns3.table([case], [ours], [theirs])
