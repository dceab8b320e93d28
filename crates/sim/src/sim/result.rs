//! What a run gives back, and the one-call entry point that produces it: run a validated scenario and
//! collect its summary, time series and counts.

use super::{summary_json, Outcome, PacketCounts, Simulation};
use crate::measure::pcap::PcapOptions;
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
    let sim = Simulation::new(scenario);
    finish_run(sim, progress, Instant::now()).expect("a run without traces writes no file")
}

/// `run_scenario`, writing the packet traces the scenario asks for (or, with `all_flows`, one per flow)
/// into `pcap.dir` when `pcap` is given. A trace that cannot be written fails the run: the message names
/// the file and the reason. A run stopped early keeps its traces so far under their final names
/// (summary.json says the run is partial).
pub fn run_scenario_with(
    scenario: Scenario,
    pcap: Option<&PcapOptions>,
    progress: impl FnMut(Time) -> bool,
) -> Result<RunResult, String> {
    let t0 = Instant::now();
    let sim = match pcap {
        Some(opts) => Simulation::with_pcap(scenario, opts)?,
        None => Simulation::new(scenario),
    };
    finish_run(sim, progress, t0)
}

fn finish_run(
    mut sim: Simulation,
    progress: impl FnMut(Time) -> bool,
    t0: Instant,
) -> Result<RunResult, String> {
    let outcome = sim.run(progress);
    sim.finish_traces()?;
    let wall = t0.elapsed().as_secs_f64();
    let summary = summary_json(&sim, outcome, wall);
    let counts = sim.net.counts;
    let events = sim.events_processed;
    Ok(RunResult {
        summary,
        times: std::mem::take(&mut sim.recorder.times),
        series: std::mem::take(&mut sim.recorder.series),
        values: std::mem::take(&mut sim.recorder.values),
        outcome,
        counts,
        events,
    })
}
