//! The event queue: events ordered by (time, insertion order), so events at the same instant run in the
//! order they were scheduled and every run of the same scenario is identical.
//!
//! Link arrivals (one pending per busy link direction, one per packet per hop) and everything else
//! (timers, one per flow; samples; scenario events) live in two heaps that share one insertion counter.
//! The next event is the smaller head of the two, so the order is exactly that of a single queue, but the
//! per-packet heap holds only the busy link directions: it stays small however many flows there are.
//! A link arrival stays at the head of its heap while it is processed and is then replaced by its
//! direction's next arrival, in one pass down the heap (`EventQueue::reschedule_link`). Events after the
//! run's end (the queue's horizon) stay in the queue.

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

/// The next event of an `EventQueue`, from `EventQueue::next`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A link arrival, still in the queue: whoever processes it ends it with `reschedule_link` or
    /// `remove_link`.
    Link(Time, u32),
    /// Another event, at this time: `pop_other` takes it.
    Other(Time),
    /// Nothing left at or before the horizon.
    Empty,
}

pub struct EventQueue {
    /// Link arrivals, by link-direction index.
    links: MinHeap<u32>,
    /// Every other event.
    others: MinHeap<Event>,
    next_seq: u64,
    /// The key after every event at or before the horizon time (`set_horizon`); `next` leaves later
    /// events in the queue.
    horizon: u128,
    /// The smaller of the head key of `others` and `horizon`. A link arrival is next if its key is below
    /// this one bound, so `next` tests a link arrival against the other events and the horizon at once.
    others_bound: u128,
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue {
            links: MinHeap::default(),
            others: MinHeap::default(),
            next_seq: 0,
            horizon: u128::MAX,
            others_bound: u128::MAX,
        }
    }
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
            other => {
                self.others.push(k, other);
                self.others_bound = self.others_bound.min(k);
            }
        }
    }

    /// Makes `next` return only events at or before `time` (insertion counts never reach `u64::MAX`,
    /// so the horizon key is after every event at `time`).
    pub fn set_horizon(&mut self, time: Time) {
        self.horizon = key(time, u64::MAX);
        self.others_bound = self.others.min_key().min(self.horizon);
    }

    /// What comes next, without taking it.
    #[inline(always)]
    pub fn next(&self) -> Next {
        let l = self.links.min_key();
        let o = self.others_bound;
        if l < o {
            Next::Link((l >> 64) as Time, self.links.top())
        } else if o != self.horizon {
            Next::Other((o >> 64) as Time)
        } else {
            Next::Empty
        }
    }

    /// Takes the next event, after `next` said it is not a link arrival.
    #[inline(always)]
    pub fn pop_other(&mut self) -> Event {
        let (_, ev) = self.others.pop().expect("pop_other of an empty queue");
        self.others_bound = self.others.min_key().min(self.horizon);
        ev
    }

    /// Ends the link arrival `next` returned by scheduling that direction's next arrival at `time`: the
    /// same key `schedule` would give it, but one pass down the heap instead of a pop and a push. Anything
    /// scheduled while the arrival was processed came after it (a later insertion, at the same time or
    /// later), so it is still the smallest key.
    #[inline(always)]
    pub fn reschedule_link(&mut self, time: Time, d: u32) {
        let k = key(time, self.next_seq);
        self.next_seq += 1;
        self.links.replace_top(k, d);
    }

    /// Ends the link arrival `next` returned without scheduling another.
    #[inline(always)]
    pub fn remove_link(&mut self) {
        self.links.remove_top();
    }

    /// Takes the next event (for tests; the simulation uses `next`).
    pub fn pop(&mut self) -> Option<(Time, Event)> {
        let ev = match self.next() {
            Next::Link(_, d) => {
                let (k, _) = self.links.pop()?;
                return Some(((k >> 64) as Time, Event::LinkArrival(d)));
            }
            Next::Other(t) => (t, self.pop_other()),
            Next::Empty => return None,
        };
        Some(ev)
    }

    pub fn len(&self) -> usize {
        self.links.len() + self.others.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Time of the next event, without taking it (for the budget checks, `sim/budget.rs`).
    pub fn peek_time(&self) -> Option<Time> {
        match self.links.min_key().min(self.others.min_key()) {
            u128::MAX => None,
            k => Some((k >> 64) as Time),
        }
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

    #[test]
    fn events_after_the_horizon_stay_in_the_queue() {
        let mut q = EventQueue::new();
        q.schedule(5, Event::LinkArrival(0));
        q.schedule(9, Event::Sample);
        q.schedule(10, Event::LinkArrival(1));
        q.schedule(11, Event::Rto(0));
        q.set_horizon(10);
        q.schedule(10, Event::Rto(1));
        q.schedule(4, Event::Rto(2));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (4, Event::Rto(2)),
                (5, Event::LinkArrival(0)),
                (9, Event::Sample),
                (10, Event::LinkArrival(1)),
                (10, Event::Rto(1)),
            ]
        );
        assert_eq!((q.len(), q.peek_time()), (1, Some(11)));
        q.set_horizon(11);
        assert_eq!(q.pop(), Some((11, Event::Rto(0))));
        assert_eq!(q.next(), Next::Empty);
    }
}
