//! The transmitter of a managed direction whose rate is not fixed: when does a packet that starts at
//! `start` finish? A fixed rate is a division (`link.rs`); the two models here keep state that only moves
//! forward, as the simulated time does.

use crate::model::{Capacity, DeliveryTrace, TwoStates, OPPORTUNITY_BYTES};
use crate::rng::Rng;
use crate::time::{Time, NS_PER_SEC};
use std::sync::Arc;

/// The capacity models a direction may have, as JSON for `delaycc list queues`: the key that selects each,
/// what it does and where its definition comes from.
pub fn capacity_models_json() -> serde_json::Value {
    serde_json::json!([
        {
            "name": "fixed", "key": "bandwidth",
            "description": "a constant rate, changed only by link events",
            "source": "ns-2 duplex-link; ns-3 PointToPointNetDevice DataRate",
        },
        {
            "name": "trace", "key": "bandwidth_trace",
            "description": "a mahimahi packet-delivery trace: one line per 1500-byte delivery opportunity, in whole milliseconds, repeating at its last timestamp; unused opportunities are lost",
            "source": "mahimahi LinkQueue (Netravali et al., USENIX ATC 2015); traces of Winstein et al., NSDI 2013",
        },
        {
            "name": "states", "key": "bandwidth_states",
            "description": "two rates (good, bad) held for exponential times of means mean_good and mean_bad, starting good",
            "source": "our choice: a Gilbert-Elliott-like two-state Markov model of capacity (Gilbert 1960, Elliott 1963) applied to rate rather than loss",
        },
    ])
}

pub enum Server {
    /// The direction's `bps`.
    Fixed,
    Trace(TraceServer),
    States(StatesServer),
}

impl Server {
    pub fn new(capacity: &Capacity, rng: Rng) -> Server {
        match capacity {
            Capacity::Fixed => Server::Fixed,
            Capacity::Trace(t) => Server::Trace(TraceServer::new(t.clone())),
            Capacity::States(s) => Server::States(StatesServer::new(*s, rng)),
        }
    }
}

/// Sends as mahimahi's link does: each opportunity of the trace lets `OPPORTUNITY_BYTES` leave; a packet
/// larger than what is left of an opportunity takes the rest of it and continues in the next ones, and
/// several small packets share one. What an opportunity leaves unused when nothing waits is lost.
pub struct TraceServer {
    trace: Arc<DeliveryTrace>,
    /// Number of the next unused opportunity, counted from the start of the run over all repetitions.
    next: u64,
    /// Bytes left of the last opportunity used, and its instant: usable only by a packet starting then.
    leftover: u32,
    leftover_at: Time,
}

impl TraceServer {
    pub fn new(trace: Arc<DeliveryTrace>) -> TraceServer {
        TraceServer { trace, next: 0, leftover: 0, leftover_at: 0 }
    }

    /// The instant of opportunity number `k`.
    fn at(&self, k: u64) -> Time {
        let n = self.trace.times.len() as u64;
        (k / n) * self.trace.period + self.trace.times[(k % n) as usize]
    }

    /// Number of the first opportunity at or after `t`.
    fn first_at_or_after(&self, t: Time) -> u64 {
        let n = self.trace.times.len() as u64;
        let cycle = t / self.trace.period;
        let offset = t % self.trace.period;
        let i = self.trace.times.partition_point(|&x| x < offset) as u64;
        cycle * n + i
    }

    /// When a packet of `size` bytes starting at `start` (no earlier than the last finish) has left.
    pub fn finish(&mut self, start: Time, size: u32) -> Time {
        let mut need = size;
        if self.leftover > 0 && self.leftover_at == start {
            let take = need.min(self.leftover);
            self.leftover -= take;
            need -= take;
            if need == 0 {
                return start;
            }
        }
        self.leftover = 0;
        self.next = self.next.max(self.first_at_or_after(start));
        loop {
            let t = self.at(self.next);
            self.next += 1;
            if need <= OPPORTUNITY_BYTES {
                self.leftover = OPPORTUNITY_BYTES - need;
                self.leftover_at = t;
                return t;
            }
            need -= OPPORTUNITY_BYTES;
        }
    }
}

/// Alternates between two rates, each held for an exponentially distributed time.
pub struct StatesServer {
    states: TwoStates,
    rng: Rng,
    good: bool,
    /// When the current state ends.
    until: Time,
}

impl StatesServer {
    pub fn new(states: TwoStates, mut rng: Rng) -> StatesServer {
        let until = holding_time(&mut rng, states.mean_good);
        StatesServer { states, rng, good: true, until }
    }

    fn switch(&mut self) {
        self.good = !self.good;
        let mean = if self.good { self.states.mean_good } else { self.states.mean_bad };
        self.until += holding_time(&mut self.rng, mean);
    }

    /// The rate in force at `t` (advancing the state to `t`).
    pub fn rate_at(&mut self, t: Time) -> f64 {
        while self.until <= t {
            self.switch();
        }
        if self.good {
            self.states.good_bps
        } else {
            self.states.bad_bps
        }
    }

    /// When a packet of `size` bytes starting at `start` has been sent, its bits sent at whatever rate is
    /// in force while they are.
    pub fn finish(&mut self, start: Time, size: u32) -> Time {
        let mut bits = size as f64 * 8.0;
        let mut t = start;
        loop {
            let rate = self.rate_at(t);
            let needed = (bits / rate * NS_PER_SEC as f64).ceil() as Time;
            if t + needed <= self.until {
                return t + needed;
            }
            bits -= rate * (self.until - t) as f64 / NS_PER_SEC as f64;
            t = self.until;
        }
    }
}

/// An exponential holding time of mean `mean`, at least a nanosecond.
fn holding_time(rng: &mut Rng, mean: Time) -> Time {
    (rng.exponential(mean as f64).round() as Time).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(ms: &[u64]) -> Arc<DeliveryTrace> {
        let times: Vec<Time> = ms.iter().map(|m| m * 1_000_000).collect();
        let period = *times.last().unwrap();
        Arc::new(DeliveryTrace { file: "t".into(), times, period })
    }

    #[test]
    fn full_packets_take_one_opportunity_each_and_the_trace_repeats() {
        let mut s = TraceServer::new(trace(&[1, 1, 3, 4]));
        let ms = |t: Time| t / 1_000_000;
        let mut t = 0;
        let mut out = Vec::new();
        for _ in 0..6 {
            t = s.finish(t, 1500);
            out.push(ms(t));
        }
        // Opportunities at 1, 1, 3, 4, then 4+1, 4+1, 4+3 ...
        assert_eq!(out, vec![1, 1, 3, 4, 5, 5]);
    }

    #[test]
    fn small_packets_share_an_opportunity_and_idle_ones_are_lost() {
        let mut s = TraceServer::new(trace(&[1, 2, 3, 10]));
        assert_eq!(s.finish(0, 1000), 1_000_000);
        // 500 bytes are left of the opportunity at 1 ms: a 400-byte packet starting then uses them.
        assert_eq!(s.finish(1_000_000, 400), 1_000_000);
        // 100 bytes left; a 1000-byte packet takes them and 900 bytes of the next opportunity.
        assert_eq!(s.finish(1_000_000, 1000), 2_000_000);
        // Nothing waits until 2.5 ms: what was left at 2 ms is lost, the next packet waits for 3 ms.
        assert_eq!(s.finish(2_500_000, 1500), 3_000_000);
        // Idle for several periods: the next opportunity after 25 ms is 20 + 10 = 30 ms... of cycle 2.
        assert_eq!(s.finish(25_000_000, 1500), 30_000_000);
        // A 3000-byte packet needs two opportunities.
        assert_eq!(s.finish(30_000_000, 3000), 32_000_000);
    }

    #[test]
    fn two_states_alternate_around_their_mean() {
        let states = TwoStates { good_bps: 10e6, bad_bps: 1e6, mean_good: 50_000_000, mean_bad: 50_000_000 };
        let mut s = StatesServer::new(states, Rng::stream(3, "ge"));
        let mut t = 0;
        let mut sent = 0u64;
        while t < 100 * NS_PER_SEC {
            t = s.finish(t, 1250);
            sent += 1;
        }
        // Back to back for 100 s at a mean of 5.5 Mbps: about 55 000 packets of 10 000 bits.
        let rate = sent as f64 * 10_000.0 / 100.0;
        assert!((rate - states.mean_bps()).abs() < 0.1 * states.mean_bps(), "{rate}");
    }

    #[test]
    fn a_packet_straddling_a_state_change_is_sent_at_both_rates() {
        let states = TwoStates { good_bps: 8e6, bad_bps: 8e5, mean_good: 1, mean_bad: 1 };
        let mut s = StatesServer::new(states, Rng::stream(1, "x"));
        // Force a known schedule: good until 0.5 ms, then bad for a long time.
        s.until = 500_000;
        s.states.mean_bad = NS_PER_SEC * 1000;
        s.rng = Rng::stream(1, "x");
        // 1000 bytes: 500 at 8 Mbps take 0.5 ms, the other 500 at 0.8 Mbps take 5 ms.
        let f = s.finish(0, 1000);
        assert!((f as i64 - 5_500_000).abs() < 10, "{f}");
    }
}
