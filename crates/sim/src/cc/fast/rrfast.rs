//! RRFast (P002): FAST that tells a longer new route from congestion. When the reroute detector
//! (`reroute.rs`) concludes the path got longer, baseRTT is reset (the next sample defines it) and that
//! period's update is skipped.

use super::controller::Fast;
use super::params::PARAMS as FAST_PARAMS;
use super::reroute::{RerouteDetector, PARAMS as REROUTE_PARAMS};
use crate::cc::{CongestionControl, FlowContext};
use crate::model::params::{ParamSpec, Params};

/// FAST's parameters, then the detector's.
pub const GROUPS: &[&[ParamSpec]] = &[FAST_PARAMS, REROUTE_PARAMS];

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    let mut f = Fast::new(p, ctx);
    f.reroute = Some(RerouteDetector::new(p));
    Box::new(f)
}
