"""P004, ALT (Vegas-ALT, FAST-ALT) vs Vegas and FAST on asymmetric and loaded backward paths."""

from __future__ import annotations

import itertools
from pathlib import Path

from .claims import check, numeric
from .model import Claim, Experiment, RunSet, Sweep, Table
from .plotting import finish, panels, smooth

SCENARIOS = Path("scenarios/papers")
ALGS = ("vegas", "vegas-alt", "fast", "fast-alt")
PARAMS = {
    "vegas": {"alpha": 1, "beta": 3, "gamma": 1},
    "vegas-alt": {"alpha": 1, "beta": 3, "gamma": 1},
    "fast": {"alpha": 10},
    "fast-alt": {"alpha": 10},
}
K_VALUES = (2, 4, 8, 16, 32)
LOADS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def _mean_off(load: float) -> str | None:
    return None if load == 0 else f"{0.5 * (30 / (16 * load) - 1):.6f}s"


def tput(rs: RunSet, alg: str, point: float) -> float:
    return float(rs.get(alg, point).flow("f1")["throughput_bps"])


def claims_k(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    v = [tput(rs, "vegas", k) for k in K_VALUES]
    out = [
        check(
            e,
            "Vegas's throughput falls as k rises from 2 to 32",
            "falls (P004 Fig. 2)",
            ", ".join(f"k={k}: {x / 1e6:.2f}" for k, x in zip(K_VALUES, v, strict=True)) + " Mb/s",
            all(a > b for a, b in itertools.pairwise(v)),
        ),
        numeric(
            e,
            "Vegas-ALT holds about 16 Mb/s at k = 2 (P004 §III-A)",
            16.0,
            tput(rs, "vegas-alt", 2) / 1e6,
            " Mb/s",
        ),
    ]
    for k in K_VALUES:
        paper = 2.0 if k == 2 else 3.0
        out.append(
            numeric(
                e,
                f"Vegas-ALT / Vegas throughput at k = {k} (P004 §III-A)",
                paper,
                tput(rs, "vegas-alt", k) / tput(rs, "vegas", k),
                "x",
                tolerance=0.25,
            )
        )
    for k in K_VALUES:
        out.append(
            check(
                e,
                f"FAST-ALT beats FAST at k = {k} (P004: 'similar', results omitted)",
                "omitted",
                f"{tput(rs, 'fast-alt', k) / 1e6:.2f} vs {tput(rs, 'fast', k) / 1e6:.2f} Mb/s",
                tput(rs, "fast-alt", k) > tput(rs, "fast", k),
            )
        )
    return out


def claims_load(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    out = []
    for alg, paper in (("vegas", 1.6), ("vegas-alt", 6.1), ("fast", 4.7), ("fast-alt", 5.7)):
        out.append(
            numeric(
                e,
                f"{alg}: throughput at backward load 0.9 (P004 §III-B)",
                paper,
                tput(rs, alg, 0.9) / 1e6,
                " Mb/s",
            )
        )
    out.append(
        numeric(
            e,
            "Vegas-ALT / Vegas at load 1.0 (P004 §III-B)",
            3.75,
            tput(rs, "vegas-alt", 1.0) / tput(rs, "vegas", 1.0),
            "x",
            tolerance=0.25,
        )
    )
    out.append(
        numeric(
            e,
            "FAST-ALT / FAST at load 1.0 (P004 §III-B)",
            1.33,
            tput(rs, "fast-alt", 1.0) / tput(rs, "fast", 1.0),
            "x",
            tolerance=0.25,
        )
    )
    wins = [
        (h, a, x)
        for h, a in (("vegas", "vegas-alt"), ("fast", "fast-alt"))
        for x in LOADS[1:]
        if tput(rs, a, x) <= tput(rs, h, x)
    ]
    out.append(
        check(
            e,
            "every ALT variant beats its host whenever the backward load is above 0",
            "always (P004 §III-B)",
            "holds" if not wins else "fails at " + ", ".join(f"{a} load {x}" for _, a, x in wins),
            not wins,
        )
    )
    return out


def _figure_k(rs: RunSet, out: Path) -> list[Path]:
    fig, axes = panels(2, "alt-asym-k: throughput vs time (k = 4) and steady throughput vs k")
    for alg in ALGS:
        r = rs.get(alg, 4)
        axes[0].plot(
            r.times, smooth(r.s("flow", "f1", "rate_bps"), r.times, 2.0) / 1e6, label=alg, linewidth=1
        )
    axes[0].set_ylabel("Mb/s (k = 4)")
    path = finish(fig, axes[:1], "time (s)", out / "alt-asym-k-time.png")
    fig2, ax2 = panels(1, "alt-asym-k: throughput vs asymmetry factor k")
    for alg in ALGS:
        ax2[0].plot(K_VALUES, [tput(rs, alg, k) / 1e6 for k in K_VALUES], marker="o", label=alg)
    ax2[0].set_xscale("log", base=2)
    ax2[0].set_ylabel("throughput (Mb/s)")
    return [path, finish(fig2, ax2, "k", out / "alt-asym-k.png")]


def _figure_load(rs: RunSet, out: Path) -> list[Path]:
    fig, axes = panels(1, "alt-backward-load: average throughput vs backward load (P004 Fig. 4)")
    for alg in ALGS:
        axes[0].plot(LOADS, [tput(rs, alg, x) / 1e6 for x in LOADS], marker="o", label=alg)
    axes[0].set_ylabel("throughput (Mb/s)")
    return [finish(fig, axes, "backward load", out / "alt-backward-load.png")]


def _table(rs: RunSet, points: tuple[float, ...], name: str) -> list[Table]:
    rows = [[f"{p:g}"] + [f"{tput(rs, a, p) / 1e6:.2f}" for a in ALGS] for p in points]
    return [Table(f"{rs.experiment.id}: throughput (Mb/s) by {name}", [name, *ALGS], rows)]


EXPERIMENTS = [
    Experiment(
        "alt-asym-k",
        "P004",
        "asymmetric links, ACK-path congestion only",
        SCENARIOS / "alt-asym-k.toml",
        ALGS,
        ("f1",),
        params=PARAMS,
        sweep=Sweep("links[1].reverse_bandwidth", [f"{640 / k:g}kbps" for k in K_VALUES], K_VALUES, "k"),
        claims=claims_k,
        figures=_figure_k,
        tables=lambda rs: _table(rs, K_VALUES, "k"),
    ),
    Experiment(
        "alt-backward-load",
        "P004",
        "symmetric links with backward on/off traffic",
        SCENARIOS / "alt-backward-load.toml",
        ALGS,
        ("f1",),
        params=PARAMS,
        sweep=Sweep("traffic[0].mean_off", [_mean_off(x) for x in LOADS], LOADS, "load"),
        claims=claims_load,
        figures=_figure_load,
        tables=lambda rs: _table(rs, LOADS, "load"),
    ),
]
