"""`delaycc list algorithms`: every algorithm with its parameters, their defaults and where each default
comes from (or the same as JSON). `delaycc list queues`: the same for the queue disciplines, then the
capacity models a link direction may have. `delaycc list scenarios`: the path of every scenario file that
comes with the package (the papers' experiments, the examples, the crosscheck suite, the sweeps), one per
line."""

from __future__ import annotations

import argparse
import json

from .. import api
from ..packaged import scenarios_dir
from .common import Subparsers


def _toml_value(v: object) -> str:
    """A default as it would be written in a scenario file: whole numbers without a trailing .0."""
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return repr(v)


def cmd_list(args: argparse.Namespace) -> int:
    if args.what == "scenarios":
        return _list_scenarios(args.json)
    if args.what == "queues":
        return _list_queues(args.json)
    algs = api.algorithms()
    if args.json:
        print(json.dumps(algs, indent=2))
        return 0
    for a in algs:
        print(f"{a['name']}: {a['description']}")
        _print_params(a["params"])
    return 0


def _print_params(params: list[dict[str, object]]) -> None:
    for p in params:
        print(f"    {p['name']} = {_toml_value(p['default'])}  ({p['range']}) {p['description']}")
        print(f"        default from: {p['source']}")
    if not params:
        print("    (no parameters)")


def _list_queues(as_json: bool) -> int:
    listing = api.queues()
    if as_json:
        print(json.dumps(listing, indent=2))
        return 0
    print("queue disciplines (queue = NAME, queue_params = { ... }):")
    for q in listing["disciplines"]:
        print(f"{q['name']}: {q['description']}")
        print(f"    defined by: {q['source']}")
        _print_params(q["params"])
    print()
    print("link capacities (one of these keys per direction):")
    for c in listing["capacities"]:
        print(f"{c['key']} ({c['name']}): {c['description']}")
        print(f"    defined by: {c['source']}")
    return 0


def _list_scenarios(as_json: bool) -> int:
    """Absolute paths, so that a line can be handed to `delaycc run` from any directory."""
    files = [str(p) for p in sorted(scenarios_dir().rglob("*.toml"))]
    print(json.dumps(files, indent=2) if as_json else "\n".join(files))
    return 0


def add_parser(sub: Subparsers) -> None:
    ls = sub.add_parser(
        "list",
        help="list algorithms or queue disciplines with their parameters, or the scenario files that come "
        "with delaycc",
    )
    ls.add_argument("what", choices=["algorithms", "queues", "scenarios"])
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=cmd_list)
