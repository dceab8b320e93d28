"""A scenario as an ns-2 Tcl script. Nodes, flows and link directions are numbered in the script (their
names never reach Tcl, so no id needs quoting); `harness.tcl` is appended for sampling and counters.

What each key becomes is listed in docs/crosscheck.md; in short: every link direction is an ns-2 simplex
link with a DropTail queue of `buffer + 1` (ns-2 counts the packet being sent, delaycc does not) or a
Queue/RED with the same settings (`queues.py`); each
flow's path is installed hop by hop as a route towards its destination (ns-2 forwards by destination);
Bernoulli loss and link-down periods are an ErrorModel after the link; deterministic drops an
ErrorModel/List at the link's head.
"""

from __future__ import annotations

from importlib.resources import files

from .agents import AT_START_VARS, MAX_TCL_INT
from .model import Direction, Flow, Scenario
from .routes import hops

MAX_NS2_SEED = 2**31 - 2


def default_drop_indices(s: Scenario, d: Direction) -> list[int]:
    """ErrorModel/List counts every packet entering the direction: with only the flow's data crossing it
    (scenario.py checks), data sequence k is packet k + 1 after the SYN (k for Vegas, which sends none)
    until the flow's first retransmission there."""
    syn = {f.id: int(f.syn) for f in s.flows}
    return [seq + syn[fid] for fid, seq in d.drop_seqs]


def _num(x: float) -> str:
    """A number as Tcl reads it, exactly (repr of a float round-trips)."""
    return repr(float(x)) if not float(x).is_integer() or abs(x) >= 1e15 else str(int(x))


def ns2_seed(seed: int) -> int:
    """ns-2's RNG takes a seed in [1, 2^31 - 2] (0 would mean "from the clock", not reproducible)."""
    return seed % MAX_NS2_SEED + 1


class _Script:
    def __init__(self, s: Scenario) -> None:
        self.s = s
        self.lines: list[str] = []
        self.node = {name: i for i, name in enumerate(s.nodes)}
        self.dir_index = {(d.a, d.b): i for i, d in enumerate(s.directions)}

    def emit(self, *lines: str) -> None:
        self.lines.extend(lines)

    def n(self, name: str) -> str:
        return f"$dcc_node({self.node[name]})"

    def link(self, d: Direction) -> str:
        return f"[$ns link {self.n(d.a)} {self.n(d.b)}]"

    def header(self) -> None:
        s = self.s
        self.emit(
            "# A scenario translated for ns-2.35 by delaycc (docs/crosscheck.md); run it in its own folder.",
            "set ns [new Simulator]",
            f"$defaultRNG seed {ns2_seed(s.seed)}",
            f"Agent/TCP set packetSize_ {s.payload}",
            f"Agent/TCP set tcpip_base_hdr_size_ {s.header_size}",
            f"Agent/TCPSink set packetSize_ {s.ack_size}",
            "set dcc_out .",
            f"set dcc_interval {_num(s.sample_interval_s)}",
            f"set dcc_samples {int(s.duration_s / s.sample_interval_s + 1e-9)}",
            f"set dcc_duration {_num(s.duration_s)}",
        )
        for i in self.node.values():
            self.emit(f"set dcc_node({i}) [$ns node]")

    def directions(self, drop_indices: dict[int, list[int]], trace_dirs: tuple[int, ...]) -> None:
        for i, d in enumerate(self.s.directions):
            a, b = self.n(d.a), self.n(d.b)
            if d.red is not None:
                self.red(d, a, b)
            else:
                self.droptail(d, a, b)
            if d.loss > 0 or any(d in c.directions for c in self.s.link_changes):
                self.emit(
                    f"set dcc_em({i}) [new ErrorModel]",
                    f"$dcc_em({i}) unit pkt",
                    f"$dcc_em({i}) set rate_ {_num(d.loss)}",
                    f"$dcc_em({i}) ranvar [new RandomVariable/Uniform]",
                    f"$ns link-lossmodel $dcc_em({i}) {a} {b}",
                    # The error model sits after the queue: its losses must not reach the queue monitor,
                    # which would count a packet that already left as dropped from the queue. A monitor
                    # of its own counts them.
                    f"set dcc_lossmon({i}) [new QueueMonitor]",
                    f"set dcc_losssnoop({i}) [new SnoopQueue/Drop]",
                    f"$dcc_losssnoop({i}) set-monitor $dcc_lossmon({i})",
                    f"$dcc_losssnoop({i}) target [$ns set nullAgent_]",
                    f"$dcc_em({i}) drop-target $dcc_losssnoop({i})",
                )
            if any(d in c.directions and c.up is not None for c in self.s.link_changes):
                # A link that is down also refuses what arrives, so nothing queues behind it.
                self.emit(
                    f"set dcc_head({i}) [new ErrorModel]",
                    f"$dcc_head({i}) unit pkt",
                    f"$dcc_head({i}) set rate_ 0",
                    f"$dcc_head({i}) ranvar [new RandomVariable/Uniform]",
                    f"$ns lossmodel $dcc_head({i}) {a} {b}",
                )
            indices = drop_indices.get(i, default_drop_indices(self.s, d))
            if indices:
                self.emit(
                    f"set dcc_list({i}) [new ErrorModel/List]",
                    f"$dcc_list({i}) droplist {{{' '.join(map(str, sorted(indices)))}}}",
                    f"$ns lossmodel $dcc_list({i}) {a} {b}",
                )
            if i in trace_dirs:
                self.emit(f"$ns trace-queue {a} {b} [open trace-{i}.tr w]")

    def droptail(self, d: Direction, a: str, b: str) -> None:
        self.emit(f"$ns simplex-link {a} {b} {_num(d.bandwidth_bps)} {_num(d.delay_s)} DropTail")
        if d.buffer_bytes is not None:
            # Byte mode drops when bytes + size >= limit x mean_pktsize_: one byte more holds exactly
            # buffer_bytes, as delaycc does.
            self.emit(
                f"[{self.link(d)} queue] set queue_in_bytes_ true",
                f"[{self.link(d)} queue] set mean_pktsize_ 1",
                f"$ns queue-limit {a} {b} {d.buffer_bytes + 1}",
            )
        else:
            assert d.buffer_pkts is not None
            self.emit(f"$ns queue-limit {a} {b} {d.buffer_pkts + 1}")

    def red(self, d: Direction, a: str, b: str) -> None:
        """A Queue/RED direction. Its variables are set on the class just before the link is made: ns-2
        computes the automatic thresholds and weight (thresh_ 0, q_weight_ -1, ...) when the new queue is
        attached to its link, from the values it was created with. Every RED direction sets them all, so
        none inherits another's."""
        assert d.red is not None
        for var, value in d.red.tcl_vars:
            shown = ("true" if value else "false") if isinstance(value, bool) else _num(value)
            self.emit(f"Queue/RED set {var} {shown}")
        self.emit(
            f"$ns simplex-link {a} {b} {_num(d.bandwidth_bps)} {_num(d.delay_s)} RED",
            # RED drops an arrival when the queue it finds (not the packet being sent) is at the limit.
            f"$ns queue-limit {a} {b} {d.red.limit}",
        )

    def monitors(self) -> list[int]:
        used: set[tuple[str, str]] = set()
        for f in self.s.flows:
            used.update(hops(f.path))
            used.update(hops(f.reverse_path))
        for t in self.s.traffic:
            used.update(hops(t.path))
        for r in self.s.reroutes:
            for p in (r.path, r.reverse_path):
                if p is not None:
                    used.update(hops(p))
        chosen = sorted(self.dir_index[h] for h in used)
        for i in chosen:
            d = self.s.directions[i]
            self.emit(f"set dcc_qmon({i}) [$ns monitor-queue {self.n(d.a)} {self.n(d.b)} 0]")
        self.emit(f"set dcc_queues {{{' '.join(map(str, chosen))}}}")
        return chosen

    def route(self, path: tuple[str, ...], dst: str) -> list[str]:
        return [
            f"{self.n(a)} add-route [{self.n(dst)} id] [[$ns link {self.n(a)} {self.n(b)}] head]"
            for a, b in hops(path)
        ]

    def flow(self, f: Flow) -> None:
        i, t = f.index, f.transport
        assert t is not None
        cls = f"Agent/TCP/{f.agent}"
        sink = f.sink + ("/DelAck" if t.delayed_ack else "")
        kind = {"Fast": "fast", "Vegas": "vegas"}.get(f.agent, "other")
        self.emit(
            f"set dcc_tcp({i}) [new {cls}]",
            f"set dcc_kind({i}) {kind}",
            f"$dcc_tcp({i}) set fid_ {i}",
            f"$dcc_tcp({i}) set window_ {_num(t.receiver_window)}",
            f"$dcc_tcp({i}) set windowInit_ {_num(t.initial_window)}",
            f"$dcc_tcp({i}) set minrto_ {_num(t.min_rto_s)}",
            f"$dcc_tcp({i}) set maxrto_ {_num(t.max_rto_s)}",
            f"$dcc_tcp({i}) set rtxcur_init_ {_num(t.initial_rto_s)}",
            f"$dcc_tcp({i}) set numdupacks_ {t.dupack_threshold}",
            f"$dcc_tcp({i}) set tcpTick_ {_num(t.rtt_tick_s)}",
            f"$dcc_tcp({i}) set singledup_ {int(t.limited_transmit)}",
            f"$dcc_tcp({i}) set partial_ack_ {int(t.partial_ack)}",
        )
        if f.agent == "Newreno":
            self.emit(f"$dcc_tcp({i}) set newreno_changes1_ {int(t.newreno_first_partial)}")
        if not f.syn:
            self.emit(f"$dcc_tcp({i}) set packetSize_ {f.wire_bytes}")
        aliases = ["cwnd_ cwnd", "ack_ ack", "t_seqno_ seq", "ssthresh_ ssth", "rtt_ rtt", "srtt_ srtt"]
        aliases += {"fast": ["avgRTT_ avg", "baseRTT_ base"], "vegas": ["v_rtt_ vrtt"]}.get(kind, [])
        self.emit(
            f"$dcc_tcp({i}) instvar "
            + " ".join(f"{{{v} dcc_{a}_{i}}}" for v, a in (x.split() for x in aliases)),
            f"set dcc_tick({i}) [$dcc_tcp({i}) set tcpTick_]",
        )
        for var, value in f.agent_vars.items():
            if var in AT_START_VARS:
                # An int in ns-2: delaycc's "never" (10^9 and above) is ns-2's largest int.
                n = min(int(value), MAX_TCL_INT)
                self.emit(f'$ns at {_num(f.start_s)} "$dcc_tcp({i}) set {var} {n}"')
            else:
                self.emit(f"$dcc_tcp({i}) set {var} {_num(value)}")
        self.emit(
            f"$ns attach-agent {self.n(f.src)} $dcc_tcp({i})",
            f"set dcc_sink({i}) [new Agent/{sink}]",
        )
        if t.delayed_ack:
            self.emit(f"$dcc_sink({i}) set interval_ {_num(t.delayed_ack_timeout_s)}")
        self.emit(
            f"$ns attach-agent {self.n(f.dst)} $dcc_sink({i})",
            f"$ns connect $dcc_tcp({i}) $dcc_sink({i})",
            f"set dcc_app({i}) [new Application/FTP]",
            f"$dcc_app({i}) attach-agent $dcc_tcp({i})",
        )
        if f.bytes is not None:
            # The agent sends whole packets of packetSize_ bytes: as many as the payload needs.
            packets = -(-f.bytes // self.s.payload)
            size = f.wire_bytes if not f.syn else self.s.payload
            self.emit(
                f'$ns at {_num(f.start_s)} "$dcc_app({i}) send {packets * size}"',
                f"set dcc_target({i}) {(self.s.header_size if f.syn else 0) + packets * f.wire_bytes}",
            )
        else:
            self.emit(f'$ns at {_num(f.start_s)} "$dcc_app({i}) start"')
        if f.stop_s < self.s.duration_s:
            self.emit(f'$ns at {_num(f.stop_s)} "dcc_stop {i}"')

    def traffic(self) -> None:
        for t in self.s.traffic:
            j = t.index
            app = "CBR" if t.kind == "cbr" else "Exponential"
            self.emit(
                f"set dcc_udp({j}) [new Agent/UDP]",
                f"$dcc_udp({j}) set packetSize_ {t.packet_size}",
                f"$dcc_udp({j}) set fid_ {1000 + j}",
                f"$ns attach-agent {self.n(t.src)} $dcc_udp({j})",
                f"set dcc_null({j}) [new Agent/Null]",
                f"$ns attach-agent {self.n(t.dst)} $dcc_null({j})",
                f"$ns connect $dcc_udp({j}) $dcc_null({j})",
                f"set dcc_src({j}) [new Application/Traffic/{app}]",
                f"$dcc_src({j}) set packetSize_ {t.packet_size}",
                f"$dcc_src({j}) set rate_ {_num(t.rate_bps)}",
            )
            if t.kind == "cbr":
                self.emit(f"$dcc_src({j}) set random_ 0")
            else:
                self.emit(
                    f"$dcc_src({j}) set burst_time_ {_num(t.mean_on_s)}",
                    f"$dcc_src({j}) set idle_time_ {_num(t.mean_off_s)}",
                )
            self.emit(
                f"$dcc_src({j}) attach-agent $dcc_udp({j})",
                f'$ns at {_num(t.start_s)} "$dcc_src({j}) start"',
            )
            if t.stop_s < self.s.duration_s:
                self.emit(f'$ns at {_num(t.stop_s)} "$dcc_src({j}) stop"')

    def routes_and_events(self) -> None:
        # Static routes are computed when the run starts; these replace them at time 0 (scheduled in
        # `translate` before any agent's start).
        lines: list[str] = []
        for f in self.s.flows:
            lines += self.route(f.path, f.dst) + self.route(f.reverse_path, f.src)
        for t in self.s.traffic:
            lines += self.route(t.path, t.dst)
        self.emit("proc dcc_routes {} {", "    global ns dcc_node", *("    " + x for x in lines), "}")
        flows = {f.id: f for f in self.s.flows}
        for k, r in enumerate(self.s.reroutes):
            f = flows[r.flow]
            body: list[str] = []
            if r.path is not None:
                body += self.route(r.path, f.dst)
            if r.reverse_path is not None:
                body += self.route(r.reverse_path, f.src)
            self.emit(
                f"proc dcc_reroute_{k} {{}} {{", "    global ns dcc_node", *("    " + x for x in body), "}"
            )
            self.emit(f'$ns at {_num(r.at_s)} "dcc_reroute_{k}"')
        for k, c in enumerate(self.s.link_changes):
            body = []
            for d in c.directions:
                i = self.dir_index[(d.a, d.b)]
                if c.bandwidth_bps is not None:
                    body.append(f"[{self.link(d)} link] set bandwidth_ {_num(c.bandwidth_bps)}")
                if c.delay_s is not None:
                    body.append(f"[{self.link(d)} link] set delay_ {_num(c.delay_s)}")
                # A link that is down loses every packet that crosses it; its loss rate is kept for when it
                # comes back up.
                if c.loss is not None:
                    body.append(f"set dcc_loss({i}) {_num(c.loss)}")
                if c.up is not None:
                    body.append(f"set dcc_up({i}) {int(c.up)}")
                if c.loss is not None or c.up is not None:
                    body.append(f"$dcc_em({i}) set rate_ [expr {{$dcc_up({i}) ? $dcc_loss({i}) : 1.0}}]")
                if c.up is not None:
                    body.append(f"$dcc_head({i}) set rate_ [expr {{$dcc_up({i}) ? 0.0 : 1.0}}]")
            self.emit(
                f"proc dcc_change_{k} {{}} {{",
                "    global ns dcc_node dcc_em dcc_head dcc_loss dcc_up",
                *("    " + x for x in body),
                "}",
            )
            self.emit(f'$ns at {_num(c.at_s)} "dcc_change_{k}"')
        for i, d in enumerate(self.s.directions):
            if any(d in c.directions for c in self.s.link_changes):
                self.emit(f"set dcc_loss({i}) {_num(d.loss)}", f"set dcc_up({i}) 1")


def translate(
    s: Scenario, drop_indices: dict[int, list[int]] | None = None, trace_dirs: tuple[int, ...] = ()
) -> str:
    """The whole Tcl script, run in the folder it writes its samples to. ``drop_indices`` gives, per
    direction with deterministic drops, the indices of the packets its ErrorModel/List drops (by default
    seq + 1, exact until the flow's first retransmission there: runner.calibrate finds the real ones);
    ``trace_dirs`` are directions whose arrivals go to trace-<index>.tr, for that calibration."""
    w = _Script(s)
    w.header()
    w.directions(drop_indices or {}, trace_dirs)
    w.monitors()
    # Before any agent exists, so that these routes are in place before anything is sent at time 0
    # (events at one instant run in the order they were scheduled).
    w.emit('$ns at 0 "dcc_routes"')
    for f in s.flows:
        w.flow(f)
    w.emit(f"set dcc_flows {{{' '.join(str(f.index) for f in s.flows)}}}")
    w.traffic()
    w.routes_and_events()
    harness = files("delaycc.ns2").joinpath("harness.tcl").read_text(encoding="utf-8")
    return "\n".join(w.lines) + "\n" + harness + "\ndcc_start\n"
