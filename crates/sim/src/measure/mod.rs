//! Measurement: periodic samples into columnar buffers, and the end-of-run summary.

pub mod flow_log;
pub mod huge_pages;
pub mod recorder;
pub mod resolution;
pub mod store;
pub mod stream_store;
pub mod summary;
pub mod tiles;

pub use recorder::{Recorder, Series};
pub use store::SeriesStore;
pub use summary::summary_json;
pub use tiles::Tiles;
