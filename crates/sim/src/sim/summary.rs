//! The end-of-run summary (`summary.json`), exactly the fields of `docs/scenario-format.md#outputs` plus
//! a few documented additions. It lives with the simulation because it reports on the whole run (how it
//! ended, its budgets, its packet counts) as well as on each flow, link and source.

use super::{Outcome, Simulation};
use crate::measure::recorder::link_dir_name;
use crate::model::FlowSpec;
use crate::time::{secs, Time};
use crate::transport::Flow;
use serde_json::{json, Value};

/// Jain's fairness index of the values, or None for an empty list or all zeros.
pub fn jain(xs: &[f64]) -> Option<f64> {
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    if xs.is_empty() || sq == 0.0 {
        None
    } else {
        Some(sum * sum / (xs.len() as f64 * sq))
    }
}

fn opt_secs(t: Option<Time>) -> Value {
    t.map_or(Value::Null, |t| json!(secs(t)))
}

fn finite_or_null(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// Per-stream delivery of a multistream flow (empty for a single stream, where the flow's own fields say it).
/// Goodput counts the messages delivered within the active time, like the flow's.
fn stream_stats(fl: &Flow, active_s: f64) -> Value {
    if fl.app.n_streams() < 2 {
        return json!([]);
    }
    let in_window = fl.window_delivered();
    let rows: Vec<Value> = fl
        .app
        .stats()
        .zip(in_window)
        .enumerate()
        .map(|(i, (st, window_pkts))| {
            let bits = window_pkts as f64 * fl.payload as f64 * 8.0;
            json!({
                "stream": i,
                "delivered_pkts": st.delivered_pkts,
                "goodput_bps": if active_s > 0.0 { bits / active_s } else { 0.0 },
                "mean_delivery_delay_s": if st.delivered_pkts > 0 { json!(st.delay_sum_ns / st.delivered_pkts as f64 / 1e9) } else { Value::Null },
                "max_delivery_delay_s": secs(st.delay_max_ns),
            })
        })
        .collect();
    Value::Array(rows)
}

/// One flow's row of summary.json, and its throughput (for the fairness index).
fn flow_json(fl: &Flow, spec: &FlowSpec, end: Time) -> (Value, f64) {
    let s = &fl.sender;
    let active_end = fl.received_all_at.unwrap_or(fl.stop.min(end)).min(end);
    let active = active_end.saturating_sub(fl.start);
    let active_s = secs(active);
    let per_s = |bits: f64| if active_s > 0.0 { bits / active_s } else { 0.0 };
    // Only what arrived within the active time counts (`transport/flow.rs`, `ActiveWindow`): rates over a window
    // can then never exceed the path's capacity.
    let throughput = per_s(fl.window_bits() as f64);
    let window_bytes = fl.window_delivered().iter().sum::<u64>() * fl.payload as u64;
    let goodput = per_s(spec.bytes.map_or(window_bytes, |l| window_bytes.min(l)) as f64 * 8.0);
    let tr = s.cc.trace();
    let cwnd_time = s.stats.cwnd_since.min(end).saturating_sub(fl.start);
    let mean_cwnd =
        if cwnd_time > 0 && s.started { s.stats.cwnd_integral / cwnd_time as f64 } else { s.cc.window() };
    let mut row = json!({
        "id": spec.id,
        "algorithm": spec.algorithm,
        "throughput_bps": throughput,
        "goodput_bps": goodput,
        "retransmits": s.stats.retransmits,
        "timeouts": s.stats.timeouts,
        "fast_retransmits": s.stats.fast_retransmits,
        "mean_rtt_s": if s.stats.rtt_samples > 0 { json!(s.stats.rtt_sum_ns / s.stats.rtt_samples as f64 / 1e9) } else { Value::Null },
        "min_rtt_s": opt_secs(s.stats.rtt_min()),
        "final_base_rtt_s": opt_secs(tr.base_rtt),
        "mean_cwnd_pkts": finite_or_null(mean_cwnd),
        "final_cwnd_pkts": finite_or_null(s.cc.window()),
        "sent_pkts": s.stats.pkts_sent,
        "received_pkts": fl.receiver.data_pkts,
        "delivered_bytes": fl.goodput_bytes(spec.bytes),
        "start_s": secs(fl.start),
        "active_s": active_s,
        "completion_time_s": fl.received_all_at.map_or(Value::Null, |t| json!(secs(t - fl.start))),
        "streams": fl.app.n_streams(),
        "mean_delivery_delay_s": fl.app.delay().map_or(Value::Null, |(m, _)| json!(m / 1e9)),
        "max_delivery_delay_s": fl.app.delay().map_or(Value::Null, |(_, x)| json!(secs(x))),
        "stream_stats": stream_stats(fl, active_s),
        "convergence_time_s": s.convergence.episodes.first().map_or(Value::Null, |e| json!(secs(e.1))),
        "convergence_episodes": s.convergence.episodes.iter()
            .map(|(at, t)| json!({ "loss_at_s": secs(*at), "time_s": secs(*t) }))
            .collect::<Vec<_>>(),
        "params": spec.params.to_json(),
    });
    // Only flows with ECN have these, so every other row stays as it was.
    if let (Some(e), Value::Object(o)) = (s.ecn(), &mut row) {
        o.insert("ecn_ce_received".into(), json!(fl.receiver.ce_received));
        o.insert("ecn_echoes".into(), json!(e.echoes));
        o.insert("ecn_reductions".into(), json!(e.reductions));
    }
    (row, throughput)
}

/// The rows of the link directions that carried or dropped anything.
fn links_json(sim: &Simulation, end: Time) -> Vec<Value> {
    let sc = &sim.scenario;
    let mut links = Vec::new();
    for (d, l) in sim.net.links.iter().enumerate() {
        let st = &l.stats;
        if l.pkts_sent() == 0 && st.queue_drops == 0 {
            continue;
        }
        let (id, dir) = link_dir_name(sc, d as u32);
        let (busy, wait) = l.clip_stats(end);
        let span = end.max(1) as f64;
        let mut row = json!({
            "id": id,
            "direction": dir,
            "utilization": busy as f64 / span,
            "mean_queue_pkts": wait as f64 / span,
            "max_queue_pkts": st.max_queue_pkts,
            "drops": st.queue_drops + st.loss_drops,
            "queue_drops": st.queue_drops,
            "loss_drops": st.loss_drops,
            "pkts_sent": l.pkts_sent(),
            "bandwidth_bps": l.bps,
        });
        // Only managed directions have these, so drop-tail runs keep the rows they always had.
        if let (Some(m), Value::Object(o)) = (l.managed(), &mut row) {
            let c = m.counters();
            o.insert("queue".into(), json!(m.kind));
            o.insert("aqm_drops".into(), json!(c.early_drops));
            o.insert("overflow_drops".into(), json!(c.overflow_drops));
            o.insert("ecn_marks".into(), json!(c.marks));
        }
        links.push(row);
    }
    links
}

/// The rows of the non-responsive sources.
fn traffic_json(sim: &Simulation, end: Time) -> Vec<Value> {
    let sc = &sim.scenario;
    let mut traffic = Vec::new();
    for (src, spec) in sim.sources.iter().zip(&sc.traffic) {
        let active_s = secs(src.stop.min(end).saturating_sub(src.start));
        traffic.push(json!({
            "id": spec.id,
            "kind": match spec.kind { crate::model::TrafficKind::Cbr { .. } => "cbr", _ => "onoff" },
            "sent_pkts": src.sent,
            "delivered_pkts": src.delivered,
            "throughput_bps": if active_s > 0.0 { src.window_bits as f64 / active_s } else { 0.0 },
        }));
    }
    traffic
}

/// The rows of the packet trace files (none without traces).
fn pcap_json(sim: &Simulation, outcome: Outcome) -> Vec<Value> {
    let Some(traces) = &sim.traces else { return Vec::new() };
    traces
        .rows()
        .into_iter()
        .map(|r| {
            let mut row = json!({ "file": r.file, "kind": r.kind, "id": r.id });
            if let Some(d) = r.direction {
                row["direction"] = json!(d);
            }
            row["packets"] = json!(r.packets);
            // A run stopped early keeps what its traces hold so far.
            row["complete"] = json!(outcome == Outcome::Completed);
            row
        })
        .collect()
}

pub fn summary_json(sim: &Simulation, outcome: Outcome, wall_s: f64) -> Value {
    let sc = &sim.scenario;
    let end = sim.net.now;
    let mut flows = Vec::new();
    let mut whole_run = Vec::new();
    let mut all = Vec::new();
    for (fl, spec) in sim.flows.iter().zip(&sc.flows) {
        let (row, throughput) = flow_json(fl, spec, end);
        flows.push(row);
        all.push(throughput);
        if fl.start == 0 && fl.stop >= sc.duration && fl.received_all_at.is_none() {
            whole_run.push(throughput);
        }
    }
    let fair_set = if whole_run.is_empty() { &all } else { &whole_run };
    let c = sim.net.counts;
    let mut summary = json!({
        "scenario": sc.name,
        "seed": sc.seed,
        "duration_s": secs(sc.duration),
        // The interval of the recorded series: the scenario's, or a power-of-two multiple of it when a
        // long run reached the recorder's sample bound (`measure/resolution.rs`).
        "sample_interval_s": secs(sim.recorder.interval),
        "simulated_s": secs(end),
        "complete": outcome == Outcome::Completed,
        // Stopped early (Ctrl-C or a budget, `sim/budget.rs`): the results cover [0, simulated_s].
        "partial": outcome != Outcome::Completed,
        "stop_reason": outcome.stop_reason(),
        "stop_message": sim.stop_message(outcome),
        "memory_estimate_bytes": sim.guard.peak_memory.max(sim.memory_estimate()),
        "wall_s": wall_s,
        "events": sim.events_processed,
        "delaycc_version": env!("CARGO_PKG_VERSION"),
        "fairness_jain": jain(fair_set).map_or(Value::Null, |j| json!(j)),
        "packets": { "sent": c.sent, "delivered": c.delivered, "dropped": c.dropped, "in_flight": c.in_flight },
    });
    // Moved in, not through `json!`, which would serialize a deep copy of every row (80 M instructions
    // at 1000 flows).
    summary["flows"] = Value::Array(flows);
    summary["links"] = Value::Array(links_json(sim, end));
    summary["traffic"] = Value::Array(traffic_json(sim, end));
    summary["pcap"] = Value::Array(pcap_json(sim, outcome));
    // Additive: only runs with a finite flow have it, so other summaries stay byte for byte as they were.
    if let Some(fct) = super::fct::fct_json(&sim.flows, sc, end) {
        summary["fct"] = fct;
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::jain;

    #[test]
    fn jain_index() {
        assert_eq!(jain(&[1.0, 1.0, 1.0]), Some(1.0));
        assert!((jain(&[1.0, 0.0]).unwrap() - 0.5).abs() < 1e-12);
        assert_eq!(jain(&[]), None);
        // P003 Table 4, SCTP column: 0.9221.
        let x = [407.00, 214.50, 226.02, 226.99, 213.82];
        assert!((jain(&x).unwrap() - 0.9221).abs() < 1e-4);
    }
}
