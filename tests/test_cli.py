"""The delaycc command: run, validate, list; exit codes; one clear line per problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from delaycc.cli import main

from conftest import INVALID, SCENARIOS, run_cli

# Files whose expected key path cannot be written inside them.
SPECIAL = {"empty.toml": "name: is required", "binary-garbage.toml": "is not UTF-8 text"}


def corpus() -> list[Path]:
    return sorted(INVALID.glob("*.toml"))


def expected(path: Path) -> str:
    if path.name in SPECIAL:
        return SPECIAL[path.name]
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect: "), path.name
    return first.removeprefix("# expect: ")


def test_the_corpus_covers_many_kinds_of_mistake() -> None:
    assert len(corpus()) >= 30


@pytest.mark.parametrize("path", corpus(), ids=lambda p: p.name)
def test_validate_rejects_bad_input_with_one_line_per_problem(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert lines, "at least one message"
    for line in lines:
        assert line.startswith(str(path)), f"message must name the file: {line}"
        assert "Traceback" not in line and "panicked" not in line
    assert any(expected(path) in line for line in lines), f"no line names {expected(path)!r}: {lines}"


@pytest.mark.parametrize("path", corpus(), ids=lambda p: p.name)
def test_run_rejects_bad_input_with_exit_2(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(path), "--quiet"]) == 2
    assert expected(path) in capsys.readouterr().err


def test_real_process_exit_codes_and_no_traceback(tmp_path: Path) -> None:
    bad = run_cli("validate", str(INVALID / "bad-rate-unit.toml"))
    assert bad.returncode == 2
    assert "links[0].bandwidth: '100Mbs' is not a rate" in bad.stderr
    assert "Traceback" not in bad.stderr
    missing = run_cli("run", str(tmp_path / "nope.toml"))
    assert missing.returncode == 2
    assert missing.stderr.strip() == f"{tmp_path / 'nope.toml'}: no such file"
    ok = run_cli("validate", str(SCENARIOS / "dumbbell-newreno.toml"))
    assert ok.returncode == 0 and ok.stdout.strip().endswith(": ok")


def test_run_writes_every_output(tmp_path: Path) -> None:
    out = tmp_path / "res"
    p = run_cli("run", str(SCENARIOS / "cbr-overload.toml"), "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert "tcp" in p.stdout and "bottleneck:a->b" in p.stdout
    assert p.stderr == "", "no progress bar when stderr is not a terminal"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["scenario"] == "cbr-overload"
    header = (out / "timeseries.csv").read_text().splitlines()[0]
    assert header == "time_s,kind,id,metric,value"
    assert (out / "timeseries.parquet").stat().st_size > 0
    for fig in ("cwnd", "rate", "rtt", "queue"):
        png = out / "figures" / f"{fig}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(out.rglob("*.tmp-*")), "no temporary files are left behind"


def test_list_algorithms_shows_parameters_with_defaults_and_sources(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["list", "algorithms"]) == 0
    out = capsys.readouterr().out
    assert "newreno: TCP NewReno (RFC 6582)" in out
    assert "initial_ssthresh = 1000000000.0" in out
    assert "default from:" in out
    assert main(["list", "algorithms", "--json"]) == 0
    algs = json.loads(capsys.readouterr().out)
    assert {a["name"] for a in algs} >= {"reno", "newreno"}


def test_usage_errors_exit_2() -> None:
    assert run_cli("frobnicate").returncode == 2
    assert run_cli("run").returncode == 2
