//! Extreme but valid parameters run correctly (every invariant of `invariants::check` holds, and what the
//! extreme implies is visible in the results) or are refused with a reason.

mod invariants;

use delaycc_sim::scenario;
use delaycc_sim::sim::summary_json;
use delaycc_sim::{Outcome, Simulation};
use serde_json::Value;
use std::time::Duration;

/// One flow s -> d over a single link with the given properties (TOML lines).
fn one_link(duration: &str, link: &str, flow: &str, top: &str) -> String {
    format!(
        "name = \"extreme\"\nduration = {duration}\n{top}\n\
         [[links]]\nid = \"l\"\na = \"s\"\nb = \"d\"\n{link}\n\
         [[flows]]\nid = \"f\"\nsrc = \"s\"\ndst = \"d\"\n{flow}\n"
    )
}

/// Validates, runs (within 60 s of wall time), checks every invariant; returns the simulation and summary.
fn run_checked(text: &str) -> (Simulation, Value) {
    let sc = scenario::from_toml_str(text, "extreme.toml").unwrap_or_else(|e| panic!("refused: {e:?}"));
    let sim = invariants::run(sc, Duration::from_secs(60)).unwrap_or_else(|e| panic!("{e}"));
    invariants::check(&sim).unwrap_or_else(|e| panic!("{e}"));
    let summary = summary_json(&sim, Outcome::Completed, 0.0);
    (sim, summary)
}

fn flow(summary: &Value) -> &Value {
    &summary["flows"][0]
}

fn link(summary: &Value, direction: &str) -> Value {
    summary["links"]
        .as_array()
        .and_then(|l| l.iter().find(|r| r["direction"] == direction).cloned())
        .unwrap_or(Value::Null)
}

#[test]
fn a_one_bit_per_second_link_delivers_nothing_in_ten_seconds() {
    // A 1000-byte packet takes 8000 s to serialise at 1 bps.
    let (_, s) =
        run_checked(&one_link("10", "bandwidth = 1\ndelay = \"1ms\"", "algorithm = \"newreno\"", ""));
    assert_eq!(flow(&s)["received_pkts"], 0);
    assert_eq!(flow(&s)["throughput_bps"], 0.0);
    assert!((link(&s, "a->b")["utilization"].as_f64().unwrap() - 1.0).abs() < 1e-9, "busy all along");
}

#[test]
fn a_one_bit_per_second_link_is_exact_over_a_long_run() {
    // 100 bytes of wire each (64-byte packets, 36 bytes of payload... and 40-byte ACKs back at 1 bps).
    // Exact timing: no SYN exchange, initial window one (common::legacy_transport's settings).
    let text = one_link(
        "20000",
        "bandwidth = 1\ndelay = 0",
        "algorithm = \"reno\"\nbytes = 24",
        "packet_size = 64\nprofile = \"linux\"\n[transport]\ninitial_window = 1\nlimited_transmit = false\nrtt_tick = \"1ns\"",
    );
    let (_, s) = run_checked(&text);
    let f = flow(&s);
    assert_eq!(f["delivered_bytes"], 24);
    // One 512-bit packet at 1 bps: delivered at t = 512 s.
    assert!((f["completion_time_s"].as_f64().unwrap() - 512.0).abs() < 1e-6, "{f}");
}

#[test]
fn a_hundred_gigabit_link_runs_at_its_rate() {
    let text = one_link(
        "0.01",
        "bandwidth = \"100Gbps\"\ndelay = \"1ms\"\nbuffer = 10000",
        "algorithm = \"fast\"",
        "",
    ) + "[[traffic]]\nkind = \"cbr\"\nsrc = \"s\"\ndst = \"d\"\nrate = \"150Gbps\"\n";
    let (_, s) = run_checked(&text);
    let l = link(&s, "a->b");
    assert!(l["utilization"].as_f64().unwrap() > 0.99, "{l}");
    let cbr = s["traffic"][0]["throughput_bps"].as_f64().unwrap();
    // The first packets arrive after the 1 ms delay: 9 ms of 10 carry traffic.
    assert!((85e9..=90e9).contains(&cbr), "{cbr}");
}

#[test]
fn zero_delay_links_give_round_trips_of_serialisation_only() {
    let (_, s) =
        run_checked(&one_link("1", "bandwidth = \"10Mbps\"\ndelay = 0", "algorithm = \"vegas\"", ""));
    // 1000-byte packet + 40-byte ACK at 10 Mbps: 832 us.
    let min_rtt = flow(&s)["min_rtt_s"].as_f64().unwrap();
    assert!((min_rtt - 832e-6).abs() < 1e-9, "{min_rtt}");
}

#[test]
fn ten_second_delays() {
    let (_, s) =
        run_checked(&one_link("100", "bandwidth = \"1Mbps\"\ndelay = \"10s\"", "algorithm = \"fast\"", ""));
    let f = flow(&s);
    let min_rtt = f["min_rtt_s"].as_f64().unwrap();
    assert!((20.0..20.1).contains(&min_rtt), "{min_rtt}");
    assert!(f["received_pkts"].as_u64().unwrap() > 0);
}

#[test]
fn a_one_packet_buffer() {
    let text =
        one_link("5", "bandwidth = \"10Mbps\"\ndelay = \"10ms\"\nbuffer = 1", "algorithm = \"newreno\"", "");
    let (_, s) = run_checked(&text);
    let l = link(&s, "a->b");
    assert!(l["max_queue_pkts"].as_f64().unwrap() <= 1.0);
    assert!(l["drops"].as_u64().unwrap() > 0, "slow start overflows a one-packet buffer");
    assert!(flow(&s)["throughput_bps"].as_f64().unwrap() > 0.0);
}

#[test]
fn fast_with_alpha_a_million() {
    let text = one_link(
        "2",
        "bandwidth = \"10Mbps\"\ndelay = \"10ms\"\nbuffer = 100",
        "algorithm = \"fast\"\nparams = { alpha = 1e6 }",
        "",
    );
    let (_, s) = run_checked(&text);
    assert!(flow(&s)["throughput_bps"].as_f64().unwrap() > 5e6, "the link is kept busy");
}

#[test]
fn ten_thousand_flows() {
    let mut text = String::from(
        "name = \"crowd\"\nduration = \"20ms\"\n\
         [[links]]\na = \"s\"\nb = \"r\"\nbandwidth = \"10Gbps\"\ndelay = \"1ms\"\n\
         [[links]]\na = \"r\"\nb = \"d\"\nbandwidth = \"1Gbps\"\ndelay = \"1ms\"\nbuffer = 10000\n",
    );
    let algs = ["newreno", "fast", "vegas", "rttbased"];
    for i in 0..10_000 {
        text += &format!(
            "[[flows]]\nid = \"f{i}\"\nalgorithm = \"{}\"\nsrc = \"s\"\ndst = \"d\"\n",
            algs[i % algs.len()]
        );
    }
    let (sim, s) = run_checked(&text);
    assert_eq!(sim.flows().len(), 10_000);
    let delivered: u64 =
        s["flows"].as_array().unwrap().iter().map(|f| f["received_pkts"].as_u64().unwrap()).sum();
    assert!(delivered > 1000, "{delivered}");
}

#[test]
fn one_byte_payloads() {
    let text = one_link(
        "5",
        "bandwidth = \"1Mbps\"\ndelay = \"5ms\"",
        "algorithm = \"newreno\"\nbytes = 300",
        "packet_size = 64\nheader_size = 63",
    );
    let (_, s) = run_checked(&text);
    let f = flow(&s);
    assert_eq!(f["delivered_bytes"], 300);
    assert_eq!(f["received_pkts"], 300);
    assert!(f["completion_time_s"].is_number());
}

#[test]
fn a_link_that_loses_everything() {
    let text =
        one_link("200", "bandwidth = \"1Mbps\"\ndelay = \"5ms\"\nloss = 1.0", "algorithm = \"fast\"", "");
    let (_, s) = run_checked(&text);
    let f = flow(&s);
    assert_eq!(f["received_pkts"], 0);
    // RTO backs off: 1 s, 2, 4, ..., capped at 60 s.
    let timeouts = f["timeouts"].as_u64().unwrap();
    assert!((4..=8).contains(&timeouts), "{timeouts}");
}

#[test]
fn sampling_every_nanosecond() {
    let text = one_link(
        "\"10us\"",
        "bandwidth = \"1Gbps\"\ndelay = 0",
        "algorithm = \"newreno\"",
        "sample_interval = \"1ns\"",
    );
    let (sim, _) = run_checked(&text);
    // 10 000 sampling instants: the recorder's bound halves the resolution and keeps between half the
    // bound and the bound.
    let (n, bound) = (sim.recorder().times.len(), delaycc_sim::measure::resolution::DEFAULT_MAX_SAMPLES);
    assert!(n > bound / 2 && n <= bound, "{n} samples");
}

#[test]
fn the_largest_receiver_clock_offsets() {
    for offset in ["-1e6", "1e6"] {
        let text = one_link(
            "1",
            "bandwidth = \"10Mbps\"\ndelay = \"10ms\"",
            &format!("algorithm = \"fast-alt\"\ntransport = {{ receiver_clock_offset = {offset} }}"),
            "",
        );
        let (_, s) = run_checked(&text);
        let min_rtt = flow(&s)["min_rtt_s"].as_f64().unwrap();
        assert!((0.02..0.03).contains(&min_rtt), "offset {offset}: {min_rtt}");
    }
}

#[test]
fn the_most_streams_and_the_largest_packets() {
    let text = one_link(
        "1",
        "bandwidth = \"1Gbps\"\ndelay = \"1ms\"",
        "algorithm = \"emfast\"\nstreams = 65535",
        "packet_size = \"1MB\"",
    );
    let (_, s) = run_checked(&text);
    assert_eq!(flow(&s)["streams"], 65535);
}

#[test]
fn a_one_nanosecond_run() {
    let (sim, _) =
        run_checked(&one_link("\"1ns\"", "bandwidth = \"1Gbps\"\ndelay = 0", "algorithm = \"sctp\"", ""));
    assert_eq!(sim.recorder().times, vec![1e-9]);
}

#[test]
fn time_series_beyond_memory_are_refused_with_a_reason() {
    // 10 million samples of 3 flows' 30 series (and two bitmap words), the link's 6 (in a tile of 8) and
    // the time: 3.05 GiB.
    let mut text = one_link(
        "1e5",
        "bandwidth = \"1Gbps\"\ndelay = 0",
        "algorithm = \"fast\"",
        "sample_interval = \"10ms\"\nmax_samples = 10000000",
    );
    text += "[[flows]]\nsrc = \"s\"\ndst = \"d\"\nalgorithm = \"reno\"\n";
    text += "[[flows]]\nsrc = \"s\"\ndst = \"d\"\nalgorithm = \"vegas\"\n";
    let errors = scenario::from_toml_str(&text, "big.toml").expect_err("too many samples");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(
            "big.toml:4: max_samples: the time series would take 3.05 GiB (36 series x 10000000 samples)"
        ) && errors[0].ends_with("use a smaller max_samples"),
        "{errors:?}"
    );
}

#[test]
fn the_sample_bound_keeps_a_long_fine_run_within_memory() {
    // The run refused above, with the default bound: at most 4000 samples per series, accepted.
    let text = one_link(
        "1e5",
        "bandwidth = \"1Gbps\"\ndelay = 0",
        "algorithm = \"fast\"",
        "sample_interval = \"10ms\"",
    );
    assert!(scenario::from_toml_str(&text, "long.toml").is_ok());
}
