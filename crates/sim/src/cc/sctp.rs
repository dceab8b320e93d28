//! SCTP-like congestion control (RFC 4960 §7.2), the P003 baseline: slow start while cwnd ≤ ssthresh
//! (+1 packet per ACK), congestion avoidance by partial-bytes-acked (+1 packet per window's worth of
//! acknowledged data), ssthresh = max(cwnd/2, 4 packets) on fast retransmit with cwnd = ssthresh, and
//! cwnd = 1 on a retransmission timeout. Multistreaming comes from the transport (`streams = N`);
//! multihoming is not modelled. Recovery uses the shared transport (cumulative ACKs with NewReno-style
//! retransmission of each hole standing in for SACK gap reports).

use super::{AckEvent, CongestionControl, FlowContext, LossEvent};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::Time;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "initial_cwnd",
        kind: ParamKind::Float { min: 1.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(4.0),
        description: "initial window, packets",
        source: "RFC 4960 §7.2.1: min(4*MTU, max(2*MTU, 4380 B)) = 4 packets of at most 1095 B",
    },
    ParamSpec {
        name: "min_ssthresh",
        kind: ParamKind::Float { min: 1.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(4.0),
        description: "ssthresh never falls below this many packets after a loss",
        source: "RFC 4960 §7.2.3 (4*MTU)",
    },
];

pub struct Sctp {
    cwnd: f64,
    ssthresh: f64,
    min_ssthresh: f64,
    partial_acked: f64,
}

pub fn build(p: &Params, _ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Sctp {
        cwnd: p.num("initial_cwnd"),
        ssthresh: f64::INFINITY,
        min_ssthresh: p.num("min_ssthresh"),
        partial_acked: 0.0,
    })
}

impl CongestionControl for Sctp {
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
        if self.cwnd <= self.ssthresh {
            // At most one MTU per SACK.
            self.cwnd += (ack.acked as f64).min(1.0);
        } else {
            self.partial_acked += ack.acked as f64;
            if self.partial_acked >= self.cwnd {
                self.partial_acked -= self.cwnd;
                self.cwnd += 1.0;
            }
        }
    }

    fn on_loss(&mut self, _loss: &LossEvent) {
        self.ssthresh = (self.cwnd / 2.0).max(self.min_ssthresh);
        self.cwnd = self.ssthresh;
        self.partial_acked = 0.0;
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {}

    fn on_timeout(&mut self, _now: Time, _inflight: u64) {
        self.ssthresh = (self.cwnd / 2.0).max(self.min_ssthresh);
        self.cwnd = 1.0;
        self.partial_acked = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::algorithm;
    use crate::cc::scripted::ack_event;

    fn ack(acked: u64) -> AckEvent<'static> {
        AckEvent { rtt: None, ..ack_event(0, 0, acked) }
    }

    #[test]
    fn aimd_per_rfc4960() {
        let p = algorithm("sctp").expect("registered").defaults();
        let mut s = build(&p, &FlowContext::new(1.0));
        assert_eq!(s.window(), 4.0);
        for _ in 0..6 {
            s.on_ack(&ack(1));
        }
        assert_eq!(s.window(), 10.0, "slow start: one packet per ACK");
        s.on_loss(&LossEvent { now: 0, inflight: 10, lost_was_retransmit: false });
        assert_eq!((s.window(), s.ssthresh()), (5.0, 5.0));
        // cwnd <= ssthresh is still slow start (RFC 4960 §7.2.1): one more, then AIMD.
        s.on_ack(&ack(1));
        assert_eq!(s.window(), 6.0);
        for _ in 0..5 {
            s.on_ack(&ack(1));
        }
        assert_eq!(s.window(), 6.0, "a window's worth of ACKs not yet complete");
        s.on_ack(&ack(1));
        assert_eq!(s.window(), 7.0, "one packet per window of acknowledged data");
        s.on_timeout(0, 7);
        assert_eq!((s.window(), s.ssthresh()), (1.0, 4.0));
    }
}
