"""The ``delaycc`` command: run, validate, list, demo, reproduce, sweep (and, from cli_kernel, kernel,
emulate, compare).

Exit status: 0 success, 1 failure while running, 2 invalid scenario or usage, 3 a run stopped by its event
or memory budget (partial results written), 130 interrupted (Ctrl-C; ``run`` writes the partial results).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import api
from .errors import BudgetExceeded, RunInterrupted, ScenarioError, SimulationError
from .limits import MAX_EVENTS_MAX
from .progress import sim_progress
from .result import Result
from .table import summary_table

EXIT_FAILURE = 1
EXIT_INVALID = 2
EXIT_BUDGET = 3
EXIT_INTERRUPTED = 130


def _print_errors(errors: list[str]) -> None:
    for e in errors:
        print(e, file=sys.stderr)


def cmd_run(args: argparse.Namespace) -> int:
    total = api.duration_s(args.file)
    status = 0
    with sim_progress(total, Path(args.file).stem, enabled=None if not args.quiet else False) as cb:
        try:
            result: Result = api.run(
                args.file, seed=args.seed, progress=cb, max_events=args.max_events, max_memory=args.max_memory
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


def cmd_validate(args: argparse.Namespace) -> int:
    status = 0
    for f in args.files:
        try:
            api.validate(f)
        except ScenarioError as e:
            _print_errors(e.errors)
            status = EXIT_INVALID
        else:
            if not args.quiet:
                print(f"{f}: ok")
    return status


def _toml_value(v: object) -> str:
    """A default as it would be written in a scenario file: whole numbers without a trailing .0."""
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return repr(v)


def cmd_list(args: argparse.Namespace) -> int:
    algs = api.algorithms()
    if args.json:
        print(json.dumps(algs, indent=2))
        return 0
    for a in algs:
        print(f"{a['name']}: {a['description']}")
        for p in a["params"]:
            print(f"    {p['name']} = {_toml_value(p['default'])}  ({p['range']}) {p['description']}")
            print(f"        default from: {p['source']}")
        if not a["params"]:
            print("    (no parameters)")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(Path(args.out), quiet=args.quiet)


def cmd_reproduce(args: argparse.Namespace) -> int:
    from .reproduce import reproduce

    try:
        page = reproduce(
            args.target,
            Path(args.out),
            workers=args.workers,
            progress=None if not args.quiet else False,
            referee=args.referee,
            ns2=args.ns2,
            ns2_timeout_s=args.ns2_timeout,
        )
    except ValueError as e:
        print(f"delaycc reproduce: {e}", file=sys.stderr)
        return EXIT_INVALID
    if not args.quiet:
        print(f"report: {page} and {page.with_suffix('.md')}")
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    from .sweep import sweep

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


def cmd_plot_sweep(args: argparse.Namespace) -> int:
    from .sweep.plot import plot_sweep

    try:
        path = plot_sweep(Path(args.dir), args.x, args.y, args.hue)
    except (ValueError, FileNotFoundError) as e:
        print(f"delaycc plot-sweep: {e}", file=sys.stderr)
        return EXIT_INVALID
    print(path)
    return 0


def _seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 0 <= seed <= api.SEED_MAX:
        raise argparse.ArgumentTypeError(f"{seed} is not in [0, 2**63 - 1]")
    return seed


def _max_events(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 1 <= n <= MAX_EVENTS_MAX:
        raise argparse.ArgumentTypeError(f"{n} is not in [1, 2**63 - 1]")
    return n


def _max_memory(text: str) -> int:
    from . import _core

    try:
        return _core.parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="delaycc", description="delay-based TCP congestion control laboratory")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="run a scenario file")
    r.add_argument("file")
    r.add_argument("--out", help="directory for summary.json, timeseries.csv/.parquet and figures/")
    r.add_argument("--seed", type=_seed, help="override the scenario's seed (0 to 2**63 - 1)")
    r.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    r.add_argument("-q", "--quiet", action="store_true", help="no table, no progress bar")
    r.add_argument(
        "--max-events",
        type=_max_events,
        metavar="N",
        help="stop after N events (replaces [limits] max_events; default: no limit); exit status 3",
    )
    r.add_argument(
        "--max-memory",
        type=_max_memory,
        metavar="SIZE",
        help="stop when the simulation's data would exceed SIZE, e.g. 2GiB (replaces [limits] max_memory; "
        "default: half of this machine's memory); exit status 3",
    )
    r.set_defaults(func=cmd_run)

    v = sub.add_parser("validate", help="check scenario files; exit 2 with one line per problem")
    v.add_argument("files", nargs="+")
    v.add_argument("-q", "--quiet", action="store_true")
    v.set_defaults(func=cmd_validate)

    ls = sub.add_parser("list", help="list algorithms with their parameters")
    ls.add_argument("what", choices=["algorithms"])
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=cmd_list)

    rp = sub.add_parser("reproduce", help="reproduce the papers' experiments: figures, tables, report")
    rp.add_argument(
        "target", nargs="?", default="all", help="all, demo, a paper (P000..P004) or an experiment id"
    )
    rp.add_argument("--out", default="results/reproduce")
    rp.add_argument("--workers", type=int, help="parallel runs (default: all cores)")
    rp.add_argument("-q", "--quiet", action="store_true")
    rp.add_argument(
        "--referee",
        choices=["ns2"],
        help="also run every run ns-2 can make in ns-2 and judge each claim on it",
    )
    from .cli_crosscheck import add_ns2_option

    add_ns2_option(rp)
    rp.set_defaults(func=cmd_reproduce)

    sw = sub.add_parser("sweep", help="run a parameter sweep (resumable) on all cores or a Dask cluster")
    sw.add_argument("file")
    sw.add_argument("--out", required=True)
    sw.add_argument("--workers", type=int, help="local processes (default: all cores)")
    sw.add_argument("--dask", metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://host:8786")
    sw.add_argument("--keep-runs", action="store_true", help="keep every run's output folder")
    sw.add_argument("-q", "--quiet", action="store_true")
    sw.set_defaults(func=cmd_sweep)

    ps = sub.add_parser("plot-sweep", help="plot one sweep metric against an axis")
    ps.add_argument("dir")
    ps.add_argument("--x", required=True)
    ps.add_argument("--y", required=True)
    ps.add_argument("--hue")
    ps.set_defaults(func=cmd_plot_sweep)

    d = sub.add_parser("demo", help="run the demo scenarios and print a summary")
    d.add_argument("--out", default="results")
    d.add_argument("-q", "--quiet", action="store_true")
    d.set_defaults(func=cmd_demo)

    from .cli_kernel import add_commands

    add_commands(sub)  # kernel, emulate, compare
    from .cli_crosscheck import add_commands as add_crosscheck

    add_crosscheck(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
        return status
    except ScenarioError as e:
        _print_errors(e.errors)
        return EXIT_INVALID
    except SimulationError as e:
        print(f"delaycc: {e}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("delaycc: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as e:
        print(f"delaycc: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
