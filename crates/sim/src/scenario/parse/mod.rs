//! Scenario validation: input tree -> typed `Scenario`, or every problem as one line each.

mod events;
mod fields;
mod flow_params;
mod flows;
mod network;
mod paths;
mod traffic;
mod transport;

use crate::measure::resolution::DEFAULT_MAX_SAMPLES;
use crate::model::*;
use crate::scenario::check::{array, as_duration, as_string, Checker, Table};
use crate::scenario::limits;
use crate::scenario::tree::{Node, Value};
use crate::time::NS_PER_SEC;
use fields::{line_of, sized};
use flows::FlowDefaults;
use transport::transport;

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
    limits::LIMITS_KEYS,
];

/// Largest duration we accept for a run: beyond this the nanosecond clock is still fine, but nothing useful
/// can be simulated packet by packet.
const MAX_DURATION_S: f64 = 1e7;

/// Validates a parsed tree. `file` names the source in messages.
pub fn scenario_from_tree(root: &Node, file: &str) -> Result<Scenario, Vec<String>> {
    let mut ck = Checker::new(file);
    let Some(mut top) = Table::new(root, "", &mut ck) else {
        return Err(ck.errors);
    };

    let name = match top.required("name", &mut ck) {
        Some(n) => as_string(n, "name", &mut ck).unwrap_or_default(),
        None => String::new(),
    };
    let description = top.string("description", &mut ck).unwrap_or_default();
    let duration = match top.required("duration", &mut ck) {
        Some(n) => as_duration(n, "duration", &mut ck),
        None => None,
    };
    let duration_line = line_of(&mut top, "duration");
    let duration = match duration {
        Some(0) => {
            ck.error(duration_line, "duration", "must be greater than zero");
            None
        }
        Some(d) if d as f64 / NS_PER_SEC as f64 > MAX_DURATION_S => {
            ck.error(duration_line, "duration", format!("must be at most {MAX_DURATION_S} seconds"));
            None
        }
        d => d,
    };
    let seed = top.integer("seed", 0, i64::MAX, &mut ck).unwrap_or(1) as u64;
    let packet_size = sized(&mut top, "packet_size", 1000.0, 64.0, 1e6, &mut ck);
    let header_size = sized(&mut top, "header_size", 40.0, 0.0, 1e6, &mut ck);
    let ack_size = sized(&mut top, "ack_size", 40.0, 1.0, 1e6, &mut ck);
    if let (Some(p), Some(h)) = (packet_size, header_size) {
        if h >= p {
            let l = line_of(&mut top, "header_size");
            ck.error(l, "header_size", format!("{h} leaves no payload in a {p}-byte packet"));
        }
    }
    let sample_interval = top.duration("sample_interval", &mut ck);
    let si_line = line_of(&mut top, "sample_interval");
    let sample_interval = match (sample_interval, duration) {
        (Some(0), _) => {
            ck.error(si_line, "sample_interval", "must be greater than zero");
            None
        }
        (Some(s), Some(d)) if s > d => {
            ck.error(si_line, "sample_interval", "is longer than the run's duration");
            None
        }
        (Some(s), Some(d)) if d / s > 10_000_000 => {
            ck.error(si_line, "sample_interval", "would record more than 10 million samples per series");
            None
        }
        (Some(s), _) => Some(s),
        (None, Some(d)) => Some((d / 2000).max(1_000_000).min(d)),
        (None, None) => None,
    };

    // The upper end only keeps the product with the number of series far from overflow; memory is
    // checked by `limits::check`.
    let max_samples = top.integer("max_samples", 2, 1_000_000_000, &mut ck).map(|m| m as usize);
    let max_samples_line = line_of(&mut top, "max_samples");

    // `profile` sets the transport defaults as a group; [transport] and [flows.transport] override keys.
    let profile = match top.string("profile", &mut ck).as_deref() {
        None | Some("ns2") => Profile::Ns2,
        Some("linux") => Profile::Linux,
        Some(other) => {
            let l = line_of(&mut top, "profile");
            ck.error(l, "profile", format!("unknown profile \"{other}\"; expected \"ns2\" or \"linux\""));
            Profile::Ns2
        }
    };
    let profile_defaults = TransportConfig::for_profile(profile);
    let default_transport = match top.node("transport") {
        Some(n) => transport(n, "transport", &profile_defaults, &mut ck),
        None => profile_defaults,
    };

    let mut net = network::read(&mut top, &mut ck);

    let flow_nodes = array(top.node("flows"), "flows", &mut ck);
    let traffic_nodes = array(top.node("traffic"), "traffic", &mut ck);
    let flow_defaults = FlowDefaults { duration, ack_size, transport: &default_transport };
    let flows = flows::read(flow_nodes, &mut net, &flow_defaults, &mut ck);
    let absent_or_array = |n: Option<&Node>| matches!(n, None | Some(Node { value: Value::Array(_), .. }));
    if flow_nodes.is_empty()
        && traffic_nodes.is_empty()
        && absent_or_array(top.node("flows"))
        && absent_or_array(top.node("traffic"))
    {
        ck.error(top.line, "flows", "the scenario has no flows and no traffic: nothing to simulate");
    }

    flows.attach_drops(&mut net, &mut ck);

    let traffic = traffic::read(traffic_nodes, &mut net, &flows, duration, packet_size, &mut ck);

    let events = events::read(&mut top, &net, &flows, duration, &mut ck);

    let limits_table = limits::read(top.node("limits"), &mut ck);
    let sample_interval_given = top.has("sample_interval").then_some(si_line);
    let max_samples_given = top.has("max_samples").then_some(max_samples_line);
    top.finish(&mut ck, TOP_KEYS);
    if !ck.errors.is_empty() {
        return Err(ck.errors);
    }
    let sc = Scenario {
        file: file.to_string(),
        name,
        description,
        duration: duration.unwrap_or(0),
        seed,
        packet_size: packet_size.unwrap_or(1000),
        header_size: header_size.unwrap_or(40),
        ack_size: ack_size.unwrap_or(40),
        sample_interval: sample_interval.unwrap_or(1_000_000),
        max_samples: max_samples.unwrap_or(DEFAULT_MAX_SAMPLES),
        nodes: net.nodes.names,
        links: net.links,
        flows: flows.specs,
        traffic,
        events,
        limits: limits_table.limits,
    };
    limits::check(&sc, sample_interval_given, max_samples_given, limits_table.max_memory_line, &mut ck);
    if !ck.errors.is_empty() {
        return Err(ck.errors);
    }
    Ok(sc)
}
