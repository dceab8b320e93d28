"""The delaycc command: run, validate, list; exit codes; one clear line per problem."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from delaycc.cli import main

from conftest import INVALID, SCENARIOS, run_cli

# A file that cannot say what it expects: the empty file.
SPECIAL = {"empty.toml": "name"}
# Files whose problem is a missing key: no line to point at.
NO_LINE = {"empty.toml", "missing-duration.toml", "missing-name.toml", "no-flows.toml"}


def corpus() -> list[Path]:
    return sorted(INVALID.glob("*.toml"))


def expected(path: Path) -> str:
    """The key path on the first line, ``# expect: <key path>`` (read as bytes: not every file is UTF-8)."""
    if path.name in SPECIAL:
        return SPECIAL[path.name]
    first = path.read_bytes().split(b"\n", 1)[0].decode("utf-8")
    assert first.startswith("# expect: "), path.name
    return first.removeprefix("# expect: ")


def naming(path: Path, lines: list[str]) -> list[re.Match[str]]:
    """Messages of the form ``file[:line]: <expected key path>: reason``."""
    pattern = re.compile(rf"{re.escape(str(path))}(?::(\d+))?: {re.escape(expected(path))}: \S")
    return [m for line in lines if (m := pattern.match(line))]


def test_the_corpus_covers_many_kinds_of_mistake() -> None:
    assert len(corpus()) >= 50


@pytest.mark.parametrize("path", corpus(), ids=lambda p: p.name)
def test_validate_rejects_bad_input_with_one_line_per_problem(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert lines, "at least one message"
    assert err.endswith("\n") and err.count("\n") == len(lines), "one message per line"
    for line in lines:
        assert line.startswith(str(path)), f"message must name the file: {line}"
        assert "Traceback" not in line and "panicked" not in line
    found = naming(path, lines)
    assert found, f"no line reads '{path}[:line]: {expected(path)}: ...': {lines}"
    line_no = found[0].group(1)
    if path.name in NO_LINE:
        return
    assert line_no is not None, f"the message should give the line: {found[0].string}"
    source = path.read_bytes().decode("utf-8", "replace").splitlines()
    cited = source[int(line_no) - 1]
    if expected(path) == "not UTF-8 text":
        assert "\ufffd" in cited, f"line {line_no} has no undecodable byte: {cited!r}"
        return
    key = re.sub(r"\[\d+\]$", "", expected(path).split(".")[-1])
    assert key in cited or cited.lstrip().startswith("["), f"line {line_no} is {cited!r}, not about {key}"


@pytest.mark.parametrize("path", corpus(), ids=lambda p: p.name)
def test_run_rejects_bad_input_with_exit_2(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(path), "--quiet"]) == 2
    assert naming(path, capsys.readouterr().err.splitlines())


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
    # Defaults as a scenario file would spell them.
    assert "initial_ssthresh = 1000000000  (" in out
    assert 'rtt_statistic = "mean"  (' in out
    assert 'flavour = "ns2"  (' in out
    assert "loss_reduction = 0.75  (" in out
    assert "default from:" in out
    assert main(["list", "algorithms", "--json"]) == 0
    algs = json.loads(capsys.readouterr().out)
    assert {a["name"] for a in algs} >= {"reno", "newreno"}


def test_list_queues_shows_every_discipline_and_capacity_with_sources(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["list", "queues", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    names = {q["name"] for q in listing["disciplines"]}
    assert "droptail" in names
    for q in listing["disciplines"]:
        assert q["source"] and q["description"], q["name"]
        for p in q["params"]:
            assert p["source"] and p["description"] and "default" in p, (q["name"], p["name"])
    assert [c["key"] for c in listing["capacities"]] == ["bandwidth", "bandwidth_trace", "bandwidth_states"]
    assert main(["list", "queues"]) == 0
    out = capsys.readouterr().out
    assert "droptail: FIFO" in out and "bandwidth_trace (trace):" in out


def test_usage_errors_exit_2() -> None:
    assert run_cli("frobnicate").returncode == 2
    assert run_cli("run").returncode == 2
