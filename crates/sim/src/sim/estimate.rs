//! Before a run: how much work it will be. A fluid model of the scenario gives each flow a rate, and the
//! rates give packets, ACKs and events; the memory estimate reuses the budget's per-structure sizes.
//! Nothing is simulated, so this costs microseconds however long the run: `delaycc run --estimate` and
//! the warning about long runs read it (docs/performance.md, "Estimating a run").
//!
//! The model, stretch by stretch of simulated time (cut at every flow's and source's start and stop, on a
//! grid beyond `MAX_STRETCHES` of them, and at every scenario event, which change paths, bandwidths, loss
//! and links up or down):
//! - sources send at their rate (an on-off source at its rate times its on fraction); where their sum
//!   exceeds a link direction's bandwidth each is scaled down in proportion from that hop on;
//! - flows share the bandwidth the sources leave max-min fairly (water-filling over their forward paths
//!   and, for the ACKs' bits of delay-based algorithms, which back off when their ACKs queue, their
//!   reverse paths: `yields_to_acks`), each capped by its receiver window per base RTT and, on a lossy
//!   path, by its algorithm's loss response (`loss_response`); a finite transfer stops at its size;
//!   ACKs that do not fit a reverse direction are dropped there;
//! - events: the engine processes one event per packet and hop (a link arrival; a dropped packet none at
//!   the hop that drops it), so a flow's data packets cost one event per forward hop and its ACKs (one
//!   per packet, or one per two with delayed ACKs) one per reverse hop; a paced flow one more per packet
//!   (its pacing timer); a source one per packet it sends (its timer) besides its hops; then every
//!   sample, every start, stop and scenario event, each flow's retransmission timer about once per RTO
//!   and its algorithm's ticks.
//!
//! Not modelled: slow start (flows are at their share at once), retransmissions and timeouts (a flow
//! that loses most of its time to timeouts sends far less than its share), queueing delay in the RTT. The model's error on the
//! scenarios of the repository is in docs/performance.md, and `tests/test_estimate.py` holds it to a
//! factor against actual runs.

use super::budget::{FLOW_OVERHEAD, PER_OUTSTANDING_PACKET};
use crate::cc::FlowContext;
use crate::engine::Event;
use crate::model::{Buffer, EventKind, NodeId, Scenario, TrafficKind};
use crate::net::link::InFlight;
use crate::scenario::limits::{series_bytes, series_count};
use crate::scenario::routes::Graph;
use crate::time::{secs, Time};
use crate::transport::Flow;
use std::mem::size_of;

/// What a run will take, estimated before it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Data packets the flows send.
    pub data_packets: f64,
    /// ACKs the flows' receivers send.
    pub acks: f64,
    /// Packets the traffic sources send.
    pub datagrams: f64,
    /// Events the engine will process (summary.json's `events` for a complete run).
    pub events: f64,
    /// Bytes of the simulation's data at its peak (the budget's estimate, `budget.rs`).
    pub memory: u64,
    /// The scenario's event budget (`[limits] max_events`), which stops the run there.
    pub max_events: Option<u64>,
    /// Cumulative events against simulated time: (seconds, events) at the start of the run, at every
    /// change of the model's rates, and at the end; linear in between.
    pub profile: Vec<(f64, f64)>,
}

impl Estimate {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "data_packets": self.data_packets.round(),
            "acks": self.acks.round(),
            "datagrams": self.datagrams.round(),
            "packets": (self.data_packets + self.acks + self.datagrams).round(),
            "events": self.events.round(),
            "memory_bytes": self.memory,
            "max_events": self.max_events,
            "profile": self.profile,
        })
    }
}

/// A link direction's state in one stretch of time.
#[derive(Clone, Copy)]
struct Dir {
    bps: f64,
    delay: f64,
    loss: f64,
    up: bool,
    buffer_pkts: f64,
    /// Events per packet crossing it: one (its arrival at the next node), two on a managed direction
    /// (its transmitter's event as well, `net/managed.rs`).
    hop_events: f64,
}

/// Link directions (`dir_index`) along a node path.
fn dirs_of(graph: &Graph, path: &[NodeId]) -> Vec<usize> {
    path.windows(2)
        .filter_map(|w| graph.hop(w[0], w[1]).map(|(l, d)| super::dir_index(l, d) as usize))
        .collect()
}

/// What the model holds of a flow while its paths and links stay as they are.
struct FlowModel {
    /// The link directions it takes bandwidth from, with the bits it takes there per bit of its data:
    /// 1 on its forward path, its ACKs' share on its reverse path if it yields to them.
    uses: Vec<(usize, f64)>,
    /// ACK bits per data bit.
    ack_bits: f64,
    rtt: f64,
    /// Most bits per second it can send: its receiver window per RTT, its loss response, 0 when a link
    /// of its paths is down.
    cap: f64,
}

fn flow_model(sc: &Scenario, i: usize, dirs: &[Dir], fwd: &[usize], rev: &[usize]) -> FlowModel {
    let f = &sc.flows[i];
    let pkt_bits = sc.packet_size as f64 * 8.0;
    let per_ack = f.ack_size as f64 * 8.0 / pkt_bits;
    let ack_bits = if f.transport.delayed_ack { per_ack / 2.0 } else { per_ack };
    let rtt = base_rtt(sc, dirs, fwd, rev, i);
    let mut cap = f64::INFINITY;
    if rtt > 0.0 {
        cap = f.transport.receiver_window as f64 * pkt_bits / rtt;
        let kept: f64 = fwd.iter().map(|&d| 1.0 - dirs[d].loss).product();
        if let Some(pkts) = loss_response(f.algorithm, 1.0 - kept, rtt) {
            cap = cap.min(pkts * pkt_bits);
        }
    }
    if fwd.iter().chain(rev).any(|&d| !dirs[d].up) {
        cap = 0.0;
    }
    // A flow whose delay signal includes its ACKs' queue yields to them; the others send on while the
    // ACKs that do not fit are dropped.
    let back = rev.iter().filter(|_| yields_to_acks(f.algorithm)).map(|&d| (d, ack_bits));
    let uses = fwd.iter().map(|&d| (d, 1.0)).chain(back).collect();
    FlowModel { uses, ack_bits, rtt, cap }
}

/// Max-min fair rates of the `active` flows sharing `capacity` (bits per second per link direction):
/// each takes `rate * weight` of every direction in its `uses` and is at most its `cap`. Every unfixed
/// flow grows at the same pace until a direction it uses is full or it reaches its cap.
fn water_fill(active: &[usize], models: &[FlowModel], capacity: &[f64]) -> Vec<f64> {
    let n = active.len();
    let mut rate = vec![0.0; n];
    let mut fixed = vec![false; n];
    let mut left = capacity.to_vec();
    let mut load = vec![0.0; left.len()];
    // Each round fixes at least one flow.
    for _ in 0..n {
        load.iter_mut().for_each(|w| *w = 0.0);
        for (k, &i) in active.iter().enumerate() {
            if !fixed[k] {
                for &(d, w) in &models[i].uses {
                    load[d] += w;
                }
            }
        }
        let mut step = f64::INFINITY;
        for (d, &w) in load.iter().enumerate() {
            if w > 0.0 {
                step = step.min(left[d].max(0.0) / w);
            }
        }
        for (k, &i) in active.iter().enumerate() {
            if !fixed[k] {
                step = step.min(models[i].cap - rate[k]);
            }
        }
        if !step.is_finite() {
            // Flows with neither a link nor a cap: nothing bounds them; give them nothing rather than
            // infinity (a validated flow always crosses a link).
            break;
        }
        for (k, &i) in active.iter().enumerate() {
            if !fixed[k] {
                rate[k] += step;
                for &(d, w) in &models[i].uses {
                    left[d] -= step * w;
                }
            }
        }
        let full = |d: usize| left[d] <= capacity[d].abs() * 1e-9;
        let mut any = false;
        for (k, &i) in active.iter().enumerate() {
            let m = &models[i];
            if !fixed[k] && (rate[k] >= m.cap * (1.0 - 1e-12) || m.uses.iter().any(|&(d, _)| full(d))) {
                fixed[k] = true;
                any = true;
            }
        }
        if !any || fixed.iter().all(|f| *f) {
            break;
        }
    }
    rate
}

/// Most stretches of simulated time the model computes rates for besides those cut by scenario events:
/// beyond this many starts and stops the stretches are a uniform grid instead, and a flow or source
/// counts where it is active at a stretch's middle, for the part of the stretch it is active. This keeps
/// the estimate to a fraction of a second with ten thousand flows starting at different times.
const MAX_STRETCHES: usize = 500;

/// Estimates the work of a run of `sc` (valid, as every `Scenario` is).
pub fn estimate(sc: &Scenario) -> Estimate {
    let graph = Graph::new(sc.nodes.len(), &sc.links);
    let end = sc.duration;
    let pkt_bits = sc.packet_size as f64 * 8.0;
    let mut dirs: Vec<Dir> = sc
        .links
        .iter()
        .flat_map(|l| l.dir.iter())
        .map(|d| Dir {
            bps: d.bandwidth_bps,
            delay: secs(d.delay),
            loss: d.loss,
            up: true,
            buffer_pkts: match d.buffer {
                Buffer::Packets(n) => n as f64,
                Buffer::Bytes(b) => b as f64 / sc.packet_size as f64,
            },
            hop_events: if d.is_managed() { 2.0 } else { 1.0 },
        })
        .collect();
    let mut fwd: Vec<Vec<usize>> = sc.flows.iter().map(|f| dirs_of(&graph, &f.path)).collect();
    let mut rev: Vec<Vec<usize>> = sc.flows.iter().map(|f| dirs_of(&graph, &f.reverse_path)).collect();
    let src_paths: Vec<Vec<usize>> = sc.traffic.iter().map(|t| dirs_of(&graph, &t.path)).collect();
    let payload = (sc.packet_size - sc.header_size).max(1) as u64;
    let mut remaining: Vec<f64> =
        sc.flows.iter().map(|f| f.bytes.map_or(f64::INFINITY, |b| b.div_ceil(payload) as f64)).collect();
    // What each flow's controller asks of the engine: a pacing timer, a periodic tick.
    let (paced, ticks): (Vec<bool>, Vec<Option<f64>>) = sc
        .flows
        .iter()
        .map(|f| {
            let ctx = FlowContext::new(f.transport.initial_window);
            let cc = crate::cc::build_controller(f.algorithm, &f.params, &ctx);
            (f.transport.pacing && cc.paces(), cc.tick_interval().map(|t| secs(t.max(1))))
        })
        .unzip();

    // Stretches of constant rates: cut at every start and stop (or on a grid, beyond MAX_STRETCHES)
    // and at every scenario event.
    let mut cuts: Vec<Time> = vec![0, end];
    cuts.extend(sc.flows.iter().flat_map(|f| [f.start, f.stop]));
    cuts.extend(sc.traffic.iter().flat_map(|t| [t.start, t.stop]));
    cuts.retain(|t| *t <= end);
    cuts.sort_unstable();
    cuts.dedup();
    if cuts.len() > MAX_STRETCHES + 1 {
        let n = MAX_STRETCHES as u128;
        cuts = (0..=n).map(|k| (end as u128 * k / n) as Time).collect();
    }
    cuts.extend(sc.events.iter().map(|e| e.at).filter(|t| *t <= end));
    cuts.sort_unstable();
    cuts.dedup();
    // The part of [t0, t1) within [start, stop), in seconds.
    let overlap =
        |start: Time, stop: Time, t0: Time, t1: Time| secs(t1.min(stop).saturating_sub(t0.max(start)));
    let mut order: Vec<usize> = (0..sc.events.len()).collect();
    order.sort_by_key(|&i| sc.events[i].at);
    let mut next_event = 0;

    let (mut data, mut acks, mut datagrams) = (0.0, 0.0, 0.0);
    let mut events = (sc.flows.len() * 2 + sc.events.len()) as f64;
    let mut profile = vec![(0.0, 0.0)];
    let mut peak_queue = vec![0.0f64; dirs.len()];
    let mut peak_window = vec![0.0f64; sc.flows.len()];
    let sample_every = secs(sc.sample_interval.max(1));
    let mut models: Vec<FlowModel> =
        (0..sc.flows.len()).map(|i| flow_model(sc, i, &dirs, &fwd[i], &rev[i])).collect();
    let demand: Vec<f64> = sc
        .traffic
        .iter()
        .map(|t| match t.kind {
            TrafficKind::Cbr { rate_bps } => rate_bps,
            TrafficKind::OnOff { rate_bps, mean_on, mean_off } => {
                rate_bps * secs(mean_on) / (secs(mean_on) + secs(mean_off)).max(1e-12)
            }
        })
        .collect();
    for w in cuts.windows(2) {
        let (t0, t1) = (w[0], w[1]);
        let mid = t0 + (t1 - t0) / 2;
        let mut changed = false;
        while next_event < order.len() && sc.events[order[next_event]].at <= t0 {
            apply(&sc.events[order[next_event]].kind, &graph, &mut dirs, &mut fwd, &mut rev);
            next_event += 1;
            changed = true;
        }
        if changed {
            models = (0..sc.flows.len()).map(|i| flow_model(sc, i, &dirs, &fwd[i], &rev[i])).collect();
        }
        let dt = secs(t1 - t0);
        let mut stretch = dt / sample_every;
        let capacity: Vec<f64> = dirs.iter().map(|d| if d.up { d.bps } else { 0.0 }).collect();

        // Sources first: they do not yield. Offered load per direction, then each source's share at each
        // of its hops: the least fraction of its packets any hop so far accepted.
        let active_src: Vec<usize> = (0..sc.traffic.len())
            .filter(|&i| sc.traffic[i].start <= mid && mid < sc.traffic[i].stop)
            .collect();
        let mut offered = vec![0.0; dirs.len()];
        for &s in &active_src {
            for &d in &src_paths[s] {
                offered[d] += demand[s];
            }
        }
        let mut left = capacity.clone();
        for &s in &active_src {
            let t = &sc.traffic[s];
            let bits = t.packet_size as f64 * 8.0;
            let on = overlap(t.start, t.stop, t0, t1);
            let sent = demand[s] * on / bits;
            datagrams += sent;
            stretch += sent;
            if let TrafficKind::OnOff { mean_on, mean_off, .. } = t.kind {
                stretch += 2.0 * on / (secs(mean_on) + secs(mean_off)).max(1e-12);
            }
            let mut share = 1.0f64;
            for &d in &src_paths[s] {
                let fits = if offered[d] > 0.0 { (capacity[d] / offered[d]).min(1.0) } else { 1.0 };
                share = share.min(fits);
                stretch += sent * share * dirs[d].hop_events;
                left[d] -= demand[s] * share;
                let excess = (offered[d] - capacity[d]).max(0.0) * dt / bits;
                peak_queue[d] = peak_queue[d].max(excess.min(dirs[d].buffer_pkts));
            }
        }

        // Flows share what is left.
        let active: Vec<usize> = (0..sc.flows.len())
            .filter(|&i| sc.flows[i].start <= mid && mid < sc.flows[i].stop && remaining[i] > 0.0)
            .collect();
        let rates = water_fill(&active, &models, &left);
        let mut used = vec![0.0; dirs.len()];
        let mut ack_load = vec![0.0; dirs.len()];
        for (&i, &rate) in active.iter().zip(&rates) {
            for &d in &fwd[i] {
                used[d] += rate;
            }
            for &d in &rev[i] {
                ack_load[d] += rate * models[i].ack_bits;
            }
        }
        // The fraction of the ACKs offered to a direction that it carries.
        let ack_fits: Vec<f64> =
            (0..dirs.len())
                .map(|d| {
                    if ack_load[d] > 0.0 {
                        ((left[d] - used[d]).max(0.0) / ack_load[d]).min(1.0)
                    } else {
                        1.0
                    }
                })
                .collect();
        let mut windows = vec![0.0; dirs.len()];
        for (&i, &rate) in active.iter().zip(&rates) {
            let f = &sc.flows[i];
            let rtt = models[i].rtt;
            let on = overlap(f.start, f.stop, t0, t1);
            let pkts = (rate * on / pkt_bits).min(remaining[i]);
            remaining[i] -= pkts;
            let a = if f.transport.delayed_ack { pkts / 2.0 } else { pkts };
            data += pkts;
            acks += a;
            stretch += pkts * fwd[i].iter().map(|&d| dirs[d].hop_events).sum::<f64>();
            let mut share = 1.0f64;
            for &d in &rev[i] {
                share = share.min(ack_fits[d]);
                stretch += a * share * dirs[d].hop_events;
            }
            if paced[i] {
                stretch += pkts;
            }
            if let Some(iv) = ticks[i] {
                stretch += on / iv;
            }
            stretch += on / secs(f.transport.min_rto).max(rtt).max(1e-3);
            let bdp = rate * rtt / pkt_bits;
            let queue = fwd[i].iter().map(|&d| dirs[d].buffer_pkts).fold(f64::INFINITY, f64::min);
            let window = (bdp + queue).min(f.transport.receiver_window as f64);
            peak_window[i] = peak_window[i].max(window);
            for &d in &fwd[i] {
                windows[d] += window;
            }
        }
        // A direction the flows fill holds a queue: at most its buffer, at most the windows through it.
        for d in 0..dirs.len() {
            if used[d] > 0.0 && used[d] >= left[d] * (1.0 - 1e-6) {
                peak_queue[d] = peak_queue[d].max(dirs[d].buffer_pkts.min(windows[d]));
            }
        }
        events += stretch;
        profile.push((secs(t1), events));
    }
    let memory = memory(sc, &dirs, &peak_queue, &peak_window);
    Estimate {
        data_packets: data,
        acks,
        datagrams,
        events,
        memory,
        max_events: sc.limits.max_events,
        profile,
    }
}

/// Algorithms whose loss response `loss_response` knows, and those `yields_to_acks` names (a test checks
/// every name is in the registry, so a renamed algorithm cannot silently leave the model).
const LOSS_RESPONSE: &[&str] = &["reno", "newreno", "sctp", "vegas", "vegas-alt", "cubic"];
const YIELD_TO_ACKS: &[&str] = &["vegas", "rttbased", "fast", "vfast", "rrfast", "mfast", "emfast"];

/// Packets per second an algorithm keeps up under random loss `p` at round trip `rtt`, for those whose
/// loss response is known: one packet more per RTT and half the window per loss (Reno, NewReno, SCTP,
/// Vegas: the Mathis et al. 1997 rate `sqrt(3/2p) / RTT`), and CUBIC (RFC 9438 §5.1's average window
/// `1.054 (RTT/p^3)^(1/4)`, at least Reno's). None (no cap) for the others: FAST and its family return to
/// their equilibrium within a few RTTs of a loss, BBR does not react to loss below its threshold.
fn loss_response(algorithm: &str, p: f64, rtt: f64) -> Option<f64> {
    if p <= 0.0 {
        return None;
    }
    let reno = (1.5 / p).sqrt() / rtt;
    match algorithm {
        "cubic" => Some(reno.max(1.054 * (rtt / p.powi(3)).powf(0.25) / rtt)),
        a if LOSS_RESPONSE.contains(&a) => Some(reno),
        _ => None,
    }
}

/// Whether an algorithm slows down when its ACKs queue: those that take the round trip's delay as their
/// congestion signal (Vegas, RTT-based, FAST and its family). Loss-based ones (Reno, NewReno, SCTP,
/// CUBIC), BBR and the ALT variants (which measure the forward trip only) keep sending while the ACKs
/// that do not fit the reverse path are dropped (a later cumulative ACK covers them).
fn yields_to_acks(algorithm: &str) -> bool {
    YIELD_TO_ACKS.contains(&algorithm)
}

/// Round trip of a flow with empty queues: propagation both ways and one serialisation per hop.
fn base_rtt(sc: &Scenario, dirs: &[Dir], fwd: &[usize], rev: &[usize], flow: usize) -> f64 {
    let ser = |bits: f64, d: &Dir| if d.bps > 0.0 { bits / d.bps } else { 0.0 };
    let data_bits = sc.packet_size as f64 * 8.0;
    let ack_bits = sc.flows[flow].ack_size as f64 * 8.0;
    fwd.iter().map(|&d| dirs[d].delay + ser(data_bits, &dirs[d])).sum::<f64>()
        + rev.iter().map(|&d| dirs[d].delay + ser(ack_bits, &dirs[d])).sum::<f64>()
}

/// A scenario event's effect on the model.
fn apply(kind: &EventKind, graph: &Graph, dirs: &mut [Dir], fwd: &mut [Vec<usize>], rev: &mut [Vec<usize>]) {
    match kind {
        EventKind::Reroute { flow, path, reverse_path } => {
            if let Some(p) = path {
                fwd[*flow as usize] = dirs_of(graph, p);
            }
            if let Some(p) = reverse_path {
                rev[*flow as usize] = dirs_of(graph, p);
            }
        }
        EventKind::Link { link, dirs: which, bandwidth_bps, delay, loss, up } => {
            for (k, on) in which.iter().enumerate() {
                if !on {
                    continue;
                }
                let d = &mut dirs[super::dir_index(*link, k as u8) as usize];
                if let Some(b) = bandwidth_bps {
                    d.bps = *b;
                }
                if let Some(t) = delay {
                    d.delay = secs(*t);
                }
                if let Some(p) = loss {
                    d.loss = *p;
                }
                if let Some(u) = up {
                    d.up = *u;
                }
            }
        }
    }
}

/// The budget's memory estimate (`Simulation::memory_estimate`) at the model's peak: the time series'
/// worst case, every link direction's ring holding its bandwidth-delay product plus its peak queue, every
/// flow's state with its peak window outstanding, and one pending event per timer and direction.
fn memory(sc: &Scenario, dirs: &[Dir], peak_queue: &[f64], peak_window: &[f64]) -> u64 {
    let (flow_series, dense) = series_count(sc);
    let series = series_bytes(flow_series, dense, sc);
    let pkt_bits = sc.packet_size as f64 * 8.0;
    let rings: u64 = dirs
        .iter()
        .zip(peak_queue)
        .map(|(d, q)| {
            let wire = d.bps * d.delay / pkt_bits + 1.0;
            ((wire + q).min(1e12) as u64).next_power_of_two() * size_of::<InFlight>() as u64
        })
        .sum();
    let flows: u64 = peak_window
        .iter()
        .map(|w| size_of::<Flow>() as u64 + FLOW_OVERHEAD + (w.min(1e12) as u64) * PER_OUTSTANDING_PACKET)
        .sum();
    let pending = (sc.flows.len() * 4 + dirs.len() + sc.traffic.len() + sc.events.len() + 1) as u64;
    series + rings + flows + pending * size_of::<(u128, Event)>() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(text: &str) -> Scenario {
        crate::scenario::from_toml_str(text, "t.toml").unwrap_or_else(|e| panic!("{}", e.join("\n")))
    }

    const DUMBBELL: &str = r#"
name = "d"
duration = "10s"
packet_size = 1000
sample_interval = "1s"
[[links]]
a = "s"
b = "r"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
id = "bn"
a = "r"
b = "d"
bandwidth = "10Mbps"
delay = "10ms"
"#;

    fn flow(id: &str, extra: &str) -> String {
        format!("[[flows]]\nid = \"{id}\"\nalgorithm = \"newreno\"\nsrc = \"s\"\ndst = \"d\"\n{extra}\n")
    }

    #[test]
    fn every_algorithm_the_model_names_is_registered() {
        for name in LOSS_RESPONSE.iter().chain(YIELD_TO_ACKS) {
            assert!(crate::cc::registry::algorithm(name).is_some(), "{name} is not an algorithm");
        }
    }

    #[test]
    fn one_flow_fills_its_bottleneck() {
        let e = estimate(&scenario(&(DUMBBELL.to_string() + &flow("f", ""))));
        // 10 Mbps for 10 s in 1000-byte packets; an ACK each; two hops each way.
        assert!((e.data_packets - 12_500.0).abs() < 1.0, "{e:?}");
        assert!((e.acks - 12_500.0).abs() < 1.0);
        assert!(e.events > 4.0 * 12_500.0 && e.events < 4.0 * 12_500.0 + 100.0, "{}", e.events);
        assert_eq!(e.profile.first(), Some(&(0.0, 0.0)));
        assert_eq!(e.profile.last(), Some(&(10.0, e.events)));
    }

    #[test]
    fn flows_share_and_a_late_flow_bends_the_profile_only_by_its_timers() {
        let two = DUMBBELL.to_string() + &flow("a", "") + &flow("b", "start = \"5s\"");
        let e = estimate(&scenario(&two));
        assert!((e.data_packets - 12_500.0).abs() < 1.0, "the bottleneck is shared, not doubled");
        assert_eq!(e.profile.iter().map(|p| p.0).collect::<Vec<_>>(), vec![0.0, 5.0, 10.0]);
    }

    #[test]
    fn a_finite_transfer_stops_at_its_size_and_delayed_acks_halve_the_acks() {
        let text = DUMBBELL.to_string() + "[transport]\ndelayed_ack = true\n" + &flow("f", "bytes = \"1MB\"");
        let e = estimate(&scenario(&text));
        let mss: f64 = 1000.0 - 40.0;
        assert!((e.data_packets - (1e6 / mss).ceil()).abs() < 1.0, "{e:?}");
        assert!((e.acks - e.data_packets / 2.0).abs() < 1.0);
    }

    #[test]
    fn a_source_over_capacity_is_cut_at_the_bottleneck_and_starves_the_flow() {
        let text = DUMBBELL.to_string()
            + &flow("f", "")
            + "[[traffic]]\nkind = \"cbr\"\nsrc = \"s\"\ndst = \"d\"\nrate = \"20Mbps\"\n";
        let e = estimate(&scenario(&text));
        assert!(e.data_packets < 1.0, "{e:?}");
        assert!((e.datagrams - 25_000.0).abs() < 1.0);
        // Its timer and first hop for every packet, the second hop for the half that fits.
        let hops = 25_000.0 * 2.0 + 12_500.0;
        assert!(e.events > hops && e.events < hops + 100.0, "{}", e.events);
    }

    #[test]
    fn random_loss_caps_a_flow_at_the_mathis_rate() {
        let text = DUMBBELL.replace("delay = \"10ms\"", "delay = \"10ms\"\nloss = 0.01") + &flow("f", "");
        let e = estimate(&scenario(&text));
        let rtt = 2.0 * (0.001 + 0.010) + 8000.0 / 100e6 + 8000.0 / 10e6 + 320.0 / 100e6 + 320.0 / 10e6;
        let expected = (1.5f64 / 0.01).sqrt() / rtt * 10.0;
        assert!((e.data_packets - expected).abs() < 1.0, "{} vs {expected}", e.data_packets);
    }

    #[test]
    fn a_thin_reverse_path_bounds_vegas_by_its_acks_but_not_newreno() {
        // 80 kbps back: 250 ACKs of 40 bytes per second.
        let thin = DUMBBELL.replace("delay = \"10ms\"", "delay = \"10ms\"\nreverse_bandwidth = \"80kbps\"");
        let vegas = estimate(&scenario(&(thin.clone() + &flow("f", "").replace("newreno", "vegas"))));
        assert!((vegas.data_packets - 2_500.0).abs() < 1.0, "{vegas:?}");
        let newreno = estimate(&scenario(&(thin + &flow("f", ""))));
        assert!((newreno.data_packets - 12_500.0).abs() < 1.0, "{newreno:?}");
        // The thin direction is the ACKs' first hop: it takes a fifth of them, and they cross the second.
        let acks = 2_500.0 * 2.0;
        assert!(newreno.events > 12_500.0 * 2.0 + acks && newreno.events < 12_500.0 * 2.0 + acks + 100.0);
    }

    #[test]
    fn beyond_max_stretches_the_stretches_are_a_grid_and_the_work_stays_the_same() {
        // 1000 flows starting one every 10 ms: the bottleneck is full from the first start on.
        let flows: String =
            (0..1000).map(|i| flow(&format!("f{i}"), &format!("start = \"{}ms\"", i * 10))).collect();
        let e = estimate(&scenario(&(DUMBBELL.to_string() + &flows)));
        assert_eq!(e.profile.len(), MAX_STRETCHES + 1);
        assert!((e.data_packets - 12_500.0).abs() < 12_500.0 * 0.01, "{}", e.data_packets);
    }

    #[test]
    fn a_link_down_stops_its_flows_until_it_is_up() {
        let text = DUMBBELL.to_string()
            + &flow("f", "")
            + "[[events]]\nat = \"2s\"\nkind = \"link\"\nlink = \"bn\"\nup = false\n"
            + "[[events]]\nat = \"7s\"\nkind = \"link\"\nlink = \"bn\"\nup = true\n";
        let e = estimate(&scenario(&text));
        assert!((e.data_packets - 12_500.0 * 0.5).abs() < 1.0, "{e:?}");
    }
}
