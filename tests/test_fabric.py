"""`delaycc fabric`: fat trees and leaf-spines of the right size, files the engine accepts, ECMP spreading
a permutation over the cores, workloads from the seed, bad input as one line with exit status 2."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import delaycc
from delaycc.cli import main
from delaycc.fabric import FabricError, fat_tree, incast, leaf_spine, permutation, read_cdf

ROOT = Path(__file__).resolve().parent.parent
CDFS = ROOT / "scenarios" / "fabric" / "cdf"


@pytest.mark.parametrize("k", [4, 8])
def test_fat_tree_sizes(k: int) -> None:
    t = fat_tree(k)
    assert len(t.hosts) == k**3 // 4
    assert [len(t.switches[s]) for s in ("edge", "aggregation", "core")] == [
        k * k // 2,
        k * k // 2,
        k * k // 4,
    ]
    assert len(t.links) == 3 * k**3 // 4
    assert len(set(t.nodes)) == 5 * k * k // 4 + k**3 // 4
    degree = Counter(n for link in t.links for n in link)
    assert all(degree[s] == k for tier in t.switches.values() for s in tier), "every switch has k ports"


def test_leaf_spine_sizes() -> None:
    t = leaf_spine(4, 2, 3)
    assert (len(t.hosts), len(t.links), len(t.nodes)) == (12, 4 * 2 + 12, 18)


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["fabric", *args, "-q"])
    return status, capsys.readouterr().err


@pytest.mark.parametrize(
    "shape",
    [
        ["fat-tree", "--k", "4"],
        ["fat-tree", "--k", "8", "--workload", "incast", "--senders", "100", "--bytes", "64KB"],
        ["leaf-spine", "--leaves", "4", "--spines", "2", "--hosts-per-leaf", "3",
         "--workload", "cdf", "--cdf", "websearch", "--load", "0.3", "--flows", "20"],
        ["leaf-spine", "--leaves", "2", "--spines", "2", "--hosts-per-leaf", "2", "--algorithm", "swift",
         "--param", "base_target=10us", "--bytes", "1MB"],
    ],
)  # fmt: skip
def test_generated_files_validate_and_repeat(
    shape: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    assert run_cli([*shape, "--out", str(a)], capsys) == (0, "")
    assert run_cli([*shape, "--out", str(b)], capsys) == (0, "")
    assert a.read_text() == b.read_text(), "same options, same file"
    delaycc.validate(str(a))


def cores_used(path: Path) -> Counter[str]:
    """Packets through each core switch in the first 20 us (every flow's first window is on its way)."""
    r = delaycc.run(path.read_text().replace('duration = "5ms"', 'duration = "20us"'))
    return Counter(
        {row["id"].split("-")[1]: row["pkts_sent"] for row in r.summary["links"] if row["id"].startswith("a")}
    )


def test_ecmp_spreads_a_permutation_over_the_cores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.toml"
    assert run_cli(["fat-tree", "--k", "8", "--bytes", "100KB", "--out", str(out)], capsys)[0] == 0
    cores = cores_used(out)
    # 128 flows, most of them crossing the core: all 16 cores carry packets, none more than three times
    # its fair share.
    assert len(cores) == 16, cores
    assert max(cores.values()) < 3 * sum(cores.values()) / 16, cores
    shortest = tmp_path / "s.toml"
    run_cli(
        ["fat-tree", "--k", "8", "--bytes", "100KB", "--routing", "shortest", "--out", str(shortest)], capsys
    )
    assert len(cores_used(shortest)) < len(cores)


def test_workloads() -> None:
    hosts = [f"h{i}" for i in range(10)]
    p = permutation(hosts, 100, random.Random(3))
    assert sorted(f.src for f in p) == sorted(hosts) == sorted(f.dst for f in p)
    assert all(f.src != f.dst for f in p)
    assert p == permutation(hosts, 100, random.Random(3))
    i = incast(hosts, 9, 1000)
    assert {f.dst for f in i} == {"h0"} and len({f.src for f in i}) == 9
    cdf = read_cdf(CDFS / "websearch.cdf")
    assert cdf.probs[-1] == 1.0 and cdf.sample(0.0) == 1 and cdf.sample(0.999999) <= 30_000_000
    assert abs(cdf.mean() - 1_711_250) < 1
    read_cdf(CDFS / "datamining.cdf")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["fat-tree", "--k", "5"], "--k"),
        (["fat-tree", "--k", "4", "--workload", "incast", "--senders", "16"], "--senders"),
        (["fat-tree", "--k", "4", "--workload", "cdf", "--cdf", "{bad}"], "--cdf"),
        (["fat-tree", "--k", "4", "--workload", "cdf", "--cdf", "{short}"], "--cdf"),
        (
            ["fat-tree", "--k", "4", "--algorithm", "swift", "--param", "base_target=50ns"],
            "--param base_target",
        ),
        (["leaf-spine", "--leaves", "0", "--spines", "1", "--hosts-per-leaf", "1"], "--leaves"),
    ],
)
def test_bad_input_is_one_line_naming_the_option(
    args: list[str], option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.cdf").write_text("0 0\n100 0.5\n200 0.4\n300 1\n")
    (tmp_path / "short.cdf").write_text("0 0\n100 0.5\n200 0.9\n")
    args = [a.format(bad=tmp_path / "bad.cdf", short=tmp_path / "short.cdf") for a in args]
    out = tmp_path / "never.toml"
    status, err = run_cli([*args, "--out", str(out)], capsys)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith(f"delaycc fabric: {option}: "), err
    assert not out.exists() and not list(tmp_path.glob(".*tmp*"))


def test_cdf_messages() -> None:
    with pytest.raises(FabricError, match="not monotone"):
        read_cdf_text("0 0\n10 0.6\n20 0.5\n30 1\n")
    with pytest.raises(FabricError, match=r"ends at 0\.9, not at 1"):
        read_cdf_text("0 0\n10 0.9\n")


def read_cdf_text(text: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "x.cdf"
        p.write_text(text)
        read_cdf(p)


def test_the_command_exits_2_through_the_entry_point(tmp_path: Path) -> None:
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "delaycc",
            "fabric",
            "fat-tree",
            "--k",
            "3",
            "--out",
            str(tmp_path / "x.toml"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (
        r.returncode == 2 and r.stderr == "delaycc fabric: --k: must be an even number of at least 2, not 3\n"
    )


def test_finite_flows_give_a_table_of_completion_times() -> None:
    """`Result.fct`: one row per finite flow, its FCT against the idle network's; empty without them."""
    r = delaycc.run(ROOT / "scenarios" / "beyond" / "fattree-k4-permutation-swift.toml")
    fct = r.fct
    assert list(fct.columns) == ["id", "bytes", "fct_s", "ideal_fct_s", "slowdown"]
    assert len(fct) == r.summary["fct"]["finite_flows"] == 16
    done = fct.dropna(subset=["fct_s"])
    assert (done["fct_s"] >= done["ideal_fct_s"]).all()
    assert abs(done["slowdown"].mean() - r.summary["fct"]["mean_slowdown"]) < 1e-9
    bulk = delaycc.run(ROOT / "scenarios" / "dumbbell-newreno.toml")
    assert bulk.fct.empty and "fct" not in bulk.summary
