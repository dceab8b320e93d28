//! TIMELY (Mittal et al., SIGCOMM 2015, Algorithm 1): a rate-based controller driven by the RTT and its
//! gradient, written from the paper's description.
//!
//! Once per completion event (a segment of `segment_bytes` acknowledged) TIMELY takes the RTT of the ACK
//! that completed it, smooths the difference from the previous one with an EWMA (weight α on the newest
//! difference, the paper's form), and normalises it by the minimum RTT. Below `t_low` the rate grows by
//! δ, above `t_high` it falls by β·(1 − t_high/rtt); in between a non-positive gradient adds N·δ (N = 5
//! after five negative gradients in a row, hyperactive increase) and a positive one multiplies the rate
//! by 1 − β·gradient. The rate drives the transport's pacer; TIMELY has no window, so the window here
//! is only a cap that never binds at a steady rate (see `window`).

use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::{from_secs, secs, Time};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "t_low",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(50e-6),
        description: "below this RTT the rate grows by delta whatever the gradient, seconds",
        source: "TIMELY (Mittal et al. 2015) Algorithm 1 and §4.4 (T_low = 50 us)",
    },
    ParamSpec {
        name: "t_high",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(500e-6),
        description: "above this RTT the rate falls by beta x (1 - t_high/rtt) whatever the gradient, seconds",
        source: "TIMELY (Mittal et al. 2015) Algorithm 1 and §4.4 (T_high = 500 us)",
    },
    ParamSpec {
        name: "alpha",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.875),
        description: "EWMA weight of the newest RTT difference: rtt_diff = (1 - alpha) rtt_diff + alpha new_diff",
        source: "TIMELY Algorithm 1 (form); 0.875 as quoted with the paper, not its authors' code snippet (0.02): docs/algorithms.md#timely-ewma-alpha",
    },
    ParamSpec {
        name: "beta",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.8),
        description: "multiplicative decrease factor of the gradient and t_high branches",
        source: "TIMELY (Mittal et al. 2015), the setting of its evaluation (beta = 0.8)",
    },
    ParamSpec {
        name: "delta",
        kind: ParamKind::Float { min: 0.0, max: 1e12, min_exclusive: true },
        default: ParamDefault::Num(10e6),
        description: "additive increase step, bits per second",
        source: "TIMELY (Mittal et al. 2015), the setting of its evaluation (delta = 10 Mbps)",
    },
    ParamSpec {
        name: "hai_threshold",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: ParamDefault::Num(5.0),
        description: "negative gradients in a row after which the increase is hai_factor x delta (hyperactive increase)",
        source: "TIMELY (Mittal et al. 2015) Algorithm 1 (N = 5 after five completion events with a negative gradient)",
    },
    ParamSpec {
        name: "hai_factor",
        kind: ParamKind::Float { min: 1.0, max: 1000.0, min_exclusive: false },
        default: ParamDefault::Num(5.0),
        description: "N of the hyperactive increase: the step is N x delta",
        source: "TIMELY (Mittal et al. 2015) Algorithm 1 (N = 5)",
    },
    ParamSpec {
        name: "segment_bytes",
        kind: ParamKind::Int { min: 1, max: 1 << 30 },
        default: ParamDefault::Num(16384.0),
        description: "bytes acknowledged per completion event, the update granularity (rounded up to whole packets)",
        source: "TIMELY (Mittal et al. 2015) §4 (segments of 16-64 KB; the smallest, for the finest control)",
    },
    ParamSpec {
        name: "min_rtt",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(0.0),
        description: "RTT the gradient is normalised by; 0 takes the flow's smallest RTT sample",
        source: "our choice: the paper's minRTT is the path's propagation RTT, which the flow measures (docs/algorithms.md#timely-min-rtt)",
    },
    ParamSpec {
        name: "initial_rate",
        kind: ParamKind::Float { min: 0.0, max: 1e13, min_exclusive: true },
        default: ParamDefault::Num(10e9),
        description: "rate before the first completion event, bits per second",
        source: "our choice: the 10 Gbps NICs of the paper's testbed, a host's line rate there",
    },
    ParamSpec {
        name: "min_rate",
        kind: ParamKind::Float { min: 0.0, max: 1e13, min_exclusive: true },
        default: ParamDefault::Num(10e6),
        description: "floor of the rate, bits per second",
        source: "our choice: one delta, so a flow that backed off can always measure RTTs again",
    },
    ParamSpec {
        name: "max_rate",
        kind: ParamKind::Float { min: 0.0, max: 1e13, min_exclusive: true },
        default: ParamDefault::Num(100e9),
        description: "ceiling of the rate (the NIC's line rate), bits per second",
        source: "our choice: a 100 Gbps NIC; TIMELY never sends above the line rate",
    },
];

pub struct Timely {
    t_low: Time,
    t_high: Time,
    alpha: f64,
    beta: f64,
    delta: f64,
    hai_threshold: u32,
    hai_factor: f64,
    /// Packets acknowledged per completion event.
    segment_pkts: u64,
    /// Fixed minRTT, if the scenario gives one.
    fixed_min_rtt: Option<Time>,
    min_rate: f64,
    max_rate: f64,
    packet_bits: f64,

    /// Bits per second of packets on the wire.
    rate: f64,
    prev_rtt: Option<Time>,
    /// Smoothed RTT difference, seconds.
    rtt_diff: f64,
    /// The last normalised gradient.
    gradient: f64,
    /// Completion events in a row whose gradient was negative.
    neg_gradients: u32,
    acked_in_segment: u64,
    min_rtt_seen: Option<Time>,
    last_rtt: Option<Time>,
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Timely::new(p, ctx))
}

impl Timely {
    pub fn new(p: &Params, ctx: &FlowContext) -> Timely {
        let segment_bytes = p.num("segment_bytes") as u64;
        let min_rtt = from_secs(p.num("min_rtt"));
        let (min_rate, max_rate) = (p.num("min_rate"), p.num("max_rate").max(p.num("min_rate")));
        Timely {
            t_low: from_secs(p.num("t_low")),
            t_high: from_secs(p.num("t_high")),
            alpha: p.num("alpha"),
            beta: p.num("beta"),
            delta: p.num("delta"),
            hai_threshold: p.num("hai_threshold") as u32,
            hai_factor: p.num("hai_factor"),
            segment_pkts: segment_bytes.div_ceil(ctx.mss_bytes.max(1) as u64).max(1),
            fixed_min_rtt: (min_rtt > 0).then_some(min_rtt),
            min_rate,
            max_rate,
            packet_bits: ctx.packet_bytes as f64 * 8.0,
            rate: p.num("initial_rate").clamp(min_rate, max_rate),
            prev_rtt: None,
            rtt_diff: 0.0,
            gradient: 0.0,
            neg_gradients: 0,
            acked_in_segment: 0,
            min_rtt_seen: None,
            last_rtt: None,
        }
    }

    pub fn rate(&self) -> f64 {
        self.rate
    }

    pub fn gradient(&self) -> f64 {
        self.gradient
    }

    fn min_rtt(&self) -> Option<Time> {
        self.fixed_min_rtt.or(self.min_rtt_seen)
    }

    /// One completion event with RTT `new_rtt` (Algorithm 1).
    fn update(&mut self, new_rtt: Time) {
        let new_diff = secs(new_rtt) - secs(self.prev_rtt.unwrap_or(new_rtt));
        self.prev_rtt = Some(new_rtt);
        self.rtt_diff = (1.0 - self.alpha) * self.rtt_diff + self.alpha * new_diff;
        let min_rtt = secs(self.min_rtt().unwrap_or(new_rtt)).max(1e-9);
        self.gradient = self.rtt_diff / min_rtt;
        // The count runs over every completion event, so the thresholds' branches also end a streak of
        // negative gradients only when their own gradient is not negative.
        self.neg_gradients = if self.gradient < 0.0 { self.neg_gradients.saturating_add(1) } else { 0 };
        let rate = if new_rtt < self.t_low {
            self.rate + self.delta
        } else if new_rtt > self.t_high {
            self.rate * (1.0 - self.beta * (1.0 - self.t_high as f64 / new_rtt as f64))
        } else if self.gradient <= 0.0 {
            let n = if self.neg_gradients >= self.hai_threshold { self.hai_factor } else { 1.0 };
            self.rate + n * self.delta
        } else {
            self.rate * (1.0 - self.beta * self.gradient)
        };
        self.rate = rate.clamp(self.min_rate, self.max_rate);
    }
}

impl CongestionControl for Timely {
    /// A cap of two rate × RTT products (the larger of the last RTT and t_high), at least two packets:
    /// at a steady rate the flight is one product, so the cap never binds and the rate alone decides, as
    /// in the paper's NIC; it bounds what a stale rate can put in flight when RTTs grow or ACKs stop.
    fn window(&self) -> f64 {
        let rtt = self.last_rtt.unwrap_or(0).max(self.t_high);
        (2.0 * self.rate * secs(rtt) / self.packet_bits).max(2.0)
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        if let Some(rtt) = ack.rtt {
            self.min_rtt_seen = Some(self.min_rtt_seen.map_or(rtt, |m| m.min(rtt)));
            self.last_rtt = Some(rtt);
        }
        self.acked_in_segment += ack.acked;
        // A completion event needs an RTT: an ACK without a sample (Karn) defers it to the next one.
        if self.acked_in_segment >= self.segment_pkts {
            if let Some(rtt) = ack.rtt {
                self.acked_in_segment = 0;
                self.update(rtt);
            }
        }
    }

    /// The transport retransmits; TIMELY's rate answers delay only, and the losses' queue shows in the RTT.
    fn on_loss(&mut self, _loss: &LossEvent) {}

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {}

    /// The paper defines no timeout reaction (its fabric rarely drops); a timeout means the rate was far
    /// too high, so the rate takes the largest decrease Algorithm 1 can make, 1 − β
    /// (docs/algorithms.md#timely-losses).
    fn on_timeout(&mut self, _now: Time, _inflight: u64) {
        self.rate = (self.rate * (1.0 - self.beta)).clamp(self.min_rate, self.max_rate);
        self.neg_gradients = 0;
    }

    fn pacing_rate(&self) -> Option<f64> {
        Some(self.rate)
    }

    fn paces(&self) -> bool {
        true
    }

    fn trace(&self) -> CcTrace {
        CcTrace { base_rtt: self.min_rtt(), srtt: self.last_rtt }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["pacing_rate_bps", "rtt_gradient", "hai"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.rate);
        out.push(self.gradient);
        out.push(if self.neg_gradients >= self.hai_threshold { 1.0 } else { 0.0 });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{algorithm, ParamValue};

    const US: Time = 1_000;

    /// TIMELY with one completion event per ACK, a fixed 20 µs minRTT and 1 Gbps to start.
    fn timely() -> Timely {
        let mut p = algorithm("timely").expect("registered").defaults();
        p.set("segment_bytes", ParamValue::Num(960.0));
        p.set("min_rtt", ParamValue::Num(20e-6));
        p.set("initial_rate", ParamValue::Num(1e9));
        Timely::new(&p, &FlowContext::new(2.0))
    }

    fn ack(t: &mut Timely, rtt: Time) {
        t.on_ack(&AckEvent {
            now: 0,
            rtt: Some(rtt),
            acked: 1,
            inflight_at_send: 1,
            inflight: 0,
            in_recovery: false,
            snd_una: 0,
            rcv_arrival: 0,
            rcv_leave: 0,
            base_rtt: None,
            rate: None,
        });
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-6 * b.abs().max(1.0)
    }

    #[test]
    fn below_t_low_the_rate_grows_by_delta_whatever_the_gradient() {
        let mut t = timely();
        ack(&mut t, 30 * US);
        assert!(close(t.rate(), 1e9 + 10e6));
        // A rising RTT that stays below 50 µs still adds delta.
        ack(&mut t, 45 * US);
        assert!(t.gradient() > 0.0);
        assert!(close(t.rate(), 1e9 + 20e6));
    }

    #[test]
    fn above_t_high_the_rate_falls_by_beta_times_the_excess() {
        let mut t = timely();
        ack(&mut t, 1000 * US);
        // 1 − 0.8·(1 − 500/1000) = 0.6.
        assert!(close(t.rate(), 0.6e9), "{}", t.rate());
        // Even with a falling RTT: 1 − 0.8·(1 − 500/800) = 0.7.
        ack(&mut t, 800 * US);
        assert!(t.gradient() < 0.0);
        assert!(close(t.rate(), 0.6e9 * 0.7), "{}", t.rate());
    }

    #[test]
    fn between_the_thresholds_the_gradient_decides() {
        let mut t = timely();
        ack(&mut t, 100 * US);
        // First event: no difference yet, gradient 0, additive increase.
        assert_eq!(t.gradient(), 0.0);
        assert!(close(t.rate(), 1e9 + 10e6));
        // +4 µs: rtt_diff = 0.875·4 µs = 3.5 µs, gradient 3.5/20 = 0.175, rate × (1 − 0.8·0.175) = × 0.86.
        ack(&mut t, 104 * US);
        assert!(close(t.gradient(), 0.175), "{}", t.gradient());
        assert!(close(t.rate(), 1.01e9 * 0.86), "{}", t.rate());
        // −8 µs: rtt_diff = 0.125·3.5 − 0.875·8 = −6.5625 µs, gradient < 0: + delta.
        let before = t.rate();
        ack(&mut t, 96 * US);
        assert!(close(t.gradient(), -6.5625 / 20.0), "{}", t.gradient());
        assert!(close(t.rate(), before + 10e6));
    }

    #[test]
    fn five_negative_gradients_in_a_row_switch_to_hyperactive_increase() {
        let mut t = timely();
        ack(&mut t, 400 * US);
        let mut rates = vec![t.rate()];
        for i in 1..=7 {
            ack(&mut t, (400 - 10 * i) * US);
            rates.push(t.rate());
        }
        let steps: Vec<f64> = rates.windows(2).map(|w| ((w[1] - w[0]) / 1e6).round()).collect();
        // Four single steps, then the fifth negative gradient and those after it add 5·delta.
        assert_eq!(steps, [10.0, 10.0, 10.0, 10.0, 50.0, 50.0, 50.0]);
        // A positive gradient ends the streak.
        ack(&mut t, 400 * US);
        assert!(t.gradient() > 0.0);
        ack(&mut t, 399 * US);
        ack(&mut t, 398 * US);
        let r = t.rate();
        ack(&mut t, 397 * US);
        assert!(t.gradient() < 0.0 && close(t.rate(), r + 10e6));
    }

    #[test]
    fn updates_come_once_per_segment_and_the_rate_paces() {
        let mut p = algorithm("timely").expect("registered").defaults();
        p.set("initial_rate", ParamValue::Num(1e9));
        // 16384 bytes of 960-byte payloads: 18 packets per completion event.
        let mut t = Timely::new(&p, &FlowContext::new(2.0));
        for _ in 0..17 {
            ack(&mut t, 30 * US);
        }
        assert_eq!(t.rate(), 1e9);
        ack(&mut t, 30 * US);
        assert!(close(t.rate(), 1.01e9));
        assert_eq!(t.pacing_rate(), Some(t.rate()));
        // The cap is two rate × t_high products of 8000-bit packets: 2·1.01e9·500e-6/8000.
        assert!(close(t.window(), 126.25), "{}", t.window());
    }
}
