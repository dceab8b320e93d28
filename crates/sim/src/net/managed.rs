//! A managed link direction's waiting room and transmitter: packets wait in a queue discipline
//! (`queue/`) and the transmitter takes the next one each time it is free, at a rate that may vary
//! (`capacity.rs`). Once a packet starts it travels as on any direction, through the ring of packets on
//! the wire (`link.rs`, which drives this part through `offer` and `transmitter_free`).

use super::capacity::Server;
use super::queue::{QueueCounters, QueueDiscipline, Waiting};
use super::Packet;
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
    /// Packets dropped by this call (the offered one, if refused, any it pushed out to make room, and any
    /// the discipline dropped at the head).
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

    /// Offers an arriving packet to the discipline: whether it kept it, and how many waiting packets it
    /// pushed out to make room (FQ-CoDel's drops from its largest flow queue).
    pub(super) fn enqueue(&mut self, now: Time, pkt: Packet) -> (bool, u32) {
        let kept = self.qdisc.enqueue(now, pkt);
        self.qdisc.take_evicted(&mut self.dropped);
        let evicted = self.dropped.len() as u32;
        self.dropped.clear();
        (kept, evicted)
    }

    pub(super) fn transmitter_idle(&self) -> bool {
        self.transmit_at.is_none()
    }

    /// Whether the transmit event due at `now` is the one this transmitter waits for (not a stale one,
    /// whose packet went when the link went down); if so the transmitter is now free.
    pub(super) fn transmit_due(&mut self, now: Time) -> bool {
        let due = self.transmit_at == Some(now);
        if due {
            self.transmit_at = None;
        }
        due
    }

    /// Takes the next packet from the discipline for a transmitter free at `now` (sending at `bps` if its
    /// capacity is fixed): the packet and when its transmission finishes, and how many packets the
    /// discipline dropped on the way.
    pub(super) fn take_next(&mut self, now: Time, bps: u64) -> (Option<(Waiting, Time)>, u32) {
        let next = self.qdisc.dequeue(now, &mut self.dropped);
        let dropped = self.dropped.len() as u32;
        self.dropped.clear();
        let Some(w) = next else { return (None, dropped) };
        let finish = match &mut self.server {
            Server::Fixed => now + serialisation(w.pkt.size, bps),
            Server::Trace(t) => t.finish(now, w.pkt.size),
            Server::States(s) => s.finish(now, w.pkt.size),
        };
        self.transmit_at = Some(finish);
        (Some((w, finish)), dropped)
    }

    /// Empties the discipline (the link went down): its packets, oldest first.
    pub(super) fn drain(&mut self) -> Vec<Packet> {
        self.transmit_at = None;
        self.qdisc.drain()
    }
}
