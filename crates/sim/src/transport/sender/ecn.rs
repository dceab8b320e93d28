//! The sender's answer to ECN-Echo (RFC 3168 §6.1.2), only for flows with `ecn`: at most once per
//! window of data, tell the algorithm (`CongestionControl::on_ecn`) and set CWR on the next new data
//! packet. "Once per window" is ns-2's TcpAgent::ecn (tcp.cc:1438-1456): an echo is answered only by an
//! ACK beyond the highest packet sent at the last window reduction (`recover_ = maxseq_`, set by an ECN
//! answer, a fast retransmit or a timeout), or by any ACK when the last reduction was a timeout
//! (`last_cwnd_action_ == CWND_ACTION_TIMEOUT`). So an echo during loss recovery changes nothing, and the
//! echoes of the marks of one window, which keep coming until the receiver sees CWR, cost one reduction.
//!
//! CWR also follows a fast retransmit or a timeout (RFC 3168 §6.1.2; ns-2's slowdown() sets
//! `cong_action_` for every window cut), so that a receiver still echoing stops. The first new packet
//! after a cut is the one numbered `max_sent` at the cut (new data leaves in order), so the bits of a
//! packet are a function of its request (`ecn_bits`), computed only for flows with ECN when the packet is
//! built: nothing is added to `transmit`, which every flow runs per packet.

use super::{AckInput, Queue, Sender, TxRequest};
use crate::net::packet::{CWR, ECT};
use crate::time::Time;

/// ECN state and counters of a sender with `ecn`.
#[derive(Clone, Copy, Debug)]
pub struct EcnSender {
    /// An echo is answered only by an ACK above this: `max_sent` at the last window reduction (ns-2's
    /// `seqno > recover_`, with delaycc's ACK one above ns-2's seqno and `max_sent` one above maxseq_).
    recover: u64,
    /// The last reduction was a timeout: the next echo is answered whatever it acknowledges.
    after_timeout: bool,
    /// The packet that carries CWR: the first new one after the last reduction (none before any).
    cwr_seq: u64,
    /// ACKs that carried ECN-Echo.
    pub echoes: u64,
    /// Echoes answered with a reduction (`on_ecn`).
    pub reductions: u64,
}

impl Default for EcnSender {
    fn default() -> EcnSender {
        EcnSender { recover: 0, after_timeout: false, cwr_seq: u64::MAX, echoes: 0, reductions: 0 }
    }
}

impl Sender {
    /// The ECN bits of data packet `tx` (for flows with ECN): ECT and, on the first new packet after a
    /// window reduction, CWR; nothing on a retransmission (RFC 3168 §6.1.5: a retransmission is not
    /// ECN-capable, and CWR goes on new data).
    #[inline]
    pub fn ecn_bits(&self, tx: &TxRequest) -> u8 {
        match &self.ecn {
            Some(e) if !tx.retransmit => ECT | if tx.seq == e.cwr_seq { CWR } else { 0 },
            _ => 0,
        }
    }

    /// The ECN state and counters, for flows with `ecn`.
    pub fn ecn(&self) -> Option<&EcnSender> {
        self.ecn.as_ref()
    }

    /// An ACK that carries ECN-Echo: the echo is answered first (ns-2's TcpAgent::recv calls ecn() before
    /// anything else), then the ACK is processed as any other, except that the algorithm takes a new
    /// cumulative ACK through `on_echoing_ack` (no window growth on it, RFC 3168 §6.1.2). Out of line:
    /// only ACKs of flows with ECN come here.
    #[inline(never)]
    pub fn on_ack_echoing(&mut self, now: Time, a: &AckInput, sack: &[(u64, u64)]) {
        self.on_ece(now, a.ack);
        self.ack::<true, _>(now, a, sack, &mut Queue);
    }

    /// The echo on an ACK for cumulative ACK `ack`, before the ACK moves anything.
    fn on_ece(&mut self, now: Time, ack: u64) {
        let max_sent = self.max_sent;
        let Some(e) = &mut self.ecn else { return };
        e.echoes += 1;
        if ack <= e.recover && !e.after_timeout {
            return;
        }
        e.recover = max_sent;
        e.after_timeout = false;
        e.cwr_seq = max_sent;
        e.reductions += 1;
        self.account_cwnd(now);
        let inflight = self.max_sent - self.snd_una;
        self.cc.on_ecn(now, inflight);
        self.sync_window();
    }

    /// The window was cut for a loss: a fast retransmit or (`timeout`) the retransmission timer. Echoes
    /// wait for data sent after it; the next new packet carries CWR.
    pub(super) fn ecn_window_reduced(&mut self, timeout: bool) {
        if let Some(e) = &mut self.ecn {
            e.recover = self.max_sent;
            e.after_timeout = timeout;
            e.cwr_seq = self.max_sent;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{algorithm, FlowContext};
    use crate::model::TransportConfig;
    use crate::net::packet::ECT;

    /// NewReno with a window of 10 on the Linux-like transport, with or without ECN.
    fn sender(ecn: bool) -> Sender {
        let a = algorithm("newreno").unwrap();
        let cc = (a.build)(&a.defaults(), &FlowContext::new(10.0));
        let cfg = TransportConfig { ecn, limited_transmit: false, ..TransportConfig::linux() };
        let mut s = Sender::new(cc, &cfg, None);
        s.start(0);
        s
    }

    /// An ACK, and whether it echoes.
    fn ack(ack: u64, ece: bool) -> (AckInput, bool) {
        (
            AckInput {
                ack,
                echo_tx_time: 0,
                echo_inflight: 1,
                echo_retransmit: false,
                rcv_arrival: 0,
                rcv_leave: 0,
            },
            ece,
        )
    }

    /// An ACK as the simulation hands it over: through `on_ack_echoing` when it echoes.
    fn deliver(s: &mut Sender, now: Time, (a, ece): (AckInput, bool)) {
        if ece {
            s.on_ack_echoing(now, &a, &[]);
        } else {
            s.on_ack(now, &a, &[]);
        }
    }

    fn bits(s: &Sender) -> Vec<(u64, u8)> {
        s.txq.iter().map(|t| (t.seq, s.ecn_bits(t))).collect()
    }

    #[test]
    fn new_data_is_ect_and_plain_flows_send_no_ecn_bits() {
        let s = sender(true);
        assert_eq!(bits(&s), (0..10).map(|q| (q, ECT)).collect::<Vec<_>>());
        let s = sender(false);
        assert!(s.txq.iter().all(|t| s.ecn_bits(t) == 0) && s.ecn().is_none());
    }

    /// Ten packets out; every ACK of the window echoes: one halving, CWR on the next new packet only, no
    /// growth on the echoing ACKs; the first echo that covers data sent after the cut halves again.
    #[test]
    fn echoes_halve_the_window_once_per_window_and_set_cwr_once() {
        let mut s = sender(true);
        s.txq.clear();
        deliver(&mut s, 10, ack(1, true));
        assert_eq!((s.cc.window(), s.cc.ssthresh()), (5.0, 5.0));
        // The window of 5 holds 9 in flight: nothing leaves until snd_una passes 5.
        for a in 2..=5 {
            deliver(&mut s, 10 + a, ack(a, true));
        }
        assert_eq!(s.cc.window(), 5.0, "no growth on echoing ACKs");
        for a in 6..=10 {
            deliver(&mut s, 20 + a, ack(a, true));
        }
        assert_eq!(s.ecn().map(|e| (e.echoes, e.reductions)), Some((10, 1)));
        assert_eq!(bits(&s), vec![(10, ECT | CWR), (11, ECT), (12, ECT), (13, ECT), (14, ECT)]);
        s.txq.clear();
        // The receiver saw CWR: ACKs without echo grow the window again (congestion avoidance).
        deliver(&mut s, 40, ack(11, false));
        assert!((s.cc.window() - 5.2).abs() < 1e-12, "{}", s.cc.window());
        // A mark on packet 11, sent after the cut: its echo (ACK 12 > 10) halves again.
        deliver(&mut s, 41, ack(12, true));
        assert_eq!(s.ecn().map(|e| e.reductions), Some(2));
        assert_eq!(s.cc.window(), 2.5, "half of the 5 in flight");
    }

    #[test]
    fn echoes_during_loss_recovery_are_not_answered_but_after_a_timeout_they_are() {
        let mut s = sender(true);
        s.txq.clear();
        for _ in 0..3 {
            deliver(&mut s, 10, ack(0, false));
        }
        assert!(s.in_recovery);
        assert_eq!(bits(&s), vec![(0, 0)], "a retransmission carries no ECN bits");
        let w = s.cc.window();
        deliver(&mut s, 11, ack(0, true));
        deliver(&mut s, 12, ack(10, true));
        assert_eq!(s.ecn().map(|e| (e.echoes, e.reductions)), Some((2, 0)));
        assert_eq!(s.cc.window(), w);
        // The first new packet after the fast retransmit carried CWR.
        assert!(s.txq.iter().any(|t| s.ecn_bits(t) == ECT | CWR), "{:?}", bits(&s));
        // After a timeout the next echo is answered even though it covers nothing new.
        let mut s = sender(true);
        let d = s.rto_deadline.unwrap();
        assert!(s.on_rto_timer(d));
        deliver(&mut s, d + 1, ack(1, true));
        assert_eq!(s.ecn().map(|e| e.reductions), Some(1));
        assert_eq!(s.cc.window(), 1.0, "a window of one is not raised");
    }
}
