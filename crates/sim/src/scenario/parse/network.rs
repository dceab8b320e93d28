//! `[[links]]`: the nodes (created by naming them in links), each link's two directions (bandwidth,
//! delay, buffer, loss) and its deterministic drops (`drop_packets`), and the graph routes are found on.

use super::fields::{line_of, probability, read_id, trace, valid_id};
use super::{capacity, queue};
use crate::model::{Buffer, DirSpec, LinkSpec, NodeId};
use crate::scenario::check::{array, as_integer, as_string, Checker, Table};
use crate::scenario::routes::Graph;
use crate::scenario::text::join;
use crate::scenario::tree::{Node, Value};
use std::collections::HashMap;

pub(super) const LINK_KEYS: &[&str] = &[
    "id",
    "a",
    "b",
    "bandwidth",
    "delay",
    "buffer",
    "buffer_bytes",
    "reverse_bandwidth",
    "reverse_delay",
    "reverse_buffer",
    "reverse_buffer_bytes",
    "loss",
    "reverse_loss",
    "drop_packets",
    "reverse_drop_packets",
    "trace",
    "queue",
    "queue_params",
    "reverse_queue",
    "reverse_queue_params",
    "bandwidth_trace",
    "reverse_bandwidth_trace",
    "bandwidth_states",
    "reverse_bandwidth_states",
];

/// The nodes' names in the order links name them, and each name's id.
#[derive(Default)]
pub(super) struct Nodes {
    pub(super) names: Vec<String>,
    pub(super) index: HashMap<String, NodeId>,
}

impl Nodes {
    fn intern(&mut self, name: &str) -> NodeId {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len() as NodeId;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        i
    }
}

/// A `drop_packets` entry. It names a flow, and flows are read after links, so it is kept until then.
pub(super) struct PendingDrop {
    /// Index the link has in `Network::links` if it is accepted.
    pub(super) link: usize,
    /// 0 = a->b, 1 = b->a.
    pub(super) dir: usize,
    pub(super) flow: String,
    pub(super) seq: u64,
    /// Key path of the entry, for messages.
    pub(super) path: String,
    pub(super) line: Option<u32>,
}

/// The network as read from `[[links]]`.
pub(super) struct Network {
    pub(super) nodes: Nodes,
    /// The accepted links.
    pub(super) links: Vec<LinkSpec>,
    pub(super) graph: Graph,
    pub(super) drops: Vec<PendingDrop>,
    /// Default routes found so far: for each source node, the least-delay path to every node.
    pub(super) route_cache: HashMap<NodeId, Vec<Option<Vec<NodeId>>>>,
    /// `routing = "ecmp"`: the seed its hashes take (None: one least-delay path per pair of nodes).
    pub(super) ecmp: Option<u64>,
    /// With ECMP: for each destination, every node's least cost to it (`Graph::costs_to`).
    pub(super) cost_cache: HashMap<NodeId, Vec<Option<(u64, u32)>>>,
}

/// Reads `[[links]]`.
pub(super) fn read(top: &mut Table, ck: &mut Checker) -> Network {
    let link_nodes = array(top.node("links"), "links", ck);
    let links_is_array = matches!(top.node("links"), None | Some(Node { value: Value::Array(_), .. }));
    if link_nodes.is_empty() && links_is_array {
        ck.error(top.line, "links", "at least one link is required");
    }
    let mut r = LinkReader::default();
    for (i, ln) in link_nodes.iter().enumerate() {
        r.link(i, ln, ck);
    }
    let mut graph = Graph::new(r.nodes.names.len(), &r.links);
    // With a rejected link the graph is incomplete: route errors would only echo the link's error.
    graph.complete = r.links.len() == link_nodes.len() && links_is_array;
    Network {
        nodes: r.nodes,
        links: r.links,
        graph,
        drops: r.drops,
        route_cache: HashMap::new(),
        ecmp: None,
        cost_cache: HashMap::new(),
    }
}

/// What the links read so far have built up.
#[derive(Default)]
struct LinkReader {
    nodes: Nodes,
    links: Vec<LinkSpec>,
    drops: Vec<PendingDrop>,
    /// Link id -> index in the file.
    ids: HashMap<String, usize>,
    /// (lower node, higher node) -> index in the file of the link joining them.
    pairs: HashMap<(NodeId, NodeId), usize>,
}

impl LinkReader {
    /// Reads `links[i]`.
    fn link(&mut self, i: usize, ln: &Node, ck: &mut Checker) {
        let path = format!("links[{i}]");
        let Some(mut t) = Table::new(ln, &path, ck) else {
            return;
        };
        let (a, b, id) = self.ends(&mut t, i, ck);
        let fwd = direction(&mut t, "", None, ck);
        let rev = direction(&mut t, "reverse_", fwd.as_ref(), ck);
        self.drop_lists(&mut t, ck);
        let trace = trace(&mut t, ck);
        // A default id ("a-b") repeats only for parallel links, which are reported below.
        if let (Some(&j), true) = (self.ids.get(&id), t.has("id")) {
            let l = line_of(&mut t, "id");
            ck.error(l, &join(&path, "id"), format!("duplicate link id '{id}' (also links[{j}])"));
        }
        t.finish(ck, LINK_KEYS);
        self.ids.insert(id.clone(), i);
        if let (Some(a), Some(b), Some(fwd), Some(rev)) = (a, b, fwd, rev) {
            if a != b {
                let (na, nb) = (self.nodes.intern(&a), self.nodes.intern(&b));
                let key = (na.min(nb), na.max(nb));
                if let Some(&j) = self.pairs.get(&key) {
                    ck.error(
                        ln.line,
                        &path,
                        format!("'{a}' and '{b}' are already joined by links[{j}]; paths name nodes, so parallel links are ambiguous"),
                    );
                } else {
                    self.pairs.insert(key, i);
                    self.links.push(LinkSpec { id, a: na, b: nb, dir: [fwd, rev], trace });
                }
            }
        }
    }

    /// The link's nodes `a` and `b` (created here) and its id (by default "a-b").
    fn ends(
        &mut self,
        t: &mut Table,
        i: usize,
        ck: &mut Checker,
    ) -> (Option<String>, Option<String>, String) {
        let path = t.path.clone();
        let a = t.required("a", ck).and_then(|n| as_string(n, &join(&path, "a"), ck));
        let b = t.required("b", ck).and_then(|n| as_string(n, &join(&path, "b"), ck));
        let default_id = match (&a, &b) {
            (Some(a), Some(b)) => format!("{a}-{b}"),
            _ => format!("link{i}"),
        };
        let id = read_id(t, "id", default_id, ck);
        for (key, v) in [("a", &a), ("b", &b)] {
            if let Some(v) = v {
                if let Err(e) = valid_id(v) {
                    let l = line_of(t, key);
                    ck.error(l, &t.key_path(key), e);
                }
            }
        }
        // Nodes exist as soon as a link names them, even if the link has other errors, so that flows
        // naming them are not reported as well.
        for n in [&a, &b].into_iter().flatten() {
            if valid_id(n).is_ok() {
                self.nodes.intern(n);
            }
        }
        if let (Some(a), Some(b)) = (&a, &b) {
            if a == b {
                let l = line_of(t, "b");
                ck.error(
                    l,
                    &t.key_path("b"),
                    format!("a link must join two different nodes, not '{a}' to itself"),
                );
            }
        }
        (a, b, id)
    }

    /// `drop_packets` and `reverse_drop_packets`: lists of `{ flow, seq }`.
    fn drop_lists(&mut self, t: &mut Table, ck: &mut Checker) {
        for (dir, key) in [(0usize, "drop_packets"), (1, "reverse_drop_packets")] {
            let items = array(t.node(key), &t.key_path(key), ck);
            for (j, item) in items.iter().enumerate() {
                let ipath = format!("{}[{j}]", t.key_path(key));
                let Some(mut it) = Table::new(item, &ipath, ck) else {
                    continue;
                };
                let flow = it.required("flow", ck).and_then(|n| as_string(n, &join(&ipath, "flow"), ck));
                let seq =
                    it.required("seq", ck).and_then(|n| as_integer(n, &join(&ipath, "seq"), 0, i64::MAX, ck));
                it.finish(ck, &["flow", "seq"]);
                if let (Some(f), Some(s)) = (flow, seq) {
                    self.drops.push(PendingDrop {
                        link: self.links.len(),
                        dir,
                        flow: f,
                        seq: s as u64,
                        path: ipath,
                        line: item.line,
                    });
                }
            }
        }
    }
}

/// One direction of a link: the keys without a prefix (a->b), or with `reverse_` (b->a, where each key
/// left out takes the forward direction's value).
fn direction(t: &mut Table, prefix: &str, forward: Option<&DirSpec>, ck: &mut Checker) -> Option<DirSpec> {
    let reverse = !prefix.is_empty();
    let delay_key = &format!("{prefix}delay");
    let loss_key = &format!("{prefix}loss");
    let capacity = capacity::capacity(t, prefix, forward, ck);
    let delay = if t.has(delay_key) {
        t.duration(delay_key, ck)
    } else if reverse {
        forward.map(|f| f.delay)
    } else {
        ck.error(t.line, &t.key_path(delay_key), "is required");
        None
    };
    let buffer = buffer(t, prefix, forward, ck);
    let queue = queue::queue(t, prefix, forward.map(|f| &f.queue), buffer, ck);
    let loss = probability(t, loss_key, ck)?.unwrap_or(0.0);
    let (bandwidth_bps, capacity) = capacity?;
    Some(DirSpec {
        bandwidth_bps,
        delay: delay?,
        buffer: buffer?,
        loss,
        drop_packets: Vec::new(),
        queue: queue?,
        capacity,
    })
}

/// A direction's buffer, in packets (`buffer`) or bytes (`buffer_bytes`); by default 1000 packets a->b,
/// and b->a the same as a->b.
fn buffer(t: &mut Table, prefix: &str, forward: Option<&DirSpec>, ck: &mut Checker) -> Option<Buffer> {
    let buf_key = &format!("{prefix}buffer");
    let bufb_key = &format!("{prefix}buffer_bytes");
    if t.has(buf_key) && t.has(bufb_key) {
        let l = line_of(t, bufb_key);
        ck.error(l, &t.key_path(bufb_key), format!("give either {buf_key} or {bufb_key}, not both"));
    }
    if t.has(buf_key) {
        t.integer(buf_key, 1, 1_000_000_000, ck).map(|n| Buffer::Packets(n as u64))
    } else if t.has(bufb_key) {
        let l = line_of(t, bufb_key);
        match t.size(bufb_key, ck) {
            Some(b) if b < 1.0 => {
                ck.error(l, &t.key_path(bufb_key), "must be at least one byte");
                None
            }
            Some(b) => Some(Buffer::Bytes(b as u64)),
            None => None,
        }
    } else if !prefix.is_empty() {
        forward.map(|f| f.buffer)
    } else {
        Some(Buffer::Packets(1000))
    }
}
