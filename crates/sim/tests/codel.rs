//! CoDel and FQ-CoDel in whole runs: CoDel keeps one TCP flow's queueing delay near its 5 ms target where
//! drop-tail fills the buffer; FQ-CoDel isolates a TCP flow from an unresponsive source that overloads
//! the bottleneck, where drop-tail gives it the full buffer's delay.

mod common;
mod invariants;

use common::{series, window_mean};
use delaycc_sim::sim::summary_json;
use delaycc_sim::{Outcome, Simulation};
use serde_json::Value;

/// Runs a scenario keeping every sample, checks every invariant (packet conservation among them) and
/// returns the simulation with its summary.
fn run(text: &str) -> (Simulation, Value) {
    let sim = common::run(text);
    invariants::check(&sim).unwrap_or_else(|e| panic!("{e}"));
    let summary = summary_json(&sim, Outcome::Completed, 0.0);
    (sim, summary)
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("no {key} in {v}"))
}

fn bottleneck(summary: &Value) -> &Value {
    summary["links"].as_array().unwrap().iter().find(|r| r["id"] == "bn" && r["direction"] == "a->b").unwrap()
}

/// Hosts (`senders`, each 1 ms and 1 Gbps from r1) -> r1 -> bottleneck `bn` (10 Mbps, 10 ms, `buffer`
/// packets, the discipline given by the TOML lines `queue`) -> r2 -> d (1 ms, 1 Gbps), and a NewReno flow
/// "tcp" from the first host.
fn dumbbell(queue: &str, buffer: u64, senders: &[&str]) -> String {
    let link = |a: &str, b: &str| {
        format!("[[links]]\na = \"{a}\"\nb = \"{b}\"\nbandwidth = \"1Gbps\"\ndelay = \"1ms\"\n")
    };
    let mut s = String::from("name = \"codel\"\nduration = 30\nsample_interval = \"10ms\"\n");
    senders.iter().for_each(|h| s += &link(h, "r1"));
    s += &format!(
        "[[links]]\nid = \"bn\"\na = \"r1\"\nb = \"r2\"\nbandwidth = \"10Mbps\"\ndelay = \"10ms\"\n\
         buffer = {buffer}\n{queue}\n"
    );
    s += &link("r2", "d");
    s + &format!("[[flows]]\nid = \"tcp\"\nalgorithm = \"newreno\"\nsrc = \"{}\"\ndst = \"d\"\n", senders[0])
}

/// One NewReno flow over the bottleneck with a 1000-packet buffer.
fn one_flow(queue: &str) -> String {
    dumbbell(&format!("queue = \"{queue}\""), 1000, &["s"])
}

/// The NewReno flow beside a 12 Mbps CBR source from a second host, with a 500-packet buffer: the CBR
/// source alone overloads the bottleneck. `queue` is the bottleneck's discipline as TOML lines.
fn beside_cbr(queue: &str) -> String {
    dumbbell(queue, 500, &["s0", "s1"])
        + "[[traffic]]\nid = \"cbr\"\nkind = \"cbr\"\nsrc = \"s1\"\ndst = \"d\"\nrate = \"12Mbps\"\n"
}

/// The round trip without queueing on both topologies: 2 x (1 + 10 + 1) ms of propagation, 0.8 ms to
/// serialise a 1000-byte packet at 10 Mbps, and some 50 us for the rest (1 Gbps hops, the 40-byte ACK).
const BASE_RTT: f64 = 0.02485;

#[test]
fn codel_keeps_one_flows_queueing_delay_near_target_where_droptail_fills_the_buffer() {
    let (_, s) = run(&one_flow("codel"));
    let (f, bn) = (&s["flows"][0], bottleneck(&s));
    assert!((num(f, "min_rtt_s") - BASE_RTT).abs() < 1e-4, "base RTT {}", num(f, "min_rtt_s"));
    // Measured: 2.5 ms of mean queueing delay (target 5 ms), 90% utilisation, 52 drops by CoDel.
    let queueing = num(f, "mean_rtt_s") - BASE_RTT;
    assert!(queueing < 3.0 * 0.005, "mean queueing delay {queueing} s");
    assert!(num(bn, "utilization") > 0.85, "{bn}");
    assert!(num(bn, "aqm_drops") > 0.0 && num(bn, "overflow_drops") == 0.0, "{bn}");
    assert!(num(bn, "max_queue_pkts") < 500.0, "{bn}");

    // Drop-tail: NewReno fills the 1000 packets (0.8 s) before each loss. Measured: 0.41 s mean.
    let (_, s) = run(&one_flow("droptail"));
    let (f, bn) = (&s["flows"][0], bottleneck(&s));
    assert_eq!(num(bn, "max_queue_pkts"), 1000.0);
    let queueing = num(f, "mean_rtt_s") - BASE_RTT;
    assert!(queueing > 0.3, "mean queueing delay {queueing} s");
}

const FQ_CODEL: &str = "queue = \"fq_codel\"";

#[test]
fn fq_codel_isolates_a_tcp_flow_from_an_unresponsive_source() {
    // The TCP flow's RTT once the CBR source has had time to fill the buffer (5 s to the end).
    let late_rtt = |sim: &Simulation| window_mean(&series(sim, "tcp", "rtt_s"), 5.0, 30.0);

    let (sim, s) = run(&beside_cbr(FQ_CODEL));
    let (tcp, bn) = (&s["flows"][0], bottleneck(&s));
    // Measured: 4.8 ms above the base RTT, 4.63 Mbps of the 5 Mbps fair share.
    let queueing = late_rtt(&sim) - BASE_RTT;
    assert!(queueing < 0.010, "TCP's queueing delay {queueing} s beside the CBR source");
    assert!(num(tcp, "throughput_bps") > 0.85 * 5e6, "TCP gets {}", num(tcp, "throughput_bps"));
    assert!(num(bn, "utilization") > 0.99, "{bn}");
    // The CBR source's queue is the one CoDel drops from, and the largest one when the buffer overflows.
    assert!(num(bn, "aqm_drops") > 0.0 && num(bn, "overflow_drops") > 0.0, "{bn}");
    assert_eq!(run(&beside_cbr(FQ_CODEL)).1, s, "same seed, same run");

    // With one queue for all flows (flows = 1) it is CoDel on a shared FIFO, which the CBR source keeps
    // long: the isolation comes from the flow queues. Measured: 198 ms.
    let (sim, _) = run(&beside_cbr(&format!("{FQ_CODEL}\nqueue_params = {{ flows = 1 }}")));
    let queueing = late_rtt(&sim) - BASE_RTT;
    assert!(queueing > 0.1, "TCP's queueing delay {queueing} s in a single shared queue");

    // Drop-tail: the buffer stays full, so TCP's packets wait its full 400 ms and it is starved.
    // Measured: 400 ms above the base RTT, 0.14 Mbps.
    let (sim, s) = run(&beside_cbr("queue = \"droptail\""));
    let queueing = late_rtt(&sim) - BASE_RTT;
    assert!(queueing > 0.9 * 0.4, "TCP's queueing delay {queueing} s beside the CBR source");
    assert!(num(&s["flows"][0], "throughput_bps") < 0.5e6);
}
