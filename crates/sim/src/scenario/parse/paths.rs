//! Where flows and sources go: their endpoints (`src`, `dst`) and routes (`path`, `reverse_path`, also
//! of reroute events), checked against the network.

use super::fields::line_of;
use super::network::Network;
use crate::model::NodeId;
use crate::scenario::check::{array, as_string, Checker, Table};
use crate::scenario::tree::Value;

impl Network {
    /// A flow's or source's endpoint. Unknown names are reported only when every link was valid
    /// (otherwise the node may be one a rejected link would have created).
    fn endpoint(&self, t: &mut Table, key: &str, ck: &mut Checker) -> Option<NodeId> {
        let l = line_of(t, key);
        let name = t.required(key, ck).and_then(|n| as_string(n, &t.key_path(key), ck))?;
        match self.nodes.index.get(&name) {
            Some(&i) => Some(i),
            None if !self.graph.complete => None,
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

    /// `src` and `dst` of a flow or source, which must differ.
    pub(super) fn endpoints(&self, t: &mut Table, ck: &mut Checker) -> (Option<NodeId>, Option<NodeId>) {
        let src = self.endpoint(t, "src", ck);
        let dst = self.endpoint(t, "dst", ck);
        if let (Some(s), Some(d)) = (src, dst) {
            if s == d {
                let l = line_of(t, "dst");
                ck.error(l, &t.key_path("dst"), "must differ from src");
            }
        }
        (src, dst)
    }

    /// A node list given under `key`, checked against the graph; `None` on any error.
    pub(super) fn explicit_route(
        &self,
        t: &mut Table,
        key: &str,
        src: Option<NodeId>,
        dst: Option<NodeId>,
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
                Some(name) => match self.nodes.index.get(&name) {
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
                        self.nodes.names[s as usize], self.nodes.names[ids[0] as usize]
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
                    format!(
                        "must end at '{}', not '{}'",
                        self.nodes.names[d as usize], self.nodes.names[last as usize]
                    ),
                );
                return None;
            }
        }
        if !self.graph.complete {
            return None;
        }
        for w in ids.windows(2) {
            if self.graph.hop(w[0], w[1]).is_none() {
                ck.error(
                    node.line,
                    &kp,
                    format!(
                        "no link joins '{}' and '{}'",
                        self.nodes.names[w[0] as usize], self.nodes.names[w[1] as usize]
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

    /// The route under `key` if given, else the default route from `src` to `dst`: the least-delay one,
    /// or with ECMP the least-cost one the hash of `label` (the flow's or source's id) picks.
    pub(super) fn route(
        &mut self,
        t: &mut Table,
        key: &str,
        (src, dst): (Option<NodeId>, Option<NodeId>),
        label: &str,
        ck: &mut Checker,
    ) -> Option<Vec<NodeId>> {
        if t.has(key) {
            return self.explicit_route(t, key, src, dst, ck);
        }
        let (s, d) = (src?, dst?);
        if s == d || !self.graph.complete {
            return None;
        }
        let found = match self.ecmp {
            Some(seed) => {
                let costs = self.cost_cache.entry(d).or_insert_with(|| self.graph.costs_to(d, &self.links));
                self.graph.ecmp_path(s, costs, &self.links, seed, label)
            }
            None => {
                let paths =
                    self.route_cache.entry(s).or_insert_with(|| self.graph.shortest_from(s, &self.links));
                paths[d as usize].clone()
            }
        };
        match found {
            Some(p) => Some(p),
            None => {
                ck.error(
                    t.line,
                    &t.key_path("dst"),
                    format!(
                        "no route from '{}' to '{}'",
                        self.nodes.names[s as usize], self.nodes.names[d as usize]
                    ),
                );
                None
            }
        }
    }
}
