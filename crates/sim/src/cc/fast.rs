//! FAST TCP, faithful to the CUBIN/Caltech ns-2 module the papers used (algorithms.md §1).
//!
//! Per ACK: baseRTT = minimum RTT sample (Karn's rule, none during recovery); avgRTT = EWMA with weight
//! min(3/w, 1/256). Per update (every other RTT round by default, and no more often than a minimum
//! period): w ← min(2w, (1−γ)·w + γ·(baseRTT/avgRTT·w_old + α)), w ≥ 2, where w_old is the window in
//! flight when the acked packet was sent. Increases are spread over the next period's ACKs; decreases are
//! immediate. Below `mi_threshold` of queueing delay the window grows by one per ACK (the module's
//! multiplicative-increase start). Loss: halve and freeze updates during recovery; a timeout restarts
//! from 2 packets.
//!
//! VFAST (`vfast.rs`) and RRFast (`rrfast.rs`) are this controller with one extra component each.

use super::ccafr::{AfrInput, Ccafr};
use super::params::{ParamDefault, ParamKind, ParamSpec, Params};
use super::round::Rounds;
use super::rrfast::RerouteDetector;
use super::vfast::{AsymmetricEwma, FilterPlacement};
use super::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::time::{from_secs, secs, Time};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "alpha",
        kind: ParamKind::Float { min: 0.0, max: 1e9, min_exclusive: true },
        default: ParamDefault::Num(200.0),
        description: "packets the flow aims to keep queued along its path at equilibrium",
        source: "P000 scenario I and the Caltech ns-2 FAST test scripts (alpha_ = 200); P002-P004 do not state it",
    },
    ParamSpec {
        name: "gamma",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.5),
        description: "step size of the window update, in (0, 1]",
        source: "P000 eq. (3) ('recommended 1/2') and the ns-2 module's gamma_ = 0.5",
    },
    ParamSpec {
        name: "update_every_other_rtt",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "run the window update every other RTT round (false: every round)",
        source: "ns-2 module compiled with UPDATE_CWND_EVERY_OTHER_RTT (algorithms.md F1)",
    },
    ParamSpec {
        name: "min_update_interval",
        kind: ParamKind::Duration { min: 0.0, max: 3600.0 },
        default: ParamDefault::Num(0.0),
        description: "minimum time between two window updates, seconds",
        source: "our choice: the module's fast_update_cwnd_interval_ default is unknown (algorithms.md F1); 0 leaves the round gating alone",
    },
    ParamSpec {
        name: "spread_increase",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "apply a window increase gradually over the next period's ACKs (decreases are immediate)",
        source: "ns-2 module fast_pace (algorithms.md §1.3)",
    },
    ParamSpec {
        name: "mi_threshold",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(0.00075),
        description: "queueing delay (avgRTT - baseRTT, seconds) below which the window grows by one per ACK at start-up",
        source: "algorithms.md F7 (suggested 0.75 ms; the Caltech test4 script uses 1.5 ms)",
    },
    ParamSpec {
        name: "mi_reentry",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "re-enter the per-ACK growth whenever the queueing delay falls below mi_threshold (false: only at start and after a timeout)",
        source: "our choice: re-entry keeps a flow whose equilibrium queueing delay alpha/rate is below mi_threshold from ever settling",
    },
    ParamSpec {
        name: "cap_2w",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "limit each update to at most doubling the window",
        source: "P002, P003, P004 and the module (algorithms.md F2)",
    },
    ParamSpec {
        name: "avg_rtt_max_weight",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(1.0 / 256.0),
        description: "largest per-ACK EWMA weight of avgRTT; the weight is min(3/w, this)",
        source: "ns-2 module (algorithms.md F4)",
    },
    ParamSpec {
        name: "pacing",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "space packets at cwnd/avgRTT (twice that during the start-up growth) instead of sending as ACKs open the window",
        source: "our choice: the ns-2 module does not pace (its fast_pace spreads window increases, not packets); FAST's design papers (Jin, Wei, Low 2004) name burstiness control as one of its four components; the seed papers give no rule",
    },
];

/// The FAST controller, with VFAST's filter and RRFast's detector as optional parts.
pub struct Fast {
    alpha: f64,
    gamma: f64,
    every_other: bool,
    min_interval: Time,
    spread: bool,
    mi_threshold: f64,
    mi_reentry: bool,
    cap_2w: bool,
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
            gamma: p.num("gamma"),
            every_other: p.flag("update_every_other_rtt"),
            min_interval: from_secs(p.num("min_update_interval")),
            spread: p.flag("spread_increase"),
            mi_threshold: p.num("mi_threshold"),
            mi_reentry: p.flag("mi_reentry"),
            cap_2w: p.flag("cap_2w"),
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

    fn on_sample(&mut self, rtt: f64, external_base: bool) {
        if !external_base {
            self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        }
        self.period_min_rtt = self.period_min_rtt.min(rtt);
        let avg = match (&mut self.vfast, self.avg_rtt) {
            (Some((ewma, FilterPlacement::PerAck)), _) => ewma.update(rtt),
            (_, None) => rtt,
            (_, Some(a)) => {
                let w = (3.0 / self.cwnd).min(self.max_weight);
                (1.0 - w) * a + w * rtt
            }
        };
        self.avg_rtt = Some(avg);
    }

    /// The window equation, run once per update period.
    fn update(&mut self, w_old: f64) {
        let (Some(base), Some(avg)) = (self.base_rtt, self.avg_rtt) else { return };
        self.updates += 1;
        let delay = match &mut self.vfast {
            Some((ewma, FilterPlacement::PerUpdate)) => ewma.update(avg),
            _ => avg,
        };
        self.delay_used = Some(delay);
        let w = self.cwnd;
        let mut target = (1.0 - self.gamma) * w + self.gamma * (base / delay * w_old + self.alpha);
        if self.cap_2w {
            target = target.min(2.0 * w);
        }
        target = target.max(2.0);
        if let Some(det) = &mut self.reroute {
            if det.after_update(w, target, base, avg, self.period_min_rtt, self.alpha) {
                // Rerouted to a longer path: forget baseRTT; the next sample defines it. This period's
                // update is skipped (algorithms.md RR4).
                self.base_rtt = None;
                self.period_min_rtt = f64::INFINITY;
                return;
            }
        }
        if target > w && self.spread && w > 4.0 {
            self.pending_increase = target - w;
            let acks = w * if self.every_other { 2.0 } else { 1.0 };
            self.increase_per_ack = self.pending_increase / acks.max(1.0);
        } else {
            self.cwnd = target;
            self.pending_increase = 0.0;
        }
        self.period_min_rtt = f64::INFINITY;
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
        if let Some(r) = ack.rtt {
            self.on_sample(secs(r), ack.base_rtt.is_some());
        }
        let round_done = self.rounds.on_ack(ack.snd_una, ack.snd_una + ack.inflight);
        if let Some(afr) = &mut self.ccafr {
            let input = AfrInput {
                now: ack.now,
                rtt: ack.rtt.map(secs),
                base: self.base_rtt,
                avg: self.avg_rtt,
                old_pif: ack.inflight_at_send as f64,
                cwnd: self.cwnd,
                alpha: self.alpha,
                gamma: self.gamma,
                round_started: round_done,
            };
            if let Some(w) = afr.on_ack(&input) {
                // Per-ACK updates bypass the update gate and the spreading of increases (E4).
                self.cwnd = w;
                self.pending_increase = 0.0;
                self.last_update = ack.now;
                return;
            }
        }
        if self.pending_increase > 0.0 {
            let step = self.increase_per_ack.min(self.pending_increase);
            self.cwnd += step;
            self.pending_increase -= step;
        }
        let queueing = match (self.avg_rtt, self.base_rtt) {
            (Some(a), Some(b)) => a - b,
            _ => 0.0,
        };
        if self.mi_reentry {
            self.mi = queueing < self.mi_threshold;
        } else if self.mi && queueing >= self.mi_threshold {
            self.mi = false;
        }
        if self.mi {
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

    fn on_loss(&mut self, _loss: &LossEvent) {
        if let Some(afr) = &mut self.ccafr {
            afr.on_loss(self.cwnd);
        }
        self.cwnd = (self.cwnd / 2.0).max(2.0);
        self.ssthresh = self.cwnd;
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
        self.ssthresh = (self.cwnd / 2.0).max(2.0);
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
        let mut f = fast(10.0, 20.0, &[]);
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
        let mut path = ScriptedPath::new(fast(2.0, 20.0, &[]), 50 * MS, MS / 2);
        path.run_until(60_000 * MS);
        let backlog = path.cc.backlog_estimate();
        assert!((backlog - 20.0).abs() < 1.0, "backlog {backlog}");
        assert!((path.cc.cwnd - 120.0).abs() < 2.0, "cwnd {}", path.cc.cwnd);
    }

    #[test]
    fn updates_every_other_round_by_default_and_every_round_on_request() {
        let run = |every_other: bool| {
            let mut path = ScriptedPath::new(
                fast(2.0, 20.0, &[("update_every_other_rtt", ParamValue::Bool(every_other))]),
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
                fast(2.0, 50.0, &[("spread_increase", ParamValue::Bool(spread))]),
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
        let mut f = fast(2.0, 20.0, &[]);
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
        let mut f = fast(2.0, 1000.0, &[("spread_increase", ParamValue::Bool(false))]);
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
}
