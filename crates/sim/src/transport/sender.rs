//! The sending side: an optional SYN exchange, window-limited transmission, limited transmit, duplicate-ACK
//! fast retransmit, Reno/NewReno recovery with partial ACKs (ns-2 tcp-newreno.cc, RFC 6582), SACK
//! recovery as ns-2's Agent/TCP/Sack1 (tcp-sack1.cc) and the ns-2 FAST module's own recovery
//! (tcp-fast.cc), the retransmission timer (ns-2's or RFC 6298's, `rto.rs`) and go-back-N after a timeout
//! (as ns-2's one-way TCP agents do). The congestion-control algorithm sizes the window; the sender decides
//! which packets leave and when recovery starts and ends. The two SACK recoveries are in
//! `sender/sack_recovery.rs`, the counters in `stats.rs`.

use super::convergence::ConvergenceTracker;
use super::deque::SeqRing;
use super::pacing::Pacer;
use super::rate_sample::RateSampler;
use super::rto::Rto;
use super::stats::SenderStats;
use crate::cc::{AckEvent, CongestionControl, LossEvent, Recovery};
use crate::model::{PartialTimer, RecoverGuard, TransportConfig};
use crate::time::{as_f64, Time};
pub use ecn::EcnSender;
use sack_recovery::SackSender;

mod ecn;
mod sack_recovery;

/// A data packet the sender wants transmitted now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxRequest {
    pub seq: u64,
    pub retransmit: bool,
    pub inflight_at_send: u32,
    /// When this sequence number was first transmitted (the application's message entered the network).
    pub first_sent: Time,
}

/// Where the data packets the sender decides go, in the order it decides them. The simulation's ACK path
/// hands down a sink that sends each one at once (`sim/network.rs`, `DataSink`); every other caller
/// passes `Queue`, and the requests wait in `Sender::txq` until the simulation sends them.
pub trait TxSink {
    /// Whether `send` takes packets; false for `Queue`, whose requests go to `txq`.
    const DIRECT: bool;
    /// Sends `tx`, which sender `s` has just decided.
    fn send(&mut self, s: &Sender, tx: &TxRequest);
}

/// The sink of every caller but the ACK path: requests wait in `Sender::txq`.
pub struct Queue;

impl TxSink for Queue {
    const DIRECT: bool = false;
    fn send(&mut self, _: &Sender, _: &TxRequest) {
        unreachable!("queued requests wait in txq")
    }
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
    /// `cc.hears_sends()`, read once: whether `on_send` and `on_dupack` are worth calling.
    pub(super) cc_hears_sends: bool,
    /// The flow has a rate sampler or a pacer to tell of every packet sent: one test per packet instead of
    /// two for the flows with neither (`update_send_hooks`).
    send_hooks: bool,
    /// `cc.window()` as the algorithm last left it, refreshed after every call into it that may change it
    /// (`sync_window`, or `on_ack_window`'s answer): the window average before `on_ack` and the send limit
    /// after it cost two loads, not two indirect calls (18 instructions a packet at 1000 flows). Every
    /// call into the algorithm goes through the sender (`on_tick` included), and `try_send`, for callers
    /// outside it, refreshes it too. Read through `window()`.
    cc_window: f64,
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
    dupacks: u32,
    dupack_threshold: u32,
    pub in_recovery: bool,
    recover: u64,
    /// Fast retransmit may start only once snd_una exceeds this (after a timeout, RFC 6582 §3.2; with
    /// ns-2's guard also after a fast retransmit, ns-2 `recover_`/`bug_fix_`).
    recover_guard: Option<u64>,
    /// What NewReno recovery adds to the algorithm's window, packets: ns-2's dupwnd_ less any cut of
    /// cwnd_ itself by partial window deflation (tcp-newreno.cc:75), which delaycc holds here until
    /// recovery ends. Kept as one number so the window costs one addition.
    inflation: f64,
    /// ns-2's dupwnd_ during recovery.
    dupwnd: f64,
    rwnd: u64,
    pub rto: Rto,
    pub mode: Mode,
    limited_transmit: bool,
    /// The algorithm has ns-2 Vegas's fine-grained retransmit (`CongestionControl::fine_retransmit`).
    fine: bool,
    /// `v_worried_`: new ACKs still to check for an expired first packet after a retransmission.
    worried: u64,
    /// The partial-ACK timer rule and whether this recovery has had its first partial ACK.
    first_partial_only: bool,
    firstpartial: bool,
    recovery_maxburst: u32,
    guard: RecoverGuard,
    /// ns-2 `partial_ack_` for the SACK recoveries.
    partial_ack: bool,
    /// Sending needs more than the window test: the flow has not started, a SYN is outstanding, SACK
    /// recovery, pacing, or a burst limit in recovery. One flag keeps the common path to one test
    /// (`update_unusual`).
    unusual: bool,
    /// The SYN exchange: Some while the SYN is unacknowledged.
    pub handshake: Option<Handshake>,
    /// A SYN to transmit now (Some(retransmission)), emptied by the simulation like `txq`.
    pub syn_tx: Option<bool>,
    syn: bool,
    sack_enabled: bool,
    /// SACK recovery state (Sack1 and FastModule modes).
    sk: Option<Box<SackSender>>,
    pub rto_deadline: Option<Time>,
    /// When the pending RTO event fires (`lazy_timer::arm_at`), `Time::MAX` while none is pending.
    pub rto_event_at: Time,
    /// Packets the simulation must transmit, filled by every call below that has no direct `TxSink`
    /// (and by the calls with one once something waits here, so that order holds), emptied by the
    /// simulation right after. Usually one or two; it starts with room for four: at 64 its 2 KiB buffer
    /// spread a thousand flows' heap state over four times as many pages.
    pub txq: Vec<TxRequest>,
    /// First transmission time of every unacknowledged sequence number, from snd_una on.
    first_sent: SeqRing<Time>,
    pub convergence: ConvergenceTracker,
    /// Counters and statistics (`stats.rs`): measurement, kept apart from the protocol's state.
    pub stats: SenderStats,
    /// Only for algorithms that pace (`pacing.rs`); None costs one branch per send attempt.
    pub pacer: Option<Pacer>,
    /// Only for algorithms that use delivery-rate samples (`rate_sample.rs`).
    rate: Option<Box<RateSampler>>,
    /// The answer to ECN-Echo and the ECN bits of data packets (`sender/ecn.rs`), only for flows with
    /// `ecn`.
    ecn: Option<EcnSender>,
}

/// A window in whole packets: at least one, the floor of `w` above. `as` truncates, which for w >= 1 is
/// the floor; this avoids a libm call (x86-64 has no SSE4.1 rounding instruction by default). NaN, infinity
/// and w < 1 give one packet. Below 2^63 the signed conversion gives the same result in far fewer
/// instructions than the unsigned one (the SACK send loop spent 18 a packet on it).
#[inline(always)]
fn whole_packets(w: f64) -> u64 {
    if (1.0..9.0e18).contains(&w) {
        // SAFETY: w is finite and its integer part fits an i64, as `to_int_unchecked` requires. `as`
        // would add five instructions to saturate values out of that range and map NaN to zero.
        unsafe { w.to_int_unchecked::<i64>() as u64 }
    } else if w.is_finite() && w >= 1.0 {
        w as u64
    } else {
        1
    }
}

/// The loss recovery a flow runs: its algorithm's `recovery()` combined with its `sack` setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Reno,
    NewReno,
    /// ns-2 Agent/TCP/Sack1 (tcp/tcp-sack1.cc).
    Sack1,
    /// The ns-2 FAST module's recovery (tcp/tcp-fast.cc); its scoreboard stays empty without SACK.
    Fast,
}

/// The SYN in flight: when it was last sent, and whether it was sent more than once (Karn).
#[derive(Clone, Copy, Debug)]
pub struct Handshake {
    pub sent_at: Time,
    pub retransmitted: bool,
}

impl Sender {
    pub fn new(cc: Box<dyn CongestionControl>, cfg: &TransportConfig, limit: Option<u64>) -> Sender {
        let recovery = cc.recovery();
        let syn = cfg.syn_for(cc.sends_syn());
        let sack = cfg.sack_for(recovery);
        let mode = match (recovery, sack) {
            (Recovery::FastModule, _) => Mode::Fast,
            (_, true) => Mode::Sack1,
            (Recovery::NewReno, false) => Mode::NewReno,
            (Recovery::Reno, false) => Mode::Reno,
        };
        let mut s = Sender {
            snd_una: 0,
            snd_nxt: 0,
            max_sent: 0,
            limit,
            app_stopped: false,
            started: false,
            dupacks: 0,
            dupack_threshold: cfg.dupack_threshold,
            in_recovery: false,
            recover: 0,
            recover_guard: None,
            inflation: 0.0,
            dupwnd: 0.0,
            rwnd: cfg.receiver_window,
            rto: Rto::new(cfg),
            mode,
            // ns-2's Vegas handles duplicate ACKs itself, without send_one() (tcp-vegas.cc 351-405).
            limited_transmit: cfg.limited_transmit && !cc.fine_retransmit(),
            fine: cc.fine_retransmit(),
            worried: 0,
            first_partial_only: cfg.newreno_timer == PartialTimer::FirstPartial,
            firstpartial: false,
            recovery_maxburst: cfg.recovery_maxburst,
            guard: cfg.recover_guard,
            partial_ack: cfg.partial_ack,
            unusual: false,
            handshake: None,
            syn_tx: None,
            syn,
            sack_enabled: sack,
            sk: matches!(mode, Mode::Sack1 | Mode::Fast).then(|| Box::new(SackSender::default())),
            rto_deadline: None,
            rto_event_at: Time::MAX,
            txq: Vec::with_capacity(4),
            first_sent: SeqRing::default(),
            rate: cc.wants_rate_samples().then(|| Box::new(RateSampler::new())),
            cc_hears_sends: cc.hears_sends(),
            send_hooks: false,
            cc_window: cc.window(),
            convergence: ConvergenceTracker::default(),
            stats: SenderStats::default(),
            pacer: None,
            ecn: cfg.ecn.then(EcnSender::default),
            cc,
        };
        s.update_unusual();
        s.update_send_hooks();
        s
    }

    /// Whether this flow's ACKs should carry SACK blocks.
    pub fn sack(&self) -> bool {
        self.sack_enabled
    }

    /// Whether the flow opens with a SYN.
    pub fn syn(&self) -> bool {
        self.syn
    }

    /// Spaces data packets at the algorithm's pacing rate from now on (packets of `packet_bytes` on the
    /// wire). Only worth calling for an algorithm that `paces()`.
    pub fn enable_pacing(&mut self, packet_bytes: u32) {
        self.pacer = Some(Pacer::new(packet_bytes));
        self.update_unusual();
        self.update_send_hooks();
    }

    /// The flow recovers with SACK (Sack1 or the FAST module).
    #[inline]
    pub fn has_sack(&self) -> bool {
        self.sk.is_some()
    }

    pub fn inflight(&self) -> u64 {
        self.snd_nxt - self.snd_una
    }

    /// The window the sender obeys now: the algorithm's, plus NewReno inflation, capped by the receiver.
    #[inline(always)]
    pub fn effective_window(&self) -> u64 {
        whole_packets(self.window() + self.inflation).min(self.rwnd)
    }

    /// The algorithm's window (`cc_window`). Debug builds and this crate's tests check it against the
    /// algorithm's own answer.
    #[inline(always)]
    fn window(&self) -> f64 {
        if cfg!(any(test, debug_assertions)) {
            self.check_window();
        }
        self.cc_window
    }

    /// Panics if `cc_window` is stale: some call into the algorithm was not followed by `sync_window`.
    #[cold]
    #[inline(never)]
    fn check_window(&self) {
        let w = self.cc.window();
        assert!(w.to_bits() == self.cc_window.to_bits(), "stale cc_window {} != {w}", self.cc_window);
    }

    /// Reads the algorithm's window again after a call that may have changed it (`cc_window`).
    #[inline(always)]
    pub(super) fn sync_window(&mut self) {
        self.cc_window = self.cc.window();
    }

    pub fn done(&self) -> bool {
        self.limit.is_some_and(|l| self.snd_una >= l)
    }

    /// Adds the window since the last change to the window average (`stats.rs`).
    fn account_cwnd(&mut self, now: Time) {
        let w = self.window();
        self.stats.account_cwnd(now, || w);
    }

    pub fn start(&mut self, now: Time) {
        self.started = true;
        self.update_unusual();
        self.stats.start(now);
        if self.syn {
            self.send_syn(now, false);
        }
        self.try_send(now);
    }

    /// Sends the SYN (ns-2 output() of seqno 0 with syn_: header only, tcp/tcp.cc:710-716). It is not
    /// data: it counts in no packet statistics.
    fn send_syn(&mut self, now: Time, retransmitted: bool) {
        self.handshake = Some(Handshake { sent_at: now, retransmitted });
        self.unusual = true;
        self.syn_tx = Some(retransmitted);
        self.rto_deadline = Some(now + self.rto.rto());
    }

    /// The SYN's ACK arrived; `echo_tx_time` is the acknowledged SYN's send time. Data may flow from now
    /// on with the algorithm's initial window (ns-2 sets cwnd_ = initial_window() on the ACK of seqno 0
    /// when delay_growth_, tcp/tcp.cc:1829).
    pub fn on_syn_ack(&mut self, now: Time, echo_tx_time: Time, echo_retransmit: bool) {
        let Some(h) = self.handshake else { return };
        self.handshake = None;
        self.update_unusual();
        let rtt = now.saturating_sub(echo_tx_time);
        // The SYN is the first timed packet (rtt_seq_ 0); a retransmitted one is not timed (Karn).
        if !h.retransmitted && !echo_retransmit {
            self.rto.on_syn_sample(rtt, now);
        }
        self.rto_deadline = None;
        self.cc.on_handshake(now, rtt);
        self.sync_window();
        self.send_allowed(now);
        if self.rto_deadline.is_none() && self.snd_una < self.max_sent {
            self.rto_deadline = Some(now + self.rto.rto());
        }
    }

    /// Ends accounting of the window average (at the end of the run or when the transfer completes).
    pub fn stop(&mut self, now: Time) {
        self.account_cwnd(now);
        self.app_stopped = true;
    }

    /// Ends accounting of the window average (at the end of the run or when the transfer completes).
    pub fn finish_accounting(&mut self, now: Time) {
        self.account_cwnd(now);
        self.stats.stop_average();
    }

    /// `transmit_inline` for the rarer callers (retransmissions), which need not carry its code.
    #[inline(never)]
    fn transmit(&mut self, now: Time, seq: u64, retransmit: bool) {
        self.transmit_inline(now, seq, retransmit, &mut Queue)
    }

    /// Queues packet `seq` for transmission. Inlined into `send_next`, the path of nearly every packet:
    /// out of line its call cost 20 instructions a packet in saved registers and moved arguments.
    #[inline(always)]
    fn transmit_inline<S: TxSink>(&mut self, now: Time, seq: u64, retransmit: bool, sink: &mut S) {
        let flight = if retransmit && seq < self.snd_nxt { self.inflight() } else { self.inflight() + 1 };
        // Packets actually in the network: during recovery the sequence-space flight also counts every
        // packet already delivered out of order, which NewReno's inflation tracks (one per duplicate
        // ACK). The ns-2 FAST module's old_pif is likewise its SACK "pipe".
        // Back through i64 for the same reason as `as_f64`: one instruction, and a packet count is far
        // below 2^63. The test is on the bits (an integer compare, where `== 0.0` took five instructions):
        // -0.0 takes the general branch, which gives the same count.
        let inflight_at_send = if self.inflation.to_bits() == 0 {
            flight.max(1)
        } else {
            (as_f64(flight) - self.inflation).max(1.0) as i64 as u64
        };
        let first_sent = if seq == self.first_sent.end() {
            self.first_sent.push(now);
            now
        } else {
            self.first_sent.get(seq).unwrap_or(now)
        };
        let tx = TxRequest {
            seq,
            retransmit,
            inflight_at_send: inflight_at_send.min(u32::MAX as u64) as u32,
            first_sent,
        };
        // What an earlier call of this event queued leaves first.
        if S::DIRECT && self.txq.is_empty() {
            sink.send(self, &tx);
        } else {
            self.txq.push(tx);
        }
        self.stats.on_transmit(retransmit);
        if retransmit {
            if let Some(sk) = &mut self.sk {
                sk.note_retransmit(seq, now);
            }
        }
        if self.cc_hears_sends {
            self.cc_window = self.cc.on_send_window(now, seq, retransmit, inflight_at_send);
        }
        if self.send_hooks {
            self.tell_send_hooks(now, seq);
        }
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rto.rto());
        }
    }

    /// Tells the rate sampler and the pacer, those the flow has, of packet `seq` sent. Out of line: inlined,
    /// it cost FAST's flows 6 instructions a packet in registers saved around it, and a run of three BBR
    /// flows (sampler and pacer) took no more instructions with the call than without it.
    #[inline(never)]
    fn tell_send_hooks(&mut self, now: Time, seq: u64) {
        if let Some(r) = &mut self.rate {
            r.on_send(now, seq, self.max_sent - self.snd_una);
        }
        if let Some(p) = &mut self.pacer {
            p.on_send(now, self.cc.pacing_rate());
        }
    }

    /// Recomputes `send_hooks` after the state it summarises changed.
    fn update_send_hooks(&mut self) {
        self.send_hooks = self.rate.is_some() || self.pacer.is_some();
    }

    /// The algorithm's periodic tick at `now`, then whatever the window allows. Returns the period of the
    /// next tick, as the algorithm gives it after the tick and before the sends.
    pub fn on_tick(&mut self, now: Time) -> Option<Time> {
        self.cc.on_tick(now);
        let next = self.cc.tick_interval();
        self.try_send(now);
        next
    }

    /// Sends whatever the window allows. For callers outside the sender, which cannot know whether the
    /// algorithm changed since the sender last read its window: it is read again first.
    #[inline(always)]
    pub fn try_send(&mut self, now: Time) {
        self.sync_window();
        self.send_allowed(now);
    }

    /// `try_send` with `cc_window` up to date. Inlined into the ACK path: out of line, its call costs more
    /// than its usual work of one or two packets.
    #[inline(always)]
    fn send_allowed(&mut self, now: Time) {
        if self.unusual {
            return self.try_send_unusual(now);
        }
        self.send_within_window(now, self.effective_window(), &mut Queue);
    }

    /// `try_send` at the end of the usual ACK, with the sending of an `unusual` flow inlined too: every
    /// ACK of a SACK flow needs it, and so does every ACK of a NewReno recovery without SACK, which lasts
    /// as many round trips as it has holes.
    #[inline(always)]
    pub(super) fn try_send_after_ack<S: TxSink>(&mut self, now: Time, sink: &mut S) {
        if self.unusual {
            return self.try_send_unusual_inline(now, sink);
        }
        self.send_within_window(now, self.effective_window(), sink);
    }

    /// Sends packets in sequence while they fit in window `wnd`.
    #[inline(always)]
    fn send_within_window<S: TxSink>(&mut self, now: Time, wnd: u64, sink: &mut S) {
        while self.snd_nxt < self.snd_una + wnd {
            if !self.send_next(now, sink) {
                break;
            }
        }
    }

    /// `try_send` for everything but a plain window-limited flow (see `unusual`).
    #[inline(never)]
    fn try_send_unusual(&mut self, now: Time) {
        self.try_send_unusual_inline(now, &mut Queue)
    }

    #[inline(always)]
    fn try_send_unusual_inline<S: TxSink>(&mut self, now: Time, sink: &mut S) {
        if !self.started || self.handshake.is_some() {
            return;
        }
        if self.sk.is_some() {
            // Outside recovery and unpaced, Sack1's and FAST's send_much() is the window test alone.
            if !self.in_recovery && self.pacer.is_none() {
                return self.send_within_window_sack(now, sink);
            }
            return self.send_much_sack(now);
        }
        let wnd = self.effective_window();
        if self.pacer.is_some() {
            return self.try_send_paced(now, wnd);
        }
        if self.in_recovery && self.recovery_maxburst > 0 {
            return self.try_send_burst(now, wnd, sink);
        }
        self.send_within_window(now, wnd, sink);
    }

    /// Tells the algorithm `cc` of a duplicate ACK, if it listens (`hears`: the sender's `cc_hears_sends`),
    /// and refreshes `cc_window`. Over the fields rather than `self`, so that the SACK path can call it
    /// while it holds its scoreboard.
    #[inline(always)]
    pub(super) fn cc_on_dupack(cc: &mut dyn CongestionControl, hears: bool, cc_window: &mut f64, now: Time) {
        if hears {
            cc.on_dupack(now);
            *cc_window = cc.window();
        }
    }

    /// Recomputes `unusual` after the state it summarises changed.
    fn update_unusual(&mut self) {
        self.unusual = !self.started
            || self.handshake.is_some()
            || self.sk.is_some()
            || self.pacer.is_some()
            || (self.in_recovery && self.recovery_maxburst > 0);
    }

    /// NewReno's sending during fast recovery: at most `recovery_maxburst` packets per ACK (ns-2
    /// `send_much(0, 0, 2)`, tcp/tcp-newreno.cc:300-302).
    #[inline(always)]
    fn try_send_burst<S: TxSink>(&mut self, now: Time, wnd: u64, sink: &mut S) {
        let mut n = 0;
        while n < self.recovery_maxburst && self.snd_nxt < self.snd_una + wnd {
            if !self.send_next(now, sink) {
                break;
            }
            n += 1;
        }
    }

    /// Sends the next packet in sequence (a new one, or one again after a timeout's go-back-N). Returns
    /// false when the application has nothing more to send.
    #[inline(always)]
    fn send_next<S: TxSink>(&mut self, now: Time, sink: &mut S) -> bool {
        let is_new = self.snd_nxt >= self.max_sent;
        if is_new && !self.has_new_data() {
            let pipe = self.inflight();
            if let Some(r) = &mut self.rate {
                r.mark_app_limited(pipe);
            }
            return false;
        }
        let seq = self.snd_nxt;
        self.snd_nxt += 1;
        if is_new {
            self.rto.on_send_new(seq, now);
        }
        self.transmit_inline(now, seq, !is_new, sink);
        // `max_sent.max(snd_nxt)`: only a new packet moves it (an old one lies below it).
        if is_new {
            self.max_sent = self.snd_nxt;
        }
        true
    }

    #[inline(always)]
    fn has_new_data(&self) -> bool {
        !(self.app_stopped || self.limit.is_some_and(|l| self.snd_nxt >= l))
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
            if !self.send_next(now, &mut Queue) {
                break;
            }
        }
        if let Some(p) = &mut self.pacer {
            p.wakeup = wakeup;
        }
    }

    /// Limited transmit (ns-2 `send_one()`, tcp/tcp.cc:1596; RFC 3042): on the first and second
    /// duplicate ACK, one new packet if it lies within cwnd + dupacks of the cumulative ACK.
    fn send_one(&mut self, now: Time) {
        let cwnd = self.effective_window_no_rwnd();
        if self.snd_nxt < self.snd_una + self.rwnd && self.snd_nxt < self.snd_una + cwnd + self.dupacks as u64
        {
            self.send_next(now, &mut Queue);
        }
    }

    #[inline(always)]
    fn effective_window_no_rwnd(&self) -> u64 {
        whole_packets(self.window())
    }

    /// Whether a duplicate-ACK episode may start fast retransmit (RFC 6582 §3.2 step 1 after a timeout;
    /// ns-2's `highest_ack_ > recover_` test, with its exception for a lost first data packet
    /// (`bugfix_ss_ && highest_ack_ == 0`, tcp/tcp-newreno.cc:120)).
    fn fast_retransmit_allowed(&self) -> bool {
        if self.recover_guard.is_none_or(|g| self.snd_una > g) {
            return true;
        }
        self.guard == RecoverGuard::Ns2
            && self.mode != Mode::Fast
            && self.snd_una == if self.syn { 0 } else { 1 }
    }

    /// Sets the guard at a timeout or fast retransmit (ns-2 `recover_ = maxseq_`).
    fn set_guard(&mut self) {
        self.recover_guard = Some(match self.guard {
            RecoverGuard::Ns2 => self.max_sent,
            RecoverGuard::Rfc6582 => self.max_sent - 1,
        });
    }

    /// Processes an ACK. The plain RTT sample is `now - echo_tx_time` when the triggering packet was a
    /// first transmission (Karn's rule with timestamps). `sack` holds the ACK's SACK blocks (empty for
    /// flows without SACK).
    #[inline(always)]
    pub fn on_ack(&mut self, now: Time, a: &AckInput, sack: &[(u64, u64)]) {
        self.ack::<false, _>(now, a, sack, &mut Queue)
    }

    /// `on_ack` with the packets it sends going to `sink` as they are decided rather than through `txq`
    /// (the simulation's ACK path: the queue's push, the loop over it and the re-read of each request
    /// cost `newreno-10-ss` 14 instructions a packet, `fast-10-fit` 22 through `on_sack_ack`).
    #[inline(always)]
    pub fn on_ack_into<S: TxSink>(&mut self, now: Time, a: &AckInput, sack: &[(u64, u64)], sink: &mut S) {
        self.ack::<false, S>(now, a, sack, sink)
    }

    /// `on_ack`; `ECHOING` for an ACK that carries ECN-Echo (`on_ack_echoing`), which the algorithm takes
    /// through `on_echoing_ack`. A constant, so the common path has no test for it.
    #[inline(always)]
    fn ack<const ECHOING: bool, S: TxSink>(
        &mut self,
        now: Time,
        a: &AckInput,
        sack: &[(u64, u64)],
        sink: &mut S,
    ) {
        if self.sk.is_some() {
            // A copy: handing the out-of-line call `a` itself kept the ACK's fields in memory on every
            // path, so that the usual one stored them all and loaded them back.
            let copy = *a;
            return self.on_ack_sack::<ECHOING>(now, &copy, sack);
        }
        let plain_rtt = if a.echo_retransmit { None } else { Some(now.saturating_sub(a.echo_tx_time)) };
        if a.ack > self.snd_una {
            let was_in_recovery = self.in_recovery;
            let ends_recovery = self.in_recovery && (a.ack > self.recover || self.mode == Mode::Reno);
            let partial = was_in_recovery && !ends_recovery;
            let acked = self.new_ack::<ECHOING>(now, a, plain_rtt, was_in_recovery, !partial);
            if ends_recovery {
                self.in_recovery = false;
                self.update_unusual();
                self.inflation = 0.0;
                self.dupwnd = 0.0;
                self.firstpartial = false;
                self.cc.on_recovery_exit(now, self.inflight());
                self.sync_window();
            } else if partial {
                // Partial ACK (tcp-newreno.cc partialnewack, RFC 6582 §3.2 step 5): deflate by what was
                // acked and add back one packet, retransmit the next hole.
                let d = as_f64(acked);
                let cut = self.dupwnd - self.inflation;
                if self.dupwnd > d {
                    self.dupwnd -= d - 1.0;
                    self.inflation = self.dupwnd - cut;
                } else {
                    let cwnd = self.window() - cut;
                    let cut = cut + (d - self.dupwnd).min((cwnd - 1.0).max(0.0));
                    self.dupwnd = 1.0;
                    self.inflation = 1.0 - cut;
                }
                self.transmit(now, self.snd_una, true);
            } else {
                self.firstpartial = false;
            }
            if self.worried > 0 {
                self.check_worried(now);
            }
            if self.done() {
                self.complete(now);
                return;
            }
            // newtimer(): restart while data is outstanding; with newreno_timer = "first_partial" a partial
            // ACK restarts it only if it is the first of this recovery (tcp-newreno.cc:93).
            if !partial || !self.first_partial_only || !self.firstpartial {
                self.rto_deadline =
                    if self.snd_una < self.max_sent { Some(now + self.rto.rto()) } else { None };
            }
            if partial {
                self.firstpartial = true;
            }
            if !self.in_recovery && self.convergence.watching() {
                let (rto, w) = (&self.rto, self.window());
                self.convergence.on_ack(now, w, || rto.srtt().unwrap_or(0));
            }
        } else if a.ack == self.snd_una && self.snd_una < self.max_sent {
            self.dupacks += 1;
            if let Some(r) = &mut self.rate {
                r.on_dupack(now, self.max_sent - self.snd_una);
            }
            Self::cc_on_dupack(&mut *self.cc, self.cc_hears_sends, &mut self.cc_window, now);
            if self.in_recovery {
                self.inflation += 1.0;
                self.dupwnd += 1.0;
            } else if self.dupacks == self.dupack_threshold && self.fast_retransmit_allowed() {
                self.enter_recovery(now, false);
            } else if self.fine && self.dupacks < self.dupack_threshold {
                // ns-2 Vegas: an expired first packet is resent on any duplicate ACK (lines 351-355).
                if self.cc.expired(now, self.snd_una) && self.fast_retransmit_allowed() {
                    self.enter_recovery(now, true);
                }
            } else if self.dupacks < self.dupack_threshold && self.limited_transmit {
                self.send_one(now);
            }
        }
        self.try_send_after_ack(now, sink);
    }

    /// `v_worried_` (tcp-vegas.cc 337-350): on the one or two new ACKs after a retransmission, an expired
    /// first packet is resent at once, with no window change; the first that is not ends the checking.
    #[inline(never)]
    fn check_worried(&mut self, now: Time) {
        self.worried -= 1;
        if self.snd_una < self.max_sent && self.cc.expired(now, self.snd_una) {
            self.dupacks = self.dupack_threshold;
            self.cc.on_fine_retransmit();
            self.sync_window();
            self.transmit(now, self.snd_una, true);
        } else {
            self.worried = 0;
        }
    }

    /// The bookkeeping of a new cumulative ACK shared by every mode: the sent-time queues, the RTT
    /// statistics, the timer sample, the algorithm's `on_ack`. `timer_sample` is false for partial ACKs,
    /// which ns-2 does not time (partialnewack, tcp/tcp-newreno.cc:61). Returns the packets acked.
    #[inline(always)]
    fn new_ack<const ECHOING: bool>(
        &mut self,
        now: Time,
        a: &AckInput,
        plain_rtt: Option<Time>,
        was_in_recovery: bool,
        timer_sample: bool,
    ) -> u64 {
        self.account_cwnd(now);
        let acked = a.ack - self.snd_una;
        self.first_sent.forget_below(a.ack);
        self.snd_una = a.ack;
        self.stats.on_new_ack(now);
        if self.snd_nxt < self.snd_una {
            self.snd_nxt = self.snd_una;
        }
        if timer_sample {
            self.rto.on_new_ack(a.ack, now, plain_rtt);
        } else {
            self.rto.on_partial_ack(a.ack, plain_rtt);
        }
        if let Some(r) = plain_rtt {
            self.stats.on_rtt_sample(r);
        }
        self.dupacks = 0;
        let sample;
        let rate = match &mut self.rate {
            Some(r) => {
                sample = r.on_ack(now, self.snd_una, self.snd_nxt - self.snd_una, self.stats.rtt_min());
                Some(&sample)
            }
            None => None,
        };
        let ev = AckEvent {
            now,
            rtt: plain_rtt,
            acked,
            inflight_at_send: a.echo_inflight,
            inflight: self.inflight(),
            in_recovery: was_in_recovery,
            snd_una: self.snd_una,
            rcv_arrival: a.rcv_arrival,
            rcv_leave: a.rcv_leave,
            base_rtt: None,
            rate,
        };
        if ECHOING {
            self.cc.on_echoing_ack(&ev);
            self.sync_window();
        } else {
            self.cc_window = self.cc.on_ack_window(&ev);
        }
        acked
    }

    fn complete(&mut self, now: Time) {
        self.rto_deadline = None;
        if self.stats.record_completion(now) {
            self.finish_accounting(now);
        }
    }

    /// Fast retransmission: on the threshold's duplicate ACK, or (`early`) on an earlier one because ns-2
    /// Vegas's `vegas_expire` found the packet expired (tcp-vegas.cc 355-402 with `expired >= 0`). An early
    /// entry inflates the window by the duplicates so far and raises the count to the threshold, so that
    /// the next duplicate inflates and cannot enter again (ns-2 raises it only if the packet had left
    /// once; delaycc always does, so a lost retransmission is not fast-retransmitted twice).
    fn enter_recovery(&mut self, now: Time, early: bool) {
        self.account_cwnd(now);
        self.stats.on_fast_retransmit();
        self.convergence.on_loss(now, self.window());
        let inflight = self.max_sent - self.snd_una;
        let loss = LossEvent { now, inflight, lost_was_retransmit: false };
        if early {
            self.cc.on_early_loss(&loss);
        } else {
            self.cc.on_loss(&loss);
        }
        self.sync_window();
        self.in_recovery = true;
        self.update_unusual();
        self.firstpartial = false;
        self.recover = self.max_sent - 1;
        self.ecn_window_reduced(false);
        if self.guard == RecoverGuard::Ns2 {
            self.set_guard();
        }
        // ns-2 dupwnd_ = numdupacks_ (tcp-newreno.cc:174); reset_rtx_timer(1, 0) stops RTT timing.
        self.inflation = if early { self.dupacks as f64 } else { self.dupack_threshold as f64 };
        self.dupwnd = self.inflation;
        if early {
            self.dupacks = self.dupack_threshold;
        }
        self.rto.stop_timing();
        if self.fine {
            self.worried = 2.min(self.snd_nxt - self.snd_una + 1);
        }
        self.transmit(now, self.snd_una, true);
        self.rto_deadline = Some(now + self.rto.rto());
    }

    /// The RTO event fired. Returns true if it was a real timeout (not a stale or rescheduled timer).
    pub fn on_rto_timer(&mut self, now: Time) -> bool {
        match self.rto_deadline {
            Some(d) if d <= now => {}
            _ => return false,
        }
        if let Some(h) = self.handshake {
            // The SYN was lost: back off and send it again. ns-2 also halves ssthresh, restarts cwnd at
            // one and drops windowInit_ to 1 (tcp/tcp.cc:1899-1912, bugfix_ss_): `on_timeout` with one
            // packet in flight does the same to the algorithm's window.
            let _ = h;
            self.account_cwnd(now);
            self.stats.on_timeout();
            self.cc.on_timeout(now, 1);
            self.sync_window();
            self.rto.on_timeout(true);
            self.send_syn(now, true);
            return true;
        }
        if self.snd_una >= self.max_sent {
            self.rto_deadline = None;
            return false;
        }
        self.account_cwnd(now);
        self.stats.on_timeout();
        self.ecn_window_reduced(true);
        self.convergence.on_timeout();
        let inflight = self.max_sent - self.snd_una;
        self.cc.on_timeout(now, inflight);
        self.sync_window();
        if let Some(r) = &mut self.rate {
            r.on_timeout();
        }
        // The FAST module's timeout does not back the timer off (reset_rtx_timer(0, 0), tcp-fast.cc:732).
        self.rto.on_timeout(self.mode != Mode::Fast);
        if let Some(sk) = &mut self.sk {
            sk.after_timeout = true;
            sk.sb.clear();
        }
        self.in_recovery = false;
        self.update_unusual();
        self.inflation = 0.0;
        self.dupwnd = 0.0;
        self.dupacks = 0;
        self.set_guard();
        self.snd_nxt = self.snd_una;
        self.rto_deadline = None;
        self.send_allowed(now);
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

    /// The transport before profiles: no SYN, RFC 6298 timer, no limited transmit.
    fn legacy() -> TransportConfig {
        TransportConfig { limited_transmit: false, rtt_tick: 1, ..TransportConfig::linux() }
    }

    #[test]
    fn whole_packets_is_the_floor_and_at_least_one() {
        let floor_or_one = |w: f64| if w.is_finite() && w >= 1.0 { w.floor() as u64 } else { 1 };
        let edges = [
            f64::NAN,
            f64::NEG_INFINITY,
            -1.0,
            0.0,
            0.999,
            1.0,
            1.5,
            2.0 - f64::EPSILON,
            1e6 + 0.75,
            8.999_999e18,
            9.0e18,
            1.8e19,
            1e300,
            f64::INFINITY,
        ];
        for w in edges {
            assert_eq!(whole_packets(w), floor_or_one(w), "window {w}");
        }
    }

    fn newreno(iw: f64) -> Sender {
        let a = algorithm("newreno").unwrap();
        let cc = (a.build)(&a.defaults(), &FlowContext::new(iw));
        let mut s = Sender::new(cc, &legacy(), None);
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
        s.on_ack(100, &ack(1, 0), &[]);
        assert_eq!(s.txq.len(), 2);
        s.txq.clear();
        s.on_ack(200, &ack(2, 100), &[]);
        s.on_ack(200, &ack(3, 100), &[]);
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
            s.on_ack(100, &ack(0, 0), &[]);
        }
        assert!(s.in_recovery);
        // 10 outstanding, 3 of them reported delivered by the duplicate ACKs: 7 in the network.
        assert_eq!(s.txq[0], TxRequest { seq: 0, retransmit: true, inflight_at_send: 7, first_sent: 0 });
        assert_eq!(s.cc.window(), 5.0);
        s.txq.clear();
        // Partial ACK up to 5: retransmit 5 and stay in recovery.
        s.on_ack(200, &AckInput { echo_retransmit: true, ..ack(5, 100) }, &[]);
        assert!(s.in_recovery);
        assert!(s.txq.iter().any(|t| t.seq == 5 && t.retransmit));
        // Full ACK: leave recovery with cwnd = ssthresh.
        s.on_ack(300, &AckInput { echo_retransmit: true, ..ack(s.max_sent, 200) }, &[]);
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
        s.on_ack(100, &AckInput { echo_retransmit: true, ..ack(1, 0) }, &[]);
        assert_eq!(s.stats.rtt_samples, 0);
        s.on_ack(150, &ack(2, 50), &[]);
        assert_eq!(s.stats.last_rtt(), Some(100));
    }

    #[test]
    fn finite_transfer_stops_at_its_limit() {
        let a = algorithm("newreno").unwrap();
        let cc = (a.build)(&a.defaults(), &FlowContext::new(10.0));
        let mut s = Sender::new(cc, &legacy(), Some(3));
        s.start(0);
        assert_eq!(s.txq.len(), 3);
        s.on_ack(10, &ack(3, 0), &[]);
        assert!(s.done());
        assert_eq!(s.stats.completed_at, Some(10));
        assert_eq!(s.rto_deadline, None);
    }

    // ---- ns-2 profile, SACK and FAST-module recovery ----

    use crate::cc::Recovery;
    use crate::transport::delivery::AppDelivery;
    use crate::transport::receiver::{Echo, Receiver};
    use std::cell::Cell;
    use std::rc::Rc;

    const MS: Time = 1_000_000;

    /// A window that grows by one per ACK up to its initial size, halves on loss and drops to one on
    /// timeout; records the handshake.
    struct TestCc {
        w: f64,
        cap: f64,
        recovery: Recovery,
        handshake: Seen,
        stale: Option<Time>,
    }

    impl CongestionControl for TestCc {
        fn window(&self) -> f64 {
            self.w
        }
        fn on_ack(&mut self, a: &AckEvent) {
            if !a.in_recovery {
                self.w = (self.w + as_f64(a.acked)).min(self.cap);
            }
        }
        fn on_loss(&mut self, _: &LossEvent) {
            self.w = (self.w / 2.0).max(2.0);
        }
        fn on_recovery_exit(&mut self, _: Time, _: u64) {}
        fn on_timeout(&mut self, _: Time, _: u64) {
            self.w = 1.0;
        }
        fn recovery(&self) -> Recovery {
            self.recovery
        }
        fn on_handshake(&mut self, now: Time, rtt: Time) {
            self.handshake.set(Some((now, rtt)));
        }
        fn stale_after(&self) -> Option<Time> {
            self.stale
        }
    }

    /// What `on_handshake` was called with: (now, rtt).
    type Seen = Rc<Cell<Option<(Time, Time)>>>;

    fn test_cc(w: f64, recovery: Recovery) -> (Box<TestCc>, Seen) {
        let h = Rc::new(Cell::new(None));
        (Box::new(TestCc { w, cap: w, recovery, handshake: h.clone(), stale: None }), h)
    }

    fn ns2_nosyn() -> TransportConfig {
        TransportConfig { syn: Some(false), ..TransportConfig::ns2() }
    }

    #[test]
    fn syn_handshake_opens_with_the_initial_window_and_reports_its_rtt() {
        let (cc, hs) = test_cc(2.0, Recovery::NewReno);
        let mut s = Sender::new(cc, &TransportConfig::ns2(), None);
        s.start(0);
        // Only the SYN leaves; the first timer is rtxcur_init_ = 3 s.
        assert!(s.txq.is_empty());
        assert_eq!(s.syn_tx.take(), Some(false));
        assert_eq!(s.rto_deadline, Some(3000 * MS));
        assert_eq!(s.stats.pkts_sent, 0, "the SYN is not a data packet");
        s.txq.clear();
        s.try_send(50 * MS);
        assert!(s.txq.is_empty(), "no data before the SYN is acknowledged");
        s.on_syn_ack(100 * MS, 0, false);
        assert_eq!(hs.get(), Some((100 * MS, 100 * MS)));
        assert_eq!(s.txq.iter().map(|t| t.seq).collect::<Vec<_>>(), vec![0, 1], "windowInit_ 2");
        assert_eq!(s.stats.pkts_sent, 2);
        // The SYN was timed: 10 ticks -> t_srtt 80, t_rttvar 20 -> RTO 300 ms from the data's send.
        assert_eq!(s.rto.rto(), 300 * MS);
        assert_eq!(s.rto_deadline, Some(400 * MS));
    }

    #[test]
    fn a_lost_syn_is_resent_after_three_seconds_and_not_timed() {
        let (cc, hs) = test_cc(2.0, Recovery::NewReno);
        let mut s = Sender::new(cc, &TransportConfig::ns2(), None);
        s.start(0);
        s.txq.clear();
        s.syn_tx = None;
        assert!(s.on_rto_timer(3000 * MS));
        assert!(s.txq.is_empty());
        assert_eq!(s.syn_tx, Some(true), "the SYN again");
        assert_eq!(s.rto_deadline, Some(9000 * MS), "backed off to 6 s");
        assert_eq!(s.cc.window(), 1.0, "ns-2 restarts from one packet (wnd_init_ = 1)");
        s.txq.clear();
        s.on_syn_ack(9100 * MS, 3000 * MS, true);
        assert_eq!(hs.get(), Some((9100 * MS, 6100 * MS)));
        assert_eq!(s.txq.len(), 1);
        assert_eq!(s.rto.rto(), 6000 * MS, "no sample from a resent SYN: still backed off");
        assert_eq!(s.stats.timeouts, 1);
        assert_eq!(s.stats.pkts_sent, 1);
    }

    #[test]
    fn limited_transmit_sends_one_new_packet_per_early_duplicate() {
        let (cc, _) = test_cc(4.0, Recovery::NewReno);
        let mut s = Sender::new(cc, &ns2_nosyn(), None);
        s.start(0);
        assert_eq!(s.snd_nxt, 4);
        s.txq.clear();
        s.on_ack(100, &ack(0, 0), &[]);
        assert_eq!(s.txq.iter().map(|t| (t.seq, t.retransmit)).collect::<Vec<_>>(), vec![(4, false)]);
        s.on_ack(110, &ack(0, 0), &[]);
        assert_eq!(s.txq.iter().map(|t| t.seq).collect::<Vec<_>>(), vec![4, 5]);
        s.txq.clear();
        s.on_ack(120, &ack(0, 0), &[]);
        assert_eq!(s.txq[0], TxRequest { seq: 0, retransmit: true, inflight_at_send: 3, first_sent: 0 });
        assert!(s.in_recovery);
        // Off: nothing new on the first two duplicates.
        let (cc, _) = test_cc(4.0, Recovery::NewReno);
        let mut s = Sender::new(cc, &TransportConfig { limited_transmit: false, ..ns2_nosyn() }, None);
        s.start(0);
        s.txq.clear();
        s.on_ack(100, &ack(0, 0), &[]);
        s.on_ack(110, &ack(0, 0), &[]);
        assert!(s.txq.is_empty());
    }

    /// Losses at 0, 3 and 6 of a 10-packet window: recovery at t = 100 ms, partial ACKs at 200 and 300.
    fn partial_ack_deadlines(timer: PartialTimer) -> (Option<Time>, Option<Time>) {
        let (cc, _) = test_cc(10.0, Recovery::NewReno);
        let cfg = TransportConfig { newreno_timer: timer, limited_transmit: false, ..ns2_nosyn() };
        let mut s = Sender::new(cc, &cfg, None);
        s.start(0);
        for _ in 0..3 {
            s.on_ack(100 * MS, &ack(0, 0), &[]);
        }
        assert!(s.in_recovery);
        let rto = s.rto.rto();
        s.on_ack(200 * MS, &AckInput { echo_retransmit: true, ..ack(3, 100 * MS) }, &[]);
        assert!(s.in_recovery);
        let first = s.rto_deadline;
        assert_eq!(first, Some(200 * MS + rto), "the first partial ACK restarts the timer");
        s.on_ack(300 * MS, &AckInput { echo_retransmit: true, ..ack(6, 200 * MS) }, &[]);
        assert!(s.in_recovery);
        (first, s.rto_deadline)
    }

    #[test]
    fn impatient_timer_restarts_only_on_the_first_partial_ack() {
        let (first, second) = partial_ack_deadlines(PartialTimer::FirstPartial);
        assert_eq!(second, first, "newreno_changes1_: later partial ACKs leave the timer running");
        let (first, second) = partial_ack_deadlines(PartialTimer::EveryPartial);
        assert_eq!(second, first.map(|d| d + 100 * MS));
    }

    #[test]
    fn partial_window_deflation_as_ns2() {
        let (cc, _) = test_cc(10.0, Recovery::NewReno);
        let cfg = TransportConfig { limited_transmit: false, ..ns2_nosyn() };
        let mut s = Sender::new(cc, &cfg, None);
        s.start(0);
        for _ in 0..4 {
            s.on_ack(100 * MS, &ack(0, 0), &[]);
        }
        // cwnd 5, dupwnd_ 3 + 1.
        assert_eq!(s.effective_window(), 9);
        // Partial ACK of 2 packets: dupwnd_ 4 > 2 -> dupwnd_ -= 1.
        s.on_ack(200 * MS, &AckInput { echo_retransmit: true, ..ack(2, 0) }, &[]);
        assert_eq!(s.effective_window(), 8);
        // Partial ACK of 6 packets: dupwnd_ 3 <= 6 -> cwnd_ -= 3, dupwnd_ = 1: window 2 + 1.
        s.on_ack(300 * MS, &AckInput { echo_retransmit: true, ..ack(8, 0) }, &[]);
        assert_eq!(s.effective_window(), 3);
    }

    /// A path for whole-recovery tests: data takes `serial` per packet at the bottleneck plus `owd`, ACKs
    /// `owd` back; first transmissions of `drops` are lost. An algorithm with a tick gets it as from the
    /// simulation (`on_tick`, then `try_send`). Returns the sender at `until` and the time the last loss was
    /// repaired (snd_una passed the highest dropped packet).
    fn run_path(s: Sender, drops: &[u64], until: Time) -> (Sender, Option<Time>) {
        let (s, repaired, _) = run_path_sent(s, drops, until, false);
        (s, repaired)
    }

    /// A sink that keeps what it is sent, as the simulation's ACK path sends it.
    struct Record(Vec<TxRequest>);

    impl TxSink for Record {
        const DIRECT: bool = true;
        fn send(&mut self, _: &Sender, tx: &TxRequest) {
            self.0.push(*tx);
        }
    }

    /// `run_path`, also returning every packet sent in order and, per ACK, how many went to a sink and
    /// how many were queued in `txq`; with `sink`, ACKs go in as the simulation hands them over
    /// (`on_ack_into`, `on_sack_ack`), their packets to a `Record` first and then whatever `txq` holds.
    #[allow(clippy::type_complexity)]
    fn run_path_sent(
        mut s: Sender,
        drops: &[u64],
        until: Time,
        sink: bool,
    ) -> (Sender, Option<Time>, Vec<(TxRequest, bool)>) {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        const OWD: Time = 50 * MS;
        const SERIAL: Time = MS;
        #[derive(PartialEq, Eq, PartialOrd, Ord)]
        enum Ev {
            Data(u64, Time, bool),
            Ack(u64, Time, bool, Vec<(u64, u64)>),
            Tick,
        }
        let sack = s.sack();
        let mut rx = Receiver::new(false, 0);
        let mut app = AppDelivery::new(1);
        let mut log = crate::transport::sack::SackLog::default();
        if sack {
            rx.enable_sack();
        }
        let mut q: BinaryHeap<Reverse<(Time, u64, Ev)>> = BinaryHeap::new();
        let mut n = 0u64;
        let mut last_dep = 0;
        let mut repaired = None;
        let last_drop = drops.iter().max().copied().unwrap_or(0);
        s.start(0);
        if let Some(iv) = s.cc.tick_interval() {
            q.push(Reverse((iv.max(1), 0, Ev::Tick)));
        }
        let mut now = 0;
        let mut sent = Vec::new();
        let mut direct = Vec::new();
        loop {
            sent.extend(direct.iter().map(|tx| (*tx, true)));
            sent.extend(s.txq.iter().map(|tx| (*tx, false)));
            for tx in direct.drain(..).chain(s.txq.drain(..)) {
                last_dep = last_dep.max(now) + SERIAL;
                if tx.retransmit || !drops.contains(&tx.seq) {
                    n += 1;
                    q.push(Reverse((last_dep + OWD, n, Ev::Data(tx.seq, now, tx.retransmit))));
                }
            }
            let next = q.peek().map(|Reverse((t, _, _))| *t);
            match (s.rto_deadline, next) {
                (Some(d), n) if n.is_none_or(|n| d < n) => {
                    now = d;
                    if now > until {
                        break;
                    }
                    s.on_rto_timer(now);
                    continue;
                }
                (_, None) => break,
                _ => {}
            }
            let Reverse((t, _, ev)) = q.pop().unwrap();
            now = t;
            if now > until {
                break;
            }
            match ev {
                Ev::Data(seq, sent, retx) => {
                    let echo = Echo { tx_time: sent, inflight_at_send: 1, retransmit: retx, arrival: now };
                    rx.on_data(now, seq, 1000, sent, echo, &mut app);
                    let (serial, _) = rx.record_sack(&mut log);
                    let blocks = log.take(serial).map_or_else(Vec::new, |b| b.as_slice().to_vec());
                    n += 1;
                    q.push(Reverse((now + OWD, n, Ev::Ack(rx.rcv_nxt, sent, retx, blocks))));
                }
                Ev::Ack(a, sent, retx, blocks) => {
                    let input = AckInput { echo_retransmit: retx, ..ack(a, sent) };
                    let mut record = Record(direct);
                    match (sink, s.has_sack()) {
                        (false, _) => s.on_ack(now, &input, &blocks),
                        (true, false) => s.on_ack_into(now, &input, &blocks, &mut record),
                        (true, true) => s.on_sack_ack(now, &input, &blocks, &mut record),
                    }
                    direct = record.0;
                    if repaired.is_none() && s.snd_una > last_drop {
                        repaired = Some(now);
                    }
                }
                Ev::Tick => {
                    if let Some(iv) = s.on_tick(now) {
                        q.push(Reverse((now + iv.max(1), 0, Ev::Tick)));
                    }
                }
            }
        }
        (s, repaired, sent)
    }

    /// The ACK path's sink sends the packets `txq` would have held, in the same order, also when an ACK
    /// queues a retransmission before its new data (the sink's packets must not overtake it).
    #[test]
    fn a_sink_sends_what_the_queue_would_in_the_same_order() {
        let drops: Vec<u64> = [5, 8, 11].into_iter().chain(40..60).collect();
        for name in ["newreno", "reno", "fast", "vegas", "bbr"] {
            for sack in [false, true] {
                let a = algorithm(name).unwrap();
                let cfg = TransportConfig { sack: Some(sack), ..ns2_nosyn() };
                let run = |sink| {
                    let cc = (a.build)(&a.defaults(), &FlowContext::new(10.0));
                    run_path_sent(Sender::new(cc, &cfg, Some(400)), &drops, 20_000 * MS, sink)
                };
                let ((q, _, queued), (d, _, direct)) = (run(false), run(true));
                let seqs = |v: &[(TxRequest, bool)]| v.iter().map(|(tx, _)| *tx).collect::<Vec<_>>();
                assert_eq!(seqs(&queued), seqs(&direct), "{name}, sack {sack}");
                assert_eq!((q.snd_una, q.stats.retransmits), (d.snd_una, d.stats.retransmits));
                assert!(direct.iter().any(|(_, d)| *d), "{name}, sack {sack}: nothing through the sink");
            }
        }
    }

    /// `cc_window` follows every algorithm through slow start, recoveries with and without SACK, timeouts
    /// and ticks: in tests `window()` compares it with the algorithm's own answer on every read.
    #[test]
    fn the_window_cache_follows_every_algorithm() {
        // Three losses in one window, then twenty in a row: a long recovery or a timeout.
        let drops: Vec<u64> = [5, 8, 11].into_iter().chain(40..60).collect();
        for a in crate::cc::algorithms() {
            for sack in [false, true] {
                let cc = (a.build)(&a.defaults(), &crate::cc::FlowContext::new(10.0));
                let cfg = TransportConfig { sack: Some(sack), ..ns2_nosyn() };
                let (s, _) = run_path(Sender::new(cc, &cfg, Some(400)), &drops, 20_000 * MS);
                assert_eq!(s.cc_window.to_bits(), s.cc.window().to_bits(), "{}", a.name);
                assert!(s.stats.fast_retransmits + s.stats.timeouts > 0, "{} recovered from nothing", a.name);
            }
        }
    }

    fn sender(recovery: Recovery, w: f64, cfg: &TransportConfig) -> Sender {
        Sender::new(test_cc(w, recovery).0, cfg, Some(200))
    }

    #[test]
    fn sack1_repairs_three_losses_in_one_round_where_newreno_needs_three() {
        // A window of 20 packets, 100 ms RTT; packets 5, 8 and 11 lost. Recovery starts at 110 ms (third
        // duplicate ACK), the window halves to 10. Without limited transmit: ns-2's pipe_ (LimTransmitFix_
        // false) would count its two packets as in flight and hold the retransmissions back a round.
        let drops = [5, 8, 11];
        let base = TransportConfig { limited_transmit: false, ..ns2_nosyn() };
        let sack = TransportConfig { sack: Some(true), ..base.clone() };
        let (s, t_sack) = run_path(sender(Recovery::NewReno, 20.0, &sack), &drops, 2000 * MS);
        let (n, t_newreno) = run_path(sender(Recovery::NewReno, 20.0, &base), &drops, 2000 * MS);
        assert_eq!((s.stats.timeouts, s.stats.fast_retransmits), (0, 1));
        assert_eq!((n.stats.timeouts, n.stats.fast_retransmits), (0, 1));
        let (t_sack, t_newreno) = (t_sack.unwrap(), t_newreno.unwrap());
        // Sack1 resends all three holes at once: repaired one RTT after the fast retransmit.
        assert!(t_sack < 240 * MS, "Sack1 repaired at {} ms", t_sack / MS);
        // NewReno learns of one hole per partial ACK: three round trips.
        assert!(t_newreno > 400 * MS, "NewReno repaired at {} ms", t_newreno / MS);
        assert_eq!(s.stats.retransmits, 3);
        assert_eq!(s.snd_una, 200);
        assert_eq!(n.snd_una, 200);
    }

    #[test]
    fn fast_module_without_sack_only_times_out_and_with_sack_retransmits_fast() {
        let (cc, _) = test_cc(20.0, Recovery::FastModule);
        let (s, _) = run_path(Sender::new(cc, &ns2_nosyn_sack(false), Some(100)), &[5], 5000 * MS);
        assert!(!s.sack());
        assert_eq!(s.stats.fast_retransmits, 0, "no SACK scoreboard changes, no duplicate ACKs");
        assert!(s.stats.timeouts >= 1);
        assert_eq!(s.snd_una, 100);
        let (cc, _) = test_cc(20.0, Recovery::FastModule);
        let cfg = TransportConfig { sack: None, ..ns2_nosyn() };
        let (s, _) = run_path(Sender::new(cc, &cfg, Some(100)), &[5], 5000 * MS);
        assert!(s.sack(), "sack defaults to on for the FAST module");
        assert_eq!((s.stats.fast_retransmits, s.stats.timeouts), (1, 0));
        assert_eq!(s.snd_una, 100);
    }

    fn ns2_nosyn_sack(sack: bool) -> TransportConfig {
        TransportConfig { sack: Some(sack), ..ns2_nosyn() }
    }

    #[test]
    fn fast_module_timeout_does_not_back_off() {
        let (cc, _) = test_cc(4.0, Recovery::FastModule);
        let mut s = Sender::new(cc, &ns2_nosyn(), None);
        s.start(0);
        let d = s.rto_deadline.unwrap();
        assert!(s.on_rto_timer(d));
        assert_eq!(s.rto_deadline, Some(2 * d), "same RTO again (reset_rtx_timer(0, 0))");
    }

    /// In FAST-module recovery, a packet out for longer than `stale_after()` is resent before anything else.
    #[test]
    fn fast_module_resends_a_stale_packet_first() {
        let run = |stale: Option<Time>| {
            let (mut cc, _) = test_cc(10.0, Recovery::FastModule);
            cc.stale = stale;
            let cfg = TransportConfig { limited_transmit: false, ..ns2_nosyn() };
            let mut s = Sender::new(cc, &cfg, None);
            s.start(0);
            for (i, t) in [(2, 100), (3, 101), (4, 102)] {
                s.on_ack(t * MS, &ack(0, 0), &[(1, i)]);
            }
            assert!(s.in_recovery);
            assert_eq!(s.txq.last().map(|t| (t.seq, t.retransmit)), Some((0, true)));
            s.txq.clear();
            // pipe 10 - 3 = 7, cwnd 5: the third duplicate after these frees a slot.
            for (i, t) in [(5, 200), (6, 201), (7, 202)] {
                s.on_ack(t * MS, &ack(0, 0), &[(1, i)]);
            }
            s.txq.iter().map(|t| (t.seq, t.retransmit)).collect::<Vec<_>>()
        };
        assert_eq!(run(Some(50 * MS)), vec![(0, true)], "0 has been out 102 ms > 50 ms");
        assert_eq!(run(Some(500 * MS)), vec![(10, false)]);
        assert_eq!(run(None), vec![(10, false)]);
    }

    /// A fixed window whose first unacknowledged packet counts as expired from `expired_from` on (ns-2
    /// Vegas's `vegas_expire`); counts early losses and fine retransmissions.
    struct FineCc {
        w: f64,
        expired_from: Time,
        early: Rc<Cell<u32>>,
    }

    impl CongestionControl for FineCc {
        fn window(&self) -> f64 {
            self.w
        }
        fn on_ack(&mut self, _: &AckEvent) {}
        fn on_loss(&mut self, _: &LossEvent) {}
        fn on_early_loss(&mut self, _: &LossEvent) {
            self.early.set(self.early.get() + 1);
        }
        fn on_recovery_exit(&mut self, _: Time, _: u64) {}
        fn on_timeout(&mut self, _: Time, _: u64) {}
        fn newreno_recovery(&self) -> bool {
            false
        }
        fn fine_retransmit(&self) -> bool {
            true
        }
        fn expired(&self, now: Time, _: u64) -> bool {
            now >= self.expired_from
        }
    }

    #[test]
    fn an_expired_packet_is_resent_on_the_first_duplicate_and_after_the_next_new_ack() {
        let early = Rc::new(Cell::new(0));
        let cc = Box::new(FineCc { w: 10.0, expired_from: 50 * MS, early: early.clone() });
        let mut s = Sender::new(cc, &ns2_nosyn(), None);
        s.start(0);
        assert_eq!(s.snd_nxt, 10);
        s.txq.clear();
        // Packets 0 and 3 lost. A duplicate before the fine timeout: nothing, and no limited transmit
        // (ns-2's Vegas has its own duplicate-ACK handling).
        s.on_ack(40 * MS, &ack(0, 0), &[]);
        assert!(s.txq.is_empty() && !s.in_recovery);
        // The next one finds packet 0 expired: fast retransmission at the second duplicate.
        s.on_ack(55 * MS, &ack(0, 0), &[]);
        assert_eq!(early.get(), 1);
        assert!(s.in_recovery);
        assert!(s.txq.iter().any(|t| t.seq == 0 && t.retransmit), "{:?}", s.txq);
        assert_eq!(s.stats.fast_retransmits, 1);
        s.txq.clear();
        // Packet 0's retransmission arrives: the ACK jumps to 3, the hole; 3 has expired too, so the new
        // ACK resends it at once (v_worried_), where a timeout would otherwise follow.
        s.on_ack(100 * MS, &AckInput { echo_retransmit: true, ..ack(3, 55 * MS) }, &[]);
        assert!(s.txq.iter().any(|t| t.seq == 3 && t.retransmit), "{:?}", s.txq);
        assert_eq!(s.stats.timeouts, 0);
    }
}
