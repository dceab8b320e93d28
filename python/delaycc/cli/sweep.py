"""`delaycc sweep FILE --out DIR`: a parameter sweep on all cores or a Dask cluster, resumable; a line per
run that did not succeed."""

from __future__ import annotations

import argparse
import os
import sys

from .announce import before_sweep
from .common import Subparsers


def cmd_sweep(args: argparse.Namespace) -> int:
    from ..sweep import estimate, sweep

    if not args.quiet:
        name, runs, events = estimate(args.file, args.out)
        parallel = None if args.dask else min(args.workers or os.cpu_count() or 1, max(1, runs))
        before_sweep(name, runs, events, parallel, args.quiet)
    progress = None if not args.quiet else False
    df = sweep(
        args.file, args.out, workers=args.workers, dask=args.dask, keep_runs=args.keep_runs, progress=progress
    )
    if not args.quiet:
        counts = df["status"].value_counts().to_dict() if not df.empty else {}
        tally = ", ".join(f"{v} {k}" for k, v in counts.items())
        print(f"{len(df)} runs ({tally}); results: {args.out}/results.parquet")
        for _, row in df[df["status"] != "ok"].iterrows():
            print(f"point {row['point']}: {row['status']}: {row['error']}", file=sys.stderr)
    return 0


def add_parser(sub: Subparsers) -> None:
    sw = sub.add_parser("sweep", help="run a parameter sweep (resumable) on all cores or a Dask cluster")
    sw.add_argument("file")
    sw.add_argument("--out", required=True)
    sw.add_argument("--workers", type=int, help="local processes (default: all cores)")
    sw.add_argument("--dask", metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://host:8786")
    sw.add_argument("--keep-runs", action="store_true", help="keep every run's output folder")
    sw.add_argument("-q", "--quiet", action="store_true")
    sw.set_defaults(func=cmd_sweep)
