//! VFAST's delay filter (P000): an asymmetric EWMA that follows a rising RTT (congestion risk) faster
//! than a falling one. It is a part of FAST's controller rather than a controller of its own because
//! VFAST changes nothing else: the controller feeds it either once per window update with avgRTT
//! (docs/algorithms.md#vfast-filter-placement reading (b), the default) or every raw sample in place of the
//! module's EWMA.

use crate::model::params::{ParamDefault, ParamKind, ParamSpec, Params};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "psi_up",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.75),
        description: "EWMA weight of the newest RTT when it is above the smoothed RTT",
        source: "P000 §V case b (found by simulation)",
    },
    ParamSpec {
        name: "psi_down",
        kind: ParamKind::Float { min: 0.0, max: 1.0, min_exclusive: true },
        default: ParamDefault::Num(0.5),
        description: "EWMA weight of the newest RTT when it is at or below the smoothed RTT",
        source: "P000 §V case a (found by simulation)",
    },
    ParamSpec {
        name: "filter",
        kind: ParamKind::Choice(&["per-update", "per-ack"]),
        default: ParamDefault::Str("per-update"),
        description:
            "where the asymmetric filter runs: once per window update on avgRTT, or per ACK on raw samples",
        source:
            "docs/algorithms.md#vfast-filter-placement: reading (b) changes FAST the least and smooths as much as the module per RTT",
    },
];

/// Where the controller runs the filter (the `filter` parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterPlacement {
    PerUpdate,
    PerAck,
}

/// s ← ψ·x + (1−ψ)·s with ψ depending on whether x is above s. Starts at the first value.
#[derive(Clone, Debug)]
pub struct AsymmetricEwma {
    up: f64,
    down: f64,
    value: Option<f64>,
}

impl AsymmetricEwma {
    pub fn new(up: f64, down: f64) -> Self {
        AsymmetricEwma { up, down, value: None }
    }

    pub fn update(&mut self, x: f64) -> f64 {
        let v = match self.value {
            None => x,
            Some(s) => {
                let psi = if x > s { self.up } else { self.down };
                psi * x + (1.0 - psi) * s
            }
        };
        self.value = Some(v);
        v
    }
}

/// The filter and its placement as a flow's parameters set them.
pub fn from_params(p: &Params) -> (AsymmetricEwma, FilterPlacement) {
    let placement =
        if p.choice("filter") == "per-ack" { FilterPlacement::PerAck } else { FilterPlacement::PerUpdate };
    (AsymmetricEwma::new(p.num("psi_up"), p.num("psi_down")), placement)
}

#[cfg(test)]
mod tests {
    use super::AsymmetricEwma;

    #[test]
    fn rises_fast_and_falls_slower() {
        let mut e = AsymmetricEwma::new(0.75, 0.5);
        assert_eq!(e.update(100.0), 100.0);
        assert_eq!(e.update(200.0), 175.0);
        assert_eq!(e.update(75.0), 125.0);
    }
}
