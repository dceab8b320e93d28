//! Fabrics: per-flow ECMP (`routing = "ecmp"`) is deterministic and spreads flows over equal-cost paths;
//! summary.json's `fct` gives the ideal completion time where it is known exactly.

use delaycc_sim::{run_scenario, scenario};
use std::collections::HashMap;

/// A leaf-spine: leaves l0, l1, spines s0..s3, `hosts` hosts per leaf; flows from leaf 0's hosts to leaf 1's.
fn leaf_spine(routing: &str, seed: u64, flows: usize) -> String {
    let mut t = format!("name = \"ls\"\nduration = \"1ms\"\nseed = {seed}\n{routing}\n");
    let link = |a: &str, b: &str| {
        format!("[[links]]\na = \"{a}\"\nb = \"{b}\"\nbandwidth = \"10Gbps\"\ndelay = \"1us\"\n")
    };
    for s in 0..4 {
        t += &link("l0", &format!("s{s}"));
        t += &link("l1", &format!("s{s}"));
    }
    for h in 0..flows {
        t += &link(&format!("a{h}"), "l0");
        t += &link(&format!("b{h}"), "l1");
    }
    for f in 0..flows {
        t += &format!("[[flows]]\nid = \"f{f}\"\nalgorithm = \"newreno\"\nsrc = \"a{f}\"\ndst = \"b{f}\"\n");
    }
    t
}

/// The spine each flow's data path crosses.
fn spines(text: &str) -> Vec<String> {
    let sc = scenario::from_toml_str(text, "ls.toml").expect("valid");
    sc.flows
        .iter()
        .map(|f| {
            assert_eq!(f.path.len(), 5, "host, leaf, spine, leaf, host");
            assert_eq!(f.reverse_path, f.path.iter().rev().copied().collect::<Vec<_>>());
            sc.nodes[f.path[2] as usize].clone()
        })
        .collect()
}

#[test]
fn ecmp_is_deterministic_and_spreads_over_the_spines() {
    let text = leaf_spine("routing = \"ecmp\"", 1, 200);
    let a = spines(&text);
    assert_eq!(a, spines(&text), "same scenario, same paths");
    let mut count: HashMap<&str, usize> = HashMap::new();
    for s in &a {
        *count.entry(s).or_default() += 1;
    }
    assert_eq!(count.len(), 4, "every spine carries flows: {count:?}");
    assert!(count.values().all(|&n| (30..=70).contains(&n)), "200 flows over 4 spines: {count:?}");
    // Another seed, other choices; the default routing puts every flow on one spine.
    assert_ne!(a, spines(&leaf_spine("routing = \"ecmp\"", 2, 200)));
    let shortest = spines(&leaf_spine("", 1, 20));
    assert!(shortest.iter().all(|s| *s == shortest[0]));
    assert_eq!(shortest, spines(&leaf_spine("routing = \"shortest\"", 1, 20)));
}

#[test]
fn unknown_routing_is_one_line() {
    let errs = scenario::from_toml_str(&leaf_spine("routing = \"spray\"", 1, 1), "ls.toml").unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with("ls.toml:4: routing: 'spray' is not a routing"), "{errs:?}");
}

/// 10 packets, a window that never binds, no SYN, over two hops (10 and 1 Gb/s): the receiver holds the
/// last byte after the first packet's one-way time plus 9 packets at the bottleneck, the ideal exactly.
#[test]
fn fct_of_an_unhindered_transfer_is_the_ideal() {
    let text = r#"
name = "fct"
duration = "10ms"
[transport]
syn = false
initial_window = 100
[[links]]
a = "s"
b = "r"
bandwidth = "10Gbps"
delay = "3us"
[[links]]
a = "r"
b = "d"
bandwidth = "1Gbps"
delay = "5us"
[[flows]]
id = "f"
algorithm = "newreno"
src = "s"
dst = "d"
bytes = 9600
start = "1ms"
"#;
    let r = run_scenario(scenario::from_toml_str(text, "fct.toml").expect("valid"), |_| true);
    let fct = &r.summary["fct"];
    // 1000-byte packets: 0.8 us at 10 Gb/s, 8 us at 1 Gb/s.
    let ideal = 3e-6 + 0.8e-6 + 5e-6 + 8e-6 + 9.0 * 8e-6;
    let row = &fct["flows"][0];
    assert!((row["ideal_fct_s"].as_f64().unwrap() - ideal).abs() < 1e-12, "{row}");
    assert!((row["fct_s"].as_f64().unwrap() - ideal).abs() < 1e-9, "{row}");
    assert!((fct["p99_slowdown"].as_f64().unwrap() - 1.0).abs() < 1e-6, "{fct}");
    assert_eq!((fct["finite_flows"].as_u64(), fct["completed"].as_u64()), (Some(1), Some(1)));
    // Without a finite flow there is no `fct` key.
    let unlimited = text.replace("bytes = 9600\n", "");
    let r = run_scenario(scenario::from_toml_str(&unlimited, "fct.toml").expect("valid"), |_| true);
    assert!(r.summary.get("fct").is_none());
}
