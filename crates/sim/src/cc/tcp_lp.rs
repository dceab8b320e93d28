//! TCP-LP (Kuzmanovic and Knightly, INFOCOM 2003): a low-priority Reno that treats a rising one-way delay
//! as an early congestion indication (ECI). The sender smooths the forward delays the ACKs report
//! (sowd ← (1 − γ)·sowd + γ·d) and keeps their minimum and maximum; an ACK finds an ECI when
//!     sowd > d_min + δ·(d_max − d_min).
//! The first ECI halves cwnd and opens the inference window of `inference_rtts` RTTs, during which cwnd
//! does not grow; a further ECI inside it means other traffic is building the queue, and cwnd falls to
//! one packet. Outside the window the window grows as Reno's; losses and timeouts are Reno's too.
//! The delays are T2 − T1 with the receiver's clock offset; the threshold test is a difference of them,
//! so the offset cancels (docs/algorithms.md#tcp-lp-min-max).

use super::reno::halve;
use super::{AckEvent, CongestionControl, FlowContext, LossEvent};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::Time;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "delta",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.15),
        description: "threshold position δ between the minimum and maximum one-way delay",
        source: "Kuzmanovic & Knightly 2003 §III (early congestion indication, δ = 0.15); Linux tcp_lp.c (15/100); ns-3 TcpLp",
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
        source: "Kuzmanovic & Knightly 2003 §III (inference time-out, 3 RTTs); Linux tcp_lp.c and ns-3 TcpLp (inference = 3·RTT)",
    },
    ParamSpec {
        name: "initial_ssthresh",
        kind: ParamKind::Float { min: 2.0, max: 1e12, min_exclusive: false },
        default: ParamDefault::Num(1e9),
        description: "slow-start threshold before the first reduction, packets",
        source: "our choice, as for reno/newreno: slow start until the first congestion signal (Linux and ns-3 start unlimited)",
    },
];

pub struct TcpLp {
    delta: f64,
    gamma: f64,
    inference_rtts: f64,
    cwnd: f64,
    ssthresh: f64,
    /// Smoothed forward delay, nanoseconds on the receiver-minus-sender clock.
    sowd: Option<f64>,
    owd_min: i64,
    owd_max: i64,
    rtt: Option<Time>,
    /// The last early reduction and the RTT it was made with.
    last_drop: Option<(Time, Time)>,
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
            cwnd: ctx.initial_window,
            ssthresh: p.num("initial_ssthresh"),
            sowd: None,
            owd_min: i64::MAX,
            owd_max: i64::MIN,
            rtt: None,
            last_drop: None,
            indications: 0,
        }
    }

    fn sample(&mut self, owd: i64) {
        self.owd_min = self.owd_min.min(owd);
        self.owd_max = self.owd_max.max(owd);
        let s = self.sowd.map_or(owd as f64, |s| s + self.gamma * (owd as f64 - s));
        self.sowd = Some(s);
    }

    /// The ECI threshold d_min + δ·(d_max − d_min), None until the delays have spread.
    pub fn threshold(&self) -> Option<f64> {
        (self.owd_max > self.owd_min)
            .then(|| self.owd_min as f64 + self.delta * (self.owd_max - self.owd_min) as f64)
    }

    fn early_indication(&self) -> bool {
        matches!((self.sowd, self.threshold()), (Some(s), Some(t)) if s > t)
    }

    fn within_inference(&self, now: Time) -> bool {
        let rtt = self.rtt.unwrap_or(0) as f64;
        self.last_drop.is_some_and(|(t, _)| ((now - t) as f64) < self.inference_rtts * rtt)
    }

    /// A reduction shows in the delays only an RTT later, so indications until then are its own echo
    /// (docs/algorithms.md#tcp-lp-eci-per-rtt).
    fn echo_of_last_drop(&self, now: Time) -> bool {
        self.last_drop.is_some_and(|(t, rtt)| now < t + rtt)
    }

    pub fn indications(&self) -> u64 {
        self.indications
    }
}

impl CongestionControl for TcpLp {
    fn window(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh(&self) -> f64 {
        self.ssthresh
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        if let Some(r) = ack.rtt {
            self.rtt = Some(r);
        }
        if let Some(ts) = ack.timestamps {
            self.sample(ts.forward_raw());
        }
        let within = self.within_inference(ack.now);
        // In recovery the loss has already cut the window; an indication then would cut it twice.
        if !ack.in_recovery && self.early_indication() && !self.echo_of_last_drop(ack.now) {
            self.indications += 1;
            if within {
                self.cwnd = 1.0;
            } else {
                self.cwnd = (self.cwnd / 2.0).max(1.0);
                self.ssthresh = self.cwnd.max(2.0);
            }
            self.last_drop = Some((ack.now, self.rtt.unwrap_or(0)));
            return;
        }
        if ack.in_recovery || within {
            return;
        }
        if self.cwnd < self.ssthresh {
            self.cwnd += 1.0;
        } else {
            self.cwnd += 1.0 / self.cwnd;
        }
    }

    fn on_loss(&mut self, loss: &LossEvent) {
        self.ssthresh = halve(self.cwnd, loss.inflight);
        self.cwnd = self.ssthresh;
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {
        self.cwnd = self.ssthresh;
    }

    fn on_timeout(&mut self, _now: Time, inflight: u64) {
        self.ssthresh = halve(self.cwnd, inflight);
        self.cwnd = 1.0;
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
