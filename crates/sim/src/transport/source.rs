//! Non-responsive sources: constant bit rate, and exponential on/off (ns-2's
//! `Application/Traffic/Exponential`: on and off periods drawn from exponential distributions, sending at
//! the given rate while on). Each source has at most one pending event.

use crate::model::{TrafficKind, TrafficSpec};
use crate::rng::Rng;
use crate::time::{from_secs, secs, Time, NS_PER_SEC};

pub struct Source {
    pub route: u32,
    pub size: u32,
    pub start: Time,
    pub stop: Time,
    /// Nanoseconds between packets while sending.
    interval_ns: f64,
    /// Packets are sent at epoch + k·interval, so rounding never accumulates into drift.
    epoch: Time,
    k: u64,
    onoff: Option<(f64, f64)>,
    on_until: Time,
    rng: Rng,
    pub sent: u64,
    pub delivered: u64,
    pub delivered_bits: u64,
    /// Bits delivered before `stop` (to the end of the run if it stops there): the source's throughput
    /// counts these over its active time, not the packets still queued at `stop` that drain after it.
    pub window_bits: u64,
    window_end: Time,
}

impl Source {
    /// `end` is the end of the run.
    pub fn new(spec: &TrafficSpec, route: u32, rng: Rng, end: Time) -> Source {
        let (rate, onoff) = match spec.kind {
            TrafficKind::Cbr { rate_bps } => (rate_bps, None),
            TrafficKind::OnOff { rate_bps, mean_on, mean_off } => {
                (rate_bps, Some((secs(mean_on), secs(mean_off))))
            }
        };
        Source {
            route,
            size: spec.packet_size,
            start: spec.start,
            stop: spec.stop,
            interval_ns: spec.packet_size as f64 * 8.0 * NS_PER_SEC as f64 / rate,
            epoch: spec.start,
            k: 0,
            onoff,
            on_until: Time::MAX,
            rng,
            sent: 0,
            delivered: 0,
            delivered_bits: 0,
            window_bits: 0,
            window_end: if spec.stop >= end { Time::MAX } else { spec.stop },
        }
    }

    /// One of the source's packets (`size` bytes) reached its destination at `now`.
    #[inline]
    pub fn on_delivered(&mut self, now: Time, size: u32) {
        let bits = size as u64 * 8;
        self.delivered += 1;
        self.delivered_bits += bits;
        if now < self.window_end {
            self.window_bits += bits;
        }
    }

    /// Called at start and at each of the source's events. Returns (send a packet now?, next event time).
    pub fn fire(&mut self, now: Time) -> (bool, Option<Time>) {
        if now >= self.stop {
            return (false, None);
        }
        if now == self.start && self.k == 0 {
            if let Some((on, _)) = self.onoff {
                self.on_until = now + from_secs(self.rng.exponential(on));
            }
        }
        if now >= self.on_until {
            // An on period ended: stay silent for an exponential off period, then start a new one.
            let (on, off) = self.onoff.unwrap_or((0.0, 0.0));
            let wake = now + from_secs(self.rng.exponential(off)).max(1);
            self.epoch = wake;
            self.k = 0;
            self.on_until = wake + from_secs(self.rng.exponential(on));
            return (false, Some(wake).filter(|t| *t < self.stop));
        }
        self.k += 1;
        let next = self.epoch + (self.k as f64 * self.interval_ns).round() as Time;
        let next = if next >= self.on_until { self.on_until.max(now + 1) } else { next };
        self.sent += 1;
        (true, Some(next).filter(|t| *t < self.stop))
    }
}
