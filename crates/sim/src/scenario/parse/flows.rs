//! `[[flows]]`: each flow's id, algorithm (looked up in the registry), endpoints and routes, times and
//! size, its `[flows.params]` (`flow_params.rs`) and `[flows.transport]` (`transport.rs`); then the
//! links' `drop_packets`, which name flows.

use super::fields::{line_of, read_id, start_stop, trace};
use super::flow_params::params;
use super::network::{Network, PendingDrop};
use super::transport::transport;
use crate::cc::{self, AlgorithmInfo};
use crate::model::{FlowSpec, TransportConfig};
use crate::scenario::check::{as_string, Checker, Table};
use crate::scenario::text::join;
use crate::scenario::tree::Node;
use crate::time::Time;
use std::collections::HashMap;

pub(super) const FLOW_KEYS: &[&str] = &[
    "id",
    "algorithm",
    "src",
    "dst",
    "start",
    "stop",
    "bytes",
    "streams",
    "path",
    "reverse_path",
    "params",
    "transport",
    "trace",
];

/// The flows as read.
#[derive(Default)]
pub(super) struct Flows {
    /// The accepted flows.
    pub(super) specs: Vec<FlowSpec>,
    /// Every id given, accepted or not, with the index in the file of its (last) flow.
    pub(super) ids: HashMap<String, usize>,
}

/// What a flow id names.
pub(super) enum FlowRef {
    /// The flow at this index of the accepted flows.
    Index(usize),
    /// A flow the file has but that was refused (or follows one that was): already reported.
    Rejected,
    /// No flow has the id.
    Unknown,
}

impl Flows {
    pub(super) fn find(&self, id: &str) -> FlowRef {
        match self.ids.get(id) {
            Some(&fi) if fi < self.specs.len() && self.specs[fi].id == id => FlowRef::Index(fi),
            Some(_) => FlowRef::Rejected,
            None => FlowRef::Unknown,
        }
    }

    /// Gives the links' `drop_packets` entries the flows they name.
    pub(super) fn attach_drops(&self, net: &mut Network, ck: &mut Checker) {
        for PendingDrop { link, dir, flow, seq, path, line } in std::mem::take(&mut net.drops) {
            match self.find(&flow) {
                FlowRef::Index(fi) => {
                    if link < net.links.len() {
                        net.links[link].dir[dir].drop_packets.push((fi as u32, seq));
                    }
                }
                FlowRef::Rejected => {}
                FlowRef::Unknown => ck.error(line, &join(&path, "flow"), format!("no flow has id '{flow}'")),
            }
        }
    }
}

/// What every flow is read against.
pub(super) struct FlowDefaults<'a> {
    /// The run's duration (`None` if it was invalid).
    pub(super) duration: Option<Time>,
    /// Bytes of an ACK before the algorithm's own extra bytes (`None` if invalid).
    pub(super) ack_size: Option<u32>,
    /// `[transport]` over the profile's settings.
    pub(super) transport: &'a TransportConfig,
}

/// Reads the `[[flows]]` entries `items`.
pub(super) fn read(items: &[Node], net: &mut Network, defaults: &FlowDefaults, ck: &mut Checker) -> Flows {
    let mut flows = Flows::default();
    for (i, fnode) in items.iter().enumerate() {
        flow(i, fnode, &mut flows, net, defaults, ck);
    }
    flows
}

/// Reads `flows[i]`, adding it to `flows` if it is valid.
fn flow(
    i: usize,
    fnode: &Node,
    flows: &mut Flows,
    net: &mut Network,
    defaults: &FlowDefaults,
    ck: &mut Checker,
) {
    let path = format!("flows[{i}]");
    let Some(mut t) = Table::new(fnode, &path, ck) else {
        return;
    };
    let id = read_id(&mut t, "id", format!("flow{i}"), ck);
    if let Some(j) = flows.ids.get(&id) {
        let l = line_of(&mut t, "id").or(fnode.line);
        ck.error(l, &join(&path, "id"), format!("duplicate flow id '{id}' (also flows[{j}])"));
    }
    flows.ids.insert(id.clone(), i);
    let algorithm = algorithm(&mut t, ck);
    let (src, dst) = net.endpoints(&mut t, ck);
    let (start, stop) = start_stop(&mut t, defaults.duration, ck);
    let bytes = bytes(&mut t, ck);
    let streams = t.integer("streams", 1, 65535, ck).unwrap_or(1) as u32;
    let fpath = net.route(&mut t, "path", (src, dst), &id, ck);
    let rpath = match t.node("reverse_path") {
        Some(_) => net.route(&mut t, "reverse_path", (dst, src), &id, ck),
        None => fpath.as_ref().map(|p| p.iter().rev().copied().collect()),
    };
    let params = match (algorithm, t.node("params")) {
        (Some(a), n) => Some(params(a, n, &join(&path, "params"), ck)),
        (None, Some(_)) => None,
        (None, None) => None,
    };
    let transport = match t.node("transport") {
        Some(n) => transport(n, &join(&path, "transport"), defaults.transport, ck),
        None => defaults.transport.clone(),
    };
    let trace = trace(&mut t, ck);
    t.finish(ck, FLOW_KEYS);
    if let (
        Some(alg),
        Some(params),
        Some(src),
        Some(dst),
        Some(p),
        Some(rp),
        Some(start),
        Some(stop),
        Some(ack),
    ) = (algorithm, params, src, dst, fpath, rpath, start, stop, defaults.ack_size)
    {
        flows.specs.push(FlowSpec {
            id,
            algorithm: alg.name,
            params,
            src,
            dst,
            start,
            stop,
            bytes,
            streams,
            path: p,
            reverse_path: rp,
            transport,
            ack_size: ack + alg.ack_extra_bytes,
            trace,
        });
    }
}

/// The flow's `algorithm`, looked up in the registry.
fn algorithm(t: &mut Table, ck: &mut Checker) -> Option<&'static AlgorithmInfo> {
    let kp = t.key_path("algorithm");
    let alg_line = line_of(t, "algorithm");
    t.required("algorithm", ck).and_then(|n| as_string(n, &kp, ck)).and_then(|name| {
        match cc::algorithm(&name) {
            Some(a) => Some(a),
            None => {
                let names: Vec<&str> = cc::algorithms().iter().map(|a| a.name).collect();
                ck.error(alg_line, &kp, format!("unknown algorithm '{name}'; known: {}", names.join(", ")));
                None
            }
        }
    })
}

/// `bytes`: application bytes to send (when absent, the flow always has data).
fn bytes(t: &mut Table, ck: &mut Checker) -> Option<u64> {
    t.size("bytes", ck).and_then(|b| {
        if b < 1.0 {
            let l = line_of(t, "bytes");
            ck.error(l, &t.key_path("bytes"), "must be at least one byte");
            None
        } else {
            Some(b.ceil() as u64)
        }
    })
}
