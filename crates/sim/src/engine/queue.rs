//! The event queue: a binary heap keyed by (time, insertion order), so events at the same instant run in
//! the order they were scheduled and every run of the same scenario is identical.

use crate::time::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Everything that can happen. Payloads are indices into the simulation's tables; events are small and
/// copied, never allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The head packet of a link direction's pipe reaches the next node.
    LinkArrival(u32),
    /// A flow's retransmission timer (checked lazily against the sender's deadline).
    Rto(u32),
    /// A flow's delayed-ACK timer.
    DelayedAck(u32),
    /// A flow's congestion-control tick.
    CcTick(u32),
    FlowStart(u32),
    FlowStop(u32),
    /// A non-responsive source sends or changes state.
    Source(u32),
    Sample,
    /// A timed scenario event (reroute, link change), by index.
    Scenario(u32),
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    time: Time,
    seq: u64,
    event: Event,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time && self.seq == other.seq
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    // Reversed: BinaryHeap is a max-heap and we want the earliest event first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.time, other.seq).cmp(&(self.time, self.seq))
    }
}

#[derive(Default)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
}

impl EventQueue {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    pub fn schedule(&mut self, time: Time, event: Event) {
        self.heap.push(Entry { time, seq: self.next_seq, event });
        self.next_seq += 1;
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(Time, Event)> {
        self.heap.pop().map(|e| (e.time, e.event))
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_then_insertion_order() {
        let mut q = EventQueue::new();
        q.schedule(5, Event::Sample);
        q.schedule(1, Event::Rto(1));
        q.schedule(5, Event::Rto(2));
        q.schedule(1, Event::Rto(3));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![(1, Event::Rto(1)), (1, Event::Rto(3)), (5, Event::Sample), (5, Event::Rto(2))]
        );
    }
}
