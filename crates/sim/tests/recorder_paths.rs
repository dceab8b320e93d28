//! The recorder's sampling path (only the flows marked since the last sample, a word of 64 flows at a
//! time, whole words apart from the last partial one) records exactly what reading every flow at every
//! sample records (`verify_untouched`, which also checks the marks).

mod common;
use common::*;
use delaycc_sim::scenario;
use delaycc_sim::sim::Simulation;

fn run(text: &str, verify_untouched: bool) -> Simulation {
    let mut sim = Simulation::new(scenario::from_toml_str(text, "test.toml").expect("valid"));
    sim.recorder_mut().verify_untouched = verify_untouched;
    sim.run(|_| true);
    sim
}

#[test]
fn marked_flows_record_what_reading_every_flow_records() {
    // 150 flows: two whole words and a partial one; CUBIC's flows have extra metrics, NewReno's none,
    // and staggered starts leave flows untouched or only receiving between samples.
    let n = 150;
    let starts: Vec<f64> = (0..n).map(|i| (i % 7) as f64 * 0.05).collect();
    let mut text = dumbbell("newreno", n, "200Mbps", "10ms", 200, 0.6, &starts, "");
    let mut k = 0;
    text = text
        .split("algorithm = \"newreno\"")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                return part.to_string();
            }
            k += 1;
            let alg = if k % 3 == 0 { "cubic" } else { "newreno" };
            format!("algorithm = \"{alg}\"{part}")
        })
        .collect();
    let (fast, checked) = (run(&text, false), run(&text, true));
    let (a, b) = (fast.recorder(), checked.recorder());
    assert_eq!(a.times, b.times);
    assert!(a.series.iter().any(|s| s.metric == "w_max_pkts"), "some flows have extra metrics");
    for (i, s) in a.series.iter().enumerate() {
        let (x, y) = (a.values.to_vec(i), b.values.to_vec(i));
        assert!(
            x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| p.to_bits() == q.to_bits()),
            "{} {}",
            s.id,
            s.metric
        );
    }
}
