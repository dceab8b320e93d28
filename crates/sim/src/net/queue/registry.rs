//! The queue disciplines a scenario may name (`queue = "..."` on a link), with their parameter schemas:
//! the same schema type as the algorithms', so `queue_params` is checked and listed the same way.

use super::{codel, droptail, fq_codel, pie, red, QueueContext, QueueDiscipline};
use crate::model::params::{ParamSpec, Params, RuleResult};
use crate::model::Buffer;

pub struct QueueInfo {
    pub name: &'static str,
    pub description: &'static str,
    /// The document that defines the discipline (RFC, paper, simulator module).
    pub source: &'static str,
    pub params: &'static [ParamSpec],
    pub build: fn(&Params, &QueueContext) -> Box<dyn QueueDiscipline>,
    /// Rules over several parameters, or between them and the direction's buffer: the parameter a
    /// violation is reported on, and why (a CoDel target above its interval, RED's min_th above max_th).
    pub check: fn(&Params, Buffer) -> RuleResult,
}

/// `check` for a discipline whose parameters are independent.
pub fn no_rules(_: &Params, _: Buffer) -> RuleResult {
    Ok(())
}

static QUEUES: &[QueueInfo] = &[
    QueueInfo {
        name: "droptail",
        description: "FIFO that drops arrivals while the buffer is full (the default)",
        source: "ns-2 Queue/DropTail; ns-3 DropTailQueue",
        params: droptail::PARAMS,
        build: droptail::build,
        check: no_rules,
    },
    QueueInfo {
        name: "codel",
        description:
            "CoDel: drops (or marks) at the head once packets have waited over target for an interval",
        source: "RFC 8289 (Controlled Delay Active Queue Management); Linux sch_codel",
        params: codel::PARAMS,
        build: codel::build,
        check: codel::check,
    },
    QueueInfo {
        name: "fq_codel",
        description: "FQ-CoDel: flows hashed into queues served by deficit round robin, new flows first, \
                      CoDel on each queue",
        source: "RFC 8290 (The Flow Queue CoDel Packet Scheduler and AQM Algorithm); Linux sch_fq_codel",
        params: fq_codel::PARAMS,
        build: fq_codel::build,
        check: codel::check,
    },
    QueueInfo {
        name: "red",
        description: "Random Early Detection: drops (or marks) arrivals with a probability that grows \
                      with the average queue",
        source: "Floyd & Jacobson 1993; ns-2.35 Queue/RED (queue/red.cc, tcl/lib/ns-default.tcl)",
        params: red::PARAMS,
        build: red::build,
        check: red::check,
    },
    QueueInfo {
        name: "pie",
        description:
            "PIE: random early drop (or ECN mark) with a probability a PI controller steers from the \
                      queueing delay",
        source: "RFC 8033; Linux sch_pie (timestamp delay, no dq_rate_estimator)",
        params: pie::PARAMS,
        build: pie::build,
        check: pie::check,
    },
];

impl QueueInfo {
    pub fn param(&self, name: &str) -> Option<&'static ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    pub fn defaults(&self) -> Params {
        Params::with_defaults(self.params)
    }
}

pub fn queue_disciplines() -> &'static [QueueInfo] {
    QUEUES
}

pub fn queue_discipline(name: &str) -> Option<&'static QueueInfo> {
    QUEUES.iter().find(|q| q.name == name)
}

/// The disciplines as JSON, for `delaycc list queues`.
pub fn queue_registry_json() -> serde_json::Value {
    let list: Vec<serde_json::Value> = QUEUES
        .iter()
        .map(|q| {
            let params: Vec<serde_json::Value> = q.params.iter().map(ParamSpec::to_json).collect();
            serde_json::json!({
                "name": q.name, "description": q.description, "source": q.source, "params": params,
            })
        })
        .collect();
    serde_json::Value::Array(list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Packet;
    use crate::rng::Rng;

    #[test]
    fn every_discipline_builds_with_defaults_and_documents_its_parameters() {
        for q in queue_disciplines() {
            for p in q.params {
                assert!(!p.description.is_empty() && !p.source.is_empty(), "{}.{}", q.name, p.name);
            }
            let ctx = QueueContext {
                buffer: Buffer::Packets(10),
                bps: 1e7,
                delay: 10_000_000,
                mtu: 1500,
                rng: Rng::stream(1, q.name),
            };
            assert!((q.check)(&q.defaults(), ctx.buffer).is_ok(), "{}: defaults break its rules", q.name);
            let mut d = (q.build)(&q.defaults(), &ctx);
            assert!(d.enqueue(0, Packet { size: 1500, ..Packet::EMPTY }), "{}", q.name);
            assert!(d.dequeue(1, &mut Vec::new()).is_some(), "{}", q.name);
        }
    }
}
