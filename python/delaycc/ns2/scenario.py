"""Reading a scenario for ns-2: the simulator validates it first (same errors, same rules), then this keeps
what an ns-2 script can express and refuses, by key, what it cannot (Ns2Unsupported, one line each)."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import api
from ..units import duration_s, rate_bps, size_bytes
from . import queues
from .agents import AGENT_CHOICES, AGENTS, SACK_AGENT
from .errors import Ns2Unsupported
from .model import Direction, Flow, LinkChange, RedQueue, Reroute, Scenario, Traffic, Transport
from .routes import hops, least_delay


def _param_defaults() -> dict[str, dict[str, Any]]:
    return {a["name"]: {p["name"]: p["default"] for p in a["params"]} for a in api.algorithms()}


def _param_types() -> dict[str, dict[str, str]]:
    return {a["name"]: {p["name"]: str(p.get("range", "")) for p in a["params"]} for a in api.algorithms()}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(float(a) - float(b)) <= 1e-12 * max(1.0, abs(float(a)))
    return bool(a == b)


MAX_VEGAS_WINDOW = 1_000_000
NO_AGENT = {
    "": f"'{{alg}}' has no ns-2 agent (ns-2 runs {', '.join(sorted(AGENTS))})",
    # ns-2's Agent/SCTP exists, but its receiver hands data to no application (PassToUpperLayer only
    # reopens the receive window) and keeps no count of it, so its goodput cannot be read back.
    "sctp": "ns-2's Agent/SCTP counts no data delivered at its receiver, so its goodput cannot be read back "
    f"(ns-2 runs {', '.join(sorted(AGENTS))})",
}


class _Reader:
    def __init__(self, doc: dict[str, Any], path: str, agents: Mapping[str, str]) -> None:
        self.doc = doc
        self.path = path
        self.agent_overrides = dict(agents)
        self.problems: list[str] = []
        self.differences: list[str] = []
        self.defaults = _param_defaults()
        self.types = _param_types()

    def refuse(self, key: str, reason: str) -> None:
        line = f"{self.path}: {key}: {reason}"
        if line not in self.problems:  # b->a inheriting a->b's setting repeats a->b's refusal
            self.problems.append(line)

    # --- links -------------------------------------------------------------------------------------------
    def directions(self) -> list[Direction]:
        out: list[Direction] = []
        for index, raw in enumerate(self.doc.get("links", [])):
            link_id = str(raw.get("id", f"{raw['a']}-{raw['b']}"))
            for forward in (True, False):

                def pick(key: str, raw: dict[str, Any] = raw, forward: bool = forward) -> Any:
                    return raw.get(key) if forward else raw.get(f"reverse_{key}", raw.get(key))

                buffer_bytes = pick("buffer_bytes")
                buffer = pick("buffer")
                if buffer_bytes is not None and not forward and "reverse_buffer" in raw:
                    buffer_bytes = None
                if buffer is not None and not forward and "reverse_buffer_bytes" in raw:
                    buffer = None
                loss = raw.get("loss", 0.0) if forward else raw.get("reverse_loss", 0.0)
                drops = raw.get("drop_packets", []) if forward else raw.get("reverse_drop_packets", [])
                varying = queues.capacity_keys(raw, forward)
                for key in varying:
                    self.refuse(
                        f"links[{index}].{key}",
                        "ns-2's links send at a fixed rate (a bandwidth event changes it at a time); a "
                        "varying capacity has no counterpart",
                    )
                pkts = None if buffer_bytes is not None else int(1000 if buffer is None else buffer)
                nbytes = int(size_bytes(buffer_bytes)) if buffer_bytes is not None else None
                label = "a->b" if forward else "b->a"
                red = self.red(raw, index, link_id, label, queues.queue_of(raw, forward), pkts, nbytes)
                out.append(
                    Direction(
                        link_index=index,
                        link_id=link_id,
                        label=label,
                        a=raw["a"] if forward else raw["b"],
                        b=raw["b"] if forward else raw["a"],
                        # A refused varying capacity has no rate; the run stops at the refusal.
                        bandwidth_bps=rate_bps(pick("bandwidth")) if pick("bandwidth") is not None else 0.0,
                        delay_s=duration_s(pick("delay")),
                        buffer_pkts=pkts,
                        buffer_bytes=nbytes,
                        loss=float(loss),
                        drop_seqs=tuple((str(d["flow"]), int(d["seq"])) for d in drops),
                        red=red,
                    )
                )
        return out

    def red(
        self,
        raw: dict[str, Any],
        index: int,
        link_id: str,
        label: str,
        q: queues.QueueKey,
        pkts: int | None,
        nbytes: int | None,
    ) -> RedQueue | None:
        """The direction's RED queue for ns-2; None for drop-tail. Any other discipline is refused on the
        key that names it (a b->a that inherits it is refused once, on a->b's)."""
        if q.kind == "droptail":
            return None
        if q.kind != "red":
            if q.key:
                self.refuse(
                    f"links[{index}].{q.key}",
                    f"ns-2's referee translates only droptail and red queues, not '{q.kind}'",
                )
            return None
        size = int(size_bytes(self.doc.get("packet_size", 1000)))
        red, why = queues.red_queue(q.params, pkts, nbytes, size)
        if red is None:
            # The key that gave this direction its buffer: its own, a->b's (inherited), or none (default).
            prefixes = ("",) if label == "a->b" else ("reverse_", "")
            given = [p + k for p in prefixes for k in ("buffer", "buffer_bytes") if p + k in raw]
            self.refuse(f"links[{index}].{given[0] if given else 'buffer'}", why)
        elif red.limit_bytes is not None:
            held = pkts if pkts is not None else (nbytes or 0) // size
            self.differences.append(
                f"{link_id} {label}: ns-2's byte-mode RED holds {red.limit_bytes} bytes (limit_ x "
                f"mean_pktsize_), delaycc {held} packets: the same buffer for packets of {size} bytes only"
            )
        return red

    # --- flows -------------------------------------------------------------------------------------------
    def transport(self, where: str, agent: str, t: dict[str, Any]) -> Transport:
        """The flow's transport as delaycc resolved it (`api.transports`), checked against what ns-2's
        agent can express."""
        if t["rto"] != "ns2":
            self.refuse(
                f"{where}.transport.rto",
                'ns-2\'s agents time retransmissions only as ns-2 does (rto = "ns2")',
            )
        if t["recover_guard"] != "ns2":
            self.refuse(
                f"{where}.transport.recover_guard", "ns-2's agents guard fast retransmit only as ns-2 does"
            )
        if t["recovery_maxburst"] != 2 and agent == "Newreno":
            self.refuse(
                f"{where}.transport.recovery_maxburst",
                "ns-2's Agent/TCP/Newreno sends at most 2 packets per ACK in recovery (2)",
            )
        if t["ecn"]:
            self.refuse(
                f"{where}.transport.ecn",
                "the translation does not carry ECN: ns-2's FAST agent never sends CWR, its Vegas agent "
                "no ECT, and ecn_ of its Reno agents is not translated (docs/queues.md#ecn)",
            )
        if t["sack"] and agent in ("Vegas", "Reno", "Newreno"):
            self.refuse(f"{where}.transport.sack", f"ns-2's Agent/TCP/{agent} has no SACK")
        if t["syn"] != (agent != "Vegas"):
            self.refuse(
                f"{where}.transport.syn",
                "ns-2's Agent/TCP/Vegas sends no SYN"
                if agent == "Vegas"
                else f"ns-2's Agent/TCP/{agent} always opens with a SYN (syn_) in these translations",
            )
        return Transport(
            initial_window=float(t["initial_window"]),
            min_rto_s=float(t["min_rto"]),
            max_rto_s=float(t["max_rto"]),
            initial_rto_s=float(t["initial_rto"]),
            delayed_ack=bool(t["delayed_ack"]),
            delayed_ack_timeout_s=float(t["delayed_ack_timeout"]),
            receiver_window=float(t["receiver_window"]),
            dupack_threshold=int(t["dupack_threshold"]),
            syn=bool(t["syn"]),
            rtt_tick_s=float(t["rtt_tick"]),
            limited_transmit=bool(t["limited_transmit"]),
            newreno_first_partial=t["newreno_timer"] == "FirstPartial",
            partial_ack=bool(t["partial_ack"]),
            sack=bool(t["sack"]),
        )

    def agent_vars(self, where: str, alg: str, given: dict[str, Any]) -> dict[str, float]:
        spec = AGENTS[alg]
        defaults = self.defaults[alg]
        values = {**defaults, **given}
        out: dict[str, float] = {}
        for name, value in values.items():
            if "duration" in self.types[alg].get(name, "") and not isinstance(value, int | float):
                value = duration_s(value)
            if name in spec.integer and not float(value).is_integer():
                self.refuse(
                    f"{where}.params.{name}",
                    f"ns-2's Agent/TCP/{spec.agent} holds it as an integer; {_show(value)} would be "
                    "truncated",
                )
            elif name in spec.tcl_vars:
                for var in spec.tcl_vars[name]:
                    out[var] = float(value)
            elif name in spec.choice_vars:
                var, choices = spec.choice_vars[name]
                out[var] = float(choices[str(value)])
            elif name in spec.explicit_vars:
                if name in given:
                    out[spec.explicit_vars[name]] = float(value)
            elif name in spec.built_in:
                module = spec.built_in[name]
                if _same(value, module):
                    continue
                if name in given:
                    self.refuse(
                        f"{where}.params.{name}",
                        f"ns-2's Agent/TCP/{spec.agent} has no such setting; it always behaves as {name} = "
                        f"{_show(module)}",
                    )
                else:
                    self.differences.append(
                        f"{alg}.{name}: delaycc's default {_show(value)}, ns-2's Agent/TCP/{spec.agent} "
                        f"always {_show(module)}"
                    )
            else:
                self.refuse(f"{where}.params.{name}", f"has no ns-2 counterpart in Agent/TCP/{spec.agent}")
        for name, var in spec.explicit_vars.items():
            if name not in given and defaults.get(name) is not None:
                self.differences.append(
                    f"{alg}.{name}: delaycc's default {_show(defaults[name])}; ns-2 keeps its own {var}"
                )
        return out

    def flows(self, nodes: list[str], directions: list[Direction], duration: float) -> list[Flow]:
        flows: list[Flow] = []
        resolved = api.transports(self.doc)
        for i, f in enumerate(self.doc.get("flows", [])):
            where = f"flows[{i}]"
            fid = str(f.get("id", f"f{i + 1}"))
            alg = str(f["algorithm"])
            if alg not in AGENTS:
                self.refuse(f"{where}.algorithm", NO_AGENT.get(alg, NO_AGENT[""]).format(alg=alg))
                continue
            if int(f.get("streams", 1)) != 1:
                self.refuse(f"{where}.streams", "ns-2's TCP agents carry one stream per connection")
                continue
            spec = AGENTS[alg]
            agent = spec.agent
            if resolved[i]["sack"] and agent in ("Newreno", "Reno"):
                agent = SACK_AGENT  # delaycc's Reno/NewReno with SACK recovers as ns-2's Sack1
            sink = "TCPSink/Sack1" if resolved[i]["sack"] else "TCPSink"
            override = self.agent_overrides.pop(fid, None)
            if override is not None:
                if override not in AGENT_CHOICES:
                    self.refuse(f"{where} (--ns2-agent {fid})", f"'{override}' is not one of {AGENT_CHOICES}")
                    continue
                agent = override
                sink = "TCPSink/Sack1" if override in (SACK_AGENT, "Fast") else "TCPSink"
            vars_ = (
                self.agent_vars(where, alg, dict(f.get("params", {})))
                if agent in (spec.agent, SACK_AGENT)
                else {}
            )
            if agent == SACK_AGENT and spec.agent == "Fast":
                vars_ = {}
            src, dst = str(f["src"]), str(f["dst"])
            path = tuple(f["path"]) if "path" in f else least_delay(nodes, directions, src, dst)
            rpath = tuple(f["reverse_path"]) if "reverse_path" in f else tuple(reversed(path))
            stop = min(duration_s(f["stop"]), duration) if "stop" in f else duration
            # Agent/TCP/Vegas builds its packets itself: packetSize_ bytes on the wire, no SYN, no header.
            # Every other agent adds the header to packetSize_ (the payload): the same packet either way.
            plain = agent == "Vegas"
            wire = int(size_bytes(self.doc.get("packet_size", 1000)))
            if override is not None and override != (SACK_AGENT if resolved[i]["sack"] else spec.agent):
                self.differences.append(
                    f"{fid}: ns-2 runs Agent/TCP/{override} (--ns2-agent), delaycc {alg} with sack = "
                    f"{_show(resolved[i]['sack'])}"
                )
            flows.append(
                Flow(
                    index=i,
                    id=fid,
                    algorithm=alg,
                    agent=agent,
                    sink=sink,
                    src=src,
                    dst=dst,
                    start_s=duration_s(f.get("start", 0)),
                    stop_s=stop,
                    bytes=int(size_bytes(f["bytes"])) if "bytes" in f else None,
                    path=path,
                    reverse_path=rpath,
                    wire_bytes=wire,
                    syn=not plain,
                    agent_vars=vars_,
                    transport=self.transport(where, agent if override is None else spec.agent, resolved[i]),
                )
            )
        for fid in self.agent_overrides:
            self.refuse(f"--ns2-agent {fid}", "no flow has this id")
        return flows

    def traffic(self, nodes: list[str], directions: list[Direction], duration: float) -> list[Traffic]:
        out: list[Traffic] = []
        for i, t in enumerate(self.doc.get("traffic", [])):
            kind = str(t["kind"])
            src, dst = str(t["src"]), str(t["dst"])
            out.append(
                Traffic(
                    index=i,
                    id=str(t.get("id", f"{kind}{i + 1}")),
                    kind=kind,
                    src=src,
                    dst=dst,
                    rate_bps=rate_bps(t["rate"]),
                    packet_size=int(size_bytes(t.get("packet_size", self.doc.get("packet_size", 1000)))),
                    start_s=duration_s(t.get("start", 0)),
                    stop_s=min(duration_s(t["stop"]), duration) if "stop" in t else duration,
                    path=tuple(t["path"]) if "path" in t else least_delay(nodes, directions, src, dst),
                    mean_on_s=duration_s(t["mean_on"]) if "mean_on" in t else 0.0,
                    mean_off_s=duration_s(t["mean_off"]) if "mean_off" in t else 0.0,
                )
            )
        return out

    def events(self, directions: list[Direction]) -> tuple[list[LinkChange], list[Reroute]]:
        changes: list[LinkChange] = []
        reroutes: list[Reroute] = []
        for index, e in enumerate(self.doc.get("events", [])):
            at = duration_s(e["at"])
            if e["kind"] == "reroute":
                reroutes.append(
                    Reroute(
                        index=index,
                        at_s=at,
                        flow=str(e["flow"]),
                        path=tuple(e["path"]) if "path" in e else None,
                        reverse_path=tuple(e["reverse_path"]) if "reverse_path" in e else None,
                    )
                )
                continue
            which = str(e.get("direction", "both"))
            dirs = tuple(
                d for d in directions if d.link_id == str(e["link"]) and (which == "both" or d.label == which)
            )
            changes.append(
                LinkChange(
                    at_s=at,
                    directions=dirs,
                    bandwidth_bps=rate_bps(e["bandwidth"]) if "bandwidth" in e else None,
                    delay_s=duration_s(e["delay"]) if "delay" in e else None,
                    loss=float(e["loss"]) if "loss" in e else None,
                    up=bool(e["up"]) if "up" in e else None,
                )
            )
        return changes, reroutes

    # --- checks across the whole scenario -----------------------------------------------------------------
    def check_drops(
        self, directions: list[Direction], flows: list[Flow], traffic: list[Traffic], reroutes: list[Reroute]
    ) -> None:
        """ns-2 drops "the n-th packet to cross" a link direction (ErrorModel/List): a flow's sequence number
        is that index only when nothing else crosses the direction."""
        for d in directions:
            if not d.drop_seqs:
                continue
            key = "drop_packets" if d.label == "a->b" else "reverse_drop_packets"
            where = f"links[{d.link_index}].{key}"
            owners = {fid for fid, _ in d.drop_seqs}
            if not owners <= {f.id for f in flows}:
                continue  # its flow is refused already; one line says why
            hop = (d.a, d.b)
            users: set[str] = set()
            for f in flows:
                if hop in hops(f.path):
                    users.add(f.id)
                if hop in hops(f.reverse_path):
                    users.add(f"{f.id} (ACKs)")
            for r in reroutes:
                for p in (r.path, r.reverse_path):
                    if p is not None and hop in hops(p):
                        users.add(f"{r.flow} (after a reroute)")
            for t in traffic:
                if hop in hops(t.path):
                    users.add(t.id)
            if len(owners) != 1 or users != owners:
                self.refuse(
                    where,
                    "ns-2 drops the n-th packet crossing a link direction; a flow's sequence number is that "
                    f"index only when that flow's data alone crosses it (here: {', '.join(sorted(users))})",
                )

    def check_routes(self, flows: list[Flow], traffic: list[Traffic], reroutes: list[Reroute]) -> None:
        """ns-2 forwards by destination: paths towards one node must agree on every node they share, at
        every moment of the run (a reroute installs its path for the destination, so it would move every
        other flow towards that destination with it)."""
        current: dict[str, tuple[str, str, tuple[str, ...]]] = {}
        for f in flows:
            current[f"{f.id} data"] = (f"flows[{f.index}].path", f.dst, f.path)
            current[f"{f.id} acks"] = (f"flows[{f.index}].reverse_path", f.src, f.reverse_path)
        for t in traffic:
            current[f"{t.id} data"] = (f"traffic[{t.index}].path", t.dst, t.path)
        ends = {f.id: (f.src, f.dst) for f in flows}
        self._conflicts(current)
        for r in sorted(reroutes, key=lambda r: r.at_s):
            k = r.index
            src, dst = ends[r.flow]
            # Re-inserted last, so that a conflict is reported against the reroute that makes it.
            if r.path is not None:
                current.pop(f"{r.flow} data")
                current[f"{r.flow} data"] = (f"events[{k}].path", dst, r.path)
            if r.reverse_path is not None:
                current.pop(f"{r.flow} acks")
                current[f"{r.flow} acks"] = (f"events[{k}].reverse_path", src, r.reverse_path)
            self._conflicts(current)

    def _conflicts(self, current: dict[str, tuple[str, str, tuple[str, ...]]]) -> None:
        nexthop: dict[tuple[str, str], tuple[str, str]] = {}
        for what, dst, path in current.values():
            for a, b in hops(path):
                seen = nexthop.setdefault((a, dst), (b, what))
                if seen[0] != b:
                    line = (
                        f"{self.path}: {what}: ns-2 routes by destination: at {a} towards {dst} this path "
                        f"goes to {b} but {seen[1]} to {seen[0]}"
                    )
                    if line not in self.problems:
                        self.problems.append(line)

    def check_sizes(self, directions: list[Direction], flows: list[Flow], traffic: list[Traffic]) -> None:
        largest = max([f.wire_bytes for f in flows] + [t.packet_size for t in traffic] + [0])
        for d in directions:
            if d.red is None and d.buffer_bytes is not None and d.buffer_bytes < largest:
                key = "buffer_bytes" if d.label == "a->b" else "reverse_buffer_bytes"
                self.refuse(
                    f"links[{d.link_index}].{key}",
                    f"ns-2's byte-mode DropTail drops every packet larger than the buffer even when the link "
                    f"is idle; give at least {largest} bytes",
                )
        for f in flows:
            t = f.transport
            if f.agent == "Vegas" and t is not None and t.receiver_window > MAX_VEGAS_WINDOW:
                self.refuse(
                    f"flows[{f.index}].transport.receiver_window",
                    f"ns-2's Agent/TCP/Vegas allocates two arrays of window_ entries; at most "
                    f"{MAX_VEGAS_WINDOW} packets",
                )


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return repr(v) if isinstance(v, str) else str(v)


def load(path: str | Path, agents: Mapping[str, str] | None = None) -> tuple[Scenario, list[str]]:
    """Validates (ScenarioError as `delaycc run`) and reads a scenario for ns-2. Returns the model and the
    known differences between delaycc's defaults and ns-2's agents; Ns2Unsupported lists every key ns-2
    cannot express. ``agents`` maps a flow id to an ns-2 agent class that replaces the default one."""
    api.validate(str(path))
    doc = tomllib.loads(Path(path).read_text(encoding="utf-8-sig"))
    return from_doc(doc, str(path), agents or {})


def from_doc(doc: dict[str, Any], path: str, agents: Mapping[str, str]) -> tuple[Scenario, list[str]]:
    """As `load`, for a scenario already validated and parsed (`path` is what messages name)."""
    r = _Reader(doc, path, agents)
    duration = duration_s(doc["duration"])
    nodes = list(dict.fromkeys(n for link in doc.get("links", []) for n in (link["a"], link["b"])))
    directions = r.directions()
    flows = r.flows(nodes, directions, duration)
    traffic = r.traffic(nodes, directions, duration)
    changes, reroutes = r.events(directions)
    r.check_drops(directions, flows, traffic, reroutes)
    r.check_routes(flows, traffic, reroutes)
    r.check_sizes(directions, flows, traffic)
    if not flows and not r.problems:
        r.refuse("flows", "ns-2 needs at least one TCP flow to compare")
    if r.problems:
        raise Ns2Unsupported(r.problems)
    interval = (
        duration_s(doc["sample_interval"])
        if "sample_interval" in doc
        else min(max(duration / 2000, 1e-3), duration)
    )
    # delaycc halves a series' resolution each time it would exceed max_samples (docs/scenario-format.md);
    # sampling ns-2 at the interval that leaves gives the same grid, with the same merged values.
    max_samples = int(doc.get("max_samples", 4000))
    while int(duration / interval + 1e-9) > max_samples:
        interval *= 2
    scenario = Scenario(
        name=str(doc["name"]),
        source=path,
        seed=int(doc.get("seed", 1)),
        duration_s=duration,
        sample_interval_s=interval,
        packet_size=int(size_bytes(doc.get("packet_size", 1000))),
        header_size=int(size_bytes(doc.get("header_size", 40))),
        ack_size=int(size_bytes(doc.get("ack_size", 40))),
        nodes=tuple(nodes),
        directions=tuple(directions),
        flows=tuple(flows),
        traffic=tuple(traffic),
        link_changes=tuple(changes),
        reroutes=tuple(reroutes),
    )
    return scenario, list(dict.fromkeys(r.differences))
