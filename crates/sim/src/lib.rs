//! delaycc-sim: a packet-level discrete-event simulator for delay-based TCP congestion control.
//!
//! Layers, top to bottom: `scenario` (TOML -> validated model), `engine` (clock and event queue), `net`
//! (links, packets, routes), `transport` (TCP-like sender/receiver), `cc` (congestion control behind one
//! trait), `measure` (time series and summary), and `sim`, which wires them together.

pub mod cc;
pub mod engine;
pub mod measure;
pub mod model;
pub mod net;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod time;
pub mod transport;
pub mod units;

pub use model::Scenario;
pub use sim::{run_scenario, Outcome, RunResult, Simulation};
