//! Every recorded series' values, by series index (`Recorder::series`): the flows' series from their log of
//! changes (`flow_log.rs`), the links' and sources' from tiles (`tiles.rs`), all read the same way.

use super::flow_log::FlowLog;
use super::tiles::Tiles;

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

    /// Series that are the flows' (the first ones; the links' and sources' follow).
    pub fn flow_series(&self) -> usize {
        self.flow_series.len()
    }

    /// Samples held per series.
    pub fn samples(&self) -> usize {
        self.dense.samples()
    }

    /// The values of series `i`, in sample order, written into `out`, which holds `samples()` values.
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
        let mut out = vec![0.0; self.samples()];
        self.write_series(i, &mut out);
        out
    }

    /// The values of series `i`, in sample order.
    pub fn series(&self, i: usize) -> std::vec::IntoIter<f64> {
        self.to_vec(i).into_iter()
    }
}
