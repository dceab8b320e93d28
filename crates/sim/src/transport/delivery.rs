//! Delivery to the receiving application. A connection carries `n` independent message streams; packet
//! `seq` belongs to stream `seq % n` as that stream's message number `seq / n` (the streams are saturated
//! and interleave round-robin). Each stream is delivered in order on its own, so a hole blocks only its
//! own stream: with n = 1 this is plain TCP's in-order delivery and its head-of-line blocking.

use super::deque::SeqRing;
use crate::time::{run_time_f64, Time};

#[derive(Clone, Debug)]
pub struct StreamStats {
    pub delivered_pkts: u64,
    pub delay_sum_ns: f64,
    pub delay_max_ns: Time,
    /// The smallest delivery delay, `Time::MAX` before the first delivery (`delay_min_ns()`): a
    /// sentinel rather than an `Option`, which cost a tag and a select per message.
    delay_min_ns: Time,
}

impl Default for StreamStats {
    fn default() -> Self {
        StreamStats { delivered_pkts: 0, delay_sum_ns: 0.0, delay_max_ns: 0, delay_min_ns: Time::MAX }
    }
}

impl StreamStats {
    /// The smallest delivery delay so far.
    pub fn delay_min_ns(&self) -> Option<Time> {
        (self.delivered_pkts > 0).then_some(self.delay_min_ns)
    }
}

/// In the receiver's buffer of first-send times (`Receiver`), a packet not arrived yet: no send time is
/// this late.
pub const NOT_ARRIVED: Time = Time::MAX;

#[derive(Clone, Debug, Default)]
struct Stream {
    /// Next message number the application expects on this stream.
    next: u64,
    stats: StreamStats,
}

impl Stream {
    /// Delivers the next message, `delay` after it was first sent.
    #[inline(always)]
    fn record(&mut self, delay: Time) {
        self.stats.delivered_pkts += 1;
        self.stats.delay_sum_ns += run_time_f64(delay);
        self.stats.delay_max_ns = self.stats.delay_max_ns.max(delay);
        self.stats.delay_min_ns = self.stats.delay_min_ns.min(delay);
        self.next += 1;
    }
}

/// The streams' delivery state. What waits out of order is not kept here: it is the receiver's buffer
/// of first-send times, which the receiver needs anyway for its cumulative ACK (and, with one stream,
/// holds exactly the messages waiting), passed in where a delivery may release some.
#[derive(Clone, Debug)]
pub struct AppDelivery {
    streams: Vec<Stream>,
}

impl AppDelivery {
    pub fn new(n: u32) -> Self {
        AppDelivery { streams: vec![Stream::default(); n.max(1) as usize] }
    }

    pub fn n_streams(&self) -> usize {
        self.streams.len()
    }

    /// Packet `seq`'s stream and message number there.
    #[inline(always)]
    fn stream_of(&mut self, seq: u64) -> (&mut Stream, u64) {
        let n = self.streams.len() as u64;
        // A 64-bit division costs tens of cycles; most connections have one stream.
        let (stream, msg) = if n == 1 { (0, seq) } else { ((seq % n) as usize, seq / n) };
        (&mut self.streams[stream], msg)
    }

    /// Packet `seq` arrived at `now` in order with nothing waiting behind it: its stream's next message,
    /// delivered at once. `first_sent` is when it was first transmitted.
    #[inline(always)]
    pub fn deliver_in_order(&mut self, seq: u64, first_sent: Time, now: Time) {
        let (st, msg) = self.stream_of(seq);
        debug_assert_eq!(st.next, msg, "everything before an in-order packet has arrived");
        st.record(now.saturating_sub(first_sent));
    }

    /// Packet `seq`, new and at or above the receiver's cumulative point, arrived at `now` while others
    /// wait in `waiting` (first-send times by sequence number, `NOT_ARRIVED` in the holes). If it is its
    /// stream's next message, it is delivered with every message after it on its stream that is waiting.
    /// Returns the packet of its stream that the walk stopped at (`seq` if nothing was delivered): with
    /// one stream, the first packet not arrived, which is the receiver's new cumulative point.
    pub fn deliver_with_waiting(
        &mut self,
        seq: u64,
        first_sent: Time,
        now: Time,
        waiting: &SeqRing<Time>,
    ) -> u64 {
        let n = self.streams.len() as u64;
        let (st, msg) = self.stream_of(seq);
        debug_assert!(msg >= st.next, "a new packet is not below its stream's next message");
        if msg != st.next {
            return seq;
        }
        st.record(now.saturating_sub(first_sent));
        let mut k = seq + n;
        while let Some(t) = waiting.get(k).filter(|&t| t != NOT_ARRIVED) {
            st.record(now.saturating_sub(t));
            k += n;
        }
        k
    }

    pub fn stats(&self) -> impl Iterator<Item = &StreamStats> {
        self.streams.iter().map(|s| &s.stats)
    }

    pub fn delivered_pkts(&self) -> u64 {
        self.streams.iter().map(|s| s.stats.delivered_pkts).sum()
    }

    /// Mean and maximum delivery delay over all streams, in nanoseconds.
    pub fn delay(&self) -> Option<(f64, Time)> {
        let n = self.delivered_pkts();
        if n == 0 {
            return None;
        }
        let sum: f64 = self.streams.iter().map(|s| s.stats.delay_sum_ns).sum();
        let max = self.streams.iter().map(|s| s.stats.delay_max_ns).max().unwrap_or(0);
        Some((sum / n as f64, max))
    }
}
