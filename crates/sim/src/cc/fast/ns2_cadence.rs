//! The ns-2 FAST module's per-ACK machinery (tcp-fast.cc v1.1.3, the code the papers ran), used by FAST's
//! default `cadence = "ns2"`:
//! - rounds are timed, not counted: a round ends on the first ACK more than one RTT sample after the
//!   previous round began (`fast_calc_cwnd_end + rtt < now`), and updates run only in every other round
//!   (`on_first_rtt_`, `UPDATE_CWND_EVERY_OTHER_RTT`);
//! - in an "on" round the window equation runs on every ACK at least `cwnd_update_period_` (10 ms) after
//!   the previous update, so a 100 ms round gets about ten steps;
//! - an increase becomes whole-packet steps, one every `bc_spacing` ACKs over one update period
//!   (`fast_pace`), and each update discards the steps the previous one had not yet taken;
//! - the window the equation calls old_cwnd is recorded per packet at send time: the flight after the
//!   latest new ACK outside recovery (`avg_cwnd_last_RTT_ = t_seqno_ - seqno - dupacks_`), so it stays at
//!   its pre-loss value for packets sent during recovery.

use crate::time::Time;
use std::collections::VecDeque;

/// A base RTT below this applies increases at once (tcp-fast.cc: `baseRTT_ >= 0.004` guards fast_pace).
pub(super) const PACE_MIN_BASE_RTT_S: f64 = 0.004;

#[derive(Debug, Default)]
pub(super) struct ModuleClock {
    /// `fast_calc_cwnd_end`: when the current round began (None until the first packet or the SYN left).
    pub round_start: Option<Time>,
    /// `on_first_rtt_`: updates run in this round. Starts true; the first round boundary turns it off.
    pub off_round: bool,
    acks_this_round: u32,
    /// Rounds begun so far; RRFast's detector runs at most once per round (its rule counts updates of
    /// the per-round kind).
    pub rounds: u64,
    pub detected_round: Option<u64>,
    /// `acks_last_rtt`: ACKs of the previous round, the base of the pacing of increases.
    pub acks_last_round: u32,
    /// `cwnd_increments`: whole packets still to add; `bc_spacing` and `bc_ack` (16-bit in the module).
    pub increments: f64,
    spacing: u16,
    acks_since_step: u16,
    /// `avg_cwnd_last_RTT_`: the flight after the latest new ACK outside recovery.
    pub flight: f64,
    /// That value as it was when each unacknowledged packet was sent, from sequence number `sent_base`.
    sent_flight: VecDeque<f64>,
    sent_base: u64,
}

impl ModuleClock {
    /// A packet left: remember the flight estimate it carries (`cwnd_array_[seqno]` in `output()`).
    pub fn on_send(&mut self, now: Time, seq: u64) {
        self.round_start.get_or_insert(now);
        if self.sent_flight.is_empty() {
            self.sent_base = seq;
        }
        if seq < self.sent_base {
            return;
        }
        let idx = (seq - self.sent_base) as usize;
        if idx == self.sent_flight.len() {
            // The usual case, a new packet: one push, without `resize`'s call.
            self.sent_flight.push_back(self.flight);
        } else if idx < self.sent_flight.len() {
            self.sent_flight[idx] = self.flight;
        } else {
            // Sequence numbers leave in order, so a gap is only possible after a go-back-N; fill it.
            self.sent_flight.resize(idx, self.flight);
            self.sent_flight.push_back(self.flight);
        }
    }

    /// old_cwnd for an ACK whose cumulative point is `snd_una`: the value recorded when the highest
    /// acknowledged packet (`snd_una - 1`, ns-2's ACK number) was sent. Forgets older packets.
    pub fn old_flight(&mut self, snd_una: u64) -> Option<f64> {
        let last = snd_una.checked_sub(1)?;
        let value = last.checked_sub(self.sent_base).and_then(|i| self.sent_flight.get(i as usize).copied());
        let drop = last.saturating_sub(self.sent_base).min(self.sent_flight.len() as u64);
        self.sent_flight.drain(..drop as usize);
        self.sent_base += drop;
        value
    }

    /// Counts this ACK into its round; returns true when it began a new round (flipping on/off).
    pub fn on_ack(&mut self, now: Time, rtt: Time) -> bool {
        let start = *self.round_start.get_or_insert(now);
        let new_round = start + rtt < now;
        if new_round {
            self.round_start = Some(now);
            self.acks_last_round = self.acks_this_round;
            self.acks_this_round = 0;
            self.off_round = !self.off_round;
            self.rounds += 1;
        }
        self.acks_this_round += 1;
        new_round
    }

    /// `fast_pace`: schedules `steps` more whole-packet increases (0: just count this ACK) and takes the
    /// one that is due. `period` and `avg_rtt` in seconds.
    #[inline]
    pub fn pace(&mut self, cwnd: &mut f64, steps: i64, period: f64, avg_rtt: f64) {
        // Most ACKs schedule nothing and find nothing scheduled: they only count themselves.
        if steps < 1 && self.increments == 0.0 && avg_rtt != 0.0 {
            self.acks_since_step = self.acks_since_step.wrapping_add(1);
            return;
        }
        self.pace_steps(cwnd, steps, period, avg_rtt);
    }

    fn pace_steps(&mut self, cwnd: &mut f64, steps: i64, period: f64, avg_rtt: f64) {
        if avg_rtt == 0.0 {
            return;
        }
        let acks_per_period = self.acks_last_round as f64 * period / avg_rtt;
        if steps >= 1 {
            self.increments += steps as f64;
            // `as` saturates, where the module's conversion to unsigned short would be undefined.
            self.spacing = (acks_per_period / self.increments) as u16;
            self.acks_since_step = 1;
        } else {
            self.acks_since_step = self.acks_since_step.wrapping_add(1);
        }
        if self.increments == 0.0 {
            return;
        }
        if *cwnd <= 4.0 {
            // Small windows take the increase at once, doubling at most per ACK.
            if *cwnd < self.increments {
                self.increments -= cwnd.trunc();
                *cwnd += *cwnd;
            } else {
                *cwnd += self.increments;
                self.increments = 0.0;
                self.spacing = 0;
            }
            self.acks_since_step = 0;
        } else if self.acks_since_step >= self.spacing {
            *cwnd += 1.0;
            self.increments -= 1.0;
            self.acks_since_step = 0;
        }
    }

    /// The SYN was acknowledged `rtt` after it left: that ACK opens the first round and is counted in it.
    pub fn on_handshake(&mut self, now: Time, rtt: Time) {
        self.round_start = Some(now.saturating_sub(rtt));
        self.acks_this_round += 1;
        // t_seqno_ - seqno after the SYN's ACK: the SYN alone was out.
        self.flight = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;

    #[test]
    fn rounds_are_timed_by_the_rtt_sample_and_alternate() {
        let mut c = ModuleClock::default();
        c.on_send(0, 0);
        assert!(!c.on_ack(100 * MS, 100 * MS), "start + rtt == now is not yet a new round");
        assert!(!c.off_round);
        assert!(c.on_ack(101 * MS, 100 * MS));
        assert!(c.off_round, "the first boundary turns updates off");
        assert_eq!(c.acks_last_round, 1);
        for t in 102..=201 {
            assert!(!c.on_ack(t * MS, 100 * MS));
        }
        assert!(c.on_ack(202 * MS, 100 * MS));
        assert!(!c.off_round);
        assert_eq!(c.acks_last_round, 101);
    }

    #[test]
    fn increases_are_whole_packets_spaced_over_one_period() {
        let mut c = ModuleClock { acks_last_round: 100, ..Default::default() };
        let mut cwnd = 100.0;
        // 100 ACKs per 100 ms round: 10 ACKs per 10 ms period; 5 steps -> one every 2 ACKs.
        c.pace(&mut cwnd, 5, 0.01, 0.1);
        assert_eq!(cwnd, 100.0, "bc_ack = 1 < bc_spacing = 2 on the scheduling ACK");
        let mut seen = vec![];
        for _ in 0..12 {
            c.pace(&mut cwnd, 0, 0.01, 0.1);
            seen.push(cwnd);
        }
        assert_eq!(
            seen,
            vec![101.0, 101.0, 102.0, 102.0, 103.0, 103.0, 104.0, 104.0, 105.0, 105.0, 105.0, 105.0]
        );
        assert_eq!(c.increments, 0.0);
    }

    #[test]
    fn small_windows_take_the_increase_at_once_doubling_at_most() {
        let mut c = ModuleClock { acks_last_round: 4, ..Default::default() };
        let mut cwnd = 3.0;
        c.pace(&mut cwnd, 10, 0.01, 0.1);
        assert_eq!((cwnd, c.increments), (6.0, 7.0));
        // 4 ACKs per round make 0.4 per period: a spacing of 0, one step on every ACK.
        c.pace(&mut cwnd, 0, 0.01, 0.1);
        assert_eq!((cwnd, c.increments), (7.0, 6.0), "above 4 packets, one step per ACK at most");
    }

    #[test]
    fn old_flight_is_the_value_when_the_acked_packet_left() {
        let mut c = ModuleClock { flight: 10.0, ..Default::default() };
        for s in 0..5 {
            c.on_send(0, s);
        }
        c.flight = 20.0;
        for s in 5..8 {
            c.on_send(0, s);
        }
        assert_eq!(c.old_flight(3), Some(10.0));
        assert_eq!(c.old_flight(7), Some(20.0));
        // A retransmission overwrites its packet's value, as output() does.
        c.flight = 7.0;
        c.on_send(0, 7);
        assert_eq!(c.old_flight(8), Some(7.0));
        assert_eq!(c.old_flight(0), None);
    }
}
