//! FAST TCP as the CUBIN/Caltech ns-2 module computes it (tcp-fast.cc v1.1.3, the code the papers ran).
//!
//! Per ACK outside recovery: baseRTT = minimum RTT sample (seeded by the SYN's RTT when the transport
//! opens with one); avgRTT = EWMA with weight min(3/flight, 1/256). The window equation
//! w ← (1−γ)·w + γ·(baseRTT/avgRTT·w_old + α), w ≥ 2, runs at the module's cadence (`fast_ns2.rs`: every
//! ACK at least 10 ms after the last update, in every other timed round; increases paced as whole packets)
//! or, with `cadence = "round"`, once per other round with the increase spread evenly over the next
//! period's ACKs. Below `mi_threshold` of queueing delay the window grows by one per ACK. Loss: halve and
//! freeze updates during recovery; a timeout restarts from 2 packets.
//!
//! VFAST (`vfast.rs`) and RRFast (`rrfast.rs`) are this controller with one extra component each.

use super::ccafr::{AfrInput, Ccafr};
use super::fast_ns2::{ModuleClock, PACE_MIN_BASE_RTT_S};
use super::round::Rounds;
use super::rrfast::RerouteDetector;
use super::vfast::{AsymmetricEwma, FilterPlacement};
use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent, Recovery};
use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};
use crate::time::{from_secs, secs, Time};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "alpha",
        kind: ParamKind::Float { min: 0.0, max: 1e9, min_exclusive: true },
        default: ParamDefault::Num(100.0),
        description: "packets the flow aims to keep queued along its path at equilibrium",
        source: "the ns-2 FAST module's default alpha_ 100 (ns-default.tcl); each paper scenario sets the alpha its paper implies",
    },
    ParamSpec {
        name: "beta",
        kind: ParamKind::Float { min: 0.0, max: 1e9, min_exclusive: false },
        default: ParamDefault::Num(0.0),
        description: "top of the module's dead band: no update while alpha <= w_old*(avgRTT-baseRTT)/avgRTT < beta; any beta <= alpha (0 included) means no band",
        source: "ns-2 FAST module fast_calc_cwnd (beta_); its default beta_ 100 equals alpha_ 100, i.e. no band, as FAST is defined in the papers",
    },
    ParamSpec {
        name: "gamma",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.5),
        description: "step size of the window update, in (0, 1]",
        source: "P000 eq. (3) ('recommended 1/2') and the ns-2 module's gamma_ 0.5",
    },
    ParamSpec {
        name: "cadence",
        kind: ParamKind::Choice(&["ns2", "round"]),
        default: ParamDefault::Str("ns2"),
        description: "when the window equation runs: ns2 = the module's (every ACK at least min_update_interval after the last update, in every other timed round, increases paced as whole packets, old_cwnd recorded per packet); round = once per (other) round counted in sequence numbers, the increase spread evenly over the next round's ACKs",
        source: "ns-2 FAST module fast_cc/fast_pace/fast_est (tcp-fast.cc); round is the papers' per-RTT description (P000 eq. 3), delaycc's model before it followed the module",
    },
    ParamSpec {
        name: "update_every_other_rtt",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "run window updates only in every other RTT round (false: in every round)",
        source: "ns-2 module compiled with UPDATE_CWND_EVERY_OTHER_RTT (tcp-fast.h)",
    },
    ParamSpec {
        name: "min_update_interval",
        kind: ParamKind::Duration { min: 0.0, max: 3600.0 },
        default: ParamDefault::Num(0.01),
        description: "minimum time between two window updates, seconds (cadence ns2: the update period, also the span over which an increase is paced)",
        source: "ns-2 FAST module cwnd_update_period_ 0.01 (ns-default.tcl, bound to fast_update_cwnd_interval_)",
    },
    ParamSpec {
        name: "spread_increase",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "apply a window increase gradually (decreases are immediate): cadence ns2 paces whole packets over one update period, cadence round spreads it evenly over the next round",
        source: "ns-2 module fast_pace",
    },
    ParamSpec {
        name: "mi_threshold",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(0.00075),
        description: "queueing delay (avgRTT - baseRTT, seconds) below which the window grows by one per ACK",
        source: "ns-2 FAST module mi_threshold_ 0.00075 (ns-default.tcl)",
    },
    ParamSpec {
        name: "mi_reentry",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "grow by one per ACK whenever the queueing delay is below mi_threshold (false: only from the start, or a timeout, until it first reaches it)",
        source: "ns-2 FAST module fast_cc (the test runs on every new ACK); false keeps a flow whose equilibrium queueing delay alpha/rate is below mi_threshold from oscillating (our option)",
    },
    ParamSpec {
        name: "cap_2w",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "limit each update to at most doubling the window",
        source: "ns-2 FAST module fast_calc_cwnd has no cap; P002-P004 state min(2w, ...), an option",
    },
    ParamSpec {
        name: "window_arithmetic",
        kind: ParamKind::Choice(&["double", "int", "int_carry"]),
        default: ParamDefault::Str("double"),
        description: "how an update's target is stored: as a real number, truncated to whole packets, or truncated with the fractions carried to later updates",
        source: "ns-2 FAST module high_accuracy_cwnd_ 2 = double (1 = int_carry, 0 = int)",
    },
    ParamSpec {
        name: "avg_rtt_max_weight",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(1.0 / 256.0),
        description: "largest per-ACK EWMA weight of avgRTT; the weight is min(3/w, this), w the flight (cadence ns2) or the window (round)",
        source: "ns-2 module fast_est_update_avgrtt",
    },
    ParamSpec {
        name: "pacing",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "space packets at cwnd/avgRTT (twice that during the start-up growth) instead of sending as ACKs open the window",
        source: "our choice: the ns-2 module does not pace (its fast_pace spreads window increases, not packets); FAST's design papers (Jin, Wei, Low 2004) name burstiness control as one of its four components; the seed papers give no rule",
    },
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arithmetic {
    Double,
    Int,
    IntCarry,
}

/// The FAST controller, with VFAST's filter and RRFast's detector as optional parts.
pub struct Fast {
    alpha: f64,
    beta: f64,
    gamma: f64,
    /// The module's cadence (`fast_ns2.rs`); None runs one update per round (`cadence = "round"`).
    module: Option<ModuleClock>,
    every_other: bool,
    min_interval: Time,
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
    /// Seconds. None before the first sample and right after an RRFast reset.
    base_rtt: Option<f64>,
    avg_rtt: Option<f64>,
    /// The delay the last update used (avgRTT, or VFAST's SRTT).
    delay_used: Option<f64>,
    rounds: Rounds,
    last_update: Time,
    mi: bool,
    pending_increase: f64,
    increase_per_ack: f64,
    period_min_rtt: f64,
    /// Window updates run so far (for tests and traces).
    pub updates: u64,
    pub(super) vfast: Option<(AsymmetricEwma, FilterPlacement)>,
    pub(super) reroute: Option<RerouteDetector>,
    pub(super) ccafr: Option<Ccafr>,
}

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Fast::new(p, ctx))
}

/// EMFAST (P003): MFAST (FAST's controller, unchanged) with CCaFR after fast recovery.
pub fn build_emfast(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    let mut f = Fast::new(p, ctx);
    f.ccafr = Some(Ccafr::new(p));
    Box::new(f)
}

impl Fast {
    pub fn new(p: &Params, ctx: &FlowContext) -> Fast {
        Fast {
            alpha: p.num("alpha"),
            beta: p.num("beta"),
            gamma: p.num("gamma"),
            module: (p.choice("cadence") == "ns2").then(ModuleClock::default),
            every_other: p.flag("update_every_other_rtt"),
            min_interval: from_secs(p.num("min_update_interval")),
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
            base_rtt: None,
            avg_rtt: None,
            delay_used: None,
            rounds: Rounds::default(),
            last_update: 0,
            mi: true,
            pending_increase: 0.0,
            increase_per_ack: 0.0,
            period_min_rtt: f64::INFINITY,
            updates: 0,
            vfast: None,
            reroute: None,
            ccafr: None,
        }
    }

    /// One RTT sample. `weight_base` is what the EWMA weight 3/x divides: the window (round cadence) or
    /// the module's flight estimate.
    fn on_sample(&mut self, rtt: f64, external_base: bool, weight_base: f64) {
        if !external_base {
            self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        }
        self.period_min_rtt = self.period_min_rtt.min(rtt);
        let avg = match (&mut self.vfast, self.avg_rtt) {
            (Some((ewma, FilterPlacement::PerAck)), _) => ewma.update(rtt),
            (_, None) => rtt,
            (_, Some(a)) => {
                let w = (3.0 / weight_base).min(self.max_weight);
                (1.0 - w) * a + w * rtt
            }
        };
        self.avg_rtt = Some(avg);
    }

    /// The window equation's target for this update (`fast_calc_cwnd`), or None when there is nothing to
    /// compute with, the flow sits in the dead band, or RRFast has just forgotten baseRTT.
    fn target(&mut self, w_old: f64) -> Option<f64> {
        let (Some(base), Some(avg)) = (self.base_rtt, self.avg_rtt) else { return None };
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
        let detect = match &mut self.module {
            Some(m) if m.detected_round == Some(m.rounds) => false,
            Some(m) => {
                m.detected_round = Some(m.rounds);
                true
            }
            None => true,
        };
        if let (Some(det), true) = (&mut self.reroute, detect) {
            if det.after_update(w, target, base, avg, self.period_min_rtt, self.alpha) {
                // Rerouted to a longer path: forget baseRTT; the next sample defines it. This period's
                // update is skipped (algorithms.md RR4).
                self.base_rtt = None;
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
            let acks = w * if self.every_other { 2.0 } else { 1.0 };
            self.increase_per_ack = self.pending_increase / acks.max(1.0);
        } else {
            self.cwnd = target;
            self.pending_increase = 0.0;
        }
    }

    /// Whether the per-ACK start-up growth applies now.
    fn mi_now(&mut self) -> bool {
        let queueing = match (self.avg_rtt, self.base_rtt) {
            (Some(a), Some(b)) => a - b,
            _ => 0.0,
        };
        if self.mi_reentry {
            self.mi = queueing < self.mi_threshold;
        } else if self.mi && queueing >= self.mi_threshold {
            self.mi = false;
        }
        self.mi
    }

    /// CCaFR's per-ACK window after recovery, if it is active; true when it set the window.
    fn ccafr_step(&mut self, ack: &AckEvent, old_pif: f64, round_started: bool) -> bool {
        let Some(afr) = &mut self.ccafr else { return false };
        let input = AfrInput {
            now: ack.now,
            rtt: ack.rtt.map(secs),
            base: self.base_rtt,
            avg: self.avg_rtt,
            old_pif,
            cwnd: self.cwnd,
            alpha: self.alpha,
            gamma: self.gamma,
            round_started,
        };
        let Some(w) = afr.on_ack(&input) else { return false };
        // Per-ACK updates bypass the update gate and the spreading of increases (E4).
        self.cwnd = w;
        self.pending_increase = 0.0;
        if let Some(m) = &mut self.module {
            m.increments = 0.0;
        }
        self.last_update = ack.now;
        true
    }

    /// An ACK at the module's cadence (tcp-fast.cc recv -> fast_est -> fast_cc).
    fn on_ack_ns2(&mut self, ack: &AckEvent) {
        let Some(mut m) = self.module.take() else { return };
        // fast_est: newack() has cleared dupacks_, so the flight is t_seqno_ - seqno = inflight + 1.
        m.flight = ack.inflight as f64 + 1.0;
        if let Some(r) = ack.rtt {
            self.on_sample(secs(r), ack.base_rtt.is_some(), m.flight);
        }
        let old = m.old_flight(ack.snd_una).unwrap_or(m.flight);
        // A retransmitted packet's ACK gives no sample; the module then times its round with avgRTT.
        let rtt = ack.rtt.or(self.avg_rtt.map(from_secs)).unwrap_or(0);
        let round_started = m.on_ack(ack.now, rtt);
        self.module = Some(m);
        if self.ccafr_step(ack, old, round_started) {
            return;
        }
        let now = ack.now;
        if self.mi_now() {
            self.cwnd += 1.0;
            self.last_update = now;
            return;
        }
        let pace_ok = self.base_rtt.is_some_and(|b| b >= PACE_MIN_BASE_RTT_S);
        let period = secs(self.min_interval);
        let avg = self.avg_rtt.unwrap_or(0.0);
        let on_round = !self.every_other || !self.module.as_ref().is_some_and(|m| m.off_round);
        if on_round && now >= self.last_update + self.min_interval {
            if let Some(m) = &mut self.module {
                m.increments = 0.0;
            }
            let target = self.target(old).unwrap_or(self.cwnd);
            let mut cwnd = self.cwnd;
            match &mut self.module {
                Some(m) if target >= cwnd && pace_ok && self.spread => {
                    let steps = (target - cwnd) as i64;
                    m.pace(&mut cwnd, steps, period, avg)
                }
                _ => cwnd = target,
            }
            self.cwnd = cwnd;
            self.last_update = now;
        } else if pace_ok {
            let mut cwnd = self.cwnd;
            if let Some(m) = &mut self.module {
                m.pace(&mut cwnd, 0, period, avg);
            }
            self.cwnd = cwnd;
        }
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
            let due = !self.every_other || self.rounds.count.is_multiple_of(2);
            if due && !self.mi && ack.now.saturating_sub(self.last_update) >= self.min_interval {
                self.update(ack.inflight_at_send as f64);
                self.last_update = ack.now;
            }
        }
    }

    pub fn backlog_estimate(&self) -> f64 {
        match (self.base_rtt, self.avg_rtt) {
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
        if let Some(b) = ack.base_rtt {
            self.base_rtt = Some(secs(b));
        }
        if ack.in_recovery {
            // Updates are frozen during recovery and the period restarts when it ends.
            self.last_update = ack.now;
            return;
        }
        if self.module.is_some() {
            self.on_ack_ns2(ack)
        } else {
            self.on_ack_round(ack)
        }
    }

    fn on_send(&mut self, now: Time, seq: u64, _retransmit: bool, _inflight: u64) {
        if let Some(m) = &mut self.module {
            m.on_send(now, seq);
        }
    }

    fn on_handshake(&mut self, now: Time, rtt: Time) {
        // The module takes its first baseRTT and avgRTT from the SYN (recv(): firstrecv_).
        let r = secs(rtt);
        if self.base_rtt.is_none() {
            self.base_rtt = Some(r);
        }
        self.avg_rtt = Some(r);
        if let Some(m) = &mut self.module {
            m.on_handshake(now, rtt);
        }
    }

    /// The module's own SACK-scoreboard recovery at its cadence; the round model keeps NewReno's.
    fn recovery(&self) -> Recovery {
        if self.module.is_some() {
            Recovery::FastModule
        } else {
            Recovery::NewReno
        }
    }

    fn stale_after(&self) -> Option<Time> {
        self.avg_rtt.map(|a| from_secs(2.0 * a))
    }

    fn on_loss(&mut self, _loss: &LossEvent) {
        if let Some(afr) = &mut self.ccafr {
            afr.on_loss(self.cwnd);
        }
        if self.module.is_some() {
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
        self.last_update = now;
        if let Some(afr) = &mut self.ccafr {
            afr.on_recovery_exit(now, self.cwnd);
        }
    }

    fn on_timeout(&mut self, now: Time, _inflight: u64) {
        if let Some(afr) = &mut self.ccafr {
            afr.on_timeout();
        }
        self.ssthresh =
            if self.module.is_some() { (self.cwnd / 2.0).trunc() } else { self.cwnd / 2.0 }.max(2.0);
        // The module's timeout() sets cwnd_ = slowstart_ (2) and keeps any increments not yet taken.
        self.cwnd = 2.0;
        self.pending_increase = 0.0;
        self.mi = true;
        self.last_update = now;
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
        let delay = self.avg_rtt.filter(|d| *d > 0.0)?;
        let gain = if self.mi { 2.0 } else { 1.0 };
        Some(gain * self.cwnd * self.packet_bits / delay)
    }

    fn trace(&self) -> CcTrace {
        CcTrace {
            base_rtt: self.base_rtt.map(from_secs),
            srtt: self.delay_used.or(self.avg_rtt).map(from_secs),
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
        out.push(self.avg_rtt.unwrap_or(f64::NAN));
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
mod tests {
    use super::*;
    use crate::cc::scripted::ScriptedPath;
    use crate::cc::{algorithm, ParamValue};

    const MS: Time = 1_000_000;

    fn fast(iw: f64, alpha: f64, tweak: &[(&'static str, ParamValue)]) -> Fast {
        let mut p = algorithm("fast").expect("registered").defaults();
        p.set("alpha", ParamValue::Num(alpha));
        for (k, v) in tweak {
            p.set(k, v.clone());
        }
        Fast::new(&p, &FlowContext::new(iw))
    }

    /// FAST as delaycc modelled it before following the module: one update per other round, growth by
    /// one per ACK only at start-up, each update at most doubling the window.
    fn round_fast(iw: f64, alpha: f64, tweak: &[(&'static str, ParamValue)]) -> Fast {
        let mut p = algorithm("fast").expect("registered").defaults();
        p.set("alpha", ParamValue::Num(alpha));
        p.set("cadence", ParamValue::Str("round".into()));
        p.set("min_update_interval", ParamValue::Num(0.0));
        p.set("mi_reentry", ParamValue::Bool(false));
        p.set("cap_2w", ParamValue::Bool(true));
        for (k, v) in tweak {
            p.set(k, v.clone());
        }
        Fast::new(&p, &FlowContext::new(iw))
    }

    fn ack(now: Time, rtt: Time) -> AckEvent {
        AckEvent {
            now,
            rtt: Some(rtt),
            acked: 1,
            inflight_at_send: 10,
            inflight: 10,
            in_recovery: false,
            snd_una: 0,
            timestamps: None,
            base_rtt: None,
            rate: None,
        }
    }

    #[test]
    fn avg_rtt_weight_is_min_of_3_over_w_and_1_over_256() {
        let mut f = round_fast(10.0, 20.0, &[]);
        f.mi = false;
        f.on_ack(&ack(0, 100 * MS));
        assert_eq!(f.avg_rtt, Some(0.1));
        f.on_ack(&ack(1, 200 * MS));
        assert!((f.avg_rtt.unwrap_or(0.0) - (0.1 + 0.1 / 256.0)).abs() < 1e-12);
        // Above 768 packets the weight is 3/w.
        f.cwnd = 3000.0;
        let before = f.avg_rtt.unwrap_or(0.0);
        f.on_ack(&ack(2, 200 * MS));
        let expected = before + (0.2 - before) * 3.0 / 3000.0;
        assert!((f.avg_rtt.unwrap_or(0.0) - expected).abs() < 1e-12);
    }

    #[test]
    fn reaches_alpha_packets_queued_on_a_scripted_path() {
        // 50 ms, 0.5 ms per packet: 100 packets fill the pipe; α = 20 more sit in the queue.
        let mut path = ScriptedPath::new(round_fast(2.0, 20.0, &[]), 50 * MS, MS / 2);
        path.run_until(60_000 * MS);
        let backlog = path.cc.backlog_estimate();
        assert!((backlog - 20.0).abs() < 1.0, "backlog {backlog}");
        assert!((path.cc.cwnd - 120.0).abs() < 2.0, "cwnd {}", path.cc.cwnd);
        // The module paces only whole packets of an increase (int(target - w)), so with γ = 1/2 the
        // window stops up to two packets short of the fixed point: α - 2 < backlog <= α.
        let mut path = ScriptedPath::new(fast(2.0, 20.0, &[]), 50 * MS, MS / 2);
        path.run_until(60_000 * MS);
        let backlog = path.cc.backlog_estimate();
        assert!((17.5..=20.5).contains(&backlog), "module backlog {backlog}");
    }

    #[test]
    fn updates_every_other_round_by_default_and_every_round_on_request() {
        let run = |every_other: bool| {
            let mut path = ScriptedPath::new(
                round_fast(2.0, 20.0, &[("update_every_other_rtt", ParamValue::Bool(every_other))]),
                50 * MS,
                MS / 2,
            );
            path.run_until(30_000 * MS);
            let (u0, r0) = (path.cc.updates, path.cc.rounds.count);
            path.run_until(60_000 * MS);
            (path.cc.updates - u0) as f64 / (path.cc.rounds.count - r0) as f64
        };
        assert!((run(true) - 0.5).abs() < 0.02, "every other round: {}", run(true));
        assert!((run(false) - 1.0).abs() < 0.02, "every round: {}", run(false));
    }

    #[test]
    fn increases_are_spread_over_the_next_period_unless_disabled() {
        let biggest_step = |spread: bool| {
            let mut path = ScriptedPath::new(
                round_fast(2.0, 50.0, &[("spread_increase", ParamValue::Bool(spread))]),
                50 * MS,
                MS / 2,
            );
            // From the end of the start-up phase, watch the equation's increases ACK by ACK.
            while path.cc.mi && path.step() {}
            let mut prev = path.cc.cwnd;
            let mut max_step: f64 = 0.0;
            while path.now < 5_000 * MS && path.step() {
                max_step = max_step.max(path.cc.cwnd - prev);
                prev = path.cc.cwnd;
            }
            max_step
        };
        assert!(biggest_step(true) < 1.0, "spread: {}", biggest_step(true));
        assert!(biggest_step(false) > 5.0, "all at once: {}", biggest_step(false));
    }

    #[test]
    fn loss_halves_and_freezes_timeout_restarts_from_two() {
        let mut f = round_fast(2.0, 20.0, &[]);
        f.cwnd = 100.0;
        f.on_loss(&LossEvent { now: 0, inflight: 100, lost_was_retransmit: false });
        assert_eq!(f.cwnd, 50.0);
        assert!(!f.mi);
        let updates = f.updates;
        for k in 0..500 {
            let mut ev = ack(k * MS, 80 * MS);
            ev.in_recovery = true;
            ev.snd_una = k * 10;
            f.on_ack(&ev);
        }
        assert_eq!((f.cwnd, f.updates), (50.0, updates), "no update during recovery");
        assert_eq!(f.avg_rtt, None, "no RTT samples during recovery");
        f.on_timeout(600 * MS, 50);
        assert_eq!(f.cwnd, 2.0);
        assert!(f.mi, "multiplicative increase restarts after a timeout");
    }

    #[test]
    fn the_update_never_more_than_doubles_the_window() {
        let mut f = round_fast(2.0, 1000.0, &[("spread_increase", ParamValue::Bool(false))]);
        f.mi = false;
        f.cwnd = 10.0;
        f.base_rtt = Some(0.1);
        f.avg_rtt = Some(0.1);
        f.update(10.0);
        assert_eq!(f.cwnd, 20.0);
        f.cap_2w = false;
        f.update(20.0);
        assert_eq!(f.cwnd, 0.5 * 20.0 + 0.5 * (20.0 + 1000.0));
    }

    #[test]
    fn module_cadence_runs_about_ten_steps_per_on_round_of_100_ms() {
        // 100 ms propagation, 1 ms per packet at the bottleneck: the on-rounds are about 100 ms long.
        let mut path = ScriptedPath::new(fast(2.0, 20.0, &[]), 100 * MS, MS);
        path.run_until(30_000 * MS);
        let u0 = path.cc.updates;
        path.run_until(60_000 * MS);
        let per_second = (path.cc.updates - u0) as f64 / 30.0;
        // Half the time is on-rounds: 0.5 s of 10 ms periods per second, each ended by the first ACK
        // after it (about one ACK per ms), so 45-50 updates per second; the round cadence makes about 4.
        assert!((40.0..=50.0).contains(&per_second), "{per_second} updates/s");
    }

    #[test]
    fn module_increases_move_one_packet_per_ack_at_most() {
        let mut path = ScriptedPath::new(fast(2.0, 50.0, &[]), 50 * MS, MS / 2);
        while path.cc.mi_now() && path.step() {}
        let mut prev = path.cc.cwnd;
        let mut max_step: f64 = 0.0;
        while path.now < 5_000 * MS && path.step() {
            max_step = max_step.max(path.cc.cwnd - prev);
            prev = path.cc.cwnd;
        }
        assert_eq!(max_step, 1.0, "fast_pace adds whole packets, one per ACK at most");
    }

    #[test]
    fn module_old_cwnd_is_frozen_through_recovery() {
        let mut f = fast(2.0, 20.0, &[]);
        f.cwnd = 100.0;
        let m = f.module.as_mut().expect("ns2 cadence");
        m.flight = 100.0;
        // Packets 0..100 left with flight 100; a loss, then packets 100..150 during recovery.
        for s in 0..100 {
            f.on_send(0, s, false, 100);
        }
        f.on_loss(&LossEvent { now: 0, inflight: 100, lost_was_retransmit: false });
        for k in 0..50 {
            let mut ev = ack(k * MS, 80 * MS);
            ev.in_recovery = true;
            ev.snd_una = 1 + k;
            f.on_ack(&ev);
            f.on_send(k * MS, 100 + k, false, 50);
        }
        assert_eq!(f.cwnd, 50.0);
        let m = f.module.as_mut().expect("ns2 cadence");
        assert_eq!(m.flight, 100.0, "fast_est does not run during recovery");
        assert_eq!(m.old_flight(120), Some(100.0), "packets sent in recovery carry the pre-loss flight");
    }

    #[test]
    fn module_mi_resumes_whenever_the_queue_empties() {
        let mut f = fast(2.0, 20.0, &[]);
        f.base_rtt = Some(0.1);
        f.avg_rtt = Some(0.11);
        f.cwnd = 50.0;
        f.mi = false;
        let mut ev = ack(1000 * MS, 110 * MS);
        ev.inflight = 49;
        f.on_ack(&ev);
        assert!(!f.mi, "10 ms of queueing: no per-ACK growth");
        f.avg_rtt = Some(0.1003);
        let before = f.cwnd;
        f.on_ack(&ack(1001 * MS, 100 * MS));
        assert_eq!(f.cwnd, before + 1.0, "0.3 ms < mi_threshold: one packet per ACK again");
        let mut g = round_fast(2.0, 20.0, &[]);
        g.base_rtt = Some(0.1);
        g.avg_rtt = Some(0.1003);
        g.cwnd = 50.0;
        g.mi = false;
        g.on_ack(&ack(1001 * MS, 100 * MS));
        assert_eq!(g.cwnd, 50.0, "mi_reentry = false: start-up growth never returns");
    }

    #[test]
    fn the_syn_seeds_base_and_average_rtt() {
        let mut f = fast(2.0, 20.0, &[]);
        f.on_handshake(100 * MS, 99 * MS);
        assert_eq!((f.base_rtt, f.avg_rtt), (Some(0.099), Some(0.099)));
        f.on_ack(&ack(200 * MS, 100 * MS));
        assert_eq!(f.base_rtt, Some(0.099), "a data packet's longer RTT does not replace it");
    }

    #[test]
    fn beta_above_alpha_opens_a_dead_band() {
        let mut f = fast(2.0, 20.0, &[("beta", ParamValue::Num(40.0))]);
        f.cwnd = 100.0;
        f.base_rtt = Some(0.1);
        // w_old·q/avgRTT = 100·0.03/0.13 = 23 packets: inside [20, 40).
        f.avg_rtt = Some(0.13);
        assert_eq!(f.target(100.0), None);
        f.avg_rtt = Some(0.2);
        assert!(f.target(100.0).is_some(), "50 packets queued: above the band");
    }

    #[test]
    fn window_arithmetic_truncates_or_carries() {
        let go = |mode: &str| {
            let mut f = fast(2.0, 0.5, &[("window_arithmetic", ParamValue::Str(mode.into()))]);
            f.base_rtt = Some(0.1);
            f.avg_rtt = Some(0.1);
            f.cwnd = 10.0;
            (0..5).map(|_| f.target(10.0).unwrap_or(0.0)).collect::<Vec<_>>()
        };
        // Target 0.5·10 + 0.5·(10 + 0.5) = 10.25 every time; the carry must exceed one packet.
        assert_eq!(go("double"), vec![10.25; 5]);
        assert_eq!(go("int"), vec![10.0; 5]);
        assert_eq!(go("int_carry"), vec![10.0, 10.0, 10.0, 10.0, 11.0]);
        // The carry belongs to the equation, not to the module's cadence: the round model keeps its own.
        let mut f = round_fast(2.0, 0.5, &[("window_arithmetic", ParamValue::Str("int_carry".into()))]);
        f.base_rtt = Some(0.1);
        f.avg_rtt = Some(0.1);
        f.cwnd = 10.0;
        f.target(10.0);
        assert!(f.module.is_none(), "int_carry must not switch the round cadence to the module's");
    }
}
