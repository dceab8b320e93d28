//! CUBIC (RFC 9438). Between congestion events the window follows W(t) = C·(t − K)³ + W_max, with t the
//! time since the last reduction and K the time the curve takes to climb back to W_max; each ACK moves cwnd
//! a 1/cwnd fraction towards W(t + RTT), never more than 1.5·cwnd. In the Reno-friendly region (when
//! W(t) is below the window an AIMD flow with the same average rate would have), cwnd follows that AIMD
//! estimate instead. On a loss W_max = cwnd (less with fast convergence) and cwnd = β·cwnd. HyStart++'s
//! delay-increase test (RFC 9406) can end slow start before the first loss.

use super::round::Rounds;
use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::{secs, Time};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "initial_ssthresh",
        kind: ParamKind::Float { min: 2.0, max: 1e12, min_exclusive: false },
        default: ParamDefault::Num(1e9),
        description: "slow-start threshold before the first loss, packets",
        source: "our choice, as for reno/newreno: effectively unlimited (RFC 9438 leaves it to the implementation)",
    },
    ParamSpec {
        name: "c",
        kind: ParamKind::Float { min: 0.0, max: 100.0, min_exclusive: true },
        default: ParamDefault::Num(0.4),
        description: "cubic scaling constant C, packets/s^3",
        source: "RFC 9438 §4.1 (C = 0.4)",
    },
    ParamSpec {
        name: "beta",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.7),
        description: "multiplicative decrease factor on a congestion event",
        source: "RFC 9438 §4.6 (beta_cubic = 0.7)",
    },
    ParamSpec {
        name: "fast_convergence",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "lower W_max when the window shrank since the previous event, releasing bandwidth to new flows",
        source: "RFC 9438 §4.7 (on by default in Linux)",
    },
    ParamSpec {
        name: "reno_friendly",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "follow the AIMD-equivalent window when it is above the cubic curve",
        source: "RFC 9438 §4.3",
    },
    ParamSpec {
        name: "hystart",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "end slow start when a round's minimum RTT rises by max(4 ms, min(RTT/8, 16 ms)) (HyStart++ delay test)",
        source: "RFC 9406 §4.2; off by default as in ns-3's TcpCubic and the papers' era",
    },
];

pub struct Cubic {
    c: f64,
    beta: f64,
    fast_convergence: bool,
    reno_friendly: bool,
    hystart: bool,
    cwnd: f64,
    ssthresh: f64,
    w_max: f64,
    w_last_max: f64,
    /// Start of the current congestion-avoidance epoch and its K, seconds.
    epoch: Option<(f64, f64)>,
    w_est: f64,
    min_rtt: Option<f64>,
    rounds: Rounds,
    round_min: f64,
    round_samples: u32,
    last_round_min: f64,
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Cubic::new(p, ctx))
}

impl Cubic {
    pub fn new(p: &Params, ctx: &FlowContext) -> Cubic {
        Cubic {
            c: p.num("c"),
            beta: p.num("beta"),
            fast_convergence: p.flag("fast_convergence"),
            reno_friendly: p.flag("reno_friendly"),
            hystart: p.flag("hystart"),
            cwnd: ctx.initial_window,
            ssthresh: p.num("initial_ssthresh"),
            w_max: 0.0,
            w_last_max: 0.0,
            epoch: None,
            w_est: 0.0,
            min_rtt: None,
            rounds: Rounds::default(),
            round_min: f64::INFINITY,
            round_samples: 0,
            last_round_min: f64::INFINITY,
        }
    }

    /// The cubic curve, t seconds into the epoch.
    pub fn w_cubic(&self, t: f64) -> f64 {
        let k = self.epoch.map_or(0.0, |e| e.1);
        self.c * (t - k).powi(3) + self.w_max
    }

    pub fn k(&self) -> Option<f64> {
        self.epoch.map(|e| e.1)
    }

    /// HyStart++ (RFC 9406 §4.2): the minimum of a round's first 8 RTT samples against the previous
    /// round's; a rise of max(4 ms, min(RTT/8, 16 ms)) ends slow start.
    fn hystart_delay_test(&mut self, ack: &AckEvent) {
        const N_RTT_SAMPLE: u32 = 8;
        if self.rounds.on_ack(ack.snd_una, ack.snd_una + ack.inflight) {
            self.last_round_min = self.round_min;
            self.round_min = f64::INFINITY;
            self.round_samples = 0;
        }
        let Some(r) = ack.rtt else { return };
        if self.round_samples >= N_RTT_SAMPLE {
            return;
        }
        self.round_samples += 1;
        self.round_min = self.round_min.min(secs(r));
        if self.round_samples == N_RTT_SAMPLE && self.last_round_min.is_finite() {
            let thresh = (self.last_round_min / 8.0).clamp(0.004, 0.016);
            if self.round_min >= self.last_round_min + thresh {
                self.ssthresh = self.cwnd;
            }
        }
    }

    fn note_rtt(&mut self, ack: &AckEvent) {
        if let Some(r) = ack.rtt {
            let r = secs(r);
            self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        }
    }

    fn reduce(&mut self) {
        let w = self.cwnd;
        self.w_max =
            if self.fast_convergence && w < self.w_last_max { w * (1.0 + self.beta) / 2.0 } else { w };
        self.w_last_max = w;
        self.ssthresh = (w * self.beta).max(2.0);
        self.epoch = None;
    }

    fn congestion_avoidance(&mut self, now: f64, acked: f64) {
        let rtt = self.min_rtt.unwrap_or(0.0);
        let (start, _) = *self.epoch.get_or_insert_with(|| {
            // A new epoch: K is the time to climb from cwnd back to W_max (RFC 9438 eq. 2).
            let w_max = self.w_max.max(self.cwnd);
            let k = ((w_max - self.cwnd) / self.c).cbrt();
            (now, k)
        });
        if self.w_max < self.cwnd {
            self.w_max = self.cwnd;
        }
        if self.w_est == 0.0 {
            self.w_est = self.cwnd;
        }
        let t = now - start;
        let target = self.w_cubic(t + rtt).clamp(self.cwnd, 1.5 * self.cwnd);
        let alpha = 3.0 * (1.0 - self.beta) / (1.0 + self.beta);
        self.w_est += alpha * acked / self.cwnd;
        if self.reno_friendly && self.w_cubic(t) < self.w_est {
            self.cwnd = self.cwnd.max(self.w_est);
        } else {
            self.cwnd += (target - self.cwnd) / self.cwnd * acked;
        }
    }
}

impl CongestionControl for Cubic {
    fn window(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh(&self) -> f64 {
        self.ssthresh
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        self.note_rtt(ack);
        if ack.in_recovery {
            return;
        }
        let acked = ack.acked as f64;
        if self.cwnd < self.ssthresh {
            self.cwnd += acked;
            if self.hystart {
                self.hystart_delay_test(ack);
            }
        } else {
            self.congestion_avoidance(secs(ack.now), acked);
        }
    }

    fn on_loss(&mut self, _loss: &LossEvent) {
        self.reduce();
        self.cwnd = self.ssthresh;
        self.w_est = self.cwnd;
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {}

    fn on_timeout(&mut self, _now: Time, _inflight: u64) {
        self.reduce();
        self.cwnd = 1.0;
        self.w_est = 0.0;
    }

    /// No growth on an ACK that echoes ECN: Linux runs no cong_avoid while in CWR; the RTT still counts.
    fn on_echoing_ack(&mut self, ack: &AckEvent) {
        self.note_rtt(ack);
    }

    /// ECN-Echo is a congestion event like a loss (RFC 9438 §4.6 with RFC 3168): W_max and the β
    /// reduction as on a fast retransmit. The window never grows by it (the floor of two on ssthresh
    /// would raise a window of one after a timeout).
    fn on_ecn(&mut self, _now: Time, _inflight: u64) {
        self.reduce();
        self.cwnd = self.cwnd.min(self.ssthresh);
        self.w_est = self.cwnd;
    }

    fn trace(&self) -> CcTrace {
        CcTrace { base_rtt: self.min_rtt.map(crate::time::from_secs), srtt: None }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["w_max_pkts", "k_s"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.w_max);
        out.push(self.k().unwrap_or(f64::NAN));
    }

    fn hears_sends(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{algorithm, ParamValue};

    fn ack(now: Time, rtt_ms: u64, una: u64, inflight: u64) -> AckEvent<'static> {
        AckEvent {
            now,
            rtt: Some(rtt_ms * 1_000_000),
            acked: 1,
            inflight_at_send: 1,
            inflight,
            in_recovery: false,
            snd_una: una,
            rcv_arrival: 0,
            rcv_leave: 0,
            base_rtt: None,
            rate: None,
        }
    }

    #[test]
    fn hystart_ends_slow_start_when_the_rounds_minimum_rtt_rises() {
        let mut p = algorithm("cubic").expect("registered").defaults();
        p.set("hystart", ParamValue::Bool(true));
        let mut c = Cubic::new(&p, &FlowContext::new(20.0));
        // Rounds of 20 ACKs: 100 ms, 100 ms, then 120 ms, a rise above the 12.5 ms threshold.
        let mut una = 0;
        for (round, rtt) in [(0, 100), (1, 100), (2, 120)] {
            for _ in 0..20 {
                una += 1;
                c.on_ack(&ack(round * 200_000_000, rtt, una, 20));
            }
            if round < 2 {
                assert!(c.cwnd < c.ssthresh, "round {round}: still in slow start");
            }
        }
        assert!(
            c.ssthresh <= c.cwnd,
            "a 20 ms rise ends slow start: cwnd {} ssthresh {} last {} min {} n {}",
            c.cwnd,
            c.ssthresh,
            c.last_round_min,
            c.round_min,
            c.round_samples
        );
    }

    /// ECN-Echo reduces by beta as a loss does, without raising a window of one; an echoing ACK still
    /// counts its RTT but grows nothing.
    #[test]
    fn ecn_is_a_beta_reduction_and_echoing_acks_do_not_grow() {
        let p = algorithm("cubic").expect("registered").defaults();
        let mut c = Cubic::new(&p, &FlowContext::new(100.0));
        c.ssthresh = 50.0;
        c.on_ecn(0, 100);
        assert_eq!((c.cwnd, c.ssthresh, c.w_max), (70.0, 70.0, 100.0));
        c.on_echoing_ack(&ack(1_000_000, 40, 1, 70));
        assert_eq!((c.cwnd, c.min_rtt), (70.0, Some(0.04)));
        c.on_ack(&ack(2_000_000, 40, 2, 70));
        assert!(c.cwnd > 70.0, "an ordinary ACK grows again");
        c.cwnd = 1.0;
        c.on_ecn(3_000_000, 5);
        assert_eq!((c.cwnd, c.ssthresh), (1.0, 2.0));
    }

    #[test]
    fn k_is_the_time_to_climb_back_to_w_max() {
        let p = algorithm("cubic").expect("registered").defaults();
        let mut c = Cubic::new(&p, &FlowContext::new(100.0));
        c.ssthresh = 50.0;
        c.on_loss(&LossEvent { now: 0, inflight: 100, lost_was_retransmit: false });
        assert_eq!(c.cwnd, 70.0);
        c.congestion_avoidance(1.0, 1.0);
        // K = cbrt(W_max (1 - beta) / C) = cbrt(100 * 0.3 / 0.4).
        assert!((c.k().unwrap_or(0.0) - (75.0f64).cbrt()).abs() < 1e-9);
        assert!((c.w_cubic(c.k().unwrap_or(0.0)) - 100.0).abs() < 1e-9);
    }
}
