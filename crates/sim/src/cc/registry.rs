//! The table of algorithms a scenario may name, with their parameter schemas.

use super::params::{ParamKind, ParamSpec, Params};
use super::{newreno, reno, CongestionControl, FlowContext};

pub struct AlgorithmInfo {
    pub name: &'static str,
    pub description: &'static str,
    pub params: &'static [ParamSpec],
    pub build: fn(&Params, &FlowContext) -> Box<dyn CongestionControl>,
    /// Extra bytes each ACK carries (ALT's receiver timestamps: 10 bytes, P004 §III).
    pub ack_extra_bytes: u32,
}

static ALGORITHMS: &[AlgorithmInfo] = &[
    AlgorithmInfo {
        name: "reno",
        description: "TCP Reno (RFC 5681): slow start, AIMD, fast retransmit and fast recovery ending on the first new ACK",
        params: reno::PARAMS,
        build: reno::build_reno,
        ack_extra_bytes: 0,
    },
    AlgorithmInfo {
        name: "newreno",
        description: "TCP NewReno (RFC 6582): Reno with partial-ACK recovery of several losses per window",
        params: reno::PARAMS,
        build: newreno::build,
        ack_extra_bytes: 0,
    },
];

pub fn algorithms() -> &'static [AlgorithmInfo] {
    ALGORITHMS
}

pub fn algorithm(name: &str) -> Option<&'static AlgorithmInfo> {
    ALGORITHMS.iter().find(|a| a.name == name)
}

/// The registry as JSON, for `delaycc list algorithms`.
pub fn registry_json() -> serde_json::Value {
    let list: Vec<serde_json::Value> = ALGORITHMS
        .iter()
        .map(|a| {
            let params: Vec<serde_json::Value> = a
                .params
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "name": p.name,
                        "kind": match p.kind {
                            ParamKind::Float { .. } => "number",
                            ParamKind::Int { .. } => "integer",
                            ParamKind::Bool => "boolean",
                            ParamKind::Duration { .. } => "duration",
                            ParamKind::Choice(_) => "choice",
                        },
                        "range": p.kind.describe(),
                        "default": p.default.to_json(),
                        "description": p.description,
                        "source": p.source,
                    })
                })
                .collect();
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
            for p in a.params {
                assert!(
                    !p.description.is_empty() && !p.source.is_empty(),
                    "{}.{}",
                    a.name,
                    p.name
                );
            }
            let params = Params::with_defaults(a.params);
            let cc = (a.build)(
                &params,
                &FlowContext {
                    mss_bytes: 960,
                    initial_window: 2.0,
                },
            );
            assert!(cc.window() > 0.0, "{}", a.name);
        }
    }
}
