//! The endpoints that put packets into the network: TCP-like flows (`Flow`: a sender and a receiver,
//! driving a congestion controller) and non-responsive datagram sources (`Source`: CBR and on/off).
//! Sequence numbers count packets from 0.
//!
//! The sender and receiver are plain state machines: they never touch the network. They return what
//! they want sent (`TxRequest`s, ACK decisions) and the simulation turns that into packets, which keeps
//! them testable on their own.

pub mod convergence;
pub mod delivery;
pub mod deque;
pub mod flow;
pub mod pacing;
pub mod rate_sample;
pub mod receiver;
pub mod rto;
pub mod sack;
pub mod sender;
pub mod source;
pub mod stats;

pub use flow::{ActiveWindow, Flow};
pub use receiver::{AckDecision, Receiver};
pub use sender::{AckInput, Sender, TxRequest};
pub use source::Source;
pub use stats::SenderStats;
