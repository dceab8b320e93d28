//! RED on scripted arrivals: the average against the EWMA written out, the probability curve, the spacing
//! of drops the count gives, marking against dropping, the idle decay, ns-2's automatic settings and the
//! rules between the parameters and the buffer.

use super::*;
use crate::model::params::ParamValue;
use crate::net::packet::ECT;

const MS: Time = 1_000_000;

fn params(set: &[(&'static str, ParamValue)]) -> Params {
    let mut p = Params::with_defaults(PARAMS);
    for (k, v) in set {
        p.set(k, v.clone());
    }
    p
}

fn num(k: &'static str, x: f64) -> (&'static str, ParamValue) {
    (k, ParamValue::Num(x))
}

fn flag(k: &'static str, b: bool) -> (&'static str, ParamValue) {
    (k, ParamValue::Bool(b))
}

/// RED in packets (no byte mode), thresholds 5 and 15, max_p 0.1, gentle, plus `set`.
fn packet_mode(set: &[(&'static str, ParamValue)]) -> Params {
    let mut all = vec![
        flag("bytes", false),
        flag("queue_in_bytes", false),
        num("min_th", 5.0),
        num("max_th", 15.0),
        num("q_weight", 0.002),
    ];
    all.extend_from_slice(set);
    params(&all)
}

/// A RED queue on a 4 Mb/s link (1000 packets of 500 bytes per second) with 10 ms of delay.
fn red(p: &Params, buffer: Buffer) -> Red {
    Red::new(Config::new(p, 4e6, 10 * MS), buffer, Rng::stream(3, "red"))
}

fn data(seq: u64, size: u32) -> Packet {
    Packet { seq, size, ..Packet::EMPTY }
}

fn ect(seq: u64) -> Packet {
    Packet { seq, size: 1000, ecn: ECT, ..Packet::EMPTY }
}

/// Fills `q` with `n` packets while its average is still far below min_th.
fn fill(q: &mut Red, n: u64) {
    for s in 0..n {
        assert!(q.enqueue(1, data(s, 1000)));
    }
}

#[test]
fn the_average_is_the_ewma_of_the_queue_each_arrival_finds() {
    let w = 0.1;
    let mut q = red(
        &packet_mode(&[num("q_weight", w), num("min_th", 500.0), num("max_th", 900.0)]),
        Buffer::Packets(1000),
    );
    // Arrival k (from 0) finds k packets waiting: ave_n = sum over k < n of w (1 - w)^(n - 1 - k) k.
    for n in 1..=40u64 {
        assert!(q.enqueue(n, data(n, 1000)));
        let expected: f64 = (0..n).map(|k| w * (1.0 - w).powi((n - 1 - k) as i32) * k as f64).sum();
        assert!(
            (q.average() - expected).abs() < 1e-9 * expected.max(1.0),
            "n {n}: {} vs {expected}",
            q.average()
        );
    }
    // Departures do not move the average; the next arrival sees the shorter queue.
    let before = q.average();
    for _ in 0..10 {
        q.dequeue(50, &mut Vec::new()).unwrap();
    }
    assert_eq!(q.average(), before);
    q.enqueue(51, data(99, 1000));
    assert!((q.average() - ((1.0 - w) * before + w * 30.0)).abs() < 1e-12);
}

#[test]
fn in_byte_mode_the_average_counts_bytes_and_thresholds_are_mean_packets() {
    let p = params(&[num("q_weight", 0.5), num("min_th", 100.0), num("max_th", 300.0)]);
    let mut q = red(&p, Buffer::Packets(100));
    assert_eq!((q.cfg.min_th, q.cfg.max_th), (50_000.0, 150_000.0), "x mean_pktsize 500");
    q.enqueue(1, data(0, 1000));
    q.enqueue(2, data(1, 40));
    q.enqueue(3, data(2, 1000));
    // 0, then 1000, then 1040 bytes found waiting.
    let expected = ((0.0 * 0.5 + 0.5 * 1000.0) * 0.5) + 0.5 * 1040.0;
    assert!((q.average() - expected).abs() < 1e-9);
}

#[test]
fn the_probability_rises_linearly_then_gently_then_is_one() {
    let c = Config::new(&packet_mode(&[]), 4e6, 0);
    let p = |ave| c.base_probability(ave);
    assert!((p(5.0) - 0.0).abs() < 1e-15);
    assert!((p(10.0) - 0.05).abs() < 1e-15);
    assert!((p(12.5) - 0.075).abs() < 1e-15);
    assert!((p(15.0) - 0.1).abs() < 1e-15, "max_p at max_th");
    assert!((p(22.5) - 0.55).abs() < 1e-12, "halfway from max_p to 1 between max_th and 2 max_th");
    assert_eq!(p(30.0), 1.0);
    assert_eq!(p(45.0), 1.0);
    let abrupt = Config::new(&packet_mode(&[flag("gentle", false)]), 4e6, 0);
    assert!((abrupt.base_probability(14.9) - 0.099).abs() < 1e-12);
    assert_eq!(abrupt.base_probability(15.0), 1.0);
}

#[test]
fn below_min_th_nothing_is_dropped() {
    let mut q = red(&packet_mode(&[num("q_weight", 1e-9)]), Buffer::Packets(100));
    fill(&mut q, 50);
    q.ave = 4.99;
    for s in 0..10_000 {
        assert!(q.enqueue(2, data(s, 1000)));
        q.dequeue(2, &mut Vec::new());
    }
    assert_eq!(q.counters(), QueueCounters::default());
}

/// The arrivals between two drops (the dropped one included) with the average held at `ave`.
fn gaps(p: &Params, ave: f64, drops: usize) -> Vec<u64> {
    let mut q = red(p, Buffer::Packets(1000));
    fill(&mut q, 10);
    let mut out = Vec::new();
    let mut since = 0;
    for s in 0.. {
        q.ave = ave;
        since += 1;
        if q.enqueue(2, data(s, 1000)) {
            q.dequeue(2, &mut Vec::new());
        } else {
            out.push(since);
            since = 0;
        }
        if out.len() == drops + 1 {
            break;
        }
    }
    out.remove(0); // the first gap starts where the average crossed min_th, not at a drop
    out
}

fn mean(xs: &[u64]) -> f64 {
    xs.iter().sum::<u64>() as f64 / xs.len() as f64
}

#[test]
fn with_wait_drops_are_spaced_uniformly_between_1_and_2_over_p() {
    // ave 9.5: p_b = 0.045, 1/p_b = 22.2, 2/p_b = 44.4.
    let g = gaps(&packet_mode(&[num("q_weight", 1e-9)]), 9.5, 4000);
    assert_eq!(*g.iter().min().unwrap(), 23, "no drop while count x p_b < 1");
    assert_eq!(*g.iter().max().unwrap(), 44, "certain once count x p_b reaches 2");
    // The hazard 1 / (2/p_b - count) makes every gap from 23 to 43 equally likely (1 / 21.4) and leaves
    // 44 the rest: mean about 1.5 / p_b = 33.3. Geometric spacing (no count) would have mean 22.2.
    assert!((mean(&g) - 33.3).abs() < 0.5, "mean gap {}", mean(&g));
    for c in 23..=43 {
        let seen = g.iter().filter(|&&x| x == c).count();
        assert!((seen as f64 - 4000.0 / 21.44).abs() < 60.0, "gap {c} seen {seen} times");
    }
}

#[test]
fn without_wait_drops_are_spaced_uniformly_between_1_and_1_over_p() {
    let g = gaps(&packet_mode(&[num("q_weight", 1e-9), flag("wait", false)]), 9.5, 4000);
    assert_eq!(*g.iter().min().unwrap(), 1);
    assert_eq!(*g.iter().max().unwrap(), 22, "certain once count x p_b reaches 1");
    // Gaps 1 to 21 equally likely (1 / 22.2), 22 the rest: mean about 1 / (2 p_b) + 1/2 = 11.6.
    assert!((mean(&g) - 11.6).abs() < 0.4, "mean gap {}", mean(&g));
}

#[test]
fn the_count_rule_and_byte_mode_scale_the_probability() {
    let c = Config::new(&packet_mode(&[]), 4e6, 0);
    assert_eq!(c.uniformised(0.05, 19, 0, 1000), 0.0);
    assert!((c.uniformised(0.05, 30, 0, 1000) - 0.1).abs() < 1e-15, "0.05 / (2 - 1.5)");
    assert_eq!(c.uniformised(0.05, 40, 0, 1000), 1.0);
    let b = Config::new(&params(&[flag("queue_in_bytes", false), num("min_th", 5.0)]), 4e6, 0);
    // Byte mode counts whole packets of 500 bytes: 12 499 bytes are 24 of them.
    assert!((b.uniformised(0.05, 1, 12_499, 1000) - 0.05 / 0.8 * 2.0).abs() < 1e-15);
    assert!((b.uniformised(0.05, 1, 12_499, 40) - 0.05 / 0.8 * 0.08).abs() < 1e-15, "small packets less");
    assert_eq!(b.uniformised(0.05, 1, 499, 1000), 0.0, "less than one mean packet since the last drop");
    assert_eq!(b.uniformised(0.05, 1, 20_000, 1000), 1.0);
}

#[test]
fn above_twice_max_th_every_arrival_is_dropped() {
    // Forced (use_mark_p off), whatever the count; with ns-2's use_mark_p the probability is 1 instead.
    for use_mark_p in [false, true] {
        let mut q =
            red(&packet_mode(&[num("q_weight", 1e-9), flag("use_mark_p", use_mark_p)]), Buffer::Packets(100));
        fill(&mut q, 5);
        q.ave = 31.0;
        q.old = true;
        q.count = 0;
        for s in 0..100 {
            assert!(!q.enqueue(3, data(s, 1000)), "use_mark_p {use_mark_p}: arrival {s} kept");
        }
        assert_eq!(q.counters().early_drops, 100);
        assert_eq!(q.counters().overflow_drops, 0);
    }
}

#[test]
fn a_queue_of_one_packet_is_left_alone() {
    let mut q = red(&packet_mode(&[num("q_weight", 1e-9), flag("use_mark_p", false)]), Buffer::Packets(100));
    fill(&mut q, 1);
    q.ave = 100.0;
    assert!(q.enqueue(2, data(1, 1000)), "one packet waiting: kept");
    assert!(!q.enqueue(2, data(2, 1000)), "two waiting: dropped");
}

/// A queue in the probabilistic region whose next decision is certain (count x p_b >= 2).
fn certain(set: &[(&'static str, ParamValue)], ave: f64) -> Red {
    let mut all = vec![num("q_weight", 1e-9), flag("ecn", true)];
    all.extend_from_slice(set);
    let mut q = red(&packet_mode(&all), Buffer::Packets(100));
    fill(&mut q, 5);
    q.ave = ave;
    q.old = true;
    q.count = 1000;
    q
}

#[test]
fn ecn_marks_capable_packets_up_to_mark_p_and_drops_the_rest() {
    let mut q = certain(&[], 10.0);
    assert!(q.enqueue(3, ect(7)), "p_b 0.05 <= mark_p: marked, kept");
    assert_eq!(q.count, 0, "a mark restarts the count like a drop");
    let c = q.counters();
    assert_eq!((c.marks, c.early_drops), (1, 0));
    let last = q.fifo.iter().last().unwrap().pkt;
    assert!(last.ecn & crate::net::packet::CE != 0 && last.seq == 7);

    let mut q = certain(&[], 10.0);
    assert!(!q.enqueue(3, data(7, 1000)), "not ECN-capable: dropped");
    let mut q = certain(&[flag("ecn", false)], 10.0);
    assert!(!q.enqueue(3, ect(7)), "ecn off: dropped");
    let mut q = certain(&[], 20.0);
    assert!(!q.enqueue(3, ect(7)), "p_b 0.4 above mark_p: dropped");
    let mut q = certain(&[flag("use_mark_p", false)], 20.0);
    assert!(q.enqueue(3, ect(7)), "without use_mark_p: marked in the gentle region");
    let mut q = certain(&[flag("use_mark_p", false)], 31.0);
    assert!(!q.enqueue(3, ect(7)), "forced drops are never marks");
    assert_eq!(q.counters().marks, 0);
}

#[test]
fn the_buffer_drops_whatever_red_said_and_restarts_the_count() {
    let mut q = red(&packet_mode(&[num("q_weight", 1e-9)]), Buffer::Packets(3));
    fill(&mut q, 3);
    q.ave = 10.0;
    q.old = true;
    assert!(!q.enqueue(3, data(9, 1000)));
    let c = q.counters();
    assert_eq!((c.overflow_drops, c.early_drops, q.count, q.count_bytes), (1, 0, 0, 0));
}

#[test]
fn idle_time_decays_the_average_as_if_empty_arrivals_had_come() {
    let w = 0.01;
    let mut q = red(
        &packet_mode(&[num("q_weight", w), num("min_th", 500.0), num("max_th", 900.0)]),
        Buffer::Packets(100),
    );
    fill(&mut q, 50);
    let mut out = Vec::new();
    while q.dequeue(5 * MS, &mut out).is_some() {}
    let before = q.average();
    assert!(before > 5.0);
    // 37.5 ms idle on a link of 1000 mean packets per second: 37 packets (truncated), plus this one.
    q.enqueue(5 * MS + 37_500_000, data(60, 1000));
    let expected = before * (1.0 - w).powi(38);
    assert!((q.average() - expected).abs() < 1e-12 * before, "{} vs {expected}", q.average());
    // Busy again: one step per arrival.
    let now = q.average();
    q.enqueue(5 * MS + 37_600_000, data(61, 1000));
    assert!((q.average() - (now * (1.0 - w) + w * 1.0)).abs() < 1e-12);
    // A drain (the link went down) leaves it idle from the last event.
    q.drain();
    q.enqueue(5 * MS + 37_600_000 + 10 * MS, data(62, 1000));
    let after_drain = (now * (1.0 - w) + w) * (1.0 - w).powi(11);
    assert!((q.average() - after_drain).abs() < 1e-12, "{} vs {after_drain}", q.average());
}

#[test]
fn automatic_settings_are_those_ns2_computes() {
    // ns-2.35 (Debian's) printed thresh_, maxthresh_ and q_weight_ of Queue/RED after `simplex-link`.
    let d = Params::with_defaults(PARAMS);
    let c = Config::new(&d, 10e6, 20 * MS);
    assert_eq!((c.min_th, c.max_th), (6.25 * 500.0, 18.75 * 500.0));
    assert!((c.q_w - 0.000_399_920_010_665_577_6).abs() < 1e-18);
    let c = Config::new(&d, 100e6, 50 * MS);
    assert_eq!((c.min_th, c.max_th), (62.5 * 500.0, 187.5 * 500.0));
    assert!((c.q_w - 2.664_499_540_216_969e-5).abs() < 1e-18);
    // Slow links: min_th's floor of 5 packets.
    let c = Config::new(&packet_mode(&[num("min_th", 0.0), num("max_th", 0.0)]), 1e6, 20 * MS);
    assert_eq!((c.min_th, c.max_th), (5.0, 15.0));
    let c = Config::new(&packet_mode(&[num("q_weight", 0.0)]), 4e6, 0);
    assert!((c.q_w - (1.0 - (-1.0f64 / 1000.0).exp())).abs() < 1e-18);
    let c = Config::new(&packet_mode(&[num("q_weight", -2.0)]), 4e6, 0);
    assert!((c.q_w - (1.0 - (-10.0f64 / 1000.0).exp())).abs() < 1e-18);
}

#[test]
fn the_rules_refuse_thresholds_out_of_order_or_beyond_the_buffer() {
    let ok = |set: &[(&'static str, ParamValue)], b| check(&params(set), b);
    let key = |set: &[(&'static str, ParamValue)], b| check(&params(set), b).unwrap_err().0;
    assert!(ok(&[], Buffer::Packets(10)).is_ok(), "automatic thresholds depend on the rate");
    assert!(ok(&[num("min_th", 5.0), num("max_th", 15.0)], Buffer::Packets(15)).is_ok());
    assert_eq!(key(&[num("min_th", 20.0), num("max_th", 10.0)], Buffer::Packets(100)), "min_th");
    assert_eq!(key(&[num("min_th", 10.0), num("max_th", 10.0)], Buffer::Packets(100)), "min_th");
    assert_eq!(key(&[num("min_th", 5.0), num("max_th", 16.0)], Buffer::Packets(15)), "max_th");
    assert_eq!(key(&[num("min_th", 6.0)], Buffer::Packets(15)), "min_th", "3 x 6 = 18 > 15");
    assert_eq!(key(&[num("max_th", 4.0)], Buffer::Packets(100)), "max_th", "below the automatic min_th");
    // Bytes: 15 packets of mean_pktsize 500 fit in 7500 bytes, 16 do not.
    assert!(ok(&[num("min_th", 5.0), num("max_th", 15.0)], Buffer::Bytes(7500)).is_ok());
    assert_eq!(key(&[num("min_th", 5.0), num("max_th", 16.0)], Buffer::Bytes(7500)), "max_th");
    assert_eq!(key(&[num("q_weight", -0.5)], Buffer::Packets(100)), "q_weight");
    assert!(ok(&[num("q_weight", -2.0)], Buffer::Packets(100)).is_ok());
}

#[test]
fn same_seed_same_decisions() {
    let run = || {
        let mut q = red(&packet_mode(&[num("q_weight", 1e-9)]), Buffer::Packets(1000));
        fill(&mut q, 10);
        q.ave = 12.0;
        (0..2000)
            .map(|s| q.enqueue(2, data(s, 1000)) && q.dequeue(2, &mut Vec::new()).is_some())
            .collect::<Vec<_>>()
    };
    let a = run();
    assert_eq!(a, run());
    assert!(a.iter().any(|k| !k) && a.iter().any(|k| *k));
}
