//! Copa's parameters, each with its default and where the default comes from. "Paper" is Arun and
//! Balakrishnan, NSDI 2018 (docs/papers.md); "mvfst" is the authors' later implementation in Facebook's
//! QUIC stack (quic/congestion_control/Copa.cpp), read where the paper is silent.

use crate::model::params::{ParamDefault, ParamKind, ParamSpec};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "delta",
        kind: ParamKind::Float { min: 0.004, max: 10.0, min_exclusive: false },
        default: ParamDefault::Num(0.5),
        description: "delta of the default mode: target rate 1/(delta x queueing delay), so about 1/delta packets stay queued",
        source: "paper §2 and §4 (default-mode delta = 0.5); mvfst's default 0.05 is a deployment choice for video",
    },
    ParamSpec {
        name: "min_rtt_window",
        kind: ParamKind::Duration { min: 0.001, max: 3600.0 },
        default: ParamDefault::Num(10.0),
        description: "RTTmin is the smallest RTT of this window, seconds",
        source: "paper §2.1 (RTTmin over 10 s); mvfst kMinRTTWindowLength = 10 s",
    },
    ParamSpec {
        name: "standing_fraction",
        kind: ParamKind::Float { min: 0.0, max: 10.0, min_exclusive: true },
        default: ParamDefault::Num(0.5),
        description: "RTTstanding is the smallest RTT of the last standing_fraction x srtt",
        source: "paper §2.1 (window srtt/2); mvfst standingRTTFilter_ with srtt/2",
    },
    ParamSpec {
        name: "srtt_gain",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.125),
        description: "weight of a new RTT sample in srtt (srtt sets RTTstanding's window and Copa's RTT clock)",
        source: "paper §2.1 names the standard TCP srtt: RFC 6298 §2 alpha = 1/8",
    },
    ParamSpec {
        name: "velocity_rounds",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: ParamDefault::Num(3.0),
        description: "the velocity doubles once per RTT only after the window moved the same way for this many RTTs",
        source: "paper §2.1 (three RTTs); mvfst velocityDirectionThreshold = 3",
    },
    ParamSpec {
        name: "pacing_gain",
        kind: ParamKind::Float { min: 0.0, max: 100.0, min_exclusive: true },
        default: ParamDefault::Num(2.0),
        description: "pacing rate = pacing_gain x cwnd / RTTstanding",
        source: "paper §2.1 (2·cwnd/RTTstanding); mvfst paces 2·cwnd per srtt",
    },
    ParamSpec {
        name: "min_cwnd",
        kind: ParamKind::Float { min: 1.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(2.0),
        description: "the window never shrinks below this, and a timeout sets it to this, packets",
        source: "mvfst kMinCwndInMss = 2 (the paper gives no floor)",
    },
    ParamSpec {
        name: "competitive",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "switch to the competitive mode (AIMD on 1/delta) when the queue stops emptying; false keeps delta fixed, as mvfst does",
        source: "paper §4 (mode switching); mvfst has no competitive mode",
    },
    ParamSpec {
        name: "empty_fraction",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.1),
        description: "the queue counts as nearly empty when RTTstanding - RTTmin < empty_fraction x (RTTmax - RTTmin)",
        source: "paper §4 (10 % of the recent maximum queueing delay); genericCC RTTWindow::is_copa",
    },
    ParamSpec {
        name: "empty_every_rtts",
        kind: ParamKind::Float { min: 0.5, max: 1000.0, min_exclusive: false },
        default: ParamDefault::Num(5.0),
        description: "competitive mode when the queue was not nearly empty once in this many srtt",
        source: "paper §4 (at least once every 5 RTTs)",
    },
    ParamSpec {
        name: "max_window_rtts",
        kind: ParamKind::Float { min: 0.5, max: 1000.0, min_exclusive: false },
        default: ParamDefault::Num(4.0),
        description: "RTTmax, the reference for nearly empty, is the largest RTT of this many srtt",
        source: "paper §4 (maximum over the last four RTTs); genericCC is_copa_max over 4·srtt",
    },
];
