//! Delivery to the receiving application. A connection carries `n` independent message streams; packet
//! `seq` belongs to stream `seq % n` as that stream's message number `seq / n` (the streams are saturated
//! and interleave round-robin). Each stream is delivered in order on its own, so a hole blocks only its
//! own stream: with n = 1 this is plain TCP's in-order delivery and its head-of-line blocking.

use super::deque::shrink_when_mostly_empty;
use crate::time::Time;
use std::collections::VecDeque;

#[derive(Clone, Debug, Default)]
pub struct StreamStats {
    pub delivered_pkts: u64,
    pub delay_sum_ns: f64,
    pub delay_max_ns: Time,
    pub delay_min_ns: Option<Time>,
}

/// A message not arrived yet (no send time is this late).
const NOT_ARRIVED: Time = Time::MAX;

#[derive(Clone, Debug, Default)]
struct Stream {
    /// Next message number the application expects on this stream.
    next: u64,
    /// waiting[i] = first-send time of message next + i if it has arrived (out of order), else
    /// `NOT_ARRIVED`: half the memory of an `Option` (recovery without SACK can leave tens of thousands of
    /// messages waiting behind one hole).
    waiting: VecDeque<Time>,
    stats: StreamStats,
}

impl Stream {
    /// Delivers the next message, `delay` after it was first sent.
    #[inline(always)]
    fn record(&mut self, delay: Time) {
        self.stats.delivered_pkts += 1;
        self.stats.delay_sum_ns += delay as f64;
        self.stats.delay_max_ns = self.stats.delay_max_ns.max(delay);
        self.stats.delay_min_ns = Some(self.stats.delay_min_ns.map_or(delay, |m| m.min(delay)));
        self.next += 1;
    }
}

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

    /// A data packet arrived at `now`; `first_sent` is when its message was first transmitted.
    /// Delivers every message this makes deliverable and returns how many.
    #[inline]
    pub fn on_arrival(&mut self, seq: u64, first_sent: Time, now: Time) -> u64 {
        let n = self.streams.len() as u64;
        // A 64-bit division costs tens of cycles; most connections have one stream.
        let (stream, msg) = if n == 1 { (0, seq) } else { ((seq % n) as usize, seq / n) };
        let st = &mut self.streams[stream];
        if msg < st.next {
            return 0; // a duplicate of something already delivered
        }
        let idx = (msg - st.next) as usize;
        debug_assert!(first_sent != NOT_ARRIVED);
        if idx > 0 {
            if st.waiting.len() == idx {
                st.waiting.push_back(first_sent);
            } else {
                if st.waiting.len() < idx {
                    st.waiting.resize(idx, NOT_ARRIVED);
                    st.waiting.push_back(NOT_ARRIVED);
                }
                st.waiting[idx] = first_sent;
            }
            return 0;
        }
        // In order with nothing waiting behind it: the usual case, one message and no deque to touch.
        if st.waiting.is_empty() {
            st.record(now.saturating_sub(first_sent));
            return 1;
        }
        // In order: deliver it and everything queued behind it.
        let mut delivered = 0;
        let mut sent = Some(first_sent);
        while let Some(t) = sent {
            st.record(now.saturating_sub(t));
            delivered += 1;
            st.waiting.pop_front();
            sent = st.waiting.front().copied().filter(|&t| t != NOT_ARRIVED);
        }
        shrink_when_mostly_empty(&mut st.waiting);
        delivered
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_stream_is_in_order_delivery_with_head_of_line_blocking() {
        let mut d = AppDelivery::new(1);
        assert_eq!(d.on_arrival(0, 0, 10), 1);
        assert_eq!(d.on_arrival(2, 0, 20), 0);
        assert_eq!(d.on_arrival(3, 0, 30), 0);
        // The hole fills at t = 100: 1, 2 and 3 are delivered together.
        assert_eq!(d.on_arrival(1, 0, 100), 3);
        assert_eq!(d.delay(), Some(((10.0 + 3.0 * 100.0) / 4.0, 100)));
        assert_eq!(d.on_arrival(2, 0, 110), 0, "duplicates are not delivered twice");
    }

    #[test]
    fn a_hole_in_one_stream_does_not_block_the_others() {
        let mut d = AppDelivery::new(2);
        // seq 0 (stream 0) is lost; seq 1, 3, 5 (stream 1) and 2, 4 (stream 0) arrive.
        assert_eq!(d.on_arrival(1, 0, 10), 1);
        assert_eq!(d.on_arrival(2, 0, 11), 0);
        assert_eq!(d.on_arrival(3, 0, 12), 1);
        assert_eq!(d.on_arrival(4, 0, 13), 0);
        assert_eq!(d.on_arrival(5, 0, 14), 1);
        // The retransmission of seq 0 releases stream 0's backlog.
        assert_eq!(d.on_arrival(0, 0, 50), 3);
        let per_stream: Vec<u64> = d.stats().map(|s| s.delivered_pkts).collect();
        assert_eq!(per_stream, vec![3, 3]);
        let max: Vec<Time> = d.stats().map(|s| s.delay_max_ns).collect();
        assert_eq!(max, vec![50, 14]);
    }
}
