"""What several commands share: exit statuses, printing error lines, argument types, the ns-2 options
(reproduce, crosscheck) and the handling of kernel failures (kernel, emulate, compare)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TypeAlias

from .. import api
from ..limits import MAX_EVENTS_MAX

EXIT_FAILURE = 1
EXIT_INVALID = 2
EXIT_BUDGET = 3
EXIT_INTERRUPTED = 130

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What each command module's ``add_parser`` adds its command to."""


def print_errors(errors: list[str]) -> None:
    for e in errors:
        print(e, file=sys.stderr)


def seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 0 <= value <= api.SEED_MAX:
        raise argparse.ArgumentTypeError(f"{value} is not in [0, 2**63 - 1]")
    return value


def max_events(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 1 <= n <= MAX_EVENTS_MAX:
        raise argparse.ArgumentTypeError(f"{n} is not in [1, 2**63 - 1]")
    return n


def max_memory(text: str) -> int:
    from .. import _core

    try:
        return _core.parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def timeout(text: str) -> float:
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < t <= 86400:
        raise argparse.ArgumentTypeError(f"{t:g} is not in (0, 86400] seconds")
    return t


def add_ns2_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ns2", metavar="PATH", help="the ns-2 binary (default: $DELAYCC_NS2, else ns on PATH)")
    p.add_argument(
        "--ns2-timeout",
        type=timeout,
        default=1800.0,
        metavar="S",
        help="stop ns-2 after S seconds (default 1800)",
    )


def kernel_guard(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Kernel and emulation failures are one line on stderr; unsupported scenarios exit 2 (invalid)."""

    def guarded(args: argparse.Namespace) -> int:
        from ..emulate import EmulationUnsupported
        from ..kernel import KernelError

        try:
            return fn(args)
        except EmulationUnsupported as e:
            print_errors(e.errors)
            return EXIT_INVALID
        except KernelError as e:
            print(f"delaycc {args.command}: {e}", file=sys.stderr)
            return EXIT_FAILURE

    return guarded
