//! TCP Vegas (Brakmo & Peterson) in two flavours.
//!
//! `flavour = "ns2"` (the default) computes what ns-2.35's `Agent/TCP/Vegas` computes (`tcp/tcp-vegas.cc`,
//! with the `TcpAgent` defaults of `tcl/lib/ns-default.tcl`); every rule below names its lines there.
//! Once per round (tagged by sequence number, `v_begseq_`), with the round's mean RTT:
//!
//! ```text
//! delta = int((expect − actual)·baseRTT + 0.5)
//! expect = (t_seqno_ − last_ack_)/baseRTT,   actual = (packets sent during the round)/RTT
//! ```
//!
//! an integer compared with the integer thresholds v_alpha_/v_beta_/v_gamma_. Congestion avoidance sets a
//! per-ACK increment `v_incr_` (1/cwnd below alpha, 0 otherwise, and one packet off above beta); slow start
//! grows one packet per ACK every other round and ends when delta exceeds gamma; fast retransmit keeps
//! `win − win/4` of the integer window; a timeout restarts from 2 packets. Recovery has no NewReno
//! partial-ACK rule (`newreno_recovery()` is false). Not modelled, because it is a transport rule: ns-2's
//! fine-grained early retransmit (`vegas_expire()` against `v_timeout_` on duplicate ACKs and on the two
//! new ACKs after one, `v_worried_`, lines 337-402); this controller keeps `v_timeout_` up to date for it.
//!
//! `flavour = "linux"` follows Linux `net/ipv4/tcp_vegas.c` (the current mainline form): the round's minimum
//! RTT (µs + 1), diff = cwnd·(RTT − baseRTT)/baseRTT in integer packets, Reno behaviour for a round with
//! fewer than three samples, slow start exit at diff > gamma to min(cwnd, target + 1), ±1 per round in
//! congestion avoidance, Reno's ssthresh on loss. Its defaults are Linux's (alpha 2, beta 4, gamma 1):
//! `resolve_flavour_defaults` fills them in for parameters a scenario leaves unset.

mod linux;
mod ns2;
#[cfg(test)]
mod tests;

pub use linux::LinuxVegas;
pub use ns2::Ns2Vegas;

use super::{CongestionControl, FlowContext};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "flavour",
        kind: ParamKind::Choice(&["ns2", "linux"]),
        default: ParamDefault::Str("ns2"),
        description: "whose Vegas: ns-2.35's Agent/TCP/Vegas (mean RTT per round, integer delta, safe slow \
                      start, 3/4 on fast retransmit) or Linux's tcp_vegas (minimum RTT per round, Reno on loss); \
                      with linux, unset alpha, beta, rtt_statistic and loss_reduction take Linux's values",
        source: "ns-2.35 tcp/tcp-vegas.cc (the seed papers' simulator) by default; Linux net/ipv4/tcp_vegas.c \
                 as the option",
    },
    ParamSpec {
        name: "alpha",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(1.0),
        description: "lower bound on the flow's queued packets: below it the window grows by one per RTT \
                      (ns2 compares its integer delta: delta < alpha)",
        source: "ns-2.35 ns-default.tcl `Agent/TCP/Vegas set v_alpha_ 1` (also Brakmo & Peterson); \
                 flavour = linux: 2, tcp_vegas.c `alpha = 2`",
    },
    ParamSpec {
        name: "beta",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(3.0),
        description: "upper bound on the flow's queued packets: above it the window shrinks by one per RTT \
                      (ns2: delta > beta)",
        source: "ns-2.35 ns-default.tcl `Agent/TCP/Vegas set v_beta_ 3`; flavour = linux: 4, tcp_vegas.c \
                 `beta = 4`",
    },
    ParamSpec {
        name: "gamma",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(1.0),
        description: "slow start ends when the queued-packet estimate exceeds gamma",
        source: "ns-2.35 ns-default.tcl `Agent/TCP/Vegas set v_gamma_ 1`; Linux tcp_vegas.c `gamma = 1` too",
    },
    ParamSpec {
        name: "rtt_statistic",
        kind: ParamKind::Choice(&["min", "mean"]),
        default: ParamDefault::Str("mean"),
        description: "which RTT of the round the decision uses: the mean of its samples or their minimum \
                      (an override of the flavour's own choice when set)",
        source: "ns-2.35 tcp-vegas.cc recv() line 212: rtt = v_sumRTT_/v_cntRTT_ (the mean); flavour = \
                 linux: min, tcp_vegas.c `rtt = vegas->minRTT`",
    },
    ParamSpec {
        name: "loss_reduction",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.75),
        description: "fraction of the window kept on fast retransmit; ns2 keeps win − floor(win·(1 − r)) of \
                      the integer window (win ≤ 3 gives 2, a lost retransmission halves), linux sets \
                      ssthresh = cwnd = max(floor(cwnd·r), 2)",
        source: "ns-2.35 tcp-vegas.cc recv() line 385: win -= (win>>2), i.e. 3/4 (also P004 §II); flavour = \
                 linux: 0.5, tcp_reno_ssthresh max(cwnd >> 1, 2)",
    },
];

/// Linux's values of the parameters whose ns-2 default differs (tcp_vegas.c module parameters, the
/// minimum RTT, tcp_reno_ssthresh).
pub const LINUX_DEFAULTS: &[(&str, ParamDefault)] = &[
    ("alpha", ParamDefault::Num(2.0)),
    ("beta", ParamDefault::Num(4.0)),
    ("gamma", ParamDefault::Num(1.0)),
    ("rtt_statistic", ParamDefault::Str("min")),
    ("loss_reduction", ParamDefault::Num(0.5)),
];

/// The default of parameter `name` under `flavour` (None: not a Vegas parameter).
pub fn flavour_default(flavour: &str, name: &str) -> Option<ParamDefault> {
    if flavour == "linux" {
        if let Some((_, d)) = LINUX_DEFAULTS.iter().find(|(n, _)| *n == name) {
            return Some(*d);
        }
    }
    PARAMS.iter().find(|s| s.name == name).map(|s| s.default)
}

/// With `flavour = "linux"`, gives the parameters the scenario did not set (`given` says which it did)
/// Linux's values, so the resolved parameters say what runs.
pub fn resolve_flavour_defaults(p: &mut Params, given: &dyn Fn(&str) -> bool) {
    if p.choice("flavour") != "linux" {
        return;
    }
    for (name, d) in LINUX_DEFAULTS {
        if !given(name) {
            p.set(name, d.value());
        }
    }
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    match p.choice("flavour") {
        "linux" => Box::new(LinuxVegas::new(p, ctx)),
        _ => Box::new(Ns2Vegas::new(p, ctx)),
    }
}
