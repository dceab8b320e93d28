//! Swift (Kumar et al., SIGCOMM 2020, Algorithm 1 and §3), written from the paper's description.
//!
//! Swift keeps the RTT of each ACK near a target delay: base_target, plus a flow-scaling term that
//! grows as the window shrinks (so many small flows sharing a link together keep a larger queue and
//! still converge fairly), plus a per-hop term for longer paths. Below the target the window grows by
//! `ai` packets per RTT; above it, at most once per RTT, it shrinks by β·(delay − target)/delay, never
//! by more than `max_mdf`. The window may fall below one packet, down to `min_cwnd`: one packet is then
//! in flight and the sender paces it, one every RTT/cwnd (the transport sends a packet whenever its
//! window is below one, so pacing alone realises the fraction). A fast retransmit cuts by `max_mdf`;
//! timeouts cut by `max_mdf`, and after `retx_reset_threshold` in a row reset the window to `min_cwnd`.
//! The simulator has no end-host delay, so the RTT is all fabric delay and one window suffices (the
//! paper's endpoint window would never bind).

use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::{from_secs, secs, Time};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "base_target",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(20e-6),
        description: "target delay of a one-hop path with a large window (before flow and hop scaling), seconds",
        source: "htsim swift.cpp (_base_delay 20 us); docs/algorithms.md#swift-defaults",
    },
    ParamSpec {
        name: "hop_scale",
        kind: ParamKind::Duration { min: 0.0, max: 1.0 },
        default: ParamDefault::Num(3.05e-6),
        description: "target delay added per hop of the path, seconds",
        source: "htsim swift.cpp (_h = base_delay / 6.55 = 3.05 us); Swift §3 defines the term, docs/algorithms.md#swift-defaults",
    },
    ParamSpec {
        name: "hops",
        kind: ParamKind::Int { min: 0, max: 1000 },
        default: ParamDefault::Num(0.0),
        description: "hop count of the path for hop scaling; 0 takes the links of the flow's forward path",
        source: "our choice: the simulator knows the route; Swift reads the hop count from the TTL (§3; docs/algorithms.md#swift-hop-count)",
    },
    ParamSpec {
        name: "fs_range",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(100e-6),
        description: "largest flow-scaling addition to the target (at cwnd <= fs_min_cwnd), seconds",
        source: "htsim swift.cpp (_fs_range = 5 x base_delay); Swift §3 defines the term",
    },
    ParamSpec {
        name: "fs_min_cwnd",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: true },
        default: ParamDefault::Num(0.1),
        description: "window at and below which flow scaling adds all of fs_range, packets",
        source: "htsim swift.cpp (_fs_min_cwnd 0.1); Swift §3",
    },
    ParamSpec {
        name: "fs_max_cwnd",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: true },
        default: ParamDefault::Num(100.0),
        description: "window at and above which flow scaling adds nothing, packets",
        source: "htsim swift.cpp (_fs_max_cwnd 100); Swift §3",
    },
    ParamSpec {
        name: "ai",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: true },
        default: ParamDefault::Num(1.0),
        description: "additive increase, packets per RTT",
        source: "htsim swift.cpp (_ai 1.0); Swift Algorithm 1 (ai)",
    },
    ParamSpec {
        name: "beta",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.8),
        description: "multiplicative decrease: the window shrinks by beta x (delay - target)/delay",
        source: "htsim swift.cpp (_beta 0.8); Swift Algorithm 1 (beta)",
    },
    ParamSpec {
        name: "max_mdf",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.5),
        description: "largest fraction one decrease removes, and the cut of a fast retransmit or a timeout",
        source: "htsim swift.cpp (_max_mdf 0.5); Swift Algorithm 1 (max_mdf)",
    },
    ParamSpec {
        name: "retx_reset_threshold",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: ParamDefault::Num(5.0),
        description: "timeouts in a row after which the window drops to min_cwnd",
        source: "htsim swift.cpp (_rtx_reset_threshold 5); Swift Algorithm 1 (RETX_RESET_THRESHOLD)",
    },
    ParamSpec {
        name: "min_cwnd",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: true },
        default: ParamDefault::Num(0.001),
        description: "smallest window, packets (below one packet the sender paces one packet per RTT/cwnd)",
        source: "Swift §3 (windows down to 0.001 packets, realised by pacing)",
    },
    ParamSpec {
        name: "max_cwnd",
        kind: ParamKind::Float { min: 0.0, max: 1e9, min_exclusive: true },
        default: ParamDefault::Num(1000.0),
        description: "largest window, packets",
        source: "htsim swift.cpp (_max_cwnd = 1000 packets); docs/algorithms.md#swift-defaults",
    },
];

/// Weight of a new sample in the smoothed RTT that paces and spaces decreases (RFC 6298's 1/8).
const SRTT_GAIN: f64 = 0.125;

pub struct Swift {
    base_target: f64,
    hop_delay: f64,
    fs_range: f64,
    /// Flow scaling as fs_alpha/√cwnd + fs_beta, clamped to [0, fs_range] (Swift §3).
    fs_alpha: f64,
    fs_beta: f64,
    ai: f64,
    beta: f64,
    max_mdf: f64,
    retx_reset_threshold: u32,
    min_cwnd: f64,
    max_cwnd: f64,
    packet_bits: f64,

    cwnd: f64,
    retransmit_cnt: u32,
    last_decrease: Option<Time>,
    /// Smoothed RTT, seconds: Algorithm 1's "rtt" for the once-per-RTT rule and the pacing interval.
    srtt: Option<f64>,
    min_rtt: Option<Time>,
    last_delay: Option<Time>,
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Swift::new(p, ctx))
}

impl Swift {
    pub fn new(p: &Params, ctx: &FlowContext) -> Swift {
        let hops = match p.num("hops") as u32 {
            0 => ctx.hops,
            h => h,
        };
        let fs_range = p.num("fs_range");
        let (lo, hi) = (p.num("fs_min_cwnd"), p.num("fs_max_cwnd"));
        let span = 1.0 / lo.sqrt() - 1.0 / hi.sqrt();
        // fs_min_cwnd >= fs_max_cwnd leaves no range to scale over: no flow scaling.
        let fs_alpha = if span > 0.0 { fs_range / span } else { 0.0 };
        let (min_cwnd, max_cwnd) = (p.num("min_cwnd"), p.num("max_cwnd").max(p.num("min_cwnd")));
        Swift {
            base_target: p.num("base_target"),
            hop_delay: hops as f64 * p.num("hop_scale"),
            fs_range,
            fs_alpha,
            fs_beta: -fs_alpha / hi.sqrt(),
            ai: p.num("ai"),
            beta: p.num("beta"),
            max_mdf: p.num("max_mdf"),
            retx_reset_threshold: p.num("retx_reset_threshold") as u32,
            min_cwnd,
            max_cwnd,
            packet_bits: ctx.packet_bytes as f64 * 8.0,
            cwnd: ctx.initial_window.clamp(min_cwnd, max_cwnd),
            retransmit_cnt: 0,
            last_decrease: None,
            srtt: None,
            min_rtt: None,
            last_delay: None,
        }
    }

    /// The target delay at the current window, seconds.
    pub fn target_delay(&self) -> f64 {
        let fs = (self.fs_alpha / self.cwnd.sqrt() + self.fs_beta).clamp(0.0, self.fs_range);
        self.base_target + fs + self.hop_delay
    }

    /// At most one decrease per RTT: none yet, or the last one is an RTT old (before any RTT sample,
    /// any decrease may go ahead).
    fn can_decrease(&self, now: Time) -> bool {
        match (self.last_decrease, self.srtt) {
            (Some(t), Some(rtt)) => secs(now.saturating_sub(t)) >= rtt,
            _ => true,
        }
    }

    /// Clamps the window and stamps a decrease (the end of Algorithm 1's handlers).
    fn settle(&mut self, now: Time, prev: f64) {
        self.cwnd = self.cwnd.clamp(self.min_cwnd, self.max_cwnd);
        if self.cwnd < prev {
            self.last_decrease = Some(now);
        }
    }

    /// Time between two packets when the window is below one packet: RTT/cwnd.
    pub fn pacing_interval(&self) -> Option<f64> {
        let rtt = self.srtt?;
        (self.cwnd < 1.0).then(|| rtt / self.cwnd)
    }
}

impl CongestionControl for Swift {
    fn window(&self) -> f64 {
        self.cwnd
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        let prev = self.cwnd;
        self.retransmit_cnt = 0;
        let Some(rtt) = ack.rtt else { return };
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        self.last_delay = Some(rtt);
        let delay = secs(rtt);
        // The once-per-RTT test reads the RTT before this sample, as Algorithm 1 computes can_decrease
        // first.
        let can_decrease = self.can_decrease(ack.now);
        self.srtt = Some(self.srtt.map_or(delay, |s| s + SRTT_GAIN * (delay - s)));
        let target = self.target_delay();
        if delay < target {
            let acked = ack.acked as f64;
            if self.cwnd >= 1.0 {
                self.cwnd += self.ai / self.cwnd * acked;
            } else {
                self.cwnd += self.ai * acked;
            }
        } else if can_decrease && delay > 0.0 {
            self.cwnd *= (1.0 - self.beta * (delay - target) / delay).max(1.0 - self.max_mdf);
        }
        self.settle(ack.now, prev);
    }

    fn on_loss(&mut self, loss: &LossEvent) {
        let prev = self.cwnd;
        self.retransmit_cnt = 0;
        if self.can_decrease(loss.now) {
            self.cwnd *= 1.0 - self.max_mdf;
        }
        self.settle(loss.now, prev);
    }

    /// Swift's window is delay-adjusted throughout recovery; leaving it changes nothing.
    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {}

    fn on_timeout(&mut self, now: Time, _inflight: u64) {
        let prev = self.cwnd;
        self.retransmit_cnt = self.retransmit_cnt.saturating_add(1);
        if self.retransmit_cnt >= self.retx_reset_threshold {
            self.cwnd = self.min_cwnd;
        } else if self.can_decrease(now) {
            self.cwnd *= 1.0 - self.max_mdf;
        }
        self.settle(now, prev);
    }

    /// Below one packet: one packet per RTT/cwnd, as a rate of packets on the wire. At or above one
    /// packet the window alone clocks the flow.
    fn pacing_rate(&self) -> Option<f64> {
        self.pacing_interval().map(|gap| self.packet_bits / gap)
    }

    fn paces(&self) -> bool {
        true
    }

    fn trace(&self) -> CcTrace {
        CcTrace { base_rtt: self.min_rtt, srtt: self.srtt.map(from_secs) }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["target_delay_s", "pacing_interval_s"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.target_delay());
        out.push(self.pacing_interval().unwrap_or(0.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{algorithm, ParamValue};

    const US: Time = 1_000;

    fn swift(cwnd: f64, hops: u32) -> Swift {
        let p = algorithm("swift").expect("registered").defaults();
        Swift::new(&p, &FlowContext { hops, ..FlowContext::new(cwnd) })
    }

    fn ack(s: &mut Swift, now: Time, rtt: Time, acked: u64) {
        s.on_ack(&AckEvent {
            now,
            rtt: Some(rtt),
            acked,
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
        (a - b).abs() <= 1e-9 * b.abs().max(1e-6)
    }

    #[test]
    fn the_target_adds_flow_scaling_by_window_and_hop_scaling_by_path() {
        // fs = 100 µs · (1/√cwnd − 1/√100)/(1/√0.1 − 1/√100), clamped to [0, 100 µs]; 3.05 µs per hop.
        let span = 1.0 / 0.1f64.sqrt() - 0.1;
        for (cwnd, fs) in
            [(100.0, 0.0), (400.0, 0.0), (0.1, 100e-6), (0.01, 100e-6), (1.0, 100e-6 * 0.9 / span)]
        {
            let s = swift(cwnd, 3);
            assert!(close(s.target_delay(), 20e-6 + fs + 3.0 * 3.05e-6), "cwnd {cwnd}: {}", s.target_delay());
        }
        // cwnd 25: 1/5 − 1/10 = 0.1 of the span.
        assert!(close(swift(25.0, 1).target_delay(), 20e-6 + 100e-6 * 0.1 / span + 3.05e-6));
        // The `hops` parameter overrides the route's length.
        let mut p = algorithm("swift").expect("registered").defaults();
        p.set("hops", ParamValue::Num(6.0));
        let s = Swift::new(&p, &FlowContext { hops: 3, ..FlowContext::new(200.0) });
        assert!(close(s.target_delay(), 20e-6 + 6.0 * 3.05e-6));
    }

    #[test]
    fn additive_increase_is_ai_over_cwnd_per_ack_above_one_packet_and_ai_per_ack_below() {
        let mut s = swift(10.0, 1);
        ack(&mut s, 0, 10 * US, 1);
        assert!(close(s.window(), 10.1));
        ack(&mut s, 1, 10 * US, 2);
        assert!(close(s.window(), 10.1 + 2.0 / 10.1));
        let mut s = swift(0.5, 1);
        ack(&mut s, 0, 10 * US, 1);
        assert!(close(s.window(), 1.5), "ai per ACK below one packet: {}", s.window());
    }

    #[test]
    fn multiplicative_decrease_is_proportional_capped_and_once_per_rtt() {
        // cwnd 200, one hop: target 23.05 µs. A 30 µs delay: × (1 − 0.8·6.95/30).
        let mut s = swift(200.0, 1);
        ack(&mut s, 1_000 * US, 30 * US, 1);
        let w1 = 200.0 * (1.0 - 0.8 * (30e-6 - 23.05e-6) / 30e-6);
        assert!(close(s.window(), w1), "{}", s.window());
        // Within an RTT (srtt 30 µs) of that decrease: no further decrease, and no increase either.
        ack(&mut s, 1_029 * US, 300 * US, 1);
        assert_eq!(s.window(), w1);
        // After the RTT (srtt is now 63.75 µs): a 300 µs delay would cut by 0.8·(1 − 23.05/300) = 74 %,
        // capped at max_mdf = 50 %.
        ack(&mut s, 1_100 * US, 300 * US, 1);
        assert!(close(s.window(), w1 * 0.5), "{}", s.window());
    }

    #[test]
    fn below_one_packet_the_window_is_paced_at_rtt_over_cwnd() {
        let mut s = swift(0.25, 1);
        assert_eq!(s.pacing_rate(), None, "no RTT yet");
        // A delay far above the target (85.09 µs at cwnd 0.25) halves the window (max_mdf).
        ack(&mut s, 1_000 * US, 400 * US, 1);
        assert!(close(s.window(), 0.125));
        assert!(close(s.pacing_interval().expect("paced"), 400e-6 / 0.125));
        // 8000-bit packets every 3.2 ms: 2.5 Mb/s, whose gap (packet bits over rate) is that interval.
        let rate = s.pacing_rate().expect("paced");
        assert!(close(rate, 2.5e6));
        assert!(close(8000.0 / rate, 3.2e-3));
        // Back at one packet or more the window alone clocks the flow.
        let s = swift(1.0, 1);
        assert_eq!(s.pacing_interval(), None);
    }

    #[test]
    fn losses_cut_by_max_mdf_and_repeated_timeouts_reset_to_min_cwnd() {
        let mut s = swift(100.0, 1);
        s.on_loss(&LossEvent { now: 0, inflight: 100, lost_was_retransmit: false });
        assert_eq!(s.window(), 50.0);
        ack(&mut s, 10 * US, 10 * US, 1);
        // Timeouts: the first cuts (an RTT after the loss's decrease), those within an RTT do not, the
        // fifth in a row resets.
        s.on_timeout(1_000 * US, 50);
        let w = s.window();
        assert!(close(w, (50.0 + 1.0 / 50.0) * 0.5));
        for i in 0..3 {
            s.on_timeout(1_000 * US + i, 50);
            assert_eq!(s.window(), w);
        }
        s.on_timeout(1_010 * US, 50);
        assert_eq!(s.window(), 0.001);
    }
}
