//! The SACK recoveries: ns-2's Agent/TCP/Sack1 (tcp/tcp-sack1.cc) and the ns-2 FAST module's own
//! (tcp/tcp-fast.cc), with their scoreboard, pipe and send loop. The sender enters here for every ACK and
//! every send attempt of a flow in `Mode::Sack1` or `Mode::Fast`; the rest of the sender (the window, the
//! RTO, `new_ack`, `transmit`) is shared with the other modes.

use super::{whole_packets, AckInput, Mode, Queue, Sender, TxSink};
use crate::cc::LossEvent;
use crate::time::Time;
use crate::transport::sack::Scoreboard;
use std::collections::BTreeMap;

/// Sack1/FAST state (tcp-sack1.cc, tcp-fast.cc): scoreboard, pipe_, next_pkt_, timeout_, send times.
#[derive(Debug)]
pub(super) struct SackSender {
    pub(super) sb: Scoreboard,
    pipe: i64,
    next_pkt: u64,
    /// ns-2 timeout_: after a timeout duplicate ACKs are ignored until a new ACK.
    pub(super) after_timeout: bool,
    /// Latest retransmission time of unacknowledged packets (with `first_sent`, FAST's sendtime_).
    pub(super) last_retx: BTreeMap<u64, Time>,
    /// `whole_packets` of the window whose bits are `wnd_bits`, for the send loop of an algorithm that
    /// hears sends (`window_pkts_heard`): FAST's window stays the same over most ACKs, and converting
    /// it again on each cost about 13 instructions. Starts as a NaN, whose whole packets are one.
    wnd_bits: u64,
    wnd_pkts: u64,
}

impl Default for SackSender {
    fn default() -> Self {
        SackSender {
            sb: Scoreboard::default(),
            pipe: 0,
            next_pkt: 0,
            after_timeout: false,
            last_retx: BTreeMap::new(),
            wnd_bits: u64::MAX,
            wnd_pkts: whole_packets(f64::NAN),
        }
    }
}

impl SackSender {
    /// Forgets the retransmission times of the packets below `ack`, on a new ACK. Here rather than in
    /// `new_ack`, where every flow tested for the SACK state to do it.
    #[inline(always)]
    fn forget_retx_below(&mut self, ack: u64) {
        if !self.last_retx.is_empty() {
            self.last_retx = self.last_retx.split_off(&ack);
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn note_retransmit(&mut self, seq: u64, now: Time) {
        self.last_retx.insert(seq, now);
    }
}

impl Sender {
    /// An ACK of a flow in Sack1 or FAST mode (tcp/tcp-sack1.cc:95 recv, tcp/tcp-fast.cc:411 recv).
    /// Out of line: it keeps the common path of `on_ack` small.
    #[inline(never)]
    pub(super) fn on_ack_sack<const ECHOING: bool>(&mut self, now: Time, a: &AckInput, sack: &[(u64, u64)]) {
        self.on_ack_sack_inline::<ECHOING, _>(now, a, sack, &mut Queue)
    }

    /// `on_ack` of a flow with SACK and no ECN-Echo, inline: for the simulation's ACK path with extras,
    /// which every ACK of a SACK flow takes, inline in the event loop like the rest of the per-packet path.
    /// New data outside recovery goes to `sink` (`Sender::on_ack_into`).
    #[inline(always)]
    pub fn on_sack_ack<S: TxSink>(&mut self, now: Time, a: &AckInput, sack: &[(u64, u64)], sink: &mut S) {
        self.on_ack_sack_inline::<false, S>(now, a, sack, sink)
    }

    #[inline(always)]
    fn on_ack_sack_inline<const ECHOING: bool, S: TxSink>(
        &mut self,
        now: Time,
        a: &AckInput,
        sack: &[(u64, u64)],
        sink: &mut S,
    ) {
        let plain_rtt = if a.echo_retransmit { None } else { Some(now.saturating_sub(a.echo_tx_time)) };
        let sk = self.sk.as_mut().expect("sack state");
        if !self.in_recovery {
            if a.ack > self.snd_una {
                self.firstpartial = false;
                sk.after_timeout = false;
                sk.sb.clear();
                sk.forget_retx_below(a.ack);
                self.new_ack::<ECHOING>(now, a, plain_rtt, false, true);
                if self.done() {
                    return self.complete(now);
                }
                self.rto_deadline =
                    if self.snd_una < self.max_sent { Some(now + self.rto.rto()) } else { None };
                if self.convergence.watching() {
                    let (rto, w) = (&self.rto, self.window());
                    self.convergence.on_ack(now, w, || rto.srtt().unwrap_or(0));
                }
                // `try_send_after_ack` without the tests this path has answered: a flow with SACK is
                // always `unusual`, and it is not in recovery.
                if !self.started || self.handshake.is_some() {
                    return;
                }
                if self.pacer.is_none() {
                    self.send_within_window_sack(now, sink);
                } else {
                    self.send_much_sack(now);
                }
            } else if a.ack == self.snd_una && self.snd_una < self.max_sent {
                Self::cc_on_dupack(&mut *self.cc, self.cc_hears_sends, &mut self.cc_window, now);
                if let Some(r) = &mut self.rate {
                    r.on_dupack(now, self.max_sent - self.snd_una);
                }
                if sk.after_timeout {
                    return;
                }
                sk.sb.update(self.snd_una, sack);
                // A duplicate ACK counts only if its SACK blocks tell something new.
                if sk.sb.changed() {
                    self.dupacks += 1;
                    if self.dupacks == self.dupack_threshold {
                        if self.fast_retransmit_allowed() {
                            self.enter_recovery_sack(now);
                        }
                    } else if self.dupacks < self.dupack_threshold && self.limited_transmit {
                        self.send_one(now);
                    }
                }
            }
            return;
        }
        // Fast recovery.
        sk.pipe -= 1;
        if a.ack > self.recover {
            self.in_recovery = false;
            sk.after_timeout = false;
            sk.sb.clear();
            sk.forget_retx_below(a.ack);
            self.new_ack::<ECHOING>(now, a, plain_rtt, true, true);
            self.cc.on_recovery_exit(now, self.inflight());
            self.sync_window();
            if self.done() {
                return self.complete(now);
            }
            self.rto_deadline = if self.snd_una < self.max_sent { Some(now + self.rto.rto()) } else { None };
        } else if a.ack > self.snd_una {
            sk.forget_retx_below(a.ack);
            self.new_ack::<ECHOING>(now, a, plain_rtt, true, false);
            let sk = self.sk.as_mut().expect("sack state");
            sk.sb.update(self.snd_una, sack);
            if self.partial_ack {
                // partial_ack_action(): two packets, the next unSACKed ones from next_pkt_.
                self.partial_ack_action(now);
                self.sk.as_mut().expect("sack state").pipe += 1;
                if !self.firstpartial {
                    self.rto_deadline = Some(now + self.rto.rto());
                    self.rto.reset_backoff();
                    self.firstpartial = true;
                }
            } else {
                self.sk.as_mut().expect("sack state").pipe -= 1;
                self.rto_deadline = Some(now + self.rto.rto());
                self.rto.reset_backoff();
            }
        } else if a.ack == self.snd_una {
            Self::cc_on_dupack(&mut *self.cc, self.cc_hears_sends, &mut self.cc_window, now);
            if !sk.after_timeout {
                sk.sb.update(self.snd_una, sack);
                if sk.sb.changed() && self.dupacks > 0 {
                    self.dupacks += 1;
                }
            }
        }
        self.send_allowed(now);
    }

    /// `dupack_action()`'s sack_action (tcp/tcp-sack1.cc:327, tcp/tcp-fast.cc:639).
    fn enter_recovery_sack(&mut self, now: Time) {
        self.account_cwnd(now);
        self.stats.on_fast_retransmit();
        self.convergence.on_loss(now, self.window());
        let inflight = self.max_sent - self.snd_una;
        self.recover = self.max_sent - 1;
        self.set_guard();
        self.ecn_window_reduced(false);
        let sk = self.sk.as_mut().expect("sack state");
        // pipe_ = maxseq_ - highest_ack_ - numdupacks_ (LimTransmitFix_ false).
        sk.pipe = inflight as i64 - self.dupack_threshold as i64;
        sk.sb.mark_retran(self.snd_una);
        self.cc.on_loss(&LossEvent { now, inflight, lost_was_retransmit: false });
        self.sync_window();
        self.in_recovery = true;
        self.firstpartial = false;
        self.rto.stop_timing();
        self.rto_deadline = Some(now + self.rto.rto());
        self.transmit(now, self.snd_una, true);
    }

    fn partial_ack_action(&mut self, now: Time) {
        let sk = self.sk.as_mut().expect("sack state");
        if sk.next_pkt < self.snd_una {
            sk.next_pkt = self.snd_una;
        }
        for _ in 0..2 {
            let sk = self.sk.as_mut().expect("sack state");
            if let Some(n) = sk.sb.next_unacked(sk.next_pkt) {
                if n > sk.next_pkt {
                    sk.next_pkt = n;
                }
            }
            let seq = sk.next_pkt;
            sk.sb.mark_retran(seq);
            sk.next_pkt += 1;
            if seq >= self.max_sent && !self.has_new_data() {
                break;
            }
            if self.snd_nxt <= seq {
                self.snd_nxt = seq + 1;
            }
            if seq >= self.max_sent {
                self.rto.on_send_new(seq, now);
            }
            self.transmit(now, seq, seq < self.max_sent);
            self.max_sent = self.max_sent.max(seq + 1);
        }
    }

    /// `send_much_sack` outside recovery for a flow without a pacer, where only the window limits: the
    /// same packets without the tests for recovery, pacing and stale packets on every iteration. The
    /// window is read again after every packet, as there, since an algorithm's `on_send` may change it;
    /// once is enough for an algorithm that hears no sends (its window cannot move in between). The limit
    /// is a function of the window alone here (`snd_una` and `rwnd` stay), so it is recomputed only when
    /// the window's bits moved: FAST hears every send and never moves its window there, and the
    /// conversion to whole packets cost it about 13 instructions a packet.
    #[inline(always)]
    pub(super) fn send_within_window_sack<S: TxSink>(&mut self, now: Time, sink: &mut S) {
        if !self.cc_hears_sends {
            let limit = self.snd_una + self.effective_window_no_rwnd().min(self.rwnd);
            while self.snd_nxt < limit && self.send_next(now, sink) {}
            return;
        }
        let mut w = self.cc_window.to_bits();
        let mut limit = self.snd_una + self.window_pkts_heard().min(self.rwnd);
        while self.snd_nxt < limit && self.send_next(now, sink) {
            if self.cc_window.to_bits() != w {
                w = self.cc_window.to_bits();
                limit = self.snd_una + self.window_pkts_heard().min(self.rwnd);
            }
        }
    }

    /// `effective_window_no_rwnd()` through the SACK state's cache of its last answer (`wnd_bits`).
    #[inline(always)]
    fn window_pkts_heard(&mut self) -> u64 {
        let bits = self.window().to_bits();
        let sk = self.sk.as_mut().expect("sack state");
        if sk.wnd_bits != bits {
            sk.wnd_bits = bits;
            sk.wnd_pkts = whole_packets(f64::from_bits(bits));
        }
        sk.wnd_pkts
    }

    /// `send_much()` of Sack1 and FAST (tcp/tcp-sack1.cc:422, tcp/tcp-fast.cc:745): outside recovery
    /// the window limits; in recovery pipe_ < cwnd_, holes first (and for FAST, first of all a packet
    /// unacknowledged for `stale_after()`), then new data within the receiver's window.
    #[inline(never)]
    pub(super) fn send_much_sack(&mut self, now: Time) {
        let stale_after =
            if self.mode == Mode::Fast && self.in_recovery { self.cc.stale_after() } else { None };
        let mut wakeup = None;
        loop {
            // A paced flow also waits for its pacer (ns-2's agents do not pace; see docs, Pacing).
            if let Some(p) = &self.pacer {
                if !p.ready(now) {
                    wakeup = Some(p.next_send());
                    break;
                }
            }
            let cwnd = self.effective_window_no_rwnd();
            let sk = self.sk.as_mut().expect("sack state");
            let open = if self.in_recovery {
                sk.pipe < cwnd as i64
            } else {
                self.snd_nxt < self.snd_una + cwnd.min(self.rwnd)
            };
            if !open {
                break;
            }
            let mut xmit = None;
            if let Some(stale) = stale_after {
                // The evident intent of tcp-fast.cc:768 (GetNextUnacked(last_ack_) as written returns
                // the last *acknowledged* packet): resend the oldest unacknowledged packet if it has
                // been out for longer than `stale_after`.
                if let Some(u) = sk.sb.next_unacked(self.snd_una) {
                    let last = sk.last_retx.get(&u).copied().or_else(|| self.first_sent.get(u));
                    if u < self.max_sent && last.is_some_and(|t| now.saturating_sub(t) > stale) {
                        xmit = Some(u);
                    }
                }
            }
            let xmit = xmit.or_else(|| if self.in_recovery { sk.sb.next_retran() } else { None });
            match xmit {
                Some(seq) if seq < self.snd_una + self.rwnd => {
                    sk.sb.mark_retran(seq);
                    if self.in_recovery {
                        sk.pipe += 1;
                    }
                    self.transmit(now, seq, true);
                }
                Some(_) => break,
                None => {
                    let limit = if self.in_recovery { self.rwnd } else { cwnd.min(self.rwnd) };
                    if self.snd_nxt >= self.snd_una + limit || !self.send_next(now, &mut Queue) {
                        break;
                    }
                    if self.in_recovery {
                        self.sk.as_mut().expect("sack state").pipe += 1;
                    }
                }
            }
        }
        if let Some(p) = &mut self.pacer {
            p.wakeup = wakeup;
        }
    }
}
