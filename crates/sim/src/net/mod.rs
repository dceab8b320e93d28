//! The network: packets, link directions (transmitter + queue + propagation pipe + loss model), the
//! queue disciplines and varying capacities of managed directions, and source routes.

pub mod capacity;
pub mod link;
mod managed;
pub mod packet;
pub mod queue;
mod ring;
pub mod route;

pub use link::{Enqueued, LinkDir};
pub use managed::{Managed, Started};
pub use packet::{Packet, PacketKind};
pub use route::{RouteRef, Routes};
