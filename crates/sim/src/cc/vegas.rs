//! TCP Vegas (Brakmo & Peterson), structured like Linux `tcp_vegas.c` with ns-2's safe slow start.
//!
//! Once per RTT round: diff = cwnd·(RTT − baseRTT)/RTT, the flow's own packets queued in the network.
//! In congestion avoidance diff < α adds a packet, diff > β removes one. In slow start the window doubles
//! only every other round and slow start ends when diff exceeds γ. On fast retransmit the window drops to
//! 3/4 (P004 §II, ns-2 Vegas), on a timeout Reno's rule applies.

use super::params::{ParamDefault, ParamKind, ParamSpec, Params};
use super::reno::halve;
use super::round::Rounds;
use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::time::Time;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "alpha",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(1.0),
        description: "lower bound on the flow's queued packets: below it the window grows by one per RTT",
        source: "ns-2 Agent/TCP/Vegas v_alpha_ = 1 (also Brakmo & Peterson); Linux uses 2",
    },
    ParamSpec {
        name: "beta",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(3.0),
        description: "upper bound on the flow's queued packets: above it the window shrinks by one per RTT",
        source: "ns-2 Agent/TCP/Vegas v_beta_ = 3 (also Brakmo & Peterson); Linux uses 4",
    },
    ParamSpec {
        name: "gamma",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(1.0),
        description: "slow start ends when the queued-packet estimate exceeds gamma",
        source: "ns-2 Agent/TCP/Vegas v_gamma_ = 1; Linux uses 1",
    },
    ParamSpec {
        name: "rtt_statistic",
        kind: ParamKind::Choice(&["min", "mean"]),
        default: ParamDefault::Str("min"),
        description:
            "which RTT of the round the decision uses: its minimum sample or the mean of its samples",
        source:
            "the issue asks for the round's minimum (Linux tcp_vegas.c); 'mean' is ns-2's (algorithms.md G1)",
    },
    ParamSpec {
        name: "loss_reduction",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.75),
        description: "window multiplier on fast retransmit",
        source: "P004 §II and ns-2 Vegas: 3/4 of the window when the lost packet was sent once",
    },
];

pub struct Vegas {
    alpha: f64,
    beta: f64,
    gamma: f64,
    use_min: bool,
    loss_reduction: f64,
    cwnd: f64,
    ssthresh: f64,
    base_rtt: Option<Time>,
    rounds: Rounds,
    round_min: Time,
    round_sum: f64,
    round_n: u64,
    /// Explicit state: a congestion-avoidance decrement must not fall back into slow start.
    slow_start: bool,
    /// Slow start grows only on every other round ("safe slow start").
    grow_this_round: bool,
    diff: f64,
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Vegas::new(p, ctx))
}

impl Vegas {
    pub fn new(p: &Params, ctx: &FlowContext) -> Vegas {
        Vegas {
            alpha: p.num("alpha"),
            beta: p.num("beta").max(p.num("alpha")),
            gamma: p.num("gamma"),
            use_min: p.choice("rtt_statistic") == "min",
            loss_reduction: p.num("loss_reduction"),
            cwnd: ctx.initial_window,
            ssthresh: f64::INFINITY,
            base_rtt: None,
            rounds: Rounds::default(),
            round_min: Time::MAX,
            round_sum: 0.0,
            round_n: 0,
            slow_start: true,
            grow_this_round: true,
            diff: 0.0,
        }
    }

    fn end_of_round(&mut self) {
        let Some(base) = self.base_rtt else { return };
        if self.round_n == 0 {
            return;
        }
        let rtt = if self.use_min { self.round_min as f64 } else { self.round_sum / self.round_n as f64 };
        let rtt = rtt.max(base as f64);
        self.diff = self.cwnd * (rtt - base as f64) / rtt;
        if self.slow_start && self.cwnd >= self.ssthresh {
            // Back at the threshold a timeout left: congestion avoidance from here, as Reno would.
            self.slow_start = false;
        }
        if self.slow_start {
            if self.diff > self.gamma {
                // Leave slow start at the window the path can carry without queueing, plus one.
                let target = self.cwnd * base as f64 / rtt;
                self.cwnd = self.cwnd.min(target + 1.0).max(2.0);
                self.ssthresh = self.cwnd;
                self.slow_start = false;
            } else {
                self.grow_this_round = !self.grow_this_round;
            }
        } else if self.diff > self.beta {
            self.cwnd = (self.cwnd - 1.0).max(2.0);
        } else if self.diff < self.alpha {
            self.cwnd += 1.0;
        }
    }
}

impl CongestionControl for Vegas {
    fn window(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh(&self) -> f64 {
        self.ssthresh
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        if let Some(b) = ack.base_rtt {
            self.base_rtt = Some(b);
        }
        if ack.in_recovery {
            return;
        }
        if let Some(r) = ack.rtt {
            if ack.base_rtt.is_none() {
                self.base_rtt = Some(self.base_rtt.map_or(r, |b| b.min(r)));
            }
            self.round_min = self.round_min.min(r);
            self.round_sum += r as f64;
            self.round_n += 1;
        }
        if self.slow_start && self.grow_this_round && self.cwnd < self.ssthresh {
            self.cwnd += 1.0;
        }
        if self.rounds.on_ack(ack.snd_una, ack.snd_una + ack.inflight) {
            self.end_of_round();
            self.round_min = Time::MAX;
            self.round_sum = 0.0;
            self.round_n = 0;
        }
    }

    fn on_loss(&mut self, loss: &LossEvent) {
        let factor = if loss.lost_was_retransmit { 0.5 } else { self.loss_reduction };
        self.cwnd = (self.cwnd * factor).max(2.0);
        self.ssthresh = self.cwnd;
        self.slow_start = false;
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {}

    fn on_timeout(&mut self, _now: Time, inflight: u64) {
        self.ssthresh = halve(self.cwnd, inflight);
        self.cwnd = 1.0;
        self.slow_start = true;
        self.grow_this_round = true;
    }

    fn trace(&self) -> CcTrace {
        CcTrace { base_rtt: self.base_rtt, srtt: None }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["backlog_pkts"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.diff);
    }
}
