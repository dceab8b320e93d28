//! The network: packets, link directions (transmitter + DropTail FIFO + propagation pipe + loss model)
//! and source routes.

pub mod link;
pub mod packet;
mod ring;
pub mod route;

pub use link::{Enqueued, LinkDir};
pub use packet::{Packet, PacketKind};
pub use route::Routes;
