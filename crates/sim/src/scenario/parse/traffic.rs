//! `[[traffic]]`: sources of other traffic, constant bit rate (`cbr`) or exponential on-off (`onoff`),
//! with their endpoints, route, packet size and times. Their ids share one namespace with the flows'.

use super::fields::{line_of, misplaced_trace, positive, read_id, sized, start_stop};
use super::flows::Flows;
use super::network::Network;
use crate::model::{TrafficKind, TrafficSpec};
use crate::scenario::check::{as_string, Checker, Table};
use crate::scenario::text::join;
use crate::scenario::tree::Node;
use crate::time::Time;
use std::collections::HashMap;

pub(super) const TRAFFIC_KEYS: &[&str] =
    &["id", "kind", "src", "dst", "rate", "packet_size", "start", "stop", "mean_on", "mean_off", "path"];

/// Reads the `[[traffic]]` entries `items`. `duration` and `packet_size` are the run's (`None` if
/// invalid).
pub(super) fn read(
    items: &[Node],
    net: &mut Network,
    flows: &Flows,
    duration: Option<Time>,
    packet_size: Option<u32>,
    ck: &mut Checker,
) -> Vec<TrafficSpec> {
    let mut r = Reader { net, flows, duration, packet_size, ids: HashMap::new(), traffic: Vec::new() };
    for (i, tn) in items.iter().enumerate() {
        r.source(i, tn, ck);
    }
    r.traffic
}

struct Reader<'a> {
    net: &'a mut Network,
    flows: &'a Flows,
    duration: Option<Time>,
    packet_size: Option<u32>,
    /// Source id -> index in the file.
    ids: HashMap<String, usize>,
    /// The accepted sources.
    traffic: Vec<TrafficSpec>,
}

impl Reader<'_> {
    /// Reads `traffic[i]`, adding it to the sources if it is valid.
    fn source(&mut self, i: usize, tn: &Node, ck: &mut Checker) {
        let path = format!("traffic[{i}]");
        let Some(mut t) = Table::new(tn, &path, ck) else {
            return;
        };
        let kind_line = line_of(&mut t, "kind");
        let kind = t.required("kind", ck).and_then(|n| as_string(n, &join(&path, "kind"), ck));
        let id = self.id(&mut t, i, tn, kind.as_deref(), ck);
        let (src, dst) = self.net.endpoints(&mut t, ck);
        let rate_line = line_of(&mut t, "rate");
        let rate = t.required("rate", ck).and_then(|_| t.rate("rate", ck));
        let rate = rate.filter(|r| positive(ck, &t, "rate", rate_line, *r));
        let psize = sized(&mut t, "packet_size", self.packet_size.unwrap_or(1000) as f64, 1.0, 1e6, ck);
        let (start, stop) = start_stop(&mut t, self.duration, ck);
        let tkind = traffic_kind(&mut t, kind.as_deref(), kind_line, rate, ck);
        let tpath = self.net.route(&mut t, "path", (src, dst), &id, ck);
        if !matches!(kind.as_deref(), Some("cbr" | "onoff")) {
            // mean_on/mean_off belong to a kind; with none known they are not reported as unknown.
            t.node("mean_on");
            t.node("mean_off");
        }
        misplaced_trace(
            &mut t,
            ck,
            "sources have no trace of their own: their packets are in the trace of every traced link they cross (links[].trace)",
        );
        t.finish(ck, TRAFFIC_KEYS);
        if let (Some(kind), Some(src), Some(dst), Some(ps), Some(start), Some(stop), Some(p)) =
            (tkind, src, dst, psize, start, stop, tpath)
        {
            self.traffic.push(TrafficSpec { id, kind, src, dst, packet_size: ps, start, stop, path: p });
        }
    }

    /// The source's id (by default its kind and index, e.g. "cbr0"), which no flow or other source may
    /// have.
    fn id(&mut self, t: &mut Table, i: usize, tn: &Node, kind: Option<&str>, ck: &mut Checker) -> String {
        let id = read_id(t, "id", format!("{}{i}", kind.unwrap_or("traffic")), ck);
        let other = match (self.flows.ids.get(&id), self.ids.get(&id)) {
            (Some(j), _) => Some(format!("flows[{j}]")),
            (None, Some(j)) => Some(format!("traffic[{j}]")),
            (None, None) => None,
        };
        if let Some(other) = other {
            let l = line_of(t, "id").or(tn.line);
            ck.error(
                l,
                &t.key_path("id"),
                format!("duplicate id '{id}' (also {other}; flows and traffic share one namespace)"),
            );
        }
        self.ids.insert(id.clone(), i);
        id
    }
}

/// The source's kind with its settings: the rate, and for `onoff` the mean on and off times.
fn traffic_kind(
    t: &mut Table,
    kind: Option<&str>,
    kind_line: Option<u32>,
    rate: Option<f64>,
    ck: &mut Checker,
) -> Option<TrafficKind> {
    let tkind = match kind {
        Some("cbr") => rate.map(|r| TrafficKind::Cbr { rate_bps: r }),
        Some("onoff") => {
            let on = t.required("mean_on", ck).and_then(|_| t.duration("mean_on", ck));
            let off = t.required("mean_off", ck).and_then(|_| t.duration("mean_off", ck));
            for (k, v) in [("mean_on", on), ("mean_off", off)] {
                if v == Some(0) {
                    let l = line_of(t, k);
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
                &t.key_path("kind"),
                format!("unknown traffic kind '{other}'; use 'cbr' or 'onoff'"),
            );
            None
        }
        None => None,
    };
    if kind == Some("cbr") {
        for k in ["mean_on", "mean_off"] {
            if t.has(k) {
                let l = line_of(t, k);
                ck.error(l, &t.key_path(k), "only applies to kind = 'onoff'");
            }
        }
    }
    tkind
}
