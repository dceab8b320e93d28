//! The event queue: events ordered by (time, insertion order), so events at the same instant run in the
//! order they were scheduled and every run of the same scenario is identical.
//!
//! Link arrivals (one pending per busy link direction, one per packet per hop) and everything else
//! (timers, one per flow; samples; scenario events) live in two heaps that share one insertion counter.
//! Popping takes the smaller head of the two, so the order is exactly that of a single queue, but the
//! per-packet heap holds only the busy link directions: it stays small however many flows there are.

use super::heap::MinHeap;
use crate::time::Time;

/// Everything that can happen. Payloads are indices into the simulation's tables; events are small and
/// copied, never allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The head packet of a link direction's pipe reaches the next node.
    LinkArrival(u32),
    /// A managed link direction's transmitter has sent its packet and takes the next (`net/managed.rs`).
    LinkTransmit(u32),
    /// A flow's retransmission timer (checked lazily against the sender's deadline).
    Rto(u32),
    /// A flow's delayed-ACK timer.
    DelayedAck(u32),
    /// A flow's congestion-control tick.
    CcTick(u32),
    /// A paced flow may send its next packet (checked lazily against the pacer's wake-up time).
    Pace(u32),
    FlowStart(u32),
    FlowStop(u32),
    /// A non-responsive source sends or changes state.
    Source(u32),
    Sample,
    /// A timed scenario event (reroute, link change), by index.
    Scenario(u32),
}

#[derive(Default)]
pub struct EventQueue {
    /// Link arrivals, by link-direction index.
    links: MinHeap<u32>,
    /// Every other event.
    others: MinHeap<Event>,
    next_seq: u64,
}

/// The sort key: time first, then insertion order.
#[inline]
fn key(time: Time, seq: u64) -> u128 {
    (time as u128) << 64 | seq as u128
}

impl EventQueue {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline(always)]
    pub fn schedule(&mut self, time: Time, event: Event) {
        let k = key(time, self.next_seq);
        self.next_seq += 1;
        match event {
            Event::LinkArrival(d) => self.links.push(k, d),
            other => self.others.push(k, other),
        }
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<(Time, Event)> {
        let from_links = match (self.links.peek_key(), self.others.peek_key()) {
            (Some(l), Some(o)) => l < o,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return None,
        };
        let (k, ev) = if from_links {
            self.links.pop().map(|(k, d)| (k, Event::LinkArrival(d)))?
        } else {
            self.others.pop()?
        };
        Some(((k >> 64) as Time, ev))
    }

    pub fn len(&self) -> usize {
        self.links.len() + self.others.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Time of the next event, without taking it (for the budget checks, `sim/budget.rs`).
    pub fn peek_time(&self) -> Option<Time> {
        let k = match (self.links.peek_key(), self.others.peek_key()) {
            (Some(l), Some(o)) => l.min(o),
            (k, None) | (None, k) => k?,
        };
        Some((k >> 64) as Time)
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

    #[test]
    fn link_arrivals_interleave_with_other_events_in_insertion_order() {
        let mut q = EventQueue::new();
        q.schedule(7, Event::LinkArrival(0));
        q.schedule(7, Event::Rto(0));
        q.schedule(3, Event::LinkArrival(1));
        q.schedule(7, Event::LinkArrival(2));
        q.schedule(3, Event::Sample);
        assert_eq!(q.len(), 5);
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (3, Event::LinkArrival(1)),
                (3, Event::Sample),
                (7, Event::LinkArrival(0)),
                (7, Event::Rto(0)),
                (7, Event::LinkArrival(2)),
            ]
        );
        assert!(q.is_empty());
    }
}
