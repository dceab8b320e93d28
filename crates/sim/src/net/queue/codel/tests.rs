//! CoDel against RFC 8289's pseudocode, on scripted sojourn times: the state machine alone (`CodelState`
//! on a queue whose head's age each test sets) and the single-queue discipline.

use super::*;
use crate::net::packet::ECT;
use crate::rng::Rng;
use std::collections::VecDeque;

const MS: Time = 1_000_000;

fn params() -> CodelParams {
    CodelParams { target: 5 * MS, interval: 100 * MS, ecn: false, mtu: 1000 }
}

/// A queue of 1000-byte packets, all of the same age.
struct Script(VecDeque<Waiting>);

impl HeadQueue for Script {
    fn pop(&mut self) -> Option<Waiting> {
        self.0.pop_front()
    }
    fn backlog(&self) -> u64 {
        self.0.iter().map(|w| w.pkt.size as u64).sum()
    }
}

/// One dequeue at `now` from a queue of 20 packets that arrived `sojourn` ago: the number of drops.
fn step(s: &mut CodelState, now: Time, sojourn: Time) -> usize {
    let since = now - sojourn;
    let pkt = Packet { size: 1000, ..Packet::EMPTY };
    let mut q = Script((0..20).map(|_| Waiting { pkt, since }).collect());
    let (mut dropped, mut counters) = (Vec::new(), QueueCounters::default());
    assert!(s.dequeue(&params(), now, &mut q, &mut dropped, &mut counters).is_some());
    assert_eq!(counters.early_drops as usize, dropped.len());
    dropped.len()
}

/// The control law's increments interval/sqrt(n) for n = 1..7, in nanoseconds (truncated).
const STEPS: [Time; 7] =
    [100_000_000, 70_710_678, 57_735_026, 50_000_000, 44_721_359, 40_824_829, 37_796_447];

#[test]
fn below_target_never_drops() {
    let mut s = CodelState::default();
    for t in 1..3000 {
        assert_eq!(step(&mut s, t * MS, 5 * MS - 1), 0, "at {t} ms");
    }
}

#[test]
fn drops_after_an_interval_above_target_then_at_the_control_law_times() {
    let mut s = CodelState::default();
    // Above target since t = 10 ms: nothing until an interval has passed.
    for t in 10..110 {
        assert_eq!(step(&mut s, t * MS, 50 * MS), 0, "at {t} ms");
    }
    assert_eq!(step(&mut s, 110 * MS - 1, 50 * MS), 0);
    assert_eq!(step(&mut s, 110 * MS, 50 * MS), 1, "first drop one interval after going above");
    assert_eq!((s.count, s.dropping), (1, true));
    // Then the n-th drop comes interval/sqrt(n - 1) after the one before, not a nanosecond earlier.
    let mut at = 110 * MS;
    let mut times = vec![at];
    for (n, inc) in STEPS.iter().enumerate() {
        assert_eq!(s.drop_next, at + inc, "drop {}", n + 2);
        assert_eq!(step(&mut s, at + inc - 1, 50 * MS), 0);
        at += inc;
        assert_eq!(step(&mut s, at, 50 * MS), 1);
        assert_eq!(s.count as usize, n + 2);
        times.push(at);
    }
    let gaps: Vec<f64> = times.windows(2).map(|w| (w[1] - w[0]) as f64 / 1e6).collect();
    let law: Vec<f64> = (1..=7).map(|n| 100.0 / (n as f64).sqrt()).collect();
    assert!(gaps.iter().zip(&law).all(|(g, l)| (g - l).abs() < 1e-6), "{gaps:?} vs {law:?}");
}

#[test]
fn a_dip_below_target_restarts_the_interval() {
    let mut s = CodelState::default();
    assert_eq!(step(&mut s, 100 * MS, 50 * MS), 0);
    assert_eq!(step(&mut s, 190 * MS, 50 * MS), 0);
    assert_eq!(step(&mut s, 195 * MS, MS), 0, "below target: first_above_time cleared");
    assert_eq!(step(&mut s, 200 * MS, 50 * MS), 0, "would have been the first drop");
    assert_eq!(step(&mut s, 299 * MS, 50 * MS), 0);
    assert_eq!(step(&mut s, 300 * MS, 50 * MS), 1);
}

/// Drops n = 1..=k from t = 200 ms; returns the time of the last one.
fn drop_k_times(s: &mut CodelState, k: usize) -> Time {
    assert_eq!(step(s, 100 * MS, 50 * MS), 0);
    let mut at = 200 * MS;
    assert_eq!(step(s, at, 50 * MS), 1);
    for inc in &STEPS[..k - 1] {
        at += inc;
        assert_eq!(step(s, at, 50 * MS), 1);
    }
    assert_eq!(s.count as usize, k);
    at
}

#[test]
fn re_entering_soon_after_leaving_starts_from_the_last_cycles_count() {
    // Four drops (count 4, lastcount 1), then the delay falls below target and the dropping state ends.
    let mut s = CodelState::default();
    let last = drop_k_times(&mut s, 4);
    assert_eq!(step(&mut s, last + MS, MS), 0);
    assert!(!s.dropping);
    // Above target again at once: an interval later CoDel re-enters with count = 4 - 1 = 3, so the next
    // drop follows interval/sqrt(3) later, not a full interval.
    let back = last + 2 * MS;
    assert_eq!(step(&mut s, back, 50 * MS), 0);
    assert_eq!(step(&mut s, back + 100 * MS, 50 * MS), 1);
    assert_eq!((s.count, s.lastcount), (3, 3));
    assert_eq!(s.drop_next, back + 100 * MS + STEPS[2]);

    // Long after the last drop (16 intervals or more), the count starts again from one.
    let mut s = CodelState::default();
    let last = drop_k_times(&mut s, 4);
    assert_eq!(step(&mut s, last + MS, MS), 0);
    let back = s.drop_next + 1500 * MS;
    assert_eq!(step(&mut s, back, 50 * MS), 0);
    assert_eq!(step(&mut s, back + 100 * MS, 50 * MS), 1);
    assert_eq!(s.count, 1);
    assert_eq!(s.drop_next, back + 200 * MS);

    // A cycle of a single drop (count - lastcount = 0) also restarts from one.
    let mut s = CodelState::default();
    let last = drop_k_times(&mut s, 1);
    assert_eq!(step(&mut s, last + MS, MS), 0);
    assert_eq!(step(&mut s, last + 2 * MS, 50 * MS), 0);
    assert_eq!(step(&mut s, last + 102 * MS, 50 * MS), 1);
    assert_eq!(s.count, 1);
}

fn codel(buffer: Buffer, ecn: bool) -> Box<dyn QueueDiscipline> {
    let mut p = Params::with_defaults(PARAMS);
    p.set("ecn", crate::model::ParamValue::Bool(ecn));
    let ctx = QueueContext { buffer, bps: 1e7, delay: 0, mtu: 1000, rng: Rng::stream(1, "q") };
    build(&p, &ctx)
}

fn pkt(seq: u64, ecn: u8) -> Packet {
    Packet { seq, size: 1000, ecn, ..Packet::EMPTY }
}

/// A standing queue of `depth` packets: every 10 ms for 1 s one leaves and one arrives, so each waits
/// depth * 10 ms. Returns the packets sent and the drops.
fn standing_queue(q: &mut dyn QueueDiscipline, depth: u64, ecn: u8) -> (Vec<Packet>, usize) {
    let (mut sent, mut dropped) = (Vec::new(), Vec::new());
    for seq in 0..depth {
        assert!(q.enqueue(0, pkt(seq, ecn)));
    }
    for k in 1..=100 {
        sent.extend(q.dequeue(k * 10 * MS, &mut dropped).map(|w| w.pkt));
        assert!(q.enqueue(k * 10 * MS, pkt(depth + k, ecn)));
    }
    (sent, dropped.len())
}

#[test]
fn never_drops_while_at_most_one_mtu_of_bytes_would_remain() {
    // Two 1000-byte packets (MTU 1000) waiting 20 ms each: after the head leaves one MTU remains.
    let mut q = codel(Buffer::Packets(100), false);
    let (sent, drops) = standing_queue(q.as_mut(), 2, 0);
    assert_eq!((sent.len(), drops), (100, 0));
    // Three: 2000 bytes remain, and the 30 ms sojourn is dropped on once an interval has passed.
    let mut q = codel(Buffer::Packets(100), false);
    let (_, drops) = standing_queue(q.as_mut(), 3, 0);
    assert!(drops > 0);
    assert_eq!(q.counters().early_drops as usize, drops);
}

#[test]
fn with_ecn_marks_capable_packets_instead_of_dropping() {
    let mut q = codel(Buffer::Packets(100), true);
    let (sent, drops) = standing_queue(q.as_mut(), 3, ECT);
    let marked = sent.iter().filter(|p| p.ecn & crate::net::packet::CE != 0).count();
    assert_eq!(drops, 0);
    assert!(marked > 0 && marked as u64 == q.counters().marks, "{marked} marked");
    // Packets that are not ECN-capable are still dropped with ECN on; and ECN off drops capable ones.
    for (ecn_on, bits) in [(true, 0), (false, ECT)] {
        let mut q = codel(Buffer::Packets(100), ecn_on);
        let (_, drops) = standing_queue(q.as_mut(), 3, bits);
        assert!(drops > 0 && q.counters().marks == 0);
    }
}

#[test]
fn tail_drops_when_the_buffer_is_full() {
    let mut q = codel(Buffer::Packets(2), false);
    assert!(q.enqueue(0, pkt(0, 0)) && q.enqueue(0, pkt(1, 0)));
    assert!(!q.enqueue(0, pkt(2, 0)));
    assert_eq!(q.counters().overflow_drops, 1);
    assert_eq!((q.len_packets(), q.len_bytes()), (2, 2000));
    assert_eq!(q.drain().len(), 2);
}

#[test]
fn target_must_be_below_interval() {
    let mut p = Params::with_defaults(PARAMS);
    assert!(check(&p, Buffer::Packets(10)).is_ok());
    p.set("target", crate::model::ParamValue::Num(0.1));
    let (key, why) = check(&p, Buffer::Packets(10)).unwrap_err();
    assert_eq!(key, "target");
    assert!(why.contains("interval") && !why.contains('\n'), "{why}");
}
