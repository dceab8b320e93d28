//! EMFAST (P003): MFAST with CCaFR (`ccafr.rs`) after fast recovery. MFAST is FAST's controller unchanged
//! (its streams are the transport's business), so EMFAST is FAST's controller with CCaFR plugged in.

use super::ccafr::{Ccafr, PARAMS as CCAFR_PARAMS};
use super::controller::Fast;
use super::params::PARAMS as FAST_PARAMS;
use crate::cc::{CongestionControl, FlowContext};
use crate::model::params::{ParamSpec, Params};

/// FAST's parameters, then CCaFR's.
pub const GROUPS: &[&[ParamSpec]] = &[FAST_PARAMS, CCAFR_PARAMS];

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    let mut f = Fast::new(p, ctx);
    f.ccafr = Some(Ccafr::new(p));
    Box::new(f)
}
