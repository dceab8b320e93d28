//! The usual ACK at the module's cadence, on a path of its own: outside recovery, with an RTT sample, for
//! FAST without CCaFR or a per-ACK filter once both delay estimates are known (`usual_parts`). Nearly every ACK
//! is one of these, and on this path the only calls are tail calls, so it saves and restores no
//! registers (13 instructions per ACK in `on_ack_any`). It does exactly what `on_ack_any` would; every
//! other ACK goes there untouched. It returns the window after the ACK, so that it is the body of
//! `on_ack_window` itself: with `on_ack_window`'s default, the sender's indirect call made a second
//! call to `on_ack` and read the window after it (6 instructions per ACK).

use super::Fast;
use crate::cc::AckEvent;
use crate::time::NS_PER_SEC;

/// `as_f64` takes a call for values from 2^63 up; below, it is `x as i64 as f64`, which this path uses
/// directly, leaving the larger values to `on_ack_any`.
const BIG: u64 = 1 << 63;

impl Fast {
    #[inline(always)]
    pub(super) fn on_ack_usual(&mut self, ack: &AckEvent) -> f64 {
        let usual = self.usual_parts && ack.base_rtt.is_none() && !ack.in_recovery;
        let (true, Some(r)) = (usual, ack.rtt) else {
            return self.on_ack_any_window(ack);
        };
        if (r | ack.inflight) >= BIG {
            return self.on_ack_any_window(ack);
        }
        // `on_sample` for this case: `usual_parts` says both estimates are known.
        let (base, avg) = (self.base_rtt, self.avg_rtt);
        let rtt = r as i64 as f64 / NS_PER_SEC as f64;
        let flight = ack.inflight as i64 as f64 + 1.0;
        let base = if rtt < base { rtt } else { base };
        let avg = self.ewma(avg, rtt, flight);
        if rtt < self.period_min_rtt {
            self.period_min_rtt = rtt;
        }
        (self.base_rtt, self.avg_rtt) = (base, avg);
        let m = &mut self.module;
        m.flight = flight;
        m.note_acked(ack.snd_una);
        // An earlier ACK took the general path, which `usual_parts` needs: the round has started.
        m.on_ack_in_round(ack.now, r);
        let now = ack.now;
        if self.mi_at(avg - base) {
            self.cwnd += 1.0;
            self.mark_update(now);
            return self.cwnd;
        }
        let m = &mut self.module;
        if !m.off_round && now >= self.next_update {
            let old = m.acked_flight(ack.snd_una).unwrap_or(flight);
            let pace_ok = base >= super::PACE_MIN_BASE_RTT_S;
            return self.update_at_cadence(now, old, pace_ok, avg);
        }
        // Most ACKs find no increment scheduled: nothing to pace, and no test of baseRTT.
        if m.increments_scheduled() {
            return self.pace_usual(avg, base);
        }
        self.cwnd
    }

    /// The pacing of increments already scheduled if baseRTT allows it, then the window: a tail call,
    /// as a call here made the whole usual path save a register.
    #[inline(never)]
    fn pace_usual(&mut self, avg: f64, base: f64) -> f64 {
        if base >= super::PACE_MIN_BASE_RTT_S {
            self.module.pace(&mut self.cwnd, 0, self.period, avg);
        }
        self.cwnd
    }
}
