//! The delay-based family against the theory each algorithm was designed to meet (issue 3).

mod common;
use common::*;

fn rate(bw: &str) -> f64 {
    delaycc_sim::units::rate_from_str(bw).expect("rate")
}

/// FAST's equilibrium: total queue N·α, equal rates C/N, queueing delay N·α/C. At the ns-2 module's
/// cadence an increase is paced in whole packets (int(target − w)), so with γ = 1/2 a window comes to rest
/// anywhere up to 1/γ = 2 packets below the fixed point: each flow holds between α − 2 and α.
fn check_equilibrium(alg: &str, n: usize, alpha: f64, bw: &str, extra: &str) {
    let params = format!("alpha = {alpha}{extra}");
    let shortfall = if extra.contains("cadence = \"round\"") { 0.0 } else { 2.0 };
    // Rates within 10 % of the fair share depend on start-up and timers: pinned (legacy_transport).
    let sim = run(&legacy_transport(&dumbbell(alg, n, bw, "20ms", 100_000, 60.0, &[], &params)));
    let c = rate(bw);
    let pkt_bits = 8000.0;
    let queue = window_mean(&series(&sim, "bn:a->b", "queue_pkts"), 30.0, 60.0);
    let target_q = n as f64 * alpha;
    let low_q = n as f64 * (alpha - shortfall);
    assert!(
        queue >= 0.9 * low_q && queue <= 1.1 * target_q,
        "{alg} N={n} α={alpha} {bw}: queue {queue:.1} vs {low_q}..{target_q}"
    );
    let rates: Vec<f64> =
        (0..n).map(|i| window_mean(&series(&sim, &format!("f{i}"), "rate_bps"), 30.0, 60.0)).collect();
    // Rates follow each flow's queued packets, so a flow resting s packets short moves its share by up
    // to s/α either way.
    let spread = shortfall / alpha;
    for r in &rates {
        let share = r / (c / n as f64);
        assert!(
            share >= (1.0 - spread) * 0.95 && share <= 1.05 / (1.0 - spread),
            "{alg} N={n}: rate {r:.0} vs fair share {:.0}",
            c / n as f64
        );
    }
    let jain = rates.iter().sum::<f64>().powi(2) / (n as f64 * rates.iter().map(|x| x * x).sum::<f64>());
    let min_jain = if shortfall == 0.0 { 0.99 } else { 0.97 };
    assert!(jain >= min_jain, "{alg} N={n}: Jain {jain}");
    let target_delay = target_q * pkt_bits / c;
    let low_delay = low_q * pkt_bits / c;
    for i in 0..n {
        let rtt = window_mean(&series(&sim, &format!("f{i}"), "rtt_s"), 30.0, 60.0);
        let base = sim.flows()[i].sender.cc.trace().base_rtt.expect("baseRTT") as f64 / 1e9;
        let qd = rtt - base;
        assert!(
            qd >= 0.9 * low_delay && qd <= 1.1 * target_delay,
            "{alg} N={n} f{i}: queueing delay {qd} vs {low_delay}..{target_delay}"
        );
    }
    assert_eq!(sim.counts().dropped, 0, "a deep buffer: FAST is loss-free");
    assert_conserved(&sim);
}

const EQUILIBRIA: &[(usize, f64, &str)] =
    &[(1, 20.0, "10Mbps"), (2, 20.0, "20Mbps"), (4, 50.0, "100Mbps"), (8, 10.0, "50Mbps")];

#[test]
fn fast_equilibrium_queue_rates_and_delay() {
    for &(n, alpha, bw) in EQUILIBRIA {
        check_equilibrium("fast", n, alpha, bw, "");
        check_equilibrium("fast", n, alpha, bw, ", cadence = \"round\", cap_2w = true, mi_reentry = false");
    }
}

#[test]
fn fast_textbook_form_reaches_the_same_equilibrium() {
    // Update every RTT, no spreading of increases: the simpler form users may switch to.
    for &(n, alpha, bw) in &EQUILIBRIA[..3] {
        let textbook = ", cadence = \"round\", update_every_other_rtt = false, spread_increase = false";
        check_equilibrium("fast", n, alpha, bw, textbook);
    }
}

#[test]
fn vfast_equilibrium_queue_rates_and_delay() {
    for &(n, alpha, bw) in EQUILIBRIA {
        check_equilibrium("vfast", n, alpha, bw, "");
        check_equilibrium("vfast", n, alpha, bw, ", filter = \"per-ack\"");
    }
}

#[test]
fn fast_late_joiner_overestimates_base_rtt_and_takes_more_than_its_share() {
    // P000 scenario I shape: the second flow starts while the first keeps α packets queued.
    for alg in ["fast", "vfast"] {
        let sim = run(&dumbbell(alg, 2, "10Mbps", "20ms", 100_000, 80.0, &[0.0, 20.0], "alpha = 20"));
        let r0 = window_mean(&series(&sim, "f0", "rate_bps"), 40.0, 80.0);
        let r1 = window_mean(&series(&sim, "f1", "rate_bps"), 40.0, 80.0);
        assert!(r1 > 1.3 * r0, "{alg}: late joiner {r1:.0} vs first flow {r0:.0}");
        let true_base = sim.flows()[0].sender.stats.rtt_min().expect("samples") as f64;
        let b1 = sim.flows()[1].sender.cc.trace().base_rtt.expect("base") as f64;
        // It counted the first flow's α packets (16 ms at 10 Mbps) as propagation delay.
        assert!(b1 - true_base > 0.010e9, "{alg}: joiner's baseRTT {b1} vs true {true_base}");
    }
}

#[test]
fn vegas_keeps_each_flows_backlog_between_alpha_and_beta() {
    for (alpha, beta) in [(1.0, 3.0), (2.0, 4.0)] {
        for n in [1, 3] {
            let params = format!("alpha = {alpha}, beta = {beta}");
            let sim = run(&dumbbell("vegas", n, "10Mbps", "20ms", 100_000, 60.0, &[], &params));
            for i in 0..n {
                let backlog = window_mean(&series(&sim, &format!("f{i}"), "backlog_pkts"), 20.0, 60.0);
                assert!(
                    backlog >= alpha - 0.25 && backlog <= beta + 0.25,
                    "vegas α={alpha} β={beta} N={n} f{i}: backlog {backlog:.2}"
                );
            }
            let util = window_mean(&series(&sim, "bn:a->b", "throughput_bps"), 20.0, 60.0) / 10e6;
            assert!(util > 0.97, "vegas keeps the link busy: {util}");
        }
    }
}

/// P002 shape: the bottleneck sits before two paths of 125 ms and 376 ms round-trip propagation.
fn rerouted(alg: &str, to_longer: bool) -> delaycc_sim::Simulation {
    let (p1, p2) = (r#"["s0", "R1", "R2", "R3", "R5", "D"]"#, r#"["s0", "R1", "R2", "R4", "R5", "D"]"#);
    let (first, second) = if to_longer { (p1, p2) } else { (p2, p1) };
    let rev = |p: &str| {
        let mut v: Vec<&str> = p.trim_matches(|c| c == '[' || c == ']').split(", ").collect();
        v.reverse();
        format!("[{}]", v.join(", "))
    };
    // Pinned to the transport these expectations were measured with (legacy_transport).
    run(&legacy_transport(&format!(
        r#"
name = "reroute"
duration = 100
sample_interval = "10ms"
[[links]]
a = "s0"
b = "R1"
bandwidth = "1Gbps"
delay = "1ms"
[[links]]
id = "bn"
a = "R1"
b = "R2"
bandwidth = "20Mbps"
delay = "10ms"
buffer = 2000
[[links]]
a = "R2"
b = "R3"
bandwidth = "1Gbps"
delay = "25.25ms"
[[links]]
a = "R3"
b = "R5"
bandwidth = "1Gbps"
delay = "25.25ms"
[[links]]
a = "R2"
b = "R4"
bandwidth = "1Gbps"
delay = "88ms"
[[links]]
a = "R4"
b = "R5"
bandwidth = "1Gbps"
delay = "88ms"
[[links]]
a = "R5"
b = "D"
bandwidth = "1Gbps"
delay = "1ms"
[[flows]]
id = "f0"
algorithm = "{alg}"
src = "s0"
dst = "D"
path = {first}
reverse_path = {rf}
params = {{ alpha = 100 }}
[[events]]
at = "30s"
kind = "reroute"
flow = "f0"
path = {second}
reverse_path = {rs}
"#,
        rf = rev(first),
        rs = rev(second),
    )))
}

#[test]
fn rrfast_recovers_from_a_longer_route_where_fast_stays_low() {
    let fast = rerouted("fast", true);
    let rr = rerouted("rrfast", true);
    let util = |sim: &delaycc_sim::Simulation, a: f64, b: f64| {
        window_mean(&series(sim, "bn:a->b", "throughput_bps"), a, b) / 20e6
    };
    assert!(util(&fast, 20.0, 30.0) > 0.95 && util(&rr, 20.0, 30.0) > 0.95, "both fill the link before");
    // FAST reads the longer path as congestion: its throughput collapses and stays low.
    assert!(util(&fast, 40.0, 100.0) < 0.5, "FAST after the reroute: {}", util(&fast, 40.0, 100.0));
    assert!(sim_base(&fast) < 0.13, "FAST keeps the old baseRTT");
    // RRFast resets baseRTT to the new path and refills the link within 30 s of the reroute.
    let tput = series(&rr, "bn:a->b", "throughput_bps");
    let refilled = (3000..tput.len() - 100)
        .find(|&k| mean(&tput[k..k + 100]) >= 0.9 * 20e6)
        .map(|k| k as f64 / 100.0 - 30.0);
    let after = refilled.expect("RRFast never regained 90 % of the link");
    assert!(after < 30.0, "RRFast regained 90 % only {after} s after the reroute");
    assert!(util(&rr, 70.0, 100.0) > 0.9);
    assert!(
        (0.37..0.40).contains(&sim_base(&rr)),
        "RRFast's baseRTT moved to the new path: {}",
        sim_base(&rr)
    );
    assert_eq!(series(&rr, "f0", "rr_resets").last().copied(), Some(1.0), "exactly one reset");
}

fn sim_base(sim: &delaycc_sim::Simulation) -> f64 {
    sim.flows()[0].sender.cc.trace().base_rtt.expect("base") as f64 / 1e9
}

#[test]
fn rrfast_and_fast_behave_alike_when_the_new_route_is_shorter() {
    let fast = rerouted("fast", false);
    let rr = rerouted("rrfast", false);
    assert_eq!(series(&fast, "f0", "cwnd_pkts"), series(&rr, "f0", "cwnd_pkts"));
    assert_eq!(series(&rr, "f0", "rr_resets").last().copied(), Some(0.0));
    // The minimum filter lowers baseRTT by itself. It does not reach the new 125 ms: the window that fitted
    // the long path leaves a standing queue on the short one, which FAST then counts as propagation
    // (docs/findings.md).
    assert!(sim_base(&rr) < 0.3, "baseRTT followed the shorter path down: {}", sim_base(&rr));
}

/// P001's simple configuration: one TCP flow, a 20 Mbps UDP burst from 1.5 s to 3 s on a 40 Mbps link.
fn p001_simple(alg: &str) -> delaycc_sim::Simulation {
    run(&format!(
        r#"
name = "p001-simple"
duration = 4.5
sample_interval = "1ms"
[[links]]
a = "tcp"
b = "R1"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
a = "udp"
b = "R1"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
id = "bn"
a = "R1"
b = "R2"
bandwidth = "40Mbps"
delay = "8ms"
buffer = 200
[[links]]
a = "R2"
b = "sink"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
a = "R2"
b = "usink"
bandwidth = "100Mbps"
delay = "1ms"
[[flows]]
id = "f"
algorithm = "{alg}"
src = "tcp"
dst = "sink"
[[traffic]]
kind = "cbr"
src = "udp"
dst = "usink"
rate = "20Mbps"
start = "1.5s"
stop = "3s"
"#
    ))
}

#[test]
fn rttbased_reacts_faster_than_vegas_with_a_lower_queue() {
    let rb = p001_simple("rttbased");
    let vg = p001_simple("vegas");
    // The queue over the first half second of the burst. Not its peak: ns-2's Vegas (the default flavour)
    // leaves slow start at about 30 packets, on the queue its own slow-start bursts build (delta > gamma,
    // tcp-vegas.cc line 246), then adds one packet per RTT, so at 1.5 s its window (~88) is still short of
    // the pipe (~104) and the burst's peak (~71 packets) is below rttbased's (~83). What differs is how
    // fast each drains it.
    let early = |s: &delaycc_sim::Simulation| {
        series(s, "bn:a->b", "queue_pkts")[1500..2000].iter().sum::<f64>() / 500.0
    };
    assert!(
        early(&rb) < 0.6 * early(&vg),
        "queue in the burst's first 0.5 s: rttbased {} vs vegas {}",
        early(&rb),
        early(&vg)
    );
    // Reaction: time after 1.5 s until the queue is back under 20 packets.
    let settle = |s: &delaycc_sim::Simulation| {
        let q = series(s, "bn:a->b", "queue_pkts");
        let top = (1500..3000).max_by(|&a, &b| q[a].total_cmp(&q[b])).unwrap_or(1500);
        (top..3000).find(|&k| q[k] < 20.0).map_or(f64::INFINITY, |k| k as f64 / 1000.0 - 1.5)
    };
    assert!(settle(&rb) < settle(&vg), "rttbased settles in {} s, vegas in {} s", settle(&rb), settle(&vg));
    // When the capacity returns it ramps up again, without much extra queue.
    let cw = series(&rb, "f", "cwnd_pkts");
    assert!(cw[4400] > 1.5 * cw[2900], "window regrows after the burst: {} -> {}", cw[2900], cw[4400]);
    assert!(series(&rb, "bn:a->b", "queue_pkts")[3000..].iter().all(|&q| q < 40.0));
    assert_eq!(rb.counts().dropped, 0);
}

/// P004's topology: 16 Mbps forward, C_b backward (both 18 ms), 200-packet buffers.
fn p004(alg: &str, k: Option<f64>, load: Option<f64>, offset: f64, seed: u64) -> delaycc_sim::Simulation {
    let cb = k.map_or(16e6, |k| 16e6 * 40.0 / 1000.0 / k);
    let traffic = load.map_or(String::new(), |l| {
        format!(
            "[[traffic]]\nkind = \"onoff\"\nsrc = \"S2\"\ndst = \"D2\"\nrate = \"30Mbps\"\nmean_on = \"500ms\"\nmean_off = {}\n",
            0.5 * (30.0 / (16.0 * l) - 1.0)
        )
    });
    let params = if alg.starts_with("fast") { "alpha = 10" } else { "" };
    // Pinned to the transport these expectations were measured with (legacy_transport).
    run(&legacy_transport(&format!(
        r#"
name = "p004"
seed = {seed}
duration = 60
sample_interval = "100ms"
[[links]]
a = "S1"
b = "R1"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
a = "S2"
b = "R2"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
id = "asym"
a = "R1"
b = "R2"
bandwidth = "16Mbps"
delay = "18ms"
reverse_bandwidth = {cb}
buffer = 200
[[links]]
a = "R2"
b = "D1"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
a = "R1"
b = "D2"
bandwidth = "100Mbps"
delay = "1ms"
[[flows]]
id = "f"
algorithm = "{alg}"
src = "S1"
dst = "D1"
params = {{ {params} }}
transport = {{ receiver_clock_offset = {offset} }}
{traffic}"#
    )))
}

fn throughput(sim: &delaycc_sim::Simulation) -> f64 {
    sim.flows()[0].receiver.data_bits as f64 / 60.0
}

#[test]
fn alt_keeps_throughput_on_slow_reverse_paths() {
    for (host, alt) in [("vegas", "vegas-alt"), ("fast", "fast-alt")] {
        for k in [2.0, 4.0, 8.0, 16.0, 32.0] {
            let (h, a) = (
                throughput(&p004(host, Some(k), None, 0.0, 1)),
                throughput(&p004(alt, Some(k), None, 0.0, 1)),
            );
            // At k = 2 the ACK path is just saturated; at the ns-2 module's cadence FAST-ALT gains 1.28x
            // there (Vegas-ALT 2x), and from k = 4 on at least 1.9x.
            let gain = if k == 2.0 { 1.2 } else { 1.3 };
            assert!(a > gain * h, "k = {k}: {alt} {a:.0} vs {host} {h:.0}");
        }
        // Idle symmetric path: no backward queueing to remove, so ALT changes nothing that matters.
        let (h, a) =
            (throughput(&p004(host, None, None, 0.0, 1)), throughput(&p004(alt, None, None, 0.0, 1)));
        assert!((a / h - 1.0).abs() < 0.02, "symmetric idle: {alt} {a:.0} vs {host} {h:.0}");
    }
}

#[test]
fn alt_keeps_throughput_under_backward_load() {
    // On/off cross traffic makes single runs noisy: compare means over four seeds.
    let mean_over_seeds = |alg: &str, load: f64| {
        mean(&(1..=4).map(|s| throughput(&p004(alg, None, Some(load), 0.0, s))).collect::<Vec<_>>())
    };
    for (host, alt) in [("vegas", "vegas-alt"), ("fast", "fast-alt")] {
        for load in [0.9, 1.0] {
            let (h, a) = (mean_over_seeds(host, load), mean_over_seeds(alt, load));
            assert!(a > 1.3 * h, "backward load {load}: {alt} {a:.0} vs {host} {h:.0}");
        }
    }
}

#[test]
fn vegas_is_ack_clocked_at_the_reverse_capacity_on_asymmetric_links() {
    // With 40-byte ACKs per 1000-byte packet, C_b = 16 Mbps·(40/1000)/k carries ACKs for 16/k Mbps.
    let t = throughput(&p004("vegas", Some(2.0), None, 0.0, 1));
    assert!((t / 8e6 - 1.0).abs() < 0.03, "Vegas at k = 2: {t:.0}");
}

#[test]
fn alt_does_not_depend_on_the_receivers_clock_offset() {
    for alg in ["vegas-alt", "fast-alt"] {
        let reference = series(&p004(alg, Some(8.0), None, 0.0, 1), "f", "cwnd_pkts").to_vec();
        for offset in [12.5, -3.25, 86400.0] {
            assert_eq!(
                series(&p004(alg, Some(8.0), None, offset, 1), "f", "cwnd_pkts"),
                &reference[..],
                "{alg} offset {offset}"
            );
        }
    }
}

#[test]
fn alt_acks_are_ten_bytes_larger() {
    let plain = p004("vegas", None, None, 0.0, 1);
    let alt = p004("vegas-alt", None, None, 0.0, 1);
    assert_eq!(plain.flows()[0].ack_size, 40);
    assert_eq!(alt.flows()[0].ack_size, 50);
}
