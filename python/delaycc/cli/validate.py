"""`delaycc validate FILE...`: every problem of every file, one line each; exit status 2 if any."""

from __future__ import annotations

import argparse

from .. import api
from ..errors import ScenarioError
from .common import EXIT_INVALID, Subparsers, print_errors


def cmd_validate(args: argparse.Namespace) -> int:
    status = 0
    for f in args.files:
        try:
            api.validate(f)
        except ScenarioError as e:
            print_errors(e.errors)
            status = EXIT_INVALID
        else:
            if not args.quiet:
                print(f"{f}: ok")
    return status


def add_parser(sub: Subparsers) -> None:
    v = sub.add_parser("validate", help="check scenario files; exit 2 with one line per problem")
    v.add_argument("files", nargs="+")
    v.add_argument("-q", "--quiet", action="store_true")
    v.set_defaults(func=cmd_validate)
