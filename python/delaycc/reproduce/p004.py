"""P004, ALT (Vegas-ALT, FAST-ALT) vs Vegas and FAST on asymmetric and loaded backward paths.

All of P004's figures survive only as captions, so every claim below is a lost figure whose text still
states the effect (docs/claims.md#p004-alt). A sentence that joins several statements, or one that
covers several points ("at every load"), is one claim that holds only when all its parts do.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..plots.panels import finish, panels
from ..plots.smooth import rolling_mean
from .claims import both, bound, label, near, order
from .criteria import LOG, POINTS, Bound, Near, Order, Stats, stats
from .model import BY_CONSTRUCTION, SETUP, Claim, Experiment, RunResult, RunSet, Sweep, Table

SCENARIOS = Path("scenarios/papers")
ALGS = ("vegas", "vegas-alt", "fast", "fast-alt")
HOSTS = (("vegas", "vegas-alt"), ("fast", "fast-alt"))
NAMES = {"vegas": "Vegas", "vegas-alt": "Vegas-ALT", "fast": "FAST", "fast-alt": "FAST-ALT"}
PARAMS = {
    "vegas": {"alpha": 1, "beta": 3, "gamma": 1},
    "vegas-alt": {"alpha": 1, "beta": 3, "gamma": 1},
    "fast": {"alpha": 10},
    "fast-alt": {"alpha": 10},
}
K_VALUES = (2, 4, 8, 16, 32)
LOADS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
LINK_MBPS = 16.0
"""R1 -> R2 (P004 §III): the forward bottleneck, and C_b at k = 1."""

STEADY_FROM = 0.5
"""§III-A compares throughputs "in steady state" and gives neither a window nor a duration (the scenario
runs 200 s, the period §III-B gives). The paper's words only exclude the start-up, so the window is fixed
without looking at the results: the second half of the run, 100-200 s."""
STEADY_BLOCK_S = 25.0
STEADY_DRIFT = 0.05
"""A diagnostic shown in the notes, not part of any criterion: a series whose last two 25 s blocks
differ by more than 5 % is still moving at the end of the run (docs/claims.md#open-questions, item 4)."""

ONE_RUN = (
    "a one-run ensemble: one flow on a deterministic path, so start jitter would only shift the run in "
    "time and nothing the paper leaves open changes the outcome"
)
BACKWARD_SEEDS = tuple(range(1, 21))
"""20 seeds: the audit found 5 too few for the "always beats its host" ordering (Vegas-ALT's advantage at
low loads is 1-3 %, below one run's spread, and the verdict followed the seeds drawn); a full
`delaycc reproduce alt-backward-load` with 20 takes about 45 s on 2 cores."""

# Two-sided 95 % Student t quantiles, for the prediction interval of one run (df = runs - 1).
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042)  # fmt: skip


def _t95(df: int) -> float:
    return _T95[df - 1] if 1 <= df <= len(_T95) else 1.96


def _pi95(values: Sequence[float]) -> float:
    """Half-width of the 95 % prediction interval of ONE more run, t·sd·√(1 + 1/n): how far a single draw
    of the random source (the paper's one run) may lie from our ensemble mean. 0 for a single run."""
    v = np.asarray(values, dtype=float)
    if len(v) < 2:
        return 0.0
    return float(_t95(len(v) - 1) * np.std(v, ddof=1) * math.sqrt(1 + 1 / len(v)))


def _mean_off(load: float) -> str | None:
    return None if load == 0 else f"{0.5 * (30 / (16 * load) - 1):.6f}s"


def tput(r: RunResult) -> float:
    """The flow's average throughput over the whole run, Mb/s (data packets carry no ALT option, so the
    option's overhead is already left out, as §III asks)."""
    return float(r.flow("f1")["throughput_bps"]) / 1e6


def _window(r: RunResult, t0: float, t1: float = math.inf) -> float:
    return float(np.mean(r.window("flow", "f1", "rate_bps", t0, t1))) / 1e6


def steady(r: RunResult) -> float:
    """Throughput over the steady-state window (`STEADY_FROM`), Mb/s."""
    return _window(r, STEADY_FROM * float(r.times[-1]))


def drift(r: RunResult) -> float:
    """Relative change between the run's last two `STEADY_BLOCK_S` blocks."""
    end = float(r.times[-1])
    a = _window(r, end - 2 * STEADY_BLOCK_S, end - STEADY_BLOCK_S)
    b = _window(r, end - STEADY_BLOCK_S)
    return abs(b - a) / a if a > 0 else math.inf


def _each(rs: RunSet, alg: str, point: float, fn: Callable[[RunResult], float] = tput) -> Stats:
    return stats(rs.each(alg, fn, point))


def _ratios(rs: RunSet, a: str, b: str, point: float, fn: Callable[[RunResult], float]) -> Stats:
    """Per-run ratio a / b, paired by seed."""
    return stats([x / y for x, y in zip(rs.each(a, fn, point), rs.each(b, fn, point), strict=True)])


def _moving(rs: RunSet, algs: Sequence[str]) -> str:
    """Which of the steady-state windows read are still moving at the end of the run (a note, not a test)."""
    moving = [
        f"{NAMES[alg]} k={k} ({d:.0%})"
        for alg in algs
        for k in K_VALUES
        for d in [max(rs.each(alg, drift, k))]
        if not d <= STEADY_DRIFT
    ]
    if not moving:
        return "every series read is steady at the end of the run"
    return (
        "still moving at 200 s (last two 25 s blocks differ by more than 5 %): "
        + ", ".join(moving)
        + "; the paper gives no duration for §III-A"
    )


def _joined(
    experiment: str,
    text: str,
    paper: str,
    parts: list[Claim],
    measured: str,
    criterion: str,
    held: str | None = None,
    note: str = "",
) -> Claim:
    """`both` over the parts, shown compactly (the parts' own texts would repeat the rule once per point)."""
    c = both(experiment, text, paper, parts, note)
    return dataclasses.replace(c, measured=measured, criterion=criterion, held=held or c.held)


# --- alt-asym-k: P004 §III-A ------------------------------------------------------------------------------

RATIO_WHY = {
    2: "'about 2': integer precision puts it in [1.5, 2.5]; the lower edge, a factor 2/1.5, taken both ways",
    3: "'about 3': integer precision puts it in [2.5, 3.5]; the lower edge, a factor 3/2.5, taken both ways",
}
MUCH_GREATER = 1.5
MUCH_GREATER_WHY = (
    "'much greater' read as at least 1.5, the lower edge of 'about 2', the smallest ALT/host ratio the same "
    "paragraph reports"
)


def claims_k(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    out = []
    for alg in ("vegas", "fast"):
        v = [rs.each(alg, steady, k)[0] for k in K_VALUES]
        out.append(
            label(
                e,
                f"{NAMES[alg]}'s throughput falls as k rises from 2 to 32"
                + (" (P004 §III-A, Fig. 2)" if alg == "vegas" else " (implied by 'similar', §III-A)"),
                "falls" if alg == "vegas" else "falls (results omitted)",
                ", ".join(f"k={k}: {x:.2f}" for k, x in zip(K_VALUES, v, strict=True))
                + " Mb/s in steady state; the cap 16/k is "
                + ", ".join(f"{LINK_MBPS / k:g}" for k in K_VALUES),
                SETUP,
                "C_b = 16 Mb/s x 40 B / 1000 B / k carries the ACKs of at most 16/k Mb/s of data (one ACK "
                "per packet); any sender that loses no ACKs sits on that cap, so the fall follows from how "
                "k is defined",
                reads=(alg,),
            )
        )

    at2 = _each(rs, "vegas-alt", 2, steady)
    out.append(
        near(
            e,
            "Vegas-ALT maintains 16 Mb/s at k = 2, as if there were no backward congestion (P004 §III-A)",
            "16 Mb/s",
            at2,
            Near(
                16.0, POINTS, 0.5, "16 has two digits: 15.5-16.5 Mb/s round to it, i.e. ≥ 96.9 % of the link"
            ),
            " Mb/s",
            ".4g",
            reads=("vegas-alt",),
            note=f"steady state, 100-200 s (whole run {tput(rs.seeds('vegas-alt', 2)[0]):.2f} Mb/s); "
            + ONE_RUN,
        )
    )

    parts = []
    for k in K_VALUES:
        paper = 2.0 if k == 2 else 3.0
        parts.append(
            near(
                e,
                f"Vegas-ALT / Vegas at k = {k}",
                f"{paper:g}x",
                _ratios(rs, "vegas-alt", "vegas", k, steady),
                Near(paper, LOG, paper / (paper - 0.5) - 1, RATIO_WHY[int(paper)]),
                "x",
                ".3g",
                reads=("vegas", "vegas-alt"),
            )
        )
    out.append(
        _joined(
            e,
            "steady-state throughput ratio Vegas-ALT / Vegas is about 2 at k = 2 and about 3 at k = 4, 8, "
            "16, 32 (P004 §III-A)",
            "2x (k = 2); 3x (k = 4-32)",
            parts,
            ", ".join(f"k={k}: {p.measured}" for k, p in zip(K_VALUES, parts, strict=True)),
            "steady-state ratio (100-200 s) within a factor 1.33 of 2 at k = 2 ('about 2', integer "
            "precision: [1.5, 2.5]) and within a factor 1.2 of 3 at every other k ('about 3': [2.5, 3.5]); "
            "all five must hold",
            note=f"{_moving(rs, ('vegas', 'vegas-alt'))}; {ONE_RUN}",
        )
    )

    for host, alt, text in (
        (
            "vegas",
            "vegas-alt",
            "the throughput of Vegas-ALT is much greater than that of Vegas, at every k (P004 §III-A)",
        ),
        (
            "fast",
            "fast-alt",
            "FAST-ALT against FAST is 'similar' to Vegas-ALT against Vegas: much greater at every k "
            "(P004 §III-A, results omitted)",
        ),
    ):
        parts = [
            bound(
                e,
                f"{NAMES[alt]} / {NAMES[host]} at k = {k}",
                "much greater",
                _ratios(rs, alt, host, k, steady),
                Bound(">", MUCH_GREATER, MUCH_GREATER_WHY),
                "x",
                ".3g",
                reads=(host, alt),
            )
            for k in K_VALUES
        ]
        out.append(
            _joined(
                e,
                text,
                "much greater" if host == "vegas" else "'similar' (no data)",
                parts,
                ", ".join(f"k={k}: {p.measured}" for k, p in zip(K_VALUES, parts, strict=True)),
                f"steady-state ratio {NAMES[alt]} / {NAMES[host]} (100-200 s) above {MUCH_GREATER:g} at "
                f"every k ({MUCH_GREATER_WHY})",
                note=f"{_moving(rs, (host, alt))}; {ONE_RUN}",
            )
        )
    return out


# --- alt-backward-load: P004 §III-B -----------------------------------------------------------------------

AT_09 = {  # algorithm -> (paper's value in Mb/s, its precision in Mb/s, where the precision comes from)
    "vegas": (1.6, 0.16, "'about 1.6': ±10 %, the reading of 'about' (its two digits alone give ±0.05)"),
    "vegas-alt": (6.1, 0.05, "'6.1': two digits, half a unit of the last"),
    "fast": (4.7, 0.47, "'about 4.7': ±10 %, the reading of 'about' (its two digits alone give ±0.05)"),
    "fast-alt": (5.7, 0.05, "'5.7': two digits, half a unit of the last"),
}
AT_10 = {  # host -> (paper's ratio ALT / host at load 1, its relative precision, the derivation)
    "vegas": (
        3.75,
        0.05 / 1.6 + 0.05 / 6.1,
        "a ratio of two throughputs read from Fig. 4 to two digits (±0.05 Mb/s each, as every §III-B "
        "value); at the magnitudes the paper gives at load 0.9, 0.05/1.6 + 0.05/6.1 = ±3.9 %",
    ),
    "fast": (
        1.33,
        0.05 / 4.7 + 0.05 / 5.7,
        "a ratio of two throughputs read from Fig. 4 to two digits (±0.05 Mb/s each, as every §III-B "
        "value); at the magnitudes the paper gives at load 0.9, 0.05/4.7 + 0.05/5.7 = ±1.9 %",
    ),
}
ONE_DRAW = (
    "t·sd·√(1+1/n) over our runs, because the paper's number is one draw of a VBR pattern it does not fix "
    "and another draw would differ by that much"
)


def claims_load(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    n = len(rs.experiment.seeds)
    out = []

    zero = {alg: rs.each(alg, tput, 0.0)[0] for alg in ALGS}
    out.append(
        label(
            e,
            "at backward load 0 each ALT variant equals its host (implicit in 'when the load is not zero')",
            "equal",
            ", ".join(f"{NAMES[a]} {zero[a]:.2f} vs {NAMES[h]} {zero[h]:.2f}" for h, a in HOSTS) + " Mb/s",
            BY_CONSTRUCTION,
            "with no backward queue the ALT forward-plus-backward trip equals the RTT, so ALT and its host "
            "take the same decisions",
            reads=ALGS,
        )
    )
    out.append(
        label(
            e,
            "even in a symmetric network, backward congestion occurs (P004 §III-B)",
            "may occur",
            ", ".join(
                f"{NAMES[h]} {_each(rs, h, 0.0).mean:.2f} at load 0, {_each(rs, h, 1.0).mean:.2f} at load 1"
                for h, _ in HOSTS
            )
            + " Mb/s",
            SETUP,
            "the scenario puts a 30 Mb/s on/off source on the 16 Mb/s ACK path: the premise of §III-B",
            reads=("vegas", "fast"),
        )
    )

    parts = []
    for alg in ALGS:
        paper, precision, why = AT_09[alg]
        ours = _each(rs, alg, 0.9)
        pi = _pi95(ours.values)
        parts.append(
            near(
                e,
                f"{NAMES[alg]} at load 0.9",
                f"{paper:g} Mb/s",
                ours,
                Near(
                    paper,
                    POINTS,
                    precision + pi,
                    f"{why}; plus one run's 95 % prediction interval, {ONE_DRAW}: ±{pi:.2f}",
                ),
                " Mb/s",
                ".3g",
                reads=(alg,),
            )
        )
    out.append(
        _joined(
            e,
            "at backward load 0.9: Vegas about 1.6, Vegas-ALT 6.1, FAST about 4.7, FAST-ALT 5.7 Mb/s "
            "(P004 §III-B)",
            "1.6 / 6.1 / 4.7 / 5.7 Mb/s",
            parts,
            "; ".join(f"{NAMES[a]} {p.measured}" for a, p in zip(ALGS, parts, strict=True)),
            "|ensemble mean - paper| within the paper's precision plus one run's 95 % prediction "
            "interval (PI): "
            + "; ".join(
                f"{NAMES[a]} ±{AT_09[a][1]:g} + {p.check.tolerance - AT_09[a][1]:.2f}"
                for a, p in zip(ALGS, parts, strict=True)
                if isinstance(p.check, Near)
            )
            + " Mb/s. Precision: 'about 1.6' and 'about 4.7' ±10 % (the reading of 'about'; their two "
            f"digits alone give ±0.05), 6.1 and 5.7 two digits, ±0.05; PI = {ONE_DRAW}. All four must hold",
            note=f"{n} seeds. On seed 1 ns-2's own Vegas gives 4.44 and FAST 4.31 Mb/s at load 0.9 (the "
            "one-seed referee run before the ensembles; delaycc 4.74 and 4.25), so the gap to Vegas's "
            "1.6 comes from the scenario's proposals (docs/experiments.md#alt-backward-load (a)-(d)), not from delaycc",
        )
    )

    parts = []
    for host, alt in HOSTS:
        paper, precision, why = AT_10[host]
        logs = [
            math.log(a / h) if a > 0 and h > 0 else math.nan
            for a, h in zip(rs.each(alt, tput, 1.0), rs.each(host, tput, 1.0), strict=True)
        ]
        ours = stats(logs)
        pi = _pi95(logs)
        part = near(
            e,
            f"{NAMES[alt]} / {NAMES[host]} at load 1",
            f"{paper:g}x",
            ours,
            Near(
                math.log(paper),
                POINTS,
                math.log(1 + precision) + pi,
                f"{why}; plus one run's 95 % prediction interval, {ONE_DRAW}: ±{pi:.2f} in ln",
            ),
            "",
            ".3g",
            reads=(host, alt),
        )
        lo, hi = math.exp(ours.mean - ours.half_width), math.exp(ours.mean + ours.half_width)
        parts.append(
            dataclasses.replace(part, measured=f"{math.exp(ours.mean):.3g}x (95 % {lo:.3g}-{hi:.3g}x)")
        )
    out.append(
        _joined(
            e,
            "at backward load 1, Vegas-ALT is 3.75 x Vegas and FAST-ALT 1.33 x FAST (P004 §III-B)",
            "3.75x; 1.33x",
            parts,
            "; ".join(
                f"{NAMES[a]} / {NAMES[h]} {p.measured}" for (h, a), p in zip(HOSTS, parts, strict=True)
            ),
            "the ensemble mean of ln(ALT / host), paired by seed, within ln(1 + precision) + one run's "
            "95 % prediction interval (PI) of ln(paper's ratio): "
            + "; ".join(
                f"{NAMES[h]} ln {1 + AT_10[h][1]:.3f} + {p.check.tolerance - math.log(1 + AT_10[h][1]):.2f} "
                f"= ±{p.check.tolerance:.2f}, a factor {math.exp(p.check.tolerance):.2f}"
                for (h, _), p in zip(HOSTS, parts, strict=True)
                if isinstance(p.check, Near)
            )
            + ". Precision: each ratio is of two throughputs read from Fig. 4 to two digits (±0.05 Mb/s, "
            "as every §III-B value); at the magnitudes the paper gives at load 0.9 that is 0.05/1.6 + "
            f"0.05/6.1 = ±3.9 % for 3.75 and 0.05/4.7 + 0.05/5.7 = ±1.9 % for 1.33; PI = {ONE_DRAW}. "
            "Both must hold",
            note=f"{n} seeds; shown as the geometric mean of the per-seed ratios",
        )
    )

    parts, measured, held = [], [], []
    for host, alt in HOSTS:
        row, counts = [], []
        for x in LOADS[1:]:
            a, h = _each(rs, alt, x), _each(rs, host, x)
            part = order(
                e,
                f"{NAMES[alt]} above {NAMES[host]} at load {x:g}",
                "higher",
                a,
                h,
                Order(">", alt, host),
                " Mb/s",
                ".3g",
                reads=(host, alt),
            )
            parts.append(part)
            d = stats([p - q for p, q in zip(a.values, h.values, strict=True)])
            row.append(
                f"{x:g}: {d.mean:+.2f}±{d.half_width:.2f}" + ("" if part.verdict == "reproduced" else " ✗")
            )
            counts.append(part.held.split("/")[0])
        measured.append(f"{NAMES[alt]} - {NAMES[host]} (Mb/s) " + ", ".join(row))
        held.append(f"{NAMES[alt]} > {NAMES[host]} at loads 0.1-1: " + " ".join(counts) + f" of {n}")
    out.append(
        _joined(
            e,
            "whenever the backward load is not zero, Vegas-ALT always beats Vegas, and FAST-ALT beats FAST "
            "(P004 §III-B)",
            "always",
            parts,
            "; ".join(measured),
            "at each load 0.1-1.0 and for both pairs, the mean paired difference ALT - host (same seed, same "
            "VBR pattern, as the paper's 'same traffic pattern') above 0 with its 95 % interval excluding 0; "
            f"all {len(parts)} orderings must hold (✗ marks those that do not)",
            "; ".join(held),
            note=f"{n} seeds: the audit found 5 too few to decide it (Vegas-ALT's edge at low loads is "
            "1-3 %, below one run's spread)",
        )
    )

    dev: dict[str, list[float]] = {alg: [] for alg in ALGS}  # per-seed deviations from each load's mean
    for x in LOADS[1:]:
        for alg in ALGS:
            v = np.asarray(rs.each(alg, tput, x))
            dev[alg] += list(v - v.mean())
    corr = (
        ", ".join(
            f"{NAMES[a]}/{NAMES[b]} r = {np.corrcoef(dev[a], dev[b])[0, 1]:.2f}"
            for a, b in (("vegas", "vegas-alt"), ("fast", "fast-alt"), ("vegas", "fast"))
        )
        if n > 1
        else "one run"
    )
    out.append(
        label(
            e,
            "the four TCPs show synchronized fluctuations, as they see the same VBR pattern (P004 §III-B)",
            "synchronized",
            f"correlation of per-seed deviations from the load's mean: {corr}",
            SETUP,
            "runs with the same seed share the VBR pattern, as the paper's runs did",
            reads=ALGS,
        )
    )
    return out


# --- figures and tables -----------------------------------------------------------------------------------


def _figure_k(rs: RunSet, out: Path) -> list[Path]:
    fig, axes = panels(2, "alt-asym-k: throughput vs time (k = 4) and steady throughput vs k")
    for alg in ALGS:
        r = rs.seeds(alg, 4)[0]
        axes[0].plot(
            r.times, rolling_mean(r.s("flow", "f1", "rate_bps"), r.times, 2.0) / 1e6, label=alg, linewidth=1
        )
    axes[0].set_ylabel("Mb/s (k = 4)")
    path = finish(fig, axes[:1], "time (s)", out / "alt-asym-k-time.png")
    fig2, ax2 = panels(1, "alt-asym-k: steady-state (100-200 s) throughput vs asymmetry factor k")
    for alg in ALGS:
        ax2[0].plot(K_VALUES, [_each(rs, alg, k, steady).mean for k in K_VALUES], marker="o", label=alg)
    ax2[0].set_xscale("log", base=2)
    ax2[0].set_ylabel("throughput (Mb/s)")
    return [path, finish(fig2, ax2, "k", out / "alt-asym-k.png")]


def _figure_load(rs: RunSet, out: Path) -> list[Path]:
    n = len(rs.experiment.seeds)
    fig, axes = panels(1, f"alt-backward-load: average throughput vs backward load (P004 Fig. 4), {n} seeds")
    for alg in ALGS:
        s = [_each(rs, alg, x) for x in LOADS]
        axes[0].errorbar(
            LOADS, [v.mean for v in s], yerr=[v.half_width for v in s], marker="o", capsize=3, label=alg
        )
    axes[0].set_ylabel("throughput (Mb/s), mean ± 95 %")
    return [finish(fig, axes, "backward load", out / "alt-backward-load.png")]


def _tables_k(rs: RunSet) -> list[Table]:
    out = []
    for fn, what in ((tput, "whole run"), (steady, "steady state, 100-200 s")):
        rows = [[f"{k:g}"] + [f"{_each(rs, a, k, fn).mean:.2f}" for a in ALGS] for k in K_VALUES]
        out.append(Table(f"alt-asym-k: throughput (Mb/s) by k, {what} (one run)", ["k", *ALGS], rows))
    return out


def _tables_load(rs: RunSet) -> list[Table]:
    rows = [[f"{x:g}"] + [_each(rs, a, x).show(".2f") for a in ALGS] for x in LOADS]
    n = len(rs.experiment.seeds)
    return [
        Table(f"alt-backward-load: throughput (Mb/s) by load, mean ± 95 % of {n} runs", ["load", *ALGS], rows)
    ]


EXPERIMENTS = [
    Experiment(
        "alt-asym-k",
        "P004",
        "asymmetric links, ACK-path congestion only",
        SCENARIOS / "alt-asym-k.toml",
        ALGS,
        ("f1",),
        # A one-run ensemble: a single flow on a deterministic path (nothing random), so jittering its start
        # only shifts the whole run in time (the audit's five jittered runs agree to 4 digits); nothing the
        # paper leaves open changes the outcome.
        seeds=(1,),
        jitter_s=0.0,
        params=PARAMS,
        sweep=Sweep("links[1].reverse_bandwidth", [f"{640 / k:g}kbps" for k in K_VALUES], K_VALUES, "k"),
        claims=claims_k,
        figures=_figure_k,
        tables=_tables_k,
    ),
    Experiment(
        "alt-backward-load",
        "P004",
        "symmetric links with backward on/off traffic",
        SCENARIOS / "alt-backward-load.toml",
        ALGS,
        ("f1",),
        # The seed draws the VBR on/off pattern; the four algorithms' runs with one seed share it (paired).
        seeds=BACKWARD_SEEDS,
        params=PARAMS,
        sweep=Sweep("traffic[0].mean_off", [_mean_off(x) for x in LOADS], LOADS, "load"),
        claims=claims_load,
        figures=_figure_load,
        tables=_tables_load,
    ),
]
