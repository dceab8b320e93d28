//! Measurement: periodic samples into columnar buffers, and the end-of-run summary.

pub mod huge_pages;
pub mod recorder;
pub mod resolution;
pub mod stream_store;
pub mod summary;
pub mod tiles;

pub use recorder::{Recorder, Series};
pub use summary::summary_json;
pub use tiles::Tiles;
