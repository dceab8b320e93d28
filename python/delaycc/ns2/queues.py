"""A link direction's queue discipline and capacity for ns-2: drop-tail as ns-2's DropTail, RED as its
Queue/RED with the same settings; anything else is refused by key (docs/crosscheck.md).

delaycc's RED is ns-2.35's (crates/sim/src/net/queue/red.rs), with ns-2's parameter names in snake case
and ``max_p`` for ``1 / linterm_``; automatic values (0 and -1) are passed on as they are, so ns-2 computes
them from the link with the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import api
from ..units import duration_s
from .model import RedQueue

# delaycc's RED parameter -> ns-2's Queue/RED variable. max_p is ns-2's 1 / linterm_.
RED_VARS = {
    "min_th": "thresh_",
    "max_th": "maxthresh_",
    "q_weight": "q_weight_",
    "gentle": "gentle_",
    "wait": "wait_",
    "ecn": "setbit_",
    "use_mark_p": "use_mark_p_",
    "mark_p": "mark_p_",
    "bytes": "bytes_",
    "queue_in_bytes": "queue_in_bytes_",
    "mean_pktsize": "mean_pktsize_",
    "target_delay": "targetdelay_",
}
CAPACITY_KEYS = ("bandwidth_trace", "bandwidth_states")


@dataclass(frozen=True)
class QueueKey:
    """A direction's discipline as the scenario gives it, and the key that named it (for refusals)."""

    kind: str
    params: dict[str, Any]
    key: str  # "queue" or "reverse_queue" relative to the link, or "" when inherited from a->b


def queue_of(raw: dict[str, Any], forward: bool) -> QueueKey:
    """The discipline of one direction as delaycc reads it (scenario/parse/queue.rs): b->a takes a->b's
    unless it names its own discipline (``reverse_queue``) or parameters (``reverse_queue_params``, with
    a->b's discipline)."""
    fwd = QueueKey(str(raw.get("queue", "droptail")), dict(raw.get("queue_params", {})), "queue")
    if forward:
        return fwd
    if "reverse_queue" in raw:
        return QueueKey(str(raw["reverse_queue"]), dict(raw.get("reverse_queue_params", {})), "reverse_queue")
    if "reverse_queue_params" in raw:
        return QueueKey(fwd.kind, dict(raw["reverse_queue_params"]), "reverse_queue_params")
    return QueueKey(fwd.kind, fwd.params, "")


def capacity_keys(raw: dict[str, Any], forward: bool) -> list[str]:
    """The keys that give this direction a varying capacity, which ns-2's links cannot follow. A b->a
    that inherits a->b's is refused with a->b's key."""
    prefix = "" if forward else "reverse_"
    return [prefix + k for k in CAPACITY_KEYS if prefix + k in raw]


def _red_defaults() -> dict[str, dict[str, Any]]:
    for q in api.queues()["disciplines"]:
        if q["name"] == "red":
            return {p["name"]: p for p in q["params"]}
    raise RuntimeError("the simulator has no red discipline")


def red_settings(given: dict[str, Any]) -> dict[str, Any]:
    """Every RED parameter, the scenario's value or delaycc's default (ns-2.35's), durations in seconds."""
    specs = _red_defaults()
    out: dict[str, Any] = {}
    for name, spec in specs.items():
        value = given.get(name, spec["default"])
        if spec["kind"] == "duration" and not isinstance(value, int | float):
            value = duration_s(value)
        out[name] = value
    return out


def red_queue(
    given: dict[str, Any],
    buffer_pkts: int | None,
    buffer_bytes: int | None,
    packet_size: int,
) -> tuple[RedQueue | None, str]:
    """Queue/RED's variables and queue limit for these settings, or None and why ns-2 cannot hold the
    same buffer. ns-2's RED drops an arrival when the queue it finds has reached the limit (red.cc
    ``qlen >= qlim``: the packet being sent is not in it), so a limit of B holds B waiting packets, as
    delaycc's buffer does; in byte mode the limit is ``limit_ x mean_pktsize_`` bytes."""
    s = red_settings(given)
    tcl_vars: list[tuple[str, float | bool]] = [
        (RED_VARS[k], v if isinstance(v, bool) else float(v)) for k, v in s.items() if k in RED_VARS
    ]
    tcl_vars.append(("linterm_", 1.0 / float(s["max_p"])))
    # delaycc's buffer in packets of the scenario's size (its byte buffer holds whole packets of it).
    held = buffer_pkts if buffer_pkts is not None else (buffer_bytes or 0) // packet_size
    if not s["queue_in_bytes"]:
        if buffer_bytes is not None:
            return None, "ns-2's RED with queue_in_bytes = false limits packets; give buffer in packets"
        return RedQueue(tuple(tcl_vars), held), ""
    mean = int(s["mean_pktsize"])
    # The largest multiple of mean_pktsize that holds `held` packets of packet_size and not one more.
    limit = held * packet_size // mean
    if held < 1 or -(-limit * mean // packet_size) != held:
        return None, (
            f"ns-2's byte-mode RED limits the queue to a multiple of mean_pktsize ({mean} bytes); none holds "
            f"exactly {held} packets of {packet_size} bytes"
        )
    return RedQueue(tuple(tcl_vars), limit, limit * mean), ""
