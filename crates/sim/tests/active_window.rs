//! Throughput and goodput count what arrives within the flow's (or source's) active time, so they never
//! exceed what the path can carry: packets sent before `stop`, RTO copies of a transfer that already
//! completed and a source's queued packets all arrive after the active time ends and are not counted
//! (docs/modelling.md, Measurement). The property tests (fuzz_run.rs) check the same bound on random
//! scenarios; these are the cases they first found.

use delaycc_sim::{run_scenario, scenario};
use serde_json::Value;

fn summary(text: &str) -> Value {
    // These counts depend on the transport (initial window, SYN, RTO values): pin the one they were
    // written for (see tests/common/mod.rs `legacy_transport`).
    let text = format!("profile = \"linux\"\n{text}\n[transport]\ninitial_window = 1\nlimited_transmit = false\nrtt_tick = \"1ns\"\n");
    let sc = scenario::from_toml_str(&text, "window.toml").expect("valid");
    run_scenario(sc, |_| true).summary
}

fn number(row: &Value, key: &str) -> f64 {
    row[key].as_f64().unwrap_or_else(|| panic!("{key} in {row}"))
}

const ONE_MBPS: &str = r#"
[[links]]
a = "s"
b = "d"
bandwidth = "1Mbps"
delay = 0
"#;

/// One 8000-bit packet needs 8 ms at 1 Mbps; the flow stops after 1 ms. The packet still arrives (and is
/// received) but not within the active time: counting it gave 8 Mbps on a 1 Mbps link.
#[test]
fn a_packet_arriving_after_stop_is_received_but_not_counted() {
    let text = format!("name = \"stopped\"\nduration = \"1s\"\n{ONE_MBPS}[[flows]]\nalgorithm = \"reno\"\nsrc = \"s\"\ndst = \"d\"\nstop = \"1ms\"\n");
    let s = summary(&text);
    let f = &s["flows"][0];
    assert_eq!((number(f, "active_s"), f["received_pkts"].as_u64()), (0.001, Some(1)));
    assert_eq!((number(f, "throughput_bps"), number(f, "goodput_bps")), (0.0, 0.0));
}

/// A flow stopped after 2 s of a 1 Mbps link keeps it busy until then: its throughput is the link's
/// capacity less slow start, and what drains after `stop` does not push it above.
#[test]
fn a_stopped_bulk_flow_is_within_the_capacity_and_close_to_it() {
    let text = format!("name = \"stopped-bulk\"\nduration = \"4s\"\n{ONE_MBPS}[[flows]]\nalgorithm = \"newreno\"\nsrc = \"s\"\ndst = \"d\"\nstop = \"2s\"\n");
    let s = summary(&text);
    let f = &s["flows"][0];
    let (tput, goodput) = (number(f, "throughput_bps"), number(f, "goodput_bps"));
    assert!(tput <= 1e6 && tput > 0.9e6, "throughput {tput}");
    assert!(goodput <= tput && goodput > 0.85e6, "goodput {goodput}");
    let whole_run_bits = f["received_pkts"].as_f64().unwrap() * 8000.0;
    assert!(whole_run_bits > tput * 2.0, "packets queued at stop arrive later and are still received");
}

/// One 1000-byte packet over 1 kbps takes 8 s; RTOs at 1, 3 and 7 s queue three more copies behind it,
/// delivered at 16, 24 and 32 s. The transfer completed at 8 s: its throughput is the one copy that
/// completed it over 8 s, exactly the link's capacity, not 4 x 8000 bits / 8 s.
#[test]
fn copies_arriving_after_a_transfer_completed_are_not_counted() {
    let text = r#"
name = "finished-transfer"
duration = "60s"
[[links]]
a = "s"
b = "d"
bandwidth = "1kbps"
delay = 0
[[flows]]
algorithm = "reno"
src = "s"
dst = "d"
bytes = 960
"#;
    let s = summary(text);
    let f = &s["flows"][0];
    assert_eq!(number(f, "active_s"), 8.0);
    assert_eq!(number(f, "completion_time_s"), 8.0);
    assert_eq!(f["received_pkts"], 4, "the retransmitted copies arrived");
    assert_eq!(number(f, "throughput_bps"), 1e3);
    assert_eq!(number(f, "goodput_bps"), 960.0);
}

/// 2 Mbps into a 1 Mbps link for one second queues half of the source's packets, which drain after
/// `stop`. All 250 are delivered; the 124 that arrived before `stop` (the 125th arrives at exactly 1 s)
/// give the throughput.
#[test]
fn a_sources_packets_draining_after_stop_are_delivered_but_not_counted() {
    let text = format!("name = \"stopped-source\"\nduration = \"10s\"\n{ONE_MBPS}[[traffic]]\nkind = \"cbr\"\nsrc = \"s\"\ndst = \"d\"\nrate = \"2Mbps\"\nstop = \"1s\"\n");
    let s = summary(&text);
    let src = &s["traffic"][0];
    assert_eq!(src["delivered_pkts"], 250);
    assert_eq!(number(src, "throughput_bps"), 124.0 * 8000.0);
}

/// A source that runs to the end of the run counts what arrives at its very last instant too, as a flow
/// does: 125 packets of 8 ms each, the last arriving at exactly 1 s.
#[test]
fn a_source_running_to_the_end_counts_the_last_instant() {
    let text = format!("name = \"whole-run-source\"\nduration = \"1s\"\n{ONE_MBPS}[[traffic]]\nkind = \"cbr\"\nsrc = \"s\"\ndst = \"d\"\nrate = \"1Mbps\"\n");
    let s = summary(&text);
    let src = &s["traffic"][0];
    assert_eq!(src["delivered_pkts"], 125);
    assert_eq!(number(src, "throughput_bps"), 1e6);
}

/// A multistream flow's per-stream goodput uses the same window: the streams add up to the flow's.
#[test]
fn per_stream_goodput_adds_up_to_the_flows_within_the_window() {
    let text = format!("name = \"streams\"\nduration = \"3s\"\n{ONE_MBPS}[[flows]]\nalgorithm = \"mfast\"\nsrc = \"s\"\ndst = \"d\"\nstreams = 4\nstop = \"1s\"\n");
    let s = summary(&text);
    let f = &s["flows"][0];
    let streams: f64 = f["stream_stats"].as_array().unwrap().iter().map(|st| number(st, "goodput_bps")).sum();
    let goodput = number(f, "goodput_bps");
    assert!((streams - goodput).abs() <= 1e-6 * goodput, "{streams} vs {goodput}");
    assert!(goodput <= 1e6 && goodput > 0.5e6, "{goodput}");
}
