//! A flow's transport settings: the profile, the retransmission timer, NewReno's variants.

use crate::time::Time;

/// Loss recovery run by the transport (see `CongestionControl::recovery`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recovery {
    /// Fast retransmit and fast recovery; any new ACK ends recovery (RFC 5681 Reno).
    Reno,
    /// Partial ACKs keep recovery going (RFC 6582; ns-2 Agent/TCP/Newreno, tcp/tcp-newreno.cc).
    NewReno,
    /// The ns-2 FAST module's own recovery (tcp/tcp-fast.cc recv/dupack_action/send_much): duplicate
    /// ACKs count only when the SACK scoreboard changes (without SACK every loss ends in a timeout),
    /// `on_loss` on the third, sending while pipe < cwnd, no window inflation, the `stale_after()` rule,
    /// and no timer backoff on a timeout.
    FastModule,
}

/// Which group of transport defaults a scenario starts from (top-level `profile`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// ns-2.35's one-way agents as configured by `tcl/lib/ns-default.tcl`.
    Ns2,
    /// A Linux-like host: IW10, no SYN modelling, 1 ms clock, RFC 6298 timer.
    Linux,
}

/// How the retransmission timer is estimated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtoKind {
    /// ns-2's `rtt_update`/`rtt_timeout` (tcp/tcp.cc:576, :540): one timed packet per RTT, samples in
    /// ticks, fixed-point SRTT/RTTVAR, backoff rules of `rtt_backoff` (tcp/tcp.cc:622).
    Ns2,
    /// RFC 6298 on every ACK of a packet sent once (Karn), samples quantised to `rtt_tick`.
    Rfc6298,
}

/// When a NewReno partial ACK restarts the retransmission timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartialTimer {
    /// Only on the first partial ACK of a recovery ("impatient", ns-2 `newreno_changes1_ 1`,
    /// tcp/tcp-newreno.cc:93; RFC 6582 §4.1 variant).
    FirstPartial,
    /// On every partial ACK ("slow-but-steady", RFC 6582 §3.2 step 5).
    EveryPartial,
}

/// Which duplicate-ACK episodes may start fast retransmit after a timeout or an earlier recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoverGuard {
    /// ns-2 `bug_fix_` (tcp/tcp-newreno.cc:116, tcp/tcp.cc dupack_action): only when the cumulative ACK
    /// passes `recover_ = maxseq_`, set at every timeout and every fast retransmit.
    Ns2,
    /// RFC 6582 §3.2 step 1 / §4.2: after a timeout, only when the ACK covers the highest packet sent.
    Rfc6582,
}

/// Transport settings of a flow (`[transport]` at top level gives the defaults, `[flows.transport]`
/// overrides them per flow). `profile` picks the starting values.
#[derive(Clone, Debug)]
pub struct TransportConfig {
    pub profile: Profile,
    pub min_rto: Time,
    pub max_rto: Time,
    pub initial_rto: Time,
    pub delayed_ack: bool,
    pub delayed_ack_timeout: Time,
    pub initial_window: f64,
    pub receiver_window: u64,
    pub dupack_threshold: u32,
    /// Receiver clock minus sender clock, nanoseconds (only ALT's receiver timestamps see it).
    pub receiver_clock_offset: i64,
    /// Honour the algorithm's pacing rate (false: send as the window allows even if the algorithm paces).
    pub pacing: bool,
    /// Open with a header-only SYN; data starts when it is acknowledged. None: the algorithm's default
    /// (`CongestionControl::sends_syn`: ns-2's Agent/TCP/Vegas sends none, every other agent does).
    pub syn: Option<bool>,
    pub rto: RtoKind,
    /// Clock granularity of the RTT samples the timer sees.
    pub rtt_tick: Time,
    /// RFC 3042 limited transmit (ns-2 `singledup_`).
    pub limited_transmit: bool,
    pub newreno_timer: PartialTimer,
    /// Most packets sent per ACK during NewReno fast recovery (0: no limit).
    pub recovery_maxburst: u32,
    pub recover_guard: RecoverGuard,
    /// SACK; None: the algorithm's default (on for the FAST module's recovery).
    pub sack: Option<bool>,
    /// ns-2 `partial_ack_` (Sack1 and FAST): a partial ACK sends two packets and restarts the timer
    /// only on the first partial ACK; false: it frees two packets of pipe and restarts the timer.
    pub partial_ack: bool,
    /// The flow negotiated ECN (RFC 3168): its new data packets are ECN-capable, its receiver echoes CE
    /// marks and its sender answers the echoes once per window (`transport/sender/ecn.rs`).
    pub ecn: bool,
}

impl TransportConfig {
    /// ns-2.35's defaults (tcl/lib/ns-default.tcl line numbers in each comment).
    pub fn ns2() -> Self {
        TransportConfig {
            profile: Profile::Ns2,
            min_rto: 200_000_000,             // minrto_ 0.2, ns-default.tcl:971
            max_rto: 60_000_000_000,          // maxrto_ 60, ns-default.tcl:969
            initial_rto: 3_000_000_000,       // rtxcur_init_ 3.0, ns-default.tcl:976
            delayed_ack: false,               // Agent/TCPSink acks every packet (tcp/tcp-sink.cc:358)
            delayed_ack_timeout: 100_000_000, // Agent/TCPSink/DelAck interval_ 100ms, ns-default.tcl:1085
            initial_window: 2.0,              // windowInit_ 2, ns-default.tcl:935
            receiver_window: 100_000,         // (ns-2 window_ 20 is always overridden by scripts)
            dupack_threshold: 3,              // numdupacks_ 3, ns-default.tcl:924
            receiver_clock_offset: 0,
            pacing: true,
            syn: None, // syn_ true, ns-default.tcl:937 (delay_growth_ true, :1062); Vegas sends none
            rto: RtoKind::Ns2,
            rtt_tick: 10_000_000,                      // tcpTick_ 0.01, ns-default.tcl:967
            limited_transmit: true,                    // singledup_ 1, ns-default.tcl:1002
            newreno_timer: PartialTimer::FirstPartial, // newreno_changes1_ 1, ns-default.tcl:1099
            recovery_maxburst: 2, // send_much(0, 0, 2) in recovery, tcp/tcp-newreno.cc:300-302
            recover_guard: RecoverGuard::Ns2, // bugFix_ true, ns-default.tcl:954
            sack: None,
            partial_ack: false, // partial_ack_ false, ns-default.tcl:989
            ecn: false,         // ecn_ 0, ns-default.tcl:948; Linux requests ECN only with tcp_ecn = 1
        }
    }

    /// A Linux-like host; see docs/modelling.md "Transport profiles" for each source.
    pub fn linux() -> Self {
        TransportConfig {
            profile: Profile::Linux,
            initial_window: 10.0,       // RFC 6928; Linux TCP_INIT_CWND 10
            initial_rto: 1_000_000_000, // RFC 6298 §2.1; Linux TCP_TIMEOUT_INIT
            syn: Some(false),
            rto: RtoKind::Rfc6298,
            rtt_tick: 1_000_000,                       // 1 ms clock (HZ=1000 jiffies)
            limited_transmit: true,                    // RFC 3042; Linux tcp_limited_transmit
            newreno_timer: PartialTimer::EveryPartial, // RFC 6582 §3.2 step 5
            recovery_maxburst: 0,
            recover_guard: RecoverGuard::Rfc6582,
            ..Self::ns2()
        }
    }

    pub fn for_profile(p: Profile) -> Self {
        match p {
            Profile::Ns2 => Self::ns2(),
            Profile::Linux => Self::linux(),
        }
    }

    /// The `sack` setting with the algorithm's default filled in.
    /// Whether the flow opens with a SYN, given its algorithm's default.
    pub fn syn_for(&self, algorithm_sends_syn: bool) -> bool {
        self.syn.unwrap_or(algorithm_sends_syn)
    }

    pub fn sack_for(&self, recovery: Recovery) -> bool {
        self.sack.unwrap_or(recovery == Recovery::FastModule)
    }
}

impl Default for TransportConfig {
    fn default() -> Self {
        Self::ns2()
    }
}
