//! `[[events]]`: changes at a time inside the run, either a flow's new route (`reroute`) or a link's new
//! bandwidth, delay, loss or state (`link`).

use super::fields::{line_of, misplaced_trace, positive, probability, TRACES_ARE_SET};
use super::flows::{FlowRef, Flows};
use super::network::Network;
use crate::model::{Capacity, EventKind, EventSpec};
use crate::scenario::check::{array, as_string, Checker, Table};
use crate::scenario::tree::Node;
use crate::time::Time;

pub(super) const EVENT_KEYS: &[&str] =
    &["at", "kind", "flow", "path", "reverse_path", "link", "direction", "bandwidth", "delay", "loss", "up"];
pub(super) const REROUTE_KEYS: &[&str] = &["at", "kind", "flow", "path", "reverse_path"];
pub(super) const LINK_EVENT_KEYS: &[&str] =
    &["at", "kind", "link", "direction", "bandwidth", "delay", "loss", "up"];

/// Reads `[[events]]`, in time order (events at the same instant keep their file order).
pub(super) fn read(
    top: &mut Table,
    net: &Network,
    flows: &Flows,
    duration: Option<Time>,
    ck: &mut Checker,
) -> Vec<EventSpec> {
    let mut events = Vec::new();
    for (i, en) in array(top.node("events"), "events", ck).iter().enumerate() {
        if let Some(ev) = event(i, en, net, flows, duration, ck) {
            events.push(ev);
        }
    }
    events.sort_by_key(|e| e.at);
    events
}

/// Reads `events[i]`; `None` if it is not valid.
fn event(
    i: usize,
    en: &Node,
    net: &Network,
    flows: &Flows,
    duration: Option<Time>,
    ck: &mut Checker,
) -> Option<EventSpec> {
    let path = format!("events[{i}]");
    let mut t = Table::new(en, &path, ck)?;
    let at_line = line_of(&mut t, "at");
    let at = t.required("at", ck).and_then(|_| t.duration("at", ck));
    if let (Some(a), Some(d)) = (at, duration) {
        if a >= d {
            ck.error(at_line, &t.key_path("at"), "is not inside the run (it must be before `duration`)");
        }
    }
    let kind_line = line_of(&mut t, "kind");
    let kind = t.required("kind", ck).and_then(|n| as_string(n, &t.key_path("kind"), ck));
    let ev = match kind.as_deref() {
        Some("reroute") => reroute(&mut t, en, net, flows, ck),
        Some("link") => link_change(&mut t, en, net, ck),
        Some(other) => {
            ck.error(
                kind_line,
                &t.key_path("kind"),
                format!("unknown event kind '{other}'; use 'reroute' or 'link'"),
            );
            None
        }
        None => None,
    };
    misplaced_trace(&mut t, ck, &format!("is not a key of an event: {TRACES_ARE_SET}"));
    match kind.as_deref() {
        Some("reroute") => t.finish(ck, REROUTE_KEYS),
        Some("link") => t.finish(ck, LINK_EVENT_KEYS),
        // Without a known kind, which keys belong is unknown: report only names no event has.
        _ => {
            for k in EVENT_KEYS {
                t.node(k);
            }
            t.finish(ck, EVENT_KEYS);
        }
    }
    Some(EventSpec { at: at?, kind: ev? })
}

/// A `reroute` event: the flow, and its new `path`, `reverse_path` or both.
fn reroute(t: &mut Table, en: &Node, net: &Network, flows: &Flows, ck: &mut Checker) -> Option<EventKind> {
    let fl = line_of(t, "flow");
    let fid = t.required("flow", ck).and_then(|n| as_string(n, &t.key_path("flow"), ck));
    let fi = fid.and_then(|f| match flows.find(&f) {
        FlowRef::Index(fi) => Some(fi),
        FlowRef::Rejected => None,
        FlowRef::Unknown => {
            ck.error(fl, &t.key_path("flow"), format!("no flow has id '{f}'"));
            None
        }
    });
    let (s, d) = match fi {
        Some(fi) => (Some(flows.specs[fi].src), Some(flows.specs[fi].dst)),
        None => (None, None),
    };
    let has_p = t.has("path");
    let has_rp = t.has("reverse_path");
    if !has_p && !has_rp {
        ck.error(en.line, &t.path, "a reroute needs `path`, `reverse_path` or both");
    }
    let p = if has_p { net.explicit_route(t, "path", s, d, ck) } else { None };
    let rp = if has_rp { net.explicit_route(t, "reverse_path", d, s, ck) } else { None };
    let ok = fi.is_some() && (!has_p || p.is_some()) && (!has_rp || rp.is_some());
    fi.filter(|_| ok).map(|fi| EventKind::Reroute { flow: fi as u32, path: p, reverse_path: rp })
}

/// A `link` event: the link, the directions it changes, and at least one new setting.
fn link_change(t: &mut Table, en: &Node, net: &Network, ck: &mut Checker) -> Option<EventKind> {
    let ll = line_of(t, "link");
    let lid = t.required("link", ck).and_then(|n| as_string(n, &t.key_path("link"), ck));
    let li = lid.and_then(|l| match net.links.iter().position(|x| x.id == l) {
        Some(li) => Some(li),
        None => {
            ck.error(ll, &t.key_path("link"), format!("no link has id '{l}'"));
            None
        }
    });
    let dl = line_of(t, "direction");
    let dirs = match t.string("direction", ck).as_deref() {
        None | Some("both") => Some([true, true]),
        Some("a->b") => Some([true, false]),
        Some("b->a") => Some([false, true]),
        Some(other) => {
            ck.error(dl, &t.key_path("direction"), format!("'{other}' is not one of 'a->b', 'b->a', 'both'"));
            None
        }
    };
    let bl = line_of(t, "bandwidth");
    let bw = t.rate("bandwidth", ck).filter(|b| positive(ck, t, "bandwidth", bl, *b));
    let delay = t.duration("delay", ck);
    let loss = probability(t, "loss", ck);
    let up = t.boolean("up", ck);
    if !["bandwidth", "delay", "loss", "up"].iter().any(|k| t.has(k)) {
        ck.error(en.line, &t.path, "a link event needs at least one of bandwidth, delay, loss, up");
    }
    if let (Some(li), Some(dirs), Some(_)) = (li, dirs, bw) {
        let varying = (0..2).any(|d| dirs[d] && !matches!(net.links[li].dir[d].capacity, Capacity::Fixed));
        if varying {
            ck.error(
                bl,
                &t.key_path("bandwidth"),
                "the link's capacity follows bandwidth_trace or bandwidth_states; an event cannot set its rate",
            );
        }
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
