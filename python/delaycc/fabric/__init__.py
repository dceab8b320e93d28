"""Datacenter fabrics as scenario files: k-ary fat trees and leaf-spines (``topology``), the flows that
run on them (``workloads``: incast, permutation, sizes from a CDF at a load) and the TOML they become
(``scenario``). ``delaycc fabric`` is the command; docs/fabrics.md says what each choice means."""

from __future__ import annotations

from .errors import FabricError
from .scenario import FabricOptions, write_scenario
from .topology import Topology, fat_tree, leaf_spine
from .workloads import Cdf, FabricFlow, cdf_flows, incast, permutation, read_cdf

__all__ = [
    "Cdf",
    "FabricError",
    "FabricFlow",
    "FabricOptions",
    "Topology",
    "cdf_flows",
    "fat_tree",
    "incast",
    "leaf_spine",
    "permutation",
    "read_cdf",
    "write_scenario",
]
