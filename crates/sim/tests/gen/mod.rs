//! Random valid scenarios for the property tests: chain, dumbbell or diamond topologies, 1 to 10 flows of
//! any algorithm in the registry with random parameters, optional CBR and on/off sources, link changes and
//! reroutes while running. Each scenario's duration is cut so that it carries about `PACKET_BUDGET`
//! packets, so a case runs in milliseconds.
#![allow(dead_code)]

mod topology;

pub use topology::{Route, Topology};

use delaycc_sim::cc::{self, ParamKind, ParamSpec};
use delaycc_sim::model::ParamDefault;
use proptest::collection::vec;
use proptest::prelude::*;
use std::fmt;

/// Packets (data, datagrams) a scenario may carry at its links' full rates.
const PACKET_BUDGET: f64 = 100000.0;
/// Parameter ranges are cut to this upper end: a FAST alpha of 1e9 is valid but simulates 1e9 packets.
const PARAM_CAP: f64 = 1000.0;

#[derive(Clone, Debug)]
pub struct LinkGen {
    pub bandwidth_bps: f64,
    pub reverse_bandwidth_bps: Option<f64>,
    pub delay_ns: u64,
    pub buffer: u64,
    pub loss: f64,
}

#[derive(Clone, Debug)]
pub struct FlowGen {
    pub pair: usize,
    pub algorithm: &'static str,
    /// (name, TOML literal)
    pub params: Vec<(&'static str, String)>,
    pub start_frac: f64,
    pub stop_frac: Option<f64>,
    pub bytes: Option<u64>,
    pub streams: u32,
    pub delayed_ack: bool,
    pub initial_window: u32,
}

#[derive(Clone, Debug)]
pub struct TrafficGen {
    pub pair: usize,
    pub onoff: bool,
    /// Rate as a fraction of the slowest link on the source's path.
    pub rate_frac: f64,
    pub packet_size: u32,
    pub start_frac: f64,
    pub stop_frac: Option<f64>,
}

/// A change to one link while running. Bandwidth only ever drops, so the capacity a flow sees is still at
/// most its path's initial bandwidth.
#[derive(Clone, Debug)]
pub struct EventGen {
    pub at_frac: f64,
    pub link: usize,
    pub direction: &'static str,
    pub bandwidth_frac: Option<f64>,
    pub delay_ns: Option<u64>,
    pub loss: Option<f64>,
    pub up: Option<bool>,
}

/// Moves a flow's data, its ACKs or both to one of its pair's routes (a diamond has two).
#[derive(Clone, Debug)]
pub struct RerouteGen {
    pub at_frac: f64,
    /// Taken modulo the number of flows, and the route modulo the number of routes.
    pub flow: usize,
    pub route: usize,
    pub data: bool,
    pub acks: bool,
}

#[derive(Clone)]
pub struct ScenarioGen {
    pub topology: Topology,
    pub links: Vec<LinkGen>,
    pub flows: Vec<FlowGen>,
    pub traffic: Vec<TrafficGen>,
    pub events: Vec<EventGen>,
    pub reroutes: Vec<RerouteGen>,
    pub packet_size: u32,
    pub duration_s: f64,
    pub seed: u32,
    /// `[limits] max_events`: a budget that may stop the run early (the run must then keep the invariants
    /// too, with exactly that many events).
    pub max_events: Option<u64>,
}

/// Failing cases print as the scenario file they are.
impl fmt::Debug for ScenarioGen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.to_toml())
    }
}

/// 10^e for e uniform in [lo_exp, hi_exp], rounded to a whole number.
fn log_uniform(lo_exp: f64, hi_exp: f64) -> impl Strategy<Value = f64> {
    (lo_exp..=hi_exp).prop_map(|e| 10f64.powf(e).round())
}

/// 1 kbps to 10 Gbps, half of the time 1 Mbps to 1 Gbps (slow links carry few packets in a short run).
fn bandwidth() -> impl Strategy<Value = f64> {
    prop_oneof![log_uniform(3.0, 10.0), log_uniform(6.0, 9.0)]
}

fn link() -> impl Strategy<Value = LinkGen> {
    (
        bandwidth(),
        prop::option::weighted(0.2, bandwidth()),
        // Log-uniform from 1 us to 1 s, and sometimes none: most runs then last many round trips.
        prop_oneof![1 => Just(0u64), 4 => log_uniform(3.0, 9.0).prop_map(|ns| ns as u64)],
        log_uniform(0.0, 4.0),
        prop_oneof![3 => Just(0.0), 1 => 0.0..=0.1f64],
    )
        .prop_map(|(bandwidth_bps, reverse_bandwidth_bps, delay_ns, buffer, loss)| LinkGen {
            bandwidth_bps,
            reverse_bandwidth_bps,
            delay_ns,
            buffer: buffer.max(1.0) as u64,
            loss,
        })
}

/// A TOML literal for one valid value of a parameter, within `PARAM_CAP`.
fn param_value(spec: &'static ParamSpec) -> BoxedStrategy<String> {
    match spec.kind {
        ParamKind::Float { min, max, min_exclusive } => {
            let hi = max.min(PARAM_CAP.max(min));
            (0.0..=1.0f64)
                .prop_map(move |u| {
                    let x = min + u * (hi - min);
                    let x = if min_exclusive && x <= min { hi.min(min + 1e-3) } else { x };
                    format!("{x:?}")
                })
                .boxed()
        }
        ParamKind::Int { min, max } => (min..=max.min(PARAM_CAP as i64)).prop_map(|n| n.to_string()).boxed(),
        ParamKind::Bool => any::<bool>().prop_map(|b| b.to_string()).boxed(),
        ParamKind::Duration { min, max } => {
            (min..=max.min(1.0).max(min)).prop_map(|s| format!("\"{}ns\"", (s * 1e9).round())).boxed()
        }
        ParamKind::Choice(choices) => prop::sample::select(choices).prop_map(|c| format!("\"{c}\"")).boxed(),
    }
}

fn default_num(spec: &ParamSpec) -> Option<f64> {
    match spec.default {
        ParamDefault::Num(x) => Some(x),
        _ => None,
    }
}

/// Vegas needs beta >= alpha: raise beta to alpha when the random values cross. An unset alpha or beta
/// takes the chosen flavour's default (Linux's 2 and 4 with `flavour = "linux"`).
fn vegas_band(alg: &cc::AlgorithmInfo, params: &mut Vec<(&'static str, String)>) {
    let (Some(a), Some(b)) = (alg.param("alpha"), alg.param("beta")) else {
        return;
    };
    let flavour = params
        .iter()
        .find(|(n, _)| *n == "flavour")
        .map(|(_, v)| v.trim_matches('"').to_string())
        .unwrap_or_default();
    let value = |name: &str, spec: &ParamSpec, params: &[(&str, String)]| {
        let default = match cc::vegas::flavour_default(&flavour, name) {
            Some(ParamDefault::Num(x)) if alg.param("flavour").is_some() => Some(x),
            _ => default_num(spec),
        };
        params.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.parse().ok()).or(default)
    };
    if let (Some(alpha), Some(beta)) = (value("alpha", a, params), value("beta", b, params)) {
        if beta < alpha {
            params.retain(|(n, _)| *n != "beta");
            params.push(("beta", format!("{alpha:?}")));
        }
    }
}

fn algorithm_and_params() -> impl Strategy<Value = (&'static str, Vec<(&'static str, String)>)> {
    (0..cc::algorithms().len()).prop_flat_map(|i| {
        let alg = &cc::algorithms()[i];
        let specs: Vec<BoxedStrategy<Option<(&'static str, String)>>> = alg
            .params()
            .map(|s| {
                let name = s.name;
                prop::option::weighted(0.25, param_value(s).prop_map(move |v| (name, v))).boxed()
            })
            .collect();
        specs.prop_map(move |chosen| {
            let mut params: Vec<_> = chosen.into_iter().flatten().collect();
            vegas_band(alg, &mut params);
            (alg.name, params)
        })
    })
}

fn flow(pairs: usize) -> impl Strategy<Value = FlowGen> {
    (
        0..pairs,
        algorithm_and_params(),
        0.0..0.5f64,
        prop::option::weighted(0.2, 0.05..=1.0f64),
        prop::option::weighted(0.2, 1u64..=1_000_000),
        prop_oneof![3 => Just(1u32), 1 => 2u32..=4],
        prop::bool::weighted(0.2),
        1u32..=10,
    )
        .prop_map(
            |(
                pair,
                (algorithm, params),
                start_frac,
                stop_frac,
                bytes,
                streams,
                delayed_ack,
                initial_window,
            )| {
                FlowGen {
                    pair,
                    algorithm,
                    params,
                    start_frac,
                    stop_frac,
                    bytes,
                    streams,
                    delayed_ack,
                    initial_window,
                }
            },
        )
}

fn traffic(pairs: usize) -> impl Strategy<Value = TrafficGen> {
    (
        0..pairs,
        any::<bool>(),
        0.01..=2.0f64,
        1u32..=1500,
        0.0..0.5f64,
        prop::option::weighted(0.3, 0.05..=1.0f64),
    )
        .prop_map(|(pair, onoff, rate_frac, packet_size, start_frac, stop_frac)| TrafficGen {
            pair,
            onoff,
            rate_frac,
            packet_size,
            start_frac,
            stop_frac,
        })
}

fn event(links: usize) -> impl Strategy<Value = EventGen> {
    (
        0.0..1.0f64,
        0..links,
        prop::sample::select(&["a->b", "b->a", "both"][..]),
        prop::option::of(0.01..=1.0f64),
        prop::option::of(0u64..=1_000_000_000),
        prop::option::of(0.0..=0.2f64),
        prop::option::of(any::<bool>()),
    )
        .prop_map(|(at_frac, link, direction, bandwidth_frac, delay_ns, loss, up)| {
            // A link event must change something.
            let up = if bandwidth_frac.is_none() && delay_ns.is_none() && loss.is_none() {
                up.or(Some(false))
            } else {
                up
            };
            EventGen { at_frac, link, direction, bandwidth_frac, delay_ns, loss, up }
        })
}

fn reroute() -> impl Strategy<Value = RerouteGen> {
    (
        0.0..1.0f64,
        0usize..10,
        0usize..2,
        prop_oneof![Just((true, false)), Just((false, true)), Just((true, true))],
    )
        .prop_map(|(at_frac, flow, route, (data, acks))| RerouteGen { at_frac, flow, route, data, acks })
}

fn topology() -> impl Strategy<Value = Topology> {
    prop_oneof![
        (2usize..=6).prop_map(Topology::Chain),
        (1usize..=5).prop_map(Topology::Dumbbell),
        (1usize..=4).prop_map(Topology::Diamond),
    ]
}

pub fn scenario() -> impl Strategy<Value = ScenarioGen> {
    topology()
        .prop_flat_map(|topology| {
            let (n_links, n_pairs) = (topology.links().len(), topology.pairs().len());
            (
                Just(topology),
                vec(link(), n_links),
                vec(flow(n_pairs), 1..=10),
                vec(traffic(n_pairs), 0..=2),
                vec(event(n_links), 0..=3),
                vec(reroute(), 0..=3),
                64u32..=1500,
                (-3.0..=1.0f64).prop_map(|e| 10f64.powf(e)),
                (any::<u32>(), prop::option::weighted(0.2, 1u64..=50_000)),
            )
        })
        .prop_map(
            |(
                topology,
                links,
                flows,
                traffic,
                events,
                reroutes,
                packet_size,
                duration_s,
                (seed, max_events),
            )| {
                ScenarioGen {
                    topology,
                    links,
                    flows,
                    traffic,
                    events,
                    reroutes,
                    packet_size,
                    duration_s,
                    seed,
                    max_events,
                }
            },
        )
}

impl ScenarioGen {
    /// The fastest of a pair's routes: the slowest rate along it, either direction (bits per second).
    fn path_rate(&self, pair: usize) -> f64 {
        let rate = |r: &Route| {
            r.links
                .iter()
                .map(|&l| {
                    let k = &self.links[l];
                    k.bandwidth_bps.max(k.reverse_bandwidth_bps.unwrap_or(0.0))
                })
                .fold(f64::INFINITY, f64::min)
        };
        self.topology.pairs()[pair].routes.iter().map(rate).fold(0.0, f64::max)
    }

    /// The shortest round trip of a pair's routes without queueing: propagation both ways plus serialising
    /// one data packet forwards and one ACK back on every link (seconds).
    fn path_rtt(&self, pair: usize) -> f64 {
        let rtt = |r: &Route| -> f64 {
            r.links
                .iter()
                .map(|&l| {
                    let k = &self.links[l];
                    let slow = k.bandwidth_bps.min(k.reverse_bandwidth_bps.unwrap_or(f64::INFINITY));
                    2.0 * k.delay_ns as f64 / 1e9 + (self.packet_size as f64 + 40.0) * 8.0 / slow
                })
                .sum()
        };
        self.topology.pairs()[pair].routes.iter().map(rtt).fold(f64::INFINITY, f64::min)
    }

    /// The run's duration: the drawn one, cut so that the run carries about `PACKET_BUDGET` packets.
    /// A flow sends at most min(its path's rate x T, what slow start (doubling per RTT from 10 packets)
    /// sends in T), so a flow's share of the budget allows T up to the larger of the two limits; sources
    /// send at their rates. Whole nanoseconds, at least one microsecond.
    pub fn duration_ns(&self) -> u64 {
        let share = PACKET_BUDGET / (self.flows.len() + self.traffic.len()) as f64;
        let pkt_bits = self.packet_size as f64 * 8.0;
        let flows = self.flows.iter().map(|f| {
            let by_rate = share * pkt_bits / self.path_rate(f.pair);
            let by_slow_start = self.path_rtt(f.pair) * (share / 10.0).log2();
            by_rate.max(by_slow_start)
        });
        let sources = self
            .traffic
            .iter()
            .map(|t| share * t.packet_size as f64 * 8.0 / (t.rate_frac * self.path_rate(t.pair)));
        let cap = flows.chain(sources).fold(f64::INFINITY, f64::min);
        (self.duration_s.min(cap) * 1e9).round().max(1000.0) as u64
    }

    pub fn to_toml(&self) -> String {
        let d = self.duration_ns();
        let mut s = format!(
            "name = \"fuzz\"\nduration = \"{d}ns\"\nseed = {}\npacket_size = {}\n",
            self.seed, self.packet_size
        );
        for (i, ((a, b), l)) in self.topology.links().iter().zip(&self.links).enumerate() {
            s += &format!(
                "[[links]]\nid = \"l{i}\"\na = \"{a}\"\nb = \"{b}\"\nbandwidth = {:?}\ndelay = \"{}ns\"\nbuffer = {}\nloss = {:?}\n",
                l.bandwidth_bps, l.delay_ns, l.buffer, l.loss
            );
            if let Some(r) = l.reverse_bandwidth_bps {
                s += &format!("reverse_bandwidth = {r:?}\n");
            }
        }
        let pairs = self.topology.pairs();
        let at = |frac: f64| (frac * d as f64).floor() as u64;
        for (i, f) in self.flows.iter().enumerate() {
            let (src, dst) = (&pairs[f.pair].src, &pairs[f.pair].dst);
            let start = at(f.start_frac);
            s += &format!(
                "[[flows]]\nid = \"f{i}\"\nalgorithm = \"{}\"\nsrc = \"{src}\"\ndst = \"{dst}\"\nstart = \"{start}ns\"\nstreams = {}\n",
                f.algorithm, f.streams
            );
            if let Some(frac) = f.stop_frac {
                let stop = start + 1 + ((d - start) as f64 * frac) as u64;
                s += &format!("stop = \"{stop}ns\"\n");
            }
            if let Some(b) = f.bytes {
                s += &format!("bytes = {b}\n");
            }
            s += &format!(
                "transport = {{ delayed_ack = {}, initial_window = {} }}\n",
                f.delayed_ack, f.initial_window
            );
            let params: Vec<String> = f.params.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            s += &format!("params = {{ {} }}\n", params.join(", "));
        }
        for (i, t) in self.traffic.iter().enumerate() {
            let (src, dst) = (&pairs[t.pair].src, &pairs[t.pair].dst);
            let rate = (t.rate_frac * self.path_rate(t.pair)).max(1.0).round();
            s += &format!(
                "[[traffic]]\nid = \"t{i}\"\nkind = \"{}\"\nsrc = \"{src}\"\ndst = \"{dst}\"\nrate = {rate:?}\npacket_size = {}\nstart = \"{}ns\"\n",
                if t.onoff { "onoff" } else { "cbr" },
                t.packet_size,
                at(t.start_frac)
            );
            if let Some(frac) = t.stop_frac {
                let start = at(t.start_frac);
                s += &format!("stop = \"{}ns\"\n", start + 1 + ((d - start) as f64 * frac) as u64);
            }
            if t.onoff {
                s += &format!("mean_on = \"{}ns\"\nmean_off = \"{}ns\"\n", d / 4 + 1, d / 4 + 1);
            }
        }
        for e in &self.events {
            s += &format!(
                "[[events]]\nat = \"{}ns\"\nkind = \"link\"\nlink = \"l{}\"\ndirection = \"{}\"\n",
                at(e.at_frac),
                e.link,
                e.direction
            );
            if let Some(frac) = e.bandwidth_frac {
                let l = &self.links[e.link];
                let slowest = l.bandwidth_bps.min(l.reverse_bandwidth_bps.unwrap_or(f64::INFINITY));
                s += &format!("bandwidth = {:?}\n", (frac * slowest).floor().max(1.0));
            }
            if let Some(dl) = e.delay_ns {
                s += &format!("delay = \"{dl}ns\"\n");
            }
            if let Some(p) = e.loss {
                s += &format!("loss = {p:?}\n");
            }
            if let Some(up) = e.up {
                s += &format!("up = {up}\n");
            }
        }
        for r in &self.reroutes {
            let fi = r.flow % self.flows.len();
            let routes = &pairs[self.flows[fi].pair].routes;
            if routes.len() < 2 {
                continue;
            }
            let nodes = &routes[r.route % routes.len()].nodes;
            let list = |n: Vec<&String>| n.iter().map(|x| format!("\"{x}\"")).collect::<Vec<_>>().join(", ");
            s += &format!("[[events]]\nat = \"{}ns\"\nkind = \"reroute\"\nflow = \"f{fi}\"\n", at(r.at_frac));
            if r.data {
                s += &format!("path = [{}]\n", list(nodes.iter().collect()));
            }
            if r.acks {
                s += &format!("reverse_path = [{}]\n", list(nodes.iter().rev().collect()));
            }
        }
        if let Some(n) = self.max_events {
            s += &format!("[limits]\nmax_events = {n}\n");
        }
        s
    }
}
