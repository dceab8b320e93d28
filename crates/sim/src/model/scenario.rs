//! The validated, typed scenario. The engine trusts everything in here: all checking happens in the
//! scenario layer (`scenario/parse`).

use super::params::Params;
use super::transport::TransportConfig;
use crate::time::Time;
use std::sync::Arc;

pub type NodeId = u32;

#[derive(Clone, Debug)]
pub struct Scenario {
    /// File name used in messages (or "<dict>" for scenarios built in Python).
    pub file: String,
    pub name: String,
    pub description: String,
    pub duration: Time,
    pub seed: u64,
    /// Bytes on the wire of a data packet.
    pub packet_size: u32,
    /// TCP/IP header bytes inside `packet_size`; payload = packet_size - header_size.
    pub header_size: u32,
    pub ack_size: u32,
    pub sample_interval: Time,
    /// Samples a time series holds before the recorder halves its resolution (`measure/resolution.rs`).
    pub max_samples: usize,
    pub nodes: Vec<String>,
    pub links: Vec<LinkSpec>,
    pub flows: Vec<FlowSpec>,
    pub traffic: Vec<TrafficSpec>,
    pub events: Vec<EventSpec>,
    /// `[limits]`: the run's budgets (`sim/budget.rs` resolves the defaults).
    pub limits: Limits,
}

/// Budgets of a run, from `[limits]` or overridden by the caller; `None` means the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Most events the run may process.
    pub max_events: Option<u64>,
    /// Most bytes the simulation's own data may take (its estimate, `sim/budget.rs`).
    pub max_memory: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct LinkSpec {
    pub id: String,
    pub a: NodeId,
    pub b: NodeId,
    /// [a->b, b->a]
    pub dir: [DirSpec; 2],
    /// `trace`: a packet trace of each direction.
    pub trace: Option<Trace>,
}

/// The packet trace a link or a flow asks for with `trace` (docs/scenario-format.md, Packet traces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trace {
    /// A pcap file with nanosecond timestamps and Ethernet/IPv4/TCP or UDP headers.
    Pcap,
}

#[derive(Clone, Debug)]
pub struct DirSpec {
    /// The rate in bits per second; with a varying `capacity`, its long-run mean.
    pub bandwidth_bps: f64,
    pub delay: Time,
    pub buffer: Buffer,
    pub loss: f64,
    /// Deterministic drops: (flow index, data sequence number), first transmission only.
    pub drop_packets: Vec<(u32, u64)>,
    /// The queue discipline (`queue`, `queue_params`).
    pub queue: QueueSpec,
    pub capacity: Capacity,
}

impl DirSpec {
    /// Whether packets on this direction wait in a discipline and a transmitter takes them one by one
    /// (`net/queue`), rather than leaving at times fixed on arrival (drop-tail at a fixed rate).
    pub fn is_managed(&self) -> bool {
        self.queue.kind != "droptail" || !matches!(self.capacity, Capacity::Fixed)
    }
}

/// A direction's queue discipline: its name in the registry (`net/queue/registry.rs`) and its parameters,
/// resolved against that discipline's schema.
#[derive(Clone, Debug)]
pub struct QueueSpec {
    pub kind: &'static str,
    pub params: Params,
}

impl QueueSpec {
    pub fn droptail() -> QueueSpec {
        QueueSpec { kind: "droptail", params: Params::default() }
    }
}

/// How fast a direction's transmitter sends.
#[derive(Clone, Debug)]
pub enum Capacity {
    /// `bandwidth_bps`, changed only by link events.
    Fixed,
    /// A packet-delivery trace (`bandwidth_trace`).
    Trace(Arc<DeliveryTrace>),
    /// Two rates the direction alternates between (`bandwidth_states`).
    States(TwoStates),
}

/// Bytes each delivery opportunity of a trace lets through: mahimahi's MTU-sized opportunity.
pub const OPPORTUNITY_BYTES: u32 = 1500;

/// A mahimahi packet-delivery trace: delivery opportunities at given instants, repeating with `period`.
#[derive(Clone, Debug)]
pub struct DeliveryTrace {
    /// The file it was read from, for messages and the summary.
    pub file: String,
    /// Each opportunity's offset from the start of its period, non-decreasing, all below or at `period`.
    pub times: Vec<Time>,
    /// The trace repeats after this long (its last timestamp, as mahimahi loops it).
    pub period: Time,
}

impl DeliveryTrace {
    /// The long-run mean rate in bits per second.
    pub fn mean_bps(&self) -> f64 {
        self.times.len() as f64 * OPPORTUNITY_BYTES as f64 * 8.0 / (self.period as f64 / 1e9)
    }
}

/// A two-state (Gilbert-Elliott-like) capacity: the direction sends at `good_bps` for an exponentially
/// distributed time of mean `mean_good`, then at `bad_bps` for one of mean `mean_bad`, and so on. It
/// starts in the good state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoStates {
    pub good_bps: f64,
    pub bad_bps: f64,
    pub mean_good: Time,
    pub mean_bad: Time,
}

impl TwoStates {
    /// The stationary mean rate.
    pub fn mean_bps(&self) -> f64 {
        let (g, b) = (self.mean_good as f64, self.mean_bad as f64);
        (self.good_bps * g + self.bad_bps * b) / (g + b)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Buffer {
    Packets(u64),
    Bytes(u64),
}

#[derive(Clone)]
pub struct FlowSpec {
    pub id: String,
    /// The algorithm's name in the registry (`cc/registry.rs`), checked to exist by the scenario layer.
    pub algorithm: &'static str,
    pub params: Params,
    pub src: NodeId,
    pub dst: NodeId,
    pub start: Time,
    pub stop: Time,
    /// Application bytes to send; None = bulk (always has data).
    pub bytes: Option<u64>,
    pub streams: u32,
    pub path: Vec<NodeId>,
    pub reverse_path: Vec<NodeId>,
    pub transport: TransportConfig,
    /// Bytes on the wire of this flow's ACKs (the scenario's ack_size plus any algorithm option bytes).
    pub ack_size: u32,
    /// `trace`: a packet trace of the flow's sender side.
    pub trace: Option<Trace>,
}

impl std::fmt::Debug for FlowSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FlowSpec")
            .field("id", &self.id)
            .field("algorithm", &self.algorithm)
            .field("src", &self.src)
            .field("dst", &self.dst)
            .field("path", &self.path)
            .finish()
    }
}

#[derive(Clone, Debug)]
pub enum TrafficKind {
    Cbr { rate_bps: f64 },
    OnOff { rate_bps: f64, mean_on: Time, mean_off: Time },
}

#[derive(Clone, Debug)]
pub struct TrafficSpec {
    pub id: String,
    pub kind: TrafficKind,
    pub src: NodeId,
    pub dst: NodeId,
    pub packet_size: u32,
    pub start: Time,
    pub stop: Time,
    pub path: Vec<NodeId>,
}

#[derive(Clone, Debug)]
pub struct EventSpec {
    pub at: Time,
    pub kind: EventKind,
}

#[derive(Clone, Debug)]
pub enum EventKind {
    Reroute {
        flow: u32,
        path: Option<Vec<NodeId>>,
        reverse_path: Option<Vec<NodeId>>,
    },
    Link {
        link: u32,
        /// Which directions change: [a->b, b->a].
        dirs: [bool; 2],
        bandwidth_bps: Option<f64>,
        delay: Option<Time>,
        loss: Option<f64>,
        up: Option<bool>,
    },
}
