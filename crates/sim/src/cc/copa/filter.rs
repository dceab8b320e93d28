//! An exact windowed extreme over time: the smallest (or largest) sample of the last `window`
//! nanoseconds. Copa needs three: RTTmin over 10 s, RTTstanding over srtt/2 and RTTmax over 4·srtt,
//! two of whose windows follow srtt, so the window is an argument of each update, not a constant.
//!
//! A monotonic queue: from front to back the times increase and the values strictly improve towards the
//! back's opposite (for a minimum: values increase), so the front is the extreme. A new sample removes
//! every entry behind it that it beats or ties (they can never be the extreme again while it lives). The
//! newest sample always stays, so the filter is never empty after an update: a window shorter than the
//! gap between samples gives the latest sample, as mvfst's and genericCC's filters do. It holds at most
//! one entry per sample inside the window, and fewer unless the samples rise (fall) all the way.

use crate::time::Time;
use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct WindowedExtreme {
    /// True: the minimum; false: the maximum.
    min: bool,
    entries: VecDeque<(Time, Time)>,
}

impl WindowedExtreme {
    pub fn min() -> WindowedExtreme {
        WindowedExtreme { min: true, entries: VecDeque::new() }
    }

    pub fn max() -> WindowedExtreme {
        WindowedExtreme { min: false, entries: VecDeque::new() }
    }

    /// Adds `value` seen at `now` (times never decrease) and forgets samples older than `window`.
    pub fn update(&mut self, now: Time, value: Time, window: Time) {
        let min = self.min;
        while self.entries.back().is_some_and(|&(_, v)| if min { v >= value } else { v <= value }) {
            self.entries.pop_back();
        }
        self.entries.push_back((now, value));
        let oldest = now.saturating_sub(window);
        while self.entries.len() > 1 && self.entries.front().is_some_and(|&(t, _)| t < oldest) {
            self.entries.pop_front();
        }
    }

    /// The extreme over the window as of the last update; None before any sample.
    pub fn get(&self) -> Option<Time> {
        self.entries.front().map(|&(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_a_brute_force_extreme_under_a_changing_window() {
        let mut rng = crate::rng::Rng::stream(5, "copa-filter");
        let (mut lo, mut hi) = (WindowedExtreme::min(), WindowedExtreme::max());
        let mut all: Vec<(Time, Time)> = Vec::new();
        let mut now = 0;
        for _ in 0..5000 {
            now += (rng.uniform() * 10.0) as Time;
            let v = (rng.uniform() * 1000.0) as Time;
            // The window moves, as srtt/2 does; the brute force applies the filter's own rule: samples
            // dropped under a shorter window stay dropped.
            let window = 50 + (rng.uniform() * 20.0) as Time;
            lo.update(now, v, window);
            hi.update(now, v, window);
            all.push((now, v));
            all.retain(|&(t, _)| t >= now.saturating_sub(window) || t == now);
            let in_window = || all.iter().map(|x| x.1);
            assert_eq!(lo.get(), in_window().min());
            assert_eq!(hi.get(), in_window().max());
            assert!(lo.entries.len() <= all.len() && hi.entries.len() <= all.len());
        }
    }

    #[test]
    fn a_fixed_window_gives_exactly_the_extreme_of_its_samples() {
        let mut lo = WindowedExtreme::min();
        lo.update(0, 30, 100);
        lo.update(40, 50, 100);
        lo.update(90, 40, 100);
        assert_eq!(lo.get(), Some(30));
        // At 101 the sample of time 0 is older than the window: 40 (time 90) is the minimum.
        lo.update(101, 60, 100);
        assert_eq!(lo.get(), Some(40));
        // Only the newest sample is left when the window is shorter than the gap.
        lo.update(500, 70, 10);
        assert_eq!(lo.get(), Some(70));
    }
}
