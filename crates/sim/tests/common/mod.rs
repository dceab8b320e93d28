//! Helpers shared by the integration tests.
#![allow(dead_code)]

use delaycc_sim::scenario;
use delaycc_sim::sim::{summary_json, Simulation};
use delaycc_sim::Outcome;

/// Validates and runs a TOML scenario, panicking with its errors if it is invalid. Every sample is kept
/// (no `max_samples` bound): these tests read samples by time, as index = t / sample_interval.
pub fn run(text: &str) -> Simulation {
    let mut sc = scenario::from_toml_str(text, "test.toml")
        .unwrap_or_else(|e| panic!("invalid scenario:\n{}", e.join("\n")));
    sc.max_samples = (sc.duration / sc.sample_interval + 1) as usize;
    let mut sim = Simulation::new(sc);
    sim.recorder_mut().verify_untouched = true;
    sim.run(|_| true);
    sim
}

/// The recorded values of one series.
pub fn series(sim: &Simulation, id: &str, metric: &str) -> Vec<f64> {
    let i = sim
        .recorder()
        .series
        .iter()
        .position(|s| s.id == id && s.metric == metric)
        .unwrap_or_else(|| panic!("no series {id} {metric}"));
    sim.recorder().values.to_vec(i)
}

/// Packets are conserved: everything sent was delivered, dropped, or is still on a link.
pub fn assert_conserved(sim: &Simulation) {
    let c = sim.counts();
    assert_eq!(c.sent, c.delivered + c.dropped + c.in_flight, "conservation: {c:?}");
    assert_eq!(c.in_flight, sim.packets_on_links(), "packets in flight must all sit on links");
}

/// A chain s - r1 - r2 - d with a bottleneck r1 - r2 and one flow.
pub fn one_flow(alg: &str, bw: &str, delay: &str, buffer: u64, duration: f64, extra: &str) -> String {
    format!(
        r#"
name = "one-flow"
duration = {duration}
sample_interval = "10ms"
[[links]]
a = "s"
b = "r1"
bandwidth = "1Gbps"
delay = "0ms"
[[links]]
id = "bottleneck"
a = "r1"
b = "r2"
bandwidth = "{bw}"
delay = "{delay}"
buffer = {buffer}
{extra}
[[links]]
a = "r2"
b = "d"
bandwidth = "1Gbps"
delay = "0ms"
[[flows]]
id = "f"
algorithm = "{alg}"
src = "s"
dst = "d"
"#
    )
}

pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// N flows of `alg` from their own hosts over one bottleneck (1 Gbps, 1 ms access links), all starting at
/// `starts[i]`, with the given per-flow `params` (an inline TOML table body).
#[allow(clippy::too_many_arguments)] // one argument per knob of the topology reads best in the tests
pub fn dumbbell(
    alg: &str,
    n: usize,
    bw: &str,
    delay: &str,
    buffer: u64,
    duration: f64,
    starts: &[f64],
    params: &str,
) -> String {
    let mut s = format!("name = \"dumbbell\"\nduration = {duration}\nsample_interval = \"10ms\"\n");
    for i in 0..n {
        s += &format!("[[links]]\na = \"s{i}\"\nb = \"r1\"\nbandwidth = \"1Gbps\"\ndelay = \"1ms\"\n");
    }
    s += &format!(
        "[[links]]\nid = \"bn\"\na = \"r1\"\nb = \"r2\"\nbandwidth = \"{bw}\"\ndelay = \"{delay}\"\nbuffer = {buffer}\n\
         [[links]]\na = \"r2\"\nb = \"d\"\nbandwidth = \"1Gbps\"\ndelay = \"1ms\"\n"
    );
    for i in 0..n {
        let start = starts.get(i).copied().unwrap_or(0.0);
        s += &format!(
            "[[flows]]\nid = \"f{i}\"\nalgorithm = \"{alg}\"\nsrc = \"s{i}\"\ndst = \"d\"\nstart = {start}\nparams = {{ {params} }}\n"
        );
    }
    s
}

/// Mean of a series over samples [from, to) given in seconds, for a 10 ms sampling period.
pub fn window_mean(values: &[f64], from_s: f64, to_s: f64) -> f64 {
    let (a, b) = ((from_s * 100.0) as usize, ((to_s * 100.0) as usize).min(values.len()));
    let xs: Vec<f64> = values[a..b].iter().copied().filter(|x| x.is_finite()).collect();
    mean(&xs)
}

/// Pins the transport these tests were written for (before profiles): the `linux` profile with an
/// initial window of one, no limited transmit and a nanosecond RTT clock. Their expectations depend on
/// it (initial window, SYN, timer values); the ns-2 default is tested in the transport's own tests.
pub fn legacy_transport(text: &str) -> String {
    format!("profile = \"linux\"\n{text}\n[transport]\ninitial_window = 1\nlimited_transmit = false\nrtt_tick = \"1ns\"\n")
}

/// The summary row of the dumbbell's bottleneck (`bn`, forward direction).
pub fn bottleneck_row(sim: &Simulation) -> serde_json::Value {
    let s = summary_json(sim, Outcome::Completed, 0.0);
    s["links"]
        .as_array()
        .and_then(|l| l.iter().find(|l| l["id"] == "bn" && l["direction"] == "a->b"))
        .expect("bottleneck row")
        .clone()
}
