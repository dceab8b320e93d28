//! One direction of a duplex link: a serialising transmitter, a DropTail FIFO and a propagation pipe.
//! (A direction with another queue discipline or a varying capacity is *managed*: `managed.rs`.)
//!
//! Departure times are computed when a packet is enqueued (a FIFO transmitter's schedule is fully
//! determined by arrivals), so each packet costs one event per hop: its arrival at the next node. The pipe
//! is a ring ordered by arrival time with at most one pending event, for its head. Queue occupancy at any
//! instant is the number of packets whose transmission has not started yet, found by binary search.
//!
//! The buffer counts packets waiting for the transmitter, not the one being serialised (as ns-3 and the
//! ns-2 DropTail queue in front of a link do).

use super::managed::{Managed, Started};
use super::packet::Packet;
use super::packet::PacketKind;
use super::ring::Ring;
use crate::model::Buffer;
use crate::rng::Rng;
use crate::time::{serialisation, Time};

#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub struct InFlight {
    /// The packet itself. Packets travel by value from ring to ring: a ring is read and written in
    /// order, so the packet is in cache when it arrives (a pool slot, touched last a whole pipe ago, was
    /// not), and nothing needs allocating or freeing. First in the entry: a packet built in its slot
    /// (`LinkDir::reserve_plain`) is at the entry's address.
    pub pkt: Packet,
    pub start: Time,
    pub finish: Time,
    pub arrive: Time,
    /// Cumulative bytes accepted by this direction up to and including this packet.
    pub cum_bytes: u64,
    /// Dropped by the loss model after serialisation: discarded on arrival.
    pub lost: bool,
}

pub enum Enqueued {
    /// Accepted; if `Some(t)`, the caller must schedule this direction's arrival event at `t`.
    Accepted(Option<Time>),
    /// Dropped at the queue (buffer full or link down); the caller releases the packet. Also what a
    /// managed direction answers, without counting a drop: the caller then offers the packet to it
    /// (`managed.rs`). (A third variant cost the inline path ten instructions per hop: the two-variant
    /// enum fits in a register pair with `Option`'s niche.)
    Dropped,
}

pub struct LinkDir {
    pub bps: u64,
    pub delay: Time,
    pub buffer: Buffer,
    loss: f64,
    up: bool,
    /// Up and not managed: the one test `enqueue` makes before its FIFO (a managed direction is told
    /// apart there rather than by the caller, so drop-tail hops pay no extra branch).
    inline_fifo: bool,
    /// `inline_fifo`, not `lossy` and not `clamped`: a direction whose `enqueue` may take its path
    /// without calls (`update_plain` keeps it).
    plain: bool,
    /// The ring's last entry arrives later than its end of serialisation plus the current delay: held
    /// back behind an earlier packet after the delay was lowered (a link never reorders), or on the
    /// wire since before that. Only then may a new packet's arrival need holding back too, so only
    /// then do packets take the general path, which compares with the last arrival (the plain path
    /// saved that comparison and the store of the last arrival: 8 instructions a packet).
    clamped: bool,
    /// Deterministic drops (flow, seq), first transmissions only; sorted.
    drop_list: Vec<(u32, u64)>,
    /// `loss > 0` or a drop list: most directions lose nothing, and this one test is all they pay for
    /// the loss model (the drop list and the random draw each cost a test per packet otherwise).
    lossy: bool,
    rng: Rng,
    busy_until: Time,
    /// (size, serialisation time at `bps`) of the last packet: most directions carry one packet size,
    /// so the division runs once instead of per packet. Reset when the rate changes ((0, 0) is right at
    /// any rate).
    ser_cache: (u32, Time),
    ring: Ring<InFlight>,
    /// Number of a ring entry at or before the first one still waiting for the transmitter: every entry
    /// before it has started. Simulated time only moves forward, so this only moves forward too
    /// (except when a rate or delay change reschedules the waiting packets), and finding the queue length
    /// on enqueue costs O(1) amortised instead of a binary search over the ring.
    waiting_hint: u64,
    /// Bytes accepted so far; each ring entry holds the count up to and including its packet
    /// (`cum_bytes`), so the bytes of the ring from an entry on are a difference (`queue_bytes_from`).
    bytes_accepted: u64,
    /// Packets, and their bytes, that had started transmission when `take_down` removed them from the
    /// ring: still counted as sent. With them, the packets and bits sent follow from the ring's entry
    /// count and `bytes_accepted` (`pkts_sent`, `bits_sent`) instead of two counters per packet.
    cut_in_service: (u64, u64),
    pub event_pending: bool,
    /// Every route that crosses this direction ends with it (`Routes::last_hops`): a packet arriving is
    /// delivered without reading its route (12 instructions an arrival).
    pub last_hop: bool,
    /// Bits the simulation adds to this direction's index in the arrival events it schedules for it
    /// (`sim/events.rs` marks traced directions so, and tests the bit of the index it holds instead of
    /// loading a flag); 0 otherwise.
    pub event_tag: u32,
    pub stats: LinkStats,
    /// The queue discipline and transmitter of a managed direction (`managed.rs`); None for drop-tail at
    /// a fixed rate, whose departures are fixed on arrival.
    managed: Option<Box<Managed>>,
}

/// Counters for the summary and the time series. Time integrals are in nanoseconds.
#[derive(Clone, Debug, Default)]
pub struct LinkStats {
    /// Serialisation time of the packets sent: at most the time of the last one's end (transmissions do
    /// not overlap), so 64 bits hold it, and adding to it costs one instruction less than a `u128`.
    pub busy_ns: u64,
    /// Sum over packets of time spent waiting for the transmitter (Little's law gives the mean queue).
    pub wait_ns: u128,
    pub max_queue_pkts: u64,
    pub queue_drops: u64,
    pub loss_drops: u64,
}

impl LinkDir {
    pub fn new(bps: f64, delay: Time, buffer: Buffer, loss: f64, rng: Rng) -> LinkDir {
        LinkDir {
            bps: (bps.round() as u64).max(1),
            delay,
            buffer,
            loss,
            up: true,
            inline_fifo: true,
            plain: loss <= 0.0,
            clamped: false,
            drop_list: Vec::new(),
            lossy: loss > 0.0,
            rng,
            busy_until: 0,
            ser_cache: (0, 0),
            ring: Ring::default(),
            waiting_hint: 0,
            bytes_accepted: 0,
            cut_in_service: (0, 0),
            event_pending: false,
            last_hop: false,
            event_tag: 0,
            stats: LinkStats::default(),
            managed: None,
        }
    }

    /// Sets the random loss probability of packets sent from now on.
    pub fn set_loss(&mut self, loss: f64) {
        self.loss = loss;
        self.lossy = loss > 0.0 || !self.drop_list.is_empty();
        self.update_plain();
    }

    fn update_plain(&mut self) {
        self.plain = self.inline_fifo && !self.lossy && !self.clamped;
    }

    /// Arrival time of the ring's last entry; 0 for an empty ring, whose packets have all arrived by
    /// now (earlier than any new packet can).
    fn last_arrival(&self) -> Time {
        self.ring.back().map_or(0, |e| e.arrive)
    }

    /// `arrive`, for a packet about to join the ring, held back behind the ring's last arrival (a link
    /// never reorders: if its delay was lowered, later packets wait behind earlier ones); notes in
    /// `clamped` whether it was.
    fn after_last_arrival(&mut self, arrive: Time) -> Time {
        let last = self.last_arrival();
        if self.clamped != (last > arrive) {
            self.clamped = last > arrive;
            self.update_plain();
        }
        arrive.max(last)
    }

    /// Sets `clamped` from the ring's last entry after its arrival times or the delay changed.
    fn update_clamped(&mut self) {
        self.clamped = self.ring.back().is_some_and(|e| e.arrive > e.finish + self.delay);
        self.update_plain();
    }

    /// Sets the packets to drop deterministically: (flow, seq) of first transmissions of data.
    pub fn set_drop_list(&mut self, mut list: Vec<(u32, u64)>) {
        list.sort_unstable();
        self.drop_list = list;
        self.set_loss(self.loss);
    }

    /// Whether the loss model drops `p` (a packet about to be put on the wire), counting it if so. Only
    /// for a `lossy` direction: the random draw is made unless the drop list already dropped the packet.
    #[cold]
    #[inline(never)]
    fn loses(&mut self, p: &Packet) -> bool {
        let deterministic = p.kind == PacketKind::Data
            && !p.retransmit
            && !self.drop_list.is_empty()
            && self.drop_list.binary_search(&(p.owner, p.seq)).is_ok();
        let lost = deterministic || self.rng.bernoulli(self.loss);
        if lost {
            self.stats.loss_drops += 1;
        }
        lost
    }

    /// Makes this direction managed: packets wait in `managed`'s discipline.
    pub fn manage(&mut self, managed: Managed) {
        self.managed = Some(Box::new(managed));
        self.inline_fifo = false;
        self.update_plain();
    }

    pub fn is_up(&self) -> bool {
        self.up
    }

    /// Brings the direction back up after `take_down`.
    pub fn bring_up(&mut self) {
        self.up = true;
        self.inline_fifo = self.managed.is_none();
        self.update_plain();
    }

    /// The discipline and transmitter of a managed direction.
    pub fn managed(&self) -> Option<&Managed> {
        self.managed.as_deref()
    }

    /// Number of the first ring entry that has not started transmission at `now`.
    #[inline]
    fn first_waiting(&self, now: Time) -> u64 {
        self.ring.partition_point(|e| e.start <= now)
    }

    /// `first_waiting(now)` for the current (non-decreasing) simulation time, advancing `waiting_hint`.
    #[inline]
    fn first_waiting_advance(&mut self, now: Time) -> u64 {
        let mut k = self.waiting_hint.max(self.ring.head());
        while k < self.ring.tail() && self.ring.at(k).start <= now {
            k += 1;
        }
        self.waiting_hint = k;
        debug_assert_eq!(k, self.first_waiting(now));
        k
    }

    /// Packets waiting for the transmitter at `now`.
    pub fn queue_pkts(&self, now: Time) -> u64 {
        if let Some(m) = &self.managed {
            return m.waiting_packets();
        }
        self.ring.tail() - self.first_waiting(now)
    }

    /// Bytes of the ring entries from number `k` on (`k` in `head..=tail`). Entry `k`'s count less its
    /// own size is its predecessor's, so nothing keeps the count of the last entry popped: storing it
    /// cost every arrival 2 instructions.
    fn queue_bytes_from(&self, k: u64) -> u64 {
        if k == self.ring.tail() {
            return 0;
        }
        let e = self.ring.at(k);
        self.bytes_accepted - (e.cum_bytes - e.pkt.size as u64)
    }

    #[inline]
    fn serialisation(&mut self, size: u32) -> Time {
        if self.ser_cache.0 != size {
            self.ser_cache = (size, serialisation(size, self.bps));
        }
        self.ser_cache.1
    }

    /// Offers a packet to this direction at `now`.
    #[inline]
    pub fn enqueue(&mut self, now: Time, pkt: &Packet) -> Enqueued {
        if !self.inline_fifo {
            return self.not_inline();
        }
        let ser = self.serialisation(pkt.size);
        self.accept(now, pkt, ser, true, |link| link.lossy && link.loses(pkt))
    }

    /// Whether `enqueue_plain` may take `pkt`: the usual direction (drop-tail, up, lossless, no arrival
    /// held back behind an earlier one: `clamped`) carrying the size of its last packet, with room in
    /// its ring. One flag and two comparisons, and that path makes no call (no division for a new size,
    /// no growth, no loss model): a caller leaves `enqueue` for everything else, behind a call in tail
    /// position.
    #[inline(always)]
    pub fn takes_plain(&self, pkt: &Packet) -> bool {
        self.takes_plain_size(pkt.size)
    }

    /// `takes_plain` for a packet of `size` bytes.
    #[inline(always)]
    pub fn takes_plain_size(&self, size: u32) -> bool {
        self.plain && self.ser_cache.0 == size && self.ring.has_room()
    }

    /// `enqueue_plain` of a packet of `size` bytes that the caller writes into the returned ring slot
    /// (built there, not built aside and copied). None if the buffer is full: nothing has changed then,
    /// and `enqueue` drops the packet as it would have. `first_arrival` is called with `event_tag` and
    /// the packet's arrival time when the direction had no arrival event.
    #[inline(always)]
    pub fn reserve_plain(
        &mut self,
        now: Time,
        size: u32,
        first_arrival: impl FnOnce(u32, Time),
    ) -> Option<&mut Packet> {
        debug_assert!(self.takes_plain_size(size));
        let ser = self.ser_cache.1;
        let (start, finish, arrive) = self.admit(now, size, ser, false, false)?;
        let cum_bytes = self.bytes_accepted;
        // The ring borrowed apart from the event fields, so that the slot is held across the call below.
        let LinkDir { ring, event_pending, event_tag, .. } = self;
        let e = ring.push_back_slot();
        e.start = start;
        e.finish = finish;
        e.arrive = arrive;
        e.cum_bytes = cum_bytes;
        e.lost = false;
        if !*event_pending {
            *event_pending = true;
            first_arrival(*event_tag, arrive);
        }
        Some(&mut e.pkt)
    }

    /// `enqueue` of a packet `takes_plain` accepts. A drop here is a full buffer's (`Dropped` is never
    /// an offer to a managed direction).
    #[inline(always)]
    pub fn enqueue_plain(&mut self, now: Time, pkt: &Packet) -> Enqueued {
        debug_assert!(self.takes_plain(pkt));
        let ser = self.ser_cache.1;
        self.accept(now, pkt, ser, false, |_| false)
    }

    /// Queues or drops a packet whose serialisation takes `ser` on this FIFO direction; `lose` is asked,
    /// once the packet is accepted, whether the loss model drops it on the wire. `clamp` as `admit`'s.
    #[inline(always)]
    fn accept(
        &mut self,
        now: Time,
        pkt: &Packet,
        ser: Time,
        clamp: bool,
        lose: impl FnOnce(&mut Self) -> bool,
    ) -> Enqueued {
        let Some((start, finish, arrive)) = self.admit(now, pkt.size, ser, true, clamp) else {
            return Enqueued::Dropped;
        };
        let lost = lose(self);
        self.ring.push_back(InFlight {
            start,
            finish,
            arrive,
            cum_bytes: self.bytes_accepted,
            pkt: *pkt,
            lost,
        });
        if self.event_pending {
            Enqueued::Accepted(None)
        } else {
            self.event_pending = true;
            Enqueued::Accepted(Some(arrive))
        }
    }

    /// The FIFO's schedule for a packet of `size` bytes whose serialisation takes `ser`: its start,
    /// finish and arrival times, with the transmitter and the counters moved on; None if the buffer is
    /// full (a drop counted only if `count_drop`). Only a caller that may find the direction `clamped`
    /// asks for the arrival to be held back behind the last one (`clamp`).
    #[inline(always)]
    fn admit(
        &mut self,
        now: Time,
        size: u32,
        ser: Time,
        count_drop: bool,
        clamp: bool,
    ) -> Option<(Time, Time, Time)> {
        // Only a packet that waits adds to the waiting time and may raise the maximum queue: a packet
        // finding the transmitter idle (every ACK of the reference dumbbell) skips both counters.
        let start = if self.busy_until > now {
            let k = self.first_waiting_advance(now);
            let waiting = self.ring.tail() - k;
            let full = match self.buffer {
                Buffer::Packets(cap) => waiting >= cap,
                Buffer::Bytes(cap) => self.queue_bytes_from(k) + size as u64 > cap,
            };
            if full {
                if count_drop {
                    self.stats.queue_drops += 1;
                }
                return None;
            }
            self.stats.wait_ns += (self.busy_until - now) as u128;
            self.stats.max_queue_pkts = self.stats.max_queue_pkts.max(waiting + 1);
            self.busy_until
        } else {
            now
        };
        let finish = start + ser;
        self.busy_until = finish;
        let arrive = if clamp {
            self.after_last_arrival(finish + self.delay)
        } else {
            debug_assert!(!self.clamped && self.last_arrival() <= finish + self.delay);
            finish + self.delay
        };
        self.bytes_accepted += size as u64;
        self.stats.busy_ns += ser;
        Some((start, finish, arrive))
    }

    /// `enqueue` on a direction that is down or managed.
    #[cold]
    #[inline(never)]
    fn not_inline(&mut self) -> Enqueued {
        if self.managed.is_none() {
            self.stats.queue_drops += 1;
        }
        Enqueued::Dropped
    }

    /// Appends a packet whose transmission is scheduled (`start`, `finish` set) to the ring, filling in
    /// its arrival time and cumulative bytes, and counts it. Returns its arrival time.
    #[inline(always)]
    fn put_on_wire(&mut self, mut e: InFlight) -> Time {
        let size = e.pkt.size as u64;
        self.busy_until = e.finish;
        e.arrive = self.after_last_arrival(e.finish + self.delay);
        self.bytes_accepted += size;
        e.cum_bytes = self.bytes_accepted;
        self.stats.busy_ns += e.finish - e.start;
        self.ring.push_back(e);
        e.arrive
    }

    /// The head packet if it has arrived by `now`, with whether the loss model dropped it: what the
    /// event loop needs, copied once (the ring entry's timing fields stay behind).
    #[inline]
    pub fn pop_arrived_packet(&mut self, now: Time) -> Option<(Packet, bool)> {
        match self.next_arrival() {
            Some(t) if t <= now => {
                let lost = self.head_lost();
                Some((self.pop_head_packet(), lost))
            }
            _ => None,
        }
    }

    /// Whether the loss model dropped the head packet. The ring must not be empty.
    #[inline(always)]
    pub fn head_lost(&self) -> bool {
        self.ring.front().expect("head_lost of an empty ring").lost
    }

    /// The head packet, left in its ring slot for a caller that reads only some of its fields and then
    /// moves on with `advance_head`. The ring must not be empty.
    #[inline(always)]
    pub fn head_packet(&self) -> &Packet {
        &self.ring.front().expect("head_packet of an empty ring").pkt
    }

    /// The packet `advance_head` or `pop_head_packet` last took, which its slot holds until the ring
    /// wraps onto it: valid only while nothing has been pushed since. Something has been popped.
    #[inline]
    pub fn last_popped(&self) -> &Packet {
        &self.ring.last_popped().pkt
    }

    /// Drops the head packet read in place (`head_packet`).
    #[inline(always)]
    pub fn advance_head(&mut self) {
        self.ring.advance_head();
    }

    /// Takes the head packet. The ring must not be empty. Apart from `head_lost` because returning the
    /// pair made the event loop copy the packet twice.
    #[inline(always)]
    pub fn pop_head_packet(&mut self) -> Packet {
        let e = self.ring.front().expect("pop_head of an empty ring");
        let p = e.pkt;
        self.ring.advance_head();
        p
    }

    /// `pop_arrived_packet` with the packet's start of transmission (for traces of departures).
    pub fn pop_arrived_departure(&mut self, now: Time) -> Option<(Packet, bool, Time)> {
        let start = self.ring.front()?.start;
        self.pop_arrived_packet(now).map(|(p, lost)| (p, lost, start))
    }

    /// The packets still in this direction whose transmission started by `t`, in order, with their
    /// start times: those on the wire (and those serialised already at a run's end).
    pub fn departed_by(&self, t: Time) -> impl Iterator<Item = (&Packet, Time)> {
        self.ring.iter().take_while(move |e| e.start <= t).map(|e| (&e.pkt, e.start))
    }

    /// Arrival time of the head, if any.
    #[inline]
    pub fn next_arrival(&self) -> Option<Time> {
        self.ring.front().map(|e| e.arrive)
    }

    /// Packets this direction holds: on the wire, and waiting in a managed direction's discipline.
    pub fn in_flight(&self) -> usize {
        self.ring.len() + self.managed.as_ref().map_or(0, |m| m.waiting_packets() as usize)
    }

    /// Packet slots allocated for the ring.
    pub fn slots(&self) -> usize {
        self.ring.capacity()
    }

    /// Bits whose serialisation finished by `t` (for per-interval link throughput).
    pub fn bits_finished_by(&self, t: Time) -> u64 {
        // Finish times grow along the ring, so the unfinished packets are a suffix, and their bytes are a
        // difference of cumulative counts: a binary search instead of a walk over the whole queue (which,
        // at every sample of a deep queue, cost more cache misses than the packets themselves).
        let k = self.ring.partition_point(|e| e.finish <= t);
        self.bits_sent() - self.queue_bytes_from(k) * 8
    }

    /// Packets put on the wire (not counting those taken down before their transmission started).
    pub fn pkts_sent(&self) -> u64 {
        // Every packet put on the wire was pushed on the ring; only `take_down` pops from its back.
        self.ring.tail() + self.cut_in_service.0
    }

    /// Bits put on the wire, as `pkts_sent` counts packets.
    fn bits_sent(&self) -> u64 {
        // `take_down` rewinds `bytes_accepted` past every packet it removes.
        (self.bytes_accepted + self.cut_in_service.1) * 8
    }

    /// Changes the rate: packets not yet started are rescheduled at the new rate behind the one in service.
    pub fn set_rate(&mut self, now: Time, bps: f64) {
        self.bps = (bps.round() as u64).max(1);
        self.ser_cache = (0, 0);
        self.reschedule_waiting(now);
        self.update_clamped();
    }

    /// Changes the propagation delay for packets that have not started transmission.
    pub fn set_delay(&mut self, now: Time, delay: Time) {
        self.delay = delay;
        self.reschedule_waiting(now);
        self.update_clamped();
    }

    fn reschedule_waiting(&mut self, now: Time) {
        let k = self.first_waiting(now);
        // Start times from k on change (possibly to `now`): the hint must not point past k.
        self.waiting_hint = k;
        let first = k == self.ring.head();
        let mut free_at = if first { now } else { self.ring.at(k - 1).finish.max(now) };
        let mut last_arrive = if first { 0 } else { self.ring.at(k - 1).arrive };
        for n in self.ring.numbers_from(k) {
            let e = self.ring.at_mut(n);
            let old_ser = e.finish - e.start;
            let ser = serialisation(e.pkt.size, self.bps);
            self.stats.busy_ns = self.stats.busy_ns + ser - old_ser;
            self.stats.wait_ns = self.stats.wait_ns + free_at as u128 - e.start as u128;
            e.start = free_at;
            e.finish = free_at + ser;
            e.arrive = (e.finish + self.delay).max(last_arrive);
            free_at = e.finish;
            last_arrive = e.arrive;
        }
        // The transmitter is busy until the last packet in the ring has been serialised; an empty ring
        // means nothing is in service.
        if let Some(back) = self.ring.back() {
            self.busy_until = back.finish;
        }
    }

    /// Takes the link down: everything queued or on the wire is lost. Returns the dropped packets.
    pub fn take_down(&mut self, now: Time) -> Vec<Packet> {
        self.up = false;
        self.inline_fifo = false;
        self.update_plain();
        let mut dropped = Vec::with_capacity(self.ring.len());
        // What was accepted before the ring's first entry: the count goes back to it.
        let kept_bytes = self.bytes_accepted - self.queue_bytes_from(self.ring.head());
        while let Some(e) = self.ring.pop_back() {
            let unserved = e.finish - e.start.max(now).min(e.finish);
            self.stats.busy_ns -= unserved;
            self.stats.wait_ns -= e.start.saturating_sub(now) as u128;
            if e.start <= now {
                self.cut_in_service.0 += 1;
                self.cut_in_service.1 += e.pkt.size as u64;
            }
            self.stats.queue_drops += 1;
            dropped.push(e.pkt);
        }
        self.bytes_accepted = kept_bytes;
        self.waiting_hint = self.ring.head();
        self.busy_until = now;
        self.update_clamped();
        dropped.reverse();
        if let Some(m) = &mut self.managed {
            let waiting = m.drain();
            self.stats.queue_drops += waiting.len() as u64;
            dropped.extend(waiting);
        }
        dropped
    }

    /// A packet arrives at a managed direction at `now`: the discipline keeps or drops it, and an idle
    /// transmitter starts.
    pub fn offer(&mut self, now: Time, pkt: &Packet) -> Started {
        let mut out = Started::default();
        let up = self.up;
        let m = self.managed.as_mut().expect("offer on a managed direction");
        if !up {
            self.stats.queue_drops += 1;
            out.drops += 1;
            return out;
        }
        let (kept, evicted) = m.enqueue(now, *pkt);
        let dropped = evicted + u32::from(!kept);
        self.stats.queue_drops += dropped as u64;
        out.drops += dropped;
        if !kept {
            return out;
        }
        if m.transmitter_idle() {
            self.start_next(now, &mut out);
        }
        let waiting = self.managed.as_ref().map_or(0, |m| m.waiting_packets());
        self.stats.max_queue_pkts = self.stats.max_queue_pkts.max(waiting);
        out
    }

    /// The transmit event of a managed direction is due at `now`: the packet in service has left, the
    /// next one starts. A stale event (its packet was dropped when the link went down) does nothing.
    pub fn transmitter_free(&mut self, now: Time) -> Started {
        let mut out = Started::default();
        if self.managed.as_mut().is_some_and(|m| m.transmit_due(now)) {
            self.start_next(now, &mut out);
        }
        out
    }

    /// Takes the next packet from a managed direction's discipline and puts it on the wire.
    fn start_next(&mut self, now: Time, out: &mut Started) {
        let m = self.managed.as_mut().expect("managed direction");
        let (next, dropped) = m.take_next(now, self.bps);
        self.stats.queue_drops += dropped as u64;
        out.drops += dropped;
        let Some((w, finish)) = next else { return };
        out.transmit = Some(finish);
        let p = w.pkt;
        let lost = self.lossy && self.loses(&p);
        self.stats.wait_ns += (now - w.since) as u128;
        let arrive = self.put_on_wire(InFlight { start: now, finish, arrive: 0, cum_bytes: 0, lost, pkt: p });
        if !self.event_pending {
            self.event_pending = true;
            out.arrival = Some(arrive);
        }
    }

    /// Removes the part of busy time and waiting time that lies after `end`, so run totals cover [0, end].
    pub fn clip_stats(&self, end: Time) -> (u128, u128) {
        let mut busy = self.stats.busy_ns as u128;
        let mut wait = self.stats.wait_ns;
        for e in self.ring.iter().rev() {
            if e.finish <= end {
                break;
            }
            busy -= (e.finish - e.start.max(end)) as u128;
            wait -= e.start.saturating_sub(end) as u128;
        }
        (busy, wait)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Params;
    use crate::net::capacity::Server;
    use crate::net::queue::{droptail, QueueContext};

    /// A packet told apart by its sequence number.
    fn pkt(seq: u64, size: u32) -> Packet {
        Packet { seq, size, ..Packet::EMPTY }
    }

    fn link(cap: u64) -> LinkDir {
        // 8 Mbps: a 1000-byte packet takes 1 ms; 10 ms propagation.
        LinkDir::new(8e6, 10_000_000, Buffer::Packets(cap), 0.0, Rng::stream(1, "t"))
    }

    #[test]
    fn fifo_schedule_and_queue_occupancy() {
        let mut l = link(2);
        assert!(matches!(l.enqueue(0, &pkt(0, 1000)), Enqueued::Accepted(Some(11_000_000))));
        assert!(matches!(l.enqueue(0, &pkt(1, 1000)), Enqueued::Accepted(None)));
        assert!(matches!(l.enqueue(0, &pkt(2, 1000)), Enqueued::Accepted(None)));
        // Two waiting (capacity 2), one in service: the fourth is dropped.
        assert!(matches!(l.enqueue(0, &pkt(3, 1000)), Enqueued::Dropped));
        assert_eq!(l.queue_pkts(0), 2);
        assert_eq!(l.queue_pkts(1_000_000), 1);
        assert_eq!(l.queue_pkts(2_000_000), 0);
        assert_eq!(l.pop_arrived_packet(10_999_999).map(|(p, _)| p.seq), None);
        assert_eq!(l.pop_arrived_packet(11_000_000).map(|(p, _)| p.seq), Some(0));
        assert_eq!(l.next_arrival(), Some(12_000_000));
        assert_eq!(l.stats.max_queue_pkts, 2);
        assert_eq!(l.stats.queue_drops, 1);
        // Waiting times: 0 + 1 ms + 2 ms.
        assert_eq!(l.stats.wait_ns, 3_000_000);
    }

    #[test]
    fn byte_buffer_counts_bytes() {
        let mut l = LinkDir::new(8e6, 0, Buffer::Bytes(1500), 0.0, Rng::stream(1, "t"));
        assert!(matches!(l.enqueue(0, &pkt(0, 1000)), Enqueued::Accepted(_)));
        assert!(matches!(l.enqueue(0, &pkt(1, 1000)), Enqueued::Accepted(_)));
        assert!(matches!(l.enqueue(0, &pkt(2, 600)), Enqueued::Dropped));
        assert!(matches!(l.enqueue(0, &pkt(3, 500)), Enqueued::Accepted(_)));
    }

    /// After the delay is lowered, packets arrive no earlier than those already on the wire, and take
    /// the general path (which holds them back) until one arrives at its own time.
    #[test]
    fn a_lowered_delay_holds_arrivals_back_off_the_plain_path() {
        let mut l = link(10);
        for i in 0..3 {
            enqueue_as_the_network_does(&mut l, 0, &pkt(i, 1000));
        }
        assert!(l.takes_plain(&pkt(3, 1000)));
        // Packet 0 is on the wire (due at 11 ms); 1 and 2 now finish at 2 and 3 ms, plus 1 ms.
        l.set_delay(500_000, 1_000_000);
        assert!(!l.takes_plain(&pkt(3, 1000)), "held back: off the plain path");
        // Finishes at 4 ms: due at 5 ms, held back to 11 ms.
        enqueue_as_the_network_does(&mut l, 600_000, &pkt(3, 1000));
        let arrivals: Vec<_> = std::iter::from_fn(|| {
            let t = l.next_arrival()?;
            l.pop_arrived_packet(t).map(|(p, _)| (p.seq, t))
        })
        .collect();
        assert_eq!(arrivals, vec![(0, 11_000_000), (1, 11_000_000), (2, 11_000_000), (3, 11_000_000)]);
        assert!(!l.takes_plain(&pkt(4, 1000)), "the last entry was held back");
        // The next packet arrives at its own time, and the one after takes the plain path again.
        enqueue_as_the_network_does(&mut l, 20_000_000, &pkt(4, 1000));
        assert_eq!(l.next_arrival(), Some(22_000_000));
        assert!(l.takes_plain(&pkt(5, 1000)));
        enqueue_as_the_network_does(&mut l, 20_000_000, &pkt(5, 1000));
        assert_eq!(l.ring.back().map(|e| e.arrive), Some(23_000_000));
    }

    /// The bytes queued from any ring entry on, derived from the entries' running counts, are their
    /// sizes summed, and the bytes sent are those popped, cut in service and still held, through
    /// arrivals, drops, departures and the direction going down and back up.
    #[test]
    fn queued_bytes_follow_from_the_entries_counts() {
        let mut l = LinkDir::new(8e6, 5_000_000, Buffer::Bytes(20_000), 0.0, Rng::stream(5, "t"));
        let mut rng = Rng::stream(5, "sizes");
        let (mut t, mut popped) = (0, 0);
        for seq in 0..5000u64 {
            t += rng.exponential(800_000.0) as Time;
            if seq % 1000 == 999 {
                l.take_down(t);
                l.bring_up();
            }
            l.enqueue(t, &pkt(seq, 200 + (rng.next_u64() % 1300) as u32));
            while let Some(a) = l.next_arrival().filter(|&a| a <= t) {
                popped += l.pop_arrived_packet(a).unwrap().0.size as u64;
            }
            let (head, tail) = (l.ring.head(), l.ring.tail());
            for k in head..=tail {
                let sum: u64 = (k..tail).map(|n| l.ring.at(n).pkt.size as u64).sum();
                assert_eq!(l.queue_bytes_from(k), sum, "packet {seq}, entry {k}");
            }
            assert_eq!(l.bits_sent() / 8, popped + l.cut_in_service.1 + l.queue_bytes_from(head));
        }
        assert!(l.stats.queue_drops > 100 && l.cut_in_service.0 > 0, "{:?}", l.stats);
    }

    #[test]
    fn rate_change_reschedules_waiting_packets_only() {
        let mut l = link(10);
        for i in 0..3 {
            l.enqueue(0, &pkt(i, 1000));
        }
        l.set_rate(500_000, 16e6);
        let arrivals: Vec<_> = std::iter::from_fn(|| {
            let t = l.next_arrival()?;
            l.pop_arrived_packet(u64::MAX).map(|_| t)
        })
        .collect();
        // First packet keeps 1 ms; the others take 0.5 ms each after it.
        assert_eq!(arrivals, vec![11_000_000, 11_500_000, 12_000_000]);
    }

    #[test]
    fn taking_the_link_down_drops_everything() {
        let mut l = link(10);
        for i in 0..3 {
            l.enqueue(0, &pkt(i, 1000));
        }
        let dropped: Vec<u64> = l.take_down(500_000).iter().map(|p| p.seq).collect();
        assert_eq!(dropped, vec![0, 1, 2]);
        assert!(matches!(l.enqueue(600_000, &pkt(4, 1000)), Enqueued::Dropped));
        assert_eq!(l.in_flight(), 0);
    }

    /// A 8 Mbps direction with 10 ms of propagation and a 5-packet buffer.
    fn direction_managed_or_not(managed: bool) -> LinkDir {
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
        let (mut inline, mut managed) = (direction_managed_or_not(false), direction_managed_or_not(true));
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
            if matches!(inline.enqueue(t, &p), Enqueued::Dropped) {
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

    /// What the network's `enqueue` does: the plain path when the direction takes the packet.
    fn enqueue_as_the_network_does(l: &mut LinkDir, now: Time, p: &Packet) -> Enqueued {
        if l.takes_plain(p) {
            l.enqueue_plain(now, p)
        } else {
            l.enqueue(now, p)
        }
    }

    /// What the network's `send_filled` does: the packet written into the slot `reserve_plain` gives
    /// when the direction takes it, the general path otherwise (a full buffer included).
    fn reserve_as_the_network_does(l: &mut LinkDir, now: Time, p: &Packet) -> Enqueued {
        if l.takes_plain_size(p.size) {
            let mut first = None;
            if let Some(slot) = l.reserve_plain(now, p.size, |_, t| first = Some(t)) {
                *slot = *p;
                return Enqueued::Accepted(first);
            }
        }
        l.enqueue(now, p)
    }

    /// The plain path, and the packet written into its reserved slot, queue, drop and schedule exactly
    /// as the general one, over arrivals that fill and drain the buffer, with an occasional packet of
    /// another size and the ring's growth.
    #[test]
    fn the_plain_path_matches_the_general_one() {
        let (mut plain, mut reserved, mut general) = (link(20), link(20), link(20));
        let mut rng = Rng::stream(3, "arrivals");
        let (mut t, mut took_plain) = (0, 0);
        let mut out = [Vec::new(), Vec::new(), Vec::new()];
        for seq in 0..20_000u64 {
            t += rng.exponential(950_000.0) as Time;
            let size = if rng.next_u64().is_multiple_of(50) { 400 } else { 1000 };
            let p = pkt(seq, size);
            took_plain += u32::from(plain.takes_plain(&p));
            let key = |e: Enqueued| match e {
                Enqueued::Accepted(t) => Some(t),
                Enqueued::Dropped => None,
            };
            let a = key(enqueue_as_the_network_does(&mut plain, t, &p));
            let b = key(reserve_as_the_network_does(&mut reserved, t, &p));
            let c = key(general.enqueue(t, &p));
            assert_eq!((a, b), (c, c), "packet {seq}");
            for (l, out) in [&mut plain, &mut reserved, &mut general].into_iter().zip(&mut out) {
                while let Some(a) = l.next_arrival().filter(|&a| a <= t) {
                    let (p, lost) = l.pop_arrived_packet(a).unwrap();
                    out.push((p.seq, p.size, lost, a));
                }
            }
        }
        assert!(
            took_plain > 15_000 && plain.stats.queue_drops > 100,
            "{took_plain} {}",
            plain.stats.queue_drops
        );
        for l in [&plain, &reserved] {
            assert_eq!(l.stats.queue_drops, general.stats.queue_drops);
            assert_eq!(l.stats.wait_ns, general.stats.wait_ns);
            assert_eq!(l.stats.busy_ns, general.stats.busy_ns);
            assert_eq!(l.stats.max_queue_pkts, general.stats.max_queue_pkts);
            assert_eq!((l.pkts_sent(), l.bits_sent()), (general.pkts_sent(), general.bits_sent()));
        }
        assert_eq!(out[0], out[2]);
        assert_eq!(out[1], out[2]);
    }

    /// Only a lossless drop-tail direction that is up takes the plain path, whatever changed it.
    #[test]
    fn loss_a_drop_list_going_down_or_a_discipline_leave_the_plain_path() {
        let p = pkt(0, 1000);
        let mut l = link(10);
        l.enqueue(0, &p);
        assert!(l.takes_plain(&p));
        assert!(!l.takes_plain(&pkt(1, 999)), "a new size needs its division");
        l.set_loss(0.5);
        assert!(!l.takes_plain(&p));
        l.set_loss(0.0);
        assert!(l.takes_plain(&p));
        l.set_drop_list(vec![(0, 7)]);
        assert!(!l.takes_plain(&p));
        l.set_drop_list(Vec::new());
        assert!(l.takes_plain(&p));
        l.take_down(0);
        assert!(!l.takes_plain(&p));
        l.bring_up();
        assert!(l.takes_plain(&p));
        let mut m = direction_managed_or_not(true);
        m.enqueue(0, &p);
        assert!(!m.takes_plain(&p));
        m.take_down(0);
        m.bring_up();
        assert!(!m.takes_plain(&p));
        let lossy = LinkDir::new(8e6, 0, Buffer::Packets(5), 0.1, Rng::stream(1, "t"));
        assert!(!lossy.takes_plain(&pkt(0, 0)));
    }
}
