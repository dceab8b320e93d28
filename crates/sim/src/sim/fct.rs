//! Flow completion times of finite flows (`bytes`) and their slowdown against an idle network, for
//! summary.json's `fct` (docs/fabrics.md, FCT). Only scenarios with a finite flow get the key, so every
//! other run's summary stays as it was.

use crate::model::{LinkSpec, Scenario};
use crate::scenario::routes::Graph;
use crate::time::{secs, Time};
use crate::transport::Flow;
use serde_json::{json, Value};

/// Seconds `bytes` take at `bps`.
fn serialise(bytes: u32, bps: f64) -> f64 {
    bytes as f64 * 8.0 / bps
}

/// Along `path`: (propagation plus serialisation of one `bytes`-byte packet on every hop, the slowest
/// hop's rate).
fn one_way(path: &[u32], links: &[LinkSpec], graph: &Graph, bytes: u32) -> (f64, f64) {
    let mut t = 0.0;
    let mut slowest = f64::INFINITY;
    for w in path.windows(2) {
        if let Some((l, d)) = graph.hop(w[0], w[1]) {
            let dir = &links[l as usize].dir[d as usize];
            t += secs(dir.delay) + serialise(bytes, dir.bandwidth_bps);
            slowest = slowest.min(dir.bandwidth_bps);
        }
    }
    (t, slowest)
}

/// The completion time of `fl` on an idle network, seconds: the handshake's round trip when the flow
/// opens with a SYN (an ACK-sized SYN out on the data path and its answer back on the ACK path), then
/// its first data packet's one-way time (propagation and serialisation on every hop), then the other
/// `n - 1` packets at the bottleneck's rate. Completion is when the receiver holds every byte, as
/// `completion_time_s` counts it; the window is taken as never binding.
pub fn ideal_fct(fl: &Flow, sc: &Scenario, index: usize, graph: &Graph) -> Option<f64> {
    let spec = &sc.flows[index];
    let n = fl.total_pkts?;
    let (first, bottleneck) = one_way(&spec.path, &sc.links, graph, fl.packet_size);
    let handshake = if fl.sender.syn() {
        one_way(&spec.path, &sc.links, graph, fl.ack_size).0
            + one_way(&spec.reverse_path, &sc.links, graph, fl.ack_size).0
    } else {
        0.0
    };
    Some(handshake + first + n.saturating_sub(1) as f64 * serialise(fl.packet_size, bottleneck))
}

/// The value at nearest rank `ceil(q * n)` of sorted `xs` (q in (0, 1]).
pub fn percentile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

/// Mean, p50 and p99 of `xs` as JSON.
fn stats(mut xs: Vec<f64>, unit: &str) -> Value {
    xs.sort_by(f64::total_cmp);
    let mean = if xs.is_empty() { None } else { Some(xs.iter().sum::<f64>() / xs.len() as f64) };
    let v = |x: Option<f64>| x.map_or(Value::Null, |x| json!(x));
    json!({
        format!("mean{unit}"): v(mean),
        format!("p50{unit}"): v(percentile(&xs, 0.5)),
        format!("p99{unit}"): v(percentile(&xs, 0.99)),
        format!("max{unit}"): v(xs.last().copied()),
    })
}

/// summary.json's `fct`, or None when no flow is finite.
pub fn fct_json(flows: &[Flow], sc: &Scenario, end: Time) -> Option<Value> {
    let graph = Graph::new(sc.nodes.len(), &sc.links);
    let mut rows = Vec::new();
    let (mut fcts, mut slowdowns) = (Vec::new(), Vec::new());
    let mut finite = 0usize;
    for (i, fl) in flows.iter().enumerate() {
        let Some(ideal) = ideal_fct(fl, sc, i, &graph) else { continue };
        finite += 1;
        let fct = fl.received_all_at.filter(|t| *t <= end).map(|t| secs(t - fl.start));
        let slowdown = fct.map(|f| f / ideal);
        if let (Some(f), Some(s)) = (fct, slowdown) {
            fcts.push(f);
            slowdowns.push(s);
        }
        rows.push(json!({
            "id": sc.flows[i].id,
            "bytes": sc.flows[i].bytes,
            "fct_s": fct,
            "ideal_fct_s": ideal,
            "slowdown": slowdown,
        }));
    }
    if finite == 0 {
        return None;
    }
    let mut out = json!({ "finite_flows": finite, "completed": fcts.len() });
    for part in [stats(fcts, "_s"), stats(slowdowns, "_slowdown")] {
        if let (Value::Object(o), Value::Object(p)) = (&mut out, part) {
            o.extend(p);
        }
    }
    out["flows"] = Value::Array(rows);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::percentile;

    #[test]
    fn nearest_rank_percentiles() {
        let xs: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&xs, 0.5), Some(50.0));
        assert_eq!(percentile(&xs, 0.99), Some(99.0));
        assert_eq!(percentile(&[3.0], 0.99), Some(3.0));
        assert_eq!(percentile(&[], 0.5), None);
    }
}
