//! ns-2.35's `Agent/TCP/Vegas` (`tcp/tcp-vegas.cc`), the default flavour; the module doc of `vegas`
//! says what it computes.

use crate::cc::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::model::params::Params;
use crate::time::{secs, Time};
use std::collections::VecDeque;

/// C's conversion of a double to int: truncation toward zero (Rust's `as` also saturates out of range,
/// where C is undefined).
#[inline]
pub(super) fn c_int(x: f64) -> i64 {
    x as i64
}

/// ns-2.35 `Agent/TCP/Vegas`. Fields keep ns-2's names; times are ns-2's `vegastime()`, seconds since
/// `firstsent_` as doubles. `cwnd` is ns-2's `cwnd_`, duplicate-ACK inflation included; `window()` hands
/// the transport `cwnd_` less the inflation the transport adds itself.
pub struct Ns2Vegas {
    pub(super) alpha: f64,
    pub(super) beta: f64,
    pub(super) gamma: f64,
    /// `rtt_statistic = "min"`: the round's minimum sample instead of v_sumRTT_/v_cntRTT_.
    pub(super) use_min: bool,
    pub(super) loss_reduction: f64,
    /// `windowInit_`, which `initial_window()` returns (tcp.cc 1552-1553).
    pub(super) initial_window: f64,

    pub(super) cwnd: f64,
    /// `ssthresh_`, an int in ns-2. It starts at `int(window_)` (tcp.cc 473), the receiver window this
    /// controller does not know: infinite here (delaycc's default receiver window never binds).
    pub(super) ssthresh: f64,
    /// `firstsent_`: set by send_much() whenever it runs with t_seqno_ == 0 (tcp.cc 933-934).
    pub(super) first_sent: Time,
    /// `firstrecv_` (None: ns-2's -1).
    pub(super) first_recv: Option<f64>,
    /// `last_ack_`: the highest in-order sequence number acknowledged, snd_una − 1 (-1 at start).
    pub(super) last_ack: i64,
    /// `dupacks_`.
    pub(super) dupacks: u32,
    /// `numdupacks_`: the transport's duplicate-ACK threshold, learnt from the count at the first fast
    /// retransmit (3, ns-default.tcl and delaycc's default, until then).
    pub(super) numdupacks: u32,
    /// The transport's own inflation while it is in fast recovery (it adds one packet per duplicate ACK
    /// from the threshold on): ns-2 keeps that inside `cwnd_`, so `window()` subtracts it.
    pub(super) transport_inflation: f64,
    pub(super) in_recovery: bool,
    /// The next transmission is the fast retransmission `output(last_ack_ + 1)` (line 399), which leaves
    /// outside send_much() and so never moves `firstsent_`.
    pub(super) fast_rtx_next: bool,
    pub(super) t_cwnd_changed: f64,
    pub(super) v_rtt: f64,
    pub(super) v_sa: f64,
    pub(super) v_sd: f64,
    pub(super) v_timeout: f64,
    pub(super) v_begseq: i64,
    pub(super) v_begtime: f64,
    pub(super) v_cnt_rtt: u32,
    pub(super) v_sum_rtt: f64,
    pub(super) round_min: f64,
    pub(super) v_base_rtt: f64,
    pub(super) v_incr: f64,
    pub(super) v_inc_flag: bool,
    /// Never initialised by ns-2 before the first reduction (heap memory, in practice 0).
    pub(super) v_newcwnd: f64,
    pub(super) v_actual: f64,
    /// The last round's delta (the flow's queued packets as Vegas estimates them).
    pub(super) delta: i64,
    /// The last round's RTT (mean or minimum of its samples), seconds.
    pub(super) round_rtt: f64,
    /// `v_sendtime_[]` and `v_transmits_[]` of sequence numbers from `sends_base` on, keyed by sequence
    /// number. ns-2 keeps rings of `window_` entries (lines 467-484) whose clearing loop (lines 307-312)
    /// skips an ACK range that wraps the ring, leaving stale transmit counts `window_` packets later; the
    /// ring size is the receiver window, which a controller does not know, so that is not reproduced.
    pub(super) sends: VecDeque<(f64, u32)>,
    pub(super) sends_base: u64,
    /// ALT's baseRTT, when the ACKs carry one: it replaces v_baseRTT_ in the rates.
    pub(super) alt_base: Option<Time>,
}

impl Ns2Vegas {
    pub fn new(p: &Params, ctx: &FlowContext) -> Ns2Vegas {
        Ns2Vegas {
            alpha: p.num("alpha"),
            beta: p.num("beta"),
            gamma: p.num("gamma"),
            use_min: p.choice("rtt_statistic") == "min",
            loss_reduction: p.num("loss_reduction"),
            initial_window: ctx.initial_window,
            // TcpAgent::set_initial_window() (tcp.cc 436-437): with syn_ and delay_growth_ (both true in
            // ns-default.tcl 937 and 1062) cwnd_ starts at 1, and recv() line 190 sets it to
            // initial_window() on the ACK after the first one.
            cwnd: 1.0,
            ssthresh: f64::INFINITY,
            first_sent: 0,
            first_recv: None,
            last_ack: -1,
            dupacks: 0,
            numdupacks: 3,
            transport_inflation: 0.0,
            in_recovery: false,
            fast_rtx_next: false,
            // reset(), lines 128-140.
            t_cwnd_changed: 0.0,
            v_rtt: 0.0,
            v_sa: 0.0,
            v_sd: 0.0,
            v_timeout: 1000.0,
            v_begseq: 0,
            v_begtime: 0.0,
            v_cnt_rtt: 0,
            v_sum_rtt: 0.0,
            round_min: f64::INFINITY,
            v_base_rtt: 1_000_000_000.0,
            v_incr: 0.0,
            v_inc_flag: true,
            v_newcwnd: 0.0,
            v_actual: 0.0,
            delta: 0,
            round_rtt: 0.0,
            sends: VecDeque::new(),
            sends_base: 0,
            alt_base: None,
        }
    }

    /// `vegastime()` (tcp.h 610-612): seconds since firstsent_.
    fn vegastime(&self, now: Time) -> f64 {
        secs(now) - secs(self.first_sent)
    }

    /// (`v_sendtime_`, `v_transmits_`) of `seq`; (-1, 0) as the arrays are initialised (lines 475-478).
    fn sent(&self, seq: u64) -> (f64, u32) {
        seq.checked_sub(self.sends_base)
            .and_then(|i| self.sends.get(i as usize).copied())
            .unwrap_or((-1.0, 0))
    }

    /// The baseRTT the rates use: ALT's when present, else v_baseRTT_.
    fn base(&self) -> f64 {
        self.alt_base.map_or(self.v_base_rtt, secs)
    }

    /// Lines 209-278, the once-per-round section, on an ACK with `seqno >= v_begseq_`. `t_seqno` is
    /// ns-2's t_seqno_ (delaycc's snd_nxt) when the ACK arrives.
    fn end_of_round(&mut self, now_v: f64, t_seqno: i64) {
        let rtt = if self.v_cnt_rtt > 0 {
            if self.use_min {
                self.round_min
            } else {
                self.v_sum_rtt / self.v_cnt_rtt as f64
            }
        } else {
            now_v - self.v_begtime
        };
        self.v_sum_rtt = 0.0;
        self.v_cnt_rtt = 0;
        self.round_min = f64::INFINITY;
        self.round_rtt = rtt;
        // Packets sent since the round began (line 220); negative after a timeout's go-back-N.
        let rtt_len = t_seqno - self.v_begseq;
        if rtt > 0.0 {
            if rtt < self.v_base_rtt || rtt_len <= 1 {
                self.v_base_rtt = rtt;
            }
            let base = self.base();
            self.v_actual = rtt_len as f64 / rtt;
            let expect = (t_seqno - self.last_ack) as f64 / base;
            let delta = c_int((expect - self.v_actual) * base + 0.5);
            self.delta = delta;
            let delta = delta as f64;
            if self.cwnd < self.ssthresh {
                // Slow start (lines 240-256): grow only every other round.
                self.v_inc_flag = !self.v_inc_flag;
                if !self.v_inc_flag {
                    self.v_incr = 0.0;
                } else if delta > self.gamma {
                    self.ssthresh = 2.0;
                    self.cwnd -= self.cwnd / 8.0;
                    if self.cwnd < 2.0 {
                        self.cwnd = 2.0;
                    }
                    self.v_incr = 0.0;
                } else {
                    self.v_incr = 1.0;
                }
            } else if delta > self.beta {
                // Congestion avoidance (lines 257-272).
                self.cwnd -= 1.0;
                if self.cwnd < 2.0 {
                    self.cwnd = 2.0;
                }
                self.v_incr = 0.0;
            } else if delta < self.alpha {
                self.v_incr = 1.0 / self.cwnd;
            } else {
                self.v_incr = 0.0;
            }
        }
        self.v_begseq = t_seqno;
        self.v_begtime = now_v;
    }
}

impl Ns2Vegas {
    /// Lines 365-392: the fine-grained timeout's back-off and the window reduction.
    fn reduce(&mut self, loss: &LossEvent) {
        let now_v = self.vegastime(loss.now);
        let (send_time, transmits) = self.sent((self.last_ack + 1) as u64);
        // window(): int(cwnd_) (tcp.cc 911).
        let mut win = c_int(self.cwnd);
        // Lines 371-374: the fine-grained timeout backs off.
        if transmits > 1 {
            self.v_timeout *= 2.0;
        } else {
            self.v_timeout += self.v_timeout / 8.0;
        }
        // Lines 379-392: reduce only if cwnd_ has not changed since the lost packet left.
        if self.t_cwnd_changed < send_time {
            if win <= 3 {
                win = 2;
            } else if transmits > 1 {
                win >>= 1;
            } else {
                win -= c_int((win as f64 * (1.0 - self.loss_reduction)).floor());
            }
            self.v_newcwnd = win as f64;
            self.cwnd = self.v_newcwnd + self.dupacks as f64;
            self.t_cwnd_changed = now_v;
        }
        self.in_recovery = true;
        self.transport_inflation = self.dupacks as f64;
        self.fast_rtx_next = true;
    }
}

impl CongestionControl for Ns2Vegas {
    /// ns-2's Agent/TCP/Vegas sends its first data packet at once, with no SYN before it.
    fn sends_syn(&self) -> bool {
        false
    }

    fn window(&self) -> f64 {
        // ns-2 can take cwnd_ below one packet (a deflation to v_newcwnd_ = 0 after a timeout) and then
        // sends nothing; delaycc's transport always allows one packet, so the window reported is >= 1.
        (self.cwnd - self.transport_inflation).max(1.0)
    }

    fn ssthresh(&self) -> f64 {
        self.ssthresh
    }

    /// recv(), lines 163-350, for an ACK that advances snd_una.
    fn on_ack(&mut self, ack: &AckEvent) {
        let now_v = self.vegastime(ack.now);
        if self.first_recv.is_none() {
            // Lines 179-185.
            self.first_recv = Some(now_v);
            self.v_base_rtt = now_v;
            self.v_rtt = now_v;
            self.v_sa = self.v_rtt * 8.0;
            self.v_sd = self.v_rtt;
            self.v_timeout = ((self.v_sa / 4.0) + self.v_sd) / 2.0;
        }
        if ack.base_rtt.is_some() {
            self.alt_base = ack.base_rtt;
        }
        let seqno = ack.snd_una as i64 - 1;
        if self.last_ack == 0 {
            // Line 190-192 (delay_growth_ true, ns-default.tcl 1062).
            self.cwnd = self.initial_window;
        }
        if self.in_recovery {
            // newreno_recovery() is false: the transport leaves recovery on this ACK and drops its
            // inflation, which ns-2 keeps in cwnd_.
            self.in_recovery = false;
            self.transport_inflation = 0.0;
        }
        // Lines 194-198: deflate an inflated window, if more than numdupacks_ duplicates came.
        if self.dupacks > self.numdupacks && self.cwnd > self.v_newcwnd {
            self.cwnd = self.v_newcwnd;
            self.ssthresh = 2.0;
        }
        // newack() (tcp.cc 1378-1384).
        self.dupacks = 0;
        self.last_ack = seqno;
        // t_seqno_: snd_nxt as the ACK arrives (before anything it lets out).
        let t_seqno = (ack.snd_una + ack.inflight) as i64;
        if seqno >= self.v_begseq {
            self.end_of_round(now_v, t_seqno);
        }
        // Lines 284-291.
        if self.v_incr == 1.0 && self.cwnd >= self.ssthresh {
            self.v_incr = 0.0;
        }
        if self.v_incr > 0.0 && (self.cwnd - (t_seqno - self.last_ack) as f64) <= 2.0 {
            self.cwnd += self.v_incr;
        }
        // Lines 304-332: the acked packet's fine-grained RTT, if it was sent once (and not at vegastime 0).
        let (send_time, transmits) = self.sent(ack.snd_una - 1);
        let drop = (ack.snd_una.saturating_sub(self.sends_base) as usize).min(self.sends.len());
        self.sends.drain(..drop);
        self.sends_base = self.sends_base.max(ack.snd_una);
        if send_time != 0.0 && transmits == 1 {
            let rtt = match ack.base_rtt {
                // ALT: its RTT (forward trip + minimum backward trip) replaces the plain one.
                Some(_) => ack.rtt.map(secs),
                None => Some(now_v - send_time),
            };
            if let Some(rtt) = rtt {
                self.v_sum_rtt += rtt;
                self.v_cnt_rtt += 1;
                self.round_min = self.round_min.min(rtt);
                if rtt > 0.0 {
                    self.v_rtt = rtt;
                    if self.v_rtt < self.v_base_rtt {
                        self.v_base_rtt = self.v_rtt;
                    }
                    let mut n = self.v_rtt - self.v_sa / 8.0;
                    self.v_sa += n;
                    n = n.abs();
                    n -= self.v_sd / 4.0;
                    self.v_sd += n;
                    self.v_timeout = ((self.v_sa / 4.0) + self.v_sd) / 2.0;
                    self.v_timeout += self.v_timeout / 16.0;
                }
            }
        }
    }

    /// Lines 351-353 and 404-405: count the duplicate, and past numdupacks_ open the window by one.
    fn on_dupack(&mut self, _now: Time) {
        self.dupacks += 1;
        if self.in_recovery {
            self.transport_inflation += 1.0;
        }
        if self.dupacks > self.numdupacks {
            self.cwnd += 1.0;
        }
    }

    /// Lines 355-402 when dupacks_ == numdupacks_ (the transport's fast retransmit).
    fn on_loss(&mut self, loss: &LossEvent) {
        self.numdupacks = self.dupacks.max(1);
        self.reduce(loss);
    }

    /// Lines 355-402 entered before numdupacks_ because `vegas_expire` found the packet expired: the
    /// same reduction, with the current (smaller) duplicate count as the inflation, and then
    /// `dupacks_ = numdupacks_` if the packet had left only once (lines 401-402).
    fn on_early_loss(&mut self, loss: &LossEvent) {
        let transmits = self.sent((self.last_ack + 1) as u64).1;
        self.reduce(loss);
        if transmits == 1 {
            self.dupacks = self.numdupacks;
        }
    }

    fn fine_retransmit(&self) -> bool {
        true
    }

    /// `vegas_expire()` (lines 517-526): the packet's latest transmission is `v_timeout_` or more ago.
    fn expired(&self, now: Time, seq: u64) -> bool {
        self.vegastime(now) - self.sent(seq).0 >= self.v_timeout
    }

    /// Lines 340-347: `dupacks_ = numdupacks_` before the `v_worried_` retransmission.
    fn on_fine_retransmit(&mut self) {
        self.dupacks = self.numdupacks;
    }
    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {
        self.in_recovery = false;
        self.transport_inflation = 0.0;
    }

    /// ECN-Echo: ns-2's Vegas inherits TcpAgent::ecn (its recv() calls it first, line 187), which once
    /// per window calls slowdown(CLOSE_CWND_HALF | CLOSE_SSTHRESH_HALF) with precisionReduce_ true:
    /// cwnd_ = windowd()/2 (at least 1), ssthresh_ = (int)(windowd()/2) (at least 2), tcp.cc:1259-1345.
    /// Vegas's own state (v_newcwnd_, the fine timeout, t_cwnd_changed_) is left alone, as slowdown()
    /// leaves it. ns-2's VegasTcpAgent::output() sets neither ECT nor CWR, so there a Vegas flow is never
    /// marked; delaycc's transport does both for a flow with `ecn` (docs/queues.md#ecn).
    fn on_ecn(&mut self, _now: Time, _inflight: u64) {
        let w = self.cwnd - self.transport_inflation;
        self.ssthresh = (c_int(w / 2.0) as f64).max(2.0);
        self.cwnd = (w / 2.0).max(1.0) + self.transport_inflation;
    }

    /// timeout(), lines 437-445.
    fn on_timeout(&mut self, now: Time, _inflight: u64) {
        self.dupacks = 0;
        self.in_recovery = false;
        self.transport_inflation = 0.0;
        // slowdown(CLOSE_CWND_RESTART|CLOSE_SSTHRESH_HALF) with precisionReduce_ true (ns-default.tcl
        // 1004): ssthresh_ = (int)(windowd()/2), at least 2 (tcp.cc 1265, 1307, 1344-1345).
        self.ssthresh = (c_int(self.cwnd / 2.0) as f64).max(2.0);
        self.cwnd = 2.0; // v_slowstart_
        self.v_newcwnd = 0.0;
        self.t_cwnd_changed = self.vegastime(now);
    }

    /// output(), lines 481-484: record the fine-grained send time and count the transmission.
    fn on_send(&mut self, now: Time, seq: u64, _retransmit: bool, _inflight: u64) {
        if seq == 0 && !self.fast_rtx_next {
            self.first_sent = now;
        }
        self.fast_rtx_next = false;
        let Some(i) = seq.checked_sub(self.sends_base) else { return };
        let i = i as usize;
        if i >= self.sends.len() {
            self.sends.resize(i + 1, (-1.0, 0));
        }
        let t = self.vegastime(now);
        let e = &mut self.sends[i];
        e.0 = t;
        e.1 += 1;
    }

    fn newreno_recovery(&self) -> bool {
        // recv() has no partial-ACK rule: any new ACK ends the recovery (lines 189-201).
        false
    }

    fn trace(&self) -> CcTrace {
        let base = self.alt_base.or_else(|| self.first_recv.map(|_| crate::time::from_secs(self.v_base_rtt)));
        let srtt = (self.v_sa > 0.0).then(|| crate::time::from_secs(self.v_sa / 8.0));
        CcTrace { base_rtt: base, srtt }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["backlog_pkts"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.delta as f64);
    }
}
