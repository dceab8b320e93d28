//! Copa (Arun and Balakrishnan, NSDI 2018), as the paper defines it in §2–§4; where the paper is silent
//! the authors' implementation in mvfst (quic/congestion_control/Copa.cpp) decides, and the parameter
//! table (`params.rs`) says which.
//!
//! Copa steers its rate towards the target λt = 1/(δ·dq), where dq = RTTstanding − RTTmin is the queueing
//! delay: RTTstanding is the smallest RTT of the last srtt/2 (short enough to follow the queue, long
//! enough to skip ACK compression and jitter) and RTTmin the smallest of the last 10 s. With the current
//! rate λ = cwnd/RTTstanding, each ACK moves cwnd by v/(δ·cwnd) up if λ ≤ λt and down otherwise, so at
//! equilibrium a flow keeps about 1/δ packets in the queue. The velocity v (`velocity.rs`) speeds the
//! approach; slow start doubles cwnd per RTT until λ first exceeds λt; the packets are paced at
//! 2·cwnd/RTTstanding. The default δ is replaced by AIMD on 1/δ while a buffer-filling competitor keeps the
//! queue from ever emptying (`mode.rs`).
//!
//! Losses: the window ignores fast-retransmit losses, as mvfst does and as the robustness to
//! non-congestive loss that the paper claims (abstract, evaluation) implies; in competitive mode a loss
//! halves 1/δ (§4). A timeout, mvfst's persistent congestion, sets the window to `min_cwnd` and the
//! velocity to 1. The transport's NewReno recovery retransmits as for any algorithm.

mod filter;
mod mode;
mod params;
#[cfg(test)]
mod tests;
mod velocity;

pub use params::PARAMS;

use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::model::params::Params;
use crate::time::{from_secs, secs, Time};
use filter::WindowedExtreme;
use mode::ModeSwitch;
use velocity::{Direction, Velocity};

pub struct Copa {
    min_rtt_window: Time,
    standing_fraction: f64,
    srtt_gain: f64,
    pacing_gain: f64,
    min_cwnd: f64,
    packet_bits: f64,

    cwnd: f64,
    slow_start: bool,
    srtt: Option<Time>,
    min_rtt: WindowedExtreme,
    standing: WindowedExtreme,
    velocity: Velocity,
    mode: ModeSwitch,
    /// A baseRTT given by the transport (ALT), used instead of RTTmin when present.
    base_rtt: Option<Time>,
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Copa::new(p, ctx))
}

impl Copa {
    pub fn new(p: &Params, ctx: &FlowContext) -> Copa {
        let delta = p.num("delta");
        Copa {
            min_rtt_window: from_secs(p.num("min_rtt_window")),
            standing_fraction: p.num("standing_fraction"),
            srtt_gain: p.num("srtt_gain"),
            pacing_gain: p.num("pacing_gain"),
            min_cwnd: p.num("min_cwnd"),
            packet_bits: ctx.packet_bytes as f64 * 8.0,
            cwnd: ctx.initial_window.max(p.num("min_cwnd")),
            slow_start: true,
            srtt: None,
            min_rtt: WindowedExtreme::min(),
            standing: WindowedExtreme::min(),
            velocity: Velocity::new(p.num("velocity_rounds") as u32),
            mode: ModeSwitch::new(
                p.flag("competitive"),
                delta,
                p.num("empty_fraction"),
                p.num("empty_every_rtts"),
                p.num("max_window_rtts"),
            ),
            base_rtt: None,
        }
    }

    pub fn in_slow_start(&self) -> bool {
        self.slow_start
    }

    pub fn competitive(&self) -> bool {
        self.mode.competitive()
    }

    pub fn delta(&self) -> f64 {
        self.mode.delta()
    }

    pub fn velocity(&self) -> f64 {
        self.velocity.get()
    }

    pub fn rtt_standing(&self) -> Option<Time> {
        self.standing.get()
    }

    pub fn rtt_min(&self) -> Option<Time> {
        self.base_rtt.or(self.min_rtt.get())
    }

    /// Updates srtt and the RTT filters with one sample.
    fn on_rtt(&mut self, now: Time, rtt: Time) {
        let srtt = match self.srtt {
            None => rtt,
            Some(s) => ((1.0 - self.srtt_gain) * s as f64 + self.srtt_gain * rtt as f64) as Time,
        };
        self.srtt = Some(srtt);
        self.min_rtt.update(now, rtt, self.min_rtt_window);
        self.standing.update(now, rtt, (self.standing_fraction * srtt as f64) as Time);
        if let (Some(standing), Some(min)) = (self.rtt_standing(), self.rtt_min()) {
            self.mode.on_rtt(now, rtt, srtt, standing, min);
        }
    }

    /// λ ≤ λt, i.e. cwnd/RTTstanding ≤ 1/(δ·dq), written without divisions (dq = 0: λt is infinite).
    fn below_target(&self, standing: Time, min: Time) -> bool {
        let dq = standing.saturating_sub(min);
        dq == 0 || self.cwnd * self.mode.delta() * dq as f64 <= standing as f64
    }
}

impl CongestionControl for Copa {
    fn window(&self) -> f64 {
        self.cwnd
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        let now = ack.now;
        self.base_rtt = ack.base_rtt.or(self.base_rtt);
        if let Some(rtt) = ack.rtt {
            self.on_rtt(now, rtt);
        }
        let (Some(standing), Some(min), Some(srtt)) = (self.rtt_standing(), self.rtt_min(), self.srtt) else {
            return;
        };
        let up = self.below_target(standing, min);
        let acked = ack.acked.max(1) as f64;
        if self.slow_start {
            if up {
                // One packet per packet acknowledged: the window doubles each RTT (paper §2.1). mvfst
                // doubles in one step once per srtt; growing per ACK spreads it over the round.
                self.cwnd += acked;
                return;
            }
            self.slow_start = false;
        }
        self.velocity.on_ack(now, srtt, self.cwnd);
        self.velocity.steer(now, if up { Direction::Up } else { Direction::Down }, self.cwnd);
        // One step of v/(δ·cwnd) per packet acknowledged, each on the window the previous left: a
        // cumulative ACK of many packets after a recovery, applied as one step of n·v/(δ·cwnd) on a small
        // window, would throw cwnd far beyond the path (mvfst multiplies; the paper updates per packet).
        let gain = self.velocity.get() / self.mode.delta();
        for _ in 0..ack.acked.max(1) {
            let step = gain / self.cwnd;
            self.cwnd = if up { self.cwnd + step } else { (self.cwnd - step).max(self.min_cwnd) };
        }
    }

    fn on_loss(&mut self, loss: &LossEvent) {
        self.mode.on_loss(loss.now, self.srtt.unwrap_or(0));
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {}

    fn on_timeout(&mut self, now: Time, _inflight: u64) {
        self.mode.on_loss(now, self.srtt.unwrap_or(0));
        self.cwnd = self.min_cwnd;
        self.velocity.reset();
    }

    fn paces(&self) -> bool {
        true
    }

    /// pacing_gain·cwnd/RTTstanding; no pacing before the first RTT sample (the initial window goes out
    /// at once, as mvfst's pacer does without an RTT).
    fn pacing_rate(&self) -> Option<f64> {
        let standing = secs(self.standing.get()?);
        (standing > 0.0).then(|| self.pacing_gain * self.cwnd * self.packet_bits / standing)
    }

    fn trace(&self) -> CcTrace {
        CcTrace { base_rtt: self.rtt_min(), srtt: self.srtt }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["copa_mode", "copa_delta", "copa_velocity", "rtt_standing_s"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(if self.mode.competitive() { 1.0 } else { 0.0 });
        out.push(self.mode.delta());
        out.push(self.velocity.get());
        out.push(self.standing.get().map_or(f64::NAN, secs));
    }
}
