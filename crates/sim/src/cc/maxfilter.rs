//! A windowed maximum over rounds: the largest value seen in the last `window` rounds, exactly. BBR's
//! bottleneck-bandwidth estimate is this filter over delivery-rate samples.
//!
//! A monotonic queue: values strictly decreasing from front to back, rounds increasing, at most one entry
//! per round (a smaller value in the same round as the back can never become the maximum before the back
//! expires), so it holds at most `window + 1` entries.

use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct RoundMax {
    window: u64,
    entries: VecDeque<(u64, f64)>,
}

impl RoundMax {
    pub fn new(window: u64) -> RoundMax {
        RoundMax { window: window.max(1), entries: VecDeque::new() }
    }

    /// Adds a sample taken in `round` (rounds never decrease).
    pub fn update(&mut self, round: u64, value: f64) {
        while self.entries.back().is_some_and(|&(_, v)| v <= value) {
            self.entries.pop_back();
        }
        if self.entries.back().is_none_or(|&(r, _)| r < round) {
            self.entries.push_back((round, value));
        }
        self.expire(round);
    }

    /// Drops samples older than the window, as of `round`.
    pub fn expire(&mut self, round: u64) {
        while self.entries.front().is_some_and(|&(r, _)| r + self.window <= round) {
            self.entries.pop_front();
        }
    }

    /// The maximum over the window (0 before any sample).
    pub fn get(&self) -> f64 {
        self.entries.front().map_or(0.0, |&(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_maximum_of_the_last_rounds_and_no_older() {
        let mut f = RoundMax::new(3);
        assert_eq!(f.get(), 0.0);
        f.update(0, 5.0);
        f.update(0, 4.0);
        f.update(1, 3.0);
        assert_eq!(f.get(), 5.0);
        f.update(2, 2.0);
        assert_eq!(f.get(), 5.0);
        // Round 3: round 0's 5 has left the window of rounds 1..=3.
        f.update(3, 1.0);
        assert_eq!(f.get(), 3.0);
        f.update(4, 2.5);
        assert_eq!(f.get(), 2.5);
        f.expire(7);
        assert_eq!(f.get(), 0.0);
        assert!(f.entries.len() <= 4);
    }

    #[test]
    fn agrees_with_a_brute_force_maximum() {
        let mut rng = crate::rng::Rng::stream(3, "maxfilter");
        let mut f = RoundMax::new(10);
        let mut all: Vec<(u64, f64)> = Vec::new();
        let mut round = 0;
        for _ in 0..5000 {
            round += (rng.uniform() < 0.2) as u64;
            let v = rng.uniform();
            f.update(round, v);
            all.push((round, v));
            let brute = all.iter().filter(|(r, _)| r + 10 > round).map(|x| x.1).fold(0.0, f64::max);
            assert_eq!(f.get(), brute);
        }
    }
}
