//! Helpers shared by the integration tests.
#![allow(dead_code)]

use delaycc_sim::scenario;
use delaycc_sim::sim::Simulation;

/// Validates and runs a TOML scenario, panicking with its errors if it is invalid.
pub fn run(text: &str) -> Simulation {
    let sc = scenario::from_toml_str(text, "test.toml")
        .unwrap_or_else(|e| panic!("invalid scenario:\n{}", e.join("\n")));
    let mut sim = Simulation::new(sc);
    sim.run(|_| true);
    sim
}

/// The recorded values of one series.
pub fn series<'a>(sim: &'a Simulation, id: &str, metric: &str) -> &'a [f64] {
    &sim.recorder
        .series
        .iter()
        .find(|s| s.id == id && s.metric == metric)
        .unwrap_or_else(|| panic!("no series {id} {metric}"))
        .values
}

/// Packets are conserved: everything sent was delivered, dropped, or is still on a link.
pub fn assert_conserved(sim: &Simulation) {
    let c = sim.counts;
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
