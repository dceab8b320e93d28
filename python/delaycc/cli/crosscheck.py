"""`delaycc crosscheck`: one scenario, or the reference suite, in delaycc and in ns-2 side by side.

Exit status: 0 done; 2 the scenario is invalid or ns-2 cannot express it, no ns-2 (or none with a needed
agent), ns-2 crashed, hung or wrote no usable output (one line each; delaycc's outputs stay written);
1 a suite case could not be run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import EXIT_FAILURE, EXIT_INVALID, Subparsers, add_ns2_option, print_errors


def _agents(values: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values or []:
        flow, sep, agent = v.partition("=")
        if not sep or not flow or not agent:
            raise argparse.ArgumentTypeError(f"--ns2-agent {v!r}: write FLOW=AGENT, e.g. f1=Sack1")
        out[flow] = agent
    return out


def _one(args: argparse.Namespace) -> int:
    from ..crosscheck import crosscheck

    x = crosscheck(
        args.file,
        args.out,
        ns2=args.ns2,
        agents=args.ns2_agent_map,
        timeout_s=args.ns2_timeout,
        figures_too=not args.no_figures,
    )
    if not args.quiet:
        print(x.comparison.json_text() if args.json else x.comparison.table())
        ref = x.ns2.summary["referee"]
        fast = "with" if ref["has_fast_module"] else "without"
        print(f"ns-2: {ref['binary']} ({fast} the FAST module, Agent/TCP/Fast)")
        for d in x.comparison.differences:
            print(f"known difference: {d}")
        if args.out:
            print(f"\nresults written to {args.out}/ (delaycc/, ns2/, figures/, comparison.*)")
    return 0


def _suite(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from ..crosscheck.suite import ERROR, run_suite, table

    manifest = Path(args.manifest) if args.manifest else None
    bar = tqdm(desc="crosscheck", unit="case", disable=args.quiet or not sys.stderr.isatty(), file=sys.stderr)
    results = run_suite(
        Path(args.out or "results/crosscheck-suite"),
        manifest,
        ns2=args.ns2,
        workers=args.workers,
        timeout_s=args.ns2_timeout,
        on_done=lambda _r: bar.update(1),
    )
    bar.close()
    print(table(results))
    errors = [r for r in results if r.status == ERROR]
    for r in errors:
        print(f"delaycc crosscheck: {r.case.file}: {r.message}", file=sys.stderr)
    return EXIT_FAILURE if errors else 0


def cmd_crosscheck(args: argparse.Namespace) -> int:
    from ..errors import ScenarioError
    from ..ns2 import Ns2Error, Ns2Unsupported

    if args.suite == bool(args.file):
        print("delaycc crosscheck: give a scenario FILE or --suite, not both or neither", file=sys.stderr)
        return EXIT_INVALID
    if args.suite and args.ns2_agent:
        print(
            "delaycc crosscheck: --ns2-agent applies to one FILE; the suite's manifest sets its own",
            file=sys.stderr,
        )
        return EXIT_INVALID
    try:
        args.ns2_agent_map = _agents(args.ns2_agent)
        return _suite(args) if args.suite else _one(args)
    except argparse.ArgumentTypeError as e:
        print(f"delaycc crosscheck: {e}", file=sys.stderr)
        return EXIT_INVALID
    except (ScenarioError, Ns2Unsupported) as e:
        print_errors(e.errors)
        return EXIT_INVALID
    except Ns2Error as e:
        print(f"delaycc crosscheck: {e}", file=sys.stderr)
        return EXIT_INVALID
    except ValueError as e:  # a malformed suite manifest
        print(f"delaycc crosscheck: {e}", file=sys.stderr)
        return EXIT_INVALID


def add_parser(sub: Subparsers) -> None:
    x = sub.add_parser(
        "crosscheck", help="run a scenario (or the reference suite) in delaycc and ns-2, side by side"
    )
    x.add_argument("file", nargs="?", help="a scenario file")
    x.add_argument("--suite", action="store_true", help="run every case of the reference suite")
    x.add_argument("--manifest", help="the suite's manifest (default scenarios/crosscheck/suite.toml)")
    x.add_argument("--out", help="output directory (--suite default: results/crosscheck-suite)")
    add_ns2_option(x)
    x.add_argument(
        "--ns2-agent",
        action="append",
        metavar="FLOW=AGENT",
        help="run this flow with another ns-2 agent (Fast, Vegas, Newreno, Reno, Sack1); repeatable",
    )
    x.add_argument("--workers", type=int, help="suite cases run in parallel (default: all cores)")
    x.add_argument("--json", action="store_true", help="print comparison.json instead of the table")
    x.add_argument("--no-figures", action="store_true")
    x.add_argument("-q", "--quiet", action="store_true")
    x.set_defaults(func=cmd_crosscheck)
