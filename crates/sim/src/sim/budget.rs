//! Budgets of a run: how many events it may process and how much memory its data may take. The event
//! loop stops at a checkpoint (every `CHECK_EVERY` events, and at `max_events` itself), never per packet;
//! a run over budget ends there with the results so far, marked partial, instead of running for ever or
//! being killed by the operating system.
//!
//! Memory is an estimate from the sizes of the structures that can grow (link rings, per-flow buffers,
//! the event queue) plus the time series' worst case, reserved up front: deterministic, so the same
//! scenario stops at the same event on every machine with the same budget, and cheap enough to take every
//! few hundred thousand events even with ten thousand flows.

use super::Simulation;
use crate::engine::Event;
use crate::model::Scenario;
use crate::net::link::InFlight;
use crate::scenario::limits::series_bytes;
use crate::time::{secs, Time};
use crate::transport::Flow;
use crate::units::format_size;
use std::mem::size_of;
use std::sync::OnceLock;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Completed,
    /// Stopped early by the caller (Ctrl-C); results cover [0, now].
    Interrupted,
    /// Stopped after `max_events` events with more to process; results cover [0, now].
    EventBudget,
    /// Stopped when the memory estimate exceeded `max_memory`; results cover [0, now].
    MemoryBudget,
}

impl Outcome {
    /// `stop_reason` in summary.json: None for a complete run.
    pub fn stop_reason(self) -> Option<&'static str> {
        match self {
            Outcome::Completed => None,
            Outcome::Interrupted => Some("interrupted"),
            Outcome::EventBudget => Some("max_events"),
            Outcome::MemoryBudget => Some("max_memory"),
        }
    }
}

/// Events between checkpoints (and progress calls): a power of two, so the loop's test stays cheap.
pub const CHECK_EVERY: u64 = 1 << 14;

/// The memory estimate walks every flow and link direction; it is taken at most every this many events
/// per flow or direction, so it costs under a hundredth of a simulated event's work however many flows
/// there are (and at every checkpoint for small scenarios).
const EVENTS_PER_ITEM_BETWEEN_ESTIMATES: u64 = 64;

/// Fraction of the machine's memory a run may take by default: half, since a run's results are copied once
/// more on their way out (to Python, to files).
const DEFAULT_MEMORY_FRACTION: u64 = 2;

/// Default budget where the machine's memory cannot be read: 4 GiB, half of a small 8 GiB machine.
const FALLBACK_MAX_MEMORY: u64 = 4 << 30;

/// Estimated bytes per flow beyond its struct: its congestion controller (a few hundred bytes for every
/// algorithm here) and the small vectors every flow has.
pub(super) const FLOW_OVERHEAD: u64 = 512;

/// Estimated bytes per unacknowledged packet of a flow: its first-send time at the sender (8) and its
/// slot in the receiver's out-of-order buffer (8, a first-send time, which the application reads too),
/// doubled because those rings grow by doubling.
pub(super) const PER_OUTSTANDING_PACKET: u64 = 32;

/// Estimated bytes per stream of a multistream flow (its next message number and statistics).
const PER_STREAM: u64 = 48;

/// The resolved budgets of one run and when to look at them next.
#[derive(Clone, Debug)]
pub struct Guard {
    pub max_events: u64,
    pub max_memory: u64,
    /// `events_processed` at which the loop next calls `checkpoint`.
    pub next_check: u64,
    next_estimate: u64,
    estimate_every: u64,
    /// Largest memory estimate taken so far.
    pub peak_memory: u64,
}

impl Guard {
    /// Budgets from the scenario's `[limits]`: no event limit and half the machine's memory by default.
    pub fn new(sc: &Scenario, flows: usize, link_dirs: usize) -> Guard {
        let max_events = sc.limits.max_events.unwrap_or(u64::MAX);
        Guard {
            max_events,
            max_memory: sc.limits.max_memory.unwrap_or_else(default_max_memory),
            // The first checkpoint comes after the first event, so a run whose time series alone exceed
            // the memory budget stops before it simulates anything.
            next_check: 1,
            next_estimate: 0,
            estimate_every: (EVENTS_PER_ITEM_BETWEEN_ESTIMATES * (flows + link_dirs) as u64).max(CHECK_EVERY),
            peak_memory: 0,
        }
    }
}

/// Half of the machine's memory, or of the control group's limit when that is lower (a container's);
/// 4 GiB when neither can be read. Read once per process.
pub fn default_max_memory() -> u64 {
    static DEFAULT: OnceLock<u64> = OnceLock::new();
    *DEFAULT.get_or_init(|| {
        let total = [physical_memory(), cgroup_limit()].into_iter().flatten().min();
        total.map_or(FALLBACK_MAX_MEMORY, |t| t / DEFAULT_MEMORY_FRACTION)
    })
}

/// MemTotal of /proc/meminfo, bytes (Linux).
fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The memory limit of the process's control group (v2, else v1), if it sets one.
fn cgroup_limit() -> Option<u64> {
    ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .find_map(|p| std::fs::read_to_string(p).ok()?.trim().parse::<u64>().ok())
}

fn flow_bytes(f: &Flow) -> u64 {
    let s = &f.sender;
    let outstanding = s.max_sent.saturating_sub(s.snd_una);
    size_of::<Flow>() as u64
        + FLOW_OVERHEAD
        + outstanding * PER_OUTSTANDING_PACKET
        + f.app.n_streams() as u64 * PER_STREAM
        + (s.convergence.episodes.len() * size_of::<(Time, Time)>()) as u64
}

impl Simulation {
    /// Estimated bytes of the simulation's data: the time series (their worst case), every packet slot
    /// of every link ring, every flow's state and buffers, and the pending events.
    pub fn memory_estimate(&self) -> u64 {
        let flow_series = self.recorder.flow_series() as u64;
        let dense = self.recorder.series.len() as u64 - flow_series;
        let series = series_bytes(flow_series, dense, &self.scenario);
        let rings: u64 =
            self.net.links.iter().map(|l| l.slots() as u64).sum::<u64>() * size_of::<InFlight>() as u64;
        let flows: u64 = self.flows.iter().map(flow_bytes).sum();
        let events = (self.net.queue.len() * size_of::<(u128, Event)>()) as u64;
        let traces = self.traces.as_ref().map_or(0, |t| t.buffer_bytes());
        series + rings + flows + events + traces
    }

    /// Called by the event loop when `events_processed` reaches `guard.next_check`: stops the run if a
    /// budget is spent, and calls `progress` every `CHECK_EVERY` events.
    /// Out of line: called once per thousands of events, it must not weigh on the loop's registers.
    #[cold]
    #[inline(never)]
    pub(super) fn checkpoint(&mut self, progress: &mut impl FnMut(Time) -> bool) -> Option<Outcome> {
        let n = self.events_processed;
        let g = &mut self.guard;
        g.next_check = (n / CHECK_EVERY + 1).saturating_mul(CHECK_EVERY).min(g.max_events.max(n + 1));
        if n >= g.max_events {
            // Over budget only if the run needed more: the next event is still inside the run.
            match self.net.queue.peek_time() {
                Some(t) if t <= self.end => return Some(Outcome::EventBudget),
                _ => self.guard.next_check = u64::MAX,
            }
        }
        if n >= self.guard.next_estimate {
            self.guard.next_estimate = n + self.guard.estimate_every;
            let estimate = self.memory_estimate();
            self.guard.peak_memory = self.guard.peak_memory.max(estimate);
            if estimate > self.guard.max_memory {
                return Some(Outcome::MemoryBudget);
            }
        }
        if n.is_multiple_of(CHECK_EVERY) && !progress(self.net.now) {
            return Some(Outcome::Interrupted);
        }
        None
    }

    /// One line saying why a run stopped early, naming the budget; None for a complete run.
    pub fn stop_message(&self, outcome: Outcome) -> Option<String> {
        let at = format!("at {} s of {} s simulated", secs(self.net.now), secs(self.end));
        let g = &self.guard;
        match outcome {
            Outcome::Completed => None,
            Outcome::Interrupted => Some(format!("interrupted {at}")),
            Outcome::EventBudget => {
                Some(format!("stopped by max_events: the budget of {} events was spent {at}", g.max_events))
            }
            Outcome::MemoryBudget => Some(format!(
                "stopped by max_memory: the simulation's data would take {} (estimated), more than the \
                 budget of {}, {at}",
                format_size(g.peak_memory),
                format_size(g.max_memory)
            )),
        }
    }
}
