//! TCP-LP's rules (Kuzmanovic & Knightly 2003 §III; Linux tcp_lp.c): the smoothed delay, the threshold,
//! the halving on an early indication, the inference window and the fall to one packet inside it.

use super::*;
use crate::cc::algorithm;

const MS: Time = 1_000_000;

fn lp(cwnd: f64) -> TcpLp {
    let p = algorithm("tcp-lp").expect("registered").defaults();
    TcpLp::new(&p, &FlowContext::new(cwnd))
}

/// An ACK at `now_ms` of a packet whose forward trip took `owd_ms`, with a 40 ms RTT.
fn ack_at(now_ms: u64, owd_ms: u64, offset: i64) -> AckEvent<'static> {
    let now = now_ms * MS;
    let sent = now - 40 * MS;
    let rcv = (sent + owd_ms * MS).wrapping_add(offset as u64);
    AckEvent {
        now,
        rtt: Some(40 * MS),
        acked: 1,
        inflight_at_send: 10,
        inflight: 10,
        in_recovery: false,
        snd_una: now_ms,
        rcv_arrival: rcv,
        rcv_leave: rcv,
        base_rtt: None,
        rate: None,
    }
}

#[test]
fn smoothed_delay_and_threshold_follow_gamma_and_delta() {
    let mut c = lp(10.0);
    c.on_ack(&ack_at(100, 10, 0));
    assert_eq!(c.threshold(), None, "no spread yet");
    c.on_ack(&ack_at(101, 18, 0));
    // sowd = 10 + (18 − 10)/8 = 11 ms; threshold = 10 + 0.15·8 = 11.2 ms.
    assert!((c.sowd.expect("sowd") - 11.0 * MS as f64).abs() < 1.0);
    assert!((c.threshold().expect("spread") - 11.2 * MS as f64).abs() < 1.0);
    assert_eq!(c.indications(), 0, "11 ms is below 11.2 ms");
}

/// Twenty ACKs at 20 ms, then the delay jumps to 100 ms from `jump_ms` on.
fn drive_to_first_indication(offset: i64) -> (TcpLp, u64) {
    let mut c = lp(20.0);
    c.reno.ssthresh = 20.0;
    for t in 0..20 {
        c.on_ack(&ack_at(100 + t, 20, offset));
    }
    let w = c.reno.cwnd;
    // sowd after the jump: 30, 38.75 ms against a threshold of 20 + 0.15·80 = 32 ms.
    c.on_ack(&ack_at(200, 100, offset));
    assert_eq!(c.indications(), 0);
    c.on_ack(&ack_at(201, 100, offset));
    assert_eq!(c.indications(), 1);
    assert!((c.reno.cwnd - (w + 1.0 / w) / 2.0).abs() < 1e-9, "halved: {} from {w}", c.reno.cwnd);
    (c, 201)
}

#[test]
fn an_early_indication_halves_cwnd_and_holds_it_for_the_inference_window() {
    let (mut c, t0) = drive_to_first_indication(0);
    let halved = c.reno.cwnd;
    // For one RTT (40 ms) the ACKs are of packets sent before the cut: their delays are its echo, not
    // indications, and they do not move the smoothed delay; no growth either.
    for t in 1..40 {
        c.on_ack(&ack_at(t0 + t, if t <= 5 { 100 } else { 20 }, 0));
    }
    assert_eq!(c.indications(), 1);
    assert_eq!(c.reno.cwnd, halved, "no growth inside the inference window");
    // Low delays after the echo but inside 3 RTTs (120 ms): still no growth.
    for t in 50..110 {
        c.on_ack(&ack_at(t0 + t, 20, 0));
    }
    assert_eq!(c.reno.cwnd, halved);
    // After the window Reno's congestion avoidance resumes (+1/cwnd per ACK).
    c.on_ack(&ack_at(t0 + 130, 20, 0));
    assert!((c.reno.cwnd - (halved + 1.0 / halved)).abs() < 1e-9, "cwnd {}", c.reno.cwnd);
}

#[test]
fn a_second_indication_inside_the_inference_window_sets_one_packet() {
    let (mut c, t0) = drive_to_first_indication(0);
    // The queue persists after the echo: another indication at +60 ms < 3 RTTs. The packet was sent
    // after the reduction, so its 100 ms starts the smoothed delay afresh, above the threshold.
    c.on_ack(&ack_at(t0 + 60, 100, 0));
    assert_eq!(c.indications(), 2);
    assert_eq!(c.reno.cwnd, 1.0);
    // It restarts the window; after it, slow start back towards the halved ssthresh.
    for t in 61..180 {
        c.on_ack(&ack_at(t0 + t, 20, 0));
    }
    assert_eq!(c.reno.cwnd, 1.0, "the window restarted at +60 ms and lasts to +180 ms");
    c.on_ack(&ack_at(t0 + 200, 20, 0));
    c.on_ack(&ack_at(t0 + 201, 20, 0));
    assert_eq!(c.reno.cwnd, 3.0, "slow start");
}

#[test]
fn an_indication_after_the_inference_window_only_halves() {
    let (mut c, t0) = drive_to_first_indication(0);
    let halved = c.reno.cwnd;
    c.on_ack(&ack_at(t0 + 125, 100, 0));
    assert_eq!(c.indications(), 2);
    assert!((c.reno.cwnd - halved / 2.0).abs() < 1e-9, "cwnd {} vs {}", c.reno.cwnd, halved / 2.0);
}

#[test]
fn the_receivers_clock_offset_cancels() {
    for offset in [-5_000_000_000i64, 86_400_000_000_000] {
        let (c, _) = drive_to_first_indication(offset);
        assert_eq!(c.indications(), 1, "offset {offset}");
    }
}

#[test]
fn losses_and_timeouts_are_renos() {
    let mut c = lp(20.0);
    c.on_loss(&LossEvent { now: 0, inflight: 20, lost_was_retransmit: false });
    assert_eq!((c.reno.cwnd, c.reno.ssthresh), (10.0, 10.0));
    c.on_timeout(0, 10);
    assert_eq!((c.reno.cwnd, c.reno.ssthresh), (1.0, 5.0));
}

fn lp_with_reset(reset: &str) -> TcpLp {
    let mut p = algorithm("tcp-lp").expect("registered").defaults();
    p.set("range_reset", crate::model::params::ParamValue::Str(reset.into()));
    let mut c = TcpLp::new(&p, &FlowContext::new(20.0));
    c.reno.ssthresh = 20.0;
    c
}

/// Twenty ACKs at 20 ms, then two at 100 ms: the second is the first indication (sowd 38.75 ms).
fn first_indication(c: &mut TcpLp, offset: i64) {
    for t in 0..20 {
        c.on_ack(&ack_at(100 + t, 20, offset));
    }
    c.on_ack(&ack_at(200, 100, offset));
    c.on_ack(&ack_at(201, 100, offset));
    assert_eq!(c.indications(), 1);
}

#[test]
fn an_indication_restarts_the_range_one_way_from_the_smoothed_delay() {
    // sowd 38.75 ms; d_min = sowd, d_max = sowd + 40 ms / 2: threshold 38.75 + 0.15·20 = 41.75 ms.
    let mut c = lp_with_reset("one-way");
    first_indication(&mut c, 0);
    assert!((c.threshold().expect("range") - 41.75 * MS as f64).abs() < 2.0, "{:?}", c.threshold());
    // Without the reset the range would still be [20, 100] ms and the threshold 32 ms.
    let mut n = lp_with_reset("none");
    first_indication(&mut n, 0);
    assert!((n.threshold().expect("range") - 32.0 * MS as f64).abs() < 2.0, "{:?}", n.threshold());
}

#[test]
fn the_linux_reset_doubles_the_smoothed_delay() {
    // d_max = 2·sowd: threshold 38.75 + 0.15·38.75 = 44.5625 ms.
    let mut c = lp_with_reset("linux");
    first_indication(&mut c, 0);
    assert!((c.threshold().expect("range") - 44.5625 * MS as f64).abs() < 2.0, "{:?}", c.threshold());
}

#[test]
fn the_one_way_reset_does_not_depend_on_the_receivers_clock() {
    let margin = |offset: i64| {
        let mut c = lp_with_reset("one-way");
        first_indication(&mut c, offset);
        c.threshold().expect("range") - c.sowd.expect("sowd")
    };
    for offset in [-5_000_000_000i64, 86_400_000_000_000] {
        assert!((margin(offset) - margin(0)).abs() < 2.0, "offset {offset}");
    }
}

#[test]
fn a_queue_that_keeps_growing_after_the_reset_is_a_second_indication() {
    // After the echo RTT, a sowd δ·(min RTT/2) = 3 ms above the reset minimum means other traffic.
    let mut c = lp_with_reset("one-way");
    first_indication(&mut c, 0);
    for t in 1..60 {
        c.on_ack(&ack_at(201 + t, 40, 0));
    }
    assert_eq!(c.indications(), 1, "a smoothed delay near 40 ms stays under 41.75 ms");
    for t in 60..70 {
        c.on_ack(&ack_at(201 + t, 60, 0));
    }
    assert_eq!(c.indications(), 2);
    assert_eq!(c.reno.cwnd, 1.0, "inside the inference window");
}

#[test]
fn the_echo_of_a_reduction_neither_indicates_nor_moves_the_smoothed_delay() {
    let (mut c, t0) = drive_to_first_indication(0);
    let sowd = c.sowd.expect("sowd");
    // Sent 39 ms to 1 ms before the cut, with ever larger delays.
    for t in 1..40 {
        c.on_ack(&ack_at(t0 + t, 100 + 10 * t, 0));
    }
    assert_eq!(c.indications(), 1);
    assert_eq!(c.sowd, Some(sowd), "echo samples leave the smoothed delay alone");
    assert!(c.owd_max as f64 >= 490.0 * MS as f64, "but they widen the range");
    // The first packet sent after the cut starts the smoothed delay from its own sample.
    c.on_ack(&ack_at(t0 + 41, 20, 0));
    assert_eq!(c.sowd, Some(20.0 * MS as f64));
    assert_eq!(c.indications(), 1);
}
