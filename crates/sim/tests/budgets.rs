//! Budgets (`[limits]`, `sim/budget.rs`): a run over its event or memory budget stops at a checkpoint
//! with the results so far, marked partial and naming the budget; a run that fits is untouched; the
//! static check of the time series uses the same memory budget.

mod invariants;

use delaycc_sim::{run_scenario, Outcome, Simulation};
use delaycc_sim::{scenario, Scenario};
use serde_json::Value;

fn parse(text: &str) -> Scenario {
    scenario::from_toml_str(text, "budget.toml").expect("valid")
}

/// A 1 Mbps link with a bulk NewReno flow for `duration` seconds, plus `extra` TOML.
fn one_flow(duration: &str, extra: &str) -> String {
    format!(
        "name = \"budget\"\nduration = {duration}\n[[links]]\na = \"s\"\nb = \"d\"\nbandwidth = \"10Mbps\"\n\
         delay = \"5ms\"\n[[flows]]\nalgorithm = \"newreno\"\nsrc = \"s\"\ndst = \"d\"\n{extra}"
    )
}

/// A CBR source 10 000 times faster than its link, into a buffer that never fills: the queue (a link
/// ring) grows by about 1.25 million packets per simulated second.
fn flood(extra: &str) -> String {
    format!(
        "name = \"flood\"\nduration = 10\n[[links]]\na = \"s\"\nb = \"d\"\nbandwidth = \"1Mbps\"\ndelay = 0\n\
         buffer = 1000000000\n[[traffic]]\nkind = \"cbr\"\nsrc = \"s\"\ndst = \"d\"\nrate = \"10Gbps\"\n{extra}"
    )
}

fn without_wall(mut s: Value) -> Value {
    s.as_object_mut().expect("object").remove("wall_s");
    s
}

#[test]
fn an_event_budget_stops_the_run_at_exactly_that_many_events() {
    let r = run_scenario(parse(&one_flow("10", "[limits]\nmax_events = 20000\n")), |_| true);
    assert_eq!(r.outcome, Outcome::EventBudget);
    assert_eq!(r.events, 20_000);
    let s = &r.summary;
    assert_eq!((s["partial"].as_bool(), s["complete"].as_bool()), (Some(true), Some(false)));
    assert_eq!(s["stop_reason"], "max_events");
    let msg = s["stop_message"].as_str().expect("message");
    assert!(msg.starts_with("stopped by max_events: the budget of 20000 events was spent at "), "{msg}");
    assert!(!msg.contains('\n'));
    let simulated = s["simulated_s"].as_f64().unwrap();
    assert!(simulated > 0.0 && simulated < 10.0, "{simulated}");
    assert!(r.times.last().is_some_and(|t| *t <= simulated), "samples stop where the run stopped");
    assert_eq!(r.counts.sent, r.counts.delivered + r.counts.dropped + r.counts.in_flight);
}

#[test]
fn a_run_that_needs_exactly_its_event_budget_is_complete() {
    let whole = run_scenario(parse(&one_flow("0.5", "")), |_| true);
    assert_eq!(whole.outcome, Outcome::Completed);
    assert_eq!(
        (whole.summary["partial"].as_bool(), &whole.summary["stop_reason"]),
        (Some(false), &Value::Null)
    );
    let n = whole.events;
    let exact = run_scenario(parse(&one_flow("0.5", &format!("[limits]\nmax_events = {n}\n"))), |_| true);
    assert_eq!(exact.outcome, Outcome::Completed);
    assert_eq!(without_wall(exact.summary), without_wall(whole.summary.clone()));
    let short =
        run_scenario(parse(&one_flow("0.5", &format!("[limits]\nmax_events = {}\n", n - 1))), |_| true);
    assert_eq!((short.outcome, short.events), (Outcome::EventBudget, n - 1));
}

#[test]
fn a_memory_budget_stops_a_growing_queue_soon_after_it_is_spent() {
    let budget: u64 = 32 << 20;
    let r = run_scenario(parse(&flood("[limits]\nmax_memory = \"32MiB\"\n")), |_| true);
    assert_eq!(r.outcome, Outcome::MemoryBudget);
    let s = &r.summary;
    assert_eq!(s["stop_reason"], "max_memory");
    let estimate = s["memory_estimate_bytes"].as_u64().unwrap();
    // Checked every 16384 events (here about as many packets): the estimate passes the budget by at most
    // one ring doubling's worth of the packets added since the last check.
    assert!(estimate > budget && estimate < 2 * budget + (4 << 20), "{estimate}");
    let msg = s["stop_message"].as_str().unwrap();
    assert!(msg.starts_with("stopped by max_memory: ") && msg.contains("budget of 32.0 MiB"), "{msg}");
    // The queue really held that much: ~100 bytes per packet slot.
    assert!(r.counts.in_flight > 200_000, "{:?}", r.counts);
    assert!(s["simulated_s"].as_f64().unwrap() < 10.0);
}

#[test]
fn the_estimate_counts_the_packets_in_the_rings() {
    let mut sim = Simulation::new(parse(&flood("")));
    let before = sim.memory_estimate();
    assert_eq!(sim.run(|t| t < 100_000_000), Outcome::Interrupted);
    let queued = sim.packets_on_links();
    let grown = sim.memory_estimate() - before;
    assert!(queued > 100_000 && grown >= queued * 64, "{queued} packets, estimate grew by {grown}");
}

#[test]
fn a_budget_below_the_time_series_stops_before_anything_is_simulated() {
    let mut sc = parse(&one_flow("10", ""));
    // What the Python API and the CLI do with --max-memory: the file's own budget was fine.
    sc.limits.max_memory = Some(10_000);
    let r = run_scenario(sc, |_| true);
    assert_eq!((r.outcome, r.events), (Outcome::MemoryBudget, 1));
    assert_eq!(r.summary["simulated_s"], 0.0);
}

#[test]
fn a_stopped_run_is_deterministic_and_keeps_the_invariants() {
    let text = one_flow("10", "[limits]\nmax_events = 20000\n");
    let a = run_scenario(parse(&text), |_| true);
    let b = run_scenario(parse(&text), |_| true);
    assert_eq!(without_wall(a.summary.clone()), without_wall(b.summary.clone()));
    // Bit patterns: the series hold NaN where a value does not exist yet.
    let bits = |r: &delaycc_sim::RunResult| -> Vec<u64> {
        (0..r.series.len()).flat_map(|i| r.values.series(i).map(|v| v.to_bits())).collect()
    };
    assert_eq!(bits(&a), bits(&b));
    let mut sim = Simulation::new(parse(&text));
    assert_eq!(sim.run(|_| true), Outcome::EventBudget);
    invariants::conservation(&sim).unwrap();
    invariants::queues_within_buffers(&sim).unwrap();
    invariants::windows_finite_positive(&sim).unwrap();
}

#[test]
fn without_limits_the_memory_budget_is_half_the_machine() {
    let sim = Simulation::new(parse(&one_flow("1", "")));
    assert_eq!(sim.guard().max_events, u64::MAX);
    assert_eq!(sim.guard().max_memory, delaycc_sim::sim::default_max_memory());
    if let Some(kib) = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| m.lines().next()?.split_whitespace().nth(1)?.parse::<u64>().ok())
    {
        assert!(sim.guard().max_memory <= kib * 1024 / 2, "at most half of MemTotal");
        assert!(sim.guard().max_memory > 0);
    }
}

/// 3000 flows: their time series may need `samples` x (3000 flows x 9 series + two bitmaps of 47 words + 6
/// link series in a tile of 8 + the time) values of 8 bytes.
fn many_flows(samples: u32, limits: &str) -> String {
    let mut text = format!(
        "name = \"many\"\nduration = {}\nsample_interval = \"10ms\"\nmax_samples = {samples}\n\
         [[links]]\na = \"s\"\nb = \"d\"\nbandwidth = \"1Gbps\"\ndelay = \"1ms\"\n",
        (samples - 1) / 100
    );
    text += limits;
    for i in 0..3000 {
        text += &format!("[[flows]]\nid = \"f{i}\"\nalgorithm = \"newreno\"\nsrc = \"s\"\ndst = \"d\"\n");
    }
    text
}

#[test]
fn the_time_series_must_fit_the_files_memory_budget() {
    assert!(scenario::from_toml_str(&many_flows(4001, ""), "many.toml").is_ok(), "827 MiB: 2 GiB by default");
    let small = many_flows(4001, "[limits]\nmax_memory = \"512MiB\"\n");
    let errors = scenario::from_toml_str(&small, "many.toml").expect_err("too small a budget");
    assert_eq!(
        errors,
        ["many.toml:11: limits.max_memory: 512 MiB is less than the time series would take 827 MiB \
          (27006 series x 4001 samples)"]
    );
}

#[test]
fn a_larger_budget_in_the_file_allows_larger_time_series() {
    let errors = scenario::from_toml_str(&many_flows(10001, ""), "many.toml").expect_err("2 GiB by default");
    assert_eq!(
        errors,
        ["many.toml:4: max_samples: the time series would take 2.02 GiB (27006 series x 10001 samples), more \
          than the 2.00 GiB they may take without limits.max_memory; use a smaller max_samples"]
    );
    let raised = many_flows(10001, "[limits]\nmax_memory = \"3GiB\"\n");
    assert!(scenario::from_toml_str(&raised, "many.toml").is_ok());
}
