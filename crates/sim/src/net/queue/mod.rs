//! Queue disciplines: what a link direction does with packets that wait for its transmitter. One file
//! per discipline behind `QueueDiscipline`; `registry.rs` lists them with their parameter schemas.
//!
//! A direction with the default drop-tail queue and a fixed rate never uses this module: its departures
//! are computed on arrival (`link.rs`), one event per packet per hop. Any other discipline, or a capacity
//! that varies (`capacity.rs`), makes the direction *managed*: packets wait in the discipline, which may
//! drop or mark them on arrival or when they reach the head, and the transmitter takes the next one when
//! it is free (one more event per packet on that hop).

pub mod codel;
pub mod droptail;
pub mod fifo;
pub mod fq_codel;
pub mod pie;
pub mod red;
pub mod registry;

pub use registry::{queue_discipline, queue_disciplines, queue_registry_json, QueueInfo};

use crate::model::Buffer;
use crate::net::Packet;
use crate::rng::Rng;
use crate::time::Time;

/// A packet in a discipline's queue, with the time it arrived (its sojourn time is measured from it).
#[derive(Clone, Copy, Debug)]
pub struct Waiting {
    pub pkt: Packet,
    pub since: Time,
}

/// What a discipline counts. Drops are split by cause: `overflow_drops` when the buffer (or the
/// discipline's own limit) is full, `early_drops` when the discipline chose to drop a packet it could have
/// kept (RED's probability, CoDel's control law, PIE's probability).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueCounters {
    pub overflow_drops: u64,
    pub early_drops: u64,
    /// Packets marked CE instead of dropped.
    pub marks: u64,
}

/// What a discipline is built with.
#[derive(Clone, Debug)]
pub struct QueueContext {
    /// The direction's buffer: the most packets (or bytes) waiting, not counting the one in service.
    pub buffer: Buffer,
    /// The direction's nominal rate in bits per second (its mean for a varying capacity).
    pub bps: f64,
    /// The direction's propagation delay when the run starts (RED's automatic queue weight, as ns-2's,
    /// assumes a round trip of three times it).
    pub delay: Time,
    /// Bytes on the wire of the scenario's data packets (the MTU a discipline's byte rules refer to).
    pub mtu: u32,
    /// The direction's own random stream for the discipline's decisions.
    pub rng: Rng,
}

/// A queue discipline. Every packet the link offers is either kept or dropped by `enqueue`; every packet
/// kept leaves through `dequeue` (possibly as a drop listed there), `take_evicted` or `drain`.
pub trait QueueDiscipline {
    /// `pkt` arrives at `now`. Returns false if it was dropped (counted by the discipline); a kept packet
    /// may have been marked CE.
    fn enqueue(&mut self, now: Time, pkt: Packet) -> bool;

    /// The packet the transmitter sends next, taken at `now`; None if nothing waits. Packets the
    /// discipline drops on the way to the head are pushed onto `dropped`.
    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Packet>) -> Option<Waiting>;

    /// Packets waiting.
    fn len_packets(&self) -> u64;

    /// Bytes waiting.
    fn len_bytes(&self) -> u64;

    /// Moves onto `dropped` the packets an `enqueue` since the last call pushed out of the queue to make
    /// room (FQ-CoDel drops from the head of its largest flow queue rather than the arrival). The default,
    /// for disciplines that only ever refuse the arrival, moves none.
    fn take_evicted(&mut self, _dropped: &mut Vec<Packet>) {}

    /// Takes every waiting packet out (the link went down), oldest first.
    fn drain(&mut self) -> Vec<Packet>;

    fn counters(&self) -> QueueCounters;
}

/// Whether a packet of `size` bytes fits in `buffer` beside `pkts` packets of `bytes` bytes: the
/// tail-drop rule every discipline applies before its own.
#[inline]
pub fn fits(buffer: Buffer, pkts: u64, bytes: u64, size: u32) -> bool {
    match buffer {
        Buffer::Packets(cap) => pkts < cap,
        Buffer::Bytes(cap) => bytes + size as u64 <= cap,
    }
}
