//! VFAST (P000): FAST whose delay estimate D is an asymmetric EWMA: weight ψ_up = 0.75 on the newest value
//! when it is above the running estimate (rising RTT, congestion risk) and ψ_down = 0.5 when it is not.
//! By default the filter runs once per window update on FAST's own avgRTT
//! (docs/algorithms.md#vfast-filter-placement reading (b)); `filter = "per-ack"` runs it on every raw sample
//! instead of the module's EWMA.

use super::controller::Fast;
use super::params::PARAMS as FAST_PARAMS;
use super::rtt_filter::{self, PARAMS as FILTER_PARAMS};
use crate::cc::{CongestionControl, FlowContext};
use crate::model::params::{ParamSpec, Params};

/// FAST's parameters, then the filter's.
pub const GROUPS: &[&[ParamSpec]] = &[FAST_PARAMS, FILTER_PARAMS];

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    let mut f = Fast::new(p, ctx);
    f.vfast = Some(rtt_filter::from_params(p));
    Box::new(f)
}
