//! What each event does: packets moving hop by hop and arriving, the flows' timers (RTO, delayed ACK,
//! pacing, the controller's tick), flow starts and stops, sources, samples and scenario events. Every
//! event that changes a sender ends in `after_sender`, which transmits what it queued.

use super::lazy_timer::{self, Fired};
use super::network::{DataSink, Network, Sending, TRACED_LINK};
use super::trace::{trace_queued, trace_received};
use super::{dir_index, Simulation};
use crate::engine::Event;
use crate::measure::pcap::Traces;
use crate::model::EventKind;
use crate::net::{Packet, PacketKind};
use crate::time::Time;
use crate::transport::receiver::Echo;
use crate::transport::sender::{Queue, TxSink};
use crate::transport::{AckDecision, AckInput, Flow};

/// The SACK blocks of the ACK a flow's receiver sends now: recorded in the flow's log; returns the serial
/// the ACK carries and the bytes the blocks add to it.
#[cold]
#[inline(never)]
fn record_sack(fl: &mut Flow) -> (u64, u32) {
    let Some(log) = &mut fl.sack_log else { return (0, 0) };
    fl.receiver.record_sack(log)
}

/// What an arriving ACK tells its sender's side: read field by field from the packet (`deliver_head`
/// reads its ring slot so, with no copy of the whole packet).
struct AckArrival {
    owner: u32,
    input: AckInput,
    /// The serial of its SACK blocks (`first_sent` of an ACK).
    serial: u64,
    ecn: u8,
}

impl AckArrival {
    #[inline(always)]
    fn of(p: &Packet) -> Self {
        AckArrival {
            owner: p.owner,
            input: AckInput {
                ack: p.seq,
                echo_tx_time: p.tx_time,
                echo_inflight: p.inflight_at_send,
                echo_retransmit: p.retransmit,
                rcv_arrival: p.rcv_arrival,
                rcv_leave: p.rcv_leave,
            },
            serial: p.first_sent,
            ecn: p.ecn,
        }
    }
}

/// What an arriving data packet tells its receiver, as `AckArrival` for ACKs.
struct DataArrival {
    owner: u32,
    seq: u64,
    size: u32,
    first_sent: Time,
    ecn: u8,
    echo: Echo,
}

impl DataArrival {
    #[inline(always)]
    fn of(p: &Packet, now: Time) -> Self {
        DataArrival {
            owner: p.owner,
            seq: p.seq,
            size: p.size,
            first_sent: p.first_sent,
            ecn: p.ecn,
            echo: Echo {
                tx_time: p.tx_time,
                inflight_at_send: p.inflight_at_send,
                retransmit: p.retransmit,
                arrival: now,
            },
        }
    }
}

/// Flow `f`'s receiver acknowledges now. SACK blocks travel beside the packet: the ACK carries their
/// serial and their size.
#[inline(always)]
fn send_ack(fl: &mut Flow, f: u32, net: &mut Network) {
    let now = net.now;
    let (serial, sack_bytes) = if fl.sack_log.is_some() { record_sack(fl) } else { (0, 0) };
    net.send_filled(fl.rev_route, fl.ack_size + sack_bytes, |p| {
        // Read here, after the slot is found: read before, they were held across that call.
        let echo = fl.receiver.echo;
        *p = Packet {
            kind: PacketKind::Ack,
            owner: f,
            route: fl.rev_route.id,
            hop: 0,
            retransmit: echo.retransmit,
            size: fl.ack_size + sack_bytes,
            seq: fl.receiver.rcv_nxt,
            tx_time: echo.tx_time,
            first_sent: serial,
            inflight_at_send: echo.inflight_at_send,
            // The receiver's clock runs `rcv_clock_offset` ahead of the sender's (wrapping arithmetic keeps
            // negative offsets exact); ALT must work without knowing it.
            rcv_arrival: echo.arrival.wrapping_add(fl.rcv_clock_offset as u64),
            rcv_leave: now.wrapping_add(fl.rcv_clock_offset as u64),
            ecn: fl.receiver.ece,
        }
    })
}

/// Where the whole of an arriving ACK is, for a traced flow's trace (`on_ack_extras`).
#[derive(Clone, Copy)]
enum Whole<'a> {
    Packet(&'a Packet),
    /// The last packet popped from direction `d` (`LinkDir::last_popped`), read in place by
    /// `deliver_head`: nothing is sent between that pop and the trace, so nothing has overwritten it.
    LastPopped(u32),
}

/// An ACK of a flow with SACK (its blocks come from the flow's log by the ACK's serial), of a traced
/// flow (written whole, from `whole`, before the sender reacts to it) or of a flow with ECN (it may
/// echo CE).
#[inline(always)]
fn on_ack_extras(
    fl: &mut Flow,
    f: u32,
    a: &AckArrival,
    whole: Whole,
    net: &mut Network,
    traces: &mut Option<Box<Traces>>,
) {
    let now = net.now;
    // The usual ACK here: a SACK flow's (a SACK log means Sack1's or FAST's recovery, `has_sack`),
    // untraced, without ECN bits; the tests below for the other kinds cost it 3 instructions.
    if let Some(log) = &mut fl.sack_log {
        if !fl.traced && a.ecn == 0 {
            let taken = log.take(a.serial);
            let blocks = taken.as_ref().map_or(&[][..], |b| b.as_slice());
            let mut sink = Sending { to: DataSink::of(fl, f), net };
            return fl.sender.on_sack_ack(now, &a.input, blocks, &mut sink);
        }
    }
    // Most ACKs carry no block: they pass an empty slice, not a copy of empty blocks.
    let taken = fl.sack_log.as_mut().and_then(|log| log.take(a.serial));
    let blocks = taken.as_ref().map_or(&[][..], |b| b.as_slice());
    if fl.traced {
        let p = match whole {
            Whole::Packet(p) => *p,
            Whole::LastPopped(d) => *net.links[d as usize].last_popped(),
        };
        assert!(
            p.kind == PacketKind::Ack && p.owner == a.owner && p.seq == a.input.ack,
            "the ACK traced is the one read"
        );
        trace_received(traces, a.owner, now, &p, blocks);
    }
    let s = &mut fl.sender;
    // Only ACKs of flows with ECN may carry the echo (its only bit).
    if a.ecn != 0 {
        std::hint::cold_path();
        s.on_ack_echoing(now, &a.input, blocks);
    } else if s.has_sack() {
        s.on_sack_ack(now, &a.input, blocks, &mut Queue);
    } else {
        s.on_ack(now, &a.input, blocks);
    }
}

/// Sends the data packets flow `f`'s sender queued and keeps its RTO and pacing events scheduled.
#[inline(always)]
fn transmit_queued(fl: &mut Flow, f: u32, net: &mut Network) {
    let mut sink = Sending { to: DataSink::of(fl, f), net };
    for tx in &fl.sender.txq {
        sink.send(&fl.sender, tx);
    }
    let s = &mut fl.sender;
    s.txq.clear();
    if let Some(d) = lazy_timer::arm_at(&mut s.rto_event_at, s.rto_deadline) {
        net.queue.schedule(d, Event::Rto(f));
    }
    if let Some(p) = &mut s.pacer {
        if let Some(t) = lazy_timer::arm_at(&mut p.event_at, p.wakeup) {
            net.queue.schedule(t, Event::Pace(f));
        }
    }
}

impl Simulation {
    pub(super) fn dispatch(&mut self, ev: Event) {
        match ev {
            Event::LinkArrival(_) => unreachable!("the run loop takes link arrivals"),
            Event::LinkTransmit(d) => self.net.on_link_transmit(d),
            Event::Rto(f) => self.on_rto(f),
            Event::DelayedAck(f) => self.on_delayed_ack(f),
            Event::CcTick(f) => self.on_cc_tick(f),
            Event::Pace(f) => self.on_pace(f),
            Event::FlowStart(f) => {
                let now = self.net.now;
                let fl = &mut self.flows[f as usize];
                fl.sender.start(now);
                if let Some(retransmit) = fl.sender.syn_tx.take() {
                    self.send_syn(f, retransmit);
                }
                let fl = &mut self.flows[f as usize];
                if let Some(iv) = fl.sender.cc.tick_interval() {
                    fl.tick_pending = true;
                    self.net.queue.schedule(now + iv.max(1), Event::CcTick(f));
                }
                self.after_sender(f);
            }
            Event::FlowStop(f) => {
                let now = self.net.now;
                self.recorder.touch(f);
                self.flows[f as usize].sender.stop(now);
                self.flows[f as usize].close_window(true);
            }
            Event::Source(s) => self.on_source(s),
            Event::Sample => self.on_sample(),
            Event::Scenario(i) => self.on_scenario_event(i),
        }
    }

    /// Puts a packet that has crossed the link of its hop `p.hop` on the link of its next hop, or
    /// delivers it if it has no hops left. (A packet just sent goes to its route's first hop, which every
    /// route has: `send_new`.) The next hop is found before `hop` moves on: a packet delivered here never
    /// needs it stored (2 instructions an arrival).
    #[inline(always)]
    pub(super) fn forward(&mut self, p: &mut Packet) {
        match self.net.routes.hop(p.route, p.hop + 1) {
            Some(next) => {
                p.hop += 1;
                self.net.enqueue(next, p);
            }
            None => self.deliver_forwarded(p),
        }
    }

    /// The link arrival at the head of the queue (`Next::Link`): it is still there, and leaves with the
    /// direction's next arrival put in its place, or removed. Inlined into the run loop with the whole
    /// per-packet path below it (`forward`, `deliver`, `on_data`, `on_ack` and what they send): as calls,
    /// each saved and restored up to six registers per packet.
    #[inline(always)]
    pub(super) fn on_link_arrival(&mut self, d: u32) {
        if d & TRACED_LINK != 0 {
            self.net.queue.remove_link();
            return self.on_link_arrival_traced(d & !TRACED_LINK);
        }
        let now = self.net.now;
        loop {
            // The head's arrival time, read once per packet: the packet if it has arrived, else the time
            // to reschedule at.
            let link = &mut self.net.links[d as usize];
            match link.next_arrival() {
                Some(t) if t <= now => {
                    let lost = link.head_lost();
                    if !lost && link.last_hop {
                        self.deliver_head(d);
                        continue;
                    }
                    let mut p = link.pop_head_packet();
                    if lost {
                        self.net.drop_packet();
                        continue;
                    }
                    self.forward(&mut p);
                }
                Some(t) => return self.net.queue.reschedule_link(t, d),
                None => {
                    link.event_pending = false;
                    return self.net.queue.remove_link();
                }
            }
        }
    }

    /// Delivers the head packet of direction `d`, its last hop, reading from its ring slot only what the
    /// receiving end needs: copied out whole, as `forward` needs it, it cost every delivery 8
    /// instructions more. The head moves on before the packet is processed, as in `forward`.
    #[inline(always)]
    fn deliver_head(&mut self, d: u32) {
        let link = &mut self.net.links[d as usize];
        let p = link.head_packet();
        debug_assert!(self.net.routes.hop(p.route, p.hop + 1).is_none());
        if p.kind == PacketKind::Data {
            let a = DataArrival::of(p, self.net.now);
            link.advance_head();
            self.net.counts.delivered += 1;
            return self.on_data_arrival(a);
        }
        if p.kind == PacketKind::Ack {
            let a = AckArrival::of(p);
            link.advance_head();
            self.net.counts.delivered += 1;
            return self.on_ack_arrival(&a, Whole::LastPopped(d));
        }
        self.deliver_popped(d)
    }

    /// `deliver_head` of a packet read whole: a SYN, a datagram. Out of line, so
    /// that the run loop holds one copy of the usual delivery path.
    #[cold]
    #[inline(never)]
    fn deliver_popped(&mut self, d: u32) {
        let p = self.net.links[d as usize].pop_head_packet();
        self.deliver(&p)
    }

    /// `deliver` for a packet whose direction is not the last hop of every route crossing it (see
    /// `LinkDir::last_hop`): out of line, as `deliver_popped`.
    #[cold]
    #[inline(never)]
    fn deliver_forwarded(&mut self, p: &Packet) {
        self.deliver(p)
    }

    #[inline(always)]
    fn deliver(&mut self, p: &Packet) {
        self.net.counts.delivered += 1;
        // Tests rather than a `match`: with five kinds the match became a jump table, and data and ACKs
        // alternating through one indirect jump mispredicted (cachegrind: 400k more per 5 s of the
        // reference dumbbell). The common kinds take two well-predicted compares.
        if p.kind == PacketKind::Data {
            self.on_data(p)
        } else if p.kind == PacketKind::Ack {
            self.on_ack(p)
        } else {
            self.deliver_other(p)
        }
    }

    #[cold]
    #[inline(never)]
    fn deliver_other(&mut self, p: &Packet) {
        match p.kind {
            PacketKind::Data | PacketKind::Ack => unreachable!("handled by deliver"),
            PacketKind::Datagram => {
                let s = &mut self.sources[p.owner as usize];
                s.on_delivered(self.net.now, p.size);
            }
            PacketKind::Syn => self.on_syn(p),
            PacketKind::SynAck => {
                if self.flows[p.owner as usize].traced {
                    self.trace_syn_ack(p);
                }
                let now = self.net.now;
                self.flows[p.owner as usize].sender.on_syn_ack(now, p.tx_time, p.retransmit);
                self.after_sender(p.owner);
            }
        }
    }

    /// The SYN: header only (ns-2 tcpip_base_hdr_size_, tcp/tcp.cc:716), the size of the flow's ACKs.
    #[cold]
    fn send_syn(&mut self, f: u32, retransmit: bool) {
        let now = self.net.now;
        let fl = &self.flows[f as usize];
        let syn = Packet {
            kind: PacketKind::Syn,
            owner: f,
            route: fl.fwd_route.id,
            hop: 0,
            retransmit,
            size: fl.ack_size,
            seq: 0,
            tx_time: now,
            first_sent: now,
            inflight_at_send: 1,
            rcv_arrival: 0,
            rcv_leave: 0,
            ecn: 0,
        };
        if fl.traced {
            self.trace_sent(f, &syn);
        }
        self.net.send_new(syn);
    }

    /// The receiver answers a SYN at once (ns-2 TCPSink `SYN_immediate_ack_ true`, ns-default.tcl:1081),
    /// echoing its send time. The SYN is not data: the receiver's counters do not see it.
    #[cold]
    fn on_syn(&mut self, p: &Packet) {
        let now = self.net.now;
        let fl = &self.flows[p.owner as usize];
        self.net.send_new(Packet {
            kind: PacketKind::SynAck,
            owner: p.owner,
            route: fl.rev_route.id,
            hop: 0,
            retransmit: p.retransmit,
            size: fl.ack_size,
            seq: 0,
            tx_time: p.tx_time,
            first_sent: 0,
            inflight_at_send: 1,
            rcv_arrival: now.wrapping_add(fl.rcv_clock_offset as u64),
            rcv_leave: now.wrapping_add(fl.rcv_clock_offset as u64),
            ecn: 0,
        });
    }

    #[inline(always)]
    fn on_data(&mut self, p: &Packet) {
        self.on_data_arrival(DataArrival::of(p, self.net.now))
    }

    #[inline(always)]
    fn on_data_arrival(&mut self, a: DataArrival) {
        let now = self.net.now;
        let f = a.owner;
        self.recorder.touch_received(f);
        let fl = &mut self.flows[f as usize];
        // Only data of a flow with ECN carries ECN bits: one test for every other flow.
        let decision = if a.ecn == 0 {
            fl.receiver.on_data(now, a.seq, a.size, a.first_sent, a.echo, &mut fl.app)
        } else {
            std::hint::cold_path();
            fl.receiver.on_data_ecn(now, a.seq, a.size, a.first_sent, a.echo, &mut fl.app, a.ecn)
        };
        if fl.received_all_at.is_none() && fl.total_pkts.is_some_and(|n| fl.receiver.rcv_nxt >= n) {
            fl.received_all_at = Some(now);
            fl.close_window(false);
        }
        match decision {
            AckDecision::Now => send_ack(fl, f, &mut self.net),
            AckDecision::Delay(t) => {
                if let Some(t) = lazy_timer::arm(&mut fl.receiver.delack_event_pending, Some(t)) {
                    self.net.queue.schedule(t, Event::DelayedAck(f));
                }
            }
        }
    }

    /// An ACK reaches its sender, which then transmits what it allows. The flow is indexed once: its
    /// reference is held through the sender's reaction and what it sends (`transmit_queued`).
    #[inline(always)]
    fn on_ack(&mut self, p: &Packet) {
        self.on_ack_arrival(&AckArrival::of(p), Whole::Packet(p))
    }

    /// `on_ack` of what the sender reads of an ACK; `whole` is where the whole ACK is, for a traced
    /// flow's trace.
    #[inline(always)]
    fn on_ack_arrival(&mut self, a: &AckArrival, whole: Whole) {
        let now = self.net.now;
        let f = a.owner;
        self.recorder.touch(f);
        let fl = &mut self.flows[f as usize];
        if fl.ack_extras {
            on_ack_extras(fl, f, a, whole, &mut self.net, &mut self.traces);
            if fl.traced {
                trace_queued(&mut self.traces, fl, f, now);
            }
        } else {
            // A traced flow takes the ACK path with extras (`Flow::set_traced`).
            let mut sink = Sending { to: DataSink::of(fl, f), net: &mut self.net };
            fl.sender.on_ack_into(now, &a.input, &[], &mut sink);
        }
        transmit_queued(fl, f, &mut self.net);
    }

    /// Transmits what the sender queued and keeps its RTO event scheduled. Every event that changes a
    /// sender's state ends here (which is what tells the recorder to read it again). The ACK path, which
    /// runs it once per packet, has its own inlined copy of these lines (`on_ack`).
    #[inline(never)]
    fn after_sender(&mut self, f: u32) {
        let now = self.net.now;
        self.recorder.touch(f);
        let fl = &mut self.flows[f as usize];
        if fl.traced {
            trace_queued(&mut self.traces, fl, f, now);
        }
        transmit_queued(fl, f, &mut self.net);
    }

    /// A paced flow's timer: send what the pacer now allows, or re-arm at the wake-up time if that moved.
    fn on_pace(&mut self, f: u32) {
        let now = self.net.now;
        let s = &mut self.flows[f as usize].sender;
        let Some(p) = &mut s.pacer else { return };
        match lazy_timer::fire_at(&mut p.event_at, p.wakeup, now) {
            Fired::Cleared | Fired::Stale => {}
            Fired::Later(t) => self.net.queue.schedule(t, Event::Pace(f)),
            Fired::Due => {
                s.try_send(now);
                self.after_sender(f);
            }
        }
    }

    fn on_rto(&mut self, f: u32) {
        let now = self.net.now;
        let s = &mut self.flows[f as usize].sender;
        match lazy_timer::fire_at(&mut s.rto_event_at, s.rto_deadline, now) {
            Fired::Cleared | Fired::Stale => {}
            Fired::Later(d) => self.net.queue.schedule(d, Event::Rto(f)),
            Fired::Due => {
                s.on_rto_timer(now);
                // A SYN leaves only at the start and on a timeout.
                if let Some(retransmit) = s.syn_tx.take() {
                    self.send_syn(f, retransmit);
                }
                self.after_sender(f);
            }
        }
    }

    fn on_delayed_ack(&mut self, f: u32) {
        let now = self.net.now;
        let r = &mut self.flows[f as usize].receiver;
        r.delack_event_pending = false;
        if r.on_delack_timer(now) {
            send_ack(&mut self.flows[f as usize], f, &mut self.net);
        } else if let Some(d) = lazy_timer::arm(&mut r.delack_event_pending, r.delack_deadline) {
            self.net.queue.schedule(d, Event::DelayedAck(f));
        }
    }

    fn on_cc_tick(&mut self, f: u32) {
        let now = self.net.now;
        let fl = &mut self.flows[f as usize];
        match fl.sender.on_tick(now) {
            Some(iv) => self.net.queue.schedule(now + iv.max(1), Event::CcTick(f)),
            None => fl.tick_pending = false,
        }
        self.after_sender(f);
    }

    fn on_source(&mut self, s: u32) {
        let now = self.net.now;
        let src = &mut self.sources[s as usize];
        let (send, next) = src.fire(now);
        let (route, size) = (src.route, src.size);
        if let Some(t) = next {
            self.net.queue.schedule(t, Event::Source(s));
        }
        if send {
            self.net.send_new(Packet {
                kind: PacketKind::Datagram,
                owner: s,
                route,
                hop: 0,
                retransmit: false,
                size,
                seq: 0,
                tx_time: now,
                first_sent: now,
                inflight_at_send: 0,
                rcv_arrival: 0,
                rcv_leave: 0,
                ecn: 0,
            });
        }
    }

    fn on_sample(&mut self) {
        let now = self.net.now;
        self.recorder.sample(now, &self.flows, &self.net.links, &self.sources);
        self.next_sample += 1;
        let t =
            (self.next_sample as u128 * self.scenario.sample_interval as u128).min(u64::MAX as u128) as Time;
        if t <= self.end {
            self.net.queue.schedule(t, Event::Sample);
        }
    }

    fn on_scenario_event(&mut self, i: u32) {
        let now = self.net.now;
        let ev = self.scenario.events[i as usize].clone();
        match ev.kind {
            EventKind::Reroute { flow, .. } => {
                let (fwd, rev) = self.event_routes[i as usize];
                let fl = &mut self.flows[flow as usize];
                if let Some(r) = fwd {
                    fl.fwd_route = r;
                }
                if let Some(r) = rev {
                    fl.rev_route = r;
                }
            }
            EventKind::Link { link, dirs, bandwidth_bps, delay, loss, up } => {
                for (d, on) in dirs.iter().enumerate() {
                    if !on {
                        continue;
                    }
                    let di = dir_index(link, d as u8) as usize;
                    if let Some(b) = bandwidth_bps {
                        self.net.links[di].set_rate(now, b);
                    }
                    if let Some(dl) = delay {
                        self.net.links[di].set_delay(now, dl);
                    }
                    if let Some(p) = loss {
                        self.net.links[di].set_loss(p);
                    }
                    match up {
                        Some(false) if self.net.links[di].is_up() => {
                            if self.net.links[di].event_tag != 0 {
                                self.trace_on_wire(di as u32);
                            }
                            for _ in self.net.links[di].take_down(now) {
                                self.net.drop_packet();
                            }
                        }
                        Some(true) => self.net.links[di].bring_up(),
                        _ => {}
                    }
                }
            }
        }
    }
}
