//! PIE, Proportional Integral controller Enhanced (RFC 8033): arrivals are dropped (or ECN-marked) at
//! random with a probability p that a PI controller moves every `t_update` from the queueing delay,
//!
//! ```text
//! p += scale(p) · (alpha · (qdelay − target) + beta · (qdelay − qdelay_old))      (RFC 8033 §4.2)
//! ```
//!
//! with `scale(p)` the RFC's auto-tuning steps (1/2048 below 10^-6 ... 1/2 below 0.1, then 1), a 2 %
//! decay per update while the queue stays empty, a burst allowance after idle periods (§4.4) and the
//! safeguards of §4.1. docs/queues.md#pie says what delaycc chose where the RFC leaves a choice.
//!
//! **Queueing delay.** `qdelay` is the sojourn so far of the packet at the head of the queue, `now −
//! since` (RFC 8033 §4.3's timestamp method, as Linux's sch_pie does without `dq_rate_estimator`), and
//! 0 when nothing waits. delaycc knows each packet's arrival exactly, so the dequeue-rate estimate of §4.3
//! / §5.2 would only add its estimation error.
//!
//! **No timer.** A direction's discipline sees only `enqueue`, `dequeue` and `drain`, so the updates due
//! at `k · t_update` are run when the next call arrives, each with the head packet it would have seen at
//! its own instant. Between two calls the queue does not change, so the head (and its `since`) at every
//! missed instant is the one the call finds, and `instant − since` is exactly what a timer would have
//! computed: the lazy updates reproduce a timer's trajectory of p. Updates due at the instant of a call
//! run before it (a timer firing first at a tie). Only `drain` (the link went down) empties the queue
//! without a time: updates between the last call and the outage then see the empty queue a little early.
//! A long idle stretch costs nothing once the state stops changing (`catch_up`).

use super::fifo::Fifo;
use super::{QueueContext, QueueCounters, QueueDiscipline, Waiting};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params, RuleResult};
use crate::model::Buffer;
use crate::net::Packet;
use crate::rng::Rng;
use crate::time::{from_secs, secs, Time};

#[cfg(test)]
mod tests;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "target",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(0.015),
        description: "queueing delay the controller steers to (QDELAY_REF), seconds",
        source: "RFC 8033 §4.2 (QDELAY_REF = 15 ms)",
    },
    ParamSpec {
        name: "t_update",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(0.015),
        description: "period of the drop-probability update (T_UPDATE), seconds",
        source: "RFC 8033 §4.2 (T_UPDATE = 15 ms)",
    },
    ParamSpec {
        name: "alpha",
        kind: ParamKind::Float { min: 0.0, max: 100.0, min_exclusive: false },
        default: ParamDefault::Num(0.125),
        description: "weight of the delay's distance from target, per second (before auto-tuning)",
        source: "RFC 8033 §4.2 (alpha = 0.125 Hz)",
    },
    ParamSpec {
        name: "beta",
        kind: ParamKind::Float { min: 0.0, max: 100.0, min_exclusive: false },
        default: ParamDefault::Num(1.25),
        description: "weight of the delay's change since the last update, per second (before auto-tuning)",
        source: "RFC 8033 §4.2 (beta = 1.25 Hz)",
    },
    ParamSpec {
        name: "max_burst",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(0.15),
        description: "burst allowance: no random drop for this long after the queue was idle, seconds",
        source: "RFC 8033 §4.4 (MAX_BURST = 150 ms)",
    },
    ParamSpec {
        name: "ecn",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "mark ECN-capable packets CE instead of dropping them while p <= mark_ecnth",
        source: "RFC 8033 §5.1 (ECN support is optional); off as Linux's sch_pie (noecn)",
    },
    ParamSpec {
        name: "mark_ecnth",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: false },
        default: ParamDefault::Num(0.1),
        description: "with ecn: the highest drop probability at which a packet is marked instead of dropped",
        source: "RFC 8033 §5.1 (mark_ecnth = 10 %)",
    },
];

/// Below this probability the delay-within-target safeguard may hold drops back (RFC 8033 §4.1).
const SAFEGUARD_P: f64 = 0.2;
/// Per-update decay of p while the queue stays empty (RFC 8033 §4.2: 2 %; Linux uses 1/64).
const DECAY: f64 = 0.98;

/// Rules between parameters: a
/// zero period or target, or a controller that can never move p.
pub fn check(p: &Params, _buffer: Buffer) -> RuleResult {
    for key in ["target", "t_update"] {
        if p.num(key) <= 0.0 {
            return Err((key, "must be greater than zero".to_string()));
        }
    }
    if p.num("alpha") == 0.0 && p.num("beta") == 0.0 {
        return Err(("alpha", "alpha and beta are both zero: the drop probability would never move".into()));
    }
    Ok(())
}

pub fn build(params: &Params, ctx: &QueueContext) -> Box<dyn QueueDiscipline> {
    Box::new(Pie::new(params, ctx))
}

/// RFC 8033 §4.2's auto-tuning: the factor alpha and beta are scaled by at probability p, so that a
/// small p moves in small steps.
pub fn scale(p: f64) -> f64 {
    const STEPS: [(f64, f64); 6] =
        [(1e-6, 2048.0), (1e-5, 512.0), (1e-4, 128.0), (1e-3, 32.0), (1e-2, 8.0), (1e-1, 2.0)];
    STEPS.iter().find(|(below, _)| p < *below).map_or(1.0, |(_, div)| 1.0 / div)
}

pub struct Pie {
    buffer: Buffer,
    mtu: u64,
    target: Time,
    t_update: Time,
    alpha: f64,
    beta: f64,
    max_burst: Time,
    ecn: bool,
    mark_ecnth: f64,
    fifo: Fifo,
    rng: Rng,
    counters: QueueCounters,
    /// The drop probability (drop_prob_).
    p: f64,
    /// The queueing delay of the previous update.
    qdelay_old: Time,
    /// What is left of the burst allowance; starts full (RFC 8033 §4.4).
    burst_allowance: Time,
    /// When the next update is due.
    next_update: Time,
}

impl Pie {
    pub fn new(params: &Params, ctx: &QueueContext) -> Pie {
        let t_update = from_secs(params.num("t_update")).max(1);
        let max_burst = from_secs(params.num("max_burst"));
        Pie {
            buffer: ctx.buffer,
            mtu: ctx.mtu as u64,
            target: from_secs(params.num("target")),
            t_update,
            alpha: params.num("alpha"),
            beta: params.num("beta"),
            max_burst,
            ecn: params.flag("ecn"),
            mark_ecnth: params.num("mark_ecnth"),
            fifo: Fifo::default(),
            rng: ctx.rng.clone(),
            counters: QueueCounters::default(),
            p: 0.0,
            qdelay_old: 0,
            burst_allowance: max_burst,
            next_update: t_update,
        }
    }

    /// The drop probability now (as of the last update run).
    pub fn probability(&self) -> f64 {
        self.p
    }

    /// One update (RFC 8033 §4.2, with §4.4's burst allowance) with the queueing delay `qdelay`.
    fn update(&mut self, qdelay: Time) {
        let (q, q_old, target) = (secs(qdelay), secs(self.qdelay_old), secs(self.target));
        let delta = self.alpha * (q - target) + self.beta * (q - q_old);
        let mut p = self.p + scale(self.p) * delta;
        if qdelay == 0 && self.qdelay_old == 0 {
            p *= DECAY;
        }
        self.p = p.clamp(0.0, 1.0);
        self.burst_allowance = self.burst_allowance.saturating_sub(self.t_update);
        let half = self.target / 2;
        if self.p == 0.0 && qdelay < half && self.qdelay_old < half {
            self.burst_allowance = self.max_burst;
        }
        self.qdelay_old = qdelay;
    }

    /// Runs the updates due by `now`, each with the head packet's sojourn at its own instant (the queue
    /// has not changed since the last call). While the queue is empty every update sees a delay of 0; once
    /// one leaves the state as it was, so would all the others, and the rest are skipped at once.
    #[inline]
    fn catch_up(&mut self, now: Time) {
        while self.next_update <= now {
            let at = self.next_update;
            self.next_update = at + self.t_update;
            match self.fifo.front() {
                Some(head) => self.update(at.saturating_sub(head.since)),
                None => {
                    let before = (self.p, self.qdelay_old, self.burst_allowance);
                    self.update(0);
                    let unchanged = (self.p, self.qdelay_old, self.burst_allowance) == before;
                    if unchanged && self.next_update <= now {
                        let skipped = (now - self.next_update) / self.t_update + 1;
                        self.next_update = self.next_update.saturating_add(skipped * self.t_update);
                    }
                }
            }
        }
    }

    /// Whether an arrival is chosen to be dropped (or marked): never during the burst allowance, never
    /// while the last delay was within half the target and p is below 0.2, never with less than two MTUs
    /// waiting (RFC 8033 §4.1; Linux's `backlog < 2 * mtu`), else with probability p.
    fn drop_early(&mut self) -> bool {
        if self.burst_allowance > 0 {
            return false;
        }
        if self.qdelay_old < self.target / 2 && self.p < SAFEGUARD_P {
            return false;
        }
        if self.fifo.bytes() < 2 * self.mtu {
            return false;
        }
        self.rng.bernoulli(self.p)
    }
}

impl QueueDiscipline for Pie {
    fn enqueue(&mut self, now: Time, mut pkt: Packet) -> bool {
        self.catch_up(now);
        if !self.fifo.fits(self.buffer, pkt.size) {
            self.counters.overflow_drops += 1;
            return false;
        }
        if self.drop_early() {
            // RFC 8033 §5.1: mark instead of dropping only while p is low; above it the flows that ignore
            // marks would keep the queue long.
            if self.ecn && pkt.ecn_capable() && self.p <= self.mark_ecnth {
                pkt.mark_ce();
                self.counters.marks += 1;
            } else {
                self.counters.early_drops += 1;
                return false;
            }
        }
        self.fifo.push(now, pkt);
        true
    }

    fn dequeue(&mut self, now: Time, _dropped: &mut Vec<Packet>) -> Option<Waiting> {
        self.catch_up(now);
        self.fifo.pop()
    }

    fn len_packets(&self) -> u64 {
        self.fifo.len()
    }

    fn len_bytes(&self) -> u64 {
        self.fifo.bytes()
    }

    fn drain(&mut self) -> Vec<Packet> {
        self.fifo.drain()
    }

    fn counters(&self) -> QueueCounters {
        self.counters
    }
}
