"""`delaycc emulate FILE`: a scenario run on kernel TCP in network namespaces (root), with the outputs of
`delaycc run` and a warning when the machine disturbed the emulation's timing."""

from __future__ import annotations

import argparse
import sys

from .common import Subparsers, kernel_guard


def cmd_emulate(args: argparse.Namespace) -> int:
    from ..emulate import emulate
    from ..emulate.fidelity import disturbed_warning
    from ..table import summary_table

    result = emulate(args.file, args.out, figures=not args.no_figures)
    fidelity = result.summary["emulation"]["fidelity"]
    if fidelity["disturbed"]:
        print(f"delaycc emulate: {args.file}: {disturbed_warning(fidelity)}", file=sys.stderr)
    if not args.quiet:
        print(summary_table(result.summary))
        if args.out:
            print(f"\nresults written to {args.out}/")
    return 0


def add_parser(sub: Subparsers) -> None:
    e = sub.add_parser("emulate", help="run a scenario on kernel TCP in network namespaces (root)")
    e.add_argument("file")
    e.add_argument("--out", help="directory for the same outputs as `delaycc run --out`")
    e.add_argument("--no-figures", action="store_true")
    e.add_argument("-q", "--quiet", action="store_true")
    e.set_defaults(func=kernel_guard(cmd_emulate))
