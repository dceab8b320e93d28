//! FQ-CoDel against RFC 8290 on scripted arrivals and dequeues: byte fairness of the deficit round robin,
//! new flows first, the move of an emptied new queue to the old list, deterministic hashing, and drops
//! from the largest queue on overflow.

use super::*;
use crate::model::ParamValue;
use crate::net::packet::{CE, ECT};
use crate::rng::Rng;

const MS: Time = 1_000_000;

fn fq(buffer: Buffer, seed: u64, set: &[(&'static str, f64)]) -> FqCodel {
    let mut p = Params::with_defaults(PARAMS);
    for &(k, v) in set {
        p.set(k, ParamValue::Num(v));
    }
    FqCodel::new(&p, &QueueContext { buffer, bps: 1e7, delay: 0, mtu: 1000, rng: Rng::stream(seed, "fq") })
}

fn pkt(owner: u32, seq: u64, size: u32) -> Packet {
    Packet { owner, seq, size, ..Packet::EMPTY }
}

/// The first `n` flow owners whose data land in different queues.
fn separate_owners(q: &FqCodel, n: usize) -> Vec<u32> {
    let mut used = Vec::new();
    let owners: Vec<u32> = (0..)
        .filter(|&o| {
            let b = q.bucket(pkt(o, 0, 0).flow_key());
            let fresh = !used.contains(&b);
            used.push(b);
            fresh
        })
        .take(n)
        .collect();
    owners
}

fn owners_of(q: &mut FqCodel, now: Time, n: usize) -> Vec<u32> {
    let mut dropped = Vec::new();
    let out = (0..n).map(|_| q.dequeue(now, &mut dropped).expect("a packet").pkt.owner).collect();
    assert!(dropped.is_empty());
    out
}

#[test]
fn deficit_round_robin_shares_bytes_not_packets() {
    let mut q = fq(Buffer::Packets(100_000), 1, &[]);
    let [a, b] = separate_owners(&q, 2)[..] else { unreachable!() };
    for seq in 0..2000 {
        assert!(q.enqueue(0, pkt(a, seq, 1500)) && q.enqueue(0, pkt(b, seq, 500)));
    }
    // Dequeued 1 ms later: below CoDel's target, so only the scheduler decides.
    let (mut bytes, mut pkts) = ([0u64; 2], [0u64; 2]);
    let mut dropped = Vec::new();
    for _ in 0..1000 {
        let w = q.dequeue(MS, &mut dropped).unwrap();
        let k = usize::from(w.pkt.owner == b);
        bytes[k] += w.pkt.size as u64;
        pkts[k] += 1;
        // Deficit round robin: the bytes sent never differ by more than a quantum and a packet.
        assert!(bytes[0].abs_diff(bytes[1]) <= 1514 + 1500, "{bytes:?}");
    }
    assert!(dropped.is_empty());
    let ratio = pkts[1] as f64 / pkts[0] as f64;
    assert!((2.9..3.1).contains(&ratio), "three 500-byte packets per 1500-byte one: {pkts:?}");
}

#[test]
fn a_new_flow_goes_first_once_then_joins_the_old_list() {
    // A quantum of ten 1000-byte packets, so a backlogged flow's turn is long enough to see who waits.
    let mut q = fq(Buffer::Packets(1000), 1, &[("quantum", 10_000.0)]);
    let [a, b] = separate_owners(&q, 2)[..] else { unreachable!() };
    for seq in 0..100 {
        q.enqueue(0, pkt(a, seq, 1000));
    }
    // a spends its first quantum on the new list, then moves to the old one and starts another.
    assert_eq!(owners_of(&mut q, MS, 11), [a; 11]);
    // b's packet arrives while a is backlogged with 9000 bytes of turn left: b is new, so it goes next.
    q.enqueue(MS, pkt(b, 0, 1000));
    assert_eq!(owners_of(&mut q, MS, 1), [b]);
    // The next dequeue finds b's queue empty on the new list: it moves to the end of the old list rather
    // than leaving, so b's next packet is not new again and waits for the rest of a's turn.
    assert_eq!(owners_of(&mut q, MS, 1), [a]);
    q.enqueue(MS, pkt(b, 1, 1000));
    assert_eq!(owners_of(&mut q, MS, 9), [a, a, a, a, a, a, a, a, b]);
}

#[test]
fn hashing_repeats_with_the_seed_and_colliding_flows_share_one_fifo() {
    let (q1, q2, q3) =
        (fq(Buffer::Packets(10), 7, &[]), fq(Buffer::Packets(10), 7, &[]), fq(Buffer::Packets(10), 8, &[]));
    let keys: Vec<u64> = (0..10_000u32).map(|o| pkt(o, 0, 0).flow_key()).collect();
    assert!(keys.iter().all(|&k| q1.bucket(k) == q2.bucket(k)), "same seed, same queues");
    assert!(keys.iter().filter(|&&k| q1.bucket(k) != q3.bucket(k)).count() > 9000, "another seed reshuffles");
    let mut seen = std::collections::HashSet::new();
    let spread = keys.iter().filter(|&&k| seen.insert(q1.bucket(k))).count();
    assert_eq!(spread, 1024, "10000 flows reach every one of the 1024 queues");

    // The first two owners that collide under seed 7, found again identically, share one FIFO: their
    // packets leave in arrival order, while a third flow is interleaved by the round robin.
    let first_collision = |q: &FqCodel| {
        (1..1000u32)
            .find_map(|o| {
                (0..o)
                    .find(|&p| q.bucket(pkt(p, 0, 0).flow_key()) == q.bucket(pkt(o, 0, 0).flow_key()))
                    .map(|p| (p, o))
            })
            .unwrap()
    };
    let (a, b) = first_collision(&q1);
    assert_eq!(first_collision(&q2), (a, b));
    let mut q = fq(Buffer::Packets(100), 7, &[("quantum", 2000.0)]);
    let c = (0..).find(|&c| q.bucket(pkt(c, 0, 0).flow_key()) != q.bucket(pkt(a, 0, 0).flow_key())).unwrap();
    for seq in 0..4 {
        q.enqueue(0, pkt(a, seq, 1000));
        q.enqueue(0, pkt(b, seq, 1000));
        q.enqueue(0, pkt(c, seq, 1000));
    }
    assert_eq!(owners_of(&mut q, MS, 12), [a, b, c, c, a, b, c, c, a, b, a, b]);
}

#[test]
fn overflow_drops_from_the_head_of_the_largest_queue() {
    for (batch, expect) in [(1.0, vec![0]), (64.0, vec![0, 1, 2, 3])] {
        let mut q = fq(Buffer::Packets(10), 1, &[("drop_batch", batch)]);
        let [a, b, c] = separate_owners(&q, 3)[..] else { unreachable!() };
        (0..7).for_each(|s| assert!(q.enqueue(0, pkt(a, s, 1000))));
        (0..3).for_each(|s| assert!(q.enqueue(0, pkt(b, s, 1000))));
        let mut evicted = Vec::new();
        q.take_evicted(&mut evicted);
        assert!(evicted.is_empty());
        // The eleventh packet is kept; the largest queue (a's 7000 bytes) loses its head: one packet, or
        // with Linux's batch, packets until half its bytes (3500) are gone.
        assert!(q.enqueue(0, pkt(c, 0, 1000)));
        q.take_evicted(&mut evicted);
        assert_eq!(
            evicted.iter().map(|p| (p.owner, p.seq)).collect::<Vec<_>>(),
            expect.iter().map(|&s| (a, s)).collect::<Vec<_>>()
        );
        assert_eq!(q.len_packets(), 11 - expect.len() as u64);
        assert_eq!(q.counters().overflow_drops, expect.len() as u64);
        let ia = q.bucket(pkt(a, 0, 0).flow_key());
        assert_eq!(q.queues[ia].codel.count as usize, expect.len(), "a's CoDel count grows by its drops");
    }
    // In bytes: 5000 bytes of buffer, a holds 3000 and b 1500; c's 1000 goes over, and a (the largest)
    // loses one packet, whichever flow arrived.
    let mut q = fq(Buffer::Bytes(5000), 1, &[("drop_batch", 1.0)]);
    let [a, b, c] = separate_owners(&q, 3)[..] else { unreachable!() };
    (0..3).for_each(|s| assert!(q.enqueue(0, pkt(a, s, 1000))));
    assert!(q.enqueue(0, pkt(b, 0, 1500)) && q.enqueue(0, pkt(c, 0, 1000)));
    let mut evicted = Vec::new();
    q.take_evicted(&mut evicted);
    assert_eq!(evicted.iter().map(|p| (p.owner, p.seq)).collect::<Vec<_>>(), [(a, 0)]);
    assert_eq!(q.len_bytes(), 4500);
}

#[test]
fn ecn_is_on_by_default_and_each_queue_has_its_own_codel() {
    let mut q = fq(Buffer::Packets(1000), 1, &[]);
    let [a, b] = separate_owners(&q, 2)[..] else { unreachable!() };
    // a keeps 4 ECN-capable packets waiting 40 ms each; b sends one packet now and then, never queued.
    let mut dropped = Vec::new();
    let (mut seq, mut marked_a, mut sent_b) = (0, 0, 0);
    for s in 0..4 {
        q.enqueue(0, Packet { ecn: ECT, ..pkt(a, s, 1000) });
    }
    for k in 1..=100u64 {
        let now = k * 10 * MS;
        if k % 7 == 0 {
            q.enqueue(now, pkt(b, k, 1000));
        }
        while let Some(w) = q.dequeue(now, &mut dropped) {
            marked_a += usize::from(w.pkt.owner == a && w.pkt.ecn & CE != 0);
            sent_b += usize::from(w.pkt.owner == b);
            if w.pkt.owner == a {
                break;
            }
        }
        q.enqueue(now, Packet { ecn: ECT, ..pkt(a, 4 + seq, 1000) });
        seq += 1;
    }
    assert!(dropped.is_empty(), "ECN-capable packets are marked, and b's never wait: {dropped:?}");
    assert!(marked_a > 0 && marked_a as u64 == q.counters().marks, "{marked_a}");
    assert_eq!(sent_b, 14);
}

#[test]
fn draining_empties_every_queue_oldest_first() {
    let mut q = fq(Buffer::Packets(100), 1, &[]);
    let [a, b] = separate_owners(&q, 2)[..] else { unreachable!() };
    q.enqueue(0, pkt(a, 0, 1000));
    q.enqueue(1, pkt(b, 0, 1000));
    q.enqueue(2, pkt(a, 1, 1000));
    let order: Vec<(u32, u64)> = q.drain().iter().map(|p| (p.owner, p.seq)).collect();
    assert_eq!(order, [(a, 0), (b, 0), (a, 1)]);
    assert_eq!((q.len_packets(), q.len_bytes()), (0, 0));
    assert!(q.dequeue(3, &mut Vec::new()).is_none());
    assert!(q.new_flows.is_empty() && q.old_flows.is_empty());
}
