//! The discrete-event core: one clock and one event queue. Nothing else is global.

pub mod queue;

pub use queue::{Event, EventQueue};
