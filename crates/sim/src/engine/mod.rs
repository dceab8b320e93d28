//! The discrete-event core: one clock and one event queue. Nothing else is global.

mod heap;
pub mod queue;

pub use queue::{Event, EventQueue, Next};
