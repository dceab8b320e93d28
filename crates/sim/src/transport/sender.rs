//! The sending side: window-limited transmission, duplicate-ACK fast retransmit, NewReno recovery with
//! partial ACKs (RFC 6582), RTO with Karn's rule and backoff (RFC 6298), go-back-N after a timeout (as
//! ns-2's one-way TCP agents do). The congestion-control algorithm sizes the window; this file decides
//! which packets leave and when recovery starts and ends.

use super::convergence::ConvergenceTracker;
use super::deque::shrink_when_mostly_empty;
use super::pacing::Pacer;
use super::rate_sample::RateSampler;
use super::rto::RtoEstimator;
use crate::cc::{AckEvent, AckTimestamps, CongestionControl, LossEvent};
use crate::scenario::TransportConfig;
use crate::time::{as_f64, Time};
use std::collections::VecDeque;

/// A packet the sender wants transmitted now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxRequest {
    pub seq: u64,
    pub retransmit: bool,
    pub inflight_at_send: u32,
    /// When this sequence number was first transmitted (the application's message entered the network).
    pub first_sent: Time,
}

/// What an arriving ACK carries back to the sender.
#[derive(Clone, Copy, Debug)]
pub struct AckInput {
    pub ack: u64,
    /// The triggering data packet's send time and flags, echoed by the receiver.
    pub echo_tx_time: Time,
    pub echo_inflight: u32,
    pub echo_retransmit: bool,
    /// Receiver clock readings (ALT's T2 and T3), two's-complement nanoseconds.
    pub rcv_arrival: u64,
    pub rcv_leave: u64,
}

pub struct Sender {
    pub cc: Box<dyn CongestionControl>,
    pub snd_una: u64,
    pub snd_nxt: u64,
    /// One past the highest sequence number ever sent.
    pub max_sent: u64,
    /// Total packets of a finite transfer.
    pub limit: Option<u64>,
    /// No new data after the flow's stop time.
    pub app_stopped: bool,
    /// The flow has started (before that nothing is sent).
    pub started: bool,
    /// The window average is being accumulated (from start until completion or the end of the run).
    active: bool,
    dupacks: u32,
    dupack_threshold: u32,
    pub in_recovery: bool,
    recover: u64,
    /// After a timeout, duplicate ACKs for data sent before it must not start fast retransmit (RFC 6582 §3.2).
    recover_guard: Option<u64>,
    /// NewReno window inflation during recovery, packets.
    inflation: f64,
    rwnd: u64,
    pub rto: RtoEstimator,
    pub rto_deadline: Option<Time>,
    pub rto_event_pending: bool,
    /// Packets the simulation must transmit, filled by every call below and emptied by the simulation
    /// right after. Usually one or two; it starts with room for four: at 64 its 2 KiB buffer spread a
    /// thousand flows' heap state over four times as many pages.
    pub txq: Vec<TxRequest>,
    /// First transmission time of every unacknowledged sequence number, indexed from snd_una.
    first_sent: VecDeque<Time>,
    last_new_ack: Option<Time>,
    pub convergence: ConvergenceTracker,
    pub stats: SenderStats,
    /// Only for algorithms that pace (`pacing.rs`); None costs one branch per send attempt.
    pub pacer: Option<Pacer>,
    /// Only for algorithms that use delivery-rate samples (`rate_sample.rs`).
    rate: Option<Box<RateSampler>>,
}

#[derive(Clone, Debug, Default)]
pub struct SenderStats {
    pub pkts_sent: u64,
    pub retransmits: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub rtt_samples: u64,
    pub rtt_sum_ns: f64,
    pub rtt_min: Option<Time>,
    pub last_rtt: Option<Time>,
    /// ∫ cwnd dt over the active time, packets·ns.
    pub cwnd_integral: f64,
    pub cwnd_since: Time,
    pub completed_at: Option<Time>,
    /// Latest inter-ACK delay of new ACKs, and its change from the one before (IPD jitter).
    pub ipd: Option<Time>,
    pub ipd_jitter: Option<Time>,
}

impl Sender {
    pub fn new(cc: Box<dyn CongestionControl>, cfg: &TransportConfig, limit: Option<u64>) -> Sender {
        Sender {
            snd_una: 0,
            snd_nxt: 0,
            max_sent: 0,
            limit,
            app_stopped: false,
            started: false,
            active: false,
            dupacks: 0,
            dupack_threshold: cfg.dupack_threshold,
            in_recovery: false,
            recover: 0,
            recover_guard: None,
            inflation: 0.0,
            rwnd: cfg.receiver_window,
            rto: RtoEstimator::new(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
            rto_deadline: None,
            rto_event_pending: false,
            txq: Vec::with_capacity(4),
            first_sent: VecDeque::new(),
            last_new_ack: None,
            rate: cc.wants_rate_samples().then(|| Box::new(RateSampler::new())),
            convergence: ConvergenceTracker::default(),
            stats: SenderStats::default(),
            pacer: None,
            cc,
        }
    }

    /// Spaces data packets at the algorithm's pacing rate from now on (packets of `packet_bytes` on the
    /// wire). Only worth calling for an algorithm that `paces()`.
    pub fn enable_pacing(&mut self, packet_bytes: u32) {
        self.pacer = Some(Pacer::new(packet_bytes));
    }

    pub fn inflight(&self) -> u64 {
        self.snd_nxt - self.snd_una
    }

    /// The window the sender obeys now: the algorithm's, plus NewReno inflation, capped by the receiver.
    pub fn effective_window(&self) -> u64 {
        // `as` truncates, which for w >= 1 is the floor; this avoids a libm call (x86-64 has no SSE4.1
        // rounding instruction by default). NaN, infinity and w < 1 give one packet, as before. Below
        // 2^63 the signed conversion gives the same result in fewer instructions than the unsigned one.
        let w = self.cc.window() + self.inflation;
        let w = if (1.0..9.0e18).contains(&w) {
            w as i64 as u64
        } else if w.is_finite() && w >= 1.0 {
            w as u64
        } else {
            1
        };
        w.min(self.rwnd)
    }

    pub fn done(&self) -> bool {
        self.limit.is_some_and(|l| self.snd_una >= l)
    }

    fn account_cwnd(&mut self, now: Time) {
        if self.active {
            let dt = now.saturating_sub(self.stats.cwnd_since) as f64;
            self.stats.cwnd_integral += self.cc.window() * dt;
        }
        self.stats.cwnd_since = now;
    }

    pub fn start(&mut self, now: Time) {
        self.started = true;
        self.active = true;
        self.stats.cwnd_since = now;
        self.try_send(now);
    }

    /// The application stops offering data; outstanding packets are still delivered.
    pub fn stop(&mut self, now: Time) {
        self.account_cwnd(now);
        self.app_stopped = true;
    }

    /// Ends accounting of the window average (at the end of the run or when the transfer completes).
    pub fn finish_accounting(&mut self, now: Time) {
        self.account_cwnd(now);
        self.active = false;
    }

    fn transmit(&mut self, now: Time, seq: u64, retransmit: bool) {
        let flight = if retransmit && seq < self.snd_nxt { self.inflight() } else { self.inflight() + 1 };
        // Packets actually in the network: during recovery the sequence-space flight also counts every
        // packet already delivered out of order, which NewReno's inflation tracks (one per duplicate
        // ACK). The ns-2 FAST module's old_pif is likewise its SACK "pipe".
        // Back through i64 for the same reason as `as_f64`: one instruction, and a packet count is far
        // below 2^63.
        let inflight_at_send = if self.inflation == 0.0 {
            flight.max(1)
        } else {
            (as_f64(flight) - self.inflation).max(1.0) as i64 as u64
        };
        let idx = (seq - self.snd_una) as usize;
        let first_sent = if idx == self.first_sent.len() {
            self.first_sent.push_back(now);
            now
        } else {
            self.first_sent.get(idx).copied().unwrap_or(now)
        };
        self.txq.push(TxRequest {
            seq,
            retransmit,
            inflight_at_send: inflight_at_send.min(u32::MAX as u64) as u32,
            first_sent,
        });
        self.stats.pkts_sent += 1;
        if retransmit {
            self.stats.retransmits += 1;
        }
        self.cc.on_send(now, seq, retransmit, inflight_at_send);
        if let Some(r) = &mut self.rate {
            r.on_send(now, seq, self.max_sent - self.snd_una);
        }
        if let Some(p) = &mut self.pacer {
            p.on_send(now, self.cc.pacing_rate());
        }
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rto.rto());
        }
    }

    /// Sends whatever the window allows. Inlined into the ACK path: out of line, its call costs more than
    /// its usual work of one or two packets.
    #[inline(always)]
    pub fn try_send(&mut self, now: Time) {
        if !self.started {
            return;
        }
        let wnd = self.effective_window();
        if self.pacer.is_some() {
            return self.try_send_paced(now, wnd);
        }
        while self.snd_nxt < self.snd_una + wnd {
            if !self.send_next(now) {
                break;
            }
        }
    }

    /// Sends the next packet in sequence (a new one, or one again after a timeout's go-back-N). Returns
    /// false when the application has nothing more to send.
    #[inline(always)]
    fn send_next(&mut self, now: Time) -> bool {
        let is_new = self.snd_nxt >= self.max_sent;
        if is_new && (self.app_stopped || self.limit.is_some_and(|l| self.snd_nxt >= l)) {
            let pipe = self.inflight();
            if let Some(r) = &mut self.rate {
                r.mark_app_limited(pipe);
            }
            return false;
        }
        let seq = self.snd_nxt;
        self.snd_nxt += 1;
        self.transmit(now, seq, !is_new);
        self.max_sent = self.max_sent.max(self.snd_nxt);
        true
    }

    /// `try_send` for a paced flow: packets leave while the window allows and the pacer is ready, and
    /// the pacer records when to wake the flow if pacing alone holds a packet back.
    #[inline(never)]
    fn try_send_paced(&mut self, now: Time, wnd: u64) {
        let mut wakeup = None;
        while self.snd_nxt < self.snd_una + wnd {
            let p = self.pacer.as_ref().expect("paced flow");
            if !p.ready(now) {
                wakeup = Some(p.next_send());
                break;
            }
            if !self.send_next(now) {
                break;
            }
        }
        if let Some(p) = &mut self.pacer {
            p.wakeup = wakeup;
        }
    }

    /// Processes an ACK. The plain RTT sample is `now - echo_tx_time` when the triggering packet was a
    /// first transmission (Karn's rule with timestamps).
    #[inline]
    pub fn on_ack(&mut self, now: Time, a: &AckInput) {
        let plain_rtt = if a.echo_retransmit { None } else { Some(now.saturating_sub(a.echo_tx_time)) };
        if a.ack > self.snd_una {
            self.account_cwnd(now);
            let acked = a.ack - self.snd_una;
            self.first_sent.drain(..(acked as usize).min(self.first_sent.len()));
            shrink_when_mostly_empty(&mut self.first_sent);
            self.snd_una = a.ack;
            // Inter-ACK delay of new ACKs (P003's IPD; duplicates are ignored).
            if let Some(last) = self.last_new_ack {
                let ipd = now - last;
                self.stats.ipd_jitter = self.stats.ipd.map(|prev| ipd.abs_diff(prev));
                self.stats.ipd = Some(ipd);
            }
            self.last_new_ack = Some(now);
            if self.snd_nxt < self.snd_una {
                self.snd_nxt = self.snd_una;
            }
            if let Some(r) = plain_rtt {
                self.rto.on_sample(r);
                self.stats.rtt_samples += 1;
                self.stats.rtt_sum_ns += r as f64;
                self.stats.rtt_min = Some(self.stats.rtt_min.map_or(r, |m| m.min(r)));
                self.stats.last_rtt = Some(r);
            }
            self.dupacks = 0;
            let was_in_recovery = self.in_recovery;
            let ends_recovery =
                self.in_recovery && (self.snd_una > self.recover || !self.cc.newreno_recovery());
            let rate = match &mut self.rate {
                Some(r) => Some(r.on_ack(now, self.snd_una, self.snd_nxt - self.snd_una, self.stats.rtt_min)),
                None => None,
            };
            let timestamps = plain_rtt.map(|_| AckTimestamps {
                sent: a.echo_tx_time,
                rcv_arrival: a.rcv_arrival,
                rcv_leave: a.rcv_leave,
                acked: now,
            });
            let ev = AckEvent {
                now,
                rtt: plain_rtt,
                acked,
                inflight_at_send: a.echo_inflight,
                inflight: self.inflight(),
                in_recovery: was_in_recovery,
                snd_una: self.snd_una,
                timestamps,
                base_rtt: None,
                rate,
            };
            self.cc.on_ack(&ev);
            if ends_recovery {
                self.in_recovery = false;
                self.inflation = 0.0;
                self.cc.on_recovery_exit(now, self.inflight());
            } else if was_in_recovery {
                // Partial ACK (RFC 6582 §3.2 step 5): retransmit the next hole, deflate by what was acked,
                // add back one packet, and restart the timer.
                self.inflation = (self.inflation - acked as f64).max(0.0) + 1.0;
                self.transmit(now, self.snd_una, true);
                self.rto_deadline = Some(now + self.rto.rto());
            }
            if self.done() {
                self.rto_deadline = None;
                if self.stats.completed_at.is_none() {
                    self.stats.completed_at = Some(now);
                    self.finish_accounting(now);
                }
                return;
            }
            self.rto_deadline = if self.snd_una < self.max_sent { Some(now + self.rto.rto()) } else { None };
            if !self.in_recovery && self.convergence.watching() {
                let rtt = self.rto.srtt().unwrap_or(0);
                self.convergence.on_ack(now, self.cc.window(), rtt);
            }
        } else if a.ack == self.snd_una && self.snd_una < self.max_sent {
            self.dupacks += 1;
            if let Some(r) = &mut self.rate {
                r.on_dupack(now, self.max_sent - self.snd_una);
            }
            self.cc.on_dupack(now);
            if self.in_recovery {
                self.inflation += 1.0;
            } else if self.dupacks == self.dupack_threshold
                && self.recover_guard.is_none_or(|g| self.snd_una > g)
            {
                self.enter_recovery(now);
            }
        }
        self.try_send(now);
    }

    fn enter_recovery(&mut self, now: Time) {
        self.account_cwnd(now);
        self.stats.fast_retransmits += 1;
        self.convergence.on_loss(now, self.cc.window());
        let inflight = self.max_sent - self.snd_una;
        self.cc.on_loss(&LossEvent { now, inflight, lost_was_retransmit: false });
        self.in_recovery = true;
        self.recover = self.max_sent - 1;
        self.inflation = self.dupack_threshold as f64;
        self.transmit(now, self.snd_una, true);
        self.rto_deadline = Some(now + self.rto.rto());
    }

    /// The RTO event fired. Returns true if it was a real timeout (not a stale or rescheduled timer).
    pub fn on_rto_timer(&mut self, now: Time) -> bool {
        match self.rto_deadline {
            Some(d) if d <= now => {}
            _ => return false,
        }
        if self.snd_una >= self.max_sent {
            self.rto_deadline = None;
            return false;
        }
        self.account_cwnd(now);
        self.stats.timeouts += 1;
        self.convergence.on_timeout();
        let inflight = self.max_sent - self.snd_una;
        self.cc.on_timeout(now, inflight);
        if let Some(r) = &mut self.rate {
            r.on_timeout();
        }
        self.rto.on_timeout();
        self.in_recovery = false;
        self.inflation = 0.0;
        self.dupacks = 0;
        self.recover_guard = Some(self.max_sent - 1);
        self.snd_nxt = self.snd_una;
        self.rto_deadline = None;
        self.try_send(now);
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rto.rto());
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{algorithm, FlowContext};

    fn newreno(iw: f64) -> Sender {
        let a = algorithm("newreno").unwrap();
        let cc = (a.build)(&a.defaults(), &FlowContext::new(iw));
        let mut s = Sender::new(cc, &TransportConfig::default(), None);
        s.start(0);
        s
    }

    fn ack(ack: u64, t: Time) -> AckInput {
        AckInput {
            ack,
            echo_tx_time: t,
            echo_inflight: 1,
            echo_retransmit: false,
            rcv_arrival: 0,
            rcv_leave: 0,
        }
    }

    #[test]
    fn slow_start_doubles_per_round() {
        let mut s = newreno(1.0);
        assert_eq!(s.txq.len(), 1);
        s.txq.clear();
        s.on_ack(100, &ack(1, 0));
        assert_eq!(s.txq.len(), 2);
        s.txq.clear();
        s.on_ack(200, &ack(2, 100));
        s.on_ack(200, &ack(3, 100));
        assert_eq!(s.txq.len(), 4);
        assert_eq!(s.cc.window(), 4.0);
    }

    #[test]
    fn three_dupacks_fast_retransmit_and_partial_ack() {
        let mut s = newreno(10.0);
        assert_eq!(s.snd_nxt, 10);
        s.txq.clear();
        // Packets 0 and 5 lost: ACKs for 1..4 are dupacks of 0.
        for _ in 0..3 {
            s.on_ack(100, &ack(0, 0));
        }
        assert!(s.in_recovery);
        // 10 outstanding, 3 of them reported delivered by the duplicate ACKs: 7 in the network.
        assert_eq!(s.txq[0], TxRequest { seq: 0, retransmit: true, inflight_at_send: 7, first_sent: 0 });
        assert_eq!(s.cc.window(), 5.0);
        s.txq.clear();
        // Partial ACK up to 5: retransmit 5 and stay in recovery.
        s.on_ack(200, &AckInput { echo_retransmit: true, ..ack(5, 100) });
        assert!(s.in_recovery);
        assert!(s.txq.iter().any(|t| t.seq == 5 && t.retransmit));
        // Full ACK: leave recovery with cwnd = ssthresh.
        s.on_ack(300, &AckInput { echo_retransmit: true, ..ack(s.max_sent, 200) });
        assert!(!s.in_recovery);
        assert_eq!(s.cc.window(), 5.0);
        assert_eq!(s.stats.fast_retransmits, 1);
    }

    #[test]
    fn timeout_goes_back_n_and_restarts_from_one() {
        let mut s = newreno(4.0);
        s.txq.clear();
        let deadline = s.rto_deadline.unwrap();
        assert!(!s.on_rto_timer(deadline - 1));
        assert!(s.on_rto_timer(deadline));
        assert_eq!(s.cc.window(), 1.0);
        assert_eq!(s.txq, vec![TxRequest { seq: 0, retransmit: true, inflight_at_send: 1, first_sent: 0 }]);
        assert_eq!(s.stats.timeouts, 1);
        // Backed off: the next deadline is two initial RTOs away.
        assert_eq!(s.rto_deadline, Some(deadline + 2 * deadline));
    }

    #[test]
    fn karn_rule_skips_retransmitted_samples() {
        let mut s = newreno(2.0);
        s.on_ack(100, &AckInput { echo_retransmit: true, ..ack(1, 0) });
        assert_eq!(s.stats.rtt_samples, 0);
        s.on_ack(150, &ack(2, 50));
        assert_eq!(s.stats.last_rtt, Some(100));
    }

    #[test]
    fn finite_transfer_stops_at_its_limit() {
        let a = algorithm("newreno").unwrap();
        let cc = (a.build)(&a.defaults(), &FlowContext::new(10.0));
        let mut s = Sender::new(cc, &TransportConfig::default(), Some(3));
        s.start(0);
        assert_eq!(s.txq.len(), 3);
        s.on_ack(10, &ack(3, 0));
        assert!(s.done());
        assert_eq!(s.stats.completed_at, Some(10));
        assert_eq!(s.rto_deadline, None);
    }
}
