//! Giving back the memory of a per-packet deque after a burst. A NewReno recovery without SACK can leave
//! tens of thousands of packets outstanding and waiting behind one hole, and the deques that follow them
//! (first-send times, the receiver's out-of-order flags, the application's reorder buffer) grow to twice
//! that. Afterwards they hold a window's worth again, but a ring buffer that keeps its capacity moves
//! through all of it and, over a long run, keeps every page of it resident: a 10-flow run used 3 MB more
//! in 200 s than in 20 s for buffers sized by its worst moment.

use std::collections::VecDeque;

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

#[cfg(test)]
mod tests {
    use super::*;

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
