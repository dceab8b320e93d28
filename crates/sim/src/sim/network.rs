//! The part of a simulation that moves packets: the clock, the event queue, the link directions, the
//! routes and the packet counts. It is a struct of its own so that the per-packet path can hold one
//! flow (`&mut Flow`) and the network at once: with both behind `&mut Simulation`, every use of the
//! flow indexed the flows again, a bounds check and a multiply each time, and reloaded the vectors'
//! pointers after every store. Also what the network is handed: the data packet a sender's request
//! becomes, and the bit that marks traced directions' arrival events.

use super::PacketCounts;
use crate::engine::{Event, EventQueue};
use crate::net::{Enqueued, LinkDir, Packet, PacketKind, Routes, Started};
use crate::time::Time;
use crate::transport::{Flow, TxRequest};

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

/// Arrival events of traced link directions carry this bit in their index (`LinkDir::event_tag`).
pub const TRACED_LINK: u32 = 1 << 31;

/// The data packet a sender's transmit request becomes.
#[inline(always)]
pub fn data_packet(fl: &Flow, f: u32, tx: &TxRequest, now: Time) -> Packet {
    let mut p = Packet {
        kind: PacketKind::Data,
        owner: f,
        route: fl.fwd_route,
        hop: 0,
        retransmit: tx.retransmit,
        size: fl.packet_size,
        seq: tx.seq,
        tx_time: now,
        first_sent: tx.first_sent,
        inflight_at_send: tx.inflight_at_send,
        rcv_arrival: 0,
        rcv_leave: 0,
        ecn: 0,
    };
    // One test for flows without ECN, after the packet is built so that its zero fields are still
    // written together.
    if fl.ecn {
        std::hint::cold_path();
        p.ecn = fl.sender.ecn_bits(tx);
    }
    p
}
