//! The validated, typed scenario. The engine trusts everything in here: all checking happens in the
//! scenario layer (`scenario/parse`).

use super::params::Params;
use super::transport::TransportConfig;
use crate::time::Time;

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
    pub bandwidth_bps: f64,
    pub delay: Time,
    pub buffer: Buffer,
    pub loss: f64,
    /// Deterministic drops: (flow index, data sequence number), first transmission only.
    pub drop_packets: Vec<(u32, u64)>,
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
