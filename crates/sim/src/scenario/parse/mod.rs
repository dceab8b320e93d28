//! Scenario validation: input tree -> typed `Scenario`, or every problem as one line each. Each section of
//! the file format has its own file, which owns the list of keys it accepts; this one reads the top-level
//! keys, calls the sections in turn and assembles the scenario. Each file uses only those listed before it:
//!
//! - `fields.rs`: readers of ids, sizes, probabilities and start/stop that several sections share
//! - `capacity.rs`, `queue.rs`: a link direction's capacity (fixed, trace, two states) and queue discipline
//! - `network.rs`: `[[links]]` (nodes, directions, buffers, loss, `drop_packets`)
//! - `paths.rs`: endpoints and routes, checked against the network
//! - `flow_params.rs`: `[flows.params]`; `transport.rs`: `profile`, `[transport]`, `[flows.transport]`
//! - `flows.rs`: `[[flows]]`
//! - `traffic.rs`: `[[traffic]]`; `events.rs`: `[[events]]`
//! - `measurement.rs`: `sample_interval`, `max_samples`, `[limits]`

mod capacity;
mod events;
mod fields;
mod flow_params;
mod flows;
mod measurement;
mod network;
mod paths;
mod queue;
mod traffic;
mod transport;

use crate::measure::resolution::DEFAULT_MAX_SAMPLES;
use crate::model::Scenario;
use crate::scenario::check::{array, as_duration, as_string, Checker, Table};
use crate::scenario::limits;
use crate::scenario::tree::{Node, Value};
use crate::time::{Time, NS_PER_SEC};
use fields::{line_of, sized};
use flows::FlowDefaults;

pub(super) const TOP_KEYS: &[&str] = &[
    "name",
    "description",
    "duration",
    "seed",
    "packet_size",
    "header_size",
    "ack_size",
    "sample_interval",
    "max_samples",
    "links",
    "flows",
    "traffic",
    "events",
    "transport",
    "limits",
    "profile",
    "routing",
];

/// Every table's key list, for `scenario::known_keys`.
pub(super) const KEY_TABLES: [&[&str]; 9] = [
    TOP_KEYS,
    network::LINK_KEYS,
    flows::FLOW_KEYS,
    traffic::TRAFFIC_KEYS,
    events::EVENT_KEYS,
    events::REROUTE_KEYS,
    events::LINK_EVENT_KEYS,
    transport::TRANSPORT_KEYS,
    measurement::LIMITS_KEYS,
];

/// Largest duration we accept for a run: beyond this the nanosecond clock is still fine, but nothing useful
/// can be simulated packet by packet.
const MAX_DURATION_S: f64 = 1e7;

/// Validates a parsed tree. `file` names the source in messages.
pub(super) fn scenario_from_tree(root: &Node, file: &str) -> Result<Scenario, Vec<String>> {
    let mut ck = Checker::new(file);
    let Some(mut top) = Table::new(root, "", &mut ck) else {
        return Err(ck.errors);
    };
    let basics = basics(&mut top, &mut ck);
    let sampling = measurement::sampling(&mut top, basics.duration, &mut ck);
    let default_transport = transport::defaults(&mut top, &mut ck);
    let mut net = network::read(&mut top, &mut ck);
    net.ecmp = routing(&mut top, &mut ck).then_some(basics.seed);
    let flow_nodes = array(top.node("flows"), "flows", &mut ck);
    let traffic_nodes = array(top.node("traffic"), "traffic", &mut ck);
    let flow_defaults =
        FlowDefaults { duration: basics.duration, ack_size: basics.ack_size, transport: &default_transport };
    let flows = flows::read(flow_nodes, &mut net, &flow_defaults, &mut ck);
    something_to_simulate(&mut top, flow_nodes, traffic_nodes, &mut ck);
    flows.attach_drops(&mut net, &mut ck);
    let traffic =
        traffic::read(traffic_nodes, &mut net, &flows, basics.duration, basics.packet_size, &mut ck);
    let events = events::read(&mut top, &net, &flows, basics.duration, &mut ck);
    let limits_table = measurement::limits(&mut top, &mut ck);
    let reason =
        format!("is not a top-level key: {}; `delaycc run --pcap` traces every flow", fields::TRACES_ARE_SET);
    fields::misplaced_trace(&mut top, &mut ck, &reason);
    top.finish(&mut ck, TOP_KEYS);
    if !ck.errors.is_empty() {
        return Err(ck.errors);
    }
    let sc = Scenario {
        file: file.to_string(),
        name: basics.name,
        description: basics.description,
        duration: basics.duration.unwrap_or(0),
        seed: basics.seed,
        packet_size: basics.packet_size.unwrap_or(1000),
        header_size: basics.header_size.unwrap_or(40),
        ack_size: basics.ack_size.unwrap_or(40),
        sample_interval: sampling.interval.unwrap_or(1_000_000),
        max_samples: sampling.max_samples.unwrap_or(DEFAULT_MAX_SAMPLES),
        nodes: net.nodes.names,
        links: net.links,
        flows: flows.specs,
        traffic,
        events,
        limits: limits_table.limits,
    };
    let (interval_line, max_samples_line) = (sampling.interval_given, sampling.max_samples_given);
    limits::check(&sc, interval_line, max_samples_line, limits_table.max_memory_line, &mut ck);
    if !ck.errors.is_empty() {
        return Err(ck.errors);
    }
    Ok(sc)
}

/// The top-level keys that describe the whole run. A value that is `None` was invalid (and reported).
struct Basics {
    name: String,
    description: String,
    duration: Option<Time>,
    seed: u64,
    packet_size: Option<u32>,
    header_size: Option<u32>,
    ack_size: Option<u32>,
}

/// Reads `name`, `description`, `duration`, `seed` and the packet, header and ACK sizes.
fn basics(top: &mut Table, ck: &mut Checker) -> Basics {
    let name = match top.required("name", ck) {
        Some(n) => as_string(n, "name", ck).unwrap_or_default(),
        None => String::new(),
    };
    let description = top.string("description", ck).unwrap_or_default();
    let duration = duration(top, ck);
    let seed = top.integer("seed", 0, i64::MAX, ck).unwrap_or(1) as u64;
    let packet_size = sized(top, "packet_size", 1000.0, 64.0, 1e6, ck);
    let header_size = sized(top, "header_size", 40.0, 0.0, 1e6, ck);
    let ack_size = sized(top, "ack_size", 40.0, 1.0, 1e6, ck);
    if let (Some(p), Some(h)) = (packet_size, header_size) {
        if h >= p {
            let l = line_of(top, "header_size");
            ck.error(l, "header_size", format!("{h} leaves no payload in a {p}-byte packet"));
        }
    }
    Basics { name, description, duration, seed, packet_size, header_size, ack_size }
}

/// `duration`: required, above zero and at most `MAX_DURATION_S`.
fn duration(top: &mut Table, ck: &mut Checker) -> Option<Time> {
    let duration = match top.required("duration", ck) {
        Some(n) => as_duration(n, "duration", ck),
        None => None,
    };
    let duration_line = line_of(top, "duration");
    match duration {
        Some(0) => {
            ck.error(duration_line, "duration", "must be greater than zero");
            None
        }
        Some(d) if d as f64 / NS_PER_SEC as f64 > MAX_DURATION_S => {
            ck.error(duration_line, "duration", format!("must be at most {MAX_DURATION_S} seconds"));
            None
        }
        d => d,
    }
}

/// `routing`: `"shortest"` (the default: one least-delay path per source and destination) or `"ecmp"` (true:
/// each flow takes one of the least-cost paths by a hash of its id and the seed).
fn routing(top: &mut Table, ck: &mut Checker) -> bool {
    let line = line_of(top, "routing");
    match top.string("routing", ck).as_deref() {
        None | Some("shortest") => false,
        Some("ecmp") => true,
        Some(other) => {
            let other = other.escape_debug();
            ck.error(line, "routing", format!("'{other}' is not a routing; use 'shortest' or 'ecmp'"));
            false
        }
    }
}

/// Reports a scenario with neither flows nor traffic, unless `flows` or `traffic` is not an array (which
/// is reported already).
fn something_to_simulate(top: &mut Table, flow_nodes: &[Node], traffic_nodes: &[Node], ck: &mut Checker) {
    let absent_or_array = |n: Option<&Node>| matches!(n, None | Some(Node { value: Value::Array(_), .. }));
    if flow_nodes.is_empty()
        && traffic_nodes.is_empty()
        && absent_or_array(top.node("flows"))
        && absent_or_array(top.node("traffic"))
    {
        ck.error(top.line, "flows", "the scenario has no flows and no traffic: nothing to simulate");
    }
}
