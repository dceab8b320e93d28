//! delaycc-sim: a packet-level discrete-event simulator for delay-based TCP congestion control.
//!
//! Layers, lowest first; each imports only from the layers before it:
//! - `time`, `units`, `rng`: time in nanoseconds, quantities with units, seeded random streams.
//! - `model`: the validated scenario as plain data (`Scenario`, `FlowSpec`, `TransportConfig`, ...).
//! - `engine`: the event queue.
//! - `net`: packets, link directions, routes.
//! - `cc`: congestion control behind one trait, and the table of algorithms.
//! - `transport`: the endpoints: TCP-like flows (sender and receiver, driving their controller) and
//!   datagram sources.
//! - `measure`: the time series sampled from flows, links and sources.
//! - `scenario`: TOML or JSON in, a validated `model::Scenario` (or one line per error) out.
//! - `sim`: builds the network from the model, runs the events, and collects the results
//!   (`run_scenario`, `RunResult`, summary.json).
//!
//! The order is the `layers` block of ARCHITECTURE.md, which `tests/test_layers.py` enforces.

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
pub use sim::{run_scenario, run_scenario_with, Outcome, RunResult, Simulation};
