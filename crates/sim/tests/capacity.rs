//! Link directions whose capacity varies: a mahimahi trace link delivers exactly the trace's
//! opportunities, and a two-state link's long-run rate is its stationary mean.

mod common;

use common::{assert_conserved, run, series};
use std::path::PathBuf;

/// Writes a trace file and returns its absolute path.
fn trace_file(name: &str, lines: &[u64]) -> PathBuf {
    let p = std::env::temp_dir().join(format!("delaycc-capacity-{name}-{}.trace", std::process::id()));
    let text: String = lines.iter().map(|ms| format!("{ms}\n")).collect();
    std::fs::write(&p, text).expect("temp file");
    p
}

/// A saturating 1500-byte CBR source over a link that follows `capacity` (a TOML line), 1 ms sampling.
/// The 0.5 ms propagation delay puts every arrival between two samples (trace opportunities fall on whole
/// milliseconds, as samples do, and which of two events at one instant runs first is not what is tested).
fn saturated(capacity: &str, duration_s: f64) -> String {
    format!(
        r#"
name = "capacity"
duration = {duration_s}
sample_interval = "1ms"
[[links]]
a = "s"
b = "d"
{capacity}
delay = "0.5ms"
buffer = 100000
[[traffic]]
id = "cbr"
kind = "cbr"
src = "s"
dst = "d"
rate = "50Mbps"
packet_size = 1500
"#
    )
}

#[test]
fn a_trace_link_sends_one_packet_per_opportunity_and_repeats() {
    // A 20 ms period with a burst, gaps and a millisecond of three opportunities.
    let lines = [1, 2, 2, 2, 5, 9, 10, 10, 14, 20];
    let path = trace_file("exact", &lines);
    let sim = run(&saturated(&format!("bandwidth_trace = {:?}", path.display().to_string()), 0.2));
    let received = series(&sim, "cbr", "rate_bps");
    // Packets received in each millisecond: sample k (at k + 1 ms) holds those of opportunity k.
    let per_ms: Vec<u64> = received.iter().map(|bps| (bps * 1e-3 / 12_000.0).round() as u64).collect();
    let mut expected = vec![0u64; per_ms.len()];
    for cycle in 0..10 {
        for &ms in &lines {
            if let Some(e) = expected.get_mut((cycle * 20 + ms) as usize) {
                *e += 1;
            }
        }
    }
    // The source starts at 0 and is always backlogged: every opportunity carries one packet, and no
    // millisecond carries more than its opportunities.
    assert_eq!(per_ms, expected);
    // Ten periods: 100 opportunities, less the one at 200 ms, which arrives after the run's end.
    assert_eq!(per_ms.iter().sum::<u64>(), 99);
    assert_conserved(&sim);
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_shipped_trace_is_followed_millisecond_by_millisecond() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/traces/Verizon-LTE-short.down");
    let text = std::fs::read_to_string(&path).expect("shipped trace");
    let ms: Vec<u64> = text.lines().map(|l| l.trim().parse().expect("whole ms")).collect();
    let sim = run(&saturated(&format!("bandwidth_trace = {:?}", path.display().to_string()), 10.0));
    let received = series(&sim, "cbr", "rate_bps");
    let per_ms: Vec<u64> = received.iter().map(|bps| (bps * 1e-3 / 12_000.0).round() as u64).collect();
    let mut expected = vec![0u64; per_ms.len()];
    for t in ms {
        if let Some(e) = expected.get_mut(t as usize) {
            *e += 1;
        }
    }
    // The trace opens with two opportunities at 0 ms, when the source has sent one packet: the other is
    // lost, as mahimahi loses an opportunity nothing waits for. From then on the queue is never empty.
    assert_eq!((expected[0], per_ms[0]), (2, 1));
    let first_difference = per_ms[1..].iter().zip(&expected[1..]).position(|(a, b)| a != b);
    assert_eq!(first_difference, None, "{:?} {:?}", &per_ms[..20], &expected[..20]);
}

#[test]
fn a_two_state_link_averages_its_stationary_rate() {
    let states =
        r#"bandwidth_states = { good = "12Mbps", bad = "2Mbps", mean_good = "200ms", mean_bad = "200ms" }"#;
    let sim = run(&saturated(states, 60.0));
    let per_ms = series(&sim, "s-d:a->b", "throughput_bps");
    let mean = per_ms.iter().sum::<f64>() / per_ms.len() as f64;
    // Stationary mean 7 Mbps; 150 holding periods of each state keep the estimate within 15 %.
    assert!((mean - 7e6).abs() < 0.15 * 7e6, "mean rate {mean}");
    // Both states show, over 50 ms windows: some at the good rate, some at the bad.
    let windows: Vec<f64> = per_ms.chunks(50).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect();
    let good = windows.iter().filter(|&&r| r > 11e6).count();
    let bad = windows.iter().filter(|&&r| r < 3e6).count();
    assert!(good > 100 && bad > 100, "good {good} bad {bad} of {}", windows.len());
}
