//! LEDBAT against RFC 6817 §2.4.2's pseudocode: the window change of single ACKs for given queueing
//! delays, the base history's minute slots, the current filter, loss and timeout, and a scripted path.

use super::*;
use crate::cc::scripted::ScriptedPath;
use crate::cc::{algorithm, ParamValue};

const MS: Time = 1_000_000;

fn ledbat(cwnd: f64, set: &[(&'static str, ParamValue)]) -> Ledbat {
    let mut p = algorithm("ledbat").expect("registered").defaults();
    for (k, v) in set {
        p.set(k, v.clone());
    }
    Ledbat::new(&p, &FlowContext::new(cwnd))
}

/// An ACK at `now_ms` whose packet took `owd_ms` forward (receiver clock `offset` ahead), 40 ms RTT.
fn ack_at(now_ms: u64, owd_ms: u64, offset: i64, inflight: u64) -> AckEvent<'static> {
    let now = now_ms * MS;
    let sent = now - 40 * MS;
    let rcv = (sent + owd_ms * MS).wrapping_add(offset as u64);
    AckEvent {
        now,
        rtt: Some(40 * MS),
        acked: 1,
        inflight_at_send: inflight as u32,
        inflight,
        in_recovery: false,
        snd_una: now_ms,
        rcv_arrival: rcv,
        rcv_leave: rcv,
        base_rtt: None,
        rate: None,
    }
}

fn one_sample_filter() -> [(&'static str, ParamValue); 1] {
    [("current_filter", ParamValue::Num(1.0))]
}

#[test]
fn each_ack_moves_cwnd_by_gain_times_off_target_over_cwnd() {
    // Base 20 ms; queueing delay q gives off_target = (100 − q)/100 and Δcwnd = off_target/cwnd.
    for (q_ms, expected) in [(0, 0.1), (50, 0.05), (100, 0.0), (150, -0.05), (300, -0.2)] {
        let mut c = ledbat(10.0, &one_sample_filter());
        c.on_ack(&ack_at(0, 20, 0, 100));
        c.cwnd = 10.0;
        c.on_ack(&ack_at(1, 20 + q_ms, 0, 100));
        assert!((c.cwnd - (10.0 + expected)).abs() < 1e-12, "q {q_ms} ms: cwnd {}", c.cwnd);
    }
}

#[test]
fn gain_scales_the_change() {
    let mut c = ledbat(10.0, &[("current_filter", ParamValue::Num(1.0)), ("gain", ParamValue::Num(0.5))]);
    c.on_ack(&ack_at(0, 20, 0, 100));
    c.cwnd = 10.0;
    c.on_ack(&ack_at(1, 20, 0, 100));
    assert!((c.cwnd - 10.05).abs() < 1e-12);
}

#[test]
fn cwnd_is_capped_by_flight_plus_allowed_increase_and_floored_at_min_cwnd() {
    let mut c = ledbat(10.0, &one_sample_filter());
    c.on_ack(&ack_at(0, 20, 0, 100));
    // 10 outstanding before the ACK (9 after it + 1 acked): at most 11.
    c.cwnd = 10.95;
    c.on_ack(&ack_at(1, 20, 0, 9));
    assert_eq!(c.cwnd, 11.0);
    // A second of queueing: off_target = −9, 2 − 9/2 < 0, held at MIN_CWND.
    c.cwnd = 2.0;
    c.on_ack(&ack_at(2, 1020, 0, 100));
    assert_eq!(c.cwnd, 2.0);
}

#[test]
fn the_receivers_clock_offset_cancels() {
    for offset in [0i64, 3_600_000_000_000, -7_000_000_000] {
        let mut c = ledbat(10.0, &one_sample_filter());
        c.on_ack(&ack_at(0, 20, offset, 100));
        c.cwnd = 10.0;
        c.on_ack(&ack_at(1, 70, offset, 100));
        assert!((c.queuing_delay().expect("estimate") - 0.050).abs() < 1e-9, "offset {offset}");
        assert!((c.cwnd - 10.05).abs() < 1e-12, "offset {offset}: cwnd {}", c.cwnd);
    }
}

#[test]
fn base_history_keeps_one_minimum_per_minute_for_base_history_minutes() {
    let mut d = OneWayDelays::new(10, 4);
    let min = 60_000 * MS;
    // Minute 0 saw 10 ms; from minute 1 on the path is 30 ms long (a longer route).
    d.add(0, 10 * MS as i64, None);
    d.add(30_000 * MS, 12 * MS as i64, None);
    assert_eq!(d.base_slots(), 1, "one slot per minute");
    for m in 1..10 {
        d.add(m * min, 30 * MS as i64, None);
    }
    assert_eq!(d.base_slots(), 10);
    assert_eq!(d.base(), Some(10 * MS as i64), "minute 0 is still in the history");
    d.add(10 * min, 30 * MS as i64, None);
    assert_eq!(d.base_slots(), 10);
    assert_eq!(d.base(), Some(30 * MS as i64), "minute 0 rolled out after BASE_HISTORY minutes");
    // A shorter path is adopted at once.
    d.add(10 * min + 1, 5 * MS as i64, None);
    assert_eq!(d.base(), Some(5 * MS as i64));
}

#[test]
fn current_filter_is_the_minimum_of_the_latest_samples_within_an_rtt() {
    let mut d = OneWayDelays::new(10, 4);
    for (i, x) in [5, 3, 8, 9, 7].into_iter().enumerate() {
        d.add(i as Time * MS, x, Some(100 * MS));
    }
    assert_eq!(d.current(), Some(3), "last four: 3 8 9 7");
    d.add(5 * MS, 6, Some(100 * MS));
    assert_eq!(d.current(), Some(6), "last four: 8 9 7 6");
    // Samples older than an RTT leave the filter even when fewer than four remain.
    d.add(200 * MS, 20, Some(100 * MS));
    assert_eq!(d.current(), Some(20));
    assert_eq!(d.base(), Some(3), "the base keeps the minute's minimum");
}

#[test]
fn a_loss_halves_cwnd_at_most_once_per_rtt() {
    let mut c = ledbat(20.0, &[]);
    c.on_ack(&ack_at(0, 20, 0, 100));
    c.cwnd = 20.0;
    let loss = |ms: u64| LossEvent { now: ms * MS, inflight: 20, lost_was_retransmit: false };
    c.on_loss(&loss(1000));
    assert_eq!(c.cwnd, 10.0);
    c.on_loss(&loss(1030));
    assert_eq!(c.cwnd, 10.0, "within one RTT (40 ms) of the last cut");
    c.on_loss(&loss(1041));
    assert_eq!(c.cwnd, 5.0);
    c.cwnd = 3.0;
    c.on_loss(&loss(2000));
    assert_eq!(c.cwnd, 2.0, "never below MIN_CWND");
    c.cwnd = 1.5;
    c.on_loss(&loss(3000));
    assert_eq!(c.cwnd, 1.5, "min(cwnd, max(cwnd/2, MIN_CWND)) never raises it");
}

#[test]
fn a_timeout_sets_one_packet_and_the_next_ack_restores_min_cwnd() {
    let mut c = ledbat(20.0, &[]);
    c.on_timeout(0, 20);
    assert_eq!(c.cwnd, 1.0);
    c.on_ack(&ack_at(100, 20, 0, 0));
    assert_eq!(c.cwnd, 2.0);
}

fn settle(slow_start: bool, offset: i64, secs_run: u64) -> ScriptedPath<Ledbat> {
    // 1000 packets/s, 50 ms propagation: TARGET (100 ms) is a queue of 100 packets.
    let cc = ledbat(2.0, &[("slow_start", ParamValue::Bool(slow_start))]);
    let mut path = ScriptedPath::new(cc, 50 * MS, MS);
    path.clock_offset = offset;
    path.run_until(secs_run * 1000 * MS);
    path
}

#[test]
fn on_a_scripted_path_the_queue_settles_at_target() {
    let path = settle(false, 0, 40);
    let q = path.queue_pkts();
    assert!((95.0..=102.0).contains(&q), "queue {q:.1} packets vs TARGET's 100");
    let shifted = settle(false, -123_456_789, 40);
    assert_eq!(shifted.cc.cwnd, path.cc.cwnd, "the clock offset changes nothing");
}

#[test]
fn slow_start_reaches_target_sooner_and_stops_there() {
    // Ending at the window that made TARGET's delay, not the doubled one, leaves no overshoot to drain.
    let slow = settle(true, 0, 1);
    let plain = settle(false, 0, 1);
    assert!(!slow.cc.in_slow_start, "slow start ended at TARGET");
    assert!(
        (95.0..=102.0).contains(&slow.queue_pkts()),
        "slow start: queue {:.1} after 1 s",
        slow.queue_pkts()
    );
    assert!(plain.queue_pkts() < 20.0, "without: queue {:.1} after 1 s", plain.queue_pkts());
}
