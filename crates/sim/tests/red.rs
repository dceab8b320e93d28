//! RED on a whole run: it keeps the queue short where drop-tail fills the buffer, its drops are its own and
//! the buffer's, packets are conserved, and a seed gives the same run.

mod common;

use common::{assert_conserved, run};
use delaycc_sim::{run_scenario, scenario};

/// Four NewReno flows through a 10 Mb/s bottleneck with a 100-packet buffer and the given queue keys.
fn dumbbell(queue: &str, seed: u64) -> String {
    let mut s = format!(
        "name = \"red\"\nduration = 30\nseed = {seed}\nsample_interval = \"10ms\"\n\
         [[links]]\na = \"s\"\nb = \"r\"\nbandwidth = \"100Mbps\"\ndelay = \"1ms\"\n\
         [[links]]\nid = \"bn\"\na = \"r\"\nb = \"d\"\nbandwidth = \"10Mbps\"\ndelay = \"20ms\"\nbuffer = 100\n{queue}\n"
    );
    for (i, start) in [0.0, 1.0, 2.0, 3.0].iter().enumerate() {
        s += &format!(
            "[[flows]]\nid = \"f{i}\"\nalgorithm = \"newreno\"\nsrc = \"s\"\ndst = \"d\"\nstart = {start}\n"
        );
    }
    s
}

fn bottleneck(summary: &serde_json::Value) -> serde_json::Value {
    summary["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "bn" && l["direction"] == "a->b")
        .unwrap()
        .clone()
}

fn summary(text: &str) -> serde_json::Value {
    let mut r = run_scenario(scenario::from_toml_str(text, "red.toml").expect("valid"), |_| true);
    r.summary["wall_s"] = serde_json::json!(0.0);
    r.summary
}

#[test]
fn red_keeps_the_queue_short_where_drop_tail_fills_the_buffer() {
    let red = bottleneck(&summary(&dumbbell("queue = \"red\"", 1)));
    let tail = bottleneck(&summary(&dumbbell("", 1)));
    let (q_red, q_tail) =
        (red["mean_queue_pkts"].as_f64().unwrap(), tail["mean_queue_pkts"].as_f64().unwrap());
    // ns-2.35's defaults on 10 Mb/s: thresholds of 3125 and 9375 bytes, about 3 and 9 packets of 1000.
    assert!((2.0..12.0).contains(&q_red), "RED's mean queue {q_red}");
    assert!(q_tail > 4.0 * q_red, "drop-tail {q_tail} against RED {q_red}");
    assert!(red["utilization"].as_f64().unwrap() > 0.9);
    let (aqm, overflow) = (red["aqm_drops"].as_u64().unwrap(), red["overflow_drops"].as_u64().unwrap());
    assert!(aqm > overflow && aqm > 100, "RED drops {aqm}, overflow {overflow}");
    assert_eq!(aqm + overflow, red["queue_drops"].as_u64().unwrap());
    assert_eq!(red["queue"], "red");
}

/// RED in packets with explicit thresholds.
const IN_PACKETS: &str =
    "queue = \"red\"\nqueue_params = { bytes = false, queue_in_bytes = false, min_th = 5, max_th = 15 }";

#[test]
fn red_conserves_packets_and_a_seed_gives_the_same_run() {
    let text = dumbbell(IN_PACKETS, 3);
    assert_conserved(&run(&text));
    assert_eq!(summary(&text).to_string(), summary(&text).to_string());
    let other = bottleneck(&summary(&dumbbell(IN_PACKETS, 4)));
    assert_ne!(bottleneck(&summary(&text)).to_string(), other.to_string());
}
