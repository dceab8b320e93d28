//! TCP-LP (Kuzmanovic and Knightly, INFOCOM 2003): a low-priority Reno that treats a rising one-way delay
//! as an early congestion indication (ECI). The sender smooths the forward delays the ACKs report
//! (sowd ← (1 − γ)·sowd + γ·d) and keeps their minimum and maximum; an ACK finds an ECI when
//!     sowd > d_min + δ·(d_max − d_min).
//! The first ECI halves cwnd and opens the inference window of `inference_rtts` RTTs, during which cwnd
//! does not grow; a further ECI inside it means other traffic is building the queue, and cwnd falls to
//! one packet. Outside the window the window grows as Reno's; losses and timeouts are Reno's too.
//! The delays are T2 − T1 with the receiver's clock offset; the threshold test is a difference of them,
//! so the offset cancels. After each indication acted on, d_min and d_max are reset around the smoothed
//! delay, as Linux and ns-3 do, so that a range learnt from a queue of a packet or two does not throttle
//! the flow for ever; `range_reset` says how (docs/algorithms.md#tcp-lp-min-max).

use super::reno::Reno;
use super::{AckEvent, CongestionControl, FlowContext, LossEvent};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::Time;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "delta",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.15),
        description: "threshold position δ between the minimum and maximum one-way delay",
        source: "Linux tcp_lp.c (15/100) and ns-3 TcpLp, both from Kuzmanovic & Knightly 2003 (the ECI threshold; the paper's section unverified)",
    },
    ParamSpec {
        name: "gamma",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.125),
        description: "weight γ of a new sample in the smoothed one-way delay",
        source: "Linux tcp_lp.c and ns-3 TcpLp (sowd = 7/8 sowd + 1/8 sample); the paper's EWMA of one-way delays",
    },
    ParamSpec {
        name: "inference_rtts",
        kind: ParamKind::Float { min: 0.0, max: 100.0, min_exclusive: true },
        default: ParamDefault::Num(3.0),
        description: "length of the inference window after a reduction, in RTTs (the latest RTT sample)",
        source: "Linux tcp_lp.c and ns-3 TcpLp (inference = 3·RTT): the paper's inference time-out",
    },
    ParamSpec {
        name: "range_reset",
        kind: ParamKind::Choice(&["one-way", "linux", "none"]),
        default: ParamDefault::Str("one-way"),
        description: "after an indication: d_min = sowd and d_max = sowd + min RTT / 2 (one-way), d_max = 2·sowd (linux: needs the receiver's clock offset 0), or no reset",
        source: "our choice because only differences of offset delays are meaningful (docs/algorithms.md#tcp-lp-min-max); linux is tcp_lp.c's and ns-3 TcpLp's reset; none keeps the running extremes",
    },
    ParamSpec {
        name: "initial_ssthresh",
        kind: ParamKind::Float { min: 2.0, max: 1e12, min_exclusive: false },
        default: ParamDefault::Num(1e9),
        description: "slow-start threshold before the first reduction, packets",
        source: "our choice, as for reno/newreno: slow start until the first congestion signal (Linux and ns-3 start unlimited)",
    },
];

/// How d_min and d_max restart after an indication acted on.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RangeReset {
    /// d_min = sowd, d_max = sowd + half the smallest RTT: a range of a one-way trip, from offset-free
    /// quantities.
    OneWay,
    /// d_min = sowd, d_max = 2·sowd on the raw delays (Linux tcp_lp.c, ns-3 TcpLp).
    Linux,
    /// Running extremes over the whole connection.
    None,
}

pub struct TcpLp {
    /// The window, its growth, and the answers to losses and timeouts.
    reno: Reno,
    delta: f64,
    range_reset: RangeReset,
    gamma: f64,
    inference_rtts: f64,
    /// Smoothed forward delay, nanoseconds on the receiver-minus-sender clock.
    sowd: Option<f64>,
    owd_min: i64,
    owd_max: i64,
    rtt: Option<Time>,
    min_rtt: Option<Time>,
    /// When the last early reduction was made.
    last_drop: Option<Time>,
    /// The next sample sent after the last reduction starts the smoothed delay afresh.
    restart_sowd: bool,
    indications: u64,
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(TcpLp::new(p, ctx))
}

impl TcpLp {
    pub fn new(p: &Params, ctx: &FlowContext) -> TcpLp {
        TcpLp {
            delta: p.num("delta"),
            gamma: p.num("gamma"),
            inference_rtts: p.num("inference_rtts"),
            range_reset: match p.choice("range_reset") {
                "linux" => RangeReset::Linux,
                "none" => RangeReset::None,
                _ => RangeReset::OneWay,
            },
            reno: Reno::new(p, ctx, true),
            sowd: None,
            owd_min: i64::MAX,
            owd_max: i64::MIN,
            rtt: None,
            min_rtt: None,
            last_drop: None,
            restart_sowd: false,
            indications: 0,
        }
    }

    /// Every sample widens the range; only those sent after the last reduction move the smoothed delay,
    /// which restarts from the first of them: it is to say what the window now in force does to the
    /// queue, not what the one before did (docs/algorithms.md#tcp-lp-eci-per-rtt).
    fn sample(&mut self, owd: i64, echo: bool) {
        self.owd_min = self.owd_min.min(owd);
        self.owd_max = self.owd_max.max(owd);
        if echo {
            return;
        }
        let s = match self.sowd {
            Some(s) if !self.restart_sowd => s + self.gamma * (owd as f64 - s),
            _ => owd as f64,
        };
        self.sowd = Some(s);
        self.restart_sowd = false;
    }

    /// The ECI threshold d_min + δ·(d_max − d_min), None until the delays have spread.
    pub fn threshold(&self) -> Option<f64> {
        (self.owd_max > self.owd_min)
            .then(|| self.owd_min as f64 + self.delta * (self.owd_max - self.owd_min) as f64)
    }

    /// Restarts the range around the smoothed delay, so the next indication needs the queue to grow by
    /// δ of the new range rather than of whatever little spread the samples had so far.
    fn reset_range(&mut self) {
        let Some(sowd) = self.sowd else { return };
        let span = match self.range_reset {
            RangeReset::None => return,
            RangeReset::OneWay => self.min_rtt.unwrap_or(0) as f64 / 2.0,
            RangeReset::Linux => sowd,
        };
        self.owd_min = sowd as i64;
        self.owd_max = (sowd + span) as i64;
    }

    fn early_indication(&self) -> bool {
        matches!((self.sowd, self.threshold()), (Some(s), Some(t)) if s > t)
    }

    fn within_inference(&self, now: Time) -> bool {
        let rtt = self.rtt.unwrap_or(0) as f64;
        self.last_drop.is_some_and(|t| ((now - t) as f64) < self.inference_rtts * rtt)
    }

    /// A reduction shows only in the delays of packets sent after it; the ACKs of those sent before
    /// report the queue it is draining (docs/algorithms.md#tcp-lp-eci-per-rtt).
    fn echo_of_last_drop(&self, sent: Time) -> bool {
        self.last_drop.is_some_and(|t| sent < t)
    }

    /// An early indication: halve, or one packet inside the inference window, then restart the window,
    /// the delay range and the smoothed delay from this reduction.
    fn reduce(&mut self, now: Time, within: bool) {
        self.indications += 1;
        let r = &mut self.reno;
        if within {
            r.cwnd = 1.0;
        } else {
            r.cwnd = (r.cwnd / 2.0).max(1.0);
            r.ssthresh = r.cwnd.max(2.0);
        }
        self.last_drop = Some(now);
        self.reset_range();
        self.restart_sowd = true;
    }

    pub fn indications(&self) -> u64 {
        self.indications
    }
}

impl CongestionControl for TcpLp {
    fn window(&self) -> f64 {
        self.reno.cwnd
    }

    fn ssthresh(&self) -> f64 {
        self.reno.ssthresh
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        if let Some(r) = ack.rtt {
            self.rtt = Some(r);
            self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        }
        // Without receiver timestamps there is no one-way delay and no indication: Reno alone.
        let indication = ack.timestamps().is_some_and(|ts| {
            let echo = self.echo_of_last_drop(ts.sent);
            self.sample(ts.forward_raw(), echo);
            // In recovery the loss has already cut the window; an indication then would cut it twice.
            !ack.in_recovery && !echo && self.early_indication()
        });
        let within = self.within_inference(ack.now);
        if indication {
            self.reduce(ack.now, within);
        } else if !within {
            self.reno.on_ack(ack);
        }
    }

    fn on_loss(&mut self, loss: &LossEvent) {
        self.reno.on_loss(loss);
    }

    fn on_recovery_exit(&mut self, now: Time, inflight: u64) {
        self.reno.on_recovery_exit(now, inflight);
    }

    fn on_timeout(&mut self, now: Time, inflight: u64) {
        self.reno.on_timeout(now, inflight);
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["lp_indications"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.indications as f64);
    }
}

#[cfg(test)]
mod tests;
