//! LEDBAT (RFC 6817): a scavenger that keeps the queueing delay it adds near TARGET and yields to any
//! flow that builds a longer queue. Each ACK carries the receiver's arrival time of its data packet, so
//! the sender knows the forward one-way delay up to the clocks' offset; the offset cancels in
//!     queuing_delay = FILTER(current delays) − MIN(base delays)        (`ledbat/delays.rs`)
//! and the window moves towards TARGET in proportion to how far off it is:
//!     cwnd += GAIN · (TARGET − queuing_delay)/TARGET · acked / cwnd,
//! never above flightsize + ALLOWED_INCREASE nor below MIN_CWND (§2.4.2). A loss halves cwnd at most
//! once per RTT; a timeout sets it to one packet (the transport's RTO backoff is the RFC's CTO doubling).

mod delays;
#[cfg(test)]
mod tests;

use super::{AckEvent, CongestionControl, FlowContext, LossEvent};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::{secs, Time};
pub use delays::OneWayDelays;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "target",
        kind: ParamKind::Duration { min: 0.001, max: 0.1 },
        default: ParamDefault::Num(0.1),
        description: "TARGET: the queueing delay LEDBAT aims to add, seconds",
        source: "RFC 6817 §2.5 (MUST be 100 ms or less; §3.3 why); 100 ms as ns-3 TcpLedbat and BitTorrent's uTP (libutp)",
    },
    ParamSpec {
        name: "gain",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(1.0),
        description: "GAIN: window change per RTT at zero queueing delay, packets (1 = Reno's ramp)",
        source: "RFC 6817 §2.5 (MUST be 1 or less)",
    },
    ParamSpec {
        name: "allowed_increase",
        kind: ParamKind::Float { min: 0.0, max: 100.0, min_exclusive: true },
        default: ParamDefault::Num(1.0),
        description: "ALLOWED_INCREASE: cwnd may exceed the flight before the ACK by this many packets",
        source: "RFC 6817 §2.5 (SHOULD be 1, MUST be greater than 0)",
    },
    ParamSpec {
        name: "min_cwnd",
        kind: ParamKind::Float { min: 1.0, max: 100.0, min_exclusive: false },
        default: ParamDefault::Num(2.0),
        description: "MIN_CWND: the window never falls below this on an ACK, packets",
        source: "RFC 6817 §2.5 (INIT_CWND and MIN_CWND SHOULD both be 2)",
    },
    ParamSpec {
        name: "base_history",
        kind: ParamKind::Int { min: 1, max: 60 },
        default: ParamDefault::Num(10.0),
        description: "BASE_HISTORY: one-minute minima kept for the base delay",
        source: "RFC 6817 §2.5 (SHOULD be 10)",
    },
    ParamSpec {
        name: "current_filter",
        kind: ParamKind::Int { min: 1, max: 64 },
        default: ParamDefault::Num(4.0),
        description: "CURRENT_FILTER: the current delay is the minimum of this many latest samples (none older than an RTT)",
        source: "RFC 6817 §2.5 (at least 4 samples per RTT), §3.1.2 and §5.3 (the filter: the minimum is one offered); ns-3 TcpLedbat NoiseFilterLen 4",
    },
    ParamSpec {
        name: "slow_start",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "start with TCP slow start (+1 packet per ACK) until the queueing delay reaches TARGET or a loss",
        source: "our choice: off, as RFC 6817 §2.4.2's pseudocode (slow start is allowed only no faster than TCP's); ns-3 TcpLedbat's SSParam defaults to on (docs/algorithms.md#ledbat-slow-start)",
    },
];

pub struct Ledbat {
    target: f64,
    gain: f64,
    allowed_increase: f64,
    min_cwnd: f64,
    slow_start: bool,
    cwnd: f64,
    /// Slow start runs while cwnd < ssthresh and `in_slow_start`; it ends for good at TARGET or a loss
    /// and restarts only after a timeout, towards half the window before it.
    in_slow_start: bool,
    ssthresh: f64,
    delays: OneWayDelays,
    /// Latest RTT sample: the span of "once per RTT" and of the current filter.
    rtt: Option<Time>,
    last_cut: Option<Time>,
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Ledbat::new(p, ctx))
}

impl Ledbat {
    pub fn new(p: &Params, ctx: &FlowContext) -> Ledbat {
        let slow_start = p.flag("slow_start");
        Ledbat {
            target: p.num("target"),
            gain: p.num("gain"),
            allowed_increase: p.num("allowed_increase"),
            min_cwnd: p.num("min_cwnd"),
            slow_start,
            cwnd: ctx.initial_window,
            in_slow_start: slow_start,
            ssthresh: f64::INFINITY,
            delays: OneWayDelays::new(p.num("base_history") as usize, p.num("current_filter") as usize),
            rtt: None,
            last_cut: None,
        }
    }

    /// The queueing delay estimate, seconds (None before the first timestamped ACK).
    pub fn queuing_delay(&self) -> Option<f64> {
        self.delays.queuing_delay().map(secs)
    }

    pub fn delays(&self) -> &OneWayDelays {
        &self.delays
    }

    /// RFC 6817 §2.4.2 "on acknowledgement", windows in packets: bytes_newly_acked·MSS/cwnd in bytes is
    /// acked/cwnd in packets. `flight` is what was outstanding before this ACK; `sent_into` what was
    /// outstanding when the acked packet left.
    fn grow(&mut self, queuing_delay: f64, acked: f64, flight: f64, sent_into: f64) {
        if self.in_slow_start && queuing_delay >= self.target {
            // The delay that ends slow start was made by the window this packet was sent into; the window
            // doubled in the RTT since, so going on from it would queue about twice TARGET
            // (docs/algorithms.md#ledbat-slow-start).
            self.in_slow_start = false;
            self.cwnd = self.cwnd.min(sent_into);
            self.ssthresh = self.cwnd;
        }
        if self.in_slow_start && self.cwnd < self.ssthresh {
            self.cwnd += acked;
        } else {
            let off_target = (self.target - queuing_delay) / self.target;
            self.cwnd += self.gain * off_target * acked / self.cwnd;
        }
        self.cwnd = self.cwnd.min(flight + self.allowed_increase).max(self.min_cwnd);
    }
}

impl CongestionControl for Ledbat {
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
        if let Some(ts) = ack.timestamps() {
            self.delays.add(ack.now, ts.forward_raw(), self.rtt);
        }
        // The transport owns the window during recovery, as for Reno.
        if ack.in_recovery {
            return;
        }
        if let Some(q) = self.queuing_delay() {
            let flight = (ack.inflight + ack.acked) as f64;
            self.grow(q, ack.acked as f64, flight, ack.inflight_at_send as f64);
        }
    }

    /// §2.4.2 "on data loss": cwnd = min(cwnd, max(cwnd/2, MIN_CWND)), at most once per RTT.
    fn on_loss(&mut self, loss: &LossEvent) {
        let rtt = self.rtt.unwrap_or(0);
        if self.last_cut.is_some_and(|t| loss.now < t + rtt) {
            return;
        }
        self.last_cut = Some(loss.now);
        self.cwnd = self.cwnd.min((self.cwnd / 2.0).max(self.min_cwnd));
        self.ssthresh = self.ssthresh.min(self.cwnd);
        self.in_slow_start = false;
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {}

    /// §2.4.2: no ACK within a CTO sets cwnd to one packet; the next ACK lifts it to MIN_CWND.
    fn on_timeout(&mut self, now: Time, _inflight: u64) {
        self.ssthresh = (self.cwnd / 2.0).max(self.min_cwnd);
        self.in_slow_start = self.slow_start;
        self.cwnd = 1.0;
        self.last_cut = Some(now);
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["queuing_delay_s"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.queuing_delay().unwrap_or(f64::NAN));
    }
}
