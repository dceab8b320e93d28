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
    /// ECN bits (RFC 3168): `ECT` and `CE` on data, `ECE` and `CWR` as TCP flags. Fits in the struct's
    /// padding, so packets stay 64 bytes.
    pub ecn: u8,
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
        ecn: 0,
    };

    /// The packet's transport negotiated ECN (ECT(0) in the IP header): a queue may mark it instead of
    /// dropping it.
    #[inline]
    pub fn ecn_capable(&self) -> bool {
        self.ecn & ECT != 0
    }

    /// Sets Congestion Experienced.
    #[inline]
    pub fn mark_ce(&mut self) {
        self.ecn |= CE;
    }

    /// Which flow a queue sees this packet as: a flow's data and its ACKs are two flows (two 5-tuples),
    /// and a source's datagrams a third kind, so a flow and a source with the same index never share one.
    #[inline]
    pub fn flow_key(&self) -> u64 {
        let class = match self.kind {
            PacketKind::Data | PacketKind::Syn => 0,
            PacketKind::Ack | PacketKind::SynAck => 1,
            PacketKind::Datagram => 2,
        };
        (self.owner as u64) << 2 | class
    }
}

/// ECN-capable transport (ECT(0) codepoint).
pub const ECT: u8 = 1;
/// Congestion Experienced, set by a queue instead of a drop.
pub const CE: u8 = 2;
/// ECN-Echo: the receiver saw CE and tells the sender (until it sees CWR).
pub const ECE: u8 = 4;
/// Congestion Window Reduced: the sender answered an ECE.
pub const CWR: u8 = 8;

impl Default for Packet {
    fn default() -> Self {
        Packet::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_stay_one_cache_line() {
        assert_eq!(std::mem::size_of::<Packet>(), 64);
    }
}
