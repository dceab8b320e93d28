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
        let last = self.items.len();
        self.items.push((key, value));
        let items = self.items.as_mut_slice();
        let mut i = last;
        while i > 0 {
            let parent = (i - 1) / 2;
            if items[parent].0 <= key {
                break;
            }
            items[i] = items[parent];
            i = parent;
        }
        // An entry that stays where it was pushed (a timer a timeout ahead, at many flows) is written once.
        if i != last {
            items[i] = (key, value);
        }
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
        self.sift_last_down(last);
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
            self.sift_last_down(last);
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
        // While both children exist the smaller is picked without a branch and without a test for the
        // right child; a node with a left child only (at most one per heap) comes after the loop.
        while left + 1 < n {
            // SAFETY: `left + 1 < n`, `child` is `left` or `left + 1`, and `i < left`.
            unsafe {
                let child = smaller_child(items, left);
                let c = *items.get_unchecked(child);
                if c.0 >= e.0 {
                    break;
                }
                *items.get_unchecked_mut(i) = c;
                i = child;
            }
            left = 2 * i + 1;
        }
        if left + 1 == n && items[left].0 < e.0 {
            items[i] = items[left];
            i = left;
        }
        items[i] = e;
    }

    /// `sift_down` for the heap's former last entry, after a pop. That entry came from the bottom row
    /// and almost always goes back near it (at 1000 flows each pop of the timer heap walked all ten
    /// levels), so the hole at the root is first moved down along the smaller children to the bottom,
    /// with one comparison per level instead of two, and `e` then rises from there: the same path and
    /// the same place as top-down, as keys are unique.
    #[inline(always)]
    fn sift_last_down(&mut self, e: (u128, T)) {
        let items = self.items.as_mut_slice();
        if items.len() <= 2 {
            return self.sift_down(e);
        }
        let n = items.len();
        let (mut i, left) = hole_to_bottom(items);
        if left + 1 == n {
            items[i] = items[left];
            i = left;
        }
        while i > 0 {
            let parent = (i - 1) / 2;
            // SAFETY: `parent < i < n`.
            unsafe {
                let p = *items.get_unchecked(parent);
                if p.0 < e.0 {
                    break;
                }
                *items.get_unchecked_mut(i) = p;
            }
            i = parent;
        }
        items[i] = e;
    }
}

/// Moves the hole at the root down along the smaller children, each moved up into it, while a node has
/// both children; returns where the hole stopped and its left child's index (which is `n - 1` when the
/// hole has a left child only, else `n` or more).
///
/// The walk is in byte offsets rather than indices: with indices each access scaled its own index by the
/// entry size, 22 instructions a level against 18 (at 1000 flows a pop of the timer heap walks about
/// nine levels).
#[inline(always)]
fn hole_to_bottom<T: Copy>(items: &mut [(u128, T)]) -> (usize, usize) {
    let size = size_of::<(u128, T)>();
    // The last entry's offset: a node has both children while its left child is before it.
    let last = (items.len() - 1) * size;
    let base = items.as_mut_ptr().cast::<u8>();
    let mut hole = 0;
    let mut left = size;
    // SAFETY: every offset read or written is a multiple of `size` at most `last`: `left < last` (both
    // children exist), `child` is `left` or `left + size`, and `hole < left`.
    unsafe {
        let at = |off: usize| base.add(off).cast::<(u128, T)>();
        while left < last {
            let right_smaller = (*at(left + size)).0 < (*at(left)).0;
            let child = left + size * usize::from(right_smaller);
            *at(hole) = *at(child);
            hole = child;
            left = 2 * child + size;
        }
    }
    (hole / size, left / size)
}

/// The smaller of the children at `left` and `left + 1`, picked without a branch.
///
/// # Safety
/// `left + 1 < items.len()`.
#[inline(always)]
unsafe fn smaller_child<T>(items: &[(u128, T)], left: usize) -> usize {
    left + usize::from(items.get_unchecked(left + 1).0 < items.get_unchecked(left).0)
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
