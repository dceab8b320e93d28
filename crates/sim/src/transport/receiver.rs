//! The receiving side: cumulative ACKs, an out-of-order buffer, in-order delivery accounting and optional
//! delayed ACKs (off by default, as in ns-2's TCPSink; on, it ACKs every second in-order packet or when the
//! delayed-ACK timer expires, and at once for anything out of order, RFC 5681 §4.2), and the echo of
//! ECN marks (RFC 3168 §6.1.3).

use super::delivery::{AppDelivery, NOT_ARRIVED};
use super::deque::SeqRing;
use super::sack::{SackBlocks, SackLog, Sacker, SACK_BLOCK_BYTES};
use crate::net::packet::{CE, CWR, ECE};
use crate::time::Time;

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
    /// The packets above `rcv_nxt` that arrived, by sequence number: their first-send times,
    /// `NOT_ARRIVED` in the holes. Holds `rcv_nxt..ooo.end()` while anything waits (its end is past
    /// `rcv_nxt`); the application reads its waiting messages here too (`AppDelivery`).
    ooo: SeqRing<Time>,
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
    /// The number of the last ACK that carried blocks. Every ACK without blocks empties the `Sacker`'s
    /// memory (ns-2 does it in append_ack), so rather than touch it on each of them, the next ACK with
    /// blocks empties it when an ACK came in between.
    last_with_blocks: u64,
    /// The last packet's number and the duplicate count before it arrived: it was a duplicate if the
    /// count moved. Two stores per packet, where testing whether it had arrived before was a lookup.
    last_seq: u64,
    dups_before: u64,
}

impl Receiver {
    pub fn new(delayed_ack: bool, delack_timeout: Time) -> Self {
        Receiver {
            rcv_nxt: 0,
            ooo: SeqRing::default(),
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
            last_with_blocks: u64::MAX,
            last_seq: 0,
            dups_before: 0,
        }));
    }

    pub fn sack_enabled(&self) -> bool {
        self.sacker.is_some()
    }

    /// Inlined: out of line, its call cost about as much as its work on every data packet of a SACK
    /// flow; flows without SACK skip it on one test either way.
    #[inline(always)]
    fn note_for_sack(&mut self, seq: u64) {
        if let Some(st) = &mut self.sacker {
            st.last_seq = seq;
            st.dups_before = self.duplicate_pkts;
        }
    }

    /// Whether packet `i` has arrived.
    fn seen(&self, i: u64) -> bool {
        if i < self.rcv_nxt {
            return true;
        }
        self.ooo.get(i).is_some_and(|t| t != NOT_ARRIVED)
    }

    /// Records the SACK blocks of the ACK about to be sent in `log`, which numbers it, if it has any;
    /// returns its serial and the bytes its blocks add. Most ACKs carry no block: everything up to the
    /// highest packet seen has arrived, which is an empty out-of-order buffer (`ooo` ends at `rcv_nxt`
    /// exactly when nothing above it has arrived). They cost the log's count and that test.
    #[inline(always)]
    pub fn record_sack(&mut self, log: &mut SackLog) -> (u64, u32) {
        let serial = log.number();
        if self.ooo.end() <= self.rcv_nxt {
            return (serial, 0);
        }
        self.record_blocks(serial, log)
    }

    #[cold]
    #[inline(never)]
    fn record_blocks(&mut self, serial: u64, log: &mut SackLog) -> (u64, u32) {
        let b = self.blocks_of_ack(serial);
        log.record(serial, b);
        (serial, b.n as u32 * SACK_BLOCK_BYTES)
    }

    /// The blocks of ACK `serial`, which has some: a packet above `rcv_nxt` has arrived.
    fn blocks_of_ack(&mut self, serial: u64) -> SackBlocks {
        let Some(mut st) = self.sacker.take() else {
            return SackBlocks::default();
        };
        if st.last_with_blocks.wrapping_add(1) != serial {
            st.sacker.forget();
        }
        st.last_with_blocks = serial;
        // The highest packet seen: the buffer's last, which has arrived (it ends with the packet that
        // extended it).
        let mut max_seen = self.ooo.end() - 1;
        while !self.seen(max_seen) {
            max_seen -= 1;
        }
        let (cum, max_seen) = (self.rcv_nxt as i64 - 1, max_seen as i64);
        let dup = self.duplicate_pkts != st.dups_before;
        let b = st.sacker.blocks(st.last_seq as i64, cum, max_seen, dup, |i| i >= 0 && self.seen(i as u64));
        self.sacker = Some(st);
        b
    }

    /// A data packet arrived, first sent at `first_sent`: it and what it releases go to the application
    /// `app`. Returns when to acknowledge it. Inlined into the simulation's one call of it per data
    /// packet, where its call cost more in saved registers than several of its lines.
    #[inline(always)]
    pub fn on_data(
        &mut self,
        now: Time,
        seq: u64,
        size: u32,
        first_sent: Time,
        echo: Echo,
        app: &mut AppDelivery,
    ) -> AckDecision {
        self.data_pkts += 1;
        self.data_bits += size as u64 * 8;
        self.echo = echo;
        if self.sacker.is_some() {
            self.note_for_sack(seq);
        }
        let in_order = seq == self.rcv_nxt;
        let had_holes = self.ooo.end() > self.rcv_nxt;
        if in_order && !had_holes {
            self.rcv_nxt += 1;
            app.deliver_in_order(seq, first_sent, now);
        } else {
            self.on_data_with_holes(now, seq, first_sent, app);
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

    /// `on_data` for a packet out of order, a duplicate, or one that fills the first hole. Inlined: in
    /// a NewReno recovery without SACK most data packets come here, and its call saved and restored
    /// six registers each time.
    #[inline(always)]
    fn on_data_with_holes(&mut self, now: Time, seq: u64, first_sent: Time, app: &mut AppDelivery) {
        // The usual case past a hole: beyond everything buffered, so new, and nothing to look up.
        let beyond = seq > self.rcv_nxt && seq >= self.ooo.end();
        if !beyond && (seq < self.rcv_nxt || self.seen(seq)) {
            self.duplicate_pkts += 1;
            return;
        }
        if seq > self.rcv_nxt {
            self.keep_out_of_order(seq, first_sent, beyond);
            // With several streams, it may be its own stream's next message.
            if app.n_streams() > 1 {
                app.deliver_with_waiting(seq, first_sent, now, &self.ooo);
            }
            return;
        }
        // It fills the first hole: the cumulative point moves past every packet waiting behind it. With
        // one stream the application's walk delivering them found that point already.
        let walked_to = app.deliver_with_waiting(seq, first_sent, now, &self.ooo);
        let mut next = walked_to;
        if app.n_streams() > 1 {
            next = seq + 1;
            while self.ooo.get(next).is_some_and(|t| t != NOT_ARRIVED) {
                next += 1;
            }
        }
        self.rcv_nxt = next;
        self.ooo.forget_below(next);
    }

    /// Buffers packet `seq`, above `rcv_nxt` and not seen before; `beyond` if past everything buffered.
    #[inline(always)]
    fn keep_out_of_order(&mut self, seq: u64, first_sent: Time, beyond: bool) {
        if !beyond {
            self.ooo.set(seq, first_sent);
            return;
        }
        if self.ooo.end() <= self.rcv_nxt {
            // Nothing waits: the buffer starts again at the cumulative point.
            self.ooo.forget_below(self.rcv_nxt);
        }
        // The usual case past a hole is the next packet in sequence: no hole to fill first.
        while self.ooo.end() < seq {
            self.ooo.push(NOT_ARRIVED);
        }
        self.ooo.push(first_sent);
    }

    /// `on_data` for a data packet with ECN bits (only flows with ECN send any). CWR ends the echo, then
    /// CE starts it (so a packet with both keeps it on, as Linux orders them); CE on a packet below the
    /// cumulative ACK is counted but not echoed (RFC 3168 §6.1.5: SHOULD ignore). A marked packet is
    /// acknowledged at once, which RFC 3168 leaves open: Linux's quick ACK on CE, so that a sender with a
    /// small window learns of the mark without waiting for the delayed-ACK timer.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub fn on_data_ecn(
        &mut self,
        now: Time,
        seq: u64,
        size: u32,
        first_sent: Time,
        echo: Echo,
        app: &mut AppDelivery,
        bits: u8,
    ) -> AckDecision {
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
        let decision = self.on_data(now, seq, size, first_sent, echo, app);
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
        (self.rcv_nxt..self.ooo.end()).filter(|&i| self.seen(i)).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rx() -> Receiver {
        Receiver::new(false, 0)
    }

    /// Data packet `seq`, first sent at 0, arriving at `now`.
    fn data(r: &mut Receiver, app: &mut AppDelivery, now: Time, seq: u64) -> AckDecision {
        r.on_data(now, seq, 1000, 0, Echo::default(), app)
    }

    #[test]
    fn in_order_and_out_of_order() {
        let (mut r, mut app) = (rx(), AppDelivery::new(1));
        data(&mut r, &mut app, 0, 0);
        assert_eq!(r.rcv_nxt, 1);
        data(&mut r, &mut app, 0, 2);
        data(&mut r, &mut app, 0, 3);
        assert_eq!(r.rcv_nxt, 1);
        data(&mut r, &mut app, 0, 5);
        data(&mut r, &mut app, 0, 1);
        assert_eq!(r.rcv_nxt, 4, "fills 1, then 2 and 3 were buffered");
        assert_eq!(r.buffered_out_of_order(), 1);
        data(&mut r, &mut app, 0, 4);
        assert_eq!(r.rcv_nxt, 6);
        assert_eq!(r.buffered_out_of_order(), 0);
        data(&mut r, &mut app, 0, 3);
        data(&mut r, &mut app, 0, 9);
        data(&mut r, &mut app, 0, 9);
        assert_eq!(r.duplicate_pkts, 2, "below the cumulative point, and above it twice");
        assert_eq!(app.delivered_pkts(), 6);
    }

    #[test]
    fn single_stream_is_in_order_delivery_with_head_of_line_blocking() {
        let (mut r, mut app) = (rx(), AppDelivery::new(1));
        data(&mut r, &mut app, 10, 0);
        data(&mut r, &mut app, 20, 2);
        data(&mut r, &mut app, 30, 3);
        assert_eq!(app.delivered_pkts(), 1);
        // The hole fills at t = 100: 1, 2 and 3 are delivered together.
        data(&mut r, &mut app, 100, 1);
        assert_eq!(app.delay(), Some(((10.0 + 3.0 * 100.0) / 4.0, 100)));
        data(&mut r, &mut app, 110, 2);
        assert_eq!(app.delivered_pkts(), 4, "duplicates are not delivered twice");
    }

    #[test]
    fn a_hole_in_one_stream_does_not_block_the_others() {
        let (mut r, mut app) = (rx(), AppDelivery::new(2));
        // seq 0 (stream 0) is lost; seq 1, 3, 5 (stream 1) and 2, 4 (stream 0) arrive.
        for (t, seq) in [(10, 1), (11, 2), (12, 3), (13, 4), (14, 5)] {
            data(&mut r, &mut app, t, seq);
        }
        let per_stream = |app: &AppDelivery| app.stats().map(|s| s.delivered_pkts).collect::<Vec<_>>();
        assert_eq!(per_stream(&app), vec![0, 3]);
        // Stream 1 skips 7, then 7 arrives and releases 9 behind it.
        data(&mut r, &mut app, 20, 9);
        data(&mut r, &mut app, 21, 7);
        assert_eq!(per_stream(&app), vec![0, 5], "7 and then 9 follow 5 on stream 1");
        // The retransmission of seq 0 releases stream 0's backlog (0, 2, 4); 6 is still missing.
        data(&mut r, &mut app, 50, 0);
        assert_eq!(per_stream(&app), vec![3, 5]);
        assert_eq!(r.rcv_nxt, 6);
        let max: Vec<Time> = app.stats().map(|s| s.delay_max_ns).collect();
        assert_eq!(max, vec![50, 21]);
        data(&mut r, &mut app, 60, 6);
        assert_eq!((per_stream(&app), r.rcv_nxt), (vec![4, 5], 8));
        assert_eq!(r.buffered_out_of_order(), 1, "9 waits for 8");
    }

    #[test]
    fn ce_is_echoed_until_cwr_and_acknowledged_at_once() {
        use crate::net::packet::ECT;
        let mut r = Receiver::new(true, 100);
        let (e, mut app) = (Echo::default(), AppDelivery::new(1));
        let mut data =
            |r: &mut Receiver, t: Time, seq: u64, bits: u8| r.on_data_ecn(t, seq, 1000, 0, e, &mut app, bits);
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
        let (mut r, mut app) = (Receiver::new(true, 100), AppDelivery::new(1));
        assert_eq!(data(&mut r, &mut app, 0, 0), AckDecision::Delay(100));
        assert_eq!(data(&mut r, &mut app, 10, 1), AckDecision::Now);
        assert_eq!(data(&mut r, &mut app, 20, 2), AckDecision::Delay(120));
        assert!(r.on_delack_timer(120));
        // Out of order: immediate.
        assert_eq!(data(&mut r, &mut app, 30, 5), AckDecision::Now);
    }
}
