//! NewReno under random loss lands near the Mathis et al. estimate 1.22·MSS/(RTT·√p).

mod common;
use common::*;

fn throughput_vs_mathis(p: f64, seed: u64) -> (f64, f64) {
    // 100 ms RTT, a link far faster than the loss-limited rate, a buffer that never fills.
    let text = one_flow("newreno", "100Mbps", "50ms", 100_000, 300.0, &format!("loss = {p}"))
        .replace("duration = 300", &format!("duration = 300\nseed = {seed}"));
    let sim = run(&text);
    let f = &sim.flows()[0];
    let rtt = f.sender.stats.rtt_sum_ns / f.sender.stats.rtt_samples as f64 / 1e9;
    let measured = f.receiver.data_bits as f64 / 300.0;
    let mathis = 1.22 * 1000.0 * 8.0 / (rtt * p.sqrt());
    (measured, mathis)
}

#[test]
fn newreno_throughput_follows_mathis_over_a_range_of_loss_rates() {
    for p in [0.0005, 0.001, 0.003, 0.01, 0.02] {
        let (measured, mathis) = throughput_vs_mathis(p, 3);
        let ratio = measured / mathis;
        println!("p = {p}: measured {:.0} b/s, Mathis {:.0} b/s, ratio {ratio:.2}", measured, mathis);
        assert!((0.7..=1.3).contains(&ratio), "p = {p}: ratio {ratio:.2} is outside 30 % of Mathis");
    }
}
