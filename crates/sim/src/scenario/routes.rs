//! Routing over the scenario's graph: checking explicit node lists and finding the default route (least
//! total one-way propagation delay in the direction of travel, ties broken by hop count, then by node order).
//! With `routing = "ecmp"` the cost is the same (delay, then hops), but among the paths of least cost a
//! flow takes the one its hash picks, hop by hop (`ecmp_path`).

use crate::model::{LinkSpec, NodeId};
use crate::rng::keyed_hash;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// For each node, its neighbours: (neighbour, link index, direction index 0 = a->b, 1 = b->a).
pub struct Graph {
    pub adj: Vec<Vec<(NodeId, u32, u8)>>,
    /// False when some link of the scenario was rejected, so missing routes may not be real.
    pub complete: bool,
}

impl Graph {
    pub fn new(n_nodes: usize, links: &[LinkSpec]) -> Graph {
        let mut adj = vec![Vec::new(); n_nodes];
        for (i, l) in links.iter().enumerate() {
            adj[l.a as usize].push((l.b, i as u32, 0));
            adj[l.b as usize].push((l.a, i as u32, 1));
        }
        for a in &mut adj {
            a.sort();
        }
        Graph { adj, complete: true }
    }

    /// The link direction from `u` to `v`, if they are linked.
    pub fn hop(&self, u: NodeId, v: NodeId) -> Option<(u32, u8)> {
        self.adj[u as usize].iter().find(|(n, _, _)| *n == v).map(|(_, l, d)| (*l, *d))
    }

    /// Least-delay paths from `src` to every node (None where unreachable).
    pub fn shortest_from(&self, src: NodeId, links: &[LinkSpec]) -> Vec<Option<Vec<NodeId>>> {
        let n = self.adj.len();
        let mut best: Vec<Option<(u64, u32)>> = vec![None; n];
        let mut prev: Vec<Option<NodeId>> = vec![None; n];
        let mut heap = BinaryHeap::new();
        best[src as usize] = Some((0, 0));
        heap.push(Reverse((0u64, 0u32, src)));
        while let Some(Reverse((d, h, u))) = heap.pop() {
            if best[u as usize] != Some((d, h)) {
                continue;
            }
            for &(v, l, dir) in &self.adj[u as usize] {
                let cand = (d.saturating_add(links[l as usize].dir[dir as usize].delay), h + 1);
                if best[v as usize].is_none_or(|b| cand < b) {
                    best[v as usize] = Some(cand);
                    prev[v as usize] = Some(u);
                    heap.push(Reverse((cand.0, cand.1, v)));
                }
            }
        }
        (0..n)
            .map(|t| {
                best[t]?;
                let mut path = vec![t as NodeId];
                let mut cur = t as NodeId;
                while let Some(p) = prev[cur as usize] {
                    path.push(p);
                    cur = p;
                }
                path.reverse();
                Some(path)
            })
            .collect()
    }

    /// The least cost (total delay, hops) from every node to `dst` along the directions of travel (None
    /// where `dst` cannot be reached).
    pub fn costs_to(&self, dst: NodeId, links: &[LinkSpec]) -> Vec<Option<(u64, u32)>> {
        let mut best: Vec<Option<(u64, u32)>> = vec![None; self.adj.len()];
        let mut heap = BinaryHeap::new();
        best[dst as usize] = Some((0, 0));
        heap.push(Reverse((0u64, 0u32, dst)));
        while let Some(Reverse((d, h, v))) = heap.pop() {
            if best[v as usize] != Some((d, h)) {
                continue;
            }
            // `dir` is v -> u's direction; the packet travels u -> v on the other one.
            for &(u, l, dir) in &self.adj[v as usize] {
                let cand = (d.saturating_add(links[l as usize].dir[1 - dir as usize].delay), h + 1);
                if best[u as usize].is_none_or(|b| cand < b) {
                    best[u as usize] = Some(cand);
                    heap.push(Reverse((cand.0, cand.1, u)));
                }
            }
        }
        best
    }

    /// One least-cost path from `src` to the node `costs` leads to (`costs_to`): at each node the next hop
    /// is one of the neighbours on a least-cost path, in node order, chosen by a hash of `seed`, `label`
    /// (the flow's id) and the node. Deterministic; flows with different labels spread over the choices.
    pub fn ecmp_path(
        &self,
        src: NodeId,
        costs: &[Option<(u64, u32)>],
        links: &[LinkSpec],
        seed: u64,
        label: &str,
    ) -> Option<Vec<NodeId>> {
        let mut cur_cost = costs[src as usize]?;
        let mut path = vec![src];
        let mut u = src;
        let mut next = Vec::new();
        while cur_cost.1 > 0 {
            next.clear();
            for &(v, l, dir) in &self.adj[u as usize] {
                let Some((d, h)) = costs[v as usize] else { continue };
                let step = (d.saturating_add(links[l as usize].dir[dir as usize].delay), h + 1);
                if step == cur_cost {
                    next.push(v);
                }
            }
            let pick = match next.len() {
                0 => return None,
                1 => next[0],
                n => next[(keyed_hash(seed, label, u as u64) % n as u64) as usize],
            };
            u = pick;
            cur_cost = costs[u as usize]?;
            path.push(u);
        }
        Some(path)
    }
}
