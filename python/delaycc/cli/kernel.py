"""`delaycc kernel load|unload|status [ALGORITHM...]`: the BPF congestion controllers registered in (or
removed from) the running kernel, or what is loaded."""

from __future__ import annotations

import argparse
import json

from .common import Subparsers, kernel_guard

BPF_ALGORITHMS = ("vegas", "fast", "vfast", "rrfast")


def cmd_kernel(args: argparse.Namespace) -> int:
    from ..kernel import loader

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


def add_parser(sub: Subparsers) -> None:
    k = sub.add_parser("kernel", help="register/unregister the BPF congestion controllers in this kernel")
    k.add_argument("action", choices=["load", "unload", "status"])
    k.add_argument("algorithms", nargs="*", metavar="ALGORITHM", help=f"default: {', '.join(BPF_ALGORITHMS)}")
    k.add_argument("--json", action="store_true", help="status as JSON")
    k.set_defaults(func=kernel_guard(cmd_kernel))
