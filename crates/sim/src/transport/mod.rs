//! TCP-like transport: a sender and a receiver per flow. Sequence numbers count packets from 0.
//!
//! The sender and receiver are plain state machines: they never touch the network. They return what
//! they want sent (`TxRequest`s, ACK decisions) and the simulation turns that into packets, which keeps
//! them testable on their own.

pub mod convergence;
pub mod delivery;
pub mod deque;
pub mod pacing;
pub mod rate_sample;
pub mod receiver;
pub mod rto;
pub mod sack;
pub mod sender;

pub use receiver::{AckDecision, Receiver};
pub use sender::{AckInput, Sender, TxRequest};
