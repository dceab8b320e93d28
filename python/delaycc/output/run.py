"""A run's output directory: every file goes to a temporary name first and is renamed into place, and
summary.json is written last, so a directory with a summary.json is always complete. Packet traces
(``pcap/``) are written by the engine while the run goes, so the directory is prepared before it."""

from __future__ import annotations

from pathlib import Path

from ..files import atomic_write_text
from ..result_like import ResultLike
from .jsontext import summary_text
from .tables import parquet_available, write_csv, write_parquet

PCAP_SUBDIR = "pcap"
"""The folder of a run directory that holds its packet traces."""


def prepare_out(out: Path) -> Path:
    """Readies ``out`` for a run that may write packet traces into it: an earlier run's summary.json goes
    first (the directory must not look complete while this run's traces are written), then its traces
    (``out/pcap/*.pcap``, so that those left belong to this run). Returns the trace directory, which the
    engine creates when the run has traces."""
    (out / "summary.json").unlink(missing_ok=True)
    pcap = out / PCAP_SUBDIR
    if pcap.is_dir():
        for old in pcap.glob("*.pcap"):
            old.unlink(missing_ok=True)
    return pcap


def write_outputs(result: ResultLike, out: Path, figures: bool = True) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    summary_path = out / "summary.json"
    # A stale summary from an earlier run must not make a half-rewritten directory look complete.
    summary_path.unlink(missing_ok=True)
    ts = result.timeseries
    write_csv(ts, out / "timeseries.csv")
    if parquet_available():
        write_parquet(ts, out / "timeseries.parquet")
    if figures:
        # Imported here: matplotlib takes a while to import, and most runs draw no figures.
        from ..plots import write_figures

        write_figures(result, out / "figures")
    atomic_write_text(summary_path, summary_text(result.summary))
    return out
