//! Reno (RFC 5681) and, with partial-ACK recovery switched on, NewReno (RFC 6582).
//!
//! Window growth follows ns-2's `Agent/TCP/Reno` and `Agent/TCP/Newreno`: +1 packet per new ACK in slow
//! start and +1/cwnd per new ACK in congestion avoidance (no appropriate byte counting). The transport does
//! the recovery bookkeeping; this file only sizes the window.

use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::Time;

pub const PARAMS: &[ParamSpec] = &[ParamSpec {
    name: "initial_ssthresh",
    kind: ParamKind::Float { min: 2.0, max: 1e12, min_exclusive: false },
    default: ParamDefault::Num(1e9),
    description: "slow-start threshold before the first loss, packets",
    source: "our choice: effectively unlimited so slow start runs until the first loss, as ns-2 does with a large window_ (docs/algorithms.md#newreno-initial-window)",
}];

pub struct Reno {
    /// Open to the algorithms built on Reno (TCP-LP), which cut the window on signals of their own.
    pub(super) cwnd: f64,
    pub(super) ssthresh: f64,
    partial_ack_recovery: bool,
}

impl Reno {
    pub fn new(p: &Params, ctx: &FlowContext, partial_ack_recovery: bool) -> Reno {
        Reno { cwnd: ctx.initial_window, ssthresh: p.num("initial_ssthresh"), partial_ack_recovery }
    }
}

pub fn build_reno(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Reno::new(p, ctx, false))
}

/// The new ssthresh after a loss: half of min(cwnd, flight), at least two packets.
///
/// RFC 5681 eq. 4 halves the flight size; ns-2 (`halfwin()`) and Linux (`tcp_reno_ssthresh`) halve the
/// window. After a long NewReno recovery the flight (snd_nxt - snd_una) includes every packet delivered
/// out of order and can be many times the window, so halving it alone would *raise* the window. The
/// minimum keeps the RFC's rule for application-limited senders and ns-2's for everything else.
pub fn halve(cwnd: f64, inflight: u64) -> f64 {
    (cwnd.min(inflight as f64) / 2.0).max(2.0)
}

impl CongestionControl for Reno {
    fn window(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh(&self) -> f64 {
        self.ssthresh
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        if ack.in_recovery {
            return;
        }
        if self.cwnd < self.ssthresh {
            self.cwnd += 1.0;
        } else {
            self.cwnd += 1.0 / self.cwnd;
        }
    }

    fn on_loss(&mut self, loss: &LossEvent) {
        self.ssthresh = halve(self.cwnd, loss.inflight);
        self.cwnd = self.ssthresh;
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {
        self.cwnd = self.ssthresh;
    }

    fn on_timeout(&mut self, _now: Time, inflight: u64) {
        self.ssthresh = halve(self.cwnd, inflight);
        self.cwnd = 1.0;
    }

    /// No growth on an ACK that echoes ECN (ns-2 TcpAgent::recv_newack_helper, tcp.cc:1478): Reno's ACK
    /// does nothing else.
    fn on_echoing_ack(&mut self, _ack: &AckEvent) {}

    /// ECN-Echo (RFC 3168 §6.1.2): ssthresh and cwnd halve as on a fast retransmit, with nothing resent.
    /// The window never grows by it: a window of one after a timeout stays one (halve()'s floor of two
    /// would raise it; ns-2's slowdown() floors cwnd_ at 1).
    fn on_ecn(&mut self, _now: Time, inflight: u64) {
        self.ssthresh = halve(self.cwnd, inflight);
        self.cwnd = self.cwnd.min(self.ssthresh);
    }

    fn newreno_recovery(&self) -> bool {
        self.partial_ack_recovery
    }

    fn trace(&self) -> CcTrace {
        CcTrace::default()
    }

    fn hears_sends(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::algorithm;

    fn ack() -> AckEvent<'static> {
        AckEvent {
            now: 0,
            rtt: Some(1),
            acked: 1,
            inflight_at_send: 1,
            inflight: 10,
            in_recovery: false,
            snd_una: 1,
            rcv_arrival: 0,
            rcv_leave: 0,
            base_rtt: None,
            rate: None,
        }
    }

    /// ECN-Echo halves ssthresh and cwnd as a fast retransmit does (RFC 3168 §6.1.2), never raises a
    /// window of one, and an echoing ACK grows nothing.
    #[test]
    fn ecn_halves_and_echoing_acks_hold_the_window() {
        let a = algorithm("newreno").unwrap();
        let mut r = Reno::new(&a.defaults(), &FlowContext::new(20.0), true);
        r.on_ecn(0, 20);
        assert_eq!((r.cwnd, r.ssthresh), (10.0, 10.0));
        r.on_echoing_ack(&ack());
        assert_eq!(r.cwnd, 10.0);
        r.on_ack(&ack());
        assert_eq!(r.cwnd, 10.1);
        r.cwnd = 1.0;
        r.on_ecn(0, 10);
        assert_eq!((r.cwnd, r.ssthresh), (1.0, 2.0));
    }
}
