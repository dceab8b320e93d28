//! A congestion-controlled flow: its sender, its receiver, the receiving application, and the routes its
//! data and ACKs take.

use super::delivery::AppDelivery;
use super::sack::SackLog;
use super::{Receiver, Sender};
use crate::model::FlowSpec;
use crate::net::RouteRef;
use crate::time::Time;

pub struct Flow {
    pub sender: Sender,
    pub receiver: Receiver,
    /// Per-stream in-order delivery to the receiving application.
    pub app: AppDelivery,
    pub fwd_route: RouteRef,
    pub rev_route: RouteRef,
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
    /// What the receiver had got when the flow's active time ended, once it has (see `ActiveWindow`).
    pub window: Option<ActiveWindow>,
    /// SACK blocks of ACKs on their way (flows with SACK only).
    pub sack_log: Option<Box<SackLog>>,
    /// The flow's sender side is traced (`measure/pcap`): what it sends and receives is written out.
    pub traced: bool,
    /// ACKs reaching the sender take the path with extras: they have SACK blocks to read, go to a trace
    /// or may carry ECN-Echo. One flag, so that the common path tests one thing.
    pub ack_extras: bool,
    /// The flow negotiated ECN: its data packets take their ECN bits from the sender.
    pub ecn: bool,
}

/// The receiver's counters at the end of the flow's active time: at `stop`, or at the arrival that
/// completed a finite transfer. Throughput and goodput divide these, not the run's totals, by the active
/// time: packets sent before `stop` (or RTO copies of an already complete transfer) keep arriving after
/// it, and counting them over the active time alone reported more than the path can carry.
#[derive(Clone, Debug)]
pub struct ActiveWindow {
    pub data_bits: u64,
    /// Messages delivered to the application, per stream.
    pub delivered_pkts: Vec<u64>,
}

impl Flow {
    pub fn new(
        spec: &FlowSpec,
        sender: Sender,
        fwd_route: RouteRef,
        rev_route: RouteRef,
        packet_size: u32,
        header: u32,
    ) -> Flow {
        let payload = packet_size - header;
        let mut receiver = Receiver::new(spec.transport.delayed_ack, spec.transport.delayed_ack_timeout);
        let sack_log = sender.sack().then(|| {
            receiver.enable_sack();
            Box::new(SackLog::default())
        });
        Flow {
            ack_extras: sack_log.is_some() || spec.transport.ecn,
            ecn: spec.transport.ecn,
            traced: false,
            sack_log,
            sender,
            receiver,
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
            window: None,
        }
    }

    /// Traces the flow's sender side from now on.
    pub fn set_traced(&mut self) {
        self.traced = true;
        self.ack_extras = true;
    }

    /// Ends the active time now: at `stop` (unless the transfer already completed) or at completion
    /// (which overrides an earlier `stop`, as the active time itself does). Called once or twice per flow.
    pub fn close_window(&mut self, at_stop: bool) {
        if at_stop && self.received_all_at.is_some() {
            return;
        }
        let delivered_pkts = self.app.stats().map(|s| s.delivered_pkts).collect();
        self.window = Some(ActiveWindow { data_bits: self.receiver.data_bits, delivered_pkts });
    }

    /// Data bits received within the active time (so far, if it has not ended).
    pub fn window_bits(&self) -> u64 {
        self.window.as_ref().map_or(self.receiver.data_bits, |w| w.data_bits)
    }

    /// Messages delivered to the application within the active time, per stream.
    pub fn window_delivered(&self) -> Vec<u64> {
        match &self.window {
            Some(w) => w.delivered_pkts.clone(),
            None => self.app.stats().map(|s| s.delivered_pkts).collect(),
        }
    }

    /// Application bytes handed to the receiving application (in order within each stream).
    pub fn goodput_bytes(&self, bytes_limit: Option<u64>) -> u64 {
        let b = self.app.delivered_pkts() * self.payload as u64;
        bytes_limit.map_or(b, |l| b.min(l))
    }
}
