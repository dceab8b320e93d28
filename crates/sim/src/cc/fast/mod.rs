//! The FAST family: FAST's controller, the parts its variants plug into it, and one builder per variant.
//!
//! - core: `params.rs` (FAST's parameter table), `controller.rs` (the controller and plain FAST's
//!   builder, which MFAST shares);
//! - parts: `ns2_cadence.rs` (the ns-2 module's timed rounds and paced increases), `rtt_filter.rs`
//!   (VFAST's asymmetric EWMA), `reroute.rs` (RRFast's reroute detector), `ccafr.rs` (EMFAST's CCaFR),
//!   each with the parameters it reads;
//! - builders: `vfast.rs`, `rrfast.rs`, `emfast.rs`, each FAST's controller with one part plugged in.
//!
//! Dependencies point one way so each piece can be read and tested alone: parts import nothing from the
//! core or the builders, the core imports parts, and a builder imports the core and parts but never a
//! sibling builder.

mod ccafr;
mod controller;
pub mod emfast;
mod ns2_cadence;
mod params;
mod reroute;
pub mod rrfast;
mod rtt_filter;
pub mod vfast;

pub use controller::{build, Fast};
pub use params::PARAMS;
