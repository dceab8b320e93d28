"""Reading a scenario file for emulation: the simulator validates it first (same errors, same rules),
then this keeps what a namespace network can build and refuses, by key, what it cannot."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .. import api
from ..kernel.algorithms import KERNEL_ALGORITHMS, KERNEL_BEHAVIOUR, default_params
from ..units import duration_s, rate_bps, size_bytes
from .errors import EmulationUnsupported
from .model import Direction, Flow, Link, Scenario

MIN_SAMPLE_INTERVAL_S = 0.05
"""Sampling every process each 50 ms keeps the harness's own CPU use small next to the delay line."""

MAX_PACKET_SIZE = 9000
MIN_PACKET_SIZE = 256

# [transport] keys whose simulator defaults are what the kernel does anyway (docs/scenario-format.md).
_TRANSPORT_DEFAULTS: dict[str, object] = {
    "min_rto": 0.2,
    "dupack_threshold": 3,
    # The emulation sets net.ipv4.tcp_ecn = 0 (emulate/network.py).
    "ecn": False,
}


# Queue disciplines other than the FIFO and varying capacities: netem's delay line has neither (a qdisc or
# a trace player in the emulation is future work, docs/kernel.md).
_MANAGED_LINK_KEYS = (
    "queue",
    "queue_params",
    "reverse_queue",
    "reverse_queue_params",
    "bandwidth_trace",
    "reverse_bandwidth_trace",
    "bandwidth_states",
    "reverse_bandwidth_states",
)


def _refuse_keys(table: dict[str, Any], where: str, keys: tuple[str, ...], problems: list[str]) -> None:
    for k in keys:
        if k in table:
            problems.append(f"{where}.{k}: not supported by the emulation")


def _direction(link: dict[str, Any], index: int, link_id: str, forward: bool, packet_size: int) -> Direction:
    def pick(key: str) -> Any:
        return link.get(f"reverse_{key}", link.get(key)) if not forward else link.get(key)

    buffer_bytes = pick("buffer_bytes")
    buffer = pick("buffer")
    return Direction(
        link=index,
        link_id=link_id,
        a=link["a"] if forward else link["b"],
        b=link["b"] if forward else link["a"],
        bandwidth_bps=rate_bps(pick("bandwidth")),
        delay_s=duration_s(pick("delay")),
        buffer_pkts=None if buffer_bytes is not None else int(buffer if buffer is not None else 1000),
        buffer_bytes=int(size_bytes(buffer_bytes)) if buffer_bytes is not None else None,
        forward=forward,
    )


def _transport(doc: dict[str, Any], problems: list[str]) -> tuple[int, bool]:
    if doc.get("profile", "ns2") != "linux":
        problems.append(
            "profile: the emulation runs Linux's own TCP; set profile = \"linux\" so that the simulator's "
            "transport is Linux's too"
        )
    t = doc.get("transport", {})
    for key, value in t.items():
        if key in ("initial_window", "delayed_ack", "delayed_ack_timeout", "receiver_window"):
            continue
        if key in _TRANSPORT_DEFAULTS and _TRANSPORT_DEFAULTS[key] in (value, duration_s(value)):
            continue
        problems.append(f"transport.{key}: only the kernel's own value is supported by the emulation")
    # The simulator's resolved values (the profile's defaults and any override), which the kernel is given.
    resolved = api.transports(doc)
    first = resolved[0] if resolved else {"initial_window": 10, "delayed_ack": False}
    return int(first["initial_window"]), bool(first["delayed_ack"])


def _flows(doc: dict[str, Any], duration: float, problems: list[str]) -> list[Flow]:
    flows: list[Flow] = []
    for i, f in enumerate(doc.get("flows", [])):
        where = f"flows[{i}]"
        _refuse_keys(f, where, ("bytes", "path", "reverse_path", "transport"), problems)
        if int(f.get("streams", 1)) != 1:
            problems.append(f"{where}.streams: multistream connections are not supported by the emulation")
        alg = f["algorithm"]
        if alg not in KERNEL_ALGORITHMS:
            problems.append(
                f"{where}.algorithm: {alg!r} has no kernel version ({', '.join(KERNEL_ALGORITHMS)})"
            )
            continue
        params = dict(f.get("params", {}))
        kalg = KERNEL_ALGORITHMS[alg]
        ignored = [k for k in kalg.unsupported if k in params and params[k] != default_params(alg).get(k)]
        if ignored:
            problems.append(
                f"{where}.params: {', '.join(ignored)}: the kernel version of {alg} does not implement it"
            )
        for key, only in kalg.required:
            if params.get(key, default_params(alg).get(key)) != only:
                problems.append(
                    f"{where}.params.{key}: the kernel version of {alg} runs only {key} = {only!r}; set it, "
                    "so that the simulator runs the same algorithm"
                )
        if not kalg.is_bpf:
            kernel = KERNEL_BEHAVIOUR.get(alg, {})
            changed = [k for k, v in params.items() if kernel.get(k, default_params(alg).get(k)) != v]
            if changed:
                problems.append(
                    f"{where}.params: {', '.join(changed)}: the kernel's built-in {alg} cannot change them"
                    + (f" (its own values: {kernel})" if kernel else "")
                )
        flows.append(
            Flow(
                index=i,
                id=str(f.get("id", f"f{i + 1}")),
                algorithm=alg,
                src=f["src"],
                dst=f["dst"],
                start_s=duration_s(f.get("start", 0)),
                stop_s=min(duration_s(f["stop"]), duration) if "stop" in f else duration,
                params={**default_params(alg), **params},
            )
        )
    by_alg: dict[str, dict[str, Any]] = {}
    for fl in flows:
        if KERNEL_ALGORITHMS[fl.algorithm].is_bpf and by_alg.setdefault(fl.algorithm, fl.params) != fl.params:
            problems.append(
                f"flows[{fl.index}].params: every {fl.algorithm} flow must use the same parameters "
                "(a registered kernel algorithm has one parameter set)"
            )
    return flows


def load(path: str | Path) -> Scenario:
    """Validates (ScenarioError as `delaycc run`) and reads a scenario for emulation (EmulationUnsupported
    lists every feature the emulation cannot build)."""
    api.validate(str(path))
    text = Path(path).read_text(encoding="utf-8-sig")
    doc = tomllib.loads(text)
    problems: list[str] = []
    _refuse_keys(doc, "scenario", ("traffic", "events"), problems)
    duration = duration_s(doc["duration"])
    packet_size = int(size_bytes(doc.get("packet_size", 1000)))
    if not MIN_PACKET_SIZE <= packet_size <= MAX_PACKET_SIZE:
        problems.append(
            f"packet_size: the emulation needs {MIN_PACKET_SIZE} to {MAX_PACKET_SIZE} bytes (the MTU)"
        )
    if int(doc.get("ack_size", 40)) != 40 or int(doc.get("header_size", 40)) != 40:
        problems.append("ack_size/header_size: the kernel's headers are what they are; leave the defaults")
    links: list[Link] = []
    for i, raw in enumerate(doc.get("links", [])):
        where = f"links[{i}]"
        for key in ("loss", "reverse_loss"):
            if float(raw.get(key, 0.0)) != 0.0:
                problems.append(f"{where}.{key}: random loss is not supported by the emulation")
        _refuse_keys(raw, where, ("drop_packets", "reverse_drop_packets"), problems)
        managed = [k for k in _MANAGED_LINK_KEYS if k in raw]
        _refuse_keys(raw, where, _MANAGED_LINK_KEYS, problems)
        if managed:
            continue
        link_id = str(raw.get("id", f"{raw['a']}-{raw['b']}"))
        fwd = _direction(raw, i, link_id, True, packet_size)
        rev = _direction(raw, i, link_id, False, packet_size)
        links.append(Link(i, link_id, raw["a"], raw["b"], fwd, rev))
    initial_window, delayed_ack = _transport(doc, problems)
    flows = _flows(doc, duration, problems)
    if problems:
        raise EmulationUnsupported([f"{path}: {p}" for p in problems])
    nodes = tuple(dict.fromkeys(n for link in links for n in (link.a, link.b)))
    interval = duration_s(doc["sample_interval"]) if "sample_interval" in doc else max(duration / 2000, 1e-3)
    return Scenario(
        name=str(doc["name"]),
        seed=int(doc.get("seed", 1)),
        duration_s=duration,
        packet_size=packet_size,
        sample_interval_s=max(interval, MIN_SAMPLE_INTERVAL_S),
        initial_window=initial_window,
        delayed_ack=delayed_ack,
        nodes=nodes,
        links=tuple(links),
        flows=tuple(flows),
        source=str(path),
    )
