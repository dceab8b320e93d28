//! Congestion control: one small trait, one file per algorithm, except the FAST family (`fast/`), whose
//! variants share FAST's controller and add one part each.
//!
//! The transport owns sequence numbers, loss detection and recovery bookkeeping (fast retransmit, NewReno
//! partial ACKs, RTO); an algorithm owns its window. The hooks follow Linux `tcp_congestion_ops` and
//! quinn's `Controller`: the transport tells the algorithm what happened (an ACK with its RTT sample and
//! the window in flight when the acked packet left, a loss, the end of recovery, a timeout, a tick) and
//! reads back the window and, if the algorithm wants one, a pacing rate.

pub mod registry;

mod alt;
pub mod bbr;
pub mod copa;
pub mod cubic;
pub mod fast;
pub mod ledbat;
pub mod maxfilter;
mod newreno;
pub mod reno;
pub mod round;
pub mod rttbased;
#[cfg(test)]
pub mod scripted;
pub mod sctp;
pub mod swift;
pub mod tcp_lp;
pub mod timely;
pub mod vegas;

pub use crate::model::params::{ParamKind, ParamSpec, ParamValue, Params};
pub use crate::model::Recovery;
pub use registry::{algorithm, algorithms, build_controller, registry_json, AlgorithmInfo};

use crate::time::{secs, Time};

/// What the transport knows about a new cumulative ACK (one that advances `snd_una`).
#[derive(Clone, Copy, Debug)]
pub struct AckEvent<'a> {
    pub now: Time,
    /// RTT of the packet that triggered this ACK, if it was sent only once (Karn's rule). With ALT this is
    /// the forward trip plus the minimum backward trip (see `cc/alt.rs`).
    pub rtt: Option<Time>,
    /// Packets newly acknowledged by this ACK.
    pub acked: u64,
    /// Packets in flight (sent, not yet acknowledged) when the acked packet was sent, itself included.
    pub inflight_at_send: u32,
    /// Packets in flight now, after this ACK.
    pub inflight: u64,
    /// True while the sender is in fast recovery (including the ACK that ends it).
    pub in_recovery: bool,
    /// Highest cumulative ACK (next expected sequence number).
    pub snd_una: u64,
    /// The receiver's clock when the echoed data packet arrived (T2) and when this ACK left it (T3): with
    /// `now` and `rtt`, the receiver timestamps (`timestamps()`). Two plain words rather than an
    /// `Option<AckTimestamps>`: every ACK of every algorithm built that option's five words, for the
    /// three algorithms that read them.
    pub rcv_arrival: u64,
    pub rcv_leave: u64,
    /// A baseRTT measured outside the algorithm (ALT's min forward + min backward trip); when present,
    /// delay-based algorithms use it instead of their own minimum RTT.
    pub base_rtt: Option<Time>,
    /// A delivery-rate sample, only for algorithms that ask for them (`wants_rate_samples`). Borrowed:
    /// a copy in the event cost every ACK of every algorithm its six words.
    pub rate: Option<&'a RateSample>,
}

impl AckEvent<'_> {
    /// Receiver timestamps of this ACK, when the echoed data packet was a first transmission (the ACK has
    /// an RTT sample, `now` − T1): T1 is `now` − `rtt`, as the sender measures the sample. Read them from
    /// the transport's event: ALT's wrapped algorithm gets ALT's RTT in its event, and so no timestamps
    /// of meaning (Vegas and FAST, the algorithms it wraps, do not read them).
    #[inline]
    pub fn timestamps(&self) -> Option<AckTimestamps> {
        self.rtt.map(|r| AckTimestamps {
            sent: self.now - r,
            rcv_arrival: self.rcv_arrival,
            rcv_leave: self.rcv_leave,
            acked: self.now,
        })
    }
}

/// One delivery-rate sample (draft-cheng-iccrg-delivery-rate-estimation): how many packets were delivered
/// over how long, measured from the most recently sent of the packets this ACK covers. Counts are packets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RateSample {
    /// Packets delivered between that packet's send and this ACK (0: no valid sample on this ACK).
    pub delivered: u64,
    /// The interval they were delivered over: the longer of the send and the ACK intervals.
    pub interval: Time,
    /// The connection's delivered count when that packet was sent (BBR counts rounds with it).
    pub prior_delivered: u64,
    /// The connection's delivered count after this ACK.
    pub delivered_total: u64,
    /// The sample was taken while the application, not the network, limited the sending rate: it may
    /// underestimate the bandwidth.
    pub app_limited: bool,
    /// Packets in the network after this ACK: sent and not acknowledged, minus those the duplicate ACKs
    /// reported delivered (the "pipe" of RFC 6675 without SACK).
    pub pipe: u64,
}

impl RateSample {
    /// Delivery rate in packets per second, if this ACK gave a sample.
    pub fn rate_pps(&self) -> Option<f64> {
        (self.delivered > 0 && self.interval > 0).then(|| self.delivered as f64 / secs(self.interval))
    }
}

/// The four instants of one RTT sample as ALT (P004) names them. T2 and T3 are read on the receiver's
/// clock, which may be offset from the sender's by an unknown constant: they are stored as two's-complement
/// nanoseconds, so only differences are meaningful.
#[derive(Clone, Copy, Debug)]
pub struct AckTimestamps {
    /// T1: the data packet left the sender (sender clock).
    pub sent: Time,
    /// T2: the data packet arrived at the receiver (receiver clock).
    pub rcv_arrival: u64,
    /// T3: the ACK left the receiver (receiver clock).
    pub rcv_leave: u64,
    /// T4: the ACK arrived at the sender (sender clock).
    pub acked: Time,
}

impl AckTimestamps {
    /// T2 - T1: forward trip plus the clock offset.
    pub fn forward_raw(&self) -> i64 {
        self.rcv_arrival.wrapping_sub(self.sent) as i64
    }

    /// T4 - T3: backward trip minus the clock offset.
    pub fn backward_raw(&self) -> i64 {
        self.acked.wrapping_sub(self.rcv_leave) as i64
    }
}

/// A loss detected by three duplicate ACKs (fast retransmit).
#[derive(Clone, Copy, Debug)]
pub struct LossEvent {
    pub now: Time,
    /// Packets in flight when the loss was detected.
    pub inflight: u64,
    /// True if the packet believed lost had already been retransmitted once.
    pub lost_was_retransmit: bool,
}

/// Estimates an algorithm exposes for the time series and the summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct CcTrace {
    pub base_rtt: Option<Time>,
    /// The algorithm's own smoothed/average RTT (FAST's avgRTT, VFAST's SRTT ...).
    pub srtt: Option<Time>,
}

/// What the recorder reads of an algorithm at each sample.
#[derive(Clone, Copy, Debug)]
pub struct CcSample {
    pub window: f64,
    pub ssthresh: f64,
    pub trace: CcTrace,
}

pub trait CongestionControl {
    /// Current congestion window in packets (may be fractional; the sender uses its integer part).
    fn window(&self) -> f64;

    /// Slow-start threshold in packets, for reporting (infinite if unset).
    fn ssthresh(&self) -> f64 {
        f64::INFINITY
    }

    /// A new cumulative ACK arrived.
    fn on_ack(&mut self, ack: &AckEvent);

    /// `on_ack`, then the window after it: the sender reads the window after every ACK, and one indirect
    /// call does both. The default is compiled for each algorithm, where its two calls are direct; an
    /// override must do exactly that (FAST's returns the window from its usual path, saving the call).
    fn on_ack_window(&mut self, ack: &AckEvent) -> f64 {
        self.on_ack(ack);
        self.window()
    }

    /// A new cumulative ACK that carries ECN-Echo arrived (flows with ECN only; after `on_ecn` if the
    /// echo was answered). RFC 3168 §6.1.2: the window SHOULD NOT grow on it, as ns-2's TcpAgent does
    /// not (no opencwnd()) and Linux does not while in CWR. The default takes it as any ACK, as ns-2's
    /// FAST and Vegas agents and BBR do; Reno, NewReno and CUBIC hold the window.
    fn on_echoing_ack(&mut self, ack: &AckEvent) {
        self.on_ack(ack)
    }

    /// A duplicate ACK arrived (before or during recovery).
    fn on_dupack(&mut self, _now: Time) {}

    /// Fast retransmit: the transport enters recovery after this call and adds the usual NewReno
    /// inflation (one packet per duplicate ACK) on top of `window()` until recovery ends.
    fn on_loss(&mut self, loss: &LossEvent);

    /// The ACK that covers the recovery point arrived; `inflight` is what is in flight after it.
    fn on_recovery_exit(&mut self, now: Time, inflight: u64);

    /// The retransmission timer fired; `inflight` is what was in flight before it.
    fn on_timeout(&mut self, now: Time, inflight: u64);

    /// The receiver echoed a CE mark (ECN-Echo, RFC 3168 §6.1.2); the transport calls this at most once
    /// per window of data (`transport/sender/ecn.rs`), with what is in flight. The default reduces as for
    /// a loss found by duplicate ACKs, with nothing to retransmit: `on_loss`, then at once
    /// `on_recovery_exit`. Algorithms say in their own file what they do instead.
    fn on_ecn(&mut self, now: Time, inflight: u64) {
        self.on_loss(&LossEvent { now, inflight, lost_was_retransmit: false });
        self.on_recovery_exit(now, inflight);
    }

    /// A packet left the sender (sequence number, whether it is a retransmission, packets in flight after it).
    fn on_send(&mut self, _now: Time, _seq: u64, _retransmit: bool, _inflight: u64) {}

    /// `on_send`, then the window after it, in one indirect call as `on_ack_window`. Not for overriding.
    fn on_send_window(&mut self, now: Time, seq: u64, retransmit: bool, inflight: u64) -> f64 {
        self.on_send(now, seq, retransmit, inflight);
        self.window()
    }

    /// Period of `on_tick`, if the algorithm wants one.
    fn tick_interval(&self) -> Option<Time> {
        None
    }

    fn on_tick(&mut self, _now: Time) {}

    /// Pacing rate in bits per second of data packets on the wire (`FlowContext::packet_bytes`), if the
    /// algorithm paces. The transport keeps pacing state only for algorithms that say `paces()`.
    fn pacing_rate(&self) -> Option<f64> {
        None
    }

    /// Whether this algorithm may ever return a pacing rate (read once, when the flow is built), so the
    /// transport costs nothing for algorithms that never pace.
    fn paces(&self) -> bool {
        false
    }

    /// Whether `on_send` and `on_dupack` may do anything (read once, when the flow is built): for an
    /// algorithm that says no, the sender skips both indirect calls, one per packet sent and one per
    /// duplicate ACK. An algorithm that implements either must leave this true.
    fn hears_sends(&self) -> bool {
        true
    }

    /// Whether ACK events should carry delivery-rate samples (read once, when the flow is built); keeping
    /// per-packet send state costs time, so only algorithms that use it ask.
    fn wants_rate_samples(&self) -> bool {
        false
    }

    /// Whether NewReno partial-ACK handling applies (false gives classic Reno: any new ACK ends recovery).
    /// Only read through `recovery()`'s default.
    fn newreno_recovery(&self) -> bool {
        true
    }

    /// Which loss recovery the transport runs for this algorithm (read once, when the flow is built).
    /// The default follows `newreno_recovery()`. With SACK on, Reno and NewReno become ns-2's
    /// Agent/TCP/Sack1 recovery (`transport/sack.rs`).
    fn recovery(&self) -> Recovery {
        if self.newreno_recovery() {
            Recovery::NewReno
        } else {
            Recovery::Reno
        }
    }

    /// Whether the algorithm has ns-2 Vegas's fine-grained retransmit (tcp-vegas.cc `vegas_expire`,
    /// `v_worried_`), read once: a duplicate ACK, or one of the two new ACKs after a retransmission, whose
    /// first unacknowledged packet has been out for the algorithm's own timeout is answered by resending it.
    /// Such an algorithm's agent has its own duplicate-ACK handling, without limited transmit.
    fn fine_retransmit(&self) -> bool {
        false
    }

    /// Whether packet `seq` (the first unacknowledged) has been out, since its latest transmission, for the
    /// algorithm's fine-grained timeout or longer (`vegas_expire`).
    fn expired(&self, _now: Time, _seq: u64) -> bool {
        false
    }

    /// A fast retransmission entered before the duplicate-ACK threshold because the packet had expired.
    fn on_early_loss(&mut self, loss: &LossEvent) {
        self.on_loss(loss)
    }

    /// The packet was resent on a new ACK because it had expired (`v_worried_`); no window change.
    fn on_fine_retransmit(&mut self) {}

    /// Whether the ns-2 agent this algorithm models opens with a SYN (the transport's `syn` default):
    /// every Agent/TCP does (`syn_ true`) except Agent/TCP/Vegas, which builds its own packets.
    fn sends_syn(&self) -> bool {
        true
    }

    /// The connection's opening SYN was acknowledged after `rtt` (only when the transport opens with a
    /// SYN, as ns-2's agents do by default). The ns-2 FAST module seeds baseRTT and avgRTT with it.
    fn on_handshake(&mut self, _now: Time, _rtt: Time) {}

    /// During recovery, a packet unacknowledged for longer than this is sent again before anything else
    /// (the ns-2 FAST module's 2·avgRTT rule); None: no such rule.
    fn stale_after(&self) -> Option<Time> {
        None
    }

    fn trace(&self) -> CcTrace {
        CcTrace::default()
    }

    /// `window()`, `ssthresh()` and `trace()` together: one dynamic call per flow and sample instead of
    /// three (with a thousand flows, sampling every 10 ms makes two million of them in 20 s).
    fn sample(&self) -> CcSample {
        CcSample { window: self.window(), ssthresh: self.ssthresh(), trace: self.trace() }
    }

    /// Names of extra per-flow time series this algorithm exposes (VQO, backlog estimate, mode ...).
    fn extra_metrics(&self) -> &'static [&'static str] {
        &[]
    }

    /// Current values of `extra_metrics`, in the same order.
    fn extra_values(&self, _out: &mut Vec<f64>) {}
}

/// What an algorithm needs to know about its flow when it is built.
#[derive(Clone, Copy, Debug)]
pub struct FlowContext {
    pub mss_bytes: u32,
    /// Bytes on the wire of a data packet (payload and headers): the unit of pacing rates.
    pub packet_bytes: u32,
    pub initial_window: f64,
    /// Seed of the flow's own random stream (`Rng::stream(seed, ...)`), for algorithms that randomise.
    pub rng_seed: u64,
    /// Links on the flow's forward path when it starts (Swift scales its target delay with it, as the
    /// paper does with the hop count it reads from the TTL).
    pub hops: u32,
}

impl FlowContext {
    /// A context for tests and tools: 1000-byte packets with 40 bytes of headers, seed 1, one hop.
    pub fn new(initial_window: f64) -> FlowContext {
        FlowContext { mss_bytes: 960, packet_bytes: 1000, initial_window, rng_seed: 1, hops: 1 }
    }
}
