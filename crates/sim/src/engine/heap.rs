//! A binary min-heap of (key, payload) with unique `u128` keys: one integer comparison per step, and
//! elements are moved into a hole rather than swapped.

pub struct MinHeap<T> {
    items: Vec<(u128, T)>,
}

impl<T> Default for MinHeap<T> {
    fn default() -> Self {
        MinHeap { items: Vec::new() }
    }
}

impl<T: Copy> MinHeap<T> {
    #[inline]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    #[inline]
    pub fn peek_key(&self) -> Option<u128> {
        self.items.first().map(|e| e.0)
    }

    #[inline(always)]
    pub fn push(&mut self, key: u128, value: T) {
        let mut i = self.items.len();
        self.items.push((key, value));
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.items[parent].0 <= key {
                break;
            }
            self.items[i] = self.items[parent];
            i = parent;
        }
        self.items[i] = (key, value);
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<(u128, T)> {
        let last = self.items.pop()?;
        let Some(&top) = self.items.first() else { return Some(last) };
        let n = self.items.len();
        let mut i = 0;
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && self.items[right].0 < self.items[left].0 { right } else { left };
            if self.items[child].0 >= last.0 {
                break;
            }
            self.items[i] = self.items[child];
            i = child;
        }
        self.items[i] = last;
        Some(top)
    }
}

#[cfg(test)]
mod tests {
    use super::MinHeap;
    use crate::rng::Rng;
    use std::collections::BTreeSet;

    #[test]
    fn always_pops_the_smallest_key() {
        let mut h = MinHeap::default();
        let mut reference = BTreeSet::new();
        let mut rng = Rng::stream(7, "heap");
        for i in 0..2000u128 {
            // Unique keys, as the queue's (time, insertion order) keys are.
            let k = (rng.next_u64() % 1000) as u128 * 10_000 + i;
            h.push(k, i);
            reference.insert(k);
            if rng.next_u64().is_multiple_of(3) {
                assert_eq!(h.pop().map(|e| e.0), reference.pop_first());
            }
            assert_eq!(h.peek_key(), reference.first().copied());
        }
        while let Some((k, _)) = h.pop() {
            assert_eq!(Some(k), reference.pop_first());
        }
        assert!(reference.is_empty() && h.len() == 0);
    }
}
