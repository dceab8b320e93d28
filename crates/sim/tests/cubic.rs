//! CUBIC (issue 9): the window follows W(t) = C(t - K)^3 + W_max between losses, and on a high-BDP path
//! it regains the link after a loss much faster than NewReno.

mod common;
use common::*;

fn high_bdp(alg: &str) -> delaycc_sim::Simulation {
    // 100 Mbps, 100 ms RTT: 1250 packets in flight, a 1-BDP buffer; slow start ends at 1000 packets so
    // the first congestion event is the scripted drop of packet 60000.
    run(&format!(
        r#"
name = "high-bdp"
duration = 60
sample_interval = "10ms"
[[links]]
a = "s"
b = "r"
bandwidth = "1Gbps"
delay = "0ms"
[[links]]
id = "bn"
a = "r"
b = "d"
bandwidth = "100Mbps"
delay = "50ms"
buffer = 1250
drop_packets = [{{ flow = "f", seq = 60000 }}]
[[flows]]
id = "f"
algorithm = "{alg}"
src = "s"
dst = "d"
params = {{ initial_ssthresh = 1000 }}
"#
    ))
}

#[test]
fn cubic_window_follows_the_cubic_curve_after_a_loss() {
    let sim = high_bdp("cubic");
    let cwnd = series(&sim, "f", "cwnd_pkts");
    let w_max = series(&sim, "f", "w_max_pkts");
    let k = series(&sim, "f", "k_s");
    let cut = cwnd.windows(2).position(|w| w[1] < w[0] - 5.0).expect("a loss") + 1;
    // The epoch (and K) starts when recovery ends, about an RTT after the cut.
    let (wm, kk) = (w_max[cut + 50], k[cut + 50]);
    assert!((kk - (wm * 0.3 / 0.4).cbrt()).abs() < 0.01, "K = cbrt(W_max(1-β)/C): {kk}");
    for dt in [0.5, 1.0, 2.0, 4.0, 6.0, 8.0] {
        let i = cut + (dt * 100.0) as usize;
        let expected = 0.4 * (dt - kk).powi(3) + wm;
        let got = cwnd[i];
        assert!((got / expected - 1.0).abs() < 0.03, "t = {dt} s: cwnd {got:.1} vs W(t) {expected:.1}");
    }
    assert_conserved(&sim);
}

#[test]
fn cubic_regains_a_high_bdp_link_faster_than_newreno() {
    let cubic = high_bdp("cubic");
    let newreno = high_bdp("newreno");
    let first = |sim: &delaycc_sim::Simulation| sim.flows()[0].sender.convergence.episodes[0].1 as f64 / 1e9;
    let (c, n) = (first(&cubic), first(&newreno));
    println!("time to regain the pre-loss window: CUBIC {c:.1} s, NewReno {n:.1} s");
    assert!(c < 0.3 * n, "CUBIC {c} s vs NewReno {n} s");
}
