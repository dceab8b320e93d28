//! CCaFR (P003): congestion control after fast recovery, the part EMFAST adds to MFAST (= FAST).
//!
//! From the end of fast recovery until the freed bandwidth is filled again, the window changes on every
//! ACK instead of once per update period. While the first train of ACKs after recovery drains, it grows
//! additively (+1/cwnd per ACK); from the first gap between ACK trains on, FAST's equation runs on each
//! ACK, capped at twice the window of the current RTT's start (docs/algorithms.md#ccafr-algorithm,
//! #ccafr-gap-flag, #ccafr-2w-cap). The mode ends when ACKs arrive back to back for a whole window with a
//! steady RTT (the link is full again), or at a
//! safety exit: the pre-loss window is regained, 30 RTTs pass, or a new loss or timeout
//! (docs/algorithms.md#ccafr-exit). The paper's equality tests are made operational with the tolerances of
//! docs/algorithms.md#ccafr-ipd-tests.

use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::{secs, Time};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "ipd_tolerance",
        kind: ParamKind::Float { min: 0.0, max: 10.0, min_exclusive: false },
        default: ParamDefault::Num(0.05),
        description: "an inter-ACK delay within (1 + this) of the smallest one seen counts as 'consistent'",
        source: "docs/algorithms.md#ccafr-ipd-tests (epsilon = 0.05)",
    },
    ParamSpec {
        name: "gap_factor",
        kind: ParamKind::Float { min: 1.0, max: 1000.0, min_exclusive: true },
        default: ParamDefault::Num(2.0),
        description: "an inter-ACK delay above this multiple of the smallest one is a gap between ACK trains",
        source: "docs/algorithms.md#ccafr-ipd-tests (g = 2: at least one service time of idle link)",
    },
    ParamSpec {
        name: "rtt_tolerance_abs",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(0.001),
        description: "an RTT within max(this, rtt_tolerance_rel * avgRTT) of avgRTT counts as 'consistent', seconds",
        source: "docs/algorithms.md#ccafr-ipd-tests (1 ms)",
    },
    ParamSpec {
        name: "rtt_tolerance_rel",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: false },
        default: ParamDefault::Num(0.02),
        description: "relative RTT tolerance of the exit test",
        source: "docs/algorithms.md#ccafr-ipd-tests (2 %)",
    },
    ParamSpec {
        name: "afr_max_rtts",
        kind: ParamKind::Float { min: 1.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(30.0),
        description: "safety exit: leave the after-recovery mode after this many RTTs",
        source: "docs/algorithms.md#ccafr-exit",
    },
    ParamSpec {
        name: "gap_rule",
        kind: ParamKind::Choice(&["first-gap", "literal"]),
        default: ParamDefault::Str("first-gap"),
        description: "when per-ACK FAST starts: at the first gap between ACK trains (the paper's prose), or as soon as one IPD is consistent (Algorithm 1 line 11 read literally)",
        source: "docs/algorithms.md#ccafr-gap-flag: the prose, supported by the paper's line-by-line explanation",
    },
];

/// What CCaFR needs from FAST for one ACK.
pub struct AfrInput {
    pub now: Time,
    pub rtt: Option<f64>,
    pub base: Option<f64>,
    pub avg: Option<f64>,
    pub old_pif: f64,
    pub cwnd: f64,
    pub alpha: f64,
    pub gamma: f64,
    pub round_started: bool,
}

#[derive(Clone, Debug)]
pub struct Ccafr {
    ipd_tol: f64,
    gap_factor: f64,
    rtt_abs: f64,
    rtt_rel: f64,
    max_rtts: f64,
    literal: bool,
    active: bool,
    gapflag: bool,
    last_ack: Option<Time>,
    min_ipd: Option<Time>,
    /// Consecutive new ACKs with a consistent IPD.
    streak: u64,
    entered_at: Time,
    pre_loss_cwnd: f64,
    round_start_cwnd: f64,
    /// After-recovery episodes entered (for traces and tests).
    pub episodes: u64,
}

impl Ccafr {
    pub fn new(p: &Params) -> Self {
        Ccafr {
            ipd_tol: p.num("ipd_tolerance"),
            gap_factor: p.num("gap_factor"),
            rtt_abs: p.num("rtt_tolerance_abs"),
            rtt_rel: p.num("rtt_tolerance_rel"),
            max_rtts: p.num("afr_max_rtts"),
            literal: p.choice("gap_rule") == "literal",
            active: false,
            gapflag: false,
            last_ack: None,
            min_ipd: None,
            streak: 0,
            entered_at: 0,
            pre_loss_cwnd: 0.0,
            round_start_cwnd: 0.0,
            episodes: 0,
        }
    }

    pub fn active(&self) -> bool {
        self.active
    }

    pub fn gapflag(&self) -> bool {
        self.gapflag
    }

    /// Fast retransmit: remember the window before the cut; any episode in progress ends.
    pub fn on_loss(&mut self, pre_loss_cwnd: f64) {
        self.pre_loss_cwnd = pre_loss_cwnd;
        self.active = false;
    }

    pub fn on_timeout(&mut self) {
        self.active = false;
    }

    /// The full ACK ended fast recovery (docs/algorithms.md#ccafr-entry): enter the after-recovery mode.
    pub fn on_recovery_exit(&mut self, now: Time, cwnd: f64) {
        self.active = true;
        self.gapflag = false;
        self.streak = 0;
        self.entered_at = now;
        self.round_start_cwnd = cwnd;
        self.episodes += 1;
    }

    /// Called on every new ACK outside recovery. Returns the new window while the mode is active.
    pub fn on_ack(&mut self, a: &AfrInput) -> Option<f64> {
        let ipd = self.last_ack.map(|t| a.now.saturating_sub(t));
        self.last_ack = Some(a.now);
        if let Some(i) = ipd.filter(|i| *i > 0) {
            self.min_ipd = Some(self.min_ipd.map_or(i, |m| m.min(i)));
        }
        if !self.active {
            return None;
        }
        if a.round_started {
            self.round_start_cwnd = a.cwnd;
        }
        let (Some(ipd), Some(min_ipd)) = (ipd, self.min_ipd) else { return Some(a.cwnd) };
        let consistent = ipd as f64 <= (1.0 + self.ipd_tol) * min_ipd as f64;
        self.streak = if consistent { self.streak + 1 } else { 0 };
        let rtt_steady = match (a.rtt, a.avg) {
            (Some(r), Some(avg)) => (r - avg).abs() <= self.rtt_abs.max(self.rtt_rel * avg),
            _ => false,
        };
        let link_full = self.streak as f64 >= a.cwnd && rtt_steady;
        let too_long = a.avg.is_some_and(|avg| secs(a.now - self.entered_at) > self.max_rtts * avg);
        if link_full || a.cwnd >= self.pre_loss_cwnd || too_long {
            self.active = false;
            self.gapflag = false;
            return None;
        }
        let gap = ipd as f64 > self.gap_factor * min_ipd as f64;
        if (!self.literal && gap) || (self.literal && consistent) {
            self.gapflag = true;
        }
        let w = a.cwnd;
        let next = match (self.gapflag, a.base, a.avg) {
            (true, Some(base), Some(avg)) => {
                let target = (1.0 - a.gamma) * w + a.gamma * (base / avg * a.old_pif + a.alpha);
                target.min(2.0 * self.round_start_cwnd).max(2.0)
            }
            _ => w + 1.0 / w,
        };
        Some(next)
    }
}
