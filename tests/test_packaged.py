"""The scenarios come with the package (python/delaycc/packaged.py): from any working directory the
reproduction (and `claims_for`, one experiment's claims), the demo, the crosscheck suite and `delaycc list
scenarios` find the checkout's files. The installed wheel is tested in test_wheel.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from delaycc import scenarios_dir
from delaycc.cli import main
from delaycc.crosscheck.suite import load_manifest
from delaycc.packaged import data_root
from delaycc.reproduce import EXPERIMENTS, claims_for
from delaycc.reproduce.model import VERDICTS
from delaycc.reproduce.runs import keys_for, scenario_for

from conftest import ROOT, SCENARIOS


def test_in_a_checkout_the_scenarios_are_the_checkouts_own() -> None:
    assert scenarios_dir() == SCENARIOS.resolve()
    assert data_root() == ROOT.resolve()


def test_every_experiment_finds_its_scenario_from_another_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for exp in EXPERIMENTS.values():
        assert (data_root() / exp.scenario).is_file(), exp.scenario
    exp = EXPERIMENTS["rttbased-parkinglot"]
    doc = scenario_for(exp, keys_for(exp)[0])
    assert doc["name"].startswith("rttbased-parkinglot-")


def test_the_crosscheck_suite_is_found_from_another_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cases = load_manifest()
    assert cases and all(c.file.is_file() for c in cases)


def test_list_scenarios_prints_every_file_by_its_full_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["list", "scenarios"]) == 0
    listed = capsys.readouterr().out.split()
    assert listed == sorted(str(p.resolve()) for p in SCENARIOS.rglob("*.toml"))
    assert any(p.endswith("papers/vfast-I.toml") for p in listed)


def test_the_claims_of_one_experiment_from_another_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    claims = claims_for("rttbased-parkinglot", workers=1)
    assert claims and all(c.experiment == "rttbased-parkinglot" for c in claims)
    assert {c.verdict for c in claims} <= set(VERDICTS)
    assert not list(tmp_path.iterdir()), "nothing is written"
    with pytest.raises(ValueError, match="unknown experiment 'P001'"):
        claims_for("P001")
