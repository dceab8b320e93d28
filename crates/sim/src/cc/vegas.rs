//! TCP Vegas (Brakmo & Peterson) in two flavours.
//!
//! `flavour = "ns2"` (the default) computes what ns-2.35's `Agent/TCP/Vegas` computes (`tcp/tcp-vegas.cc`,
//! with the `TcpAgent` defaults of `tcl/lib/ns-default.tcl`); every rule below names its lines there.
//! Once per round (tagged by sequence number, `v_begseq_`), with the round's mean RTT:
//!
//! ```text
//! delta = int((expect − actual)·baseRTT + 0.5)
//! expect = (t_seqno_ − last_ack_)/baseRTT,   actual = (packets sent during the round)/RTT
//! ```
//!
//! an integer compared with the integer thresholds v_alpha_/v_beta_/v_gamma_. Congestion avoidance sets a
//! per-ACK increment `v_incr_` (1/cwnd below alpha, 0 otherwise, and one packet off above beta); slow start
//! grows one packet per ACK every other round and ends when delta exceeds gamma; fast retransmit keeps
//! `win − win/4` of the integer window; a timeout restarts from 2 packets. Recovery has no NewReno
//! partial-ACK rule (`newreno_recovery()` is false). Not modelled, because it is a transport rule: ns-2's
//! fine-grained early retransmit (`vegas_expire()` against `v_timeout_` on duplicate ACKs and on the two
//! new ACKs after one, `v_worried_`, lines 337-402); this controller keeps `v_timeout_` up to date for it.
//!
//! `flavour = "linux"` follows Linux `net/ipv4/tcp_vegas.c` (the current mainline form): the round's minimum
//! RTT (µs + 1), diff = cwnd·(RTT − baseRTT)/baseRTT in integer packets, Reno behaviour for a round with
//! fewer than three samples, slow start exit at diff > gamma to min(cwnd, target + 1), ±1 per round in
//! congestion avoidance, Reno's ssthresh on loss. Its defaults are Linux's (alpha 2, beta 4, gamma 1):
//! `resolve_flavour_defaults` fills them in for parameters a scenario leaves unset.

use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::{secs, Time};
use std::collections::VecDeque;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "flavour",
        kind: ParamKind::Choice(&["ns2", "linux"]),
        default: ParamDefault::Str("ns2"),
        description: "whose Vegas: ns-2.35's Agent/TCP/Vegas (mean RTT per round, integer delta, safe slow \
                      start, 3/4 on fast retransmit) or Linux's tcp_vegas (minimum RTT per round, Reno on loss); \
                      with linux, unset alpha, beta, rtt_statistic and loss_reduction take Linux's values",
        source: "ns-2.35 tcp/tcp-vegas.cc (the seed papers' simulator) by default; Linux net/ipv4/tcp_vegas.c \
                 as the option",
    },
    ParamSpec {
        name: "alpha",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(1.0),
        description: "lower bound on the flow's queued packets: below it the window grows by one per RTT \
                      (ns2 compares its integer delta: delta < alpha)",
        source: "ns-2.35 ns-default.tcl `Agent/TCP/Vegas set v_alpha_ 1` (also Brakmo & Peterson); \
                 flavour = linux: 2, tcp_vegas.c `alpha = 2`",
    },
    ParamSpec {
        name: "beta",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(3.0),
        description: "upper bound on the flow's queued packets: above it the window shrinks by one per RTT \
                      (ns2: delta > beta)",
        source: "ns-2.35 ns-default.tcl `Agent/TCP/Vegas set v_beta_ 3`; flavour = linux: 4, tcp_vegas.c \
                 `beta = 4`",
    },
    ParamSpec {
        name: "gamma",
        kind: ParamKind::Float { min: 0.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(1.0),
        description: "slow start ends when the queued-packet estimate exceeds gamma",
        source: "ns-2.35 ns-default.tcl `Agent/TCP/Vegas set v_gamma_ 1`; Linux tcp_vegas.c `gamma = 1` too",
    },
    ParamSpec {
        name: "rtt_statistic",
        kind: ParamKind::Choice(&["min", "mean"]),
        default: ParamDefault::Str("mean"),
        description: "which RTT of the round the decision uses: the mean of its samples or their minimum \
                      (an override of the flavour's own choice when set)",
        source: "ns-2.35 tcp-vegas.cc recv() line 212: rtt = v_sumRTT_/v_cntRTT_ (the mean); flavour = \
                 linux: min, tcp_vegas.c `rtt = vegas->minRTT`",
    },
    ParamSpec {
        name: "loss_reduction",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.75),
        description: "fraction of the window kept on fast retransmit; ns2 keeps win − floor(win·(1 − r)) of \
                      the integer window (win ≤ 3 gives 2, a lost retransmission halves), linux sets \
                      ssthresh = cwnd = max(floor(cwnd·r), 2)",
        source: "ns-2.35 tcp-vegas.cc recv() line 385: win -= (win>>2), i.e. 3/4 (also P004 §II); flavour = \
                 linux: 0.5, tcp_reno_ssthresh max(cwnd >> 1, 2)",
    },
];

/// Linux's values of the parameters whose ns-2 default differs (tcp_vegas.c module parameters, the
/// minimum RTT, tcp_reno_ssthresh).
pub const LINUX_DEFAULTS: &[(&str, ParamDefault)] = &[
    ("alpha", ParamDefault::Num(2.0)),
    ("beta", ParamDefault::Num(4.0)),
    ("gamma", ParamDefault::Num(1.0)),
    ("rtt_statistic", ParamDefault::Str("min")),
    ("loss_reduction", ParamDefault::Num(0.5)),
];

/// The default of parameter `name` under `flavour` (None: not a Vegas parameter).
pub fn flavour_default(flavour: &str, name: &str) -> Option<ParamDefault> {
    if flavour == "linux" {
        if let Some((_, d)) = LINUX_DEFAULTS.iter().find(|(n, _)| *n == name) {
            return Some(*d);
        }
    }
    PARAMS.iter().find(|s| s.name == name).map(|s| s.default)
}

/// With `flavour = "linux"`, gives the parameters the scenario did not set (`given` says which it did)
/// Linux's values, so the resolved parameters say what runs.
pub fn resolve_flavour_defaults(p: &mut Params, given: &dyn Fn(&str) -> bool) {
    if p.choice("flavour") != "linux" {
        return;
    }
    for (name, d) in LINUX_DEFAULTS {
        if !given(name) {
            p.set(name, d.value());
        }
    }
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    match p.choice("flavour") {
        "linux" => Box::new(LinuxVegas::new(p, ctx)),
        _ => Box::new(Ns2Vegas::new(p, ctx)),
    }
}

/// C's conversion of a double to int: truncation toward zero (Rust's `as` also saturates out of range,
/// where C is undefined).
#[inline]
fn c_int(x: f64) -> i64 {
    x as i64
}

/// ns-2.35 `Agent/TCP/Vegas`. Fields keep ns-2's names; times are ns-2's `vegastime()`, seconds since
/// `firstsent_` as doubles. `cwnd` is ns-2's `cwnd_`, duplicate-ACK inflation included; `window()` hands
/// the transport `cwnd_` less the inflation the transport adds itself.
pub struct Ns2Vegas {
    alpha: f64,
    beta: f64,
    gamma: f64,
    /// `rtt_statistic = "min"`: the round's minimum sample instead of v_sumRTT_/v_cntRTT_.
    use_min: bool,
    loss_reduction: f64,
    /// `windowInit_`, which `initial_window()` returns (tcp.cc 1552-1553).
    initial_window: f64,

    cwnd: f64,
    /// `ssthresh_`, an int in ns-2. It starts at `int(window_)` (tcp.cc 473), the receiver window this
    /// controller does not know: infinite here (delaycc's default receiver window never binds).
    ssthresh: f64,
    /// `firstsent_`: set by send_much() whenever it runs with t_seqno_ == 0 (tcp.cc 933-934).
    first_sent: Time,
    /// `firstrecv_` (None: ns-2's -1).
    first_recv: Option<f64>,
    /// `last_ack_`: the highest in-order sequence number acknowledged, snd_una − 1 (-1 at start).
    last_ack: i64,
    /// `dupacks_`.
    dupacks: u32,
    /// `numdupacks_`: the transport's duplicate-ACK threshold, learnt from the count at the first fast
    /// retransmit (3, ns-default.tcl and delaycc's default, until then).
    numdupacks: u32,
    /// The transport's own inflation while it is in fast recovery (it adds one packet per duplicate ACK
    /// from the threshold on): ns-2 keeps that inside `cwnd_`, so `window()` subtracts it.
    transport_inflation: f64,
    in_recovery: bool,
    /// The next transmission is the fast retransmission `output(last_ack_ + 1)` (line 399), which leaves
    /// outside send_much() and so never moves `firstsent_`.
    fast_rtx_next: bool,
    t_cwnd_changed: f64,
    v_rtt: f64,
    v_sa: f64,
    v_sd: f64,
    v_timeout: f64,
    v_begseq: i64,
    v_begtime: f64,
    v_cnt_rtt: u32,
    v_sum_rtt: f64,
    round_min: f64,
    v_base_rtt: f64,
    v_incr: f64,
    v_inc_flag: bool,
    /// Never initialised by ns-2 before the first reduction (heap memory, in practice 0).
    v_newcwnd: f64,
    v_actual: f64,
    /// The last round's delta (the flow's queued packets as Vegas estimates them).
    delta: i64,
    /// The last round's RTT (mean or minimum of its samples), seconds.
    round_rtt: f64,
    /// `v_sendtime_[]` and `v_transmits_[]` of sequence numbers from `sends_base` on, keyed by sequence
    /// number. ns-2 keeps rings of `window_` entries (lines 467-484) whose clearing loop (lines 307-312)
    /// skips an ACK range that wraps the ring, leaving stale transmit counts `window_` packets later; the
    /// ring size is the receiver window, which a controller does not know, so that is not reproduced.
    sends: VecDeque<(f64, u32)>,
    sends_base: u64,
    /// ALT's baseRTT, when the ACKs carry one: it replaces v_baseRTT_ in the rates.
    alt_base: Option<Time>,
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

/// Linux's `snd_ssthresh` before any reduction (TCP_INFINITE_SSTHRESH).
const LINUX_INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CaState {
    Open,
    Recovery,
    Loss,
}

/// Linux `tcp_vegas.c` (mainline) driven by delaycc's transport. Integer window and microsecond RTTs as
/// the kernel keeps them. The kernel's own state machine is mapped onto the transport's events: Recovery
/// from fast retransmit to the end of recovery, Loss from a timeout until everything outstanding then is
/// acknowledged.
pub struct LinuxVegas {
    alpha: f64,
    beta: f64,
    gamma: f64,
    use_mean: bool,
    loss_reduction: f64,
    cwnd: u32,
    ssthresh: u32,
    /// `snd_cwnd_cnt` of tcp_cong_avoid_ai().
    cwnd_cnt: u32,
    base_rtt: u32,
    min_rtt: u32,
    cnt_rtt: u32,
    sum_rtt: u64,
    beg_snd_nxt: u64,
    doing_vegas_now: bool,
    state: CaState,
    high_seq: u64,
    /// The kernel's snd_nxt: the highest sequence number sent plus one (a timeout does not move it back).
    snd_nxt: u64,
    diff: u32,
}

impl LinuxVegas {
    pub fn new(p: &Params, ctx: &FlowContext) -> LinuxVegas {
        let mut v = LinuxVegas {
            alpha: p.num("alpha"),
            beta: p.num("beta"),
            gamma: p.num("gamma"),
            use_mean: p.choice("rtt_statistic") == "mean",
            loss_reduction: p.num("loss_reduction"),
            cwnd: (ctx.initial_window.floor() as u32).max(1),
            ssthresh: LINUX_INFINITE_SSTHRESH,
            cwnd_cnt: 0,
            base_rtt: 0,
            min_rtt: 0,
            cnt_rtt: 0,
            sum_rtt: 0,
            beg_snd_nxt: 0,
            doing_vegas_now: false,
            state: CaState::Open,
            high_seq: 0,
            snd_nxt: 0,
            diff: 0,
        };
        v.init();
        v
    }

    /// tcp_vegas_init(): forget baseRTT and start sampling.
    fn init(&mut self) {
        self.base_rtt = 0x7fff_ffff;
        self.enable();
    }

    /// vegas_enable().
    fn enable(&mut self) {
        self.doing_vegas_now = true;
        self.beg_snd_nxt = self.snd_nxt;
        self.cnt_rtt = 0;
        self.min_rtt = 0x7fff_ffff;
        self.sum_rtt = 0;
    }

    fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// tcp_slow_start(): returns the acked packets left over above ssthresh.
    fn slow_start(&mut self, acked: u32) -> u32 {
        let cwnd = self.cwnd.saturating_add(acked).min(self.ssthresh);
        let left = acked - (cwnd - self.cwnd);
        self.cwnd = cwnd;
        left
    }

    /// tcp_cong_avoid_ai(tp, w, acked).
    fn cong_avoid_ai(&mut self, w: u32, acked: u32) {
        let w = w.max(1);
        if self.cwnd_cnt >= w {
            self.cwnd_cnt = 0;
            self.cwnd += 1;
        }
        self.cwnd_cnt += acked;
        if self.cwnd_cnt >= w {
            let delta = self.cwnd_cnt / w;
            self.cwnd_cnt -= delta * w;
            self.cwnd += delta;
        }
    }

    /// tcp_reno_cong_avoid(), the flow taken to be window-limited (a bulk transfer).
    fn reno_cong_avoid(&mut self, acked: u32) {
        let mut acked = acked;
        if self.in_slow_start() {
            acked = self.slow_start(acked);
            if acked == 0 {
                return;
            }
        }
        self.cong_avoid_ai(self.cwnd, acked);
    }

    /// tcp_vegas_ssthresh().
    fn vegas_ssthresh(&self) -> u32 {
        self.ssthresh.min(self.cwnd.saturating_sub(1))
    }

    /// ca_ops->ssthresh: tcp_reno_ssthresh() is max(cwnd >> 1, 2); loss_reduction generalises the half.
    fn reno_ssthresh(&self) -> u32 {
        ((self.cwnd as f64 * self.loss_reduction).floor() as u32).max(2)
    }

    /// tcp_vegas_cong_avoid().
    fn cong_avoid(&mut self, ack: u64, acked: u32) {
        if !self.doing_vegas_now {
            return self.reno_cong_avoid(acked);
        }
        if ack > self.beg_snd_nxt {
            self.beg_snd_nxt = self.snd_nxt;
            if self.cnt_rtt <= 2 {
                self.reno_cong_avoid(acked);
            } else {
                let rtt =
                    if self.use_mean { (self.sum_rtt / self.cnt_rtt as u64) as u32 } else { self.min_rtt };
                let base = self.base_rtt.max(1);
                let target_cwnd = self.cwnd as u64 * base as u64 / rtt.max(1) as u64;
                // u32 arithmetic as the kernel's (it wraps on huge windows times queueing delays).
                let diff = self.cwnd.wrapping_mul(rtt.saturating_sub(base)) / base;
                self.diff = diff;
                let d = diff as f64;
                if d > self.gamma && self.in_slow_start() {
                    self.cwnd = self.cwnd.min(target_cwnd as u32 + 1);
                    self.ssthresh = self.vegas_ssthresh();
                } else if self.in_slow_start() {
                    self.slow_start(acked);
                } else if d > self.beta {
                    self.cwnd -= 1;
                    self.ssthresh = self.vegas_ssthresh();
                } else if d < self.alpha {
                    self.cwnd += 1;
                }
                if self.cwnd < 2 {
                    self.cwnd = 2;
                }
                // tcp_current_ssthresh() outside a reduction: max(ssthresh, 3/4 cwnd).
                self.ssthresh = self.ssthresh.max((self.cwnd >> 1) + (self.cwnd >> 2));
            }
            self.cnt_rtt = 0;
            self.min_rtt = 0x7fff_ffff;
            self.sum_rtt = 0;
        } else if self.in_slow_start() {
            self.slow_start(acked);
        }
    }
}

impl CongestionControl for LinuxVegas {
    fn window(&self) -> f64 {
        self.cwnd as f64
    }

    fn ssthresh(&self) -> f64 {
        if self.ssthresh >= LINUX_INFINITE_SSTHRESH {
            f64::INFINITY
        } else {
            self.ssthresh as f64
        }
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        // tcp_vegas_pkts_acked(): every ACK with a valid sample, in any state.
        if let Some(r) = ack.rtt {
            let vrtt = (r / 1000).min(u32::MAX as u64 - 1) as u32 + 1;
            self.base_rtt = self.base_rtt.min(vrtt);
            self.min_rtt = self.min_rtt.min(vrtt);
            self.cnt_rtt += 1;
            self.sum_rtt += vrtt as u64;
        }
        if let Some(b) = ack.base_rtt {
            // ALT's baseRTT replaces the minimum.
            self.base_rtt = (b / 1000).min(u32::MAX as u64 - 1) as u32 + 1;
        }
        if ack.in_recovery || self.state == CaState::Recovery {
            // Recovery: the kernel reduces by PRR and does not call cong_avoid.
            return;
        }
        if self.state == CaState::Loss && ack.snd_una >= self.high_seq {
            self.state = CaState::Open;
            self.enable();
        }
        self.cong_avoid(ack.snd_una, ack.acked.min(u32::MAX as u64) as u32);
    }

    fn on_loss(&mut self, _loss: &LossEvent) {
        // tcp_init_cwnd_reduction(), Recovery (vegas_disable); PRR ends at cwnd = ssthresh.
        self.ssthresh = self.reno_ssthresh();
        self.cwnd = self.ssthresh;
        self.cwnd_cnt = 0;
        self.state = CaState::Recovery;
        self.doing_vegas_now = false;
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {
        // tcp_end_cwnd_reduction(), then Open: vegas_enable().
        self.cwnd = self.ssthresh.max(1);
        self.state = CaState::Open;
        self.enable();
    }

    fn on_timeout(&mut self, _now: Time, _inflight: u64) {
        // tcp_enter_loss(): a new ssthresh unless already reducing, cwnd = in flight + 1 = 1.
        if self.state == CaState::Open {
            self.ssthresh = self.reno_ssthresh();
        }
        self.cwnd = 1;
        self.cwnd_cnt = 0;
        self.state = CaState::Loss;
        self.high_seq = self.snd_nxt;
        self.doing_vegas_now = false;
    }

    fn on_send(&mut self, _now: Time, seq: u64, _retransmit: bool, inflight: u64) {
        // CA_EVENT_TX_START: data leaves with nothing in flight (the start, the retransmission a timeout
        // sends, a restart after the window drained): tcp_vegas_init().
        if inflight <= 1 && self.state != CaState::Recovery {
            self.init();
        }
        self.snd_nxt = self.snd_nxt.max(seq + 1);
    }

    fn trace(&self) -> CcTrace {
        let base = (self.base_rtt < 0x7fff_ffff).then(|| self.base_rtt as Time * 1000);
        CcTrace { base_rtt: base, srtt: None }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["backlog_pkts"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.diff as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::registry::algorithm;
    use crate::cc::scripted::ScriptedPath;
    use crate::cc::ParamValue;

    const MS: Time = 1_000_000;
    const SEC: Time = 1_000_000_000;

    fn params(flavour: &str, extra: &[(&'static str, ParamValue)]) -> Params {
        let mut p = algorithm("vegas").expect("registered").defaults();
        p.set("flavour", ParamValue::Str(flavour.into()));
        resolve_flavour_defaults(&mut p, &|n| extra.iter().any(|(k, _)| *k == n));
        for (k, v) in extra {
            p.set(k, v.clone());
        }
        p
    }

    fn ns2(extra: &[(&'static str, ParamValue)]) -> Ns2Vegas {
        Ns2Vegas::new(&params("ns2", extra), &FlowContext::new(2.0))
    }

    fn linux(extra: &[(&'static str, ParamValue)]) -> LinuxVegas {
        LinuxVegas::new(&params("linux", extra), &FlowContext::new(2.0))
    }

    fn ack(now: Time, snd_una: u64, inflight: u64) -> AckEvent {
        AckEvent {
            now,
            rtt: None,
            acked: 1,
            inflight_at_send: 1,
            inflight,
            in_recovery: false,
            snd_una,
            timestamps: None,
            base_rtt: None,
            rate: None,
        }
    }

    fn sampled(now: Time, snd_una: u64, inflight: u64, rtt: Time) -> AckEvent {
        AckEvent { rtt: Some(rtt), ..ack(now, snd_una, inflight) }
    }

    #[test]
    fn linux_flavour_takes_linux_defaults_unless_set() {
        let p = params("linux", &[]);
        assert_eq!((p.num("alpha"), p.num("beta"), p.num("gamma")), (2.0, 4.0, 1.0));
        assert_eq!((p.choice("rtt_statistic"), p.num("loss_reduction")), ("min", 0.5));
        let p = params("linux", &[("alpha", ParamValue::Num(3.0))]);
        assert_eq!((p.num("alpha"), p.num("beta")), (3.0, 4.0));
        let p = params("ns2", &[]);
        assert_eq!((p.num("alpha"), p.num("beta"), p.num("gamma")), (1.0, 3.0, 1.0));
        assert_eq!((p.choice("rtt_statistic"), p.num("loss_reduction")), ("mean", 0.75));
        assert!(matches!(flavour_default("linux", "beta"), Some(ParamDefault::Num(b)) if b == 4.0));
    }

    /// Three samples of 10, 20 and 30 ms fall in one round; the ACK that ends it (90 ms) counts towards the
    /// next round, because ns-2 adds an ACK's sample after the once-per-round section (lines 209-332).
    fn round_of_three(extra: &[(&'static str, ParamValue)]) -> Ns2Vegas {
        let mut v = ns2(extra);
        v.on_send(0, 0, false, 1);
        v.on_ack(&ack(10 * MS, 1, 0)); // the first ACK ends round 0; packet 0 left at vegastime 0: no sample
        assert_eq!((v.v_cnt_rtt, v.v_begseq, v.v_base_rtt), (0, 1, 0.010));
        for seq in 1..=3 {
            v.on_send(10 * MS, seq, false, seq);
        }
        v.on_ack(&ack(20 * MS, 2, 2)); // packet 1 (10 ms) ends round 1: its sample opens round 2
        assert_eq!((v.v_cnt_rtt, v.v_begseq), (1, 4));
        assert_eq!(v.cwnd, 2.0 + 1.0, "delay_growth_ set windowInit_, then the slow-start increment");
        v.on_send(20 * MS, 4, false, 3);
        v.on_ack(&ack(30 * MS, 3, 2)); // packet 2: 20 ms
        v.on_ack(&ack(40 * MS, 4, 1)); // packet 3: 30 ms
        v.on_ack(&ack(110 * MS, 5, 0)); // packet 4 (90 ms) ends round 2
        v
    }

    #[test]
    fn ns2_round_rtt_is_the_mean_of_the_rounds_samples() {
        let v = round_of_three(&[]);
        assert!((v.round_rtt - 0.020).abs() < 1e-12, "{}", v.round_rtt);
        assert_eq!(v.v_cnt_rtt, 1, "packet 4's sample waits for the next round");
        assert!((v.v_sum_rtt - 0.090).abs() < 1e-12);
        // Only one packet (4) left during round 2, so its mean RTT became baseRTT (line 229: rttLen <= 1).
        assert_eq!(v.v_base_rtt, 0.020);
        // The override: the round's minimum.
        let v = round_of_three(&[("rtt_statistic", ParamValue::Str("min".into()))]);
        assert!((v.round_rtt - 0.010).abs() < 1e-12, "{}", v.round_rtt);
    }

    /// A flow in congestion avoidance (cwnd `cwnd`, ssthresh 2, baseRTT 100 ms) at the ACK that ends a
    /// round in which `rtt_len` (>= 10) packets were sent, with t_seqno_ − last_ack_ = 10 and a mean RTT
    /// that makes (expect − actual)·baseRTT = 10 − rtt_len·baseRTT/RTT = `diff`. Returns the controller.
    fn ca_round_len(diff: f64, cwnd: f64, rtt_len: i64) -> Ns2Vegas {
        let mut v = ns2(&[]);
        v.first_recv = Some(0.0);
        v.v_base_rtt = 0.1;
        v.cwnd = cwnd;
        v.ssthresh = 2.0;
        v.last_ack = 99;
        v.v_begseq = 110 - rtt_len;
        let rtt = 0.1 * rtt_len as f64 / (10.0 - diff);
        v.v_sum_rtt = 2.0 * rtt;
        v.v_cnt_rtt = 2;
        // snd_una 101 (seqno 100 >= v_begseq_), 9 in flight: t_seqno_ 110, t_seqno_ − last_ack_ = 10.
        v.on_ack(&ack(SEC, 101, 9));
        v
    }

    /// (delta, cwnd, v_incr) after `ca_round_len` with 10 packets sent in the round.
    fn ca_round(diff: f64, cwnd: f64) -> (i64, f64, f64) {
        let v = ca_round_len(diff, cwnd, 10);
        (v.delta, v.cwnd, v.v_incr)
    }

    #[test]
    fn ns2_delta_is_rounded_to_an_integer_and_compared_with_alpha_and_beta() {
        // delta = int(diff + 0.5) (line 239).
        for (diff, delta) in [(0.0, 0), (0.4, 0), (0.6, 1), (1.4, 1), (3.4, 3), (3.6, 4)] {
            assert_eq!(ca_round(diff, 10.0).0, delta, "diff {diff}");
        }
        // Negative values truncate toward zero, as C's int(): −0.9 -> 0, −1.1 -> −1 (12 packets sent in
        // the round, 10 outstanding now).
        assert_eq!(ca_round_len(-1.4, 10.0, 12).delta, 0);
        assert_eq!(ca_round_len(-1.6, 10.0, 12).delta, -1);
        // A round mean below baseRTT becomes baseRTT before the rates are taken (line 229).
        let v = ca_round_len(-1.6, 10.0, 10);
        assert_eq!(v.delta, 0);
        assert!((v.v_base_rtt - 0.1 / 1.16).abs() < 1e-12, "{}", v.v_base_rtt);
        // delta 0 < alpha: v_incr_ = 1/cwnd, applied on this ACK (cwnd − (t_seqno_ − last_ack_) = 0 <= 2).
        let (_, cwnd, incr) = ca_round(0.4, 10.0);
        assert_eq!((cwnd, incr), (10.1, 0.1));
        // alpha <= delta <= beta: hold.
        for diff in [0.6, 2.0, 3.4] {
            assert_eq!(ca_round(diff, 10.0), (c_int(diff + 0.5), 10.0, 0.0), "diff {diff}");
        }
        // delta > beta: one packet off at once, no increment in the next round.
        assert_eq!(ca_round(3.6, 10.0), (4, 9.0, 0.0));
        // ... but never below 2.
        assert_eq!(ca_round(3.6, 2.5).1, 2.0);
    }

    #[test]
    fn ns2_slow_start_grows_every_other_round() {
        // A path with no queue (1 µs per packet): slow start never meets gamma until the window is large.
        let mut path = ScriptedPath::new(ns2(&[]), 100 * MS, MS / 1000);
        let mut rounds: Vec<(bool, f64)> = Vec::new();
        let mut beg = path.cc.v_begseq;
        while path.cc.ssthresh.is_infinite() && path.now < 10 * SEC {
            path.step();
            if path.cc.v_begseq != beg {
                beg = path.cc.v_begseq;
                rounds.push((path.cc.v_inc_flag, path.cc.cwnd));
            }
        }
        let cwnds: Vec<f64> = rounds.iter().map(|r| r.1).collect();
        // cwnd_ 1 for the first round (syn_ and delay_growth_), windowInit_ 2 on the second ACK plus one.
        assert_eq!(cwnds[..9], [1.0, 3.0, 3.0, 4.0, 6.0, 7.0, 12.0, 13.0, 24.0]);
        // The last round is the exit (delta > gamma at 1536 packets): 7/8 of the window.
        let (&(_, exit), rounds) = rounds.split_last().expect("rounds");
        assert_eq!(exit, rounds[rounds.len() - 1].1 * 7.0 / 8.0);
        for w in rounds.windows(2).skip(5) {
            let ((_, before), (grows_next, after)) = (w[0], w[1]);
            if grows_next {
                // A round without growth: only the +1 of the ACK that opens the next round.
                assert_eq!(after, before + 1.0, "{cwnds:?}");
            } else {
                // A round with growth: one packet per ACK, the window nearly doubles (2w − 2 on this path).
                assert!(after >= 2.0 * before - 2.0 && after <= 2.0 * before, "{cwnds:?}");
            }
        }
        assert!(rounds.len() > 20, "slow start lasted {} rounds", rounds.len());
    }

    /// A flow in slow start (cwnd 16) at the ACK that ends a round with the given delta (as in
    /// `ca_round`); `grows` says whether that round opens a growth round.
    fn ss_round(diff: f64, grows: bool) -> Ns2Vegas {
        let mut v = ns2(&[]);
        v.first_recv = Some(0.0);
        v.v_base_rtt = 0.1;
        v.cwnd = 16.0;
        v.last_ack = 99;
        v.v_begseq = 100;
        v.v_inc_flag = !grows;
        v.v_sum_rtt = 0.1 * 10.0 / (10.0 - diff);
        v.v_cnt_rtt = 1;
        v.on_ack(&ack(SEC, 101, 9));
        v
    }

    #[test]
    fn ns2_slow_start_ends_when_delta_exceeds_gamma_in_a_growth_round() {
        // delta 2 > gamma: ssthresh_ = 2, cwnd_ −= cwnd_/8, no increment.
        let v = ss_round(2.0, true);
        assert_eq!((v.delta, v.ssthresh, v.cwnd, v.v_incr), (2, 2.0, 14.0, 0.0));
        // delta 1 = gamma: keep growing (v_incr_ 1, and the gate lets this ACK add one: 16 − 10 > 2 does
        // not, so cwnd stays).
        let v = ss_round(1.0, true);
        assert_eq!((v.delta, v.ssthresh, v.v_incr), (1, f64::INFINITY, 1.0));
        assert_eq!(v.cwnd, 16.0, "cwnd − (t_seqno_ − last_ack_) = 6 > 2: no increment");
        // Rounds without growth never test gamma.
        let v = ss_round(5.0, false);
        assert_eq!((v.delta, v.ssthresh, v.cwnd, v.v_incr), (5, f64::INFINITY, 16.0, 0.0));
    }

    #[test]
    fn ns2_increment_only_while_the_window_is_used_and_below_ssthresh() {
        // Mid-round ACKs (v_begseq_ ahead) with v_incr_ = 1: cwnd 10.
        let mid_round = |cwnd: f64, ssthresh: f64, incr: f64, inflight: u64| {
            let mut v = ns2(&[]);
            v.first_recv = Some(0.0);
            v.cwnd = cwnd;
            v.ssthresh = ssthresh;
            v.v_incr = incr;
            v.last_ack = 99;
            v.v_begseq = 1000;
            v.on_ack(&ack(SEC, 101, inflight));
            (v.cwnd, v.v_incr)
        };
        // t_seqno_ − last_ack_ = inflight + 1.
        assert_eq!(mid_round(10.0, f64::INFINITY, 1.0, 6), (10.0, 1.0), "10 − 7 = 3 > 2");
        assert_eq!(mid_round(10.0, f64::INFINITY, 1.0, 7), (11.0, 1.0), "10 − 8 = 2");
        // v_incr_ == 1 at ssthresh_: cleared (line 284).
        assert_eq!(mid_round(10.0, 10.0, 1.0, 9), (10.0, 0.0));
        // A congestion-avoidance increment is not cleared.
        assert_eq!(mid_round(10.0, 2.0, 0.1, 9), (10.1, 0.1));
    }

    /// A flow at cwnd `cwnd` whose packet 100 (snd_una) left once at vegastime 1 s (or `transmits` times)
    /// gets `dupacks` duplicate ACKs; the transport enters recovery at the third.
    fn after_dupacks(cwnd: f64, transmits: u32, dupacks: u32, t_cwnd_changed: f64) -> Ns2Vegas {
        let mut v = ns2(&[]);
        v.first_recv = Some(0.0);
        v.cwnd = cwnd;
        v.ssthresh = 2.0;
        v.last_ack = 99;
        v.sends_base = 100;
        v.v_begseq = 1000;
        v.t_cwnd_changed = t_cwnd_changed;
        for _ in 0..transmits {
            v.on_send(SEC, 100, transmits > 1, 10);
        }
        for k in 1..=dupacks {
            v.on_dupack(2 * SEC);
            if k == 3 {
                v.on_loss(&LossEvent { now: 2 * SEC, inflight: 10, lost_was_retransmit: false });
                v.on_send(2 * SEC, 100, true, 10);
            }
        }
        v
    }

    #[test]
    fn ns2_fast_retransmit_keeps_three_quarters_of_the_integer_window() {
        // win = int(10.9) = 10, win − (win >> 2) = 8; cwnd_ = 8 + 3 duplicates, the transport adds those.
        let v = after_dupacks(10.9, 1, 3, 0.0);
        assert_eq!((v.v_newcwnd, v.cwnd, v.window()), (8.0, 11.0, 8.0));
        // Two more duplicates: ns-2 and the transport both add one each.
        let mut v = after_dupacks(10.9, 1, 5, 0.0);
        assert_eq!((v.cwnd, v.window()), (13.0, 8.0));
        // The next new ACK deflates to v_newcwnd_ and sets ssthresh_ = 2 (lines 194-198).
        v.on_ack(&AckEvent { in_recovery: true, ..ack(3 * SEC, 101, 9) });
        v.on_recovery_exit(3 * SEC, 9);
        assert_eq!((v.cwnd, v.ssthresh, v.window()), (8.0, 2.0, 8.0));
        // With exactly numdupacks_ duplicates ns-2 does not deflate: the window stays 8 + 3.
        let mut v = after_dupacks(10.9, 1, 3, 0.0);
        v.on_ack(&AckEvent { in_recovery: true, ..ack(3 * SEC, 101, 9) });
        assert_eq!(v.window(), 11.0);
        // Small windows go to 2; a lost retransmission halves.
        assert_eq!(after_dupacks(3.9, 1, 3, 0.0).v_newcwnd, 2.0);
        assert_eq!(after_dupacks(10.0, 2, 3, 0.0).v_newcwnd, 5.0);
        // No reduction when cwnd_ changed after the packet left: only the transport's inflation.
        let v = after_dupacks(10.0, 1, 3, 1.5);
        assert_eq!((v.cwnd, v.window(), v.t_cwnd_changed), (10.0, 7.0, 1.5));
        // loss_reduction generalises win >> 2: win − floor(win·(1 − r)).
        let mut v = ns2(&[("loss_reduction", ParamValue::Num(0.5))]);
        v.cwnd = 11.0;
        v.sends_base = 0;
        v.on_send(SEC, 0, false, 1);
        v.first_sent = 0;
        v.sends[0].0 = 1.0;
        for _ in 0..3 {
            v.on_dupack(2 * SEC);
        }
        v.on_loss(&LossEvent { now: 2 * SEC, inflight: 10, lost_was_retransmit: false });
        assert_eq!(v.v_newcwnd, 6.0, "11 − floor(5.5)");
    }

    #[test]
    fn ns2_timeout_restarts_from_two_packets() {
        let mut v = after_dupacks(11.7, 1, 4, 0.0);
        // cwnd_ 8 + 4 = 12 at the timeout: ssthresh_ = (int)(12/2).
        v.on_timeout(5 * SEC, 10);
        assert_eq!((v.cwnd, v.window(), v.ssthresh, v.v_newcwnd), (2.0, 2.0, 6.0, 0.0));
        assert_eq!(v.t_cwnd_changed, 5.0);
        let mut v = ns2(&[]);
        v.cwnd = 3.0;
        v.on_timeout(SEC, 3);
        assert_eq!((v.cwnd, v.ssthresh), (2.0, 2.0));
    }

    /// Runs `cc` for 60 s over a 1000-packet/s bottleneck with 50 ms of propagation; returns the packets
    /// waiting behind the one in service, averaged over the last 20 s, and the final window.
    fn equilibrium<C: CongestionControl>(cc: C) -> (f64, f64) {
        let mut path = ScriptedPath::new(cc, 50 * MS, MS);
        let (mut sum, mut n) = (0.0, 0.0);
        while path.now < 60 * SEC {
            path.step();
            if path.now > 40 * SEC {
                sum += (path.queue_pkts() - 1.0).max(0.0);
                n += 1.0;
            }
        }
        (sum / n, path.cc.window())
    }

    #[test]
    fn ns2_equilibrium_keeps_between_alpha_and_beta_packets_queued() {
        let (queue, w) = equilibrium(ns2(&[]));
        assert!((1.0..=3.0).contains(&queue), "queue {queue}, window {w}");
        assert!((52.0..=55.0).contains(&w), "window {w} for a 51-packet pipe");
        let wide = [("alpha", ParamValue::Num(4.0)), ("beta", ParamValue::Num(8.0))];
        let (queue, w) = equilibrium(ns2(&wide));
        assert!((4.0..=8.0).contains(&queue), "queue {queue}, window {w}");
    }

    #[test]
    fn linux_decides_on_the_rounds_minimum_rtt() {
        // Congestion avoidance at cwnd 20, baseRTT 100 ms; a round of three samples then its last ACK.
        let round = |samples: [Time; 3], extra: &[(&'static str, ParamValue)]| {
            let mut v = linux(extra);
            v.cwnd = 20;
            v.ssthresh = 10;
            v.base_rtt = 100_001;
            v.snd_nxt = 120;
            v.beg_snd_nxt = 100;
            for (k, r) in samples.into_iter().enumerate() {
                v.on_ack(&sampled(SEC, 98 + k as u64, 20, r));
            }
            v.on_ack(&ack(SEC, 101, 19));
            (v.diff, v.cwnd, v.beg_snd_nxt)
        };
        // min 105 ms: diff = 20·5000/100001 = 0 < alpha: +1; the next round ends at snd_nxt.
        assert_eq!(round([130 * MS, 105 * MS, 140 * MS], &[]), (0, 21, 120));
        // The mean (125 ms) would say diff 4.99 -> 4: hold.
        assert_eq!(
            round([130 * MS, 105 * MS, 140 * MS], &[("rtt_statistic", ParamValue::Str("mean".into()))]).1,
            20
        );
        // min 110 ms: diff 1; min 112 ms: diff 2 = alpha: hold; 126 ms: diff 5 > beta: −1.
        assert_eq!(round([110 * MS; 3], &[]).1, 21);
        assert_eq!(round([112 * MS; 3], &[]), (2, 20, 120));
        assert_eq!(round([126 * MS; 3], &[]), (5, 19, 120));
    }

    #[test]
    fn linux_slow_start_exit_reno_rounds_and_loss() {
        let mut v = linux(&[]);
        v.cwnd = 20;
        v.base_rtt = 100_001;
        v.snd_nxt = 120;
        v.beg_snd_nxt = 100;
        for k in 0..3 {
            v.on_ack(&sampled(SEC, 98 + k, 20, 150 * MS));
        }
        assert_eq!(v.cwnd, 23, "slow start: one per ACK between round ends");
        v.on_ack(&ack(SEC, 101, 19));
        // diff = 23·50000/100001 = 11 > gamma: cwnd = min(23, 23·100001/150001 + 1 = 16), ssthresh = 15.
        assert_eq!((v.diff, v.cwnd, v.ssthresh), (11, 16, 15));
        // A round with two samples or fewer behaves as Reno (here congestion avoidance: no change yet).
        v.snd_nxt = 140;
        v.on_ack(&sampled(SEC, 110, 20, 150 * MS));
        v.on_ack(&ack(SEC, 121, 19));
        assert_eq!((v.cwnd, v.cwnd_cnt), (16, 1));
        // Fast retransmit: Reno's half; recovery exit keeps it and restarts sampling.
        v.on_loss(&LossEvent { now: SEC, inflight: 16, lost_was_retransmit: false });
        assert_eq!((v.cwnd, v.ssthresh), (8, 8));
        v.on_recovery_exit(SEC, 8);
        assert!(v.doing_vegas_now && v.cnt_rtt == 0);
        // Timeout: Reno's half, one packet, baseRTT forgotten when the retransmission leaves.
        v.on_timeout(2 * SEC, 8);
        assert_eq!((v.cwnd, v.ssthresh), (1, 4));
        v.on_send(2 * SEC, 121, true, 1);
        assert_eq!(v.base_rtt, 0x7fff_ffff);
    }

    #[test]
    fn linux_equilibrium_keeps_between_alpha_and_beta_packets_queued() {
        let (queue, w) = equilibrium(linux(&[]));
        assert!((2.0..=4.0).contains(&queue), "queue {queue}, window {w}");
    }
}
