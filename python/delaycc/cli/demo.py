"""`delaycc demo` (``make demo``): run every scenario in ``scenarios/`` (not the paper set; the checkout's
directory, or the copy installed with the package), write results and print tables."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .. import api
from ..errors import ScenarioError
from ..packaged import scenarios_dir
from ..progress import sim_progress
from ..table import summary_table
from .common import Subparsers


def run_demo(out: Path, quiet: bool = False, scenario_dir: Path | None = None) -> int:
    scenario_dir = scenarios_dir() if scenario_dir is None else scenario_dir
    files = sorted(scenario_dir.glob("*.toml"))
    if not files:
        print(f"delaycc demo: no scenarios in {scenario_dir}/", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    status = 0
    for f in files:
        try:
            total = api.duration_s(f)
            with sim_progress(total, f.stem, enabled=None if not quiet else False) as cb:
                result = api.run(f, progress=cb)
        except ScenarioError as e:
            for line in e.errors:
                print(line, file=sys.stderr)
            status = 2
            continue
        dest = out / f.stem
        result.save(dest)
        if not quiet:
            print(summary_table(result.summary))
            print(f"-> {dest}/ (summary.json, timeseries.csv, timeseries.parquet, figures/)\n")
    if not quiet:
        print(f"demo: {len(files)} scenarios in {time.perf_counter() - t0:.1f} s; results in {out}/")
    return status


def cmd_demo(args: argparse.Namespace) -> int:
    return run_demo(Path(args.out), quiet=args.quiet)


def add_parser(sub: Subparsers) -> None:
    d = sub.add_parser("demo", help="run the demo scenarios and print a summary")
    d.add_argument("--out", default="results")
    d.add_argument("-q", "--quiet", action="store_true")
    d.set_defaults(func=cmd_demo)
