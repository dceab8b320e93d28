"""The kernel commands of the `delaycc` CLI: `kernel load|unload|status`, `emulate`, `compare`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

EXIT_FAILURE = 1
EXIT_INVALID = 2
BPF_ALGORITHMS = ("vegas", "fast", "vfast", "rrfast")


def _guard(fn: Any, args: argparse.Namespace) -> int:
    """Kernel and emulation failures are one line on stderr; unsupported scenarios exit 2 (invalid)."""
    from .emulate import EmulationUnsupported
    from .kernel import KernelError

    try:
        status: int = fn(args)
        return status
    except EmulationUnsupported as e:
        for line in e.errors:
            print(line, file=sys.stderr)
        return EXIT_INVALID
    except KernelError as e:
        print(f"delaycc {args.command}: {e}", file=sys.stderr)
        return EXIT_FAILURE


def _kernel(args: argparse.Namespace) -> int:
    from .kernel import loader

    if args.action == "status":
        rows = loader.status()
        if args.json:
            print(json.dumps(rows, indent=2))
            return 0
        for r in rows:
            state = "available" if r["available"] else "not loaded"
            print(f"{r['algorithm']:<8} {r['kernel_name']:<11} {r['kind']:<9} {state}")
            for k, v in r.get("params", {}).items():
                print(f"    {k} = {v!r}")
        return 0
    names = args.algorithms or list(BPF_ALGORITHMS)
    for name in names:
        done = loader.load(name) if args.action == "load" else loader.unload(name)
        verb = args.action + "ed" if done else ("already loaded" if args.action == "load" else "not loaded")
        print(f"{name}: {verb}")
    return 0


def _emulate(args: argparse.Namespace) -> int:
    from .compare import disturbed_warning
    from .emulate import emulate
    from .table import summary_table

    result = emulate(args.file, args.out, figures=not args.no_figures)
    fidelity = result.summary["emulation"]["fidelity"]
    if fidelity["disturbed"]:
        print(f"delaycc emulate: {args.file}: {disturbed_warning(fidelity)}", file=sys.stderr)
    if not args.quiet:
        print(summary_table(result.summary))
        if args.out:
            print(f"\nresults written to {args.out}/")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from .compare import compare

    c = compare(args.file, args.out)
    print(json.dumps(c.as_dict(), indent=2) if args.json else c.table())
    return 0


def add_commands(sub: Any) -> None:
    k = sub.add_parser("kernel", help="register/unregister the BPF congestion controllers in this kernel")
    k.add_argument("action", choices=["load", "unload", "status"])
    k.add_argument("algorithms", nargs="*", metavar="ALGORITHM", help=f"default: {', '.join(BPF_ALGORITHMS)}")
    k.add_argument("--json", action="store_true", help="status as JSON")
    k.set_defaults(func=lambda a: _guard(_kernel, a))

    e = sub.add_parser("emulate", help="run a scenario on kernel TCP in network namespaces (root)")
    e.add_argument("file")
    e.add_argument("--out", help="directory for the same outputs as `delaycc run --out`")
    e.add_argument("--no-figures", action="store_true")
    e.add_argument("-q", "--quiet", action="store_true")
    e.set_defaults(func=lambda a: _guard(_emulate, a))

    c = sub.add_parser("compare", help="simulate and emulate a scenario and report the differences (root)")
    c.add_argument("file")
    c.add_argument("--out", help="directory for sim/, kernel/ and compare.json")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=lambda a: _guard(_compare, a))
