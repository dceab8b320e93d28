//! FAST's parameter table: what a scenario may set, with defaults traced to the ns-2 module the papers ran.
//! Kept apart from the controller so the schema (which `delaycc list algorithms` shows and the kernel's
//! parameter header is generated from) reads in one place.

use crate::model::params::{ParamDefault, ParamKind, ParamSpec};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "alpha",
        kind: ParamKind::Float { min: 0.0, max: 1e9, min_exclusive: true },
        default: ParamDefault::Num(100.0),
        description: "packets the flow aims to keep queued along its path at equilibrium",
        source: "the ns-2 FAST module's default alpha_ 100 (ns-default.tcl); each paper scenario sets the alpha its paper implies",
    },
    ParamSpec {
        name: "beta",
        kind: ParamKind::Float { min: 0.0, max: 1e9, min_exclusive: false },
        default: ParamDefault::Num(0.0),
        description: "top of the module's dead band: no update while alpha <= w_old*(avgRTT-baseRTT)/avgRTT < beta; any beta <= alpha (0 included) means no band",
        source: "ns-2 FAST module fast_calc_cwnd (beta_); its default beta_ 100 equals alpha_ 100, i.e. no band, as FAST is defined in the papers",
    },
    ParamSpec {
        name: "gamma",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.5),
        description: "step size of the window update, in (0, 1]",
        source: "P000 eq. (3) ('recommended 1/2') and the ns-2 module's gamma_ 0.5",
    },
    ParamSpec {
        name: "cadence",
        kind: ParamKind::Choice(&["ns2", "round"]),
        default: ParamDefault::Str("ns2"),
        description: "when the window equation runs: ns2 = the module's (every ACK at least min_update_interval after the last update, in every other timed round, increases paced as whole packets, old_cwnd recorded per packet); round = once per (other) round counted in sequence numbers, the increase spread evenly over the next round's ACKs",
        source: "ns-2 FAST module fast_cc/fast_pace/fast_est (tcp-fast.cc); round is the papers' per-RTT description (P000 eq. 3), delaycc's model before it followed the module",
    },
    ParamSpec {
        name: "update_every_other_rtt",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "run window updates only in every other RTT round (false: in every round)",
        source: "ns-2 module compiled with UPDATE_CWND_EVERY_OTHER_RTT (tcp-fast.h)",
    },
    ParamSpec {
        name: "min_update_interval",
        kind: ParamKind::Duration { min: 0.0, max: 3600.0 },
        default: ParamDefault::Num(0.01),
        description: "minimum time between two window updates, seconds (cadence ns2: the update period, also the span over which an increase is paced)",
        source: "ns-2 FAST module cwnd_update_period_ 0.01 (ns-default.tcl, bound to fast_update_cwnd_interval_)",
    },
    ParamSpec {
        name: "spread_increase",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "apply a window increase gradually (decreases are immediate): cadence ns2 paces whole packets over one update period, cadence round spreads it evenly over the next round",
        source: "ns-2 module fast_pace",
    },
    ParamSpec {
        name: "mi_threshold",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(0.00075),
        description: "queueing delay (avgRTT - baseRTT, seconds) below which the window grows by one per ACK",
        source: "ns-2 FAST module mi_threshold_ 0.00075 (ns-default.tcl)",
    },
    ParamSpec {
        name: "mi_reentry",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "grow by one per ACK whenever the queueing delay is below mi_threshold (false: only from the start, or a timeout, until it first reaches it)",
        source: "ns-2 FAST module fast_cc (the test runs on every new ACK); false keeps a flow whose equilibrium queueing delay alpha/rate is below mi_threshold from oscillating (our option)",
    },
    ParamSpec {
        name: "cap_2w",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "limit each update to at most doubling the window",
        source: "ns-2 FAST module fast_calc_cwnd has no cap; P002-P004 state min(2w, ...), an option",
    },
    ParamSpec {
        name: "window_arithmetic",
        kind: ParamKind::Choice(&["double", "int", "int_carry"]),
        default: ParamDefault::Str("double"),
        description: "how an update's target is stored: as a real number, truncated to whole packets, or truncated with the fractions carried to later updates",
        source: "ns-2 FAST module high_accuracy_cwnd_ 2 = double (1 = int_carry, 0 = int)",
    },
    ParamSpec {
        name: "avg_rtt_max_weight",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(1.0 / 256.0),
        description: "largest per-ACK EWMA weight of avgRTT; the weight is min(3/w, this), w the flight (cadence ns2) or the window (round)",
        source: "ns-2 module fast_est_update_avgrtt",
    },
    ParamSpec {
        name: "pacing",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "space packets at cwnd/avgRTT (twice that during the start-up growth) instead of sending as ACKs open the window",
        source: "our choice: the ns-2 module does not pace (its fast_pace spreads window increases, not packets); FAST's design papers (Jin, Wei, Low 2004) name burstiness control as one of its four components; the seed papers give no rule",
    },
];
