//! Physics of the network and of loss-based TCP: utilization, the sawtooth, conservation, overload.

mod common;
use common::*;

#[test]
fn newreno_fills_a_one_bdp_buffer_link_after_slow_start() {
    // 10 Mbps, 20 ms one-way: BDP = 10e6 * 0.04 / 8000 = 50 packets.
    let sim = run(&one_flow("newreno", "10Mbps", "20ms", 50, 60.0, ""));
    let tput = series(&sim, "bottleneck:a->b", "throughput_bps");
    // Samples every 10 ms; skip the first 5 s (slow start and its overshoot).
    let steady = mean(&tput[500..]);
    assert!(steady >= 0.95 * 10e6, "steady-state utilization {:.3}", steady / 10e6);
    assert_conserved(&sim);
}

#[test]
fn tiny_buffer_gives_the_sawtooth_with_halving_on_each_loss() {
    let sim = run(&one_flow("newreno", "10Mbps", "20ms", 5, 60.0, ""));
    let cwnd = series(&sim, "f", "cwnd_pkts");
    let mut cuts = Vec::new();
    for w in cwnd.windows(2).skip(500) {
        if w[1] < w[0] - 1.0 {
            cuts.push(w[1] / w[0]);
        }
    }
    assert!(cuts.len() >= 10, "expected many loss episodes, saw {}", cuts.len());
    for r in &cuts {
        assert!((0.45..=0.56).contains(r), "window after a loss is {r:.3} of the window before, not half");
    }
    // Between losses the window grows again (congestion avoidance): the sawtooth.
    let grows = cwnd.windows(2).skip(500).filter(|w| w[1] > w[0]).count();
    assert!(grows > 10 * cuts.len());
    // The slow-start overshoot loses many packets of one window; ns-2's NewReno restarts its timer only on
    // the first partial ACK, so that recovery ends in one timeout. The sawtooth after it has none.
    assert!(sim.flows()[0].sender.stats.timeouts <= 1, "{} timeouts", sim.flows()[0].sender.stats.timeouts);
    assert_conserved(&sim);
}

#[test]
fn cbr_at_120_percent_loses_exactly_what_the_queue_cannot_hold() {
    let sim = run(r#"
name = "cbr"
duration = 20
[[links]]
a = "u1"
b = "r"
bandwidth = "1Gbps"
delay = "1ms"
[[links]]
id = "bottleneck"
a = "r"
b = "u2"
bandwidth = "10Mbps"
delay = "5ms"
buffer = 100
[[traffic]]
id = "cbr"
kind = "cbr"
src = "u1"
dst = "u2"
rate = "12Mbps"
packet_size = 1000
"#);
    assert_conserved(&sim);
    let src = &sim.sources()[0];
    // 12 Mbps of 1000-byte packets for 20 s.
    assert_eq!(src.sent, 30_000);
    let bn = &sim.links()[2];
    assert_eq!(bn.stats.loss_drops, 0);
    assert_eq!(sim.counts().dropped, bn.stats.queue_drops, "only the bottleneck queue drops");
    // Everything not dropped and not still in the network arrives.
    assert_eq!(src.delivered + sim.counts().dropped + sim.counts().in_flight, src.sent);
    // The bottleneck runs at capacity and the excess (1/6 of the offered load, minus the buffer) is lost.
    let capacity_pkts = 10e6 * 20.0 / 8000.0;
    let expected_drops = src.sent as f64 - capacity_pkts - 100.0;
    let drops = sim.counts().dropped as f64;
    assert!((drops - expected_drops).abs() <= 5.0, "drops {drops} vs {expected_drops}");
    assert_eq!(bn.stats.max_queue_pkts, 100);
}

#[test]
fn conservation_holds_with_loss_reroutes_and_link_failures() {
    let sim = run(r#"
name = "churn"
duration = 30
[[links]]
a = "s"
b = "r1"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
id = "p1"
a = "r1"
b = "r2"
bandwidth = "10Mbps"
delay = "10ms"
buffer = 20
loss = 0.01
[[links]]
id = "p2"
a = "r1"
b = "r3"
bandwidth = "5Mbps"
delay = "20ms"
buffer = 30
[[links]]
a = "r3"
b = "r2"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
a = "r2"
b = "d"
bandwidth = "100Mbps"
delay = "1ms"
[[flows]]
id = "a"
algorithm = "newreno"
src = "s"
dst = "d"
[[flows]]
id = "b"
algorithm = "reno"
src = "s"
dst = "d"
start = "2s"
bytes = "5MB"
[[traffic]]
kind = "onoff"
src = "s"
dst = "d"
rate = "4Mbps"
mean_on = "300ms"
mean_off = "700ms"
[[events]]
at = "10s"
kind = "reroute"
flow = "a"
path = ["s", "r1", "r3", "r2", "d"]
[[events]]
at = "15s"
kind = "link"
link = "p1"
up = false
[[events]]
at = "17s"
kind = "link"
link = "p1"
up = true
bandwidth = "20Mbps"
delay = "5ms"
"#);
    assert_conserved(&sim);
    assert!(sim.counts().dropped > 0);
    // The finite transfer finished: 5 MB of 960-byte payloads.
    let b = &sim.flows()[1];
    assert_eq!(b.total_pkts, Some(5_209));
    assert!(b.received_all_at.is_some(), "the 5 MB transfer should complete");
    assert_eq!(b.receiver.rcv_nxt, 5_209);
}

#[test]
fn queues_never_exceed_their_capacity() {
    let sim = run(&one_flow("newreno", "10Mbps", "20ms", 17, 30.0, ""));
    let q = series(&sim, "bottleneck:a->b", "queue_pkts");
    assert!(q.iter().all(|&x| x <= 17.0));
    assert_eq!(sim.links()[2].stats.max_queue_pkts, 17);
}

#[test]
fn byte_buffers_hold_bytes_not_packets() {
    let sim =
        run(&one_flow("newreno", "10Mbps", "20ms", 1, 20.0, "")
            .replace("buffer = 1", "buffer_bytes = \"10KB\""));
    // 10 KB holds ten 1000-byte packets.
    assert_eq!(sim.links()[2].stats.max_queue_pkts, 10);
    assert_conserved(&sim);
}

#[test]
fn min_rtt_is_propagation_plus_serialisation() {
    let sim = run(&one_flow("newreno", "10Mbps", "20ms", 50, 5.0, ""));
    // 40 ms propagation + 1000 B at 10 Mbps (0.8 ms) + ACKs and access links (tiny).
    let min = sim.flows()[0].sender.stats.rtt_min().unwrap_or(0) as f64 / 1e9;
    assert!((0.0408..0.0412).contains(&min), "min RTT {min}");
}
