//! The receiving side: cumulative ACKs, an out-of-order buffer, in-order delivery accounting and optional
//! delayed ACKs (off by default, as in ns-2's TCPSink; on, it ACKs every second in-order packet or when the
//! delayed-ACK timer expires, and at once for anything out of order, RFC 5681 §4.2), and the echo of
//! ECN marks (RFC 3168 §6.1.3).

use super::deque::shrink_when_mostly_empty;
use super::sack::{SackBlocks, Sacker};
use crate::net::packet::{CE, CWR, ECE};
use crate::time::Time;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, Default)]
pub struct Echo {
    pub tx_time: Time,
    pub inflight_at_send: u32,
    pub retransmit: bool,
    pub arrival: Time,
}

#[derive(Debug, PartialEq, Eq)]
pub enum AckDecision {
    /// Send an ACK now.
    Now,
    /// Hold it; make sure the delayed-ACK timer runs until this time.
    Delay(Time),
}

pub struct Receiver {
    /// Next expected sequence number: everything below has arrived.
    pub rcv_nxt: u64,
    /// ooo[i] is true when rcv_nxt + 1 + i has arrived.
    ooo: VecDeque<bool>,
    delayed_ack: bool,
    delack_timeout: Time,
    unacked_in_order: u32,
    pub delack_deadline: Option<Time>,
    pub delack_event_pending: bool,
    /// Echo of the data packet that triggers the next ACK.
    pub echo: Echo,
    pub data_pkts: u64,
    pub data_bits: u64,
    pub duplicate_pkts: u64,
    /// ECE while a CE mark waits for the sender's CWR, else 0: the ECN bits of every ACK sent.
    pub ece: u8,
    /// Data packets that arrived marked CE.
    pub ce_received: u64,
    /// SACK block generation (ns-2 Agent/TCPSink/Sack1), only for flows with `sack` on.
    sacker: Option<Box<SackState>>,
}

struct SackState {
    sacker: Sacker,
    /// Highest sequence number received (ns-2 maxseen_), and the last packet's number and duplicate flag.
    max_seen: Option<u64>,
    last_seq: u64,
    last_dup: bool,
}

impl Receiver {
    pub fn new(delayed_ack: bool, delack_timeout: Time) -> Self {
        Receiver {
            rcv_nxt: 0,
            ooo: VecDeque::new(),
            delayed_ack,
            delack_timeout,
            unacked_in_order: 0,
            delack_deadline: None,
            delack_event_pending: false,
            echo: Echo::default(),
            data_pkts: 0,
            data_bits: 0,
            duplicate_pkts: 0,
            ece: 0,
            ce_received: 0,
            sacker: None,
        }
    }

    /// Reports SACK blocks from now on.
    pub fn enable_sack(&mut self) {
        self.sacker = Some(Box::new(SackState {
            sacker: Sacker::default(),
            max_seen: None,
            last_seq: 0,
            last_dup: false,
        }));
    }

    pub fn sack_enabled(&self) -> bool {
        self.sacker.is_some()
    }

    /// Inlined: out of line, its call cost about as much as its work on every data packet of a SACK
    /// flow; flows without SACK skip it on one test either way.
    #[inline(always)]
    fn note_for_sack(&mut self, seq: u64) {
        let dup = self.seen(seq);
        if let Some(st) = &mut self.sacker {
            st.last_dup = dup;
            st.last_seq = seq;
            st.max_seen = Some(st.max_seen.map_or(seq, |m| m.max(seq)));
        }
    }

    /// Whether packet `i` has arrived.
    fn seen(&self, i: u64) -> bool {
        if i < self.rcv_nxt {
            return true;
        }
        i > self.rcv_nxt && self.ooo.get((i - self.rcv_nxt - 1) as usize).copied().unwrap_or(false)
    }

    /// Whether the ACK about to be sent carries no SACK block because everything up to the highest
    /// packet seen has arrived: the usual case. `Sacker::blocks` then only forgets its remembered
    /// blocks, which this does too, so that `sack_blocks` need not be called.
    #[inline]
    pub fn sack_blocks_empty(&mut self) -> bool {
        let Some(st) = &mut self.sacker else { return true };
        let Some(m) = st.max_seen else { return true };
        if self.rcv_nxt <= m {
            return false;
        }
        st.sacker.forget();
        true
    }

    /// The SACK blocks of the ACK about to be sent (for the last packet received).
    pub fn sack_blocks(&mut self) -> SackBlocks {
        if self.sack_blocks_empty() {
            return SackBlocks::default();
        }
        let Some(mut st) = self.sacker.take() else {
            return SackBlocks::default();
        };
        let b = match st.max_seen {
            Some(m) => {
                let cum = self.rcv_nxt as i64 - 1;
                st.sacker
                    .blocks(st.last_seq as i64, cum, m as i64, st.last_dup, |i| i >= 0 && self.seen(i as u64))
            }
            None => SackBlocks::default(),
        };
        self.sacker = Some(st);
        b
    }

    /// A data packet arrived. Returns when to acknowledge it. Inlined into the simulation's one call of it
    /// per data packet, where its call cost more in saved registers than several of its lines.
    #[inline(always)]
    pub fn on_data(&mut self, now: Time, seq: u64, size: u32, echo: Echo) -> AckDecision {
        self.data_pkts += 1;
        self.data_bits += size as u64 * 8;
        self.echo = echo;
        if self.sacker.is_some() {
            self.note_for_sack(seq);
        }
        let in_order = seq == self.rcv_nxt;
        let had_holes = !self.ooo.is_empty();
        if in_order {
            self.rcv_nxt += 1;
            // Each increment of rcv_nxt shifts the buffer's base by one, so exactly one slot is popped per
            // step; the popped slot says whether the new rcv_nxt has already arrived.
            while let Some(front) = self.ooo.pop_front() {
                if !front {
                    break;
                }
                self.rcv_nxt += 1;
            }
            shrink_when_mostly_empty(&mut self.ooo);
        } else if seq > self.rcv_nxt {
            let idx = (seq - self.rcv_nxt - 1) as usize;
            // The usual case past a hole is the next packet in sequence: one push, no resize.
            if idx == self.ooo.len() {
                self.ooo.push_back(true);
            } else {
                if self.ooo.len() < idx {
                    self.ooo.resize(idx, false);
                    self.ooo.push_back(true);
                } else if self.ooo[idx] {
                    self.duplicate_pkts += 1;
                }
                self.ooo[idx] = true;
            }
        } else {
            self.duplicate_pkts += 1;
        }
        if !self.delayed_ack || !in_order || had_holes {
            self.unacked_in_order = 0;
            self.delack_deadline = None;
            return AckDecision::Now;
        }
        self.unacked_in_order += 1;
        if self.unacked_in_order >= 2 {
            self.unacked_in_order = 0;
            self.delack_deadline = None;
            AckDecision::Now
        } else {
            let deadline = now + self.delack_timeout;
            self.delack_deadline = Some(deadline);
            AckDecision::Delay(deadline)
        }
    }

    /// `on_data` for a data packet with ECN bits (only flows with ECN send any). CWR ends the echo, then
    /// CE starts it (so a packet with both keeps it on, as Linux orders them); CE on a packet below the
    /// cumulative ACK is counted but not echoed (RFC 3168 §6.1.5: SHOULD ignore). A marked packet is
    /// acknowledged at once, which RFC 3168 leaves open: Linux's quick ACK on CE, so that a sender with a
    /// small window learns of the mark without waiting for the delayed-ACK timer.
    #[inline(never)]
    pub fn on_data_ecn(&mut self, now: Time, seq: u64, size: u32, echo: Echo, bits: u8) -> AckDecision {
        if bits & CWR != 0 {
            self.ece = 0;
        }
        let marked = bits & CE != 0;
        if marked {
            self.ce_received += 1;
            if seq >= self.rcv_nxt {
                self.ece = ECE;
            }
        }
        let decision = self.on_data(now, seq, size, echo);
        if !marked {
            return decision;
        }
        self.unacked_in_order = 0;
        self.delack_deadline = None;
        AckDecision::Now
    }

    /// The delayed-ACK timer fired: if an ACK is still owed, it is due now.
    pub fn on_delack_timer(&mut self, now: Time) -> bool {
        match self.delack_deadline {
            Some(d) if d <= now => {
                self.delack_deadline = None;
                self.unacked_in_order = 0;
                true
            }
            _ => false,
        }
    }

    pub fn buffered_out_of_order(&self) -> usize {
        self.ooo.iter().filter(|b| **b).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rx() -> Receiver {
        Receiver::new(false, 0)
    }

    #[test]
    fn in_order_and_out_of_order() {
        let mut r = rx();
        let e = Echo::default();
        r.on_data(0, 0, 1000, e);
        assert_eq!(r.rcv_nxt, 1);
        r.on_data(0, 2, 1000, e);
        r.on_data(0, 3, 1000, e);
        assert_eq!(r.rcv_nxt, 1);
        r.on_data(0, 5, 1000, e);
        r.on_data(0, 1, 1000, e);
        assert_eq!(r.rcv_nxt, 4, "fills 1, then 2 and 3 were buffered");
        assert_eq!(r.buffered_out_of_order(), 1);
        r.on_data(0, 4, 1000, e);
        assert_eq!(r.rcv_nxt, 6);
        assert_eq!(r.buffered_out_of_order(), 0);
        r.on_data(0, 3, 1000, e);
        assert_eq!(r.duplicate_pkts, 1);
    }

    #[test]
    fn ce_is_echoed_until_cwr_and_acknowledged_at_once() {
        use crate::net::packet::ECT;
        let mut r = Receiver::new(true, 100);
        let e = Echo::default();
        let data = |r: &mut Receiver, t: Time, seq: u64, bits: u8| r.on_data_ecn(t, seq, 1000, e, bits);
        assert_eq!(data(&mut r, 0, 0, ECT), AckDecision::Delay(100));
        assert_eq!(r.ece, 0);
        // A CE packet that would have waited for the timer is acknowledged at once, with ECE.
        assert_eq!(data(&mut r, 10, 1, ECT | CE), AckDecision::Now);
        assert_eq!((r.ece, r.ce_received, r.delack_deadline), (ECE, 1, None));
        // Unmarked packets keep the echo until one carries CWR.
        assert_eq!(data(&mut r, 20, 2, ECT), AckDecision::Delay(120));
        assert_eq!(r.ece, ECE);
        data(&mut r, 30, 3, ECT | CWR);
        assert_eq!(r.ece, 0);
        // CWR and CE on one packet: the new mark is echoed.
        data(&mut r, 40, 4, ECT | CWR | CE);
        assert_eq!((r.ece, r.ce_received), (ECE, 2));
        data(&mut r, 50, 5, ECT | CWR);
        // A late copy of a packet already received: its mark is counted, not echoed.
        assert_eq!(
            data(&mut r, 60, 3, ECT | CE),
            AckDecision::Now,
            "a duplicate is acknowledged at once anyway"
        );
        assert_eq!((r.ece, r.ce_received), (0, 3));
    }

    #[test]
    fn delayed_acks_every_second_packet() {
        let mut r = Receiver::new(true, 100);
        let e = Echo::default();
        assert_eq!(r.on_data(0, 0, 1000, e), AckDecision::Delay(100));
        assert_eq!(r.on_data(10, 1, 1000, e), AckDecision::Now);
        assert_eq!(r.on_data(20, 2, 1000, e), AckDecision::Delay(120));
        assert!(r.on_delack_timer(120));
        // Out of order: immediate.
        assert_eq!(r.on_data(30, 5, 1000, e), AckDecision::Now);
    }
}
