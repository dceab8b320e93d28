"""`delaycc fabric fat-tree|leaf-spine ... --out FILE`: a datacenter fabric and a workload as a scenario
file (docs/fabrics.md). Bad input is one line naming the option, exit status 2."""

from __future__ import annotations

import argparse
import random
import shlex
import sys
from pathlib import Path

from ..fabric import FabricError, FabricOptions, Topology, fat_tree, leaf_spine, write_scenario
from ..fabric.workloads import FabricFlow, cdf_flows, incast, permutation, read_cdf
from ..packaged import scenarios_dir
from ..units import duration_s, rate_bps, size_bytes
from .common import EXIT_INVALID, Subparsers

SHIPPED_CDFS = ("websearch", "datamining")


def _params(items: list[str]) -> dict[str, str | float]:
    out: dict[str, str | float] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise FabricError("--param", f"expected NAME=VALUE, not {item!r}")
        try:
            out[name] = int(text)
        except ValueError:
            try:
                out[name] = float(text)
            except ValueError:
                out[name] = text
    return out


def _bytes(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        n = size_bytes(text)
    except ValueError as e:
        raise FabricError("--bytes", str(e)) from None
    if n < 1 or n != int(n):
        raise FabricError("--bytes", f"must be a whole number of bytes, at least 1, not {text}")
    return int(n)


def _cdf_path(text: str) -> Path:
    return scenarios_dir() / "fabric" / "cdf" / f"{text}.cdf" if text in SHIPPED_CDFS else Path(text)


def _flows(args: argparse.Namespace, topo: Topology, rng: random.Random) -> list[FabricFlow]:
    size = _bytes(args.bytes)
    if args.workload == "incast":
        return incast(topo.hosts, args.senders, size, receiver=args.receiver)
    if args.workload == "permutation":
        return permutation(topo.hosts, size, rng)
    if args.cdf is None:
        raise FabricError("--cdf", "the cdf workload needs a CDF file (or 'websearch', 'datamining')")
    cdf = read_cdf(_cdf_path(args.cdf))
    until_ns = round(duration_s(args.duration) * 1e9)
    return cdf_flows(topo.hosts, cdf, args.load, rate_bps(args.rate), args.flows, until_ns, rng)


def _command(args: argparse.Namespace) -> str:
    """The options that made the file, for its first line."""
    shape = (
        ["--k", args.k]
        if args.topology == "fat-tree"
        else ["--leaves", args.leaves, "--spines", args.spines, "--hosts-per-leaf", args.hosts_per_leaf]
    )
    words: list[object] = [args.topology, *shape, "--workload", args.workload, "--algorithm", args.algorithm]
    words += ["--rate", args.rate, "--delay", args.delay, "--buffer", args.buffer, "--seed", args.seed]
    words += ["--duration", args.duration, "--packet-size", args.packet_size]
    if args.bytes is not None:
        words += ["--bytes", args.bytes]
    if args.workload == "incast":
        words += ["--senders", args.senders, "--receiver", args.receiver]
    if args.workload == "cdf":
        words += ["--cdf", args.cdf, "--load", args.load, "--flows", args.flows]
    for item in args.param:
        words += ["--param", item]
    return " ".join(shlex.quote(str(w)) for w in words)


def cmd_fabric(args: argparse.Namespace) -> int:
    try:
        if args.topology == "fat-tree":
            topo = fat_tree(args.k)
            shape = f"k{args.k}"
        else:
            topo = leaf_spine(args.leaves, args.spines, args.hosts_per_leaf)
            shape = f"{args.leaves}x{args.spines}x{args.hosts_per_leaf}"
        if args.workload == "incast" and not 0 <= args.receiver < len(topo.hosts):
            raise FabricError("--receiver", f"must be a host number 0 to {len(topo.hosts) - 1}")
        flows = _flows(args, topo, random.Random(args.seed))
        opts = FabricOptions(
            name=args.name or f"{topo.kind}-{shape}-{args.workload}-{args.algorithm}",
            algorithm=args.algorithm,
            rate=args.rate,
            delay=args.delay,
            buffer=args.buffer,
            packet_size=args.packet_size,
            duration=args.duration,
            seed=args.seed,
            routing=args.routing,
            min_rto=args.min_rto,
            params=_params(args.param),
        )
        write_scenario(Path(args.out), topo, flows, opts, _command(args))
    except FabricError as e:
        print(f"delaycc fabric: {e}", file=sys.stderr)
        return EXIT_INVALID
    if not args.quiet:
        print(f"{args.out}: {len(topo.hosts)} hosts, {len(topo.links)} links, {len(flows)} flows")
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, help="the scenario file to write")
    p.add_argument("--workload", choices=("incast", "permutation", "cdf"), default="permutation")
    p.add_argument("--algorithm", default="newreno", help="every flow's algorithm (delaycc list algorithms)")
    p.add_argument("--param", action="append", default=[], metavar="N=V", help="algorithm parameter")
    p.add_argument("--rate", default="100Gbps", help="every link's rate (default 100Gbps)")
    p.add_argument("--delay", default="1us", help="every link's one-way delay (default 1us)")
    p.add_argument("--buffer", type=int, default=100, help="buffer per direction, packets (default 100)")
    p.add_argument("--packet-size", type=int, default=1500, help="wire bytes per packet (default 1500)")
    p.add_argument("--duration", default="5ms", help="simulated time (default 5ms)")
    p.add_argument("--seed", type=int, default=1, help="the scenario's seed: workload and ECMP hashes")
    p.add_argument("--routing", default="ecmp", help="'ecmp' (default) or 'shortest'")
    p.add_argument("--min-rto", default="1ms", help="minimum and initial RTO (default 1ms)")
    p.add_argument("--bytes", help="size of each incast or permutation flow (default: unlimited)")
    p.add_argument("--senders", type=int, default=8, help="incast: number of senders (default 8)")
    p.add_argument("--receiver", type=int, default=0, help="incast: the receiving host's number (default 0)")
    p.add_argument("--cdf", help="cdf: a .cdf file, or 'websearch' or 'datamining' (shipped)")
    p.add_argument("--load", type=float, default=0.5, help="cdf: offered load of host links (default 0.5)")
    p.add_argument("--flows", type=int, default=100, help="cdf: number of flows at most (default 100)")
    p.add_argument("--name", help="the scenario's name (default from the options)")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_fabric)


def add_parser(sub: Subparsers) -> None:
    f = sub.add_parser("fabric", help="write a fat-tree or leaf-spine scenario with a workload")
    kinds = f.add_subparsers(dest="topology", required=True)
    ft = kinds.add_parser("fat-tree", help="k-ary fat tree: k pods, (k/2)^2 cores, k^3/4 hosts")
    ft.add_argument("--k", type=int, required=True, help="switch radix, even")
    _common(ft)
    ls = kinds.add_parser("leaf-spine", help="every leaf linked to every spine")
    ls.add_argument("--leaves", type=int, required=True)
    ls.add_argument("--spines", type=int, required=True)
    ls.add_argument("--hosts-per-leaf", type=int, required=True)
    _common(ls)
