"""`delaycc plot-sweep DIR --x alpha --y throughput --hue algorithm`: the figure a researcher draws first."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from ..files import atomic_write


def resolve(df: pd.DataFrame, name: str) -> str:
    """A column by exact name, else the one column containing `name` (summary-level columns first)."""
    if name in df.columns:
        return name
    hits = [c for c in df.columns if name in c]
    top = [c for c in hits if not c.startswith(("flow.", "link."))]
    for group in (top, hits):
        if len(group) == 1:
            return group[0]
        exact_end = [c for c in group if c.endswith(f".{name}") or c.startswith(f"total_{name}")]
        if len(exact_end) == 1:
            return exact_end[0]
    if not hits:
        raise ValueError(f"no column matches '{name}'; columns: {', '.join(map(str, df.columns))}")
    raise ValueError(f"'{name}' is ambiguous: {', '.join(hits)}")


def plot_sweep(out: Path, x: str, y: str, hue: str | None = None) -> Path:
    df = pd.read_parquet(out / "results.parquet")
    df = df[df["status"] == "ok"]
    if df.empty:
        raise ValueError(f"{out}: no successful runs to plot")
    xc, yc = resolve(df, x), resolve(df, y)
    hc = resolve(df, hue) if hue else None
    fig, ax = plt.subplots(figsize=(7, 4.2))
    groups = df.groupby(hc) if hc else [("all", df)]
    for label, g in groups:
        stats = g.groupby(xc)[yc].agg(["mean", "std", "count"]).reset_index().sort_values(xc)
        err = stats["std"].fillna(0.0)
        ax.errorbar(stats[xc], stats["mean"], yerr=err, marker="o", capsize=3, label=str(label))
    ax.set_xlabel(xc)
    ax.set_ylabel(f"{yc} (mean ± std over seeds)")
    ax.grid(True, alpha=0.3)
    if hc:
        ax.legend(title=hc, fontsize="small")
    path = out / "figures" / f"{_safe(yc)}_vs_{_safe(xc)}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, lambda p: fig.savefig(p, dpi=110, format="png"))
    plt.close(fig)
    return path


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
