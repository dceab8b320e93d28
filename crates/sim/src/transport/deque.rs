//! Giving back the memory of a per-packet deque after a burst. A NewReno recovery without SACK can leave
//! tens of thousands of packets outstanding and waiting behind one hole, and the rings that follow them
//! (the sender's first-send times, the receiver's out-of-order buffer, BBR's send state) grow to twice
//! that. Afterwards they hold a window's worth again, but a ring buffer that keeps its capacity moves
//! through all of it and, over a long run, keeps every page of it resident: a 10-flow run used 3 MB more
//! in 200 s than in 20 s for buffers sized by its worst moment.

use std::collections::VecDeque;
use std::mem::MaybeUninit;

/// Capacity below which a deque is left alone: small buffers cost nothing worth a reallocation.
const KEEP: usize = 4096;

/// Shrinks `d` to a quarter of its capacity once it holds less than an eighth of it. After shrinking it
/// is half full at most, so it must double its length again before it grows: a deque whose length
/// swings does not reallocate at every swing.
#[inline]
pub fn shrink_when_mostly_empty<T>(d: &mut VecDeque<T>) {
    let cap = d.capacity();
    if cap > KEEP && d.len() < cap / 8 {
        d.shrink_to(cap / 4);
    }
}

/// Values for the sequence numbers `base..end`, in a power-of-two ring indexed by the sequence number
/// itself: forgetting the packets a cumulative ACK covers only moves `base`, where a `VecDeque` drained
/// them on every new ACK. Its memory is given back as `shrink_when_mostly_empty` gives a deque's. Slots
/// outside `base..end` are left uninitialised, so growing writes nothing into the new ones.
#[derive(Debug, Default)]
pub struct SeqRing<T> {
    ring: Vec<MaybeUninit<T>>,
    base: u64,
    end: u64,
}

impl<T: Copy> SeqRing<T> {
    pub fn len(&self) -> u64 {
        self.end - self.base
    }

    pub fn is_empty(&self) -> bool {
        self.base == self.end
    }

    pub fn end(&self) -> u64 {
        self.end
    }

    #[inline]
    fn slot(&self, seq: u64) -> usize {
        seq as usize & (self.ring.len() - 1)
    }

    /// `seq`'s value, if it is held.
    #[inline]
    pub fn get(&self, seq: u64) -> Option<T> {
        // SAFETY: every slot of `base..end` was written by `push` or moved by a resize with its value.
        (self.base..self.end).contains(&seq).then(|| unsafe { self.ring[self.slot(seq)].assume_init() })
    }

    /// Replaces the value of `seq`, which must be held (`base..end`).
    #[inline]
    pub fn set(&mut self, seq: u64, value: T) {
        assert!((self.base..self.end).contains(&seq), "set outside the ring");
        let i = self.slot(seq);
        self.ring[i] = MaybeUninit::new(value);
    }

    /// Appends the value of sequence number `end`.
    #[inline]
    pub fn push(&mut self, value: T) {
        if self.len() == self.ring.len() as u64 {
            self.grow();
        }
        let i = self.slot(self.end);
        self.ring[i] = MaybeUninit::new(value);
        self.end += 1;
    }

    /// Doubles a full ring in place (a reallocation, which need not copy): a value moves only if its
    /// sequence number has the bit of the old capacity set, and those are one run of slots.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let c = self.ring.len();
        if c == 0 {
            self.ring.resize(4, MaybeUninit::uninit());
            return;
        }
        self.ring.resize(2 * c, MaybeUninit::uninit());
        // The ring is full: `base..end` is `c` values, and the first multiple of `c` above `base`
        // splits them into two runs, one on each side of the old slots' wrap-around.
        let split = (self.base | (c as u64 - 1)) + 1;
        let (first, last) = if self.base as usize & c != 0 { (self.base, split) } else { (split, self.end) };
        let from = first as usize & (c - 1);
        let run = (last - first) as usize;
        self.ring.copy_within(from..from + run, from + c);
    }

    /// Moves the values into a ring of `cap` slots, in the few runs that are contiguous in both rings
    /// (a copy of memory each, not a loop over the values).
    fn resize(&mut self, cap: usize) {
        let mut ring = Vec::with_capacity(cap);
        ring.resize(cap, MaybeUninit::uninit());
        let mut s = self.base;
        while s < self.end {
            let (from, to) = (self.slot(s), s as usize & (cap - 1));
            let run = ((self.end - s) as usize).min(self.ring.len() - from).min(cap - to);
            ring[to..to + run].copy_from_slice(&self.ring[from..from + run]);
            s += run as u64;
        }
        self.ring = ring;
    }

    /// Forgets every sequence number below `seq`; an empty ring then starts at `seq`.
    #[inline]
    pub fn forget_below(&mut self, seq: u64) {
        if seq > self.base {
            self.base = seq;
            self.end = self.end.max(seq);
            let cap = self.ring.len();
            if cap > KEEP && self.len() < (cap / 8) as u64 {
                self.shrink();
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn shrink(&mut self) {
        self.resize(self.ring.len() / 4);
    }

    pub fn capacity(&self) -> usize {
        self.ring.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ring against the `VecDeque` it replaced for the sender's first-send times (front at the
    /// cumulative ACK point), over sends, retransmissions, ACKs of any reach and its growth and
    /// shrinking.
    #[test]
    fn a_seq_ring_holds_what_a_deque_would() {
        let (mut deque, mut ring) = (VecDeque::<u64>::new(), SeqRing::<u64>::default());
        let (mut una, mut next) = (0u64, 0u64);
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut biggest = 0;
        for step in 0..400_000u64 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Bursts: long runs of sends, then long runs of ACKs.
            let sending = (step / 20_000) % 2 == 0;
            if rng % 8 < if sending { 6 } else { 1 } {
                let seq = if (rng / 8).is_multiple_of(10) { (una + rng / 80 % 50).min(next) } else { next };
                next = next.max(seq + 1);
                let idx = (seq - una) as usize;
                if idx == deque.len() {
                    deque.push_back(step);
                }
                if seq == ring.end() && seq >= una {
                    ring.push(step);
                }
            } else {
                let ack = (una + rng / 8 % if sending { 3 } else { 40 }).min(next);
                if ack > una {
                    let acked = (ack - una) as usize;
                    deque.drain(..acked.min(deque.len()));
                    shrink_when_mostly_empty(&mut deque);
                    ring.forget_below(ack);
                    una = ack;
                }
            }
            biggest = biggest.max(ring.capacity());
            assert_eq!(ring.len(), deque.len() as u64, "step {step}");
            for i in [0, 1, 7, 30] {
                assert_eq!(ring.get(una + i), deque.get(i as usize).copied(), "step {step}");
            }
        }
        assert!(biggest > KEEP && ring.capacity() < biggest, "{biggest} {}", ring.capacity());
    }

    #[test]
    fn a_drained_burst_gives_its_memory_back_but_a_small_deque_keeps_its() {
        let mut d: VecDeque<u64> = (0..100_000).collect();
        let big = d.capacity();
        d.drain(..99_000);
        shrink_when_mostly_empty(&mut d);
        assert!(d.capacity() <= big / 4, "{} of {big}", d.capacity());
        assert_eq!(d.front(), Some(&99_000));
        assert_eq!(d.len(), 1000);
        let mut small: VecDeque<u64> = (0..4000).collect();
        small.drain(..3999);
        let cap = small.capacity();
        shrink_when_mostly_empty(&mut small);
        assert_eq!(small.capacity(), cap);
    }

    #[test]
    fn a_deque_at_an_eighth_or_more_is_kept() {
        let mut d: VecDeque<u64> = VecDeque::with_capacity(80_000);
        d.extend(0..10_000);
        let cap = d.capacity();
        shrink_when_mostly_empty(&mut d);
        assert_eq!(d.capacity(), cap);
    }
}
