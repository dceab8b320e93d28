"""`delaycc reproduce [TARGET]`: the papers' experiments, their claims judged, figures, tables and the
report (optionally with ns-2 as referee)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import EXIT_INVALID, Subparsers, add_ns2_option


def cmd_reproduce(args: argparse.Namespace) -> int:
    from ..reproduce import reproduce

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


def add_parser(sub: Subparsers) -> None:
    rp = sub.add_parser("reproduce", help="reproduce the papers' experiments: figures, tables, report")
    rp.add_argument(
        "target",
        nargs="?",
        default="all",
        help="all (the papers), demo, beyond (our experiments beyond them), a paper (P000..P004) or an "
        "experiment id",
    )
    rp.add_argument("--out", default="results/reproduce")
    rp.add_argument("--workers", type=int, help="parallel runs (default: all cores)")
    rp.add_argument("-q", "--quiet", action="store_true")
    rp.add_argument(
        "--referee",
        choices=["ns2"],
        help="also run every run ns-2 can make in ns-2 and judge each claim on it",
    )
    add_ns2_option(rp)
    rp.set_defaults(func=cmd_reproduce)
