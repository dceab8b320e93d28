//! Lazy timers (the RTO, the pacer's wake-up, the delayed ACK): the deadline lives in the flow's state and
//! at most one event is pending for it, so moving the deadline costs nothing. When the event fires it
//! either acts or, if the deadline moved later meanwhile, re-arms itself there.

use crate::time::Time;

/// Arms a timer whose deadline is set only while no event is pending (the delayed ACK): returns when to
/// schedule its event.
#[inline]
pub fn arm(pending: &mut bool, deadline: Option<Time>) -> Option<Time> {
    match deadline {
        Some(t) if !*pending => {
            *pending = true;
            Some(t)
        }
        _ => None,
    }
}

/// What a timer's event found when it fired.
pub enum Fired {
    /// The deadline was cleared: nothing to do.
    Cleared,
    /// The deadline moved to this later time: the event must be scheduled again then (already marked
    /// pending).
    Later(Time),
    /// The deadline has come.
    Due,
    /// An event an earlier one replaced: ignore it.
    Stale,
}

/// An `arm_at` timer with no event pending: later than any deadline, so that arming is one comparison
/// (the RTO is armed after every event that changes a sender).
pub const UNSCHEDULED: Time = Time::MAX;

/// Arms a timer whose deadline may also move earlier while its event is pending (the RTO: ns-2 restarts
/// the timer only on the first partial ACK, and its estimate can shrink; the pacer, when the rate rises):
/// `scheduled` is when the pending event fires, `UNSCHEDULED` if none is. A deadline before it schedules
/// one more event; the later one then finds itself stale.
#[inline]
pub fn arm_at(scheduled: &mut Time, deadline: Option<Time>) -> Option<Time> {
    match deadline {
        Some(t) if t < *scheduled => {
            *scheduled = t;
            Some(t)
        }
        _ => None,
    }
}

/// `fire` for `arm_at` timers.
#[inline]
pub fn fire_at(scheduled: &mut Time, deadline: Option<Time>, now: Time) -> Fired {
    if *scheduled != now {
        return Fired::Stale;
    }
    *scheduled = UNSCHEDULED;
    match deadline {
        None => Fired::Cleared,
        Some(t) if t > now => {
            *scheduled = t;
            Fired::Later(t)
        }
        Some(_) => Fired::Due,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_moved_earlier_fires_at_the_earlier_time() {
        let mut at = UNSCHEDULED;
        assert_eq!(arm_at(&mut at, Some(3_000)), Some(3_000));
        assert_eq!(arm_at(&mut at, Some(4_000)), None, "later: the pending event re-arms itself");
        assert_eq!(arm_at(&mut at, Some(700)), Some(700), "earlier: one more event");
        assert!(matches!(fire_at(&mut at, Some(700), 700), Fired::Due));
        assert!(matches!(fire_at(&mut at, Some(700), 3_000), Fired::Stale), "the replaced event");
        assert_eq!(arm_at(&mut at, Some(5_000)), Some(5_000));
        assert!(matches!(fire_at(&mut at, Some(6_000), 5_000), Fired::Later(6_000)));
        assert!(matches!(fire_at(&mut at, Some(6_000), 6_000), Fired::Due));
    }
}
