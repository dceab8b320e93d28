//! ALT (P004): asymmetric-link-tolerant RTT measurement, a wrapper around any delay-based algorithm.
//!
//! The receiver stamps each ACK with the data packet's arrival time (T2) and the ACK's leave time (T3) on
//! its own clock. With the sender's T1 (send) and T4 (ACK arrival), T2 − T1 is the forward trip plus an
//! unknown clock offset and T4 − T3 the backward trip minus it. ALT keeps the minimum of each and gives the
//! wrapped algorithm
//!     baseRTT = min(T2 − T1) + min(T4 − T3)       (the offset cancels)
//!     RTT_i   = (T2_i − T1_i) + min(T4 − T3)       (backward queueing removed)
//! as docs/algorithms.md#alt-rtt-formula explains.
//! ACKs carry the 10-byte option (P004 §III: 40 -> 50 bytes), set in the registry.

use super::{AckEvent, CcTrace, CongestionControl, LossEvent};
use crate::time::Time;

pub struct Alt {
    inner: Box<dyn CongestionControl>,
    fmin: Option<i64>,
    bmin: Option<i64>,
}

impl Alt {
    pub fn wrap(inner: Box<dyn CongestionControl>) -> Box<dyn CongestionControl> {
        Box::new(Alt { inner, fmin: None, bmin: None })
    }

    fn base(&self) -> Option<Time> {
        Some((self.fmin? + self.bmin?).max(0) as Time)
    }

    /// The ACK as the wrapped algorithm sees it: ALT's RTT sample and baseRTT.
    fn measured<'a>(&mut self, ack: &AckEvent<'a>) -> AckEvent<'a> {
        let mut ev = *ack;
        if let Some(ts) = ack.timestamps() {
            let (f, b) = (ts.forward_raw(), ts.backward_raw());
            if !ack.in_recovery {
                self.fmin = Some(self.fmin.map_or(f, |m| m.min(f)));
                self.bmin = Some(self.bmin.map_or(b, |m| m.min(b)));
            }
            ev.rtt = self.bmin.map(|bmin| (f + bmin).max(0) as Time);
        } else {
            ev.rtt = None;
        }
        ev.base_rtt = self.base();
        ev
    }
}

impl CongestionControl for Alt {
    fn window(&self) -> f64 {
        self.inner.window()
    }

    fn ssthresh(&self) -> f64 {
        self.inner.ssthresh()
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        let ev = self.measured(ack);
        self.inner.on_ack(&ev);
    }

    fn on_echoing_ack(&mut self, ack: &AckEvent) {
        let ev = self.measured(ack);
        self.inner.on_echoing_ack(&ev);
    }

    fn on_dupack(&mut self, now: Time) {
        self.inner.on_dupack(now)
    }

    fn on_loss(&mut self, loss: &LossEvent) {
        self.inner.on_loss(loss)
    }

    fn on_recovery_exit(&mut self, now: Time, inflight: u64) {
        self.inner.on_recovery_exit(now, inflight)
    }

    fn on_timeout(&mut self, now: Time, inflight: u64) {
        self.inner.on_timeout(now, inflight)
    }

    fn on_ecn(&mut self, now: Time, inflight: u64) {
        self.inner.on_ecn(now, inflight)
    }

    fn on_send(&mut self, now: Time, seq: u64, retransmit: bool, inflight: u64) {
        self.inner.on_send(now, seq, retransmit, inflight)
    }

    fn tick_interval(&self) -> Option<Time> {
        self.inner.tick_interval()
    }

    fn on_tick(&mut self, now: Time) {
        self.inner.on_tick(now)
    }

    fn pacing_rate(&self) -> Option<f64> {
        self.inner.pacing_rate()
    }

    fn paces(&self) -> bool {
        self.inner.paces()
    }

    fn wants_rate_samples(&self) -> bool {
        self.inner.wants_rate_samples()
    }

    fn newreno_recovery(&self) -> bool {
        self.inner.newreno_recovery()
    }

    fn fine_retransmit(&self) -> bool {
        self.inner.fine_retransmit()
    }

    fn expired(&self, now: Time, seq: u64) -> bool {
        self.inner.expired(now, seq)
    }

    fn on_early_loss(&mut self, loss: &LossEvent) {
        self.inner.on_early_loss(loss)
    }

    fn on_fine_retransmit(&mut self) {
        self.inner.on_fine_retransmit()
    }

    fn sends_syn(&self) -> bool {
        self.inner.sends_syn()
    }

    fn recovery(&self) -> super::Recovery {
        self.inner.recovery()
    }

    fn on_handshake(&mut self, now: Time, rtt: Time) {
        self.inner.on_handshake(now, rtt)
    }

    fn stale_after(&self) -> Option<Time> {
        self.inner.stale_after()
    }

    fn trace(&self) -> CcTrace {
        CcTrace { base_rtt: self.base(), srtt: self.inner.trace().srtt }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        self.inner.extra_metrics()
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        self.inner.extra_values(out)
    }
}
