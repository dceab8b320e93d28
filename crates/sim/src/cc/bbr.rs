//! BBR v1 (draft-cardwell-iccrg-bbr-congestion-control-00, and the behaviour of Linux's first BBR).
//!
//! BBR models the path with two numbers: the bottleneck bandwidth (the largest delivery rate measured in
//! the last 10 rounds) and the propagation round trip (the smallest RTT of the last 10 s). It paces at a
//! gain times the bandwidth and caps what is in flight at a gain times their product (the BDP). Four
//! modes: Startup (gain 2/ln 2, doubling the rate each round until three rounds in a row bring less than
//! 25 % more bandwidth), Drain (the inverse gain, until the queue Startup built is gone), ProbeBW (a cycle
//! of eight phases of one min RTT each: 1.25 to probe for more bandwidth, 0.75 to drain what that
//! queued, then six at 1) and ProbeRTT (when the min RTT is 10 s old: 4 packets in flight for 200 ms and
//! a round, so the queue empties and the true propagation delay can be seen).
//!
//! Losses: on fast retransmit the window drops to what is in the network and grows only with deliveries
//! for one round (packet conservation), then towards the target; leaving recovery restores the window
//! from before it. A timeout sets the window to one packet, also restored once the data outstanding at
//! the timeout is acknowledged. Not modelled: Linux's long-term bandwidth (policer) estimate and the
//! restart after idle (a flow here is never idle with data to send).
//!
//! ECN: ignored, as BBR v1 does: Linux's bbr sets the window itself (`cong_control`), so the kernel's CWR
//! reduction never applies, and `bbr_ssthresh` leaves ssthresh as it was.

use super::maxfilter::RoundMax;
use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent, RateSample};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::rng::Rng;
use crate::time::{from_secs, secs, Time};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "startup_gain",
        kind: ParamKind::Float { min: 1.0, max: 100.0, min_exclusive: true },
        default: ParamDefault::Num(2.885),
        description: "pacing and window gain in Startup (2/ln 2: the smallest gain that doubles the delivery rate each round)",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §2 and §4.3.2 (BBRHighGain = 2/ln(2)); Linux bbr_high_gain",
    },
    ParamSpec {
        name: "drain_gain",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.3466),
        description: "pacing gain in Drain (ln 2 / 2, the inverse of the Startup gain: empties in one round the queue Startup built)",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.3 (1/BBRHighGain); Linux bbr_drain_gain",
    },
    ParamSpec {
        name: "cwnd_gain",
        kind: ParamKind::Float { min: 1.0, max: 100.0, min_exclusive: false },
        default: ParamDefault::Num(2.0),
        description: "window = cwnd_gain x BDP + quantum in ProbeBW (the slack absorbs delayed and stretched ACKs)",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.4 (cwnd_gain 2); Linux bbr_cwnd_gain",
    },
    ParamSpec {
        name: "probe_up_gain",
        kind: ParamKind::Float { min: 1.0, max: 10.0, min_exclusive: true },
        default: ParamDefault::Num(1.25),
        description: "pacing gain of the first ProbeBW phase (probing for more bandwidth)",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.4.3 (5/4); Linux bbr_pacing_gain[0]",
    },
    ParamSpec {
        name: "probe_down_gain",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.75),
        description: "pacing gain of the second ProbeBW phase (draining the queue the probe built); the other six phases use 1",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.4.3 (3/4); Linux bbr_pacing_gain[1]",
    },
    ParamSpec {
        name: "random_cycle_start",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "start ProbeBW at a random phase other than the 0.75 one, drawn from the flow's own random stream (false: start with the 1.25 phase)",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.4.3 (desynchronises flows); Linux bbr_cycle_rand",
    },
    ParamSpec {
        name: "full_bw_growth",
        kind: ParamKind::Float { min: 1.0, max: 10.0, min_exclusive: true },
        default: ParamDefault::Num(1.25),
        description: "Startup ends when the bandwidth estimate grows by less than this factor ...",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.2 (25 %); Linux bbr_full_bw_thresh",
    },
    ParamSpec {
        name: "full_bw_rounds",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: ParamDefault::Num(3.0),
        description: "... for this many rounds in a row (rounds that were not application-limited)",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.2 (3 rounds); Linux bbr_full_bw_cnt",
    },
    ParamSpec {
        name: "bw_window_rounds",
        kind: ParamKind::Int { min: 1, max: 100000 },
        default: ParamDefault::Num(10.0),
        description: "length of the max filter of delivery-rate samples, rounds",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.1 (BtlBwFilterLen = 10 rounds); Linux bbr_bw_rtts",
    },
    ParamSpec {
        name: "min_rtt_window",
        kind: ParamKind::Duration { min: 0.001, max: 3600.0 },
        default: ParamDefault::Num(10.0),
        description: "length of the min filter of RTT samples; when it expires BBR enters ProbeRTT, seconds",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.2 (RTpropFilterLen = 10 s); Linux bbr_min_rtt_win_sec",
    },
    ParamSpec {
        name: "probe_rtt_duration",
        kind: ParamKind::Duration { min: 0.0, max: 60.0 },
        default: ParamDefault::Num(0.2),
        description: "time ProbeRTT holds the window at min_pipe_cwnd (and at least one round), seconds",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.5 (ProbeRTTDuration = 200 ms); Linux bbr_probe_rtt_mode_ms",
    },
    ParamSpec {
        name: "min_pipe_cwnd",
        kind: ParamKind::Float { min: 1.0, max: 1e6, min_exclusive: false },
        default: ParamDefault::Num(4.0),
        description: "smallest window outside loss recovery, and the window in ProbeRTT, packets",
        source: "draft-cardwell-iccrg-bbr-congestion-control-00 §2 (BBRMinPipeCwnd = 4 packets); Linux bbr_cwnd_min_target",
    },
    ParamSpec {
        name: "pacing_margin",
        kind: ParamKind::Float { min: 0.0, max: 0.5, min_exclusive: false },
        default: ParamDefault::Num(0.01),
        description: "pace this fraction below gain x bandwidth, so the estimate does not build a queue of its own",
        source: "Linux tcp_bbr.c bbr_pacing_margin_percent (1 %); draft-00 has no margin (set 0 for it)",
    },
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

/// Phases of the ProbeBW gain cycle.
const CYCLE_LEN: usize = 8;

pub struct Bbr {
    startup_gain: f64,
    drain_gain: f64,
    probe_bw_cwnd_gain: f64,
    cycle_gains: [f64; CYCLE_LEN],
    random_cycle_start: bool,
    full_bw_growth: f64,
    full_bw_rounds: u32,
    min_rtt_window: Time,
    probe_rtt_duration: Time,
    min_pipe_cwnd: f64,
    pacing_margin: f64,
    packet_bits: f64,
    init_cwnd: f64,
    rng: Rng,

    pub mode: Mode,
    cwnd: f64,
    /// The window before recovery, a timeout or ProbeRTT, restored after them.
    prior_cwnd: f64,
    pacing_gain: f64,
    cwnd_gain: f64,
    /// Bits per second, before the margin.
    pacing_rate: f64,
    /// Bottleneck bandwidth, packets per second.
    bw: RoundMax,
    min_rtt: Option<Time>,
    min_rtt_stamp: Time,
    rounds: u64,
    next_round_delivered: u64,
    round_start: bool,
    delivered: u64,
    pub filled_pipe: bool,
    full_bw: f64,
    full_bw_count: u32,
    pub cycle_index: usize,
    cycle_stamp: Time,
    probe_rtt_done: Option<Time>,
    probe_rtt_round_done: bool,
    in_recovery: bool,
    packet_conservation: bool,
    /// Packets the transport counts as lost since the last ACK (fast retransmit, partial ACKs).
    lost: u64,
    dupacks: u64,
    last_una: u64,
    /// After a timeout: the ACK that covers this sequence number restores the window.
    timeout_recover: Option<u64>,
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Bbr::new(p, ctx))
}

impl Bbr {
    pub fn new(p: &Params, ctx: &FlowContext) -> Bbr {
        let startup_gain = p.num("startup_gain");
        let packet_bits = ctx.packet_bytes as f64 * 8.0;
        let (up, down) = (p.num("probe_up_gain"), p.num("probe_down_gain"));
        Bbr {
            startup_gain,
            drain_gain: p.num("drain_gain"),
            probe_bw_cwnd_gain: p.num("cwnd_gain"),
            cycle_gains: [up, down, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            random_cycle_start: p.flag("random_cycle_start"),
            full_bw_growth: p.num("full_bw_growth"),
            full_bw_rounds: p.num("full_bw_rounds") as u32,
            min_rtt_window: from_secs(p.num("min_rtt_window")),
            probe_rtt_duration: from_secs(p.num("probe_rtt_duration")),
            min_pipe_cwnd: p.num("min_pipe_cwnd"),
            pacing_margin: p.num("pacing_margin"),
            packet_bits,
            init_cwnd: ctx.initial_window,
            rng: Rng::stream(ctx.rng_seed, "bbr"),
            mode: Mode::Startup,
            cwnd: ctx.initial_window,
            prior_cwnd: ctx.initial_window,
            pacing_gain: startup_gain,
            cwnd_gain: startup_gain,
            // Before any RTT sample: the initial window per millisecond, as Linux starts (draft §4.2.1
            // uses the handshake's RTT, which this transport does not model).
            pacing_rate: startup_gain * ctx.initial_window * packet_bits / 1e-3,
            bw: RoundMax::new(p.num("bw_window_rounds") as u64),
            min_rtt: None,
            min_rtt_stamp: 0,
            rounds: 0,
            next_round_delivered: 0,
            round_start: false,
            delivered: 0,
            filled_pipe: false,
            full_bw: 0.0,
            full_bw_count: 0,
            cycle_index: 0,
            cycle_stamp: 0,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            in_recovery: false,
            packet_conservation: false,
            lost: 0,
            dupacks: 0,
            last_una: 0,
            timeout_recover: None,
        }
    }

    /// Bottleneck bandwidth estimate, packets per second.
    pub fn bw_pps(&self) -> f64 {
        self.bw.get()
    }

    pub fn rounds(&self) -> u64 {
        self.rounds
    }

    /// Packets sent per transmission burst (draft §4.2.2): one below 1.2 Mb/s, two below 24 Mb/s, else a
    /// millisecond's worth up to 64 KB. Only the window's allowance for it matters here: the transport
    /// sends packets one by one.
    fn send_quantum(&self) -> f64 {
        let r = self.pacing_rate;
        if r < 1.2e6 {
            1.0
        } else if r < 24e6 {
            2.0
        } else {
            (r * 1e-3).min(65536.0 * 8.0) / self.packet_bits
        }
        .max(1.0)
    }

    /// gain x BDP plus room for three send quanta (draft §4.2.3, BBRInflight); the initial window before
    /// any RTT sample.
    fn inflight(&self, gain: f64) -> f64 {
        match self.min_rtt {
            None => self.init_cwnd,
            Some(rtt) => gain * self.bw.get() * secs(rtt) + 3.0 * self.send_quantum(),
        }
    }

    fn save_cwnd(&mut self) {
        self.prior_cwnd = if !self.in_recovery && self.mode != Mode::ProbeRtt {
            self.cwnd
        } else {
            self.prior_cwnd.max(self.cwnd)
        };
    }

    fn restore_cwnd(&mut self) {
        self.cwnd = self.cwnd.max(self.prior_cwnd);
    }

    fn enter_startup(&mut self) {
        self.mode = Mode::Startup;
        self.pacing_gain = self.startup_gain;
        self.cwnd_gain = self.startup_gain;
    }

    fn enter_probe_bw(&mut self, now: Time) {
        self.mode = Mode::ProbeBw;
        self.cwnd_gain = self.probe_bw_cwnd_gain;
        // Uniformly one of the seven phases other than the 0.75 one, so flows do not probe in step and
        // none starts by draining a queue it never built.
        let start = if self.random_cycle_start {
            let k = (self.rng.uniform() * (CYCLE_LEN - 1) as f64) as usize;
            if k == 0 {
                0
            } else {
                k + 1
            }
        } else {
            0
        };
        self.set_cycle_phase(now, start);
    }

    fn set_cycle_phase(&mut self, now: Time, index: usize) {
        self.cycle_index = index % CYCLE_LEN;
        self.cycle_stamp = now;
        self.pacing_gain = self.cycle_gains[self.cycle_index];
    }

    /// Whether the current ProbeBW phase is over (draft §4.3.4.3): a probe lasts at least a min RTT and
    /// until the flight reached its target (or a loss says the path is full); the drain phase ends after
    /// a min RTT or as soon as the flight is down to one BDP; the others last one min RTT.
    fn is_next_cycle_phase(&self, now: Time, prior_inflight: f64) -> bool {
        let full_length = now.saturating_sub(self.cycle_stamp) > self.min_rtt.unwrap_or(0);
        if self.pacing_gain > 1.0 {
            full_length && (self.lost > 0 || prior_inflight >= self.inflight(self.pacing_gain))
        } else if self.pacing_gain < 1.0 {
            full_length || prior_inflight <= self.inflight(1.0)
        } else {
            full_length
        }
    }

    /// Startup is over when three rounds in a row brought less than 25 % more bandwidth (draft §4.3.2).
    fn check_full_pipe(&mut self, rs: &RateSample) {
        if self.filled_pipe || !self.round_start || rs.app_limited {
            return;
        }
        let bw = self.bw.get();
        if bw >= self.full_bw * self.full_bw_growth {
            self.full_bw = bw;
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        if self.full_bw_count >= self.full_bw_rounds {
            self.filled_pipe = true;
        }
    }

    fn update_min_rtt(&mut self, now: Time, rtt: Option<Time>) -> bool {
        let expired = self.min_rtt.is_some() && now > self.min_rtt_stamp.saturating_add(self.min_rtt_window);
        if let Some(r) = rtt {
            if self.min_rtt.is_none_or(|m| r <= m) || expired {
                self.min_rtt = Some(r);
                self.min_rtt_stamp = now;
            }
        }
        expired
    }

    /// ProbeRTT (draft §4.3.5): hold the window at min_pipe_cwnd until the flight is down to it, then for
    /// probe_rtt_duration and at least one round; then back to ProbeBW (or Startup if the pipe was never
    /// filled) with the window from before.
    fn handle_probe_rtt(&mut self, now: Time, rs: &RateSample) {
        match self.probe_rtt_done {
            None if (rs.pipe as f64) <= self.min_pipe_cwnd => {
                self.probe_rtt_done = Some(now + self.probe_rtt_duration);
                self.probe_rtt_round_done = false;
                self.next_round_delivered = rs.delivered_total;
            }
            None => {}
            Some(done) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done && now > done {
                    self.min_rtt_stamp = now;
                    self.restore_cwnd();
                    if self.filled_pipe {
                        self.enter_probe_bw(now);
                    } else {
                        self.enter_startup();
                    }
                }
            }
        }
    }

    fn set_pacing_rate(&mut self) {
        let rate = self.pacing_gain * self.bw.get() * self.packet_bits;
        // In Startup the rate only grows: an early low sample must not slow the exponential search.
        if rate > 0.0 && (self.filled_pipe || rate > self.pacing_rate) {
            self.pacing_rate = rate;
        }
    }

    /// The window (draft §4.2.3): towards gain x BDP + quanta, growing by what each ACK delivered; during
    /// the first round of recovery no more than what is in the network plus what this ACK delivered.
    fn set_cwnd(&mut self, rs: &RateSample, delivered_now: u64, acked_now: u64) {
        let target = self.inflight(self.cwnd_gain);
        if self.lost > 0 {
            self.cwnd = (self.cwnd - self.lost as f64).max(1.0);
        }
        if self.packet_conservation {
            self.cwnd = self.cwnd.max((rs.pipe + acked_now) as f64);
        } else {
            let d = delivered_now as f64;
            if self.filled_pipe {
                self.cwnd = (self.cwnd + d).min(target);
            } else if self.cwnd < target || (self.delivered as f64) < self.init_cwnd {
                self.cwnd += d;
            }
            self.cwnd = self.cwnd.max(self.min_pipe_cwnd);
        }
        if self.mode == Mode::ProbeRtt {
            self.cwnd = self.cwnd.min(self.min_pipe_cwnd);
        }
    }
}

impl CongestionControl for Bbr {
    fn window(&self) -> f64 {
        self.cwnd
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        let Some(rs) = ack.rate else { return };
        let now = ack.now;
        let delivered_now = rs.delivered_total.saturating_sub(self.delivered);
        self.delivered = rs.delivered_total;
        // What this ACK delivered beyond the duplicate ACKs since the last one (the transport's NewReno
        // inflation already let those be replaced), and the flight before it.
        let acked_now = delivered_now.saturating_sub(self.dupacks).max(1);
        let prior_inflight = (rs.pipe + delivered_now) as f64;
        self.dupacks = 0;
        self.last_una = ack.snd_una;
        if ack.in_recovery {
            // A partial ACK: NewReno retransmits the next hole, one more packet lost.
            self.lost += 1;
        }

        // A round ends when a packet sent after the previous round's end is acknowledged.
        self.round_start = delivered_now > 0 && rs.prior_delivered >= self.next_round_delivered;
        if self.round_start {
            self.next_round_delivered = rs.delivered_total;
            self.rounds += 1;
            self.packet_conservation = false;
        }
        self.bw.expire(self.rounds);
        if let Some(r) = rs.rate_pps() {
            // An application-limited sample says nothing about the bottleneck unless it is a new maximum.
            if !rs.app_limited || r >= self.bw.get() {
                self.bw.update(self.rounds, r);
            }
        }
        if self.mode == Mode::ProbeBw && self.is_next_cycle_phase(now, prior_inflight) {
            self.set_cycle_phase(now, self.cycle_index + 1);
        }
        self.check_full_pipe(rs);
        if self.mode == Mode::Startup && self.filled_pipe {
            self.mode = Mode::Drain;
            self.pacing_gain = self.drain_gain;
            self.cwnd_gain = self.startup_gain;
        }
        if self.mode == Mode::Drain && rs.pipe as f64 <= self.inflight(1.0) {
            self.enter_probe_bw(now);
        }
        let first_rtt = self.min_rtt.is_none();
        let expired = self.update_min_rtt(now, ack.rtt);
        if let (true, Some(rtt)) = (first_rtt, self.min_rtt) {
            // The first RTT sample: the initial window per RTT, at the Startup gain (draft §4.2.1).
            self.pacing_rate = self.startup_gain * self.init_cwnd * self.packet_bits / secs(rtt).max(1e-9);
        }
        if expired && self.mode != Mode::ProbeRtt {
            self.save_cwnd();
            self.mode = Mode::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.probe_rtt_done = None;
        }
        if self.mode == Mode::ProbeRtt {
            self.handle_probe_rtt(now, rs);
        }
        if self.timeout_recover.is_some_and(|r| ack.snd_una > r) {
            self.timeout_recover = None;
            self.restore_cwnd();
        }
        self.set_pacing_rate();
        self.set_cwnd(rs, delivered_now, acked_now);
        self.lost = 0;
    }

    fn on_dupack(&mut self, _now: Time) {
        self.dupacks += 1;
    }

    fn on_loss(&mut self, loss: &LossEvent) {
        self.save_cwnd();
        self.in_recovery = true;
        self.packet_conservation = true;
        // Conservation lasts until a packet sent from now on is acknowledged: one round.
        self.next_round_delivered = self.delivered + self.dupacks;
        // What is in the network: the outstanding packets less those the duplicate ACKs reported
        // delivered (the lost one is replaced by its retransmission).
        self.cwnd = (loss.inflight.saturating_sub(self.dupacks) as f64).max(1.0);
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {
        self.in_recovery = false;
        self.packet_conservation = false;
        self.restore_cwnd();
    }

    fn on_timeout(&mut self, _now: Time, inflight: u64) {
        self.save_cwnd();
        self.in_recovery = false;
        self.packet_conservation = false;
        self.timeout_recover = Some(self.last_una + inflight.saturating_sub(1));
        // Startup's plateau detection starts over, as Linux does when a timeout ends a round.
        self.full_bw = 0.0;
        self.full_bw_count = 0;
        self.cwnd = 1.0;
    }

    /// ECN-Echo changes nothing (module doc).
    fn on_ecn(&mut self, _now: Time, _inflight: u64) {}

    fn paces(&self) -> bool {
        true
    }

    fn pacing_rate(&self) -> Option<f64> {
        Some(self.pacing_rate * (1.0 - self.pacing_margin))
    }

    fn wants_rate_samples(&self) -> bool {
        true
    }

    fn trace(&self) -> CcTrace {
        CcTrace { base_rtt: self.min_rtt, srtt: None }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["btl_bw_bps", "pacing_rate_bps", "pacing_gain", "bbr_mode"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.bw.get() * self.packet_bits);
        out.push(self.pacing_rate().unwrap_or(f64::NAN));
        out.push(self.pacing_gain);
        out.push(match self.mode {
            Mode::Startup => 0.0,
            Mode::Drain => 1.0,
            Mode::ProbeBw => 2.0,
            Mode::ProbeRtt => 3.0,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::algorithm;

    fn bbr(seed: u64) -> Bbr {
        let p = algorithm("bbr").expect("registered").defaults();
        Bbr::new(&p, &FlowContext { rng_seed: seed, ..FlowContext::new(10.0) })
    }

    #[test]
    fn probe_bw_starts_at_a_random_phase_other_than_the_drain_phase() {
        let mut seen = [0u32; CYCLE_LEN];
        for seed in 0..700 {
            let mut b = bbr(seed);
            b.enter_probe_bw(0);
            seen[b.cycle_index] += 1;
            assert_eq!(b.pacing_gain, b.cycle_gains[b.cycle_index]);
        }
        assert_eq!(seen[1], 0, "never the 0.75 phase: {seen:?}");
        // Uniform over the other seven: 100 each expected.
        assert!(seen.iter().enumerate().all(|(i, &n)| i == 1 || (60..140).contains(&n)), "{seen:?}");
        // The same seed draws the same phase.
        let (mut a, mut b) = (bbr(42), bbr(42));
        a.enter_probe_bw(0);
        b.enter_probe_bw(0);
        assert_eq!(a.cycle_index, b.cycle_index);
    }

    #[test]
    fn ecn_changes_nothing() {
        let mut b = bbr(1);
        b.cwnd = 80.0;
        let (w, rate) = (b.window(), b.pacing_rate);
        b.on_ecn(0, 80);
        assert_eq!((b.window(), b.pacing_rate, b.in_recovery), (w, rate, false));
    }

    #[test]
    fn the_window_target_is_gain_times_bdp_plus_three_quanta() {
        let mut b = bbr(1);
        assert_eq!(b.inflight(2.0), 10.0, "the initial window before any RTT sample");
        b.min_rtt = Some(40_000_000);
        b.bw.update(0, 1250.0);
        // 10 Mb/s of 1000-byte packets for 40 ms: a BDP of 50 packets; the quantum is 2 packets between
        // 1.2 and 24 Mb/s.
        b.pacing_rate = 10e6;
        assert!((b.inflight(2.0) - 106.0).abs() < 1e-9);
        b.pacing_rate = 1e6;
        assert!((b.inflight(1.0) - 53.0).abs() < 1e-9);
    }
}
