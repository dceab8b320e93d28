"""P003, EMFAST (CCaFR) vs MFAST, FAST, NewReno and SCTP after one induced loss."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .claims import check, not_comparable, numeric
from .model import Claim, Experiment, RunResult, RunSet, Table
from .plotting import finish, panels

SCENARIOS = Path("scenarios/papers")
ALGS = ("sctp", "newreno", "fast", "mfast", "emfast")
FAST_PARAMS = {"alpha": 6, "gamma": 0.5}
PARAMS = {"fast": FAST_PARAMS, "mfast": FAST_PARAMS, "emfast": FAST_PARAMS}
STREAMS = {"mfast": 4, "emfast": 4, "sctp": 4}
SEEDS = (1, 2, 3, 4, 5)
SCRIPTED_DROP_AFTER_S = 37.0

# P003 Tables 1-3 and §5.1, (alone, competing).
CONVERGENCE = {
    "sctp": (8.22, 8.50),
    "newreno": (8.46, 8.92),
    "fast": (5.43, 5.18),
    "mfast": (5.43, 5.18),
    "emfast": (3.87, 2.31),
}
MAX_CWND = {"sctp": (56, 32), "newreno": (57, 34), "fast": (52, 27), "mfast": (52, 27), "emfast": (52, 27)}
THROUGHPUT = {
    "sctp": (1096, 407),
    "newreno": (1236, 397),
    "fast": (1446, 430),
    "mfast": (1446, 430),
    "emfast": (1454, 433),
}
GOODPUT = {"sctp": (1043, 387), "newreno": (1183, 379), "mfast": (1389, 413), "emfast": (1396, 415)}
TABLE4 = {  # flow -> (SCTP, Fast, NewReno, EMFast) in Kbps, competing run
    "f1": (407.00, 430.46, 397.00, 433.00),
    "f2": (214.50, 241.21, 211.64, 240.13),
    "f3": (226.02, 248.93, 226.42, 243.17),
    "f4": (226.99, 245.25, 220.36, 252.06),
    "f5": (213.82, 239.19, 226.42, 241.25),
}
TABLE4_JAIN = (0.9221, 0.9338, 0.9296, 0.9328)
TABLE4_ALGS = ("sctp", "fast", "newreno", "emfast")


def scripted_convergence(r: RunResult) -> float:
    for ep in r.flow("f1")["convergence_episodes"]:
        if ep["loss_at_s"] > SCRIPTED_DROP_AFTER_S:
            return float(ep["time_s"])
    return float("nan")


def _mean(rs: RunSet, alg: str, f: object) -> float:
    vals = [f(r) for r in rs.seeds(alg)]  # type: ignore[operator]
    return float(np.nanmean(vals)) if np.isfinite(vals).any() else float("nan")


def _claims(rs: RunSet, col: int) -> list[Claim]:
    e = rs.experiment.id
    out: list[Claim] = []
    conv = {a: _mean(rs, a, scripted_convergence) for a in ALGS}
    for a in ALGS:
        paper = CONVERGENCE[a][col]
        if np.isfinite(conv[a]):
            out.append(
                numeric(e, f"{a}: convergence time after fast recovery (P003 Table 1)", paper, conv[a], " s")
            )
        else:
            out.append(
                not_comparable(
                    e,
                    f"{a}: convergence time after fast recovery (P003 Table 1)",
                    f"{paper} s",
                    "-",
                    "another loss or a timeout cut the recovery episode short before the window came back",
                )
            )
    out.append(
        check(
            e,
            "EMFAST converges faster than FAST/MFAST, NewReno and SCTP",
            "fastest (P003 Table 1)",
            ", ".join(f"{a} {conv[a]:.2f} s" for a in ALGS),
            all(conv["emfast"] < conv[a] for a in ALGS if a != "emfast" and np.isfinite(conv[a])),
        )
    )
    for a in ALGS:
        mc = _mean(rs, a, lambda r: float(np.nanmax(r.s("flow", "f1", "cwnd_pkts"))))
        out.append(numeric(e, f"{a}: maximum cwnd (P003 §5.1)", MAX_CWND[a][col], mc, " pkts"))
        out.append(
            numeric(
                e,
                f"{a}: throughput of flow 1 (P003 Table 2)",
                THROUGHPUT[a][col],
                _mean(rs, a, lambda r: r.flow("f1")["throughput_bps"] / 1e3),
                " Kbps",
            )
        )
        if a in GOODPUT:
            out.append(
                numeric(
                    e,
                    f"{a}: goodput of flow 1 (P003 Table 3)",
                    GOODPUT[a][col],
                    _mean(rs, a, lambda r: r.flow("f1")["goodput_bps"] / 1e3),
                    " Kbps",
                )
            )
    same = all(
        np.array_equal(f.s("flow", "f1", "cwnd_pkts"), m.s("flow", "f1", "cwnd_pkts"))
        for f, m in zip(rs.seeds("fast"), rs.seeds("mfast"), strict=True)
    )
    out.append(
        check(
            e,
            "FAST and MFAST cwnd traces overlap exactly",
            "identical (P003 §5.1)",
            "identical" if same else "different",
            same,
        )
    )
    if col == 0:
        rtt = _mean(rs, "fast", lambda r: r.flow("f1")["mean_rtt_s"])
        for a, paper in (("emfast", 9), ("fast", 17), ("mfast", 17)):
            out.append(
                numeric(
                    e,
                    f"{a}: RTTs to refill the link after recovery (P003 §5.1)",
                    paper,
                    conv[a] / rtt,
                    " RTTs",
                    tolerance=0.25,
                )
            )
    else:
        for a, jain in zip(TABLE4_ALGS, TABLE4_JAIN, strict=True):
            ours = _mean(rs, a, lambda r: r.summary["fairness_jain"])
            out.append(numeric(e, f"{a}: Jain's index over the five flows (P003 Table 4)", jain, ours))
    return out


def _figures(rs: RunSet, out: Path) -> list[Path]:
    exp = rs.experiment
    fig, axes = panels(2, f"{exp.id}: cwnd of flow 1 and ACK IPD jitter")
    for a in ALGS:
        r = rs.get(a, seed=1)
        axes[0].plot(r.times, r.s("flow", "f1", "cwnd_pkts"), label=a, linewidth=1)
    for a in ("mfast", "emfast"):
        r = rs.get(a, seed=1)
        axes[1].plot(r.times, r.s("flow", "f1", "ipd_jitter_s") * 1e3, label=a, linewidth=0.8)
    axes[0].set_ylabel("cwnd (pkts)")
    axes[1].set_ylabel("IPD jitter (ms)")
    return [finish(fig, axes, "time (s)", out / f"{exp.id}.png")]


def _tables(rs: RunSet, col: int) -> list[Table]:
    rows = []
    for a in ALGS:
        conv = _mean(rs, a, scripted_convergence)
        tp = _mean(rs, a, lambda r: r.flow("f1")["throughput_bps"] / 1e3)
        gp = _mean(rs, a, lambda r: r.flow("f1")["goodput_bps"] / 1e3)
        rows.append(
            [
                a,
                f"{CONVERGENCE[a][col]}",
                f"{conv:.2f}",
                f"{THROUGHPUT[a][col]}",
                f"{tp:.0f}",
                f"{GOODPUT[a][col]}" if a in GOODPUT else "-",
                f"{gp:.0f}",
            ]
        )
    tables = [
        Table(
            f"{rs.experiment.id}: P003 Tables 1-3 (flow 1)",
            [
                "protocol",
                "convergence s (paper)",
                "convergence s (ours)",
                "throughput Kbps (paper)",
                "(ours)",
                "goodput Kbps (paper)",
                "(ours)",
            ],
            rows,
        )
    ]
    if col == 1:
        t4 = []
        for fid, paper in TABLE4.items():
            row = [fid]
            for a, p in zip(TABLE4_ALGS, paper, strict=True):
                row += [f"{p:.2f}", f"{_mean(rs, a, lambda r, f=fid: r.flow(f)['throughput_bps'] / 1e3):.2f}"]
            t4.append(row)
        t4.append(
            ["Jain"]
            + [
                x
                for a, j in zip(TABLE4_ALGS, TABLE4_JAIN, strict=True)
                for x in (f"{j:.4f}", f"{_mean(rs, a, lambda r: r.summary['fairness_jain']):.4f}")
            ]
        )
        cols = ["flow"] + [f"{a} {w}" for a in TABLE4_ALGS for w in ("(paper)", "(ours)")]
        tables.append(Table("P003 Table 4: per-flow throughput (Kbps) and Jain's index", cols, t4))
    return tables


EXPERIMENTS = [
    Experiment(
        "emfast-single",
        "P003",
        "no competing traffic, one induced loss near 38 s",
        SCENARIOS / "emfast-single.toml",
        ALGS,
        ("f1",),
        seeds=SEEDS,
        params=PARAMS,
        streams=STREAMS,
        claims=lambda rs: _claims(rs, 0),
        figures=_figures,
        tables=lambda rs: _tables(rs, 0),
    ),
    Experiment(
        "emfast-competing",
        "P003",
        "four NewReno competitors, one induced loss",
        SCENARIOS / "emfast-competing.toml",
        ALGS,
        ("f1",),
        seeds=SEEDS,
        params=PARAMS,
        streams=STREAMS,
        claims=lambda rs: _claims(rs, 1),
        figures=_figures,
        tables=lambda rs: _tables(rs, 1),
    ),
]
