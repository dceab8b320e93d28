//! Lazy timers (the RTO, the pacer's wake-up, the delayed ACK): the deadline lives in the flow's state and
//! at most one event is pending for it, so moving the deadline costs nothing. When the event fires it
//! either acts or, if the deadline moved later meanwhile, re-arms itself there.

use crate::time::Time;

/// Arms the timer if it has a deadline and no pending event: returns when to schedule its event.
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
}

#[inline]
pub fn fire(pending: &mut bool, deadline: Option<Time>, now: Time) -> Fired {
    *pending = false;
    match deadline {
        None => Fired::Cleared,
        Some(t) if t > now => {
            *pending = true;
            Fired::Later(t)
        }
        Some(_) => Fired::Due,
    }
}
