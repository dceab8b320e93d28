//! RED's parameters: the schema a scenario's `queue_params` is checked against (every default is
//! ns-2.35's `Queue/RED` in tcl/lib/ns-default.tcl), the rules between them and the buffer, and the
//! settings a direction runs with once ns-2's automatic rules (red.cc `initialize_params`, `reset`) have
//! filled in what was left at 0 or -1.

use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params, RuleResult};
use crate::model::Buffer;
use crate::time::{secs, Time};

const THRESHOLD: ParamKind = ParamKind::Float { min: 0.0, max: 1e9, min_exclusive: false };

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "min_th",
        kind: THRESHOLD,
        default: ParamDefault::Num(0.0),
        description: "average queue (packets; of mean_pktsize bytes with queue_in_bytes) below which \
                      nothing is dropped; 0: automatic, the larger of 5 and half the queue the link drains \
                      in target_delay",
        source: "ns-2.35 ns-default.tcl Queue/RED thresh_ 0: automatic (red.cc initialize_params)",
    },
    ParamSpec {
        name: "max_th",
        kind: THRESHOLD,
        default: ParamDefault::Num(0.0),
        description: "average queue (same unit as min_th) at which the drop probability reaches max_p; \
                      0: automatic, 3 x min_th",
        source: "ns-2.35 ns-default.tcl Queue/RED maxthresh_ 0: automatic (red.cc initialize_params)",
    },
    ParamSpec {
        name: "q_weight",
        kind: ParamKind::Float { min: -2.0, max: 1.0, min_exclusive: false },
        default: ParamDefault::Num(-1.0),
        description: "weight of the current queue in the average (EWMA); -1: 1 - exp(-1/(10 RTT C)) with \
                      C the link's packets per second and RTT = max(100 ms, 3 (delay + 1/C)); 0: \
                      1 - exp(-1/C); -2: 1 - exp(-10/C)",
        source: "ns-2.35 ns-default.tcl Queue/RED q_weight_ -1: automatic (red.cc initialize_params)",
    },
    ParamSpec {
        name: "max_p",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.1),
        description: "drop probability when the average reaches max_th",
        source: "ns-2.35 ns-default.tcl Queue/RED linterm_ 10 (max_p = 1/linterm_)",
    },
    ParamSpec {
        name: "gentle",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "between max_th and 2 max_th the probability rises from max_p to 1 (false: it is 1 \
                      above max_th)",
        source: "ns-2.35 ns-default.tcl Queue/RED gentle_ true (Floyd 2000, \"Recommendation on using the \
                 gentle_ variant of RED\")",
    },
    ParamSpec {
        name: "wait",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "space drops uniformly between 1/p and 2/p arrivals (false: between 1 and 1/p, the \
                      1993 paper's count rule)",
        source: "ns-2.35 ns-default.tcl Queue/RED wait_ true",
    },
    ParamSpec {
        name: "ecn",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "mark ECN-capable packets CE instead of dropping them (up to mark_p, see use_mark_p)",
        source: "ns-2.35 ns-default.tcl Queue/RED setbit_ false",
    },
    ParamSpec {
        name: "use_mark_p",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "with ecn, mark only while the probability is at most mark_p and drop above it; also \
                      turns off the forced drop above max_th (2 max_th with gentle), where the probability \
                      is then 1",
        source: "ns-2.35 ns-default.tcl Queue/RED use_mark_p_ true",
    },
    ParamSpec {
        name: "mark_p",
        kind: ParamKind::Float { min: 0.0, max: 2.0, min_exclusive: false },
        default: ParamDefault::Num(0.1),
        description: "with ecn and use_mark_p, the highest probability at which packets are marked rather \
                      than dropped (2: always mark)",
        source: "ns-2.35 ns-default.tcl Queue/RED mark_p_ 0.1",
    },
    ParamSpec {
        name: "bytes",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "byte mode: the count since the last drop is in mean_pktsize bytes and a packet's \
                      probability is scaled by its size / mean_pktsize",
        source: "ns-2.35 ns-default.tcl Queue/RED bytes_ true",
    },
    ParamSpec {
        name: "queue_in_bytes",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "average the queue in bytes; the thresholds are then min_th and max_th x mean_pktsize \
                      bytes",
        source: "ns-2.35 ns-default.tcl Queue/RED queue_in_bytes_ true",
    },
    ParamSpec {
        name: "mean_pktsize",
        kind: ParamKind::Int { min: 1, max: 65_535 },
        default: ParamDefault::Num(500.0),
        description: "bytes of an average packet: converts thresholds to bytes and the link rate to \
                      packets per second for the automatic settings and the idle decay",
        source: "ns-2.35 ns-default.tcl Queue/RED mean_pktsize_ 500",
    },
    ParamSpec {
        name: "target_delay",
        kind: ParamKind::Duration { min: 0.0, max: 3600.0 },
        default: ParamDefault::Num(0.005),
        description: "queueing delay the automatic min_th aims at (min_th = its queue / 2, at least 5)",
        source: "ns-2.35 ns-default.tcl Queue/RED targetdelay_ 0.005",
    },
];

/// ns-2's automatic min_th is never below this many packets (red.cc `initialize_params`).
const AUTO_MIN_TH_FLOOR: f64 = 5.0;

/// The rules `check` enforces on a direction: q_weight is a weight or one of ns-2's three automatic
/// codes, min_th is below max_th, and max_th fits in the buffer. Automatic values are checked as far as
/// they can be without the link's rate (an automatic min_th depends on it: checked only against its
/// floor of 5).
pub fn check(p: &Params, buffer: Buffer) -> RuleResult {
    let q_w = p.num("q_weight");
    if q_w < 0.0 && q_w != -1.0 && q_w != -2.0 {
        return Err(("q_weight", format!("{q_w} is neither a weight in (0, 1] nor 0, -1 or -2 (automatic)")));
    }
    let (min_th, max_th) = (p.num("min_th"), p.num("max_th"));
    let effective_max = if max_th > 0.0 { max_th } else { 3.0 * min_th };
    if min_th > 0.0 && min_th >= effective_max {
        return Err(("min_th", format!("min_th {min_th} must be below max_th {max_th}")));
    }
    if min_th == 0.0 && max_th > 0.0 && max_th <= AUTO_MIN_TH_FLOOR {
        return Err((
            "max_th",
            format!("{max_th} must be above the automatic min_th, which is at least {AUTO_MIN_TH_FLOOR}"),
        ));
    }
    if effective_max == 0.0 {
        return Ok(());
    }
    // ns-2 counts a packet limit as that many packets of mean_pktsize bytes when it works in bytes
    // (red.cc: qlim_ x mean_pktsize_), and delaycc's byte buffer in the same unit.
    let mean = p.num("mean_pktsize");
    let (holds, unit) = match buffer {
        Buffer::Packets(n) => (n as f64, format!("{n} packets")),
        Buffer::Bytes(b) => {
            (b as f64 / mean, format!("{b} bytes, {} packets of mean_pktsize", b as f64 / mean))
        }
    };
    if effective_max > holds {
        let (key, what) = if max_th > 0.0 {
            ("max_th", format!("max_th {max_th}"))
        } else {
            ("min_th", format!("the automatic max_th 3 x min_th = {effective_max}"))
        };
        return Err((key, format!("{what} is above what the buffer holds ({unit})")));
    }
    Ok(())
}

/// RED's settings for one direction, in the unit the average is kept in (bytes with queue_in_bytes,
/// packets otherwise), after ns-2's automatic rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub min_th: f64,
    pub max_th: f64,
    pub q_w: f64,
    pub max_p: f64,
    /// The link's rate in packets of mean_pktsize per second (ns-2's "packet time constant" ptc).
    pub ptc: f64,
    pub gentle: bool,
    pub wait: bool,
    pub ecn: bool,
    pub use_mark_p: bool,
    pub mark_p: f64,
    pub bytes: bool,
    pub queue_in_bytes: bool,
    pub mean_pktsize: u64,
}

impl Config {
    /// The settings for a direction of `bps` bits per second and `delay` propagation delay: red.cc's
    /// `command("link")`, `initialize_params` and `reset`, in that order. As in ns-2, they are fixed when
    /// the run starts: a later bandwidth change leaves them as they are.
    pub fn new(p: &Params, bps: f64, delay: Time) -> Config {
        let mean = p.num("mean_pktsize");
        let ptc = bps / (8.0 * mean);
        let mut q_w = p.num("q_weight");
        if q_w == 0.0 {
            q_w = 1.0 - (-1.0 / ptc).exp();
        } else if q_w == -1.0 {
            let rtt = (3.0 * (secs(delay) + 1.0 / ptc)).max(0.1);
            q_w = 1.0 - (-1.0 / (10.0 * rtt * ptc)).exp();
        } else if q_w == -2.0 {
            q_w = 1.0 - (-10.0 / ptc).exp();
        }
        let mut min_th = p.num("min_th");
        if min_th == 0.0 {
            min_th = AUTO_MIN_TH_FLOOR.max(p.num("target_delay") * ptc / 2.0);
        }
        let mut max_th = p.num("max_th");
        if max_th == 0.0 {
            max_th = 3.0 * min_th;
        }
        let queue_in_bytes = p.flag("queue_in_bytes");
        let unit = if queue_in_bytes { mean } else { 1.0 };
        Config {
            min_th: min_th * unit,
            max_th: max_th * unit,
            q_w,
            max_p: p.num("max_p"),
            ptc,
            gentle: p.flag("gentle"),
            wait: p.flag("wait"),
            ecn: p.flag("ecn"),
            use_mark_p: p.flag("use_mark_p"),
            mark_p: p.num("mark_p"),
            bytes: p.flag("bytes"),
            queue_in_bytes,
            mean_pktsize: mean as u64,
        }
    }

    /// The drop probability at average `ave` before the count since the last drop is considered
    /// (red.cc `calculate_p_new`): 0..max_p from min_th to max_th, then max_p..1 up to 2 max_th (gentle)
    /// or 1. Below min_th the caller never asks.
    pub fn base_probability(&self, ave: f64) -> f64 {
        let p = if ave >= self.max_th {
            if self.gentle {
                // ns-2's v_c, v_d: the line through (max_th, max_p) and (2 max_th, 1).
                (1.0 - self.max_p) / self.max_th * ave + (2.0 * self.max_p - 1.0)
            } else {
                1.0
            }
        } else {
            // ns-2's v_a, v_b, in its order of operations. It guards equal thresholds with a span of 1
            // (red.cc `reset`); `check` refuses them.
            let span = if self.max_th == self.min_th { 1.0 } else { self.max_th - self.min_th };
            ((1.0 / span) * ave + (-self.min_th / span)) * self.max_p
        };
        p.min(1.0)
    }

    /// The probability for an arrival of `size` bytes, `count` packets (`count_bytes` bytes) after the
    /// last drop (red.cc `modify_p`): drops spaced uniformly rather than geometrically.
    pub fn uniformised(&self, p_b: f64, count: u64, count_bytes: u64, size: u32) -> f64 {
        // Byte mode counts whole mean-sized packets: ns-2 divides two ints.
        let c = if self.bytes { (count_bytes / self.mean_pktsize) as f64 } else { count as f64 };
        let mut p = if self.wait {
            if c * p_b < 1.0 {
                0.0
            } else if c * p_b < 2.0 {
                p_b / (2.0 - c * p_b)
            } else {
                1.0
            }
        } else if c * p_b < 1.0 {
            p_b / (1.0 - c * p_b)
        } else {
            1.0
        };
        if self.bytes && p < 1.0 {
            p = p * size as f64 / self.mean_pktsize as f64;
        }
        p.min(1.0)
    }
}
