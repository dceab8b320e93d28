use super::*;
use crate::cc::scripted::ScriptedPath;
use crate::cc::{algorithm, ParamValue};

const MS: Time = 1_000_000;

fn fast(iw: f64, alpha: f64, tweak: &[(&'static str, ParamValue)]) -> Fast {
    let mut p = algorithm("fast").expect("registered").defaults();
    p.set("alpha", ParamValue::Num(alpha));
    for (k, v) in tweak {
        p.set(k, v.clone());
    }
    Fast::new(&p, &FlowContext::new(iw))
}

/// FAST as delaycc modelled it before following the module: one update per other round, growth by
/// one per ACK only at start-up, each update at most doubling the window.
fn round_fast(iw: f64, alpha: f64, tweak: &[(&'static str, ParamValue)]) -> Fast {
    let mut p = algorithm("fast").expect("registered").defaults();
    p.set("alpha", ParamValue::Num(alpha));
    p.set("cadence", ParamValue::Str("round".into()));
    p.set("min_update_interval", ParamValue::Num(0.0));
    p.set("mi_reentry", ParamValue::Bool(false));
    p.set("cap_2w", ParamValue::Bool(true));
    for (k, v) in tweak {
        p.set(k, v.clone());
    }
    Fast::new(&p, &FlowContext::new(iw))
}

fn ack(now: Time, rtt: Time) -> AckEvent<'static> {
    AckEvent {
        now,
        rtt: Some(rtt),
        acked: 1,
        inflight_at_send: 10,
        inflight: 10,
        in_recovery: false,
        snd_una: 0,
        rcv_arrival: 0,
        rcv_leave: 0,
        base_rtt: None,
        rate: None,
    }
}

#[test]
fn avg_rtt_weight_is_min_of_3_over_w_and_1_over_256() {
    let mut f = round_fast(10.0, 20.0, &[]);
    f.mi = false;
    f.on_ack(&ack(0, 100 * MS));
    assert_eq!(f.known_avg_rtt(), Some(0.1));
    f.on_ack(&ack(1, 200 * MS));
    assert!((f.avg_rtt - (0.1 + 0.1 / 256.0)).abs() < 1e-12);
    // Above 768 packets the weight is 3/w.
    f.cwnd = 3000.0;
    let before = f.avg_rtt;
    f.on_ack(&ack(2, 200 * MS));
    let expected = before + (0.2 - before) * 3.0 / 3000.0;
    assert!((f.avg_rtt - expected).abs() < 1e-12);
}

#[test]
fn reaches_alpha_packets_queued_on_a_scripted_path() {
    // 50 ms, 0.5 ms per packet: 100 packets fill the pipe; α = 20 more sit in the queue.
    let mut path = ScriptedPath::new(round_fast(2.0, 20.0, &[]), 50 * MS, MS / 2);
    path.run_until(60_000 * MS);
    let backlog = path.cc.backlog_estimate();
    assert!((backlog - 20.0).abs() < 1.0, "backlog {backlog}");
    assert!((path.cc.cwnd - 120.0).abs() < 2.0, "cwnd {}", path.cc.cwnd);
    // The module paces only whole packets of an increase (int(target - w)), so with γ = 1/2 the
    // window stops up to two packets short of the fixed point: α - 2 < backlog <= α.
    let mut path = ScriptedPath::new(fast(2.0, 20.0, &[]), 50 * MS, MS / 2);
    path.run_until(60_000 * MS);
    let backlog = path.cc.backlog_estimate();
    assert!((17.5..=20.5).contains(&backlog), "module backlog {backlog}");
}

#[test]
fn updates_every_other_round_by_default_and_every_round_on_request() {
    let run = |every_other: bool| {
        let mut path = ScriptedPath::new(
            round_fast(2.0, 20.0, &[("update_every_other_rtt", ParamValue::Bool(every_other))]),
            50 * MS,
            MS / 2,
        );
        path.run_until(30_000 * MS);
        let (u0, r0) = (path.cc.updates, path.cc.rounds.count);
        path.run_until(60_000 * MS);
        (path.cc.updates - u0) as f64 / (path.cc.rounds.count - r0) as f64
    };
    assert!((run(true) - 0.5).abs() < 0.02, "every other round: {}", run(true));
    assert!((run(false) - 1.0).abs() < 0.02, "every round: {}", run(false));
}

#[test]
fn increases_are_spread_over_the_next_period_unless_disabled() {
    let biggest_step = |spread: bool| {
        let mut path = ScriptedPath::new(
            round_fast(2.0, 50.0, &[("spread_increase", ParamValue::Bool(spread))]),
            50 * MS,
            MS / 2,
        );
        // From the end of the start-up phase, watch the equation's increases ACK by ACK.
        while path.cc.mi && path.step() {}
        let mut prev = path.cc.cwnd;
        let mut max_step: f64 = 0.0;
        while path.now < 5_000 * MS && path.step() {
            max_step = max_step.max(path.cc.cwnd - prev);
            prev = path.cc.cwnd;
        }
        max_step
    };
    assert!(biggest_step(true) < 1.0, "spread: {}", biggest_step(true));
    assert!(biggest_step(false) > 5.0, "all at once: {}", biggest_step(false));
}

#[test]
fn loss_halves_and_freezes_timeout_restarts_from_two() {
    let mut f = round_fast(2.0, 20.0, &[]);
    f.cwnd = 100.0;
    f.on_loss(&LossEvent { now: 0, inflight: 100, lost_was_retransmit: false });
    assert_eq!(f.cwnd, 50.0);
    assert!(!f.mi);
    let updates = f.updates;
    for k in 0..500 {
        let mut ev = ack(k * MS, 80 * MS);
        ev.in_recovery = true;
        ev.snd_una = k * 10;
        f.on_ack(&ev);
    }
    assert_eq!((f.cwnd, f.updates), (50.0, updates), "no update during recovery");
    assert_eq!(f.known_avg_rtt(), None, "no RTT samples during recovery");
    f.on_timeout(600 * MS, 50);
    assert_eq!(f.cwnd, 2.0);
    assert!(f.mi, "multiplicative increase restarts after a timeout");
}

#[test]
fn the_update_never_more_than_doubles_the_window() {
    let mut f = round_fast(2.0, 1000.0, &[("spread_increase", ParamValue::Bool(false))]);
    f.mi = false;
    f.cwnd = 10.0;
    f.base_rtt = 0.1;
    f.avg_rtt = 0.1;
    f.update(10.0);
    assert_eq!(f.cwnd, 20.0);
    f.cap_2w = false;
    f.update(20.0);
    assert_eq!(f.cwnd, 0.5 * 20.0 + 0.5 * (20.0 + 1000.0));
}

#[test]
fn module_cadence_runs_about_ten_steps_per_on_round_of_100_ms() {
    // 100 ms propagation, 1 ms per packet at the bottleneck: the on-rounds are about 100 ms long.
    let mut path = ScriptedPath::new(fast(2.0, 20.0, &[]), 100 * MS, MS);
    path.run_until(30_000 * MS);
    let u0 = path.cc.updates;
    path.run_until(60_000 * MS);
    let per_second = (path.cc.updates - u0) as f64 / 30.0;
    // Half the time is on-rounds: 0.5 s of 10 ms periods per second, each ended by the first ACK
    // after it (about one ACK per ms), so 45-50 updates per second; the round cadence makes about 4.
    assert!((40.0..=50.0).contains(&per_second), "{per_second} updates/s");
}

#[test]
fn module_increases_move_one_packet_per_ack_at_most() {
    let mut path = ScriptedPath::new(fast(2.0, 50.0, &[]), 50 * MS, MS / 2);
    while path.cc.mi_now() && path.step() {}
    let mut prev = path.cc.cwnd;
    let mut max_step: f64 = 0.0;
    while path.now < 5_000 * MS && path.step() {
        max_step = max_step.max(path.cc.cwnd - prev);
        prev = path.cc.cwnd;
    }
    assert_eq!(max_step, 1.0, "fast_pace adds whole packets, one per ACK at most");
}

#[test]
fn module_old_cwnd_is_frozen_through_recovery() {
    let mut f = fast(2.0, 20.0, &[]);
    f.cwnd = 100.0;
    let m = &mut f.module;
    m.flight = 100.0;
    // Packets 0..100 left with flight 100; a loss, then packets 100..150 during recovery.
    for s in 0..100 {
        f.on_send(0, s, false, 100);
    }
    f.on_loss(&LossEvent { now: 0, inflight: 100, lost_was_retransmit: false });
    for k in 0..50 {
        let mut ev = ack(k * MS, 80 * MS);
        ev.in_recovery = true;
        ev.snd_una = 1 + k;
        f.on_ack(&ev);
        f.on_send(k * MS, 100 + k, false, 50);
    }
    assert_eq!(f.cwnd, 50.0);
    let m = &mut f.module;
    assert_eq!(m.flight, 100.0, "fast_est does not run during recovery");
    assert_eq!(m.old_flight(120), Some(100.0), "packets sent in recovery carry the pre-loss flight");
}

#[test]
fn module_mi_resumes_whenever_the_queue_empties() {
    let mut f = fast(2.0, 20.0, &[]);
    f.base_rtt = 0.1;
    f.avg_rtt = 0.11;
    f.cwnd = 50.0;
    f.mi = false;
    let mut ev = ack(1000 * MS, 110 * MS);
    ev.inflight = 49;
    f.on_ack(&ev);
    assert!(!f.mi, "10 ms of queueing: no per-ACK growth");
    f.avg_rtt = 0.1003;
    let before = f.cwnd;
    f.on_ack(&ack(1001 * MS, 100 * MS));
    assert_eq!(f.cwnd, before + 1.0, "0.3 ms < mi_threshold: one packet per ACK again");
    let mut g = round_fast(2.0, 20.0, &[]);
    g.base_rtt = 0.1;
    g.avg_rtt = 0.1003;
    g.cwnd = 50.0;
    g.mi = false;
    g.on_ack(&ack(1001 * MS, 100 * MS));
    assert_eq!(g.cwnd, 50.0, "mi_reentry = false: start-up growth never returns");
}

#[test]
fn the_syn_seeds_base_and_average_rtt() {
    let mut f = fast(2.0, 20.0, &[]);
    f.on_handshake(100 * MS, 99 * MS);
    assert_eq!((f.known_base_rtt(), f.known_avg_rtt()), (Some(0.099), Some(0.099)));
    f.on_ack(&ack(200 * MS, 100 * MS));
    assert_eq!(f.known_base_rtt(), Some(0.099), "a data packet's longer RTT does not replace it");
}

#[test]
fn beta_above_alpha_opens_a_dead_band() {
    let mut f = fast(2.0, 20.0, &[("beta", ParamValue::Num(40.0))]);
    f.cwnd = 100.0;
    f.base_rtt = 0.1;
    // w_old·q/avgRTT = 100·0.03/0.13 = 23 packets: inside [20, 40).
    f.avg_rtt = 0.13;
    assert_eq!(f.target(100.0), None);
    f.avg_rtt = 0.2;
    assert!(f.target(100.0).is_some(), "50 packets queued: above the band");
}

#[test]
fn window_arithmetic_truncates_or_carries() {
    let go = |mode: &str| {
        let mut f = fast(2.0, 0.5, &[("window_arithmetic", ParamValue::Str(mode.into()))]);
        f.base_rtt = 0.1;
        f.avg_rtt = 0.1;
        f.cwnd = 10.0;
        (0..5).map(|_| f.target(10.0).unwrap_or(0.0)).collect::<Vec<_>>()
    };
    // Target 0.5·10 + 0.5·(10 + 0.5) = 10.25 every time; the carry must exceed one packet.
    assert_eq!(go("double"), vec![10.25; 5]);
    assert_eq!(go("int"), vec![10.0; 5]);
    assert_eq!(go("int_carry"), vec![10.0, 10.0, 10.0, 10.0, 11.0]);
    // The carry belongs to the equation, not to the module's cadence: the round model keeps its own.
    let mut f = round_fast(2.0, 0.5, &[("window_arithmetic", ParamValue::Str("int_carry".into()))]);
    f.base_rtt = 0.1;
    f.avg_rtt = 0.1;
    f.cwnd = 10.0;
    f.target(10.0);
    assert!(!f.ns2, "int_carry must not switch the round cadence to the module's");
}

/// ECN-Echo as ns-2's TcpAgent::ecn (slowdown(CLOSE_CWND_HALF | CLOSE_SSTHRESH_HALF), precisionReduce_):
/// cwnd halves exactly, ssthresh to its whole part; no recovery, so updates and the start-up growth go
/// on, and nothing is frozen. The round cadence halves as on a loss.
#[test]
fn ecn_halves_cwnd_and_ssthresh_as_slowdown_and_freezes_nothing() {
    let mut f = fast(2.0, 20.0, &[]);
    f.cwnd = 37.0;
    f.mi = true;
    f.on_ecn(5 * MS, 37);
    assert_eq!((f.cwnd, f.ssthresh), (18.5, 18.0));
    assert!(f.mi, "the start-up growth is decided by the delay, not by the mark");
    f.cwnd = 1.5;
    f.on_ecn(6 * MS, 2);
    assert_eq!((f.cwnd, f.ssthresh), (1.0, 2.0), "cwnd_ at least 1, ssthresh_ at least 2");
    let mut r = round_fast(2.0, 20.0, &[]);
    r.cwnd = 37.0;
    r.pending_increase = 4.0;
    r.on_ecn(0, 37);
    assert_eq!((r.cwnd, r.ssthresh, r.pending_increase), (18.5, 18.5, 0.0));
    // Updates go on after a mark (they stop during loss recovery only).
    let updates = r.updates;
    r.mi = false;
    r.base_rtt = 0.08;
    for k in 0..2000 {
        let mut ev = ack(k * MS, 80 * MS);
        ev.snd_una = k;
        r.on_ack(&ev);
    }
    assert!(r.updates > updates, "no update after the mark");
}

/// Everything the usual ACK's path and the general one may change, printed: `{:?}` of an f64 round-trips,
/// so equal text is equal bits.
fn ack_state(f: &Fast) -> String {
    format!(
        "{:?} {:?} {:?} {} {} {} {:?} {:?}",
        f.known_base_rtt(),
        f.known_avg_rtt(),
        f.cwnd,
        f.mi,
        f.last_update,
        f.updates,
        f.period_min_rtt,
        f.module
    )
}

/// The usual path (`usual_ack.rs`) against the general one, ACK by ACK, over sends, ACKs without a
/// sample, recovery, losses and the module's updates and paced steps.
#[test]
fn the_usual_path_does_what_the_general_one_does() {
    let tweaks: [&[(&'static str, ParamValue)]; 3] = [
        &[],
        &[("update_every_other_rtt", ParamValue::Bool(false)), ("mi_reentry", ParamValue::Bool(false))],
        &[("spread_increase", ParamValue::Bool(false))],
    ];
    for tweak in tweaks {
        let (mut usual, mut any) = (fast(10.0, 50.0, tweak), fast(10.0, 50.0, tweak));
        usual.on_handshake(0, 20 * MS);
        any.on_handshake(0, 20 * MS);
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let (mut now, mut una, mut next) = (0, 0u64, 0u64);
        for step in 0..30_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            now += rng % (MS / 2);
            for _ in 0..rng / 8 % 3 {
                usual.on_send(now, next, false, 0);
                any.on_send(now, next, false, 0);
                next += 1;
            }
            una = (una + 1 + rng / 32 % 2).min(next);
            if (rng / 64).is_multiple_of(400) {
                let loss = LossEvent { now, inflight: next - una, lost_was_retransmit: false };
                usual.on_loss(&loss);
                any.on_loss(&loss);
            }
            let ev = AckEvent {
                rtt: (!(rng / 128).is_multiple_of(16)).then_some(20 * MS + rng / 4096 % (3 * MS)),
                inflight: next - una,
                in_recovery: (rng / 256).is_multiple_of(64),
                snd_una: una,
                ..ack(now, 0)
            };
            let w = usual.on_ack_window(&ev);
            assert_eq!(w.to_bits(), usual.cwnd.to_bits(), "step {step}: the window returned");
            any.on_ack_any(&ev);
            assert_eq!(ack_state(&usual), ack_state(&any), "step {step}");
        }
        assert!(usual.usual_parts && usual.updates > 10, "the usual path and the updates ran");
    }
}
