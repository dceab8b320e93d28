//! A congestion-controlled flow inside the simulation: its sender, its receiver, and the routes its data
//! and ACKs take.

use crate::scenario::FlowSpec;
use crate::time::Time;
use crate::transport::delivery::AppDelivery;
use crate::transport::{Receiver, Sender};

pub struct Flow {
    pub sender: Sender,
    pub receiver: Receiver,
    /// Per-stream in-order delivery to the receiving application.
    pub app: AppDelivery,
    pub fwd_route: u32,
    pub rev_route: u32,
    pub packet_size: u32,
    pub payload: u32,
    pub ack_size: u32,
    pub total_pkts: Option<u64>,
    pub start: Time,
    pub stop: Time,
    pub tick_pending: bool,
    /// When the receiver got the last packet of a finite transfer.
    pub received_all_at: Option<Time>,
    /// Receiver clock minus sender clock, nanoseconds (for ALT's timestamps).
    pub rcv_clock_offset: i64,
}

impl Flow {
    pub fn new(
        spec: &FlowSpec,
        sender: Sender,
        fwd_route: u32,
        rev_route: u32,
        packet_size: u32,
        header: u32,
    ) -> Flow {
        let payload = packet_size - header;
        Flow {
            sender,
            receiver: Receiver::new(spec.transport.delayed_ack, spec.transport.delayed_ack_timeout),
            app: AppDelivery::new(spec.streams),
            fwd_route,
            rev_route,
            packet_size,
            payload,
            ack_size: spec.ack_size,
            total_pkts: spec.bytes.map(|b| b.div_ceil(payload as u64)),
            start: spec.start,
            stop: spec.stop,
            tick_pending: false,
            received_all_at: None,
            rcv_clock_offset: spec.transport.receiver_clock_offset,
        }
    }

    /// Application bytes handed to the receiving application (in order within each stream).
    pub fn goodput_bytes(&self, bytes_limit: Option<u64>) -> u64 {
        let b = self.app.delivered_pkts() * self.payload as u64;
        bytes_limit.map_or(b, |l| b.min(l))
    }
}
