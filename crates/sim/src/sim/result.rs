//! What a run gives back, and the one-call entry point that produces it: run a validated scenario and
//! collect its summary, time series and counts.

use super::{summary_json, Outcome, PacketCounts, Simulation};
use crate::measure::{Series, SeriesStore};
use crate::model::Scenario;
use crate::time::Time;
use std::time::Instant;

/// The results of one run, taken out of the simulation.
pub struct RunResult {
    pub summary: serde_json::Value,
    pub times: Vec<f64>,
    pub series: Vec<Series>,
    /// The values of `series[i]` are `values.series(i)`.
    pub values: SeriesStore,
    pub outcome: Outcome,
    pub counts: PacketCounts,
    pub events: u64,
}

/// Runs the scenario. `progress(now)` is called periodically; returning false interrupts the run.
pub fn run_scenario(scenario: Scenario, progress: impl FnMut(Time) -> bool) -> RunResult {
    let t0 = Instant::now();
    let mut sim = Simulation::new(scenario);
    let outcome = sim.run(progress);
    let wall = t0.elapsed().as_secs_f64();
    let summary = summary_json(&sim, outcome, wall);
    let counts = sim.counts;
    let events = sim.events_processed;
    RunResult {
        summary,
        times: std::mem::take(&mut sim.recorder.times),
        series: std::mem::take(&mut sim.recorder.series),
        values: std::mem::take(&mut sim.recorder.values),
        outcome,
        counts,
        events,
    }
}
