//! The topologies random scenarios are built on, and the routes between their endpoints.

#[derive(Clone, Debug)]
pub enum Topology {
    /// n0 - n1 - ... - n(k-1)
    Chain(usize),
    /// s_i - r1 - r2 - d_i for i < k
    Dumbbell(usize),
    /// s_i - r1 - {x, y} - r2 - d_i for i < k: two routes between every sender and receiver, for reroutes.
    Diamond(usize),
}

/// One route: its nodes in order and the indices of the links it crosses.
#[derive(Clone, Debug)]
pub struct Route {
    pub nodes: Vec<String>,
    pub links: Vec<usize>,
}

/// Endpoints a flow or source may join, and every route between them (one, except in a diamond).
#[derive(Clone, Debug)]
pub struct Pair {
    pub src: String,
    pub dst: String,
    pub routes: Vec<Route>,
}

fn route(nodes: &[String], links: Vec<usize>) -> Route {
    Route { nodes: nodes.to_vec(), links }
}

/// The pair and its mirror image (the same routes walked backwards).
fn both_ways(nodes_of_routes: Vec<(Vec<String>, Vec<usize>)>) -> [Pair; 2] {
    let fwd: Vec<Route> = nodes_of_routes.iter().map(|(n, l)| route(n, l.clone())).collect();
    let rev: Vec<Route> = fwd
        .iter()
        .map(|r| Route { nodes: r.nodes.iter().rev().cloned().collect(), links: r.links.clone() })
        .collect();
    let (first, last) = (fwd[0].nodes[0].clone(), fwd[0].nodes.last().cloned().unwrap_or_default());
    [Pair { src: first.clone(), dst: last.clone(), routes: fwd }, Pair { src: last, dst: first, routes: rev }]
}

impl Topology {
    /// Node pairs joined by a link, `a` first; a pair's index is the link's index in `Route::links`.
    pub fn links(&self) -> Vec<(String, String)> {
        let hosts = |k: usize, name: &str, router: &str, host_first: bool| -> Vec<(String, String)> {
            (0..k)
                .map(|i| {
                    let (h, r) = (format!("{name}{i}"), router.to_string());
                    if host_first {
                        (h, r)
                    } else {
                        (r, h)
                    }
                })
                .collect()
        };
        match *self {
            Topology::Chain(k) => (1..k).map(|i| (format!("n{}", i - 1), format!("n{i}"))).collect(),
            Topology::Dumbbell(k) => {
                let mut l = hosts(k, "s", "r1", true);
                l.push(("r1".into(), "r2".into()));
                l.extend(hosts(k, "d", "r2", false));
                l
            }
            Topology::Diamond(k) => {
                let mut l = hosts(k, "s", "r1", true);
                for (a, b) in [("r1", "x"), ("x", "r2"), ("r1", "y"), ("y", "r2")] {
                    l.push((a.into(), b.into()));
                }
                l.extend(hosts(k, "d", "r2", false));
                l
            }
        }
    }

    pub fn pairs(&self) -> Vec<Pair> {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let mut pairs = Vec::new();
        match *self {
            Topology::Chain(k) => {
                for i in 0..k {
                    for j in i + 1..k {
                        let nodes: Vec<String> = (i..=j).map(|n| format!("n{n}")).collect();
                        pairs.extend(both_ways(vec![(nodes, (i..j).collect())]));
                    }
                }
            }
            Topology::Dumbbell(k) => {
                for i in 0..k {
                    for j in 0..k {
                        let (s, d) = (format!("s{i}"), format!("d{j}"));
                        let nodes = names(&[&s, "r1", "r2", &d]);
                        pairs.extend(both_ways(vec![(nodes, vec![i, k, k + 1 + j])]));
                    }
                }
            }
            Topology::Diamond(k) => {
                for i in 0..k {
                    for j in 0..k {
                        let (s, d) = (format!("s{i}"), format!("d{j}"));
                        let via_x = (names(&[&s, "r1", "x", "r2", &d]), vec![i, k, k + 1, k + 4 + j]);
                        let via_y = (names(&[&s, "r1", "y", "r2", &d]), vec![i, k + 2, k + 3, k + 4 + j]);
                        pairs.extend(both_ways(vec![via_x, via_y]));
                    }
                }
            }
        }
        pairs
    }
}
