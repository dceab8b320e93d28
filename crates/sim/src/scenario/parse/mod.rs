//! Scenario validation: input tree -> typed `Scenario`, or every problem as one line each.

mod fields;
mod flow_params;
mod transport;

use crate::cc;
use crate::measure::resolution::DEFAULT_MAX_SAMPLES;
use crate::model::*;
use crate::scenario::check::{array, as_duration, as_integer, as_string, Checker, Table};
use crate::scenario::limits;
use crate::scenario::routes::Graph;
use crate::scenario::text::join;
use crate::scenario::tree::{Node, Value};
use crate::time::NS_PER_SEC;
use fields::{line_of, positive, probability, read_id, sized, start_stop, valid_id};
use flow_params::params;
use std::collections::HashMap;
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
];
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
];
pub(super) const TRAFFIC_KEYS: &[&str] =
    &["id", "kind", "src", "dst", "rate", "packet_size", "start", "stop", "mean_on", "mean_off", "path"];
pub(super) const EVENT_KEYS: &[&str] =
    &["at", "kind", "flow", "path", "reverse_path", "link", "direction", "bandwidth", "delay", "loss", "up"];
pub(super) const REROUTE_KEYS: &[&str] = &["at", "kind", "flow", "path", "reverse_path"];
pub(super) const LINK_EVENT_KEYS: &[&str] =
    &["at", "kind", "link", "direction", "bandwidth", "delay", "loss", "up"];

/// Every table's key list, for `scenario::known_keys`.
pub(super) const KEY_TABLES: [&[&str]; 9] = [
    TOP_KEYS,
    LINK_KEYS,
    FLOW_KEYS,
    TRAFFIC_KEYS,
    EVENT_KEYS,
    REROUTE_KEYS,
    LINK_EVENT_KEYS,
    transport::TRANSPORT_KEYS,
    limits::LIMITS_KEYS,
];

/// Largest duration we accept for a run: beyond this the nanosecond clock is still fine, but nothing useful
/// can be simulated packet by packet.
const MAX_DURATION_S: f64 = 1e7;
/// Fastest link delaycc accepts (10 Tbps): serialisation times stay whole nanoseconds for any packet size.
const MAX_BANDWIDTH_BPS: f64 = 1e13;

struct Nodes {
    names: Vec<String>,
    index: HashMap<String, NodeId>,
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

    // Links create the nodes.
    let mut nodes = Nodes { names: Vec::new(), index: HashMap::new() };
    let link_nodes = array(top.node("links"), "links", &mut ck);
    let mut links: Vec<LinkSpec> = Vec::new();
    let mut link_lines: Vec<Option<u32>> = Vec::new();
    // Deterministic drops name flows, which are read later: (link index, dir, flow id, seq, path, line).
    let mut pending_drops: Vec<(usize, usize, String, u64, String, Option<u32>)> = Vec::new();
    let mut link_ids: HashMap<String, usize> = HashMap::new();
    let mut pair_seen: HashMap<(NodeId, NodeId), usize> = HashMap::new();
    let links_is_array = matches!(top.node("links"), None | Some(Node { value: Value::Array(_), .. }));
    if link_nodes.is_empty() && links_is_array {
        ck.error(top.line, "links", "at least one link is required");
    }
    for (i, ln) in link_nodes.iter().enumerate() {
        let path = format!("links[{i}]");
        let Some(mut t) = Table::new(ln, &path, &mut ck) else {
            continue;
        };
        let a = t.required("a", &mut ck).and_then(|n| as_string(n, &join(&path, "a"), &mut ck));
        let b = t.required("b", &mut ck).and_then(|n| as_string(n, &join(&path, "b"), &mut ck));
        let default_id = match (&a, &b) {
            (Some(a), Some(b)) => format!("{a}-{b}"),
            _ => format!("link{i}"),
        };
        let id = read_id(&mut t, "id", default_id, &mut ck);
        for (key, v) in [("a", &a), ("b", &b)] {
            if let Some(v) = v {
                if let Err(e) = valid_id(v) {
                    let l = line_of(&mut t, key);
                    ck.error(l, &t.key_path(key), e);
                }
            }
        }
        // Nodes exist as soon as a link names them, even if the link has other errors, so that flows
        // naming them are not reported as well.
        for n in [&a, &b].into_iter().flatten() {
            if valid_id(n).is_ok() {
                nodes.intern(n);
            }
        }
        if let (Some(a), Some(b)) = (&a, &b) {
            if a == b {
                let l = line_of(&mut t, "b");
                ck.error(
                    l,
                    &t.key_path("b"),
                    format!("a link must join two different nodes, not '{a}' to itself"),
                );
            }
        }
        let fwd =
            direction(&mut t, "", "bandwidth", "delay", "buffer", "buffer_bytes", "loss", None, &mut ck);
        let rev = direction(
            &mut t,
            "reverse_",
            "reverse_bandwidth",
            "reverse_delay",
            "reverse_buffer",
            "reverse_buffer_bytes",
            "reverse_loss",
            fwd.as_ref(),
            &mut ck,
        );
        for (dir, key) in [(0usize, "drop_packets"), (1, "reverse_drop_packets")] {
            let items = array(t.node(key), &t.key_path(key), &mut ck);
            for (j, item) in items.iter().enumerate() {
                let ipath = format!("{}[{j}]", t.key_path(key));
                let Some(mut it) = Table::new(item, &ipath, &mut ck) else {
                    continue;
                };
                let flow =
                    it.required("flow", &mut ck).and_then(|n| as_string(n, &join(&ipath, "flow"), &mut ck));
                let seq = it
                    .required("seq", &mut ck)
                    .and_then(|n| as_integer(n, &join(&ipath, "seq"), 0, i64::MAX, &mut ck));
                it.finish(&mut ck, &["flow", "seq"]);
                if let (Some(f), Some(s)) = (flow, seq) {
                    pending_drops.push((links.len(), dir, f, s as u64, ipath, item.line));
                }
            }
        }
        // A default id ("a-b") repeats only for parallel links, which are reported below.
        if let (Some(&j), true) = (link_ids.get(&id), t.has("id")) {
            let l = line_of(&mut t, "id");
            ck.error(l, &join(&path, "id"), format!("duplicate link id '{id}' (also links[{j}])"));
        }
        t.finish(&mut ck, LINK_KEYS);
        link_ids.insert(id.clone(), i);
        if let (Some(a), Some(b), Some(fwd), Some(rev)) = (a, b, fwd, rev) {
            if a != b {
                let (na, nb) = (nodes.intern(&a), nodes.intern(&b));
                let key = (na.min(nb), na.max(nb));
                if let Some(&j) = pair_seen.get(&key) {
                    ck.error(
                        ln.line,
                        &path,
                        format!("'{a}' and '{b}' are already joined by links[{j}]; paths name nodes, so parallel links are ambiguous"),
                    );
                } else {
                    pair_seen.insert(key, i);
                    links.push(LinkSpec { id, a: na, b: nb, dir: [fwd, rev] });
                    link_lines.push(ln.line);
                }
            }
        }
    }
    let mut graph = Graph::new(nodes.names.len(), &links);
    // With a rejected link the graph is incomplete: route errors would only echo the link's error.
    graph.complete = links.len() == link_nodes.len() && links_is_array;
    let mut route_cache: HashMap<NodeId, Vec<Option<Vec<NodeId>>>> = HashMap::new();

    // Flows.
    let mut flows: Vec<FlowSpec> = Vec::new();
    let mut flow_ids: HashMap<String, usize> = HashMap::new();
    let flow_nodes = array(top.node("flows"), "flows", &mut ck);
    let traffic_nodes = array(top.node("traffic"), "traffic", &mut ck);
    for (i, fnode) in flow_nodes.iter().enumerate() {
        let path = format!("flows[{i}]");
        let Some(mut t) = Table::new(fnode, &path, &mut ck) else {
            continue;
        };
        let id = read_id(&mut t, "id", format!("flow{i}"), &mut ck);
        if let Some(j) = flow_ids.get(&id) {
            let l = line_of(&mut t, "id").or(fnode.line);
            ck.error(l, &join(&path, "id"), format!("duplicate flow id '{id}' (also flows[{j}])"));
        }
        flow_ids.insert(id.clone(), i);
        let alg_line = line_of(&mut t, "algorithm");
        let algorithm = t
            .required("algorithm", &mut ck)
            .and_then(|n| as_string(n, &join(&path, "algorithm"), &mut ck))
            .and_then(|name| match cc::algorithm(&name) {
                Some(a) => Some(a),
                None => {
                    let names: Vec<&str> = cc::algorithms().iter().map(|a| a.name).collect();
                    ck.error(
                        alg_line,
                        &join(&path, "algorithm"),
                        format!("unknown algorithm '{name}'; known: {}", names.join(", ")),
                    );
                    None
                }
            });
        let src = endpoint(&mut t, "src", &nodes, graph.complete, &mut ck);
        let dst = endpoint(&mut t, "dst", &nodes, graph.complete, &mut ck);
        if let (Some(s), Some(d)) = (src, dst) {
            if s == d {
                let l = line_of(&mut t, "dst");
                ck.error(l, &t.key_path("dst"), "must differ from src");
            }
        }
        let (start, stop) = start_stop(&mut t, duration, &mut ck);
        let bytes = t.size("bytes", &mut ck).and_then(|b| {
            if b < 1.0 {
                let l = line_of(&mut t, "bytes");
                ck.error(l, &t.key_path("bytes"), "must be at least one byte");
                None
            } else {
                Some(b.ceil() as u64)
            }
        });
        let streams = t.integer("streams", 1, 65535, &mut ck).unwrap_or(1) as u32;
        let fpath = route(&mut t, "path", src, dst, &graph, &links, &nodes, &mut route_cache, &mut ck);
        let rpath = match t.node("reverse_path") {
            Some(_) => {
                route(&mut t, "reverse_path", dst, src, &graph, &links, &nodes, &mut route_cache, &mut ck)
            }
            None => fpath.as_ref().map(|p| p.iter().rev().copied().collect()),
        };
        let params = match (algorithm, t.node("params")) {
            (Some(a), n) => Some(params(a, n, &join(&path, "params"), &mut ck)),
            (None, Some(_)) => None,
            (None, None) => None,
        };
        let transport = match t.node("transport") {
            Some(n) => transport(n, &join(&path, "transport"), &default_transport, &mut ck),
            None => default_transport.clone(),
        };
        t.finish(&mut ck, FLOW_KEYS);
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
        ) = (algorithm, params, src, dst, fpath, rpath, start, stop, ack_size)
        {
            flows.push(FlowSpec {
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
            });
        }
    }
    let absent_or_array = |n: Option<&Node>| matches!(n, None | Some(Node { value: Value::Array(_), .. }));
    if flow_nodes.is_empty()
        && traffic_nodes.is_empty()
        && absent_or_array(top.node("flows"))
        && absent_or_array(top.node("traffic"))
    {
        ck.error(top.line, "flows", "the scenario has no flows and no traffic: nothing to simulate");
    }

    for (li, dir, fid, seq, ipath, line) in pending_drops {
        match flow_ids.get(&fid) {
            Some(&fi) if fi < flows.len() && flows[fi].id == fid => {
                if li < links.len() {
                    links[li].dir[dir].drop_packets.push((fi as u32, seq));
                }
            }
            Some(_) => {}
            None => ck.error(line, &join(&ipath, "flow"), format!("no flow has id '{fid}'")),
        }
    }

    // Other traffic.
    let mut traffic = Vec::new();
    let mut traffic_ids: HashMap<String, usize> = HashMap::new();
    for (i, tn) in traffic_nodes.iter().enumerate() {
        let path = format!("traffic[{i}]");
        let Some(mut t) = Table::new(tn, &path, &mut ck) else {
            continue;
        };
        let kind_line = line_of(&mut t, "kind");
        let kind = t.required("kind", &mut ck).and_then(|n| as_string(n, &join(&path, "kind"), &mut ck));
        let id = read_id(
            &mut t,
            "id",
            format!("{}{i}", kind.clone().unwrap_or_else(|| "traffic".into())),
            &mut ck,
        );
        let other = match (flow_ids.get(&id), traffic_ids.get(&id)) {
            (Some(j), _) => Some(format!("flows[{j}]")),
            (None, Some(j)) => Some(format!("traffic[{j}]")),
            (None, None) => None,
        };
        if let Some(other) = other {
            let l = line_of(&mut t, "id").or(tn.line);
            ck.error(
                l,
                &join(&path, "id"),
                format!("duplicate id '{id}' (also {other}; flows and traffic share one namespace)"),
            );
        }
        traffic_ids.insert(id.clone(), i);
        let src = endpoint(&mut t, "src", &nodes, graph.complete, &mut ck);
        let dst = endpoint(&mut t, "dst", &nodes, graph.complete, &mut ck);
        if let (Some(s), Some(d)) = (src, dst) {
            if s == d {
                let l = line_of(&mut t, "dst");
                ck.error(l, &t.key_path("dst"), "must differ from src");
            }
        }
        let rate_line = line_of(&mut t, "rate");
        let rate = t.required("rate", &mut ck).and_then(|_| t.rate("rate", &mut ck));
        let rate = rate.filter(|r| positive(&mut ck, &t, "rate", rate_line, *r));
        let psize = sized(&mut t, "packet_size", packet_size.unwrap_or(1000) as f64, 1.0, 1e6, &mut ck);
        let (start, stop) = start_stop(&mut t, duration, &mut ck);
        let tkind = match kind.as_deref() {
            Some("cbr") => rate.map(|r| TrafficKind::Cbr { rate_bps: r }),
            Some("onoff") => {
                let on = t.required("mean_on", &mut ck).and_then(|_| t.duration("mean_on", &mut ck));
                let off = t.required("mean_off", &mut ck).and_then(|_| t.duration("mean_off", &mut ck));
                for (k, v) in [("mean_on", on), ("mean_off", off)] {
                    if v == Some(0) {
                        let l = line_of(&mut t, k);
                        ck.error(l, &t.key_path(k), "must be greater than zero");
                    }
                }
                match (rate, on, off) {
                    (Some(r), Some(on), Some(off)) if on > 0 && off > 0 => {
                        Some(TrafficKind::OnOff { rate_bps: r, mean_on: on, mean_off: off })
                    }
                    _ => None,
                }
            }
            Some(other) => {
                ck.error(
                    kind_line,
                    &join(&path, "kind"),
                    format!("unknown traffic kind '{other}'; use 'cbr' or 'onoff'"),
                );
                None
            }
            None => None,
        };
        if kind.as_deref() == Some("cbr") {
            for k in ["mean_on", "mean_off"] {
                if t.has(k) {
                    let l = line_of(&mut t, k);
                    ck.error(l, &t.key_path(k), "only applies to kind = 'onoff'");
                }
            }
        }
        let tpath = route(&mut t, "path", src, dst, &graph, &links, &nodes, &mut route_cache, &mut ck);
        if !matches!(kind.as_deref(), Some("cbr" | "onoff")) {
            // mean_on/mean_off belong to a kind; with none known they are not reported as unknown.
            t.node("mean_on");
            t.node("mean_off");
        }
        t.finish(&mut ck, TRAFFIC_KEYS);
        if let (Some(kind), Some(src), Some(dst), Some(ps), Some(start), Some(stop), Some(p)) =
            (tkind, src, dst, psize, start, stop, tpath)
        {
            traffic.push(TrafficSpec { id, kind, src, dst, packet_size: ps, start, stop, path: p });
        }
    }

    // Timed events.
    let mut events = Vec::new();
    for (i, en) in array(top.node("events"), "events", &mut ck).iter().enumerate() {
        let path = format!("events[{i}]");
        let Some(mut t) = Table::new(en, &path, &mut ck) else {
            continue;
        };
        let at_line = line_of(&mut t, "at");
        let at = t.required("at", &mut ck).and_then(|_| t.duration("at", &mut ck));
        if let (Some(a), Some(d)) = (at, duration) {
            if a >= d {
                ck.error(at_line, &t.key_path("at"), "is not inside the run (it must be before `duration`)");
            }
        }
        let kind_line = line_of(&mut t, "kind");
        let kind = t.required("kind", &mut ck).and_then(|n| as_string(n, &join(&path, "kind"), &mut ck));
        let ev = match kind.as_deref() {
            Some("reroute") => {
                let fl = line_of(&mut t, "flow");
                let fid =
                    t.required("flow", &mut ck).and_then(|n| as_string(n, &join(&path, "flow"), &mut ck));
                let fi = fid.and_then(|f| match flow_ids.get(&f) {
                    Some(&fi) if fi < flows.len() && flows[fi].id == f => Some(fi),
                    Some(_) => None,
                    None => {
                        ck.error(fl, &t.key_path("flow"), format!("no flow has id '{f}'"));
                        None
                    }
                });
                let (s, d) = match fi {
                    Some(fi) => (Some(flows[fi].src), Some(flows[fi].dst)),
                    None => (None, None),
                };
                let has_p = t.has("path");
                let has_rp = t.has("reverse_path");
                if !has_p && !has_rp {
                    ck.error(en.line, &path, "a reroute needs `path`, `reverse_path` or both");
                }
                let p =
                    if has_p { explicit_route(&mut t, "path", s, d, &graph, &nodes, &mut ck) } else { None };
                let rp = if has_rp {
                    explicit_route(&mut t, "reverse_path", d, s, &graph, &nodes, &mut ck)
                } else {
                    None
                };
                let ok = fi.is_some() && (!has_p || p.is_some()) && (!has_rp || rp.is_some());
                fi.filter(|_| ok).map(|fi| EventKind::Reroute { flow: fi as u32, path: p, reverse_path: rp })
            }
            Some("link") => {
                let ll = line_of(&mut t, "link");
                let lid =
                    t.required("link", &mut ck).and_then(|n| as_string(n, &join(&path, "link"), &mut ck));
                let li = lid.and_then(|l| match links.iter().position(|x| x.id == l) {
                    Some(li) => Some(li),
                    None => {
                        ck.error(ll, &t.key_path("link"), format!("no link has id '{l}'"));
                        None
                    }
                });
                let dl = line_of(&mut t, "direction");
                let dirs = match t.string("direction", &mut ck).as_deref() {
                    None | Some("both") => Some([true, true]),
                    Some("a->b") => Some([true, false]),
                    Some("b->a") => Some([false, true]),
                    Some(other) => {
                        ck.error(
                            dl,
                            &t.key_path("direction"),
                            format!("'{other}' is not one of 'a->b', 'b->a', 'both'"),
                        );
                        None
                    }
                };
                let bl = line_of(&mut t, "bandwidth");
                let bw = t.rate("bandwidth", &mut ck).filter(|b| positive(&mut ck, &t, "bandwidth", bl, *b));
                let delay = t.duration("delay", &mut ck);
                let loss = probability(&mut t, "loss", &mut ck);
                let up = t.boolean("up", &mut ck);
                if !["bandwidth", "delay", "loss", "up"].iter().any(|k| t.has(k)) {
                    ck.error(en.line, &path, "a link event needs at least one of bandwidth, delay, loss, up");
                }
                match (li, dirs) {
                    (Some(li), Some(dirs)) => Some(EventKind::Link {
                        link: li as u32,
                        dirs,
                        bandwidth_bps: bw,
                        delay,
                        loss: loss.flatten(),
                        up,
                    }),
                    _ => None,
                }
            }
            Some(other) => {
                ck.error(
                    kind_line,
                    &join(&path, "kind"),
                    format!("unknown event kind '{other}'; use 'reroute' or 'link'"),
                );
                None
            }
            None => None,
        };
        match kind.as_deref() {
            Some("reroute") => t.finish(&mut ck, REROUTE_KEYS),
            Some("link") => t.finish(&mut ck, LINK_EVENT_KEYS),
            // Without a known kind, which keys belong is unknown: report only names no event has.
            _ => {
                for k in EVENT_KEYS {
                    t.node(k);
                }
                t.finish(&mut ck, EVENT_KEYS);
            }
        }
        if let (Some(at), Some(kind)) = (at, ev) {
            events.push(EventSpec { at, kind });
        }
    }
    // Events at the same instant keep their file order.
    events.sort_by_key(|e| e.at);

    let limits_table = limits::read(top.node("limits"), &mut ck);
    let sample_interval_given = top.has("sample_interval").then_some(si_line);
    let max_samples_given = top.has("max_samples").then_some(max_samples_line);
    top.finish(&mut ck, TOP_KEYS);
    let _ = link_lines;
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
        nodes: nodes.names,
        links,
        flows,
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

#[allow(clippy::too_many_arguments)]
fn direction(
    t: &mut Table,
    prefix: &str,
    bw_key: &str,
    delay_key: &str,
    buf_key: &str,
    bufb_key: &str,
    loss_key: &str,
    forward: Option<&DirSpec>,
    ck: &mut Checker,
) -> Option<DirSpec> {
    let reverse = !prefix.is_empty();
    let bl = line_of(t, bw_key);
    let bandwidth = if t.has(bw_key) {
        t.rate(bw_key, ck).filter(|b| positive(ck, t, bw_key, bl, *b)).filter(|b| {
            let ok = *b <= MAX_BANDWIDTH_BPS;
            if !ok {
                ck.error(bl, &t.key_path(bw_key), "is above 10 Tbps, beyond what delaycc simulates");
            }
            ok
        })
    } else if reverse {
        forward.map(|f| f.bandwidth_bps)
    } else {
        ck.error(t.line, &t.key_path(bw_key), "is required");
        None
    };
    let delay = if t.has(delay_key) {
        t.duration(delay_key, ck)
    } else if reverse {
        forward.map(|f| f.delay)
    } else {
        ck.error(t.line, &t.key_path(delay_key), "is required");
        None
    };
    if t.has(buf_key) && t.has(bufb_key) {
        let l = line_of(t, bufb_key);
        ck.error(l, &t.key_path(bufb_key), format!("give either {buf_key} or {bufb_key}, not both"));
    }
    let buffer = if t.has(buf_key) {
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
    } else if reverse {
        forward.map(|f| f.buffer)
    } else {
        Some(Buffer::Packets(1000))
    };
    let loss = probability(t, loss_key, ck)?.unwrap_or(0.0);
    Some(DirSpec {
        bandwidth_bps: bandwidth?,
        delay: delay?,
        buffer: buffer?,
        loss,
        drop_packets: Vec::new(),
    })
}

/// A flow's or source's endpoint. Unknown names are reported only when every link was valid (otherwise the
/// node may be one a rejected link would have created).
fn endpoint(t: &mut Table, key: &str, nodes: &Nodes, links_valid: bool, ck: &mut Checker) -> Option<NodeId> {
    let l = line_of(t, key);
    let name = t.required(key, ck).and_then(|n| as_string(n, &t.key_path(key), ck))?;
    match nodes.index.get(&name) {
        Some(&i) => Some(i),
        None if !links_valid => None,
        None => {
            ck.error(
                l,
                &t.key_path(key),
                format!("unknown node '{name}' (nodes are created by naming them in links)"),
            );
            None
        }
    }
}

/// A node list given under `key`, checked against the graph; `None` on any error.
fn explicit_route(
    t: &mut Table,
    key: &str,
    src: Option<NodeId>,
    dst: Option<NodeId>,
    graph: &Graph,
    nodes: &Nodes,
    ck: &mut Checker,
) -> Option<Vec<NodeId>> {
    let kp = t.key_path(key);
    let node = t.node(key)?;
    if !matches!(node.value, Value::Array(_)) {
        ck.error(node.line, &kp, format!("must be a list of node names, not {}", node.value.type_name()));
        return None;
    }
    let items = array(Some(node), &kp, ck);
    let mut ids = Vec::new();
    let mut ok = true;
    for (i, it) in items.iter().enumerate() {
        let ip = format!("{kp}[{i}]");
        match as_string(it, &ip, ck) {
            Some(name) => match nodes.index.get(&name) {
                Some(&n) => ids.push(n),
                None => {
                    ck.error(it.line, &ip, format!("unknown node '{name}'"));
                    ok = false;
                }
            },
            None => ok = false,
        }
    }
    if !ok {
        return None;
    }
    if ids.len() < 2 {
        ck.error(node.line, &kp, "must list at least two nodes");
        return None;
    }
    if let Some(s) = src {
        if ids[0] != s {
            ck.error(
                node.line,
                &kp,
                format!(
                    "must start at '{}', not '{}'",
                    nodes.names[s as usize], nodes.names[ids[0] as usize]
                ),
            );
            return None;
        }
    }
    if let Some(d) = dst {
        let last = *ids.last().unwrap_or(&0);
        if last != d {
            ck.error(
                node.line,
                &kp,
                format!("must end at '{}', not '{}'", nodes.names[d as usize], nodes.names[last as usize]),
            );
            return None;
        }
    }
    if !graph.complete {
        return None;
    }
    for w in ids.windows(2) {
        if graph.hop(w[0], w[1]).is_none() {
            ck.error(
                node.line,
                &kp,
                format!(
                    "no link joins '{}' and '{}'",
                    nodes.names[w[0] as usize], nodes.names[w[1] as usize]
                ),
            );
            return None;
        }
    }
    let mut seen = ids.clone();
    seen.sort();
    if seen.windows(2).any(|w| w[0] == w[1]) {
        ck.error(node.line, &kp, "visits a node twice (routing loop)");
        return None;
    }
    Some(ids)
}

#[allow(clippy::too_many_arguments)]
fn route(
    t: &mut Table,
    key: &str,
    src: Option<NodeId>,
    dst: Option<NodeId>,
    graph: &Graph,
    links: &[LinkSpec],
    nodes: &Nodes,
    cache: &mut HashMap<NodeId, Vec<Option<Vec<NodeId>>>>,
    ck: &mut Checker,
) -> Option<Vec<NodeId>> {
    if t.has(key) {
        return explicit_route(t, key, src, dst, graph, nodes, ck);
    }
    let (s, d) = (src?, dst?);
    if s == d || !graph.complete {
        return None;
    }
    let paths = cache.entry(s).or_insert_with(|| graph.shortest_from(s, links));
    match &paths[d as usize] {
        Some(p) => Some(p.clone()),
        None => {
            ck.error(
                t.line,
                &t.key_path("dst"),
                format!("no route from '{}' to '{}'", nodes.names[s as usize], nodes.names[d as usize]),
            );
            None
        }
    }
}
