//! The flows' time series as a log of changes. At a sample, a flow that nothing happened to since the last
//! one (most of them with many flows: `recorder.rs`) has the same values as then, with a rate of zero;
//! only the others are written. Storing every value of every flow wrote 144 MB over a 20 s run of 1000
//! flows at 10 ms, and zeroing and writing that memory was a fifth of the run; the log holds half of it
//! (the flows that did change). A reader expands a flow's records back into one value per sample.
//!
//! The log is one block per sample: a bitmap of the flows written (one bit per flow, as `f64` bit
//! patterns so the log is one buffer), then their values in flow order, each flow's metrics in
//! `recorder.rs` order. At worst (every flow written at every sample) that is one bit per flow more than
//! the values themselves. The first read builds an index of each flow's records (one pass over the log);
//! a later write or halving drops it.

use super::huge_pages;
use std::cell::OnceCell;

/// Values of a flow whose algorithm has no metrics of its own (`recorder::FLOW_METRICS`).
const STANDARD: usize = super::recorder::FLOW_METRICS.len();

pub struct FlowLog {
    /// Values per record of each flow (its metrics: the standard ones and its algorithm's).
    widths: Vec<usize>,
    /// Words of a block's bitmap.
    bitmap: usize,
    log: Vec<f64>,
    /// Where the latest block starts, and the last flow written in it.
    block: usize,
    last_flow: Option<usize>,
    samples: usize,
    /// Where each flow's records start, built by the first read.
    index: OnceCell<Index>,
    /// Index of the rate among the values (`recorder::RATE`): it is zero, not the last value, at samples
    /// without a record, and merged by its mean when the resolution halves.
    rate: usize,
}

impl FlowLog {
    /// A log with room reserved for every flow at each of `capacity` samples, the most it can hold;
    /// memory is only used as records arrive.
    pub fn new(widths: Vec<usize>, capacity: usize, rate: usize) -> FlowLog {
        let bitmap = widths.len().div_ceil(64);
        let words = (bitmap + widths.iter().sum::<usize>()) * capacity;
        let log = Vec::with_capacity(words);
        huge_pages::advise(&log);
        FlowLog { widths, bitmap, log, block: 0, last_flow: None, samples: 0, index: OnceCell::new(), rate }
    }

    pub fn flows(&self) -> usize {
        self.widths.len()
    }

    pub fn width(&self, flow: usize) -> usize {
        self.widths[flow]
    }

    /// Samples held (blocks).
    pub fn samples(&self) -> usize {
        self.samples
    }

    /// Starts the next sample's block: no flow written yet.
    pub fn begin_sample(&mut self) {
        self.index = OnceCell::new();
        self.block = self.log.len();
        self.log.resize(self.block + self.bitmap, f64::from_bits(0));
        self.last_flow = None;
        self.samples += 1;
    }

    /// Records flow `flow`'s values at the current sample (flows in increasing order).
    pub fn push(&mut self, flow: usize, values: &[f64]) {
        debug_assert_eq!(values.len(), self.widths[flow]);
        assert!(
            self.samples > 0 && self.last_flow.is_none_or(|f| f < flow),
            "flows in order, after begin_sample"
        );
        self.last_flow = Some(flow);
        let word = &mut self.log[self.block + flow / 64];
        *word = f64::from_bits(word.to_bits() | 1 << (flow % 64));
        match <&[f64; STANDARD]>::try_from(values) {
            // The usual width as a fixed-size copy: a few moves instead of a call to memcpy.
            Ok(standard) => self.log.extend_from_slice(standard),
            Err(_) => self.log.extend_from_slice(values),
        }
    }

    /// The flows written in the block at `at`, in order, with where their values start; and where the
    /// block ends.
    fn records(&self, log: &[f64], at: usize) -> (Vec<(usize, usize)>, usize) {
        let mut out = Vec::new();
        let mut pos = at + self.bitmap;
        for w in 0..self.bitmap {
            let mut bits = log[at + w].to_bits();
            while bits != 0 {
                let flow = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out.push((flow, pos));
                pos += self.widths[flow];
            }
        }
        (out, pos)
    }

    /// Merges every two adjacent samples into one, as `resolution.rs` merges a full series: a point value
    /// keeps the later sample's (its record's, or the earlier record's carried over), the rate is the
    /// mean of the two (zero where a sample has no record). The number of samples must be even.
    pub fn halve(&mut self) {
        debug_assert!(self.samples.is_multiple_of(2));
        self.index = OnceCell::new();
        let mut pair = Vec::new();
        let (mut read, mut write) = (0, 0);
        for _ in 0..self.samples / 2 {
            // The two blocks are copied out first: the merged block may be longer than the earlier one.
            let (_, mid) = self.records(&self.log, read);
            let (_, end) = self.records(&self.log, mid);
            pair.clear();
            pair.extend_from_slice(&self.log[read..end]);
            let (earlier, later_at) = self.records(&pair, 0);
            let (later, _) = self.records(&pair, later_at);
            let (mut e, mut l) = (earlier.iter().peekable(), later.iter().peekable());
            self.log[write..write + self.bitmap].fill(f64::from_bits(0));
            let block = write;
            write += self.bitmap;
            loop {
                let flow = match (e.peek(), l.peek()) {
                    (None, None) => break,
                    (Some(a), Some(b)) => a.0.min(b.0),
                    (Some(a), None) => a.0,
                    (None, Some(b)) => b.0,
                };
                let from_earlier = e.next_if(|r| r.0 == flow).map(|r| r.1);
                let from_later = l.next_if(|r| r.0 == flow).map(|r| r.1);
                let rate_of = |at: Option<usize>| at.map_or(0.0, |at| pair[at + self.rate]);
                let rate = 0.5 * (rate_of(from_earlier) + rate_of(from_later));
                let src = from_later.or(from_earlier).expect("a record");
                let width = self.widths[flow];
                self.log[write..write + width].copy_from_slice(&pair[src..src + width]);
                self.log[write + self.rate] = rate;
                let word = &mut self.log[block + flow / 64];
                *word = f64::from_bits(word.to_bits() | 1 << (flow % 64));
                write += width;
            }
            read = end;
        }
        self.log.truncate(write);
        self.samples /= 2;
        // Until the next `begin_sample`, no flow may be written (a flow beyond every flow).
        self.block = self.log.len();
        self.last_flow = Some(usize::MAX);
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| {
            let mut per_flow: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.widths.len()];
            let mut at = 0;
            for sample in 0..self.samples {
                let (records, end) = self.records(&self.log, at);
                for (flow, start) in records {
                    per_flow[flow].push((sample, start));
                }
                at = end;
            }
            let mut first = Vec::with_capacity(per_flow.len() + 1);
            first.push(0);
            let mut records = Vec::new();
            for r in per_flow {
                records.extend(r);
                first.push(records.len());
            }
            Index { first, records }
        })
    }

    /// Metric `metric` of flow `flow` at each of `out.len()` samples, written into `out` a run of carried
    /// values at a time.
    pub fn write_series(&self, flow: usize, metric: usize, out: &mut [f64]) {
        let index = self.index();
        let zero_between = metric == self.rate;
        let (mut next, mut current) = (0, f64::NAN);
        for &(sample, at) in &index.records[index.first[flow]..index.first[flow + 1]] {
            out[next..sample].fill(if zero_between { 0.0 } else { current });
            current = self.log[at + metric];
            out[sample] = current;
            next = sample + 1;
        }
        out[next..].fill(if zero_between { 0.0 } else { current });
    }
}

/// Each flow's records, (sample, start of its values): `records[first[f]..first[f + 1]]`, in sample order.
struct Index {
    first: Vec<usize>,
    records: Vec<(usize, usize)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::resolution::{merge_rows, Merge};

    /// Two flows of two metrics (the rate first), the dense table they stand for (rows of
    /// [f0 rate, f0 x, f1 rate, f1 x]), and which flow-samples have records.
    fn example() -> (FlowLog, Vec<f64>, usize) {
        let touched = [
            [true, true],
            [false, true],
            [true, false],
            [false, false],
            [true, true],
            [false, true],
            [false, false],
            [true, false],
        ];
        let mut log = FlowLog::new(vec![2, 2], touched.len(), 0);
        let mut dense = Vec::new();
        let mut last = [[0.0, f64::NAN]; 2];
        for (s, row) in touched.iter().enumerate() {
            log.begin_sample();
            for (f, &t) in row.iter().enumerate() {
                if t {
                    last[f] = [(10 * s + f) as f64 + 0.5, (100 * s + f) as f64];
                    log.push(f, &last[f]);
                } else {
                    last[f][0] = 0.0;
                }
                dense.extend_from_slice(&last[f]);
            }
        }
        (log, dense, touched.len())
    }

    fn column(table: &[f64], k: usize) -> Vec<f64> {
        table.iter().skip(k).step_by(4).copied().collect()
    }

    fn series(log: &FlowLog, flow: usize, metric: usize, samples: usize) -> Vec<f64> {
        let mut out = vec![-1.0; samples];
        log.write_series(flow, metric, &mut out);
        out
    }

    fn expanded(log: &FlowLog, samples: usize) -> Vec<Vec<f64>> {
        (0..2).flat_map(|f| (0..2).map(move |m| series(log, f, m, samples))).collect()
    }

    #[test]
    fn expands_to_the_dense_table() {
        let (log, dense, n) = example();
        let got = expanded(&log, n);
        for (k, series) in got.iter().enumerate() {
            assert_eq!(*series, column(&dense, k), "column {k}");
        }
    }

    #[test]
    fn a_push_after_a_read_is_read_too() {
        let mut log = FlowLog::new(vec![2, 3], 4, 0);
        log.begin_sample();
        log.push(0, &[4.0, 5.0]);
        log.push(1, &[1.0, 2.0, 3.0]);
        assert_eq!(series(&log, 1, 2, 1), vec![3.0]);
        log.begin_sample();
        log.push(1, &[6.0, 7.0, 8.0]);
        assert_eq!(series(&log, 1, 2, 2), vec![3.0, 8.0]);
        assert_eq!(series(&log, 0, 1, 2), vec![5.0, 5.0]);
        assert_eq!(series(&log, 0, 0, 2), vec![4.0, 0.0]);
    }

    #[test]
    fn halving_merges_as_the_dense_table_does() {
        let (mut log, mut dense, n) = example();
        log.halve();
        let rules = [Merge::Mean, Merge::Last, Merge::Mean, Merge::Last];
        let len = merge_rows(&mut dense, &rules);
        dense.truncate(len);
        let got = expanded(&log, n / 2);
        for (k, series) in got.iter().enumerate() {
            let want = column(&dense, k);
            assert!(
                series.iter().zip(&want).all(|(a, b)| a.to_bits() == b.to_bits()),
                "{k}: {series:?} {want:?}"
            );
        }
        // Merged blocks halve again the same way.
        log.halve();
        let len = merge_rows(&mut dense[..len], &rules);
        let got = expanded(&log, n / 4);
        for (k, series) in got.iter().enumerate() {
            assert_eq!(*series, column(&dense[..len], k), "column {k}");
        }
    }
}
