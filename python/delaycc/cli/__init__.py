"""The ``delaycc`` command: one module per subcommand (run, validate, list, reproduce, sweep, plot-sweep,
demo, kernel, emulate, compare, crosscheck, fabric), each adding its parser; ``main`` dispatches and turns the
errors every command can meet into a line on stderr and an exit status.

Exit status: 0 success, 1 failure while running, 2 invalid scenario or usage, 3 a run stopped by its event
or memory budget (partial results written), 130 interrupted (Ctrl-C; ``run`` writes the partial results).
"""

from __future__ import annotations

import argparse
import sys

from ..errors import ScenarioError, SimulationError
from . import (
    compare,
    crosscheck,
    demo,
    emulate,
    fabric,
    kernel,
    listing,
    plot_sweep,
    reproduce,
    run,
    sweep,
    validate,
)
from .common import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_INVALID, print_errors

COMMANDS = (
    run,
    validate,
    listing,
    reproduce,
    sweep,
    plot_sweep,
    demo,
    kernel,
    emulate,
    compare,
    crosscheck,
    fabric,
)
"""In the order ``delaycc --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="delaycc", description="delay-based TCP congestion control laboratory")
    sub = p.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
        return status
    except ScenarioError as e:
        print_errors(e.errors)
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


__all__ = ["build_parser", "main"]
