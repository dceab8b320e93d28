//! TCP-LP's rules (Kuzmanovic & Knightly 2003 §III; Linux tcp_lp.c): the smoothed delay, the threshold,
//! the halving on an early indication, the inference window and the fall to one packet inside it.

use super::*;
use crate::cc::{algorithm, AckTimestamps};

const MS: Time = 1_000_000;

fn lp(cwnd: f64) -> TcpLp {
    let p = algorithm("tcp-lp").expect("registered").defaults();
    TcpLp::new(&p, &FlowContext::new(cwnd))
}

/// An ACK at `now_ms` of a packet whose forward trip took `owd_ms`, with a 40 ms RTT.
fn ack_at(now_ms: u64, owd_ms: u64, offset: i64) -> AckEvent {
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
        timestamps: Some(AckTimestamps { sent, rcv_arrival: rcv, rcv_leave: rcv, acked: now }),
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
    c.ssthresh = 20.0;
    for t in 0..20 {
        c.on_ack(&ack_at(100 + t, 20, offset));
    }
    let w = c.cwnd;
    // sowd after the jump: 30, 38.75 ms against a threshold of 20 + 0.15·80 = 32 ms.
    c.on_ack(&ack_at(200, 100, offset));
    assert_eq!(c.indications(), 0);
    c.on_ack(&ack_at(201, 100, offset));
    assert_eq!(c.indications(), 1);
    assert!((c.cwnd - (w + 1.0 / w) / 2.0).abs() < 1e-9, "halved: {} from {w}", c.cwnd);
    (c, 201)
}

#[test]
fn an_early_indication_halves_cwnd_and_holds_it_for_the_inference_window() {
    let (mut c, t0) = drive_to_first_indication(0);
    let halved = c.cwnd;
    // Within one RTT (40 ms) more indications are the echo of the cut: ignored, and no growth. The queue
    // then drains: the smoothed delay is below the threshold again before the RTT is over.
    for t in 1..40 {
        c.on_ack(&ack_at(t0 + t, if t <= 5 { 100 } else { 20 }, 0));
    }
    assert_eq!(c.indications(), 1);
    assert_eq!(c.cwnd, halved, "no growth inside the inference window");
    // Low delays after the echo but inside 3 RTTs (120 ms): still no growth.
    for t in 50..110 {
        c.on_ack(&ack_at(t0 + t, 20, 0));
    }
    assert_eq!(c.cwnd, halved);
    // After the window Reno's congestion avoidance resumes (+1/cwnd per ACK).
    c.on_ack(&ack_at(t0 + 130, 20, 0));
    assert!((c.cwnd - (halved + 1.0 / halved)).abs() < 1e-9, "cwnd {}", c.cwnd);
}

#[test]
fn a_second_indication_inside_the_inference_window_sets_one_packet() {
    let (mut c, t0) = drive_to_first_indication(0);
    // The queue persists after the echo: another indication at +60 ms < 3 RTTs.
    c.on_ack(&ack_at(t0 + 60, 100, 0));
    assert_eq!(c.indications(), 2);
    assert_eq!(c.cwnd, 1.0);
    // It restarts the window; after it, slow start back towards the halved ssthresh.
    for t in 61..180 {
        c.on_ack(&ack_at(t0 + t, 20, 0));
    }
    assert_eq!(c.cwnd, 1.0, "the window restarted at +60 ms and lasts to +180 ms");
    c.on_ack(&ack_at(t0 + 200, 20, 0));
    c.on_ack(&ack_at(t0 + 201, 20, 0));
    assert_eq!(c.cwnd, 3.0, "slow start");
}

#[test]
fn an_indication_after_the_inference_window_only_halves() {
    let (mut c, t0) = drive_to_first_indication(0);
    let halved = c.cwnd;
    c.on_ack(&ack_at(t0 + 125, 100, 0));
    assert_eq!(c.indications(), 2);
    assert!((c.cwnd - halved / 2.0).abs() < 1e-9, "cwnd {} vs {}", c.cwnd, halved / 2.0);
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
    assert_eq!((c.cwnd, c.ssthresh), (10.0, 10.0));
    c.on_timeout(0, 10);
    assert_eq!((c.cwnd, c.ssthresh), (1.0, 5.0));
}
