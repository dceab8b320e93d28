"""Which delaycc algorithms run in the kernel, under which kernel name, and how their parameters are laid
out in the BPF object's parameter section.

Parameter names, defaults, ranges, descriptions and sources are the simulator's (`delaycc list
algorithms`); what is declared here is only what the kernel adds: which parameters a BPF algorithm
implements, in which order, and how each is scaled to a 32-bit integer ("milli" = value x 1000, "us" =
seconds x 10^6, "q20" = value x 2^20, a choice by its index). kernel/bpf/dcc_params.h, the C side of
these layouts, is generated from both (`make -C kernel params`, params_header.py).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from .errors import KernelError

SCALES = {"milli": 1000.0, "us": 1e6, "q20": float(1 << 20), "int": 1.0}


@dataclass(frozen=True)
class Field:
    """One simulator parameter as a u32 of a BPF parameter struct."""

    name: str
    kind: str  # milli | us | q20 | bool | int | choice
    # The kernel's integer for each value is its index here (the BPF code tests it as a flag).
    choices: tuple[str, ...] = ()
    # The C member's name when it is not the parameter's name (with "_<kind>" for milli, us and q20).
    c_name: str = ""

    @property
    def c_member(self) -> str:
        if self.c_name:
            return self.c_name
        return f"{self.name}_{self.kind}" if self.kind in ("milli", "us", "q20") else self.name

    def encode(self, value: Any) -> int:
        if self.kind == "bool":
            return 1 if value else 0
        if self.kind == "choice":
            return self.choices.index(str(value))
        n = round(float(value) * SCALES[self.kind])
        if not 0 <= n < 2**32:
            raise KernelError(f"parameter {self.name} = {value} does not fit the kernel's 32-bit field")
        return n

    def decode(self, raw: int) -> Any:
        if self.kind == "bool":
            return bool(raw)
        if self.kind == "choice":
            return self.choices[raw] if raw < len(self.choices) else raw
        return raw / SCALES[self.kind] if self.kind != "int" else raw


@dataclass(frozen=True)
class FieldGroup:
    """Fields the BPF code declares as one struct of their own (struct dcc_<name>_params, initialised by
    DCC_<NAME>_DEFAULTS) so that several algorithms embed it: FAST's, first in VFAST's and RRFast's. The
    name is also the simulator algorithm whose registry entry describes the fields."""

    name: str
    fields: tuple[Field, ...]


FAST_GROUP = FieldGroup(
    "fast",
    (
        Field("alpha", "milli"),
        Field("gamma", "milli"),
        Field("update_every_other_rtt", "bool", c_name="every_other"),
        Field("min_update_interval", "us"),
        Field("spread_increase", "bool", c_name="spread"),
        Field("mi_threshold", "us"),
        Field("mi_reentry", "bool"),
        Field("cap_2w", "bool"),
        Field("avg_rtt_max_weight", "q20", c_name="max_weight_q20"),
    ),
)


@dataclass(frozen=True)
class KernelAlgorithm:
    """A delaycc algorithm as the kernel knows it."""

    name: str
    kernel_name: str
    bpf_object: str | None  # file in kernel/build; None: built into the kernel
    # The parameter section: these groups' fields (each as one struct member), then these fields.
    own_fields: tuple[Field, ...] = ()
    # Simulator parameters the BPF version does not implement: a scenario must leave them at their
    # defaults (the emulation refuses anything else).
    unsupported: tuple[str, ...] = ()
    # Simulator parameters the BPF version implements at one value only, which may not be the simulator's
    # default: a scenario must set them to it, so that both sides run the same algorithm.
    required: tuple[tuple[str, Any], ...] = ()
    groups: tuple[FieldGroup, ...] = ()

    @property
    def is_bpf(self) -> bool:
        return self.bpf_object is not None

    @property
    def fields(self) -> tuple[Field, ...]:
        """Every field of the parameter section, in order."""
        return (*(f for g in self.groups for f in g.fields), *self.own_fields)

    def encode(self, params: dict[str, Any]) -> bytes:
        """The parameter section's bytes (little-endian u32s) for resolved parameters."""
        missing = [f.name for f in self.fields if f.name not in params]
        if missing:
            raise KernelError(f"{self.name}: no value for {', '.join(missing)}")
        return struct.pack(f"<{len(self.fields)}I", *(f.encode(params[f.name]) for f in self.fields))

    def decode(self, raw: bytes) -> dict[str, Any]:
        values = struct.unpack_from(f"<{len(self.fields)}I", raw)
        return {f.name: f.decode(v) for f, v in zip(self.fields, values, strict=True)}


# The simulator's FAST paces at cwnd/avgRTT when asked; the BPF versions leave pacing to the kernel's
# own settings (docs/kernel.md).
FAST_UNSUPPORTED = ("pacing", "beta", "window_arithmetic")
# The BPF FAST updates once per (other) round (docs/kernel.md); the ns-2 module's cadence is the simulator's.
FAST_REQUIRED: tuple[tuple[str, Any], ...] = (("cadence", "round"),)


KERNEL_ALGORITHMS: dict[str, KernelAlgorithm] = {
    a.name: a
    for a in (
        KernelAlgorithm(
            "vegas",
            "dcc_vegas",
            "vegas.bpf.o",
            (
                Field("alpha", "milli"),
                Field("beta", "milli"),
                Field("gamma", "milli"),
                Field("rtt_statistic", "choice", ("min", "mean"), c_name="use_mean"),
                Field("loss_reduction", "milli"),
            ),
            # The BPF Vegas keeps one set of rules (docs/kernel.md), not the simulator's two flavours.
            ("flavour",),
        ),
        KernelAlgorithm(
            "fast", "dcc_fast", "fast.bpf.o", (), FAST_UNSUPPORTED, FAST_REQUIRED, groups=(FAST_GROUP,)
        ),
        KernelAlgorithm(
            "vfast",
            "dcc_vfast",
            "vfast.bpf.o",
            (
                Field("psi_up", "milli"),
                Field("psi_down", "milli"),
                Field("filter", "choice", ("per-update", "per-ack"), c_name="per_ack"),
            ),
            FAST_UNSUPPORTED,
            FAST_REQUIRED,
            groups=(FAST_GROUP,),
        ),
        KernelAlgorithm(
            "rrfast",
            "dcc_rrfast",
            "rrfast.bpf.o",
            (
                Field("probe_updates", "int"),
                Field("probe_max_updates", "int"),
                Field("min_cut", "milli"),
                Field("rtt_drop_rel", "milli"),
                Field("rtt_drop_abs", "us"),
            ),
            FAST_UNSUPPORTED,
            FAST_REQUIRED,
            groups=(FAST_GROUP,),
        ),
        # Built into Linux; loss recovery is the kernel's (SACK, RACK, PRR) whatever the algorithm.
        KernelAlgorithm("reno", "reno", None),
        KernelAlgorithm("newreno", "reno", None),
        KernelAlgorithm("cubic", "cubic", None),
        KernelAlgorithm("bbr", "bbr", None),
    )
}


KERNEL_BEHAVIOUR: dict[str, dict[str, Any]] = {
    # Linux tcp_cubic.c: beta 717/1024, bic_scale 41 (C = 0.4), fast_convergence, tcp_friendliness and
    # hystart all on. The simulator's closest setting therefore has hystart = true (its default is off).
    "cubic": {"c": 0.4, "beta": 0.7, "fast_convergence": True, "reno_friendly": True, "hystart": True},
}
"""What a built-in kernel algorithm does, in the simulator's parameter names: a scenario may set these
values (to make the simulator match the kernel) but no others."""


def kernel_algorithm(name: str) -> KernelAlgorithm:
    try:
        return KERNEL_ALGORITHMS[name]
    except KeyError:
        known = ", ".join(KERNEL_ALGORITHMS)
        raise KernelError(f"algorithm {name!r} has no kernel version (kernel algorithms: {known})") from None


def default_params(name: str) -> dict[str, Any]:
    """The simulator's defaults for an algorithm's parameters (empty for kernel built-ins it lacks)."""
    from .. import api

    for a in api.algorithms():
        if a["name"] == name:
            return {p["name"]: p["default"] for p in a["params"]}
    return {}
