//! The recorder's sample bound: a run longer than `max_samples` sampling intervals keeps at most that
//! many samples per series, at a doubled (and doubled again) interval, and reads the same point values
//! a run sampled at that interval from the start would.

mod common;
use common::*;
use delaycc_sim::scenario;
use delaycc_sim::sim::Simulation;

fn run_with(text: &str, max_samples: Option<usize>) -> Simulation {
    let sc = scenario::from_toml_str(text, "test.toml").expect("valid");
    let mut sim = Simulation::new(sc);
    if let Some(m) = max_samples {
        sim.recorder_mut().max_samples = m;
    }
    sim.run(|_| true);
    sim
}

#[test]
fn long_runs_halve_their_resolution_and_stay_bounded() {
    // 2 s at 10 ms: 200 sampling instants; at most 32 kept means an 80 ms interval (25 samples).
    let fine = one_flow("newreno", "10Mbps", "20ms", 50, 2.0, "");
    let bounded = run_with(&fine, Some(32));
    assert_eq!(bounded.recorder().interval, 80_000_000);
    let coarse = run_with(&fine.replace("sample_interval = \"10ms\"", "sample_interval = \"80ms\""), None);
    assert_eq!(coarse.recorder().interval, 80_000_000);
    assert_eq!(bounded.recorder().times, coarse.recorder().times);
    assert_eq!(bounded.recorder().times.len(), 25);
    assert!(bounded.recorder().values.samples() <= 32);
    for (i, s) in bounded.recorder().series.iter().enumerate() {
        let n = bounded.recorder().values.series(i).len();
        assert_eq!(n, bounded.recorder().times.len(), "{} {}", s.id, s.metric);
    }
    // Point values are what sampling at 80 ms reads; rates are means of equal sub-intervals.
    for (id, metric) in [("f", "cwnd_pkts"), ("f", "inflight_pkts"), ("bottleneck:a->b", "queue_pkts")] {
        let (a, b) = (series(&bounded, id, metric), series(&coarse, id, metric));
        assert!(a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()), "{id} {metric}");
    }
    for (id, metric) in [("f", "rate_bps"), ("bottleneck:a->b", "throughput_bps")] {
        let (a, b) = (series(&bounded, id, metric), series(&coarse, id, metric));
        assert!(a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-9 * y.abs().max(1.0)), "{id} {metric}");
    }
    let drops: f64 = series(&bounded, "bottleneck:a->b", "drops").iter().sum();
    assert_eq!(drops, series(&coarse, "bottleneck:a->b", "drops").iter().sum::<f64>());
    // The simulation itself is untouched by how it is recorded.
    assert_eq!(bounded.events_processed(), run_with(&fine, None).events_processed());
    assert_eq!(bounded.counts(), coarse.counts());
}

#[test]
fn the_summary_reports_the_recorded_interval() {
    let text = one_flow("newreno", "10Mbps", "20ms", 50, 1.0, "");
    let sc = scenario::from_toml_str(&text, "test.toml").expect("valid");
    let r = delaycc_sim::run_scenario(sc, |_| true);
    assert_eq!(r.summary["sample_interval_s"], serde_json::json!(0.01));
}

#[test]
fn a_resumed_run_halves_what_it_already_recorded_the_same_way() {
    let text = one_flow("newreno", "10Mbps", "20ms", 50, 20.0, "");
    let whole = run_with(&text, Some(32));
    let mut sim = Simulation::new(scenario::from_toml_str(&text, "test.toml").expect("valid"));
    sim.recorder_mut().max_samples = 32;
    // Interrupted at the first progress call (about 6.5 s in, after several halvings); the next halving
    // (at 10.24 s) happens in the resumed run, over samples the interrupted one recorded.
    assert_eq!(sim.run(|_| false), delaycc_sim::Outcome::Interrupted);
    assert!(sim.now() < 10_000_000_000 && sim.recorder().values.samples() > 0);
    sim.run(|_| true);
    assert_eq!(sim.recorder().times, whole.recorder().times);
    assert_eq!(sim.recorder().interval, whole.recorder().interval);
    assert!(sim.recorder().values.samples() <= 32);
    for (i, s) in sim.recorder().series.iter().enumerate() {
        let (a, b) = (sim.recorder().values.series(i), whole.recorder().values.series(i));
        assert!(a.len() == b.len() && a.zip(b).all(|(x, y)| x.to_bits() == y.to_bits()), "{}", s.metric);
    }
}

#[test]
fn the_scenario_sets_the_bound() {
    let text = one_flow("newreno", "10Mbps", "20ms", 50, 2.0, "");
    let by_field = run_with(&text, Some(32));
    let by_key = run_with(&format!("max_samples = 32\n{text}"), None);
    assert_eq!(by_key.recorder().max_samples, 32);
    assert_eq!(by_key.recorder().times, by_field.recorder().times);
    assert_eq!(by_key.recorder().interval, 80_000_000);
    let default = run_with(&text, None);
    assert_eq!(default.recorder().max_samples, delaycc_sim::measure::resolution::DEFAULT_MAX_SAMPLES);
}
