//! Pacing: spaces a flow's data packets at the rate its congestion controller asks for. After a packet
//! leaves at time t, the next may leave at t + size/rate (rounded up to the next nanosecond, so a flow
//! never sends faster than its rate). Only flows whose algorithm paces have a `Pacer`; the others pay one
//! branch per send attempt.
//!
//! The timer is lazy, like the RTO: the sender records when it next wants to send (`wakeup`) and the
//! simulation keeps at most one pacing event per flow pending; an event that fires early re-arms itself.

use crate::time::{Time, NS_PER_SEC};

#[derive(Clone, Debug)]
pub struct Pacer {
    /// Bits of one data packet on the wire.
    packet_bits: f64,
    /// Earliest time the next data packet may leave.
    next_send: Time,
    /// When the sender is held back by pacing alone (window and data would allow a packet): the time it
    /// wants to be woken. None when nothing waits on the pacer.
    pub wakeup: Option<Time>,
    /// When the pending wake-up event fires (`lazy_timer::arm_at`), `Time::MAX` while none is pending.
    pub event_at: Time,
}

impl Pacer {
    pub fn new(packet_bytes: u32) -> Pacer {
        Pacer { packet_bits: packet_bytes as f64 * 8.0, next_send: 0, wakeup: None, event_at: Time::MAX }
    }

    /// Whether a packet may leave now.
    #[inline]
    pub fn ready(&self, now: Time) -> bool {
        now >= self.next_send
    }

    /// A data packet left at `now`; `rate` (bits per second) is the algorithm's current pacing rate. With
    /// no usable rate the next packet may leave at once (the algorithm has not started pacing yet).
    pub fn on_send(&mut self, now: Time, rate: Option<f64>) {
        self.next_send = match rate {
            Some(r) if r.is_finite() && r > 0.0 => now.saturating_add(self.gap(r)),
            _ => now,
        };
    }

    /// Time between two packets at `rate` bits per second, rounded up; saturates for absurdly low rates.
    pub fn gap(&self, rate: f64) -> Time {
        let ns = (self.packet_bits / rate * NS_PER_SEC as f64).ceil();
        if ns >= u64::MAX as f64 / 2.0 {
            u64::MAX / 2
        } else {
            ns as Time
        }
    }

    pub fn next_send(&self) -> Time {
        self.next_send
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gap_is_size_over_rate_rounded_up() {
        let mut p = Pacer::new(1000);
        assert!(p.ready(0));
        // 8000 bits at 3 Mbps: 2.666... ms, rounded up to the next nanosecond.
        p.on_send(10, Some(3e6));
        assert_eq!(p.next_send(), 10 + 2_666_667);
        assert!(!p.ready(2_666_676) && p.ready(2_666_677));
        p.on_send(5, None);
        assert!(p.ready(5));
        p.on_send(0, Some(1e-300));
        assert_eq!(p.next_send(), u64::MAX / 2);
    }
}
