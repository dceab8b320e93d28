//! Every recorded series' values, by series index (`Recorder::series`): the flows' series from their log of
//! changes (`flow_log.rs`), the links' and sources' from tiles (`tiles.rs`), all read the same way.

use super::flow_log::{FlowLog, FlowSeries};
use super::tiles::{TileSeries, Tiles};

pub struct SeriesStore {
    pub(super) flows: FlowLog,
    pub(super) dense: Tiles,
    /// (flow, metric) of each flow series; series from `flow_series.len()` on are the dense ones.
    flow_series: Vec<(u32, u32)>,
}

impl Default for SeriesStore {
    fn default() -> Self {
        SeriesStore::new(FlowLog::new(Vec::new(), 0, 0), Tiles::default())
    }
}

impl SeriesStore {
    pub fn new(flows: FlowLog, dense: Tiles) -> SeriesStore {
        let flow_series =
            (0..flows.flows()).flat_map(|f| (0..flows.width(f)).map(move |m| (f as u32, m as u32))).collect();
        SeriesStore { flows, dense, flow_series }
    }

    /// Samples held per series.
    pub fn samples(&self) -> usize {
        self.dense.samples()
    }

    /// The values of series `i`, in sample order.
    pub fn series(&self, i: usize) -> SeriesValues<'_> {
        match self.flow_series.get(i) {
            Some(&(f, m)) => SeriesValues::Flow(self.flows.series(f as usize, m as usize, self.samples())),
            None => SeriesValues::Dense(self.dense.series(i - self.flow_series.len())),
        }
    }

    /// The values of series `i` written into `out`, which holds `samples()` values: what `series` gives,
    /// faster for a reader that wants every value.
    pub fn write_series(&self, i: usize, out: &mut [f64]) {
        assert_eq!(out.len(), self.samples(), "one value per sample");
        match self.flow_series.get(i) {
            Some(&(f, m)) => self.flows.write_series(f as usize, m as usize, out),
            None => {
                for (o, v) in out.iter_mut().zip(self.dense.series(i - self.flow_series.len())) {
                    *o = v;
                }
            }
        }
    }

    /// The values of series `i`, collected.
    pub fn to_vec(&self, i: usize) -> Vec<f64> {
        self.series(i).collect()
    }
}

/// One series' values: an iterator over either kind of storage.
#[derive(Clone)]
pub enum SeriesValues<'a> {
    Flow(FlowSeries<'a>),
    Dense(TileSeries<'a>),
}

impl Iterator for SeriesValues<'_> {
    type Item = f64;

    #[inline]
    fn next(&mut self) -> Option<f64> {
        match self {
            SeriesValues::Flow(s) => s.next(),
            SeriesValues::Dense(s) => s.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            SeriesValues::Flow(s) => s.size_hint(),
            SeriesValues::Dense(s) => s.size_hint(),
        }
    }
}

impl ExactSizeIterator for SeriesValues<'_> {}
