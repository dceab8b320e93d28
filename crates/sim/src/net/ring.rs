//! A FIFO ring buffer addressed by absolute entry numbers: entry `n` is the n-th ever pushed, and the ring
//! holds entries `head..tail`. Capacity is a power of two, so an entry's slot is `n & (capacity - 1)` (no
//! division, no wrap-around branch), and callers can remember an entry by its number across pops.
//!
//! The mask is derived from the buffer's length rather than stored: the compiler knows `n & (len - 1)`
//! is below `len` whenever `len` is not zero, so the bounds check of an access shrinks to that test, and
//! disappears from `push_back`, whose capacity check already implies it.

pub struct Ring<T> {
    buf: Vec<T>,
    head: u64,
    tail: u64,
}

impl<T: Copy + Default> Default for Ring<T> {
    fn default() -> Self {
        Ring { buf: Vec::new(), head: 0, tail: 0 }
    }
}

impl<T: Copy + Default> Ring<T> {
    #[inline]
    pub fn len(&self) -> usize {
        (self.tail - self.head) as usize
    }

    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.tail == self.head
    }

    /// Number of the first entry held (equal to `tail()` when empty): entries popped so far.
    #[inline]
    pub fn head(&self) -> u64 {
        self.head
    }

    /// Number the next pushed entry will get.
    #[inline]
    pub fn tail(&self) -> u64 {
        self.tail
    }

    /// The slot of entry number `n`: in bounds unless the buffer is empty.
    #[inline]
    fn slot(&self, n: u64) -> usize {
        n as usize & self.buf.len().wrapping_sub(1)
    }

    /// Entry number `n`, which must be in `head()..tail()`.
    #[inline]
    pub fn at(&self, n: u64) -> &T {
        debug_assert!(n >= self.head && n < self.tail);
        &self.buf[self.slot(n)]
    }

    #[inline]
    pub fn at_mut(&mut self, n: u64) -> &mut T {
        debug_assert!(n >= self.head && n < self.tail);
        let slot = self.slot(n);
        &mut self.buf[slot]
    }

    #[inline]
    pub fn front(&self) -> Option<&T> {
        if self.is_empty() {
            None
        } else {
            Some(self.at(self.head))
        }
    }

    #[inline]
    pub fn back(&self) -> Option<&T> {
        if self.is_empty() {
            None
        } else {
            Some(self.at(self.tail - 1))
        }
    }

    /// Whether `push_back` can take an entry without growing.
    #[inline]
    pub fn has_room(&self) -> bool {
        self.len() < self.buf.len()
    }

    #[inline]
    pub fn push_back(&mut self, value: T) {
        // `>=` rather than `==`: past this test the buffer is not empty, which the bounds check needs.
        if self.len() >= self.buf.len() {
            self.grow();
        }
        let slot = self.slot(self.tail);
        self.buf[slot] = value;
        self.tail += 1;
    }

    /// Appends an entry to be filled in place: returns it, holding whatever its slot held before.
    #[inline]
    pub fn push_back_slot(&mut self) -> &mut T {
        if self.len() >= self.buf.len() {
            self.grow();
        }
        let slot = self.slot(self.tail);
        self.tail += 1;
        &mut self.buf[slot]
    }

    /// Drops the front entry (the ring must not be empty), for callers that read it in place.
    #[inline]
    pub fn advance_head(&mut self) {
        debug_assert!(!self.is_empty());
        self.head += 1;
    }

    /// The entry last dropped from the front, as its slot still holds it: a push since may have
    /// overwritten it (the caller knows there was none). Something must have been dropped.
    #[inline]
    pub fn last_popped(&self) -> &T {
        debug_assert!(self.head > 0);
        &self.buf[self.slot(self.head.wrapping_sub(1))]
    }

    pub fn pop_back(&mut self) -> Option<T> {
        let v = *self.back()?;
        self.tail -= 1;
        Some(v)
    }

    /// The entries, front to back.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> {
        (self.head..self.tail).map(move |n| self.at(n))
    }

    /// Entry numbers from `from` (clamped to the held range) to the back.
    pub fn numbers_from(&self, from: u64) -> std::ops::Range<u64> {
        from.clamp(self.head, self.tail)..self.tail
    }

    /// The first entry number in `head()..tail()` for which `pred` is false, assuming `pred` is true for a
    /// prefix of the ring and false after it (as `slice::partition_point`).
    pub fn partition_point(&self, mut pred: impl FnMut(&T) -> bool) -> u64 {
        let (mut lo, mut hi) = (self.head, self.tail);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(self.at(mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Doubles the capacity, keeping every entry at its number's new slot.
    #[cold]
    fn grow(&mut self) {
        let cap = (self.buf.len() * 2).max(16);
        let mut buf = vec![T::default(); cap];
        for n in self.head..self.tail {
            buf[n as usize & (cap - 1)] = self.buf[self.slot(n)];
        }
        self.buf = buf;
    }
}

#[cfg(test)]
mod tests {
    use super::Ring;
    use std::collections::VecDeque;

    #[test]
    fn behaves_like_a_deque_across_growth_and_wrap_around() {
        let mut r = Ring::default();
        let mut d = VecDeque::new();
        for i in 0..1000u64 {
            r.push_back(i);
            d.push_back(i);
            if i % 3 == 0 {
                let front = r.front().copied();
                if front.is_some() {
                    r.advance_head();
                }
                assert_eq!(front, d.pop_front());
            }
            if i % 17 == 0 {
                assert_eq!(r.pop_back(), d.pop_back());
            }
            assert_eq!(r.len(), d.len());
            assert_eq!(r.front(), d.front());
            assert_eq!(r.back(), d.back());
        }
        let held: Vec<u64> = r.numbers_from(0).map(|n| *r.at(n)).collect();
        assert_eq!(held, d.iter().copied().collect::<Vec<_>>());
        let p = r.partition_point(|v| *v < 700);
        assert_eq!(p - r.head(), d.partition_point(|v| *v < 700) as u64);
    }
}
