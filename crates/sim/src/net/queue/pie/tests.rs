//! PIE on scripted arrivals and dequeues: the controller's amounts, its auto-tuning steps, the decay, the
//! burst allowance, the safeguards, the ECN threshold, and lazy updates against a timer.

use super::*;
use crate::model::ParamValue;
use crate::net::packet::{CE, ECT};

const MS: Time = 1_000_000;

/// PIE with its defaults except `set`, a buffer that never fills and 1000-byte MTUs.
fn pie(set: &[(&'static str, ParamValue)]) -> Pie {
    let mut params = Params::with_defaults(PARAMS);
    for (k, v) in set {
        params.set(k, v.clone());
    }
    let ctx = QueueContext {
        buffer: Buffer::Packets(1_000_000),
        bps: 1e7,
        delay: 0,
        mtu: 1000,
        rng: Rng::stream(1, "pie"),
    };
    Pie::new(&params, &ctx)
}

fn pkt(seq: u64) -> Packet {
    Packet { seq, size: 1000, ..Packet::EMPTY }
}

fn ect(seq: u64) -> Packet {
    Packet { ecn: ECT, ..pkt(seq) }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1e-300)
}

/// A queue that never drains: the head packet, enqueued at 0, has waited 15·k ms at the k-th update.
/// Each step's increase is RFC 8033 §4.2's alpha·(qdelay − 15 ms) + beta·(qdelay − qdelay_old) scaled by
/// the step of the probability before it, written out by hand.
#[test]
fn p_rises_by_the_rfc_amounts_while_the_delay_stays_above_target() {
    let mut q = pie(&[]);
    assert!(q.enqueue(0, pkt(0)));
    let expected = [
        0.01875 / 2048.0, // 15 ms: 1.25·0.015, p = 0 < 1e-6
        0.020625 / 512.0, // 30 ms: 0.125·0.015 + 1.25·0.015, p ≈ 9.2e-6 < 1e-5
        0.0225 / 128.0,   // 45 ms: 0.125·0.030 + 0.01875, p ≈ 4.9e-5 < 1e-4
        0.024375 / 32.0,  // 60 ms: p ≈ 2.3e-4 < 1e-3
        0.02625 / 32.0,   // 75 ms: p ≈ 9.9e-4, still < 1e-3
        0.028125 / 8.0,   // 90 ms: p ≈ 1.8e-3 < 1e-2
        0.03 / 8.0,       // 105 ms
        0.031875 / 8.0,   // 120 ms: p ≈ 9.1e-3
        0.03375 / 2.0,    // 135 ms: p ≈ 1.3e-2 < 0.1
    ];
    let mut p = 0.0;
    for (k, step) in expected.iter().enumerate() {
        let t = (k as Time + 1) * 15 * MS;
        // An arrival just after the update: it runs the update and joins the tail.
        assert!(q.enqueue(t + 1, pkt(k as u64 + 1)), "no drop within the burst allowance");
        p += step;
        assert!(close(q.probability(), p), "update {}: p = {} expected {p}", k + 1, q.probability());
        assert_eq!(q.qdelay_old, t);
    }
    assert!((q.probability() - 0.0299).abs() < 1e-4, "{}", q.probability());
    assert_eq!(q.burst_allowance, 15 * MS, "nine updates used 135 of the 150 ms");
}

#[test]
fn auto_tuning_divides_by_the_rfc_steps() {
    let cases = [
        (0.0, 2048.0),
        (0.99e-6, 2048.0),
        (1e-6, 512.0),
        (0.99e-5, 512.0),
        (1e-5, 128.0),
        (1e-4, 32.0),
        (1e-3, 8.0),
        (1e-2, 2.0),
        (0.099, 2.0),
        (0.1, 1.0),
        (0.7, 1.0),
    ];
    for (p, div) in cases {
        assert_eq!(scale(p), 1.0 / div, "p = {p}");
    }
    // One update with the delay steady at 20 ms over target: +0.125·0.020, divided by the step of p.
    for (p, div) in [(0.3, 1.0), (0.05, 2.0), (0.005, 8.0)] {
        let mut q = pie(&[]);
        (q.p, q.qdelay_old, q.next_update) = (p, 35 * MS, 35 * MS);
        assert!(q.enqueue(0, pkt(0)));
        q.dequeue(36 * MS, &mut Vec::new());
        assert!(close(q.probability(), p + 0.125 * 0.020 / div), "p = {p}: {}", q.probability());
    }
}

#[test]
fn p_decays_by_two_percent_per_update_while_the_queue_is_empty() {
    let mut q = pie(&[]);
    q.p = 0.5;
    q.dequeue(15 * MS, &mut Vec::new());
    let p1 = (0.5 - 0.125 * 0.015) * 0.98;
    assert!(close(q.probability(), p1), "{}", q.probability());
    q.dequeue(30 * MS, &mut Vec::new());
    assert!(close(q.probability(), (p1 - 0.125 * 0.015) * 0.98));
    // A long idle spell: p reaches 0, the burst allowance is full again, and the skipped updates leave
    // the next one due on the period's grid.
    q.burst_allowance = 0;
    q.dequeue(100_000 * MS + 7 * MS, &mut Vec::new());
    assert_eq!(q.probability(), 0.0);
    assert_eq!(q.burst_allowance, q.max_burst);
    assert_eq!(q.next_update, (100_007 / 15 + 1) * 15 * MS, "the first update instant after now");
}

/// With p held at 1 and the queue never draining, arrivals every millisecond: the burst allowance lets
/// every one in for 150 ms (ten updates), then the first arrival after it is dropped. Without an allowance
/// drops start as soon as two packets wait.
#[test]
fn the_burst_allowance_holds_drops_back_for_max_burst() {
    let first_drop = |max_burst: f64| {
        let mut q = pie(&[("max_burst", ParamValue::Num(max_burst))]);
        q.p = 1.0;
        (0..400).map(|i| i * MS).find(|&t| !q.enqueue(t, pkt(t / MS)))
    };
    assert_eq!(first_drop(0.15), Some(150 * MS));
    assert_eq!(first_drop(0.0), Some(2 * MS));
    // The allowance comes back once the queue has emptied and p decayed to zero.
    let mut q = pie(&[]);
    q.p = 0.001;
    q.burst_allowance = 0;
    q.dequeue(15 * MS, &mut Vec::new());
    assert_eq!(q.burst_allowance, 0, "p > 0 after one update: no reset yet");
    q.dequeue(400 * MS, &mut Vec::new());
    assert_eq!((q.probability(), q.burst_allowance), (0.0, 150 * MS));
}

/// Arrivals at 1 ms (no update runs before 15 ms) into a queue of ten packets, with the given state.
fn drops_of(p: f64, qdelay_old: Time, arrivals: u64) -> u64 {
    let mut q = pie(&[]);
    (q.p, q.qdelay_old, q.burst_allowance) = (p, qdelay_old, 0);
    for i in 0..10 {
        q.fifo.push(0, pkt(i));
    }
    (0..arrivals).filter(|&i| !q.enqueue(MS, pkt(100 + i))).count() as u64
}

#[test]
fn safeguards_hold_drops_back_when_the_delay_is_low_or_the_queue_short() {
    // The last delay under target/2 = 7.5 ms with p < 0.2: no drop at all.
    assert_eq!(drops_of(0.19, 7 * MS, 2000), 0);
    // Either condition broken: drops at about p.
    let d = drops_of(0.19, 8 * MS, 2000);
    assert!((300..460).contains(&d), "{d} of 2000 at p = 0.19");
    let d = drops_of(0.2, 0, 2000);
    assert!((320..480).contains(&d), "{d} of 2000 at p = 0.2");
    // Fewer than two MTUs waiting: kept even at p = 1; the arrival that finds two is dropped.
    let mut q = pie(&[]);
    (q.p, q.qdelay_old, q.burst_allowance) = (1.0, 100 * MS, 0);
    let kept: Vec<bool> = (0..3).map(|i| q.enqueue(MS, pkt(i))).collect();
    assert_eq!(kept, vec![true, true, false]);
    assert_eq!(q.counters().early_drops, 1);
}

#[test]
fn ecn_capable_packets_are_marked_up_to_mark_ecnth_and_dropped_above() {
    let run = |ecn: bool, p: f64, make: fn(u64) -> Packet| {
        let mut q = pie(&[("ecn", ParamValue::Bool(ecn))]);
        (q.p, q.qdelay_old, q.burst_allowance) = (p, 100 * MS, 0);
        let kept = (0..2000).filter(|&i| q.enqueue(MS, make(i))).count() as u64;
        let ce = q.fifo.iter().filter(|w| w.pkt.ecn & CE != 0).count() as u64;
        let c = q.counters();
        assert_eq!(c.marks, ce, "every mark is on a packet that stayed");
        (2000 - kept, c.marks, c.early_drops)
    };
    // At p = 0.1 (= mark_ecnth) an ECN-capable packet is marked, never dropped.
    let (dropped, marks, _) = run(true, 0.1, ect);
    assert_eq!(dropped, 0);
    assert!((140..260).contains(&marks), "{marks} marks of 2000 at p = 0.1");
    // Above the threshold it is dropped like any other.
    let (dropped, marks, early) = run(true, 0.11, ect);
    assert_eq!((marks, dropped), (0, early));
    assert!((160..290).contains(&dropped), "{dropped}");
    // A packet that is not ECN-capable, or a PIE without ecn, drops.
    for (ecn, make) in [(true, pkt as fn(u64) -> Packet), (false, ect)] {
        let (dropped, marks, _) = run(ecn, 0.1, make);
        assert_eq!(marks, 0);
        assert!((140..260).contains(&dropped), "{dropped}");
    }
}

/// The same script of arrivals and departures through two PIEs: one catches up lazily, the other is
/// also driven at every update instant, as a timer would. Every decision and every probability agree.
#[test]
fn lazy_updates_give_what_a_timer_gives() {
    let mut lazy = pie(&[("ecn", ParamValue::Bool(true))]);
    let mut timer = pie(&[("ecn", ParamValue::Bool(true))]);
    let mut rng = Rng::stream(3, "script");
    let (mut t, mut next_departure) = (0, None::<Time>);
    let mut seq = 0;
    let tick = |q: &mut Pie, until: Time| {
        while q.next_update <= until {
            let at = q.next_update;
            q.catch_up(at);
        }
    };
    for _ in 0..6 {
        // 3 s of arrivals every 0.8 ms on average into a transmitter that sends one a millisecond, then
        // 2 s of silence.
        let end = t + 3000 * MS;
        while t < end {
            let arrival = t + rng.exponential(0.8e6) as Time;
            while let Some(d) = next_departure.filter(|&d| d <= arrival) {
                tick(&mut timer, d);
                let (a, b) = (lazy.dequeue(d, &mut Vec::new()), timer.dequeue(d, &mut Vec::new()));
                assert_eq!(a.map(|w| w.pkt.seq), b.map(|w| w.pkt.seq));
                next_departure = a.map(|_| d + MS);
            }
            t = arrival;
            tick(&mut timer, t);
            let p = if seq % 2 == 0 { ect(seq) } else { pkt(seq) };
            seq += 1;
            assert_eq!(lazy.enqueue(t, p), timer.enqueue(t, p), "arrival at {t}");
            assert_eq!(lazy.probability().to_bits(), timer.probability().to_bits(), "at {t}");
            next_departure = next_departure.or(Some(t));
        }
        t += 2000 * MS;
    }
    let (a, b) = (lazy.counters(), timer.counters());
    assert_eq!(a, b);
    assert!(a.marks > 20 && a.early_drops > 1000, "{a:?}");
}

#[test]
fn nonsense_parameters_are_refused() {
    let with = |k: &'static str, v: f64| {
        let mut p = Params::with_defaults(PARAMS);
        p.set(k, ParamValue::Num(v));
        p
    };
    assert!(check(&Params::with_defaults(PARAMS), Buffer::Packets(10)).is_ok());
    assert_eq!(check(&with("target", 0.0), Buffer::Packets(10)).unwrap_err().0, "target");
    assert_eq!(check(&with("t_update", 0.0), Buffer::Packets(10)).unwrap_err().0, "t_update");
    let mut p = with("alpha", 0.0);
    p.set("beta", ParamValue::Num(0.0));
    assert_eq!(check(&p, Buffer::Packets(10)).unwrap_err().0, "alpha");
    assert!(check(&with("alpha", 0.0), Buffer::Packets(10)).is_ok(), "beta alone still moves p");
}
