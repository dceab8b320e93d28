//! The part of a simulation that moves packets: the clock, the event queue, the link directions, the
//! routes and the packet counts. It is a struct of its own so that the per-packet path can hold one
//! flow (`&mut Flow`) and the network at once: with both behind `&mut Simulation`, every use of the
//! flow indexed the flows again, a bounds check and a multiply each time, and reloaded the vectors'
//! pointers after every store. Also what the network is handed: the data packet a sender's request
//! becomes, and the bit that marks traced directions' arrival events.

use super::PacketCounts;
use crate::engine::{Event, EventQueue};
use crate::net::{Enqueued, LinkDir, Packet, PacketKind, RouteRef, Routes, Started};
use crate::time::Time;
use crate::transport::sender::TxSink;
use crate::transport::{Flow, Sender, TxRequest};

pub(super) struct Network {
    pub now: Time,
    pub queue: EventQueue,
    /// Every link direction, in `dir_index` order.
    pub links: Vec<LinkDir>,
    pub routes: Routes,
    pub counts: PacketCounts,
}

impl Network {
    /// Sends a new packet onto its route's first hop. Never a delivery (every route has a first hop),
    /// so the per-packet path has no call cycle (deliver -> send -> deliver) and can be inlined whole
    /// into the event loop.
    pub fn send_new(&mut self, p: Packet) {
        self.counts.sent += 1;
        self.enqueue(self.routes.first(p.route), &p);
    }

    /// `send_new` of a packet of `size` bytes on `route` that `fill` writes. On the usual first hop
    /// (`LinkDir::takes_plain`) the packet is written straight into its ring slot: built on the stack
    /// and copied in by `enqueue`, it cost about 10 instructions more a send.
    #[inline(always)]
    pub fn send_filled(&mut self, route: RouteRef, size: u32, fill: impl FnOnce(&mut Packet)) {
        self.counts.sent += 1;
        let d = route.first_hop;
        match self.reserve(d, size) {
            Some(slot) => fill(slot),
            None => {
                let mut p = Packet::EMPTY;
                fill(&mut p);
                self.enqueue_general(d, &p)
            }
        }
    }

    /// The ring slot of a packet of `size` bytes that direction `d` takes the usual way, its arrival
    /// event scheduled if it is the first; None for any other packet (a full buffer included: nothing
    /// has changed then), which goes to `enqueue_general`. Inline at both of its sites: as a call it saved
    /// and restored six registers twice a packet, and once the ACK path sent through a sink (which left
    /// the run loop fewer values to hold across it) inlining it no longer spilled more than it saved.
    #[inline(always)]
    fn reserve(&mut self, d: u32, size: u32) -> Option<&mut Packet> {
        let now = self.now;
        let Network { links, queue, .. } = self;
        let link = &mut links[d as usize];
        if !link.takes_plain_size(size) {
            return None;
        }
        link.reserve_plain(now, size, |tag, t| schedule_first_arrival(queue, d | tag, t))
    }

    /// Offers a packet to link direction `d`, which keeps a copy in its ring. Everything but the usual
    /// direction's usual packet goes to `enqueue_general`, a call in tail position, so that the usual
    /// path is one chain of tests with no call that returns (6 instructions a packet fewer than the
    /// general path's separate tests and its match after the call).
    #[inline]
    pub fn enqueue(&mut self, d: u32, p: &Packet) {
        let link = &mut self.links[d as usize];
        if !link.takes_plain(p) {
            return self.enqueue_general(d, p);
        }
        let done = link.enqueue_plain(self.now, p);
        self.after_enqueue(d, p, done);
    }

    /// `enqueue` for everything but the usual direction's usual packet. Cold: in the reference dumbbell
    /// it takes only the packets a full buffer drops, and marked so it cost `newreno-10` 2 instructions
    /// a packet less.
    #[cold]
    #[inline(never)]
    fn enqueue_general(&mut self, d: u32, p: &Packet) {
        let done = self.links[d as usize].enqueue(self.now, p);
        self.after_enqueue(d, p, done);
    }

    #[inline(always)]
    fn after_enqueue(&mut self, d: u32, p: &Packet, done: Enqueued) {
        match done {
            Enqueued::Accepted(Some(t)) => self.schedule_arrival(d, t),
            Enqueued::Accepted(None) => {}
            Enqueued::Dropped => self.dropped_or_managed(d, p),
        }
    }

    /// Schedules direction `d`'s arrival event, which it did not have: out of line, as a packet usually
    /// joins others already on the way.
    #[cold]
    #[inline(never)]
    fn schedule_arrival(&mut self, d: u32, t: Time) {
        let tag = self.links[d as usize].event_tag;
        self.queue.schedule(t, Event::LinkArrival(d | tag));
    }

    /// A packet the inline FIFO did not take: dropped, or offered to a managed direction (a queue
    /// discipline other than drop-tail, or a varying capacity).
    #[cold]
    #[inline(never)]
    fn dropped_or_managed(&mut self, d: u32, p: &Packet) {
        if self.links[d as usize].managed().is_none() {
            return self.drop_packet();
        }
        let started = self.links[d as usize].offer(self.now, p);
        self.after_managed(d, started);
    }

    /// A managed direction's transmitter is free. Out of line, so that the drop-tail hops' dispatch stays
    /// as it was.
    #[cold]
    #[inline(never)]
    pub fn on_link_transmit(&mut self, d: u32) {
        let started = self.links[d as usize].transmitter_free(self.now);
        self.after_managed(d, started);
    }

    /// Schedules and counts what a managed direction's `offer` or `transmitter_free` asked for.
    fn after_managed(&mut self, d: u32, started: Started) {
        self.counts.dropped += started.drops as u64;
        if let Some(t) = started.arrival {
            let tag = self.links[d as usize].event_tag;
            self.queue.schedule(t, Event::LinkArrival(d | tag));
        }
        if let Some(t) = started.transmit {
            self.queue.schedule(t, Event::LinkTransmit(d));
        }
    }

    pub fn drop_packet(&mut self) {
        self.counts.dropped += 1;
    }
}

/// Schedules a direction's arrival event, which it did not have (`Network::reserve`): out of line, as
/// a packet usually joins others already on the way.
#[cold]
#[inline(never)]
fn schedule_first_arrival(queue: &mut EventQueue, ev: u32, t: Time) {
    queue.schedule(t, Event::LinkArrival(ev));
}

/// Arrival events of traced link directions carry this bit in their index (`LinkDir::event_tag`).
pub const TRACED_LINK: u32 = 1 << 31;

/// Where flow `owner`'s data packets go: the sink the ACK path hands its sender (`TxSink`), which puts
/// each packet on its first hop as the sender decides it, with `net`; `transmit_queued` sends what
/// waited in `txq` through the same sink.
pub struct DataSink {
    pub route: RouteRef,
    pub size: u32,
    pub owner: u32,
    pub ecn: bool,
}

impl DataSink {
    /// The sink of flow `f`.
    #[inline(always)]
    pub fn of(fl: &Flow, f: u32) -> DataSink {
        DataSink { route: fl.fwd_route, size: fl.packet_size, owner: f, ecn: fl.ecn }
    }

    /// Writes the data packet `tx` of sender `s` becomes into `p`.
    #[inline(always)]
    fn fill(&self, p: &mut Packet, s: &Sender, tx: &TxRequest, now: Time) {
        *p = Packet {
            kind: PacketKind::Data,
            owner: self.owner,
            route: self.route.id,
            hop: 0,
            retransmit: tx.retransmit,
            size: self.size,
            seq: tx.seq,
            tx_time: now,
            first_sent: tx.first_sent,
            inflight_at_send: tx.inflight_at_send,
            rcv_arrival: 0,
            rcv_leave: 0,
            ecn: 0,
        };
        // One test for flows without ECN, after the packet is written so that its zero fields are still
        // written together.
        if self.ecn {
            std::hint::cold_path();
            p.ecn = s.ecn_bits(tx);
        }
    }
}

/// A `DataSink` with the network it sends on.
pub struct Sending<'a> {
    pub to: DataSink,
    pub net: &'a mut Network,
}

impl TxSink for Sending<'_> {
    const DIRECT: bool = true;

    #[inline(always)]
    fn send(&mut self, s: &Sender, tx: &TxRequest) {
        let now = self.net.now;
        let to = &self.to;
        self.net.send_filled(to.route, to.size, |p| to.fill(p, s, tx, now));
    }
}

/// The data packet a sender's transmit request becomes, as a value (for packet traces).
pub fn data_packet(fl: &Flow, f: u32, tx: &TxRequest, now: Time) -> Packet {
    let mut p = Packet::EMPTY;
    DataSink::of(fl, f).fill(&mut p, &fl.sender, tx, now);
    p
}
