//! Copa's mode switch (paper §4, "competing with buffer-filling schemes"). Copa alone, or with other
//! Copa flows, empties the queue every few RTTs: its window oscillates around the target and the
//! standing RTT touches RTTmin. A loss-based competitor keeps the buffer full, so the queue never empties.
//! Copa therefore watches whether the queueing delay dq = RTTstanding - RTTmin was nearly zero (below
//! `empty_fraction` of the largest queueing delay of the last `max_window_rtts` RTTs) at least once in the
//! last `empty_every_rtts` RTTs. If so it stays in the default mode with the fixed δ; if not, it is in
//! competitive mode, where 1/δ follows AIMD as TCP Reno's window does: one more per RTT without loss,
//! halved on a loss (at most once per RTT), never below the default 1/δ. Returning to the default mode
//! restores the default δ. RTT counts here are srtt.

use super::filter::WindowedExtreme;
use crate::time::Time;

#[derive(Clone, Debug)]
pub struct ModeSwitch {
    enabled: bool,
    empty_fraction: f64,
    empty_every_rtts: f64,
    max_window_rtts: f64,
    default_inv_delta: f64,
    rtt_max: WindowedExtreme,
    /// The last time the queue was nearly empty (None before the first RTT sample).
    last_empty: Option<Time>,
    competitive: bool,
    inv_delta: f64,
    last_increase: Time,
    last_halving: Option<Time>,
}

impl ModeSwitch {
    pub fn new(
        enabled: bool,
        delta: f64,
        empty_fraction: f64,
        empty_every_rtts: f64,
        max_window_rtts: f64,
    ) -> Self {
        ModeSwitch {
            enabled,
            empty_fraction,
            empty_every_rtts,
            max_window_rtts,
            default_inv_delta: 1.0 / delta,
            rtt_max: WindowedExtreme::max(),
            last_empty: None,
            competitive: false,
            inv_delta: 1.0 / delta,
            last_increase: 0,
            last_halving: None,
        }
    }

    pub fn competitive(&self) -> bool {
        self.competitive
    }

    /// δ now: the default, or the competitive mode's.
    pub fn delta(&self) -> f64 {
        1.0 / self.inv_delta
    }

    /// A new RTT sample with the filters already updated by it.
    pub fn on_rtt(&mut self, now: Time, rtt: Time, srtt: Time, standing: Time, min: Time) {
        if !self.enabled {
            return;
        }
        self.rtt_max.update(now, rtt, (self.max_window_rtts * srtt as f64) as Time);
        let max_dq = self.rtt_max.get().unwrap_or(rtt).saturating_sub(min) as f64;
        let dq = standing.saturating_sub(min) as f64;
        // A flow starts on an empty queue; a queue that never held anything is empty too (0 < 0 fails).
        if self.last_empty.is_none() || dq == 0.0 || dq < self.empty_fraction * max_dq {
            self.last_empty = Some(now);
        }
        let since = now.saturating_sub(self.last_empty.unwrap_or(now)) as f64;
        let competitive = since > self.empty_every_rtts * srtt as f64;
        if competitive != self.competitive {
            self.competitive = competitive;
            // Both ways start from the default δ: entering, AIMD climbs from it; leaving, it is the mode's.
            self.inv_delta = self.default_inv_delta;
            self.last_increase = now;
        } else if competitive && now.saturating_sub(self.last_increase) >= srtt {
            self.inv_delta += 1.0;
            self.last_increase = now;
        }
    }

    /// A loss (fast retransmit or timeout): in competitive mode, halve 1/δ, once per RTT.
    pub fn on_loss(&mut self, now: Time, srtt: Time) {
        if !self.competitive || self.last_halving.is_some_and(|t| now.saturating_sub(t) < srtt) {
            return;
        }
        self.inv_delta = (self.inv_delta / 2.0).max(self.default_inv_delta);
        self.last_halving = Some(now);
        // The RTT with the loss brings no increase.
        self.last_increase = now;
    }
}
