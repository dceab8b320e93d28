//! Where the simulation meets its packet traces (`measure/pcap`): setting them up, the out-of-line paths
//! the event handlers take for traced flows and links (`events.rs` tests a bit of each link arrival's
//! index and a flag of the flow each time a sender may send, and comes here only when they are set), and
//! writing them out at the end of a run, stopped early or not.
//!
//! A link direction's record is written when the packet's transmission starts (its time stamp), but only
//! once that start is certain: when the packet leaves the direction's ring at its arrival, when the link
//! goes down with it on the wire, or when the run ends after it started. Until then a rate or delay change
//! may still move it.

use super::network::{data_packet, TRACED_LINK};
use super::Simulation;
use crate::engine::Event;
use crate::measure::pcap::{PcapOptions, Traces};
use crate::model::Scenario;
use crate::net::{Packet, PacketKind};
use crate::time::Time;
use crate::transport::sack::SackBlocks;
use crate::transport::Flow;

impl Simulation {
    /// A simulation that writes the packet traces its scenario asks for (and, with `all_flows`, one per
    /// flow) into `opts.dir`. Fails, before anything runs, when a trace file cannot be created.
    pub fn with_pcap(scenario: Scenario, opts: &PcapOptions) -> Result<Simulation, String> {
        let mut sim = Simulation::new(scenario);
        let traces = Traces::new(&sim.scenario, &sim.flows, opts)?;
        if traces.is_empty() {
            return Ok(sim);
        }
        for (f, fl) in sim.flows.iter_mut().enumerate() {
            if traces.traces_flow(f) {
                fl.set_traced();
            }
        }
        for (d, l) in sim.net.links.iter_mut().enumerate() {
            if traces.traces_link(d) {
                l.event_tag = TRACED_LINK;
            }
        }
        sim.traces = Some(Box::new(traces));
        Ok(sim)
    }

    /// The SACK blocks an ACK of a flow with SACK carries, while its flow still keeps them.
    fn sack_of(&self, p: &Packet) -> SackBlocks {
        if p.kind != PacketKind::Ack {
            return SackBlocks::default();
        }
        let log = self.flows[p.owner as usize].sack_log.as_ref();
        log.and_then(|l| l.peek(p.first_sent)).unwrap_or_default()
    }

    /// A traced flow's sender sends `p` (data or its SYN).
    #[cold]
    #[inline(never)]
    pub(super) fn trace_sent(&mut self, f: u32, p: &Packet) {
        if let Some(t) = &mut self.traces {
            t.flow_sent(f, self.net.now, p);
        }
    }

    /// The answer to a traced flow's SYN reaches its sender.
    #[cold]
    #[inline(never)]
    pub(super) fn trace_syn_ack(&mut self, p: &Packet) {
        trace_received(&mut self.traces, p.owner, self.net.now, p, &[]);
    }

    /// `on_link_arrival` for a traced direction: each packet is written with its start of transmission as
    /// it leaves the ring, lost or not, then goes on as in the untraced handler.
    #[cold]
    #[inline(never)]
    pub(super) fn on_link_arrival_traced(&mut self, d: u32) {
        let now = self.net.now;
        while let Some((mut p, lost, start)) = self.net.links[d as usize].pop_arrived_departure(now) {
            let sack = self.sack_of(&p);
            if let Some(t) = &mut self.traces {
                t.link_departure(d, start, &p, sack.as_slice());
            }
            if lost {
                self.net.drop_packet();
                continue;
            }
            self.forward(&mut p);
        }
        let link = &mut self.net.links[d as usize];
        match link.next_arrival() {
            Some(t) => self.net.queue.schedule(t, Event::LinkArrival(d | TRACED_LINK)),
            None => link.event_pending = false,
        }
    }

    /// Writes the packets of link direction `d` whose transmission started by now, before the link goes
    /// down (they are lost on the wire) or the run ends.
    #[cold]
    pub(super) fn trace_on_wire(&mut self, d: u32) {
        let now = self.net.now;
        let Some(mut t) = self.traces.take() else { return };
        for (p, start) in self.net.links[d as usize].departed_by(now) {
            let sack = self.sack_of(p);
            t.link_departure(d, start, p, sack.as_slice());
        }
        self.traces = Some(t);
    }

    /// Ends the traces after a run (complete or stopped early): the packets still on traced links that
    /// started by now are written, and every file is renamed into place. Nothing to do without traces.
    pub fn finish_traces(&mut self) -> Result<(), String> {
        if self.traces.is_none() {
            return Ok(());
        }
        for d in 0..self.net.links.len() {
            if self.net.links[d].event_tag != 0 {
                self.trace_on_wire(d as u32);
            }
        }
        match &mut self.traces {
            Some(t) => t.finish(),
            None => Ok(()),
        }
    }
}

/// Writes the data packets traced flow `f`'s sender queued (`transmit_queued` sends them right after, at
/// the same instant, and sending never delivers anything to the sender in between).
#[cold]
#[inline(never)]
pub(super) fn trace_queued(traces: &mut Option<Box<Traces>>, fl: &Flow, f: u32, now: Time) {
    let Some(t) = traces else { return };
    for tx in &fl.sender.txq {
        t.flow_sent(f, now, &data_packet(fl, f, tx, now));
    }
}

/// `p` (an ACK with `sack`, or the SYN's answer) reaches traced flow `f`'s sender.
#[cold]
#[inline(never)]
pub(super) fn trace_received(
    traces: &mut Option<Box<Traces>>,
    f: u32,
    now: Time,
    p: &Packet,
    sack: &[(u64, u64)],
) {
    if let Some(t) = traces {
        t.flow_received(f, now, p, sack);
    }
}
