//! The table of algorithms a scenario may name, with their parameter schemas.

use super::alt::Alt;
use super::fast::{self, emfast, rrfast, vfast};
use super::{
    bbr, copa, cubic, ledbat, newreno, reno, rttbased, sctp, swift, tcp_lp, timely, vegas, CongestionControl,
    FlowContext,
};
use crate::model::params::{ParamSpec, Params};

pub struct AlgorithmInfo {
    pub name: &'static str,
    pub description: &'static str,
    /// Parameter groups: a composed algorithm lists its host's group and its own (VFAST = FAST + filter).
    pub param_groups: &'static [&'static [ParamSpec]],
    pub build: fn(&Params, &FlowContext) -> Box<dyn CongestionControl>,
    /// Extra bytes each ACK carries (ALT's receiver timestamps: 10 bytes, P004 §III).
    pub ack_extra_bytes: u32,
}

static ALGORITHMS: &[AlgorithmInfo] = &[
    AlgorithmInfo {
        name: "reno",
        description: "TCP Reno (RFC 5681): slow start, AIMD, fast retransmit and fast recovery ending on the first new ACK",
        param_groups: &[reno::PARAMS],
        build: reno::build_reno,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "newreno",
        description: "TCP NewReno (RFC 6582): Reno with partial-ACK recovery of several losses per window",
        param_groups: &[reno::PARAMS],
        build: newreno::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "vegas",
        description: "TCP Vegas as ns-2.35's Agent/TCP/Vegas (flavour = \"ns2\", default: mean RTT per round, integer delta against alpha/beta, growth every other round in slow start, 3/4 on fast retransmit) or Linux tcp_vegas.c (flavour = \"linux\")",
        param_groups: &[vegas::PARAMS],
        build: vegas::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "fast",
        description: "FAST TCP as the ns-2 module the papers used: equation-based window keeping alpha packets queued",
        param_groups: &[fast::PARAMS],
        build: fast::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "vfast",
        description: "VFAST (P000): FAST with an asymmetric EWMA of RTT (psi 0.75 rising, 0.5 falling)",
        param_groups: vfast::GROUPS,
        build: vfast::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "rrfast",
        description: "RRFast (P002): FAST that recognises a longer new route after a cut and resets baseRTT",
        param_groups: rrfast::GROUPS,
        build: rrfast::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "rttbased",
        description: "RTT-based TCP (P001): doubling increments, RTT threshold, virtual queue occupancy, K = 0.25 reduction",
        param_groups: &[rttbased::PARAMS],
        build: rttbased::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "vegas-alt",
        description: "Vegas with ALT (P004): RTT = forward trip + minimum backward trip from receiver timestamps",
        param_groups: &[vegas::PARAMS],
        build: |p, ctx| Alt::wrap(vegas::build(p, ctx)),
        ack_extra_bytes: ALT_OPTION_BYTES,
    },
    AlgorithmInfo {
        name: "fast-alt",
        description: "FAST with ALT (P004): RTT = forward trip + minimum backward trip from receiver timestamps",
        param_groups: &[fast::PARAMS],
        build: |p, ctx| Alt::wrap(fast::build(p, ctx)),
        ack_extra_bytes: ALT_OPTION_BYTES,
    },
    AlgorithmInfo {
        name: "mfast",
        description: "MFAST (P003): FAST carrying several streams on one connection (set streams = N); FAST's congestion control, unchanged",
        param_groups: &[fast::PARAMS],
        build: fast::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "emfast",
        description: "EMFAST (P003): MFAST with CCaFR, per-ACK window growth after fast recovery until the link is full again",
        param_groups: emfast::GROUPS,
        build: emfast::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "sctp",
        description: "SCTP-like (RFC 4960 §7.2 AIMD) multistream baseline of P003 (set streams = N); no multihoming",
        param_groups: &[sctp::PARAMS],
        build: sctp::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "cubic",
        description: "CUBIC (RFC 9438): cubic window growth around the last maximum, Reno-friendly region, fast convergence, optional HyStart++",
        param_groups: &[cubic::PARAMS],
        build: cubic::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "bbr",
        description: "BBR v1 (draft-cardwell-iccrg-bbr-congestion-control-00): paced at a gain x the max delivery rate, window 2 x BDP; Startup, Drain, ProbeBW gain cycle, ProbeRTT",
        param_groups: &[bbr::PARAMS],
        build: bbr::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "timely",
        description: "TIMELY (Mittal et al. 2015): paced rate from the RTT gradient per completion event; thresholds T_low/T_high, hyperactive increase",
        param_groups: &[timely::PARAMS],
        build: timely::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "swift",
        description: "Swift (Kumar et al. 2020): AIMD window towards a target delay scaled by window and hop count; windows below one packet paced",
        param_groups: &[swift::PARAMS],
        build: swift::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "ledbat",
        description: "LEDBAT (RFC 6817): scavenger keeping its added queueing delay near TARGET (100 ms) from one-way delays (receiver timestamps); halves once per RTT on loss",
        param_groups: &[ledbat::PARAMS],
        build: ledbat::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "tcp-lp",
        description: "TCP-LP (Kuzmanovic & Knightly 2003): low-priority Reno; a smoothed one-way delay above min + 0.15(max - min) halves cwnd, a second within 3 RTTs sets it to 1",
        param_groups: &[tcp_lp::PARAMS],
        build: tcp_lp::build,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "copa",
        description: "Copa (Arun and Balakrishnan, NSDI 2018): window towards the target rate 1/(delta x queueing delay) with a velocity, paced at 2 cwnd/RTTstanding; competitive mode (AIMD on 1/delta) when the queue stops emptying",
        param_groups: &[copa::PARAMS],
        build: copa::build,
        ack_extra_bytes: 0,
    },
];

/// ALT's timestamp option: ACKs grow from 40 to 50 bytes (P004 §III).
const ALT_OPTION_BYTES: u32 = 10;

impl AlgorithmInfo {
    pub fn params(&self) -> impl Iterator<Item = &'static ParamSpec> {
        self.param_groups.iter().flat_map(|g| g.iter())
    }

    pub fn param(&self, name: &str) -> Option<&'static ParamSpec> {
        self.params().find(|p| p.name == name)
    }

    pub fn defaults(&self) -> Params {
        Params::with_defaults(self.params())
    }
}

pub fn algorithms() -> &'static [AlgorithmInfo] {
    ALGORITHMS
}

pub fn algorithm(name: &str) -> Option<&'static AlgorithmInfo> {
    ALGORITHMS.iter().find(|a| a.name == name)
}

/// Builds a flow's controller. The scenario layer refuses unknown names, so a missing one is a bug.
pub fn build_controller(name: &str, params: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    let info = algorithm(name).unwrap_or_else(|| panic!("algorithm {name} is not registered"));
    (info.build)(params, ctx)
}

/// The registry as JSON, for `delaycc list algorithms`.
pub fn registry_json() -> serde_json::Value {
    let list: Vec<serde_json::Value> = ALGORITHMS
        .iter()
        .map(|a| {
            let params: Vec<serde_json::Value> = a.params().map(ParamSpec::to_json).collect();
            serde_json::json!({ "name": a.name, "description": a.description, "params": params })
        })
        .collect();
    serde_json::Value::Array(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_algorithm_builds_with_defaults_and_documents_its_parameters() {
        for a in algorithms() {
            let mut names: Vec<&str> = a.params().map(|p| p.name).collect();
            for p in a.params() {
                assert!(!p.description.is_empty() && !p.source.is_empty(), "{}.{}", a.name, p.name);
            }
            names.sort_unstable();
            assert!(names.windows(2).all(|w| w[0] != w[1]), "{}: duplicate parameter names", a.name);
            let params = a.defaults();
            let cc = (a.build)(&params, &FlowContext::new(2.0));
            assert!(cc.window() > 0.0, "{}", a.name);
        }
    }

    /// `hears_sends()` false lets the sender skip `on_send` and `on_dupack`: for every algorithm that
    /// says so, they must change nothing it reports.
    #[test]
    fn algorithms_that_do_not_hear_sends_ignore_them() {
        let mut quiet = Vec::new();
        for a in algorithms() {
            let mut cc = (a.build)(&a.defaults(), &FlowContext::new(2.0));
            if cc.hears_sends() {
                continue;
            }
            quiet.push(a.name);
            let state = |cc: &dyn CongestionControl| {
                let mut extra = Vec::new();
                cc.extra_values(&mut extra);
                format!("{:?}", (cc.window(), cc.ssthresh(), cc.trace(), extra))
            };
            let before = state(&*cc);
            for seq in 0..50 {
                cc.on_send(seq * 1000, seq, seq % 7 == 0, 10);
                cc.on_dupack(seq * 1000 + 500);
            }
            assert_eq!(before, state(&*cc), "{}", a.name);
        }
        assert!(quiet.contains(&"newreno") && quiet.contains(&"reno"), "{quiet:?}");
    }
}
