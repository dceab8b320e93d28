//! Copa's velocity v (paper §2.1): each ACK moves cwnd by v/(δ·cwnd), so v/δ packets per RTT. Once per
//! RTT the window is compared with the one an RTT ago; while it keeps moving the same way v doubles, so
//! a window far from its target gets there in logarithmically many RTTs, and any change of direction
//! resets v to 1 so the window does not overshoot around the target.

use crate::time::Time;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
}

#[derive(Clone, Debug)]
pub struct Velocity {
    v: f64,
    direction: Option<Direction>,
    /// Comparisons in a row that agreed with the previous direction.
    same: u32,
    /// Doubling starts once `same` reaches this (three RTTs: paper §2.1, mvfst).
    threshold: u32,
    /// When the window was last recorded, and its value then.
    record: Option<(Time, f64)>,
}

impl Velocity {
    pub fn new(threshold: u32) -> Velocity {
        Velocity { v: 1.0, direction: None, same: 0, threshold, record: None }
    }

    pub fn get(&self) -> f64 {
        self.v
    }

    /// The once-per-RTT comparison: at least `srtt` after the last record, the direction is up if the
    /// window grew since, else down (as mvfst decides a tie).
    pub fn on_ack(&mut self, now: Time, srtt: Time, cwnd: f64) {
        let Some((at, then)) = self.record else {
            self.record = Some((now, cwnd));
            return;
        };
        if now.saturating_sub(at) < srtt {
            return;
        }
        let dir = if cwnd > then { Direction::Up } else { Direction::Down };
        if self.direction == Some(dir) {
            self.same += 1;
            if self.same >= self.threshold {
                self.v *= 2.0;
            }
        } else {
            self.v = 1.0;
            self.same = 0;
        }
        self.direction = Some(dir);
        self.record = Some((now, cwnd));
    }

    /// The per-ACK decision went the other way while v > 1: reset at once rather than spend up to an RTT
    /// moving the wrong way at a speed meant for the other direction. This is mvfst's changeDirection; the
    /// paper only compares once per RTT.
    pub fn steer(&mut self, now: Time, dir: Direction, cwnd: f64) {
        if self.v > 1.0 && self.direction != Some(dir) {
            self.direction = Some(dir);
            self.v = 1.0;
            self.same = 0;
            self.record = Some((now, cwnd));
        }
    }

    /// Forget the speed (after a timeout the path is not what v was measured on).
    pub fn reset(&mut self) {
        *self = Velocity::new(self.threshold);
    }
}
