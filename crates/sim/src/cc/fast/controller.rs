//! FAST TCP as the CUBIN/Caltech ns-2 module computes it (tcp-fast.cc v1.1.3, the code the papers ran).
//!
//! Per ACK outside recovery: baseRTT = minimum RTT sample (seeded by the SYN's RTT when the transport
//! opens with one); avgRTT = EWMA with weight min(3/flight, 1/256). The window equation
//! w ← (1−γ)·w + γ·(baseRTT/avgRTT·w_old + α), w ≥ 2, runs at the module's cadence (`ns2_cadence.rs`:
//! every ACK at least 10 ms after the last update, in every other timed round; increases paced as whole
//! packets) or, with `cadence = "round"`, once per other round with the increase spread evenly over the
//! next period's ACKs. Below `mi_threshold` of queueing delay the window grows by one per ACK. Loss: halve
//! and freeze updates during recovery; a timeout restarts from 2 packets.
//!
//! One controller serves the whole family because VFAST, RRFast and EMFAST each change FAST at one point
//! only: the optional parts (`rtt_filter.rs`, `reroute.rs`, `ccafr.rs`) hook in where the papers put
//! them, and the builders (`vfast.rs`, `rrfast.rs`, `emfast.rs`) plug them in.

use super::ccafr::{AfrInput, Ccafr};
use super::ns2_cadence::{ModuleClock, PACE_MIN_BASE_RTT_S};
use super::reroute::RerouteDetector;
use super::rtt_filter::{AsymmetricEwma, FilterPlacement};
use crate::cc::round::Rounds;
use crate::cc::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent, Recovery};
use crate::model::params::Params;
use crate::time::{as_f64, from_secs, secs, Time};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arithmetic {
    Double,
    Int,
    IntCarry,
}

/// The FAST controller. VFAST's filter, RRFast's detector and EMFAST's CCaFR are optional parts the
/// builders plug in: each changes the controller at one point, so the family shares every other rule.
pub struct Fast {
    alpha: f64,
    beta: f64,
    gamma: f64,
    /// Whether the module's cadence runs (`cadence = "ns2"`); false runs one update per round.
    ns2: bool,
    /// The module's clock (`ns2_cadence.rs`). Always there, unused at the round cadence, so that neither
    /// an ACK nor a send at the module's cadence tests for it.
    module: ModuleClock,
    min_interval: Time,
    /// `min_interval` in seconds, for the pacing of increases: converted once, not on every ACK.
    period: f64,
    spread: bool,
    mi_threshold: f64,
    mi_reentry: bool,
    cap_2w: bool,
    arithmetic: Arithmetic,
    /// `cwnd_remainder`: the fractions `window_arithmetic = "int_carry"` has dropped so far.
    carry: f64,
    max_weight: f64,
    pacing: bool,
    packet_bits: f64,
    cwnd: f64,
    ssthresh: f64,
    /// Seconds; NaN before the first sample and, for baseRTT, right after an RRFast reset (read them
    /// through `known_base_rtt` and `known_avg_rtt`). Plain numbers rather than Options so that the
    /// usual ACK, for which `usual_parts` says both are known, tests no tags.
    base_rtt: f64,
    avg_rtt: f64,
    /// The delay the last update used (avgRTT, or VFAST's SRTT).
    delay_used: Option<f64>,
    rounds: Rounds,
    last_update: Time,
    /// `last_update + min_interval`, the earliest the module's cadence updates again: kept with
    /// `last_update` so that an ACK does not add them.
    next_update: Time,
    mi: bool,
    pending_increase: f64,
    increase_per_ack: f64,
    period_min_rtt: f64,
    /// Window updates run so far (for tests and traces).
    pub updates: u64,
    pub(super) vfast: Option<(AsymmetricEwma, FilterPlacement)>,
    pub(super) reroute: Option<RerouteDetector>,
    pub(super) ccafr: Option<Ccafr>,
    /// Whether ACKs may take the usual path (`usual_ack.rs`): the module's cadence, without CCaFR or a
    /// per-ACK filter. Set by the first ACK, as the builders plug the parts in after `new`.
    usual_parts: bool,
}

/// Plain FAST, and MFAST too: MFAST's streams are the transport's, its congestion control is FAST's.
pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Fast::new(p, ctx))
}

impl Fast {
    pub fn new(p: &Params, ctx: &FlowContext) -> Fast {
        Fast {
            alpha: p.num("alpha"),
            beta: p.num("beta"),
            gamma: p.num("gamma"),
            ns2: p.choice("cadence") == "ns2",
            module: ModuleClock::new(!p.flag("update_every_other_rtt")),
            min_interval: from_secs(p.num("min_update_interval")),
            period: secs(from_secs(p.num("min_update_interval"))),
            spread: p.flag("spread_increase"),
            mi_threshold: p.num("mi_threshold"),
            mi_reentry: p.flag("mi_reentry"),
            cap_2w: p.flag("cap_2w"),
            arithmetic: match p.choice("window_arithmetic") {
                "int" => Arithmetic::Int,
                "int_carry" => Arithmetic::IntCarry,
                _ => Arithmetic::Double,
            },
            carry: 0.0,
            max_weight: p.num("avg_rtt_max_weight"),
            pacing: p.flag("pacing"),
            packet_bits: ctx.packet_bytes as f64 * 8.0,
            cwnd: ctx.initial_window.max(2.0),
            ssthresh: f64::INFINITY,
            base_rtt: f64::NAN,
            avg_rtt: f64::NAN,
            delay_used: None,
            rounds: Rounds::default(),
            last_update: 0,
            next_update: from_secs(p.num("min_update_interval")),
            mi: true,
            pending_increase: 0.0,
            increase_per_ack: 0.0,
            period_min_rtt: f64::INFINITY,
            updates: 0,
            vfast: None,
            reroute: None,
            ccafr: None,
            usual_parts: false,
        }
    }

    /// baseRTT, if there is one.
    fn known_base_rtt(&self) -> Option<f64> {
        (!self.base_rtt.is_nan()).then_some(self.base_rtt)
    }

    /// avgRTT, if there is one.
    fn known_avg_rtt(&self) -> Option<f64> {
        (!self.avg_rtt.is_nan()).then_some(self.avg_rtt)
    }

    /// One RTT sample. `weight_base` is what the EWMA weight 3/x divides: the window (round cadence) or
    /// the module's flight estimate.
    ///
    /// The minima are comparisons, not `f64::min`, whose NaN handling costs five more instructions
    /// each: they return what `min` would, as baseRTT, the period's minimum and `max_weight` (a checked
    /// parameter) are never NaN.
    fn on_sample(&mut self, rtt: f64, external_base: bool, weight_base: f64) {
        if !external_base {
            self.base_rtt = match self.known_base_rtt() {
                Some(b) if rtt >= b => b,
                _ => rtt,
            };
        }
        if rtt < self.period_min_rtt {
            self.period_min_rtt = rtt;
        }
        let avg = self.known_avg_rtt();
        self.avg_rtt = match (&mut self.vfast, avg) {
            (Some((ewma, FilterPlacement::PerAck)), _) => ewma.update(rtt),
            (_, None) => rtt,
            (_, Some(a)) => self.ewma(a, rtt, weight_base),
        };
    }

    /// The module's avgRTT step from `avg` with the sample `rtt`, weight min(3/`weight_base`, `max_weight`).
    #[inline]
    fn ewma(&self, avg: f64, rtt: f64, weight_base: f64) -> f64 {
        let w = 3.0 / weight_base;
        let w = if w < self.max_weight { w } else { self.max_weight };
        (1.0 - w) * avg + w * rtt
    }

    /// Records that the window changed at `now` in a way that restarts the update period.
    fn mark_update(&mut self, now: Time) {
        self.last_update = now;
        self.next_update = now + self.min_interval;
    }

    /// The window equation's target for this update (`fast_calc_cwnd`), or None when there is nothing to
    /// compute with, the flow sits in the dead band, or RRFast has just forgotten baseRTT.
    fn target(&mut self, w_old: f64) -> Option<f64> {
        let (Some(base), Some(avg)) = (self.known_base_rtt(), self.known_avg_rtt()) else { return None };
        let delay = match &mut self.vfast {
            Some((ewma, FilterPlacement::PerUpdate)) => ewma.update(avg),
            _ => avg,
        };
        self.delay_used = Some(delay);
        let backlog = w_old * (delay - base);
        if backlog >= self.alpha * delay && backlog < self.beta * delay {
            return None;
        }
        self.updates += 1;
        let w = self.cwnd;
        let mut target = (1.0 - self.gamma) * w + self.gamma * (base / delay * w_old + self.alpha);
        if self.cap_2w {
            target = target.min(2.0 * w);
        }
        target = target.max(2.0);
        // At the module's cadence the detector sees the first update of each on-round, with the RTT minimum
        // of the whole period since its last look: its rule counts updates one (other) round apart.
        let m = &mut self.module;
        let detect = if !self.ns2 {
            true
        } else if m.detected_round == Some(m.rounds) {
            false
        } else {
            m.detected_round = Some(m.rounds);
            true
        };
        if let (Some(det), true) = (&mut self.reroute, detect) {
            if det.after_update(w, target, base, avg, self.period_min_rtt, self.alpha) {
                // Rerouted to a longer path: forget baseRTT; the next sample defines it. This period's
                // update is skipped (docs/algorithms.md#rrfast-reset).
                self.base_rtt = f64::NAN;
                self.usual_parts = false;
                self.period_min_rtt = f64::INFINITY;
                return None;
            }
        }
        if detect {
            self.period_min_rtt = f64::INFINITY;
        }
        Some(match self.arithmetic {
            Arithmetic::Double => target,
            Arithmetic::Int => target.trunc(),
            Arithmetic::IntCarry => {
                self.carry += target.fract();
                if self.carry > 1.0 {
                    self.carry -= 1.0;
                    target.trunc() + 1.0
                } else {
                    target.trunc()
                }
            }
        })
    }

    /// The window equation, run once per update period (round cadence).
    fn update(&mut self, w_old: f64) {
        let Some(target) = self.target(w_old) else { return };
        let w = self.cwnd;
        if target > w && self.spread && w > 4.0 {
            self.pending_increase = target - w;
            let acks = w * if self.module.every_other() { 2.0 } else { 1.0 };
            self.increase_per_ack = self.pending_increase / acks.max(1.0);
        } else {
            self.cwnd = target;
            self.pending_increase = 0.0;
        }
    }

    /// Whether the per-ACK start-up growth applies now.
    fn mi_now(&mut self) -> bool {
        let queueing = match (self.known_avg_rtt(), self.known_base_rtt()) {
            (Some(a), Some(b)) => a - b,
            _ => 0.0,
        };
        self.mi_at(queueing)
    }

    /// `mi_now` with the queueing delay given: the usual ACK knows both estimates, and computes it
    /// without `mi_now`'s test of them.
    #[inline(always)]
    fn mi_at(&mut self, queueing: f64) -> bool {
        if self.mi_reentry {
            self.mi = queueing < self.mi_threshold;
        } else if self.mi && queueing >= self.mi_threshold {
            self.mi = false;
        }
        self.mi
    }

    /// CCaFR's per-ACK window after recovery, if it is active; true when it set the window. Only
    /// EMFAST has CCaFR: the test is inline, the step is not.
    #[inline]
    fn ccafr_step(&mut self, ack: &AckEvent, old_pif: f64, round_started: bool) -> bool {
        self.ccafr.is_some() && self.ccafr_step_active(ack, old_pif, round_started)
    }

    #[inline(never)]
    fn ccafr_step_active(&mut self, ack: &AckEvent, old_pif: f64, round_started: bool) -> bool {
        let (base, avg) = (self.known_base_rtt(), self.known_avg_rtt());
        let Some(afr) = &mut self.ccafr else { return false };
        let input = AfrInput {
            now: ack.now,
            rtt: ack.rtt.map(secs),
            base,
            avg,
            old_pif,
            cwnd: self.cwnd,
            alpha: self.alpha,
            gamma: self.gamma,
            round_started,
        };
        let Some(w) = afr.on_ack(&input) else { return false };
        // Per-ACK updates bypass the update gate and the spreading of increases
        // (docs/algorithms.md#ccafr-bypass-cadence).
        self.cwnd = w;
        self.pending_increase = 0.0;
        self.module.increments = 0.0;
        self.mark_update(ack.now);
        true
    }

    /// An ACK at the module's cadence (tcp-fast.cc recv -> fast_est -> fast_cc).
    fn on_ack_ns2(&mut self, ack: &AckEvent) {
        let m = &mut self.module;
        // fast_est: newack() has cleared dupacks_, so the flight is t_seqno_ - seqno = inflight + 1.
        let flight = as_f64(ack.inflight) + 1.0;
        m.flight = flight;
        if let Some(r) = ack.rtt {
            self.on_sample(secs(r), ack.base_rtt.is_some(), flight);
        }
        // A retransmitted packet's ACK gives no sample; the module then times its round with avgRTT.
        let rtt = ack.rtt.or_else(|| self.known_avg_rtt().map(from_secs)).unwrap_or(0);
        let m = &mut self.module;
        let old = m.old_flight(ack.snd_una).unwrap_or(flight);
        let round_started = m.on_ack(ack.now, rtt);
        if self.ccafr_step(ack, old, round_started) {
            return;
        }
        let now = ack.now;
        if self.mi_now() {
            self.cwnd += 1.0;
            self.mark_update(now);
            return;
        }
        let pace_ok = self.known_base_rtt().is_some_and(|b| b >= PACE_MIN_BASE_RTT_S);
        let period = self.period;
        let avg = self.known_avg_rtt().unwrap_or(0.0);
        if !self.module.off_round && now >= self.next_update {
            _ = self.update_at_cadence(now, old, pace_ok, avg);
        } else if pace_ok {
            self.module.pace(&mut self.cwnd, 0, period, avg);
        }
    }

    /// An update at the module's cadence (`fast_calc_cwnd`, then `fast_pace` with the increase). Out of
    /// line: it runs once per update period, and the usual ACK's path must not call it but last.
    /// Returns the window after it.
    #[inline(never)]
    pub(super) fn update_at_cadence(&mut self, now: Time, old: f64, pace_ok: bool, avg: f64) -> f64 {
        self.module.increments = 0.0;
        let target = self.target(old).unwrap_or(self.cwnd);
        let mut cwnd = self.cwnd;
        if target >= cwnd && pace_ok && self.spread {
            let steps = (target - cwnd) as i64;
            self.module.pace(&mut cwnd, steps, self.period, avg)
        } else {
            cwnd = target;
        }
        self.cwnd = cwnd;
        self.mark_update(now);
        cwnd
    }

    /// An ACK at the round cadence: one update per (other) round counted in sequence numbers.
    fn on_ack_round(&mut self, ack: &AckEvent) {
        if let Some(r) = ack.rtt {
            self.on_sample(secs(r), ack.base_rtt.is_some(), self.cwnd);
        }
        let round_done = self.rounds.on_ack(ack.snd_una, ack.snd_una + ack.inflight);
        if self.ccafr_step(ack, ack.inflight_at_send as f64, round_done) {
            return;
        }
        if self.pending_increase > 0.0 {
            let step = self.increase_per_ack.min(self.pending_increase);
            self.cwnd += step;
            self.pending_increase -= step;
        }
        if self.mi_now() {
            self.cwnd += 1.0;
        }
        if round_done {
            let due = !self.module.every_other() || self.rounds.count.is_multiple_of(2);
            if due && !self.mi && ack.now.saturating_sub(self.last_update) >= self.min_interval {
                self.update(ack.inflight_at_send as f64);
                self.mark_update(ack.now);
            }
        }
    }

    /// `on_ack_any`, then the window: the usual path's tail call for the ACKs it does not cover.
    #[inline(never)]
    pub(super) fn on_ack_any_window(&mut self, ack: &AckEvent) -> f64 {
        self.on_ack_any(ack);
        self.cwnd
    }

    /// Any ACK: `on_ack_usual` hands over those it does not cover.
    #[inline(always)]
    pub(super) fn on_ack_any(&mut self, ack: &AckEvent) {
        if let Some(b) = ack.base_rtt {
            self.base_rtt = secs(b);
        }
        if ack.in_recovery {
            // Updates are frozen during recovery and the period restarts when it ends.
            self.mark_update(ack.now);
            return;
        }
        if self.ns2 {
            self.on_ack_ns2(ack);
        } else {
            self.on_ack_round(ack);
        }
        self.usual_parts = self.ns2
            && self.ccafr.is_none()
            && !matches!(self.vfast, Some((_, FilterPlacement::PerAck)))
            && self.known_base_rtt().is_some()
            && self.known_avg_rtt().is_some();
    }

    pub fn backlog_estimate(&self) -> f64 {
        match (self.known_base_rtt(), self.known_avg_rtt()) {
            (Some(b), Some(a)) if a > 0.0 => self.cwnd * (1.0 - b / a),
            _ => f64::NAN,
        }
    }
}

impl CongestionControl for Fast {
    fn window(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh(&self) -> f64 {
        self.ssthresh
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        _ = self.on_ack_usual(ack);
    }

    /// The usual path returns the window itself (`usual_ack.rs`).
    fn on_ack_window(&mut self, ack: &AckEvent) -> f64 {
        self.on_ack_usual(ack)
    }

    /// Only the module's cadence asks (`hears_sends`): the round cadence has nothing to record.
    fn on_send(&mut self, now: Time, seq: u64, _retransmit: bool, _inflight: u64) {
        self.module.on_send(now, seq);
    }

    fn hears_sends(&self) -> bool {
        self.ns2
    }

    fn on_handshake(&mut self, now: Time, rtt: Time) {
        // The module takes its first baseRTT and avgRTT from the SYN (recv(): firstrecv_).
        let r = secs(rtt);
        if self.known_base_rtt().is_none() {
            self.base_rtt = r;
        }
        self.avg_rtt = r;
        if self.ns2 {
            self.module.on_handshake(now, rtt);
        }
    }

    /// The module's own SACK-scoreboard recovery at its cadence; the round model keeps NewReno's.
    fn recovery(&self) -> Recovery {
        if self.ns2 {
            Recovery::FastModule
        } else {
            Recovery::NewReno
        }
    }

    fn stale_after(&self) -> Option<Time> {
        self.known_avg_rtt().map(|a| from_secs(2.0 * a))
    }

    fn on_loss(&mut self, _loss: &LossEvent) {
        if let Some(afr) = &mut self.ccafr {
            afr.on_loss(self.cwnd);
        }
        if self.ns2 {
            // slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF) with precisionReduce_ true.
            let half = self.cwnd / 2.0;
            self.ssthresh = half.trunc().max(2.0);
            self.cwnd = half.max(1.0);
        } else {
            self.cwnd = (self.cwnd / 2.0).max(2.0);
            self.ssthresh = self.cwnd;
        }
        self.pending_increase = 0.0;
        self.mi = false;
    }

    fn on_recovery_exit(&mut self, now: Time, _inflight: u64) {
        self.mark_update(now);
        if let Some(afr) = &mut self.ccafr {
            afr.on_recovery_exit(now, self.cwnd);
        }
    }

    /// ECN-Echo: the FAST module inherits TcpAgent::ecn (ns-2 tcp.cc:1438-1456), which once per window
    /// calls slowdown(CLOSE_CWND_HALF | CLOSE_SSTHRESH_HALF): with precisionReduce_ true, cwnd_ = cwnd_/2
    /// (at least 1) and ssthresh_ = (int)(cwnd_/2) (at least 2), tcp.cc:1259-1345. Nothing else changes:
    /// no recovery, so updates, pacing and the start-up growth go on as before (FastTcpAgent::recv calls
    /// ecn() before fast_est and fast_cc). The round cadence halves as on a loss, without freezing.
    /// CCaFR (EMFAST) is not told: the paper defines it for losses only.
    fn on_ecn(&mut self, _now: Time, _inflight: u64) {
        if self.ns2 {
            let half = self.cwnd / 2.0;
            self.ssthresh = half.trunc().max(2.0);
            self.cwnd = half.max(1.0);
        } else {
            self.cwnd = (self.cwnd / 2.0).max(2.0);
            self.ssthresh = self.cwnd;
            self.pending_increase = 0.0;
        }
    }

    fn on_timeout(&mut self, now: Time, _inflight: u64) {
        if let Some(afr) = &mut self.ccafr {
            afr.on_timeout();
        }
        self.ssthresh = if self.ns2 { (self.cwnd / 2.0).trunc() } else { self.cwnd / 2.0 }.max(2.0);
        // The module's timeout() sets cwnd_ = slowstart_ (2) and keeps any increments not yet taken.
        self.cwnd = 2.0;
        self.pending_increase = 0.0;
        self.mi = true;
        self.mark_update(now);
    }

    fn paces(&self) -> bool {
        self.pacing
    }

    /// cwnd per avgRTT: the rate x = w/D of FAST's own model, so a window leaves spread over the round
    /// trip it is meant to fill instead of in bursts as ACKs arrive. avgRTT is the per-ACK EWMA (for
    /// every member of the family, VFAST included). During the start-up growth (one packet per ACK,
    /// doubling per RTT) the rate is doubled, as Linux paces slow start, so pacing does not slow it.
    fn pacing_rate(&self) -> Option<f64> {
        if !self.pacing {
            return None;
        }
        let delay = self.known_avg_rtt().filter(|d| *d > 0.0)?;
        let gain = if self.mi { 2.0 } else { 1.0 };
        Some(gain * self.cwnd * self.packet_bits / delay)
    }

    fn trace(&self) -> CcTrace {
        CcTrace {
            base_rtt: self.known_base_rtt().map(from_secs),
            srtt: self.delay_used.or(self.known_avg_rtt()).map(from_secs),
        }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        if self.reroute.is_some() {
            &["backlog_pkts", "avg_rtt_s", "rr_probe", "rr_resets"]
        } else if self.ccafr.is_some() {
            &["backlog_pkts", "avg_rtt_s", "afr_mode"]
        } else {
            &["backlog_pkts", "avg_rtt_s"]
        }
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.backlog_estimate());
        out.push(self.avg_rtt);
        if let Some(d) = &self.reroute {
            out.push(if d.probing() { 1.0 } else { 0.0 });
            out.push(d.resets as f64);
        }
        if let Some(a) = &self.ccafr {
            // 0 normal FAST, 1 additive increase after recovery, 2 per-ACK FAST after the first gap.
            out.push(match (a.active(), a.gapflag()) {
                (false, _) => 0.0,
                (true, false) => 1.0,
                (true, true) => 2.0,
            });
        }
    }
}

#[cfg(test)]
mod tests;
mod usual_ack;
