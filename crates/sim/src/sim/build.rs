//! Building a simulation from a validated scenario: two link directions per link, the routes, a flow
//! (sender with its controller, receiver) per `[[flows]]` entry, a source per `[[traffic]]` entry, and the
//! first events (starts, stops, scenario events, the first sample).

use super::network::Network;
use super::{dir_index, Guard, PacketCounts, Simulation};
use crate::cc::FlowContext;
use crate::engine::{Event, EventQueue};
use crate::measure::Recorder;
use crate::model::DirSpec;
use crate::model::{EventKind, NodeId, Scenario};
use crate::net::capacity::Server;
use crate::net::queue::{queue_discipline, QueueContext};
use crate::net::{LinkDir, Managed, Routes};
use crate::rng::Rng;
use crate::scenario::routes::Graph;
use crate::transport::{Flow, Sender, Source};

/// The link directions (`dir_index`) a path of nodes crosses.
fn route_dirs(graph: &Graph, path: &[NodeId]) -> Vec<u32> {
    path.windows(2)
        .map(|w| {
            let (l, d) = graph.hop(w[0], w[1]).expect("validated path");
            dir_index(l, d)
        })
        .collect()
}

/// The queue discipline and transmitter of a managed direction, each with its own random stream.
fn managed_parts(spec: &DirSpec, seed: u64, mtu: u32, label: &str) -> Managed {
    let info = queue_discipline(spec.queue.kind).expect("the scenario layer checked the discipline's name");
    let ctx = QueueContext {
        buffer: spec.buffer,
        bps: spec.bandwidth_bps,
        delay: spec.delay,
        mtu,
        rng: Rng::stream(seed, &format!("{label}:queue")),
    };
    let qdisc = (info.build)(&spec.queue.params, &ctx);
    let server = Server::new(&spec.capacity, Rng::stream(seed, &format!("{label}:capacity")));
    Managed::new(qdisc, server, info.name)
}

impl Simulation {
    pub fn new(scenario: Scenario) -> Simulation {
        let graph = Graph::new(scenario.nodes.len(), &scenario.links);
        let mut links = Vec::with_capacity(scenario.links.len() * 2);
        for l in &scenario.links {
            for (d, spec) in l.dir.iter().enumerate() {
                let label = format!("link:{}:{}", l.id, if d == 0 { "a->b" } else { "b->a" });
                let mut dir = LinkDir::new(
                    spec.bandwidth_bps,
                    spec.delay,
                    spec.buffer,
                    spec.loss,
                    Rng::stream(scenario.seed, &label),
                );
                dir.set_drop_list(spec.drop_packets.clone());
                if spec.is_managed() {
                    dir.manage(managed_parts(spec, scenario.seed, scenario.packet_size, &label));
                }
                links.push(dir);
            }
        }
        // Route ids are given in this order: each flow's forward and reverse paths, each source's path,
        // then the paths of reroute events.
        let mut routes = Routes::default();
        let mut flows = Vec::with_capacity(scenario.flows.len());
        for f in &scenario.flows {
            let fwd = routes.add(&route_dirs(&graph, &f.path));
            let rev = routes.add(&route_dirs(&graph, &f.reverse_path));
            let ctx = FlowContext {
                mss_bytes: scenario.packet_size - scenario.header_size,
                packet_bytes: scenario.packet_size,
                initial_window: f.transport.initial_window,
                rng_seed: Rng::stream(scenario.seed, &format!("cc:{}", f.id)).next_u64(),
                hops: (f.path.len().saturating_sub(1)) as u32,
            };
            let cc = crate::cc::build_controller(f.algorithm, &f.params, &ctx);
            let limit = f.bytes.map(|b| b.div_ceil((scenario.packet_size - scenario.header_size) as u64));
            let mut sender = Sender::new(cc, &f.transport, limit);
            if f.transport.pacing && sender.cc.paces() {
                sender.enable_pacing(scenario.packet_size);
            }
            flows.push(Flow::new(f, sender, fwd, rev, scenario.packet_size, scenario.header_size));
        }
        let mut sources = Vec::new();
        for t in &scenario.traffic {
            let r = routes.add(&route_dirs(&graph, &t.path)).id;
            sources.push(Source::new(
                t,
                r,
                Rng::stream(scenario.seed, &format!("traffic:{}", t.id)),
                scenario.duration,
            ));
        }
        let mut event_routes = Vec::new();
        for e in &scenario.events {
            event_routes.push(match &e.kind {
                EventKind::Reroute { path, reverse_path, .. } => (
                    path.as_ref().map(|p| routes.add(&route_dirs(&graph, p))),
                    reverse_path.as_ref().map(|p| routes.add(&route_dirs(&graph, p))),
                ),
                _ => (None, None),
            });
        }
        let last_hops = routes.last_hops(links.len());
        for (link, last) in links.iter_mut().zip(last_hops) {
            link.last_hop = last;
        }
        let recorder = Recorder::new(&scenario, &routes, &flows);
        let guard = Guard::new(&scenario, flows.len(), links.len());
        let mut sim = Simulation {
            end: scenario.duration,
            scenario,
            net: Network { now: 0, queue: EventQueue::new(), links, routes, counts: PacketCounts::default() },
            flows,
            sources,
            recorder,
            event_routes,
            events_processed: 0,
            next_sample: 1,
            guard,
            traces: None,
        };
        sim.schedule_first_events();
        sim
    }

    /// Each flow's start (and stop, if before the end), each source's start, each scenario event, and the
    /// first sample.
    fn schedule_first_events(&mut self) {
        for (i, f) in self.scenario.flows.iter().enumerate() {
            self.net.queue.schedule(f.start, Event::FlowStart(i as u32));
            if f.stop < self.end {
                self.net.queue.schedule(f.stop, Event::FlowStop(i as u32));
            }
        }
        for (i, s) in self.sources.iter().enumerate() {
            self.net.queue.schedule(s.start, Event::Source(i as u32));
        }
        for (i, e) in self.scenario.events.iter().enumerate() {
            self.net.queue.schedule(e.at, Event::Scenario(i as u32));
        }
        self.net.queue.schedule(self.scenario.sample_interval.min(self.end), Event::Sample);
    }
}
