//! A scripted path for unit tests: one FIFO bottleneck with an infinite buffer, a service time per packet
//! and a propagation RTT that a test may change at any moment. It drives a controller directly, ACK by
//! ACK, without the network simulator, so tests can watch every decision. ACKs carry receiver timestamps
//! (half the propagation each way, the queue on the forward trip) on a receiver clock `clock_offset` ahead.

use super::{AckEvent, CongestionControl};
use crate::time::Time;
use std::collections::VecDeque;

pub struct ScriptedPath<C: CongestionControl> {
    pub cc: C,
    pub now: Time,
    pub una: u64,
    pub nxt: u64,
    /// Propagation round trip.
    pub base_rtt: Time,
    /// Bottleneck service time per packet (1/μ).
    pub service: Time,
    /// Receiver clock minus sender clock, nanoseconds (one-way-delay algorithms must not depend on it).
    pub clock_offset: i64,
    last_departure: Time,
    /// (ACK arrival time, send time, window in flight at send, arrival at the receiver)
    acks: VecDeque<(Time, Time, u32, Time)>,
}

impl<C: CongestionControl> ScriptedPath<C> {
    pub fn new(cc: C, base_rtt: Time, service: Time) -> Self {
        let mut p = ScriptedPath {
            cc,
            now: 0,
            una: 0,
            nxt: 0,
            base_rtt,
            service,
            clock_offset: 0,
            last_departure: 0,
            acks: VecDeque::new(),
        };
        p.send();
        p
    }

    fn send(&mut self) {
        let w = self.cc.window().floor().max(1.0) as u64;
        while self.nxt - self.una < w {
            let inflight = self.nxt - self.una + 1;
            self.cc.on_send(self.now, self.nxt, false, inflight);
            // FIFO bottleneck then propagation; ACKs come back in order.
            let departure = self.last_departure.max(self.now) + self.service;
            self.last_departure = departure;
            let arrival = (departure + self.base_rtt).max(self.acks.back().map_or(0, |a| a.0));
            let at_receiver = departure + self.base_rtt / 2;
            self.acks.push_back((arrival, self.now, inflight as u32, at_receiver));
            self.nxt += 1;
        }
    }

    /// Delivers the next ACK. Returns false if nothing is in flight.
    pub fn step(&mut self) -> bool {
        let Some((arrival, sent, inflight_at_send, at_receiver)) = self.acks.pop_front() else {
            return false;
        };
        let rcv = at_receiver.wrapping_add(self.clock_offset as u64);
        self.now = arrival;
        self.una += 1;
        let ev = AckEvent {
            now: arrival,
            rtt: Some(arrival - sent),
            acked: 1,
            inflight_at_send,
            inflight: self.nxt - self.una,
            in_recovery: false,
            snd_una: self.una,
            rcv_arrival: rcv,
            rcv_leave: rcv,
            base_rtt: None,
            rate: None,
        };
        self.cc.on_ack(&ev);
        self.send();
        true
    }

    /// Packets waiting or in service at the bottleneck now (its backlog in service times).
    pub fn queue_pkts(&self) -> f64 {
        self.last_departure.saturating_sub(self.now) as f64 / self.service as f64
    }

    pub fn run_until(&mut self, t: Time) {
        while self.acks.front().is_some_and(|a| a.0 <= t) {
            self.step();
        }
    }
}

/// An ACK of `acked` packets at `now` with an RTT sample and nothing else, for tests that script the
/// samples themselves.
pub fn ack_event(now: Time, rtt: Time, acked: u64) -> AckEvent<'static> {
    AckEvent {
        now,
        rtt: Some(rtt),
        acked,
        inflight_at_send: 1,
        inflight: 1,
        in_recovery: false,
        snd_una: 0,
        rcv_arrival: 0,
        rcv_leave: 0,
        base_rtt: None,
        rate: None,
    }
}
