"""`delaycc compare FILE`: a scenario simulated and emulated on kernel TCP (root), the differences as a
table or JSON."""

from __future__ import annotations

import argparse
import json

from .common import Subparsers, kernel_guard


def cmd_compare(args: argparse.Namespace) -> int:
    from ..emulate.compare import compare

    c = compare(args.file, args.out)
    print(json.dumps(c.as_dict(), indent=2) if args.json else c.table())
    return 0


def add_parser(sub: Subparsers) -> None:
    c = sub.add_parser("compare", help="simulate and emulate a scenario and report the differences (root)")
    c.add_argument("file")
    c.add_argument("--out", help="directory for sim/, kernel/ and compare.json")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=kernel_guard(cmd_compare))
