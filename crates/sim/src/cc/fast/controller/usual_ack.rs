//! The usual ACK at the module's cadence, on a path of its own: outside recovery, with an RTT sample and
//! both delay estimates set, for FAST without CCaFR or a per-ACK filter. Nearly every ACK is one of these,
//! and on this path the only calls are tail calls, so it saves and restores no registers (13 instructions
//! per ACK in `on_ack_any`). It does exactly what `on_ack_any` would; every other ACK goes there
//! untouched.

use super::super::rtt_filter::FilterPlacement;
use super::Fast;
use crate::cc::AckEvent;
use crate::time::{as_f64, secs};

/// `as_f64` converts values from 2^63 up with a call; the usual path leaves them to `on_ack_any`.
const BIG: u64 = 1 << 63;

impl Fast {
    #[inline(always)]
    pub(super) fn on_ack_usual(&mut self, ack: &AckEvent) {
        let usual = ack.base_rtt.is_none()
            && !ack.in_recovery
            && self.module.is_some()
            && self.ccafr.is_none()
            && !matches!(self.vfast, Some((_, FilterPlacement::PerAck)))
            && self.base_rtt.is_some()
            && self.avg_rtt.is_some()
            && ack.inflight < BIG;
        let Some(r) = ack.rtt.filter(|r| usual && *r < BIG) else { return self.on_ack_any(ack) };
        let flight = as_f64(ack.inflight) + 1.0;
        self.on_sample(secs(r), false, flight);
        let Some(m) = &mut self.module else { return };
        m.flight = flight;
        let old = m.old_flight(ack.snd_una).unwrap_or(flight);
        m.on_ack(ack.now, r);
        let now = ack.now;
        if self.mi_now() {
            self.cwnd += 1.0;
            self.last_update = now;
            return;
        }
        let pace_ok = self.base_rtt.is_some_and(|b| b >= super::PACE_MIN_BASE_RTT_S);
        let avg = self.avg_rtt.unwrap_or(0.0);
        let Some(m) = &mut self.module else { return };
        if (!self.every_other || !m.off_round) && now >= self.last_update + self.min_interval {
            return self.update_at_cadence(now, old, pace_ok, avg);
        }
        if pace_ok {
            m.pace(&mut self.cwnd, 0, self.period, avg);
        }
    }
}
