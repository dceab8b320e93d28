//! Measurement: periodic samples into columnar buffers, and the end-of-run summary.

pub mod recorder;
pub mod resolution;
pub mod summary;

pub use recorder::{Recorder, Series};
pub use summary::summary_json;
