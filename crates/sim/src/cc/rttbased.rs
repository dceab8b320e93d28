//! RTT-based TCP (P001), as docs/algorithms.md#rttbased-cycle restates it with its fixes
//! (docs/algorithms.md#rttbased).
//!
//! A monitor packet per control cycle measures the flow's own service rate μ and its virtual queue
//! occupancy VQO = (RTT_monitor − baseRTT)·μ. In the INCREMENT phase the per-cycle increase starts at one
//! packet and doubles each cycle (+1, +2, +4 ...), and any ACK whose RTT exceeds RTT_Threshold =
//! baseRTT + α/μ rolls the window back to its value at the cycle start. When VQO > α the DECREMENT phase
//! removes ⌈K·(VQO − α)⌉ packets over the next cycle (K = 0.25). Loss recovery is NewReno's.

use super::reno::halve;
use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::{secs, Time};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "alpha",
        kind: ParamKind::Float { min: 0.0, max: 1e9, min_exclusive: true },
        default: ParamDefault::Num(2.0),
        description: "target virtual queue occupancy (the flow's own packets queued), packets",
        source: "docs/algorithms.md#rttbased-alpha: P001 gives no value; 2 is the midpoint of Vegas's [1, 3]",
    },
    ParamSpec {
        name: "k",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.25),
        description: "fraction of the excess VQO removed per cycle",
        source: "P001 eq. (6); K <= 1/4 never over-reduces (docs/algorithms.md#rttbased-k)",
    },
    ParamSpec {
        name: "stable_band",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(0.5),
        description: "|VQO - alpha| within this band counts as 'VQO = alpha' (STABLE), packets",
        source: "docs/algorithms.md#rttbased-stable-band (epsilon = 0.5 segment)",
    },
    ParamSpec {
        name: "min_window",
        kind: ParamKind::Float { min: 1.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(2.0),
        description: "the DECREMENT phase never takes the window below this, packets",
        source: "docs/algorithms.md#rttbased-decrement-count, #rttbased-initial-window (W_MIN = 2)",
    },
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Increment,
    Decrement,
    Stable,
}

#[derive(Clone, Copy, Debug)]
struct Monitor {
    seq: u64,
    sent: Time,
    acked_at_send: u64,
}

pub struct RttBased {
    alpha: f64,
    k: f64,
    band: f64,
    w_min: f64,
    cwnd: f64,
    ssthresh: f64,
    pub phase: Phase,
    /// Increase allowance (INCREMENT) or reduction budget (DECREMENT).
    offset: f64,
    bound: f64,
    decrements_done: u64,
    previous_window: f64,
    threshold: f64,
    base_rtt: Option<f64>,
    monitor: Option<Monitor>,
    /// Cumulative ACK point (segments acknowledged so far).
    acked_total: u64,
    in_recovery: bool,
    pub vqo: f64,
    pub mu: f64,
    /// Control cycles completed (monitor ACKs processed).
    pub cycles: u64,
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(RttBased::new(p, ctx))
}

impl RttBased {
    pub fn new(p: &Params, ctx: &FlowContext) -> RttBased {
        RttBased {
            alpha: p.num("alpha"),
            k: p.num("k"),
            band: p.num("stable_band"),
            w_min: p.num("min_window"),
            cwnd: ctx.initial_window,
            ssthresh: f64::INFINITY,
            phase: Phase::Increment,
            offset: 1.0,
            bound: 0.0,
            decrements_done: 0,
            previous_window: ctx.initial_window,
            threshold: f64::INFINITY,
            base_rtt: None,
            monitor: None,
            acked_total: 0,
            in_recovery: false,
            vqo: 0.0,
            mu: 0.0,
            cycles: 0,
        }
    }

    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// Part II: the monitor's ACK ends the cycle.
    fn end_of_cycle(&mut self, now: Time, m: Monitor) {
        let Some(base) = self.base_rtt else { return };
        let t = secs(now.saturating_sub(m.sent));
        if t <= 0.0 {
            return;
        }
        let d = (t - base).max(0.0);
        self.mu = (self.acked_total - m.acked_at_send) as f64 / t;
        self.vqo = d * self.mu;
        self.threshold = if self.mu > 0.0 { base + self.alpha / self.mu } else { f64::INFINITY };
        self.cycles += 1;
        self.bound = 0.0;
        self.decrements_done = 0;
        self.previous_window = self.cwnd;
        if self.vqo > self.alpha + self.band {
            self.phase = Phase::Decrement;
            self.offset = self.k * (self.vqo - self.alpha);
        } else if self.vqo < self.alpha - self.band {
            if self.phase != Phase::Increment {
                self.phase = Phase::Increment;
                self.offset = 0.0;
            }
        } else {
            self.phase = Phase::Stable;
        }
    }

    /// Part I: per-ACK increase, threshold check, or decrease.
    fn per_ack(&mut self, rtt: Option<f64>) {
        match self.phase {
            Phase::Increment => {
                let below = rtt.is_none_or(|r| r < self.threshold);
                if below && self.offset >= self.bound {
                    self.cwnd += 1.0;
                    self.offset += 1.0;
                    self.bound += 2.0;
                }
                if rtt.is_some_and(|r| r > self.threshold) {
                    self.phase = Phase::Stable;
                    self.cwnd = self.previous_window;
                }
            }
            Phase::Decrement => {
                if (self.decrements_done as f64) < self.offset.ceil() {
                    self.cwnd = (self.cwnd - 1.0).max(self.w_min);
                    self.decrements_done += 1;
                }
            }
            Phase::Stable => {}
        }
    }
}

impl CongestionControl for RttBased {
    fn window(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh(&self) -> f64 {
        self.ssthresh
    }

    fn on_send(&mut self, now: Time, seq: u64, retransmit: bool, _inflight: u64) {
        if retransmit {
            // Karn: a retransmitted monitor measures nothing.
            if self.monitor.is_some_and(|m| m.seq == seq) {
                self.monitor = None;
            }
            return;
        }
        if self.monitor.is_none() && !self.in_recovery {
            self.monitor = Some(Monitor { seq, sent: now, acked_at_send: self.acked_total });
        }
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        self.acked_total = ack.snd_una;
        if let Some(r) = ack.rtt {
            if !ack.in_recovery {
                let r = secs(r);
                self.base_rtt = Some(self.base_rtt.map_or(r, |b| b.min(r)));
            }
        }
        if ack.in_recovery {
            return;
        }
        // Part II before Part I (docs/algorithms.md#rttbased-part-order): the monitor's ACK is the first ACK
        // of the new cycle.
        if let Some(m) = self.monitor {
            if ack.snd_una > m.seq {
                self.monitor = None;
                self.end_of_cycle(ack.now, m);
            }
        }
        self.per_ack(ack.rtt.map(secs));
    }

    fn on_loss(&mut self, loss: &LossEvent) {
        self.ssthresh = halve(self.cwnd, loss.inflight);
        self.cwnd = self.ssthresh;
        self.in_recovery = true;
        self.monitor = None;
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {
        // NewReno's post-recovery window (docs/algorithms.md#rttbased-after-recovery), held STABLE until a
        // fresh monitor measures the path.
        self.in_recovery = false;
        self.cwnd = self.ssthresh;
        self.phase = Phase::Stable;
        self.threshold = f64::INFINITY;
        self.monitor = None;
    }

    fn on_timeout(&mut self, _now: Time, inflight: u64) {
        self.ssthresh = halve(self.cwnd, inflight);
        self.cwnd = 1.0;
        self.in_recovery = false;
        self.phase = Phase::Increment;
        self.offset = 1.0;
        self.bound = 0.0;
        self.previous_window = 1.0;
        self.threshold = f64::INFINITY;
        self.monitor = None;
    }

    fn trace(&self) -> CcTrace {
        CcTrace { base_rtt: self.base_rtt.map(crate::time::from_secs), srtt: None }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["vqo_pkts", "rtt_threshold_s", "phase"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.vqo);
        out.push(if self.threshold.is_finite() { self.threshold } else { f64::NAN });
        out.push(match self.phase {
            Phase::Increment => 1.0,
            Phase::Stable => 0.0,
            Phase::Decrement => -1.0,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::algorithm;
    use crate::cc::scripted::ScriptedPath;

    const MS: Time = 1_000_000;

    fn rttbased(iw: f64) -> RttBased {
        let p = algorithm("rttbased").expect("registered").defaults();
        RttBased::new(&p, &FlowContext::new(iw))
    }

    /// Runs the path and returns, for each completed cycle, (cwnd, VQO, phase) right after its Part II.
    fn cycles(path: &mut ScriptedPath<RttBased>, n: usize) -> Vec<(f64, f64, Phase)> {
        let mut out = Vec::new();
        let mut seen = path.cc.cycles;
        while out.len() < n && path.step() {
            let cc = &path.cc;
            if cc.cycles > seen {
                seen = cc.cycles;
                out.push((cc.previous_window, cc.vqo, cc.phase));
            }
        }
        out
    }

    #[test]
    fn starts_like_slow_start_from_one_packet() {
        // Fast path (no queue): growth is ACK-limited doubling, as P001 says for SWND = 1.
        let mut path = ScriptedPath::new(rttbased(1.0), 100 * MS, MS / 100);
        let w: Vec<f64> = cycles(&mut path, 6).iter().map(|c| c.0).collect();
        assert_eq!(w, vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0]);
    }

    #[test]
    fn increment_phase_adds_1_2_4_8_packets_per_cycle() {
        let mut path = ScriptedPath::new(rttbased(20.0), 100 * MS, MS / 100);
        cycles(&mut path, 1);
        // Enter INCREMENT from another phase: the allowance restarts at zero.
        let cc = &mut path.cc;
        cc.phase = Phase::Stable;
        let cs = cycles(&mut path, 6);
        let w: Vec<f64> = cs.iter().map(|c| c.0).collect();
        let steps: Vec<f64> = w.windows(2).map(|p| p[1] - p[0]).collect();
        assert_eq!(steps, vec![1.0, 2.0, 4.0, 8.0, 16.0]);
    }

    #[test]
    fn decrement_removes_a_quarter_of_the_excess_per_cycle() {
        // 100 ms, 1 ms per packet: the path holds 100 packets; a window of 160 queues about 60.
        let mut path = ScriptedPath::new(rttbased(160.0), 100 * MS, MS);
        path.cc.threshold = 0.0; // no increase in the first cycle
        let cs = cycles(&mut path, 4);
        for pair in cs.windows(2) {
            let (w0, vqo, phase) = pair[0];
            let w1 = pair[1].0;
            if phase == Phase::Decrement {
                let expected = (0.25 * (vqo - 2.0)).ceil();
                assert_eq!(w0 - w1, expected, "VQO {vqo:.2}: cut {} instead of {expected}", w0 - w1);
            }
        }
        assert!(cs.iter().filter(|c| c.2 == Phase::Decrement).count() >= 2);
        // K ≤ 1/4 never over-reduces: the window stays above the path's own capacity.
        assert!(cs.iter().all(|c| c.0 >= 100.0));
    }

    #[test]
    fn converges_to_alpha_packets_queued() {
        let mut path = ScriptedPath::new(rttbased(1.0), 50 * MS, MS / 2);
        path.run_until(30_000 * MS);
        let cc = &path.cc;
        // 50 ms at 2000 packets/s is 100 packets in flight; α = 2 more sit in the queue.
        assert!((cc.vqo - 2.0).abs() <= 1.0, "VQO {}", cc.vqo);
        assert!((cc.cwnd - 102.0).abs() <= 2.0, "cwnd {}", cc.cwnd);
    }

    #[test]
    fn an_rtt_above_the_threshold_rolls_back_the_cycles_increase() {
        let mut path = ScriptedPath::new(rttbased(20.0), 100 * MS, MS / 100);
        cycles(&mut path, 2);
        assert_eq!(path.cc.phase, Phase::Increment);
        assert!(path.cc.threshold().is_finite());
        // The route gets longer: ACKs of packets sent from now on come back 200 ms later than before.
        path.base_rtt = 300 * MS;
        let mut before = path.cc.cwnd;
        while path.step() {
            let cc = &path.cc;
            if cc.phase == Phase::Stable {
                assert!(cc.cwnd < before, "the cycle's increases were undone: {before} -> {}", cc.cwnd);
                assert_eq!(cc.cwnd, cc.previous_window, "back to the window at the start of the cycle");
                return;
            }
            before = cc.cwnd;
        }
        panic!("the threshold never fired");
    }
}
