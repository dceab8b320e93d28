//! The plain data a run is made of: the validated scenario (network, flows, traffic, events, budgets),
//! each flow's transport settings, and algorithm parameters (their schemas and resolved values). The
//! lowest layer above the basic units: it imports nothing but `time`.

pub mod params;
pub mod scenario;
pub mod transport;

pub use params::{ParamDefault, ParamKind, ParamSpec, ParamValue, Params};
pub use scenario::*;
pub use transport::*;
