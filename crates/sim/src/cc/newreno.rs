//! NewReno (RFC 6582): Reno's window rules with partial-ACK recovery, so several losses in one window are
//! repaired in one recovery episode. The recovery itself lives in the transport; see `reno.rs`.

use super::reno::Reno;
use super::{CongestionControl, FlowContext};
use crate::model::params::Params;

pub fn build(p: &Params, ctx: &FlowContext) -> Box<dyn CongestionControl> {
    Box::new(Reno::new(p, ctx, true))
}
