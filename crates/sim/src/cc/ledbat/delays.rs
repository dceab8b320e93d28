//! LEDBAT's two delay lists (RFC 6817 §2.4.2, §3.4): the base-delay history, one minimum per minute for
//! the last BASE_HISTORY minutes, and the current-delay filter, the minimum of the last CURRENT_FILTER
//! samples no older than one RTT. Delays are the raw forward trip T2 − T1, which carries the receivers'
//! unknown clock offset; only `queuing_delay`, a difference of two such values, is free of it.

use crate::time::Time;
use std::collections::VecDeque;

/// Length of one base-history slot (RFC 6817 §2.4.2 `round_to_minute`).
const MINUTE: Time = 60_000_000_000;

pub struct OneWayDelays {
    /// Minute minima, oldest first; the last is the minute in progress.
    base: VecDeque<i64>,
    base_len: usize,
    /// The minute (now / 60 s) of the last rollover; None: before the first sample (RFC's −∞).
    minute: Option<Time>,
    /// (arrival, delay) of the latest samples, oldest first.
    current: VecDeque<(Time, i64)>,
    current_len: usize,
}

impl OneWayDelays {
    pub fn new(base_history: usize, current_filter: usize) -> OneWayDelays {
        OneWayDelays {
            base: VecDeque::with_capacity(base_history + 1),
            base_len: base_history.max(1),
            minute: None,
            current: VecDeque::with_capacity(current_filter + 1),
            current_len: current_filter.max(1),
        }
    }

    /// One delay sample at `now`; `rtt` (the latest RTT) bounds the filter's age (RFC 6817 §2.5: samples
    /// in the current list MUST NOT be older than an RTT).
    pub fn add(&mut self, now: Time, delay: i64, rtt: Option<Time>) {
        self.update_base(now, delay);
        self.current.push_back((now, delay));
        while self.current.len() > self.current_len {
            self.current.pop_front();
        }
        if let Some(rtt) = rtt {
            // The newest sample always stays: an RTT-old bound must not empty the filter.
            while self.current.len() > 1 && self.current[0].0 + rtt < now {
                self.current.pop_front();
            }
        }
    }

    /// `update_base_delay`: a new slot when the minute changes (dropping the oldest beyond
    /// BASE_HISTORY), else the current slot keeps its minimum.
    fn update_base(&mut self, now: Time, delay: i64) {
        let minute = now / MINUTE;
        if self.minute != Some(minute) {
            self.minute = Some(minute);
            self.base.push_back(delay);
            while self.base.len() > self.base_len {
                self.base.pop_front();
            }
        } else if let Some(tail) = self.base.back_mut() {
            *tail = (*tail).min(delay);
        }
    }

    /// MIN(base_delays).
    pub fn base(&self) -> Option<i64> {
        self.base.iter().copied().min()
    }

    /// FILTER(current_delays): their minimum.
    pub fn current(&self) -> Option<i64> {
        self.current.iter().map(|s| s.1).min()
    }

    /// FILTER(current_delays) − MIN(base_delays), nanoseconds; the clock offset cancels.
    pub fn queuing_delay(&self) -> Option<Time> {
        Some((self.current()? - self.base()?).max(0) as Time)
    }

    /// Slots in the base history (for tests).
    pub fn base_slots(&self) -> usize {
        self.base.len()
    }
}
