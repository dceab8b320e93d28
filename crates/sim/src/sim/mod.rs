//! The simulation: the network built from a validated scenario (`build.rs`), the event loop and its
//! checkpoints (`budget.rs`), what each event does (`events.rs`), what a run gives back (`result.rs`:
//! `run_scenario`, `RunResult`; `summary.rs`: summary.json), and the work a run will be, estimated
//! before it starts (`estimate.rs`).

mod budget;
mod build;
mod estimate;
mod events;
pub mod fct;
mod lazy_timer;
mod network;
mod result;
mod summary;
mod trace;

pub use budget::{default_max_memory, Guard, Outcome, CHECK_EVERY};
pub use estimate::{estimate, Estimate};
pub use result::{run_scenario, run_scenario_with, RunResult};
pub use summary::summary_json;

use crate::engine::Next;
use crate::measure::pcap::Traces;
use crate::measure::Recorder;
use crate::model::Scenario;
use crate::net::{LinkDir, RouteRef};
use crate::time::Time;
use crate::transport::{Flow, Source};
use network::Network;

/// Packet accounting over the whole network, for the conservation invariant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketCounts {
    pub sent: u64,
    pub delivered: u64,
    pub dropped: u64,
    pub in_flight: u64,
}

/// One run of a scenario: the network, its flows and sources, the event queue and the recorder. Built by
/// `new` (`build.rs`), advanced by `run`; read through the accessors below.
pub struct Simulation {
    scenario: Scenario,
    end: Time,
    /// The clock, the event queue, the links and the routes (`network.rs`).
    net: Network,
    flows: Vec<Flow>,
    sources: Vec<Source>,
    recorder: Recorder,
    /// Route ids for each reroute event: (forward, reverse).
    event_routes: Vec<(Option<RouteRef>, Option<RouteRef>)>,
    events_processed: u64,
    next_sample: u64,
    /// The run's budgets (`budget.rs`).
    guard: Guard,
    /// Packet traces (`trace.rs`), when the run writes any.
    traces: Option<Box<Traces>>,
}

/// Link-direction index of link `l`, direction `d` (0 = a->b).
#[inline]
pub fn dir_index(l: u32, d: u8) -> u32 {
    l * 2 + d as u32
}

impl Simulation {
    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The simulated time: of the last event processed, or the scenario's end once a run has completed.
    pub fn now(&self) -> Time {
        self.net.now
    }

    /// Every link direction, in `dir_index` order.
    pub fn links(&self) -> &[LinkDir] {
        &self.net.links
    }

    /// The flows, in the scenario's order.
    pub fn flows(&self) -> &[Flow] {
        &self.flows
    }

    /// The traffic sources, in the scenario's order.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// The time series recorded so far.
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// The recorder, to set its options (`max_samples`, `verify_untouched`) before the run.
    pub fn recorder_mut(&mut self) -> &mut Recorder {
        &mut self.recorder
    }

    /// Events processed so far.
    pub fn events_processed(&self) -> u64 {
        self.events_processed
    }

    /// Packet accounting over the whole network (`in_flight` is filled in when `run` returns).
    pub fn counts(&self) -> PacketCounts {
        self.net.counts
    }

    /// The run's budgets and the largest memory estimate taken.
    pub fn guard(&self) -> &Guard {
        &self.guard
    }

    /// Runs to the end of the scenario, or until a budget is spent (`budget.rs`). `progress` is called every
    /// `CHECK_EVERY` events with the current simulated time; returning false stops the run early (results
    /// then cover [0, now]).
    pub fn run(&mut self, mut progress: impl FnMut(Time) -> bool) -> Outcome {
        let mut outcome = Outcome::Completed;
        // The queue leaves events after the end where they are.
        self.net.queue.set_horizon(self.end);
        loop {
            // Link arrivals (one or two per packet) stay in the queue while they are processed, and end
            // by rescheduling their direction in place (`on_link_arrival`).
            match self.net.queue.next() {
                Next::Link(t, d) => {
                    debug_assert!(t >= self.net.now, "time went backwards");
                    self.net.now = t;
                    self.events_processed += 1;
                    self.on_link_arrival(d);
                }
                Next::Other(t) => {
                    debug_assert!(t >= self.net.now, "time went backwards");
                    self.net.now = t;
                    self.events_processed += 1;
                    let ev = self.net.queue.pop_other();
                    self.dispatch(ev);
                }
                Next::Empty => break,
            }
            if self.events_processed >= self.guard.next_check {
                if let Some(stop) = self.checkpoint(&mut progress) {
                    outcome = stop;
                    break;
                }
            }
        }
        if outcome == Outcome::Completed {
            self.net.now = self.end;
        }
        for f in &mut self.flows {
            if f.sender.started {
                f.sender.finish_accounting(self.net.now);
            }
        }
        self.net.counts.in_flight = self.packets_on_links();
        outcome
    }

    /// Packets now in the network (sent, not yet delivered or dropped): they all sit on links.
    pub fn packets_in_flight(&self) -> u64 {
        self.packets_on_links()
    }

    /// Packet slots allocated over all link directions (their rings' high-water marks, rounded up to
    /// powers of two). Packets live in these slots; nothing else allocates per packet.
    pub fn packet_pool_capacity(&self) -> usize {
        self.net.links.iter().map(|l| l.slots()).sum()
    }

    /// Packets currently held by link directions (queued or on the wire).
    pub fn packets_on_links(&self) -> u64 {
        self.net.links.iter().map(|l| l.in_flight() as u64).sum()
    }
}
