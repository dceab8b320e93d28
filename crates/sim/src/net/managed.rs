//! A managed link direction: packets wait in a queue discipline (`queue/`) and the transmitter takes the
//! next one each time it is free, at a rate that may vary (`capacity.rs`). Once a packet starts, it
//! travels as on any direction: through the ring of packets on the wire (`link.rs`).
//!
//! The simulation drives it with two calls, `offer` (a packet arrives) and `transmitter_free` (the
//! transmit event it was asked to schedule is due), and schedules what they return.

use super::capacity::Server;
#[cfg(test)]
use super::link::Enqueued;
use super::link::{InFlight, LinkDir};
use super::queue::{QueueCounters, QueueDiscipline};
use super::{Packet, PacketKind};
use crate::time::{serialisation, Time};

pub struct Managed {
    qdisc: Box<dyn QueueDiscipline>,
    server: Server,
    /// The discipline's name, for the summary.
    pub kind: &'static str,
    /// When the packet in service finishes: the transmit event due then takes the next one. None when
    /// the transmitter is idle.
    transmit_at: Option<Time>,
    /// Scratch list for the packets a dequeue drops.
    dropped: Vec<Packet>,
}

/// What a managed direction asks the simulation to do after a call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Started {
    /// Packets dropped by this call (the offered one, if refused, and any the discipline dropped at the
    /// head).
    pub drops: u32,
    /// Schedule this direction's arrival event at this time.
    pub arrival: Option<Time>,
    /// Schedule this direction's transmit event at this time.
    pub transmit: Option<Time>,
}

impl Managed {
    pub fn new(qdisc: Box<dyn QueueDiscipline>, server: Server, kind: &'static str) -> Managed {
        Managed { qdisc, server, kind, transmit_at: None, dropped: Vec::new() }
    }

    pub fn waiting_packets(&self) -> u64 {
        self.qdisc.len_packets()
    }

    pub fn counters(&self) -> QueueCounters {
        self.qdisc.counters()
    }

    /// Empties the discipline (the link went down): its packets, oldest first.
    pub(super) fn drain(&mut self) -> Vec<Packet> {
        self.transmit_at = None;
        self.qdisc.drain()
    }
}

impl LinkDir {
    /// A packet arrives at `now`: the discipline keeps or drops it, and an idle transmitter starts.
    pub fn offer(&mut self, now: Time, pkt: &Packet) -> Started {
        let mut out = Started::default();
        let Some(m) = self.managed.as_mut() else { unreachable!("offer on a drop-tail direction") };
        if !self.up || !m.qdisc.enqueue(now, *pkt) {
            self.stats.queue_drops += 1;
            out.drops += 1;
            return out;
        }
        if m.transmit_at.is_none() {
            self.start_next(now, &mut out);
        }
        let waiting = self.managed.as_ref().map_or(0, |m| m.waiting_packets());
        self.stats.max_queue_pkts = self.stats.max_queue_pkts.max(waiting);
        out
    }

    /// The transmit event of this direction is due at `now`: the packet in service has left, the next one
    /// starts. A stale event (its packet was dropped when the link went down) does nothing.
    pub fn transmitter_free(&mut self, now: Time) -> Started {
        let mut out = Started::default();
        match self.managed.as_mut() {
            Some(m) if m.transmit_at == Some(now) => m.transmit_at = None,
            _ => return out,
        }
        self.start_next(now, &mut out);
        out
    }

    /// Takes the next packet from the discipline and puts it on the wire.
    fn start_next(&mut self, now: Time, out: &mut Started) {
        let m = self.managed.as_mut().expect("managed direction");
        let next = m.qdisc.dequeue(now, &mut m.dropped);
        let dropped = m.dropped.len() as u32;
        m.dropped.clear();
        self.stats.queue_drops += dropped as u64;
        out.drops += dropped;
        let Some(w) = next else { return };
        let p = w.pkt;
        let finish = match &mut m.server {
            Server::Fixed => now + serialisation(p.size, self.bps),
            Server::Trace(t) => t.finish(now, p.size),
            Server::States(s) => s.finish(now, p.size),
        };
        m.transmit_at = Some(finish);
        out.transmit = Some(finish);
        let deterministic = p.kind == PacketKind::Data
            && !p.retransmit
            && !self.drop_list.is_empty()
            && self.drop_list.binary_search(&(p.owner, p.seq)).is_ok();
        let lost = deterministic || self.rng.bernoulli(self.loss);
        if lost {
            self.stats.loss_drops += 1;
        }
        self.stats.wait_ns += (now - w.since) as u128;
        let arrive = self.put_on_wire(InFlight { start: now, finish, arrive: 0, cum_bytes: 0, lost, pkt: p });
        if !self.event_pending {
            self.event_pending = true;
            out.arrival = Some(arrive);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Buffer, Params};
    use crate::net::queue::{droptail, QueueContext};
    use crate::rng::Rng;

    /// A 8 Mbps direction with 10 ms of propagation and a 5-packet buffer.
    fn direction(managed: bool) -> LinkDir {
        let mut l = LinkDir::new(8e6, 10_000_000, Buffer::Packets(5), 0.0, Rng::stream(1, "l"));
        if managed {
            let ctx = QueueContext {
                buffer: Buffer::Packets(5),
                bps: 8e6,
                delay: 10_000_000,
                mtu: 1000,
                rng: Rng::stream(1, "q"),
            };
            l.manage(Managed::new(droptail::build(&Params::default(), &ctx), Server::Fixed, "droptail"));
        }
        l
    }

    /// Drop-tail through the managed path sends every packet when the inline path does: same drops, same
    /// arrival times, over random arrivals that fill and drain the buffer.
    #[test]
    fn managed_drop_tail_matches_the_inline_fifo() {
        let (mut inline, mut managed) = (direction(false), direction(true));
        let mut rng = Rng::stream(7, "arrivals");
        let mut transmit: Option<Time> = None;
        let (mut t, mut drops_inline, mut drops_managed) = (0, 0, 0);
        let (mut out_inline, mut out_managed) = (Vec::new(), Vec::new());
        for seq in 0..5000u64 {
            t += (rng.exponential(900_000.0)) as Time;
            let p = Packet { seq, size: 500 + (rng.next_u64() % 1000) as u32, ..Packet::EMPTY };
            // The managed transmitter's events due by now run first, as the event queue would run them.
            while let Some(due) = transmit.filter(|&d| d <= t) {
                transmit = managed.transmitter_free(due).transmit;
            }
            if matches!(inline.enqueue(t, &p, false), Enqueued::Dropped) {
                drops_inline += 1;
            }
            let s = managed.offer(t, &p);
            drops_managed += s.drops;
            transmit = transmit.or(s.transmit);
            for (l, out) in [(&mut inline, &mut out_inline), (&mut managed, &mut out_managed)] {
                while let Some(a) = l.next_arrival().filter(|&a| a <= t) {
                    out.push((l.pop_arrived_packet(a).unwrap().0.seq, a));
                }
            }
        }
        assert!(drops_inline > 100, "the buffer must overflow sometimes: {drops_inline}");
        assert_eq!(drops_inline, drops_managed);
        assert_eq!(out_inline, out_managed);
        assert_eq!(inline.stats.max_queue_pkts, managed.stats.max_queue_pkts);
        // The managed direction counts a packet's wait when it starts: let the last ones start.
        while let Some(due) = transmit {
            transmit = managed.transmitter_free(due).transmit;
        }
        assert_eq!(inline.stats.wait_ns, managed.stats.wait_ns);
        assert_eq!(inline.stats.busy_ns, managed.stats.busy_ns);
    }
}
