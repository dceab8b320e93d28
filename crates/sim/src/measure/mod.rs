//! Measurement: periodic samples of flows, links and sources into bounded columnar buffers, and packet
//! traces (`pcap/`).

pub mod flow_log;
pub mod huge_pages;
pub mod pcap;
pub mod recorder;
pub mod resolution;
pub mod store;
pub mod stream_store;
pub mod tiles;

pub use recorder::{Recorder, Series};
pub use store::SeriesStore;
pub use tiles::Tiles;
