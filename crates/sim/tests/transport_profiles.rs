//! The transport profiles (`profile = "ns2"` by default, `"linux"`), their keys, and SACK end to end.

mod common;

use common::*;
use delaycc_sim::model::{PartialTimer, Profile, RecoverGuard, RtoKind};
use delaycc_sim::scenario;
use delaycc_sim::sim::summary_json;
use delaycc_sim::Outcome;

const PATH: &str = r#"
[[links]]
a = "s"
b = "d"
bandwidth = "10Mbps"
delay = "25ms"
buffer = 1000
"#;

fn parse(top: &str, flow_extra: &str, tail: &str) -> delaycc_sim::Scenario {
    let text = format!(
        "name = \"p\"\nduration = 5\n{top}\n{PATH}[[flows]]\nalgorithm = \"newreno\"\nsrc = \"s\"\ndst = \"d\"\n{flow_extra}\n{tail}"
    );
    scenario::from_toml_str(&text, "p.toml").unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn ns2_is_the_default_profile() {
    let t = &parse("", "", "").flows[0].transport;
    assert_eq!(t.profile, Profile::Ns2);
    assert_eq!(t.initial_window, 2.0);
    assert!(t.syn_for(true) && !t.syn_for(false) && t.limited_transmit, "SYN: the algorithm's default");
    assert_eq!(
        (t.rto, t.rtt_tick, t.initial_rto, t.min_rto),
        (RtoKind::Ns2, 10_000_000, 3_000_000_000, 200_000_000)
    );
    assert_eq!(t.newreno_timer, PartialTimer::FirstPartial);
    assert_eq!(
        (t.recovery_maxburst, t.recover_guard, t.sack, t.partial_ack),
        (2, RecoverGuard::Ns2, None, false)
    );
}

#[test]
fn linux_sets_the_group_and_single_keys_still_override() {
    let t = &parse("profile = \"linux\"", "", "").flows[0].transport;
    assert_eq!(t.profile, Profile::Linux);
    assert_eq!(t.initial_window, 10.0);
    assert_eq!(t.syn, Some(false));
    assert_eq!((t.rto, t.rtt_tick, t.initial_rto), (RtoKind::Rfc6298, 1_000_000, 1_000_000_000));
    assert_eq!(t.newreno_timer, PartialTimer::EveryPartial);
    let sc = parse(
        "profile = \"linux\"",
        "transport = { sack = true, rto = \"ns2\" }",
        "[transport]\nsyn = true\nrtt_tick = \"5ms\"\nnewreno_timer = \"first_partial\"\n",
    );
    let t = &sc.flows[0].transport;
    assert_eq!(t.syn, Some(true));
    assert_eq!(t.initial_window, 10.0, "the profile's value where nothing overrides it");
    assert_eq!((t.rtt_tick, t.rto, t.sack), (5_000_000, RtoKind::Ns2, Some(true)));
    assert_eq!(t.newreno_timer, PartialTimer::FirstPartial);
}

#[test]
fn bad_values_are_one_line_errors_naming_file_and_key() {
    let text = format!("name = \"p\"\nduration = 5\nprofile = \"bsd\"\n{PATH}[[flows]]\nalgorithm = \"newreno\"\nsrc = \"s\"\ndst = \"d\"\ntransport = {{ rto = \"karn\", rtt_tick = 0 }}\n");
    let errs = scenario::from_toml_str(&text, "bad.toml").unwrap_err();
    let joined = errs.join("\n");
    assert!(errs.iter().all(|e| !e.contains('\n') && e.starts_with("bad.toml")), "{joined}");
    assert!(joined.contains("profile: unknown profile \"bsd\""), "{joined}");
    assert!(joined.contains("flows[0].transport.rto: unknown value \"karn\""), "{joined}");
    assert!(joined.contains("flows[0].transport.rtt_tick: must be greater than zero"), "{joined}");
}

/// 20 packets over the ns-2 default: the SYN goes first, but neither the receiver's counts nor goodput
/// see it; the transfer completes one handshake RTT (50 ms plus the SYN's 32 µs) later than without.
#[test]
fn the_syn_is_not_data() {
    let run = |top: &str| {
        let text = format!("name = \"p\"\nduration = 5\n{top}\n{PATH}[[flows]]\nid = \"f\"\nalgorithm = \"newreno\"\nsrc = \"s\"\ndst = \"d\"\nbytes = 19200\n");
        let sim = run(&text);
        assert_conserved(&sim);
        summary_json(&sim, Outcome::Completed, 0.0)["flows"][0].clone()
    };
    let with = run("");
    let without = run("[transport]\nsyn = false\n");
    for f in [&with, &without] {
        assert_eq!(f["received_pkts"], 20, "{f}");
        assert_eq!(f["sent_pkts"], 20, "{f}");
        assert_eq!(f["delivered_bytes"], 19200, "{f}");
    }
    let (a, b) =
        (with["completion_time_s"].as_f64().unwrap(), without["completion_time_s"].as_f64().unwrap());
    assert!((a - b - 0.050_064).abs() < 1e-3, "with SYN {a} s, without {b} s");
}

/// Three drops in one window: with SACK the flow repairs them in one fast recovery and no timeout.
#[test]
fn sack_end_to_end_repairs_a_window_with_three_losses() {
    let text = |sack: bool| {
        format!(
            "name = \"p\"\nduration = 5\n[[links]]\na = \"s\"\nb = \"d\"\nbandwidth = \"10Mbps\"\ndelay = \"25ms\"\nbuffer = 1000\n\
             drop_packets = [{{ flow = \"f\", seq = 30 }}, {{ flow = \"f\", seq = 33 }}, {{ flow = \"f\", seq = 36 }}]\n\
             [[flows]]\nid = \"f\"\nalgorithm = \"newreno\"\nsrc = \"s\"\ndst = \"d\"\nbytes = 192000\ntransport = {{ sack = {sack} }}\n"
        )
    };
    for sack in [true, false] {
        let sim = run(&text(sack));
        assert_conserved(&sim);
        let f = &summary_json(&sim, Outcome::Completed, 0.0)["flows"][0];
        assert_eq!(f["fast_retransmits"], 1, "sack {sack}: {f}");
        assert_eq!(f["timeouts"], 0, "sack {sack}: {f}");
        assert_eq!(f["delivered_bytes"], 192000, "sack {sack}: {f}");
    }
}

/// Paced algorithms with SACK recovery keep pacing, finish their transfer and conserve packets, beside a
/// NewReno flow that keeps the 20-packet buffer full. BBR runs alone: beside that flow its few
/// retransmissions after a timeout are dropped again and again, the timer backs off to tens of seconds
/// (no sample ends the backoff: Karn), and it is locked out; alone, its own start-up overshoot gives the
/// losses (about 7 timeouts, 15 s for the 2 MB).
#[test]
fn paced_flows_with_sack_complete() {
    for alg in ["fast", "bbr", "vegas", "cubic"] {
        let competitor = if alg == "bbr" {
            ""
        } else {
            "[[flows]]\nid = \"g\"\nalgorithm = \"newreno\"\nsrc = \"s\"\ndst = \"d\"\ntransport = { sack = true }\n"
        };
        let text = format!(
            "name = \"p\"\nduration = 60\n[[links]]\na = \"s\"\nb = \"d\"\nbandwidth = \"10Mbps\"\ndelay = \"10ms\"\nbuffer = 20\n\
             [[flows]]\nid = \"f\"\nalgorithm = \"{alg}\"\nsrc = \"s\"\ndst = \"d\"\nbytes = 2000000\ntransport = {{ sack = true }}\n\
             {competitor}"
        );
        let sim = run(&text);
        assert_conserved(&sim);
        let s = summary_json(&sim, Outcome::Completed, 0.0);
        assert_eq!(s["flows"][0]["delivered_bytes"], 2000000, "{alg}: {}", s["flows"][0]);
        if competitor.is_empty() {
            assert!(s["flows"][0]["retransmits"].as_u64().unwrap_or(0) > 0, "{alg}: losses to recover from");
        } else {
            assert!(s["flows"][1]["throughput_bps"].as_f64().unwrap() > 1e6, "{alg}: {}", s["flows"][1]);
        }
    }
}
