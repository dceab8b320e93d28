//! Packets are small plain structs, copied by value into the ring of the link direction they travel on
//! (see `link.rs`), so the per-packet path never allocates.

use crate::time::Time;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    Data,
    Ack,
    /// A packet of a non-responsive source (CBR, on/off).
    Datagram,
    /// A flow's opening SYN (header only) and the receiver's answer to it.
    Syn,
    SynAck,
}

#[derive(Clone, Copy, Debug)]
pub struct Packet {
    pub kind: PacketKind,
    /// Flow index (Data/Ack) or source index (Datagram).
    pub owner: u32,
    /// Source route: index into `Routes`, and the hop the packet is on.
    pub route: u32,
    pub hop: u16,
    /// Retransmission (Data), or echo of the triggering data packet's flag (Ack).
    pub retransmit: bool,
    pub size: u32,
    /// Data: sequence number (packet count from 0). Ack: cumulative ACK (next expected sequence number).
    pub seq: u64,
    /// Data: the sender's send time. Ack: echo of the triggering data packet's send time.
    pub tx_time: Time,
    /// Data: when this sequence number was first transmitted (for the application's delivery delay).
    /// Ack of a flow with SACK: the serial number of its blocks in the flow's `SackLog`.
    pub first_sent: Time,
    /// Data: packets in flight when it was sent (itself included). Ack: the echo of that.
    pub inflight_at_send: u32,
    /// Ack: receiver's clock when the triggering data packet arrived (ALT's AT) and when the ACK left (LT).
    pub rcv_arrival: Time,
    pub rcv_leave: Time,
}

impl Packet {
    pub const EMPTY: Packet = Packet {
        kind: PacketKind::Data,
        owner: 0,
        route: 0,
        hop: 0,
        retransmit: false,
        size: 0,
        seq: 0,
        tx_time: 0,
        first_sent: 0,
        inflight_at_send: 0,
        rcv_arrival: 0,
        rcv_leave: 0,
    };
}

impl Default for Packet {
    fn default() -> Self {
        Packet::EMPTY
    }
}
