"""`delaycc run FILE`: one scenario, its summary table, and with --out its outputs (partial ones too when
a budget or Ctrl-C stops it: exit status 3 or 130). Before it starts, its estimate (`--estimate`: only
that)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import api
from ..errors import BudgetExceeded, RunInterrupted
from ..output import prepare_out
from ..progress import sim_progress
from ..result import Result
from ..table import summary_table
from .announce import before_run, estimate_only
from .common import EXIT_BUDGET, EXIT_INTERRUPTED, EXIT_INVALID, Subparsers, max_events, max_memory, seed


def cmd_run(args: argparse.Namespace) -> int:
    if args.pcap and not args.out:
        print("delaycc run: --pcap needs --out DIR (the traces go to DIR/pcap/)", file=sys.stderr)
        return EXIT_INVALID
    total = api.duration_s(args.file)
    estimate = api.estimate(args.file, max_events=args.max_events)
    if args.estimate:
        return estimate_only(estimate, args.file)
    before_run(estimate, args.file, args.quiet)
    # Packet traces are written while the run goes (into DIR/pcap/, docs/scenario-format.md, Packet traces).
    pcap_dir = prepare_out(Path(args.out)) if args.out else None
    status = 0
    show = False if args.quiet else None
    with sim_progress(total, Path(args.file).stem, enabled=show, estimate=estimate) as cb:
        try:
            result: Result = api.run(
                args.file,
                seed=args.seed,
                progress=cb,
                max_events=args.max_events,
                max_memory=args.max_memory,
                pcap_dir=pcap_dir,
                pcap_flows=args.pcap,
            )
        except BudgetExceeded as e:
            result, status = e.result, EXIT_BUDGET
        except RunInterrupted as e:
            result, status = e.result, EXIT_INTERRUPTED
    # A run stopped early still writes what it simulated, marked "partial": true in summary.json.
    if args.out:
        result.save(args.out, figures=not args.no_figures)
    if not args.quiet:
        print(summary_table(result.summary))
        if args.out:
            print(f"\nresults written to {args.out}/")
    if status:
        written = f"; partial results written to {args.out}/" if args.out else ""
        print(f"delaycc: {args.file}: {result.summary['stop_message']}{written}", file=sys.stderr)
    return status


def add_parser(sub: Subparsers) -> None:
    r = sub.add_parser("run", help="run a scenario file")
    r.add_argument("file")
    r.add_argument("--out", help="directory for summary.json, timeseries.csv/.parquet and figures/")
    r.add_argument("--seed", type=seed, help="override the scenario's seed (0 to 2**63 - 1)")
    r.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    r.add_argument("-q", "--quiet", action="store_true", help="no table, no estimate, no progress bar")
    r.add_argument(
        "--estimate",
        action="store_true",
        help="print the run's estimated packets, events, memory and time (and a warning past 10 min), "
        "then exit without running",
    )
    r.add_argument(
        "--max-events",
        type=max_events,
        metavar="N",
        help="stop after N events (replaces [limits] max_events; default: no limit); exit status 3",
    )
    r.add_argument(
        "--max-memory",
        type=max_memory,
        metavar="SIZE",
        help="stop when the simulation's data would exceed SIZE, e.g. 2GiB (replaces [limits] max_memory; "
        "default: half of this machine's memory); exit status 3",
    )
    r.add_argument(
        "--pcap",
        action="store_true",
        help="write a pcap trace of every flow's sender side into DIR/pcap/ (needs --out; links and flows "
        'with trace = "pcap" are traced with --out alone)',
    )
    r.set_defaults(func=cmd_run)
