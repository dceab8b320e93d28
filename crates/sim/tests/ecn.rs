//! ECN end to end (RFC 3168 through RFC 8033's PIE): at a PIE bottleneck that marks, NewReno flows with
//! `ecn` learn of congestion from marks and reduce without losing a packet, where the same flows without
//! ECN are dropped and retransmit; a FAST flow halves at most once per window however many of its
//! packets are marked.

use delaycc_sim::{run_scenario, scenario};
use serde_json::Value;

/// `n` flows of `alg` (`params` in their table) from s to d over a 10 Mbps, 20 ms bottleneck running PIE
/// with marking on, and a buffer PIE never fills; `ecn` is the flows' transport setting. The flows start
/// 100 ms apart.
fn run(alg: &str, params: &str, n: usize, ecn: bool) -> Value {
    let mut flows = String::new();
    for i in 0..n {
        flows += &format!(
            "[[flows]]\nid = \"f{i}\"\nalgorithm = \"{alg}\"\nsrc = \"s\"\ndst = \"d\"\nstart = {}\n\
             params = {{ {params} }}\n[flows.transport]\necn = {ecn}\n",
            i as f64 * 0.1
        );
    }
    let text = format!(
        r#"
name = "ecn-pie"
duration = 30
sample_interval = "10ms"
[[links]]
a = "s"
b = "r"
bandwidth = "1Gbps"
delay = "1ms"
[[links]]
id = "bn"
a = "r"
b = "d"
bandwidth = "10Mbps"
delay = "20ms"
buffer = 2000
queue = "pie"
queue_params = {{ ecn = true }}
{flows}"#
    );
    let sc = scenario::from_toml_str(&text, "ecn.toml").unwrap_or_else(|e| panic!("{}", e.join("\n")));
    run_scenario(sc, |_| true).summary
}

fn n(row: &Value, key: &str) -> u64 {
    row[key].as_u64().unwrap_or_else(|| panic!("{key} in {row}"))
}

fn f(row: &Value, key: &str) -> f64 {
    row[key].as_f64().unwrap_or_else(|| panic!("{key} in {row}"))
}

fn bottleneck(s: &Value) -> &Value {
    let links = s["links"].as_array().expect("links");
    links.iter().find(|l| l["id"] == "bn" && l["direction"] == "a->b").expect("the bottleneck row")
}

fn flows(s: &Value) -> &Vec<Value> {
    s["flows"].as_array().expect("flows")
}

fn sum(s: &Value, key: &str) -> u64 {
    flows(s).iter().map(|r| n(r, key)).sum()
}

/// Three NewReno flows; an initial ssthresh of 20 packets (under the 35-packet pipe) keeps slow start
/// from overshooting, which would raise PIE's probability past mark_ecnth and drop even ECN-capable
/// packets (RFC 8033 §5.1).
#[test]
fn newreno_with_ecn_is_marked_and_reduces_without_loss_where_without_ecn_it_is_dropped() {
    let with = run("newreno", "initial_ssthresh = 20", 3, true);
    let without = run("newreno", "initial_ssthresh = 20", 3, false);
    let (lw, lo) = (bottleneck(&with), bottleneck(&without));

    // With ECN: marks and no drop at all; every mark reached its receiver, and the senders reduced
    // about once per mark (a window with two marks reduces once).
    let marks = n(lw, "ecn_marks");
    assert!(marks >= 60, "{lw}");
    assert_eq!((n(lw, "aqm_drops"), n(lw, "overflow_drops")), (0, 0), "{lw}");
    assert_eq!(sum(&with, "ecn_ce_received"), marks);
    for r in flows(&with) {
        assert_eq!((n(r, "retransmits"), n(r, "timeouts")), (0, 0), "{r}");
        let (ce, echoes, red) = (n(r, "ecn_ce_received"), n(r, "ecn_echoes"), n(r, "ecn_reductions"));
        assert!(red >= 15 && red <= ce, "{r}");
        assert!(red * 10 >= ce * 7, "most marks fall in windows of their own: {r}");
        // Each mark is echoed until the sender's CWR arrives, about one round trip of ACKs.
        assert!(echoes >= 10 * ce, "{r}");
    }

    // Without ECN: the same control by drops, each repaired by a retransmission.
    let drops = n(lo, "aqm_drops");
    assert!(drops >= 60, "{lo}");
    assert_eq!(n(lo, "ecn_marks"), 0);
    assert!(sum(&without, "retransmits") >= drops, "{without}");
    assert!(flows(&without).iter().all(|r| r.get("ecn_reductions").is_none()), "no ECN fields without ECN");

    // The same seed gives the same run: PIE's random stream is the direction's own.
    let again = run("newreno", "initial_ssthresh = 20", 3, true);
    assert_eq!((&again["flows"], &again["links"]), (&with["flows"], &with["links"]));

    // PIE holds the queueing delay near its 15 ms target either way (12.5 packets at 1.2 ms each), and
    // the link stays busy.
    for l in [lw, lo] {
        assert!((8.0..30.0).contains(&f(l, "mean_queue_pkts")), "{l}");
        assert!(f(l, "utilization") > 0.9, "{l}");
    }
}

/// FAST (alpha 50, a queue of about 60 ms) keeps PIE above its 15 ms target, so many of its packets are
/// marked; it halves on an echo at most once per window (ns-2's TcpAgent::ecn), so far fewer times than
/// it is marked, and it loses little where without ECN every one of those signals is a drop.
#[test]
fn fast_with_ecn_halves_at_most_once_per_window_of_marks() {
    let with = run("fast", "alpha = 50", 1, true);
    let without = run("fast", "alpha = 50", 1, false);
    let (r, lw, lo) = (&flows(&with)[0], bottleneck(&with), bottleneck(&without));
    let (ce, red) = (n(r, "ecn_ce_received"), n(r, "ecn_reductions"));
    assert!(ce >= 500 && red >= 50, "{r}");
    assert!(red * 3 < ce, "several marks per window, one halving: {r}");
    // Never more than one reduction per round trip.
    let rounds = f(r, "active_s") / f(r, "min_rtt_s");
    assert!((red as f64) < rounds, "{red} reductions in {rounds:.0} round trips");
    assert_eq!(n(lw, "ecn_marks"), ce);
    assert!(n(lw, "aqm_drops") * 20 < ce, "p stays mostly at or below mark_ecnth: {lw}");
    assert!(n(lo, "aqm_drops") >= 100, "{lo}");
    assert!(n(r, "retransmits") * 3 < n(&flows(&without)[0], "retransmits"), "{r}");
}
