//! Copa's rules one at a time, on scripted RTT sequences (ACKs built by hand, so every sample is
//! known) and on the scripted FIFO path of `cc/scripted.rs`.

use super::*;
use crate::cc::scripted::{ack_event, ScriptedPath};
use crate::cc::{algorithm, ParamValue};
const MS: Time = 1_000_000;

fn copa_with(set: &[(&'static str, ParamValue)]) -> Copa {
    let mut p = algorithm("copa").expect("registered").defaults();
    for (k, v) in set {
        p.set(k, v.clone());
    }
    Copa::new(&p, &FlowContext::new(10.0))
}

fn copa() -> Copa {
    copa_with(&[])
}

/// One ACK of one packet at `t_s` seconds carrying an RTT sample of `rtt_ms`.
fn ack(c: &mut Copa, t_s: f64, rtt_ms: f64) {
    c.on_ack(&ack_event(from_secs(t_s), from_secs(rtt_ms / 1e3), 1));
}

/// Samples of `rtt_ms` every `step_ms` over [from_s, to_s).
fn acks(c: &mut Copa, from_s: f64, to_s: f64, step_ms: f64, rtt_ms: f64) {
    let n = ((to_s - from_s) * 1e3 / step_ms).round() as usize;
    for i in 0..n {
        ack(c, from_s + i as f64 * step_ms / 1e3, rtt_ms);
    }
}

fn ms(t: Option<Time>) -> f64 {
    secs(t.expect("a sample")) * 1e3
}

#[test]
fn the_rate_against_the_target_rate_decides_the_direction() {
    // RTTmin 100 ms, RTTstanding 110 ms: dq = 10 ms, λt = 1/(0.5 · 10 ms) = 200 packets/s.
    let mut c = copa();
    ack(&mut c, 0.0, 100.0);
    c.slow_start = false;
    c.cwnd = 20.0; // λ = 20/0.11 = 182 ≤ 200: up by v/(δ·cwnd) = 1/(0.5·20) = 0.1
    ack(&mut c, 1.0, 110.0);
    assert!((c.cwnd - 20.1).abs() < 1e-9, "{}", c.cwnd);
    c.cwnd = 25.0; // λ = 227 > 200: down by 1/(0.5·25) = 0.08
    ack(&mut c, 1.001, 110.0);
    assert!((c.cwnd - 24.92).abs() < 1e-9, "{}", c.cwnd);
    // A larger δ lowers the target: 20 packets are now above λt = 1/(1 · 10 ms) = 100 packets/s.
    let mut c = copa_with(&[("delta", ParamValue::Num(1.0))]);
    ack(&mut c, 0.0, 100.0);
    c.slow_start = false;
    c.cwnd = 20.0;
    ack(&mut c, 1.0, 110.0);
    assert!((c.cwnd - 19.95).abs() < 1e-9, "{}", c.cwnd);
}

#[test]
fn slow_start_doubles_per_rtt_until_the_rate_exceeds_the_target() {
    let mut c = copa();
    // No queue: λt is infinite, one packet per ACK.
    acks(&mut c, 0.0, 0.01, 1.0, 100.0);
    assert!(c.in_slow_start() && (c.cwnd - 20.0).abs() < 1e-9, "{}", c.cwnd);
    // dq = 10 ms: λ = 20/0.11 ≤ 200 still grows; at 22 packets λ = 200 is still at the target, 23 is over.
    acks(&mut c, 1.0, 1.003, 1.0, 110.0);
    assert!(c.in_slow_start() && (c.cwnd - 23.0).abs() < 1e-9, "{}", c.cwnd);
    ack(&mut c, 1.003, 110.0);
    assert!(!c.in_slow_start() && c.cwnd < 23.0, "{}", c.cwnd);
}

#[test]
fn velocity_doubles_after_three_rtts_in_one_direction_and_resets_on_a_change() {
    let mut c = copa();
    acks(&mut c, 0.0, 1.0, 10.0, 100.0);
    c.slow_start = false;
    // Far above the target (22 packets at dq = 10 ms): the window goes down every RTT.
    c.cwnd = 2000.0;
    let mut per_rtt = Vec::new();
    for k in 0..9 {
        let from = 1.0 + k as f64 * 0.11;
        acks(&mut c, from, from + 0.11, 1.0, 110.0);
        per_rtt.push(c.velocity());
    }
    // Comparisons once per srtt (≈ 0.11 s): the first sets the direction, three more that agree start
    // the doubling, once per RTT.
    assert_eq!(per_rtt[..3], [1.0, 1.0, 1.0], "{per_rtt:?}");
    assert!(per_rtt.windows(2).skip(3).all(|w| w[1] == 2.0 * w[0]), "{per_rtt:?}");
    assert!(per_rtt[8] >= 16.0, "{per_rtt:?}");
    // Below the target now: the first ACK that decides "up" resets v at once.
    c.cwnd = 5.0;
    ack(&mut c, 2.0, 110.0);
    assert_eq!(c.velocity(), 1.0);
    assert!(c.cwnd > 5.0);
}

#[test]
fn rtt_standing_is_the_minimum_of_the_last_half_srtt() {
    let mut c = copa();
    acks(&mut c, 0.0, 1.0, 10.0, 100.0);
    ack(&mut c, 2.0, 130.0);
    ack(&mut c, 2.03, 150.0);
    // srtt is now 109.5 ms: its half, 54.7 ms, still holds the 130 ms sample of 30 ms ago.
    assert!((ms(c.srtt) - 109.53).abs() < 0.01, "{:?}", c.srtt);
    assert!((ms(c.rtt_standing()) - 130.0).abs() < 1e-6);
    // 60 ms after it, more than srtt/2 = 57.7 ms: gone.
    ack(&mut c, 2.06, 150.0);
    assert!((ms(c.rtt_standing()) - 150.0).abs() < 1e-6);
    // RTTmin is the 10 s minimum, unaffected.
    assert!((ms(c.rtt_min()) - 100.0).abs() < 1e-6);
}

#[test]
fn rtt_min_is_the_minimum_of_the_last_ten_seconds() {
    let mut c = copa();
    ack(&mut c, 0.0, 100.0);
    acks(&mut c, 0.1, 10.0, 100.0, 120.0);
    assert!((ms(c.rtt_min()) - 100.0).abs() < 1e-6, "10 s have not passed");
    ack(&mut c, 10.001, 120.0);
    assert!((ms(c.rtt_min()) - 120.0).abs() < 1e-6, "the 100 ms sample is over 10 s old");
    // A shorter window forgets sooner.
    let mut c = copa_with(&[("min_rtt_window", ParamValue::Num(1.0))]);
    ack(&mut c, 0.0, 100.0);
    acks(&mut c, 0.1, 1.2, 100.0, 120.0);
    assert!((ms(c.rtt_min()) - 120.0).abs() < 1e-6);
}

#[test]
fn a_queue_that_never_empties_for_five_rtts_switches_to_competitive_mode_and_back() {
    let mut c = copa();
    // An empty queue, then 100 ms of standing queue that never drains (a buffer filler).
    acks(&mut c, 0.0, 1.0, 10.0, 100.0);
    acks(&mut c, 1.0, 1.8, 10.0, 200.0);
    // The queue was last empty at about 1.05 s (RTTstanding's window still held a 100 ms sample) and
    // srtt is near 200 ms: 5 RTTs are about 1 s.
    assert!(!c.competitive(), "not yet 5 RTTs");
    assert_eq!(c.delta(), 0.5);
    acks(&mut c, 1.8, 2.2, 10.0, 200.0);
    assert!(c.competitive(), "5 RTTs without an empty queue");
    // AIMD on 1/δ: one more per RTT (srtt 200 ms) ...
    let inv_at = |c: &Copa| 1.0 / c.delta();
    let before = inv_at(&c);
    acks(&mut c, 2.2, 3.2, 10.0, 200.0);
    let after = inv_at(&c);
    assert!((after - before - 5.0).abs() <= 1.0, "1/δ {before} -> {after} in five RTTs");
    // ... halved on a loss, once per RTT ...
    c.on_loss(&LossEvent { now: from_secs(3.2), inflight: 10, lost_was_retransmit: false });
    c.on_loss(&LossEvent { now: from_secs(3.25), inflight: 10, lost_was_retransmit: false });
    assert!((inv_at(&c) - after / 2.0).abs() < 1e-9, "{} vs {after}", inv_at(&c));
    // ... and back to the default δ once the queue empties again.
    acks(&mut c, 3.3, 3.6, 10.0, 100.0);
    assert!(!c.competitive());
    assert_eq!(c.delta(), 0.5);
    // With the switch off the mode never changes.
    let mut c = copa_with(&[("competitive", ParamValue::Bool(false))]);
    acks(&mut c, 0.0, 1.0, 10.0, 100.0);
    acks(&mut c, 1.0, 5.0, 10.0, 200.0);
    assert!(!c.competitive() && c.delta() == 0.5);
}

#[test]
fn alone_on_a_fifo_it_holds_a_small_queue_that_drains_and_stays_mostly_in_default_mode() {
    // 40 ms propagation, 1 ms per packet: a 40-packet pipe, no pacing on this path. Copa alone holds
    // about 1/δ = 2 packets queued (λ = λt at dq = 1/(δ·μ) = 2 ms), its oscillation drains the queue
    // every few RTTs, so it is competitive only now and then (the mode's test is strict: dq under 10 %
    // of the recent maximum, i.e. no queue at all at this packet size).
    let mut path = ScriptedPath::new(copa(), 40 * MS, MS);
    let (mut queue, mut competitive) = (Vec::new(), 0);
    for i in 1..=4000 {
        path.run_until(i * 5 * MS);
        if i > 400 {
            queue.push(path.queue_pkts());
            competitive += path.cc.competitive() as usize;
        }
    }
    let mean = queue.iter().sum::<f64>() / queue.len() as f64;
    let low = queue.iter().copied().fold(f64::INFINITY, f64::min);
    let share = competitive as f64 / queue.len() as f64;
    assert!((1.0..=4.0).contains(&mean), "mean queue {mean} packets");
    assert!(low <= 1.0, "the queue drains to the packet in service at times: {low}");
    assert!(share < 0.2, "competitive {share} of the time");
}

#[test]
fn paces_at_twice_the_window_per_standing_rtt_and_a_timeout_sets_the_floor() {
    let mut c = copa();
    assert_eq!(c.pacing_rate(), None, "no RTT sample yet");
    ack(&mut c, 0.0, 100.0);
    // 11 packets of 8000 bits, twice per 100 ms.
    assert!((c.pacing_rate().unwrap() - 2.0 * 11.0 * 8000.0 / 0.1).abs() < 1e-6);
    c.on_timeout(from_secs(1.0), 11);
    assert_eq!(c.window(), 2.0);
    assert_eq!(c.velocity(), 1.0);
}

#[test]
fn a_cumulative_ack_moves_the_window_one_packet_at_a_time() {
    // After a timeout (cwnd 2) with 1/δ = 20, as competitive mode reaches, an ACK covering 100 packets:
    // applied per packet the window grows like the square root of what was acknowledged (cwnd² grows by
    // about 2·v/δ per packet: some 64 packets here), where one step of 100·v/(δ·cwnd) would make it 1002.
    let mut c = copa();
    ack(&mut c, 0.0, 100.0);
    c.slow_start = false;
    c.mode = ModeSwitch::new(true, 0.05, 0.1, 5.0, 4.0);
    c.on_timeout(from_secs(0.5), 10);
    c.on_ack(&ack_event(from_secs(1.0), from_secs(0.1), 100));
    let expected = (4.0f64 + 2.0 * 20.0 * 100.0).sqrt();
    assert!((c.window() / expected - 1.0).abs() < 0.03, "{} vs about {expected}", c.window());
}
