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

/// A base RTT below this applies increases at once (tcp-fast.cc: `baseRTT_ >= 0.004` guards fast_pace).
pub(super) const PACE_MIN_BASE_RTT_S: f64 = 0.004;

#[derive(Debug, Default)]
pub(super) struct ModuleClock {
    /// `fast_calc_cwnd_end`: when the current round began, once `round_started` (the first packet or the
    /// SYN left). Apart from its flag, so that `on_ack_in_round` reads it without testing a tag.
    round_start: Time,
    round_started: bool,
    /// `!on_first_rtt_`: no updates run in this round. Starts false; each round boundary flips it, unless
    /// updates run in every round (`every_round`), so that an ACK tests one flag.
    pub off_round: bool,
    /// Updates run in every round (`update_every_other_rtt = false`): no round is off. The one copy of
    /// that parameter, which the round cadence reads too (`every_other`).
    every_round: bool,
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
    /// That value as it was when each unacknowledged packet was sent.
    sent_flight: SentFlight,
}

/// The flight recorded per packet for sequence numbers `base..end`, in a power-of-two ring indexed by the
/// sequence number itself: a new packet is one store, and an ACK only notes how far it reaches (`acked`),
/// where a `VecDeque` drained the acknowledged packets (about 45 instructions per ACK). They are forgotten
/// when a send finds the ring full, which keeps half of it free so that this happens at most once per
/// half a ring of sends.
#[derive(Debug)]
struct SentFlight {
    ring: Vec<f64>,
    /// `ring.len() - 1`, kept so that neither a send nor an ACK computes it.
    mask: usize,
    base: u64,
    end: u64,
    /// `base + ring.len()`, the first packet that finds no room, or 0 while the record is empty: one
    /// comparison tells `push` both. Kept up to date wherever `base`, `end` or the ring change but in
    /// `push`, which appends within it.
    limit: u64,
    /// The cumulative ACK point last noted: the packets below `acked - 1` are no longer needed. ACK
    /// points never go back, and reads (`get`) are at `acked - 1`, so forgetting later reads nothing
    /// that forgetting at once would not.
    acked: u64,
}

/// Starts with room, so that the first packet is no different from the others.
impl Default for SentFlight {
    fn default() -> Self {
        SentFlight { ring: vec![0.0; 16], mask: 15, base: 0, end: 0, limit: 0, acked: 0 }
    }
}

impl SentFlight {
    #[cfg(test)]
    fn len(&self) -> u64 {
        self.end - self.base
    }

    fn is_empty(&self) -> bool {
        self.base == self.end
    }

    fn slot(&self, seq: u64) -> usize {
        seq as usize & self.mask
    }

    fn update_limit(&mut self) {
        self.limit = if self.is_empty() { 0 } else { self.base + self.ring.len() as u64 };
    }

    /// Appends `seq` if it is the next packet of a non-empty record with room left, the usual send;
    /// false (nothing done) leaves every other case to `record_forgetting`.
    #[inline]
    fn push(&mut self, seq: u64, value: f64) -> bool {
        if seq != self.end || seq >= self.limit {
            return false;
        }
        let Some(slot) = self.ring.get_mut(seq as usize & self.mask) else { return false };
        *slot = value;
        self.end += 1;
        true
    }

    /// A send `push` does not take: forgets what the ACKs allow, then records.
    fn record_forgetting(&mut self, seq: u64, value: f64) {
        self.forget_up_to(self.acked.saturating_sub(1));
        self.record(seq, value);
    }

    /// Records `value` for `seq`: a new packet, a retransmission of one still held (overwritten), or a
    /// packet past a gap (the gap filled with `value`). Nothing for a packet already forgotten.
    fn record(&mut self, seq: u64, value: f64) {
        if self.is_empty() {
            self.base = seq;
            self.end = seq;
        }
        if seq < self.base {
            return;
        }
        if seq < self.end {
            let i = self.slot(seq);
            self.ring[i] = value;
            return;
        }
        // Half the ring free after this packet, so that the next forgetting is half a ring away.
        let needed = 2 * (seq + 1 - self.base) as usize;
        if needed > self.ring.len() {
            let cap = needed.max(2 * self.ring.len()).next_power_of_two();
            let mut ring = vec![0.0; cap];
            for s in self.base..self.end {
                ring[s as usize & (cap - 1)] = self.ring[self.slot(s)];
            }
            self.ring = ring;
            self.mask = cap - 1;
        }
        // Sequence numbers leave in order, so a gap is only possible after a go-back-N; fill it.
        for s in self.end..=seq {
            let i = self.slot(s);
            self.ring[i] = value;
        }
        self.end = seq + 1;
        self.update_limit();
    }

    /// Notes an ACK's cumulative point `snd_una`, to forget the packets below `snd_una - 1` later.
    #[inline]
    fn note_acked(&mut self, snd_una: u64) {
        debug_assert!(snd_una >= self.acked, "ACK points never go back");
        self.acked = snd_una;
    }

    /// Forgets every packet below `seq`, or all of them when `seq` is not yet held.
    fn forget_up_to(&mut self, seq: u64) {
        self.base = seq.max(self.base).min(self.end);
        self.update_limit();
    }

    /// `seq`'s value, if it is held. One unsigned comparison tells whether it is, as an offset below
    /// `base` wraps around past any length.
    #[inline]
    fn get(&self, seq: u64) -> Option<f64> {
        if seq.wrapping_sub(self.base) < self.end - self.base {
            Some(self.ring[self.slot(seq)])
        } else {
            None
        }
    }
}

impl ModuleClock {
    /// A clock for updates in every round or, with `every_round` false (the module's), every other.
    pub fn new(every_round: bool) -> Self {
        ModuleClock { every_round, ..ModuleClock::default() }
    }

    /// Whether updates run every other round (`update_every_other_rtt`), at either cadence.
    #[inline]
    pub fn every_other(&self) -> bool {
        !self.every_round
    }

    /// A packet left: remember the flight estimate it carries (`cwnd_array_[seqno]` in `output()`).
    pub fn on_send(&mut self, now: Time, seq: u64) {
        if !self.sent_flight.push(seq, self.flight) {
            self.on_send_unusual(now, seq);
        }
    }

    /// A send `push` does not take. The round starts with the very first packet, which finds the record
    /// empty: a packet that `push` takes never needs to start it.
    #[cold]
    #[inline(never)]
    fn on_send_unusual(&mut self, now: Time, seq: u64) {
        self.start_round_unless_started(now);
        self.sent_flight.record_forgetting(seq, self.flight);
    }

    /// old_cwnd for an ACK whose cumulative point is `snd_una`: the value recorded when the highest
    /// acknowledged packet (`snd_una - 1`, ns-2's ACK number) was sent. Older packets may be forgotten.
    pub fn old_flight(&mut self, snd_una: u64) -> Option<f64> {
        snd_una.checked_sub(1)?;
        self.note_acked(snd_una);
        self.acked_flight(snd_una)
    }

    /// `old_flight` in two halves, for the usual ACK that needs the value only when it updates: this one
    /// notes the ACK...
    #[inline]
    pub fn note_acked(&mut self, snd_una: u64) {
        self.sent_flight.note_acked(snd_una);
    }

    /// ...and this one, called on the same ACK, reads what `old_flight` would have returned.
    /// Always inline: a call here would make the usual ACK's path save registers.
    #[inline(always)]
    pub fn acked_flight(&self, snd_una: u64) -> Option<f64> {
        let last = snd_una.checked_sub(1)?;
        self.sent_flight.get(last)
    }

    fn start_round_unless_started(&mut self, now: Time) {
        if !self.round_started {
            self.round_start = now;
            self.round_started = true;
        }
    }

    /// Counts this ACK into its round; returns true when it began a new round (flipping on/off).
    pub fn on_ack(&mut self, now: Time, rtt: Time) -> bool {
        self.start_round_unless_started(now);
        self.on_ack_in_round(now, rtt)
    }

    /// `on_ack` once the first round has started, as it has for the usual ACK.
    #[inline(always)]
    pub fn on_ack_in_round(&mut self, now: Time, rtt: Time) -> bool {
        let new_round = self.round_start + rtt < now;
        if new_round {
            self.start_new_round(now);
        } else {
            self.acks_this_round += 1;
        }
        new_round
    }

    /// A round boundary: this ACK is the new round's first.
    #[inline(always)]
    fn start_new_round(&mut self, now: Time) {
        self.round_start = now;
        self.acks_last_round = self.acks_this_round;
        self.acks_this_round = 1;
        self.off_round = !self.off_round && !self.every_round;
        self.rounds += 1;
    }

    /// Whether increments wait to be taken. They are whole packets, set to +0.0 or reduced to it by
    /// subtracting themselves (which gives +0.0), never negative: none is the bits of +0.0, which one
    /// integer comparison with memory tells.
    #[inline(always)]
    pub fn increments_scheduled(&self) -> bool {
        self.increments.to_bits() != 0
    }

    /// `fast_pace`: schedules `steps` more whole-packet increases (0: just count this ACK) and takes the
    /// one that is due. `period` and `avg_rtt` in seconds.
    #[inline]
    pub fn pace(&mut self, cwnd: &mut f64, steps: i64, period: f64, avg_rtt: f64) {
        // Most ACKs schedule nothing and find nothing scheduled: nothing to do. `pace_steps` would count
        // them in `acks_since_step`, but that count is read only while increments are scheduled, and
        // scheduling restarts it.
        if steps < 1 && !self.increments_scheduled() {
            return;
        }
        self.pace_steps(cwnd, steps, period, avg_rtt);
    }

    /// Out of line: inlined, it would make the usual ACK's path save registers.
    #[inline(never)]
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
        self.round_start = now.saturating_sub(rtt);
        self.round_started = true;
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

    /// The ring against the `VecDeque` it replaced, over sends in order, retransmissions, go-back-N
    /// gaps, ACKs of any reach short of packets not yet sent (never going back), and the ring's growth
    /// and wrap-around: every packet an ACK may still ask about holds the deque's value.
    #[test]
    fn the_ring_holds_what_a_deque_would() {
        use std::collections::VecDeque;
        let (mut deque, mut base) = (VecDeque::<f64>::new(), 0u64);
        let mut ring = SentFlight::default();
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = 1000u64;
        let mut acked = 0u64;
        for step in 0..200_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let value = step as f64;
            match rng % 16 {
                0..=8 => {
                    let seq = match rng / 16 % 20 {
                        0 => next.saturating_sub(rng / 320 % 40),
                        1 => next + rng / 320 % 40,
                        _ => next,
                    };
                    next = next.max(seq + 1);
                    // The deque's on_send.
                    if deque.is_empty() {
                        base = seq;
                    }
                    if seq >= base {
                        let idx = (seq - base) as usize;
                        if idx < deque.len() {
                            deque[idx] = value;
                        } else {
                            deque.resize(idx, value);
                            deque.push_back(value);
                        }
                    }
                    if !ring.push(seq, value) {
                        ring.record_forgetting(seq, value);
                    }
                }
                _ => {
                    let last = (base + rng / 16 % 64).saturating_sub(8).max(acked).min(next - 1);
                    acked = last;
                    let expected = last.checked_sub(base).and_then(|i| deque.get(i as usize).copied());
                    let drop = last.saturating_sub(base).min(deque.len() as u64);
                    deque.drain(..drop as usize);
                    base += drop;
                    ring.note_acked(last + 1);
                    assert_eq!(ring.get(last), expected, "step {step}");
                }
            }
            for s in base.max(acked)..base + deque.len() as u64 {
                assert_eq!(ring.get(s), deque.get((s - base) as usize).copied(), "step {step}, packet {s}");
            }
            assert!(ring.len() <= ring.mask as u64 + 1);
        }
    }
}
