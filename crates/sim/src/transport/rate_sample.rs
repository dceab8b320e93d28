//! Delivery-rate estimation (draft-cheng-iccrg-delivery-rate-estimation), for algorithms that model the
//! path's bandwidth (BBR). When a packet is sent the sampler remembers how much the connection had
//! delivered by then and when; when an ACK covers it, the delivery rate over that interval is the packets
//! delivered since, divided by the longer of the send interval and the ACK interval (the longer one
//! bounds the rate the bottleneck really sustained, whichever side compressed its packets).
//!
//! Without SACK, each duplicate ACK counts as one packet delivered (as Linux does for Reno-style
//! connections), and the cumulative ACK that later covers those packets counts only the rest, so a hole
//! filled after a long recovery does not look like a burst of deliveries.
//!
//! Only flows whose algorithm asks for rate samples have a sampler, so the others keep no per-packet state.

use super::deque::shrink_when_mostly_empty;
use crate::cc::RateSample;
use crate::time::Time;
use std::collections::VecDeque;

/// What the connection knew when one packet was (last) sent.
#[derive(Clone, Copy, Debug)]
struct SendState {
    sent_time: Time,
    delivered: u64,
    delivered_time: Time,
    first_sent_time: Time,
    app_limited: bool,
}

#[derive(Debug, Default)]
pub struct RateSampler {
    /// Send state of every unacknowledged sequence number, indexed from `base` (the sender's snd_una).
    sent: VecDeque<SendState>,
    base: u64,
    /// Packets delivered so far (cumulatively acknowledged or reported by a duplicate ACK), and when the
    /// count last changed.
    delivered: u64,
    delivered_time: Time,
    /// Send time of the packet that gave the latest sample: the start of the current send interval.
    first_sent_time: Time,
    /// While nonzero, the application limits sending; samples of packets sent now are marked app-limited
    /// until the delivered count passes this value.
    app_limited_until: u64,
    /// Duplicate ACKs counted as deliveries that no cumulative ACK has covered yet.
    sacked: u64,
}

impl RateSampler {
    pub fn new() -> RateSampler {
        RateSampler::default()
    }

    /// Packet `seq` leaves at `now`; `outstanding` packets were unacknowledged before it.
    pub fn on_send(&mut self, now: Time, seq: u64, outstanding: u64) {
        if outstanding == 0 {
            // Nothing in flight: a new measurement interval starts with this packet.
            self.first_sent_time = now;
            self.delivered_time = now;
        }
        let st = SendState {
            sent_time: now,
            delivered: self.delivered,
            delivered_time: self.delivered_time,
            first_sent_time: self.first_sent_time,
            app_limited: self.app_limited_until != 0,
        };
        let idx = seq.saturating_sub(self.base) as usize;
        match self.sent.get_mut(idx) {
            Some(slot) => *slot = st,
            None => {
                // Sequence numbers are sent in order, so this is the next one; fill any gap defensively.
                while self.sent.len() < idx {
                    self.sent.push_back(st);
                }
                self.sent.push_back(st);
            }
        }
    }

    /// The sender has data and window to spare but nothing to send: the application is the limit.
    pub fn mark_app_limited(&mut self, pipe: u64) {
        self.app_limited_until = (self.delivered + pipe).max(1);
    }

    /// A duplicate ACK: one more packet reached the receiver (while fewer than `outstanding` - 1 are
    /// counted, since the hole itself has not).
    pub fn on_dupack(&mut self, now: Time, outstanding: u64) {
        if self.sacked + 1 < outstanding {
            self.sacked += 1;
            self.delivered += 1;
            self.delivered_time = now;
        }
    }

    /// The retransmission timer fired: the duplicate-ACK count no longer describes what is in flight.
    pub fn on_timeout(&mut self) {
        self.sacked = 0;
    }

    /// A cumulative ACK moved snd_una to `una`. `in_flight` is snd_nxt - snd_una after it and `min_rtt`
    /// the smallest RTT seen, if any: a sample over a shorter interval is discarded (ACK compression).
    pub fn on_ack(&mut self, now: Time, una: u64, in_flight: u64, min_rtt: Option<Time>) -> RateSample {
        let acked = una.saturating_sub(self.base);
        // The packets the duplicate ACKs already counted are now covered; the hole itself is new.
        let counted = acked.saturating_sub(1).min(self.sacked);
        self.sacked -= counted;
        self.delivered += acked - counted;
        self.delivered_time = now;
        // The newest of the packets this ACK covers gives the sample.
        let n = (acked as usize).min(self.sent.len());
        let newest = self.sent.drain(..n).max_by_key(|s| s.sent_time);
        shrink_when_mostly_empty(&mut self.sent);
        self.base = una;
        if self.app_limited_until != 0 && self.delivered > self.app_limited_until {
            self.app_limited_until = 0;
        }
        let mut rs = RateSample {
            delivered_total: self.delivered,
            pipe: in_flight.saturating_sub(self.sacked),
            ..RateSample::default()
        };
        let Some(p) = newest else { return rs };
        self.first_sent_time = p.sent_time;
        rs.prior_delivered = p.delivered;
        rs.app_limited = p.app_limited;
        let send_elapsed = p.sent_time.saturating_sub(p.first_sent_time);
        let ack_elapsed = now.saturating_sub(p.delivered_time);
        let interval = send_elapsed.max(ack_elapsed);
        if interval > 0 && min_rtt.is_none_or(|m| interval >= m) {
            rs.delivered = self.delivered - p.delivered;
            rs.interval = interval;
        }
        rs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;

    #[test]
    fn a_steady_flow_measures_its_bottleneck_rate() {
        // One packet per ms through the bottleneck, 10 ms round trip, 10 packets in flight: each ACK
        // covers a packet sent 10 ms earlier, when 10 fewer had been delivered.
        let mut s = RateSampler::new();
        for seq in 0..10 {
            s.on_send(seq * MS, seq, seq);
        }
        let mut last = RateSample::default();
        for seq in 0..200u64 {
            let now = (seq + 10) * MS;
            last = s.on_ack(now, seq + 1, 9, Some(10 * MS));
            s.on_send(now, seq + 10, 9);
        }
        assert_eq!(last.rate_pps(), Some(1000.0));
        assert_eq!(last.delivered_total, 200);
        assert!(!last.app_limited);
    }

    #[test]
    fn duplicate_acks_count_as_deliveries_once() {
        let mut s = RateSampler::new();
        for seq in 0..10 {
            s.on_send(0, seq, seq);
        }
        // Packet 0 lost: three duplicate ACKs, then the retransmission fills the hole.
        for t in 1..=3 {
            s.on_dupack(t * MS, 10);
        }
        s.on_send(4 * MS, 0, 10);
        let rs = s.on_ack(20 * MS, 4, 6, None);
        // 4 acked, 3 of them already counted: 4 delivered in all, 0 reported still held by dupACKs.
        assert_eq!(rs.delivered_total, 4);
        assert_eq!(rs.pipe, 6);
        // The sample comes from the retransmission (the newest send): 1 delivered since it left.
        assert_eq!(rs.prior_delivered, 3);
    }

    #[test]
    fn app_limited_marks_last_until_the_pipe_is_delivered() {
        let mut s = RateSampler::new();
        s.on_send(0, 0, 0);
        s.mark_app_limited(1);
        s.on_send(MS, 1, 1);
        assert!(!s.on_ack(10 * MS, 1, 1, None).app_limited);
        assert!(s.on_ack(11 * MS, 2, 0, None).app_limited);
        s.on_send(12 * MS, 2, 0);
        assert!(!s.on_ack(22 * MS, 3, 0, None).app_limited);
    }
}
