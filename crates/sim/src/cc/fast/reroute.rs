//! RRFast's reroute detector (P002): after FAST cuts its window while it believes it has more than 2α
//! packets queued, it watches the minimum RTT of the following update periods. If the RTT falls, the rise
//! was congestion; if the window has been cut by ρ and the RTT has not fallen after N_probe updates, the
//! path got longer and the controller must forget baseRTT. The paper's rule is in a missing flowchart:
//! every number here is the proposal of docs/algorithms.md#rrfast-parameters. It sees only the numbers each
//! update passes it, so it stays testable without a controller.

use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "probe_updates",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: ParamDefault::Num(3.0),
        description: "window updates to wait after a cut before concluding the path got longer",
        source: "docs/algorithms.md#rrfast-parameters proposal (N_probe = 3, about 6 RTTs with every-other-RTT updates)",
    },
    ParamSpec {
        name: "probe_max_updates",
        kind: ParamKind::Int { min: 1, max: 10000 },
        default: ParamDefault::Num(8.0),
        description: "updates after which an undecided probe is abandoned",
        source: "docs/algorithms.md#rrfast-parameters proposal (N_max = 8)",
    },
    ParamSpec {
        name: "min_cut",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: false },
        default: ParamDefault::Num(0.25),
        description: "cumulative window cut (fraction) required before a rerouting verdict",
        source: "docs/algorithms.md#rrfast-parameters proposal (rho = 0.25)",
    },
    ParamSpec {
        name: "rtt_drop_rel",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: false },
        default: ParamDefault::Num(0.1),
        description:
            "an RTT fall of this fraction of the queueing delay at the cut counts as 'RTT decreased'",
        source: "docs/algorithms.md#rrfast-parameters proposal (epsilon_rel = 0.1)",
    },
    ParamSpec {
        name: "rtt_drop_abs",
        kind: ParamKind::Duration { min: 0.0, max: 10.0 },
        default: ParamDefault::Num(0.001),
        description: "an RTT fall of at least this many seconds is needed to count as 'RTT decreased'",
        source: "docs/algorithms.md#rrfast-parameters proposal (epsilon_abs = 1 ms)",
    },
];

#[derive(Clone, Copy, Debug)]
enum Mode {
    Normal,
    Probe { rtt_ref: f64, w_ref: f64, updates: u32 },
}

#[derive(Clone, Debug)]
pub struct RerouteDetector {
    probe_updates: u32,
    max_updates: u32,
    min_cut: f64,
    drop_rel: f64,
    drop_abs: f64,
    mode: Mode,
    /// How many times baseRTT was reset (each one logged so false positives can be counted).
    pub resets: u64,
}

impl RerouteDetector {
    pub fn new(p: &Params) -> Self {
        RerouteDetector {
            probe_updates: p.num("probe_updates") as u32,
            max_updates: p.num("probe_max_updates") as u32,
            min_cut: p.num("min_cut"),
            drop_rel: p.num("rtt_drop_rel"),
            drop_abs: p.num("rtt_drop_abs"),
            mode: Mode::Normal,
            resets: 0,
        }
    }

    pub fn probing(&self) -> bool {
        matches!(self.mode, Mode::Probe { .. })
    }

    /// Called after FAST computed an update from `w_old` to `w_new`; `period_min` is the smallest RTT
    /// sample of the period that just ended. Returns true when baseRTT must be reset.
    pub fn after_update(
        &mut self,
        w_old: f64,
        w_new: f64,
        base: f64,
        avg: f64,
        period_min: f64,
        alpha: f64,
    ) -> bool {
        match self.mode {
            Mode::Normal => {
                let backlog = w_old * (1.0 - base / avg);
                if w_new < w_old && backlog > 2.0 * alpha && period_min.is_finite() {
                    self.mode = Mode::Probe { rtt_ref: period_min, w_ref: w_old, updates: 0 };
                }
                false
            }
            Mode::Probe { rtt_ref, w_ref, updates } => {
                let updates = updates + 1;
                let fell = period_min.is_finite()
                    && rtt_ref - period_min >= self.drop_abs.max(self.drop_rel * (rtt_ref - base));
                if fell {
                    self.mode = Mode::Normal;
                    false
                } else if updates >= self.probe_updates && w_new <= (1.0 - self.min_cut) * w_ref {
                    self.mode = Mode::Normal;
                    self.resets += 1;
                    true
                } else {
                    self.mode = if updates >= self.max_updates {
                        Mode::Normal
                    } else {
                        Mode::Probe { rtt_ref, w_ref, updates }
                    };
                    false
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::algorithm;

    fn detector() -> RerouteDetector {
        RerouteDetector::new(&algorithm("rrfast").expect("registered").defaults())
    }

    #[test]
    fn a_longer_path_is_recognised_after_the_probe() {
        let mut d = detector();
        // Path RTT jumps from 125 ms to 376 ms: FAST cuts by about a third per update, RTT stays at 376.
        assert!(!d.after_update(300.0, 200.0, 0.125, 0.376, 0.376, 4.0));
        assert!(d.probing());
        assert!(!d.after_update(200.0, 140.0, 0.125, 0.376, 0.376, 4.0));
        assert!(!d.after_update(140.0, 100.0, 0.125, 0.376, 0.376, 4.0));
        assert!(d.after_update(100.0, 70.0, 0.125, 0.376, 0.376, 4.0));
        assert_eq!(d.resets, 1);
        assert!(!d.probing());
    }

    #[test]
    fn congestion_is_confirmed_when_the_rtt_falls() {
        let mut d = detector();
        assert!(!d.after_update(300.0, 200.0, 0.100, 0.150, 0.150, 4.0));
        // The cut drained part of the queue: the period's minimum RTT fell by 20 ms of 50 ms queueing.
        assert!(!d.after_update(200.0, 150.0, 0.100, 0.140, 0.130, 4.0));
        assert!(!d.probing());
        assert_eq!(d.resets, 0);
    }

    #[test]
    fn small_cuts_around_alpha_do_not_probe() {
        let mut d = detector();
        // Backlog w(1 - base/avg) = 100 * (1 - 0.1/0.104) ≈ 3.8 < 2α.
        assert!(!d.after_update(100.0, 99.0, 0.100, 0.104, 0.104, 4.0));
        assert!(!d.probing());
    }
}
