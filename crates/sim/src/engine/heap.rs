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

    /// The smallest key, or `u128::MAX` when the heap is empty (never a real key: the queue's insertion
    /// counter never reaches `u64::MAX`). Comparing two heaps' heads then needs no test for emptiness.
    #[inline(always)]
    pub fn min_key(&self) -> u128 {
        match self.items.first() {
            Some(e) => e.0,
            None => u128::MAX,
        }
    }

    /// The payload of the smallest key. The heap must not be empty.
    #[inline(always)]
    pub fn top(&self) -> T {
        self.items[0].1
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<(u128, T)> {
        let last = self.items.pop()?;
        let Some(&top) = self.items.first() else { return Some(last) };
        self.sift_down(last);
        Some(top)
    }

    /// Replaces the smallest entry by (key, value): a pop and a push in one pass down the tree. The heap
    /// must not be empty.
    #[inline(always)]
    pub fn replace_top(&mut self, key: u128, value: T) {
        self.sift_down((key, value));
    }

    /// Removes the smallest entry. The heap must not be empty.
    #[inline(always)]
    pub fn remove_top(&mut self) {
        let last = self.items.pop().expect("remove_top of an empty heap");
        if !self.items.is_empty() {
            self.sift_down(last);
        }
    }

    /// Puts `e` in the root's place and moves it down to where it belongs.
    #[inline(always)]
    fn sift_down(&mut self, e: (u128, T)) {
        let items = self.items.as_mut_slice();
        // The root and one child (the link heap of a path busy in both directions): one comparison,
        // without the loop's index arithmetic and bounds checks.
        if let [root, child] = items {
            if child.0 < e.0 {
                *root = *child;
                *child = e;
            } else {
                *root = e;
            }
            return;
        }
        let n = items.len();
        let mut i = 0;
        let mut left = 1;
        while left < n {
            let mut child = left;
            let mut child_key = items[left].0;
            if let Some(r) = items.get(left + 1) {
                if r.0 < child_key {
                    child = left + 1;
                    child_key = r.0;
                }
            }
            if child_key >= e.0 {
                break;
            }
            items[i] = items[child];
            i = child;
            left = 2 * i + 1;
        }
        items[i] = e;
    }
}

#[cfg(test)]
mod tests {
    use super::MinHeap;
    use crate::rng::Rng;
    use std::collections::BTreeSet;

    /// Random pushes, pops, replacements and removals against a sorted set, the heap kept at most
    /// `max_len` long (pushes stop there).
    fn check(max_len: usize, seed: u64) {
        let mut h = MinHeap::default();
        let mut reference = BTreeSet::new();
        let mut rng = Rng::stream(seed, "heap");
        let mut next = 0u128;
        // Unique keys, as the queue's (time, insertion order) keys are.
        let mut new_key = |rng: &mut Rng| {
            next += 1;
            (rng.next_u64() % 1000) as u128 * 10_000 + next
        };
        for _ in 0..2000 {
            if h.len() < max_len {
                let k = new_key(&mut rng);
                h.push(k, k);
                reference.insert(k);
            }
            match rng.next_u64() % 6 {
                0 | 1 => assert_eq!(h.pop().map(|e| e.0), reference.pop_first()),
                2 if h.len() > 0 => {
                    let k = new_key(&mut rng);
                    reference.pop_first();
                    h.replace_top(k, k);
                    reference.insert(k);
                }
                3 if h.len() > 0 => {
                    reference.pop_first();
                    h.remove_top();
                }
                _ => {}
            }
            assert_eq!(h.min_key(), reference.first().copied().unwrap_or(u128::MAX));
            if h.len() > 0 {
                assert_eq!(h.top(), h.min_key());
            }
        }
        while let Some((k, _)) = h.pop() {
            assert_eq!(Some(k), reference.pop_first());
        }
        assert!(reference.is_empty() && h.len() == 0);
        assert_eq!(h.min_key(), u128::MAX);
    }

    #[test]
    fn always_pops_the_smallest_key() {
        check(usize::MAX, 7);
    }

    #[test]
    fn small_heaps_too() {
        for max_len in 1..=4 {
            check(max_len, max_len as u64);
        }
    }
}
