//! Invariants every finished run must satisfy, whatever its scenario. Each check returns a message naming
//! what broke, so property tests can report it next to the scenario.
#![allow(dead_code)]

use delaycc_sim::model::{Buffer, EventKind, Scenario};
use delaycc_sim::sim::summary_json;
use delaycc_sim::{Outcome, Simulation};
use serde_json::Value;
use std::time::{Duration, Instant};

/// Relative slack for throughput against capacity (rounding of rates and times).
const RATE_TOLERANCE: f64 = 1e-6;

/// Runs a scenario to its end, or to exactly its `max_events` budget; fails if it takes longer than
/// `limit` of wall time or stops for any other reason. The recorder checks that every flow it did not
/// read again at a sample was indeed unchanged (it panics otherwise).
pub fn run(sc: Scenario, limit: Duration) -> Result<Simulation, String> {
    let t0 = Instant::now();
    let mut sim = Simulation::new(sc);
    sim.recorder_mut().verify_untouched = true;
    match sim.run(|_| t0.elapsed() < limit) {
        Outcome::Completed => Ok(sim),
        Outcome::EventBudget if sim.scenario().limits.max_events == Some(sim.events_processed()) => Ok(sim),
        Outcome::Interrupted => Err(format!("the run took more than {limit:?} of wall time")),
        stop => Err(format!(
            "the run stopped early: {:?} after {} events",
            sim.stop_message(stop),
            sim.events_processed()
        )),
    }
}

/// Every invariant, first failure first.
pub fn check(sim: &Simulation) -> Result<(), String> {
    conservation(sim)?;
    times_increase(sim)?;
    queues_within_buffers(sim)?;
    windows_finite_positive(sim)?;
    throughput_within_capacity(sim)?;
    summary_consistent(sim)?;
    Ok(())
}

/// sent = delivered + dropped + in flight, and everything in flight sits on a link.
pub fn conservation(sim: &Simulation) -> Result<(), String> {
    let c = sim.counts();
    if c.sent != c.delivered + c.dropped + c.in_flight {
        return Err(format!("packets not conserved: {c:?}"));
    }
    let on_links = sim.packets_on_links();
    if c.in_flight != on_links {
        return Err(format!("{} packets in flight but {on_links} on links", c.in_flight));
    }
    Ok(())
}

/// Sample times are strictly increasing and inside (0, duration].
pub fn times_increase(sim: &Simulation) -> Result<(), String> {
    let t = &sim.recorder().times;
    if let Some(w) = t.windows(2).find(|w| w[1] <= w[0]) {
        return Err(format!("sample times do not increase: {} then {}", w[0], w[1]));
    }
    let end = sim.scenario().duration as f64 / 1e9;
    match (t.first(), t.last()) {
        (Some(&a), Some(&b)) if a <= 0.0 || b > end * (1.0 + 1e-12) => {
            Err(format!("samples span [{a}, {b}] outside (0, {end}]"))
        }
        _ => Ok(()),
    }
}

/// Every queue sample of a packet-counted buffer is at most its capacity.
pub fn queues_within_buffers(sim: &Simulation) -> Result<(), String> {
    for (k, s) in
        sim.recorder().series.iter().enumerate().filter(|(_, s)| s.kind == "link" && s.metric == "queue_pkts")
    {
        let (id, dir) = s.id.rsplit_once(':').ok_or_else(|| format!("odd link series name {}", s.id))?;
        let link = sim.scenario().links.iter().find(|l| l.id == id).ok_or_else(|| format!("no link {id}"))?;
        let d = usize::from(dir == "b->a");
        if let Buffer::Packets(cap) = link.dir[d].buffer {
            if let Some((i, q)) = sim.recorder().values.series(k).enumerate().find(|(_, q)| *q > cap as f64) {
                return Err(format!("{}: queue {q} > buffer {cap} at sample {i}", s.id));
            }
        }
    }
    Ok(())
}

/// Every flow's window is finite and positive at every sample.
pub fn windows_finite_positive(sim: &Simulation) -> Result<(), String> {
    for (k, s) in
        sim.recorder().series.iter().enumerate().filter(|(_, s)| s.kind == "flow" && s.metric == "cwnd_pkts")
    {
        if let Some((i, w)) =
            sim.recorder().values.series(k).enumerate().find(|(_, w)| !(w.is_finite() && *w > 0.0))
        {
            return Err(format!("flow {}: cwnd {w} at sample {i}", s.id));
        }
    }
    Ok(())
}

/// No flow's or source's `throughput_bps` in the summary exceeds the capacity of the slowest link direction
/// of its path (link events only lower bandwidths here). Both count only what arrived within the active
/// time, so this holds exactly, up to rounding. A rerouted flow may briefly receive over its old and its
/// new path at once (the old path's queue drains), so its bound is the sum over the paths it used.
pub fn throughput_within_capacity(sim: &Simulation) -> Result<(), String> {
    let sc = sim.scenario();
    let summary = summary_json(sim, Outcome::Completed, 0.0);
    let rows = summary["flows"].as_array().ok_or("summary has no flows")?;
    for (i, (f, row)) in sc.flows.iter().zip(rows).enumerate() {
        let rerouted = sc.events.iter().filter_map(|e| match &e.kind {
            EventKind::Reroute { flow, path: Some(p), .. } if *flow as usize == i => Some(p),
            _ => None,
        });
        let capacity = path_capacity(sc, &f.path) + rerouted.map(|p| path_capacity(sc, p)).sum::<f64>();
        let tput = row["throughput_bps"].as_f64().ok_or_else(|| format!("flow {}: no throughput", f.id))?;
        if !(tput >= 0.0 && tput <= capacity * (1.0 + RATE_TOLERANCE)) {
            return Err(format!(
                "flow {}: throughput {tput} bps, its path carries {capacity} bps (row: {row})",
                f.id
            ));
        }
    }
    let sources = summary["traffic"].as_array().ok_or("summary has no traffic")?;
    for (t, row) in sc.traffic.iter().zip(sources) {
        let capacity = path_capacity(sc, &t.path);
        let tput = row["throughput_bps"].as_f64().unwrap_or(f64::NAN);
        if !(tput >= 0.0 && tput <= capacity * (1.0 + RATE_TOLERANCE)) {
            return Err(format!(
                "source {}: throughput {tput} bps, its path carries {capacity} bps (row: {row})",
                t.id
            ));
        }
    }
    Ok(())
}

/// The summary agrees with itself and with physics: no flow receives more packets than were sent or more
/// payload than it carries, no round trip is shorter than the path's propagation delay, links are busy
/// between 0 and 100 % of the time and their queues stay within their buffers.
pub fn summary_consistent(sim: &Simulation) -> Result<(), String> {
    let sc = sim.scenario();
    let summary = summary_json(sim, Outcome::Completed, 0.0);
    let num = |v: &Value, key: &str| v[key].as_f64();
    let flows = summary["flows"].as_array().ok_or("summary has no flows")?;
    for (f, row) in sc.flows.iter().zip(flows) {
        let bad = |what: &str| Err(format!("flow {}: {what} (row: {row})", f.id));
        if row["received_pkts"].as_u64() > row["sent_pkts"].as_u64() {
            return bad("received more packets than were sent");
        }
        if num(row, "goodput_bps") > num(row, "throughput_bps").map(|t| t * (1.0 + 1e-9)) {
            return bad("goodput above throughput");
        }
        if let (Some(limit), Some(got)) = (f.bytes, row["delivered_bytes"].as_u64()) {
            if got > limit {
                return bad("delivered more bytes than the transfer has");
            }
        }
        if let (Some(min), Some(mean)) = (num(row, "min_rtt_s"), num(row, "mean_rtt_s")) {
            if mean < min * (1.0 - 1e-9) {
                return bad("mean RTT below the minimum");
            }
            // Propagation both ways bounds the RTT from below unless an event changed a delay.
            let propagation = path_delay(sc, &f.path) + path_delay(sc, &f.reverse_path);
            if sc.events.is_empty() && min < propagation * (1.0 - 1e-9) {
                return bad(&format!("minimum RTT below the propagation delay {propagation} s"));
            }
        }
    }
    for row in summary["links"].as_array().ok_or("summary has no links")? {
        let bad = |what: &str| Err(format!("link {} {}: {what} (row: {row})", row["id"], row["direction"]));
        let util = num(row, "utilization").unwrap_or(f64::NAN);
        if !(0.0..=1.0 + 1e-9).contains(&util) {
            return bad("utilization outside [0, 1]");
        }
        let (mean_q, max_q) = (num(row, "mean_queue_pkts"), num(row, "max_queue_pkts"));
        if mean_q > max_q.map(|m| m + 1e-9) {
            return bad("mean queue above the maximum");
        }
        let link = sc.links.iter().find(|l| row["id"] == l.id.as_str()).ok_or("unknown link in summary")?;
        let d = usize::from(row["direction"] == "b->a");
        if let (Buffer::Packets(cap), Some(m)) = (link.dir[d].buffer, max_q) {
            if m > cap as f64 {
                return bad("maximum queue above the buffer");
            }
        }
    }
    let j = &summary["fairness_jain"];
    if !(j.is_null() || j.as_f64().is_some_and(|j| j > 0.0 && j <= 1.0 + 1e-12)) {
        return Err(format!("Jain's index {j}"));
    }
    Ok(())
}

/// One-way propagation delay along a node path, seconds.
pub fn path_delay(sc: &Scenario, path: &[u32]) -> f64 {
    path.windows(2)
        .filter_map(|w| {
            sc.links.iter().find_map(|l| match (l.a, l.b) {
                (a, b) if a == w[0] && b == w[1] => Some(l.dir[0].delay),
                (a, b) if a == w[1] && b == w[0] => Some(l.dir[1].delay),
                _ => None,
            })
        })
        .map(|d| d as f64 / 1e9)
        .sum()
}

/// Bandwidth of the slowest link direction along a node path.
pub fn path_capacity(sc: &Scenario, path: &[u32]) -> f64 {
    path.windows(2)
        .filter_map(|w| {
            sc.links.iter().find_map(|l| match (l.a, l.b) {
                (a, b) if a == w[0] && b == w[1] => Some(l.dir[0].bandwidth_bps),
                (a, b) if a == w[1] && b == w[0] => Some(l.dir[1].bandwidth_bps),
                _ => None,
            })
        })
        .fold(f64::INFINITY, f64::min)
}
