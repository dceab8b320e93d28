"""`delaycc plot-sweep DIR --x X --y Y [--hue H]`: one metric of a finished sweep against one axis."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import EXIT_INVALID, Subparsers


def cmd_plot_sweep(args: argparse.Namespace) -> int:
    from ..sweep.plot import plot_sweep

    try:
        path = plot_sweep(Path(args.dir), args.x, args.y, args.hue)
    except (ValueError, FileNotFoundError) as e:
        print(f"delaycc plot-sweep: {e}", file=sys.stderr)
        return EXIT_INVALID
    print(path)
    return 0


def add_parser(sub: Subparsers) -> None:
    ps = sub.add_parser("plot-sweep", help="plot one sweep metric against an axis")
    ps.add_argument("dir")
    ps.add_argument("--x", required=True)
    ps.add_argument("--y", required=True)
    ps.add_argument("--hue")
    ps.set_defaults(func=cmd_plot_sweep)
