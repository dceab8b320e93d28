//! The flows' time series as a log of changes. At a sample, a flow that nothing happened to since the last
//! one (most of them with many flows: `recorder.rs`) has the same values as then, with a rate of zero;
//! only the others are written. Storing every value of every flow wrote 144 MB over a 20 s run of 1000
//! flows at 10 ms, and zeroing and writing that memory was a fifth of the run; the log holds a third of
//! it. A flow whose receiver got data but whose sender did not change has only its rate written (a
//! rate-only record): its other values are still those of its last full record.
//!
//! The log is one block per sample: a bitmap of the flows written and a bitmap of which of them are
//! rate-only (one bit per flow each, as `f64` bit patterns so the log is one buffer), then the records
//! in flow order: a full record is the flow's metrics in `recorder.rs` order, a rate-only record its
//! rate. At worst (every flow fully written at every sample) that is two bits per flow more than the
//! values themselves. The first read builds an index of each flow's records (one pass over the log); a
//! later write or halving drops it.

use super::huge_pages;
use std::cell::OnceCell;

pub struct FlowLog {
    /// Values per full record of each flow (its metrics: the standard ones and its algorithm's).
    widths: Vec<usize>,
    /// Words of each of a block's two bitmaps.
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

/// A record in a block: its flow, where its values start, and whether it is full (else rate-only).
#[derive(Clone, Copy)]
struct Record {
    flow: usize,
    at: usize,
    full: bool,
}

impl FlowLog {
    /// A log with room reserved for every flow at each of `capacity` samples, the most it can hold;
    /// memory is only used as records arrive.
    pub fn new(widths: Vec<usize>, capacity: usize, rate: usize) -> FlowLog {
        let bitmap = widths.len().div_ceil(64);
        let words = (2 * bitmap + widths.iter().sum::<usize>()) * capacity;
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
        self.log.resize(self.block + 2 * self.bitmap, f64::from_bits(0));
        self.last_flow = None;
        self.samples += 1;
    }

    /// Marks `flow` written in the current block (flows in increasing order), rate-only or not.
    #[inline]
    fn mark(&mut self, flow: usize, full: bool) {
        assert!(
            self.samples > 0 && self.last_flow.is_none_or(|f| f < flow),
            "flows in order, after begin_sample"
        );
        self.last_flow = Some(flow);
        set_bit(&mut self.log[self.block..], flow);
        if !full {
            set_bit(&mut self.log[self.block + self.bitmap..], flow);
        }
    }

    /// Records all of flow `flow`'s values at the current sample.
    pub fn push(&mut self, flow: usize, values: &[f64]) {
        debug_assert_eq!(values.len(), self.widths[flow]);
        self.mark(flow, true);
        self.log.extend_from_slice(values);
    }

    /// Records only flow `flow`'s rate at the current sample: its other values are those of its last full
    /// record, which it must have.
    pub fn push_rate(&mut self, flow: usize, rate: f64) {
        self.mark(flow, false);
        self.log.push(rate);
    }

    /// Marks the flows of word `w` of the bitmaps (flows `64 w` to `64 w + 63`) written in the current
    /// block: those of `full` with a full record, those of `rate_only` with their rate alone. Their
    /// records follow (`append`), in flow order, before any later word's. With many flows, marking each
    /// flow with its own checks cost as much as writing its record.
    #[inline]
    pub fn mark_word(&mut self, w: usize, full: u64, rate_only: u64) {
        debug_assert_eq!(full & rate_only, 0, "a record is full or rate-only");
        assert!(
            self.samples > 0 && w < self.bitmap && self.last_flow.is_none_or(|f| f < w * 64),
            "words in order, after begin_sample"
        );
        self.last_flow = Some(w * 64 + 63);
        let block = &mut self.log[self.block..self.block + 2 * self.bitmap];
        block[w] = f64::from_bits(block[w].to_bits() | full | rate_only);
        block[self.bitmap + w] = f64::from_bits(block[self.bitmap + w].to_bits() | rate_only);
    }

    /// Appends values of the records marked by `mark_word`: a full record is its flow's values in metric
    /// order (in one call or several), a rate-only record its rate.
    #[inline]
    pub fn append(&mut self, values: &[f64]) {
        self.log.extend_from_slice(values);
    }

    /// The records of the block at `at`, in flow order; and where the block ends.
    fn records(&self, log: &[f64], at: usize) -> (Vec<Record>, usize) {
        let mut out = Vec::new();
        let mut pos = at + 2 * self.bitmap;
        for w in 0..self.bitmap {
            let mut bits = log[at + w].to_bits();
            let rate_only = log[at + self.bitmap + w].to_bits();
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let flow = w * 64 + b;
                let full = rate_only & 1 << b == 0;
                out.push(Record { flow, at: pos, full });
                pos += if full { self.widths[flow] } else { 1 };
            }
        }
        (out, pos)
    }

    /// The rate in a record.
    fn rate_of(&self, log: &[f64], r: &Record) -> f64 {
        log[r.at + if r.full { self.rate } else { 0 }]
    }

    /// Merges every two adjacent samples into one, as `resolution.rs` merges a full series: a point value
    /// keeps the later sample's (its full record's, or the value carried over to it), the rate is the
    /// mean of the two (zero where a sample has no record). The number of samples must be even.
    pub fn halve(&mut self) {
        debug_assert!(self.samples.is_multiple_of(2));
        self.index = OnceCell::new();
        let mut pair = Vec::new();
        let (mut read, mut write) = (0, 0);
        for _ in 0..self.samples / 2 {
            // The two blocks are copied out first (the merged block may be longer than the earlier one),
            // and their records' positions made positions in the copy.
            let (mut earlier, mid) = self.records(&self.log, read);
            let (mut later, end) = self.records(&self.log, mid);
            pair.clear();
            pair.extend_from_slice(&self.log[read..end]);
            for r in earlier.iter_mut().chain(&mut later) {
                r.at -= read;
            }
            let (mut e, mut l) = (earlier.iter().peekable(), later.iter().peekable());
            self.log[write..write + 2 * self.bitmap].fill(f64::from_bits(0));
            let block = write;
            write += 2 * self.bitmap;
            loop {
                let flow = match (e.peek(), l.peek()) {
                    (None, None) => break,
                    (Some(a), Some(b)) => a.flow.min(b.flow),
                    (Some(a), None) => a.flow,
                    (None, Some(b)) => b.flow,
                };
                let from_earlier = e.next_if(|r| r.flow == flow);
                let from_later = l.next_if(|r| r.flow == flow);
                let rate_in = |r: Option<&Record>| r.map_or(0.0, |r| self.rate_of(&pair, r));
                let rate = 0.5 * (rate_in(from_earlier) + rate_in(from_later));
                // The later sample's point values: its own if it has a full record, else those carried
                // to it, which are the earlier sample's if that has a full record (else carried from
                // before the pair, and the merged record is rate-only too).
                let full = [from_later, from_earlier].into_iter().flatten().find(|r| r.full);
                set_bit(&mut self.log[block..], flow);
                match full {
                    Some(src) => {
                        let width = self.widths[flow];
                        self.log[write..write + width].copy_from_slice(&pair[src.at..src.at + width]);
                        self.log[write + self.rate] = rate;
                        write += width;
                    }
                    None => {
                        set_bit(&mut self.log[block + self.bitmap..], flow);
                        self.log[write] = rate;
                        write += 1;
                    }
                }
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
            let mut per_flow: Vec<Vec<(usize, Record)>> = vec![Vec::new(); self.widths.len()];
            let mut at = 0;
            for sample in 0..self.samples {
                let (records, end) = self.records(&self.log, at);
                for r in records {
                    per_flow[r.flow].push((sample, r));
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
        let records = &index.records[index.first[flow]..index.first[flow + 1]];
        let mut next = 0;
        if metric == self.rate {
            // Zero between records.
            for (sample, r) in records {
                out[next..*sample].fill(0.0);
                out[*sample] = self.rate_of(&self.log, r);
                next = sample + 1;
            }
            out[next..].fill(0.0);
            return;
        }
        let mut current = f64::NAN;
        for (sample, r) in records {
            if r.full {
                out[next..*sample].fill(current);
                current = self.log[r.at + metric];
                out[*sample] = current;
                next = sample + 1;
            }
        }
        out[next..].fill(current);
    }
}

fn set_bit(bitmap: &mut [f64], i: usize) {
    let word = &mut bitmap[i / 64];
    *word = f64::from_bits(word.to_bits() | 1 << (i % 64));
}

/// Each flow's records with their sample: `records[first[f]..first[f + 1]]`, in sample order.
struct Index {
    first: Vec<usize>,
    records: Vec<(usize, Record)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::resolution::{merge_rows, Merge};

    /// What a sample records of a flow in the examples.
    #[derive(Clone, Copy, PartialEq)]
    enum Rec {
        None,
        Rate,
        Full,
    }
    use Rec::{Full, None as No, Rate};

    /// Two flows of two metrics (the rate first), the dense table they stand for (rows of
    /// [f0 rate, f0 x, f1 rate, f1 x]), and the number of samples. Every kind of record meets every
    /// other in a pair of samples, so halving merges each combination.
    fn example() -> (FlowLog, Vec<f64>, usize) {
        let recorded = [
            [Full, Full],
            [No, Rate],
            [Rate, No],
            [No, No],
            [Full, Rate],
            [Rate, Full],
            [No, No],
            [Rate, Rate],
            [Full, Rate],
            [Full, Rate],
            [Rate, Full],
            [Rate, No],
            [Full, Full],
            [No, Full],
            [Rate, Rate],
            [No, Full],
        ];
        let mut log = FlowLog::new(vec![2, 2], recorded.len(), 0);
        let mut dense = Vec::new();
        let mut last = [[0.0, f64::NAN]; 2];
        for (s, row) in recorded.iter().enumerate() {
            log.begin_sample();
            for (f, &r) in row.iter().enumerate() {
                let rate = (10 * s + f) as f64 + 0.5;
                match r {
                    Full => {
                        last[f] = [rate, (100 * s + f) as f64];
                        log.push(f, &last[f]);
                    }
                    Rate => {
                        last[f][0] = rate;
                        log.push_rate(f, rate);
                    }
                    No => last[f][0] = 0.0,
                }
                dense.extend_from_slice(&last[f]);
            }
        }
        (log, dense, recorded.len())
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
        log.begin_sample();
        log.push_rate(0, 9.0);
        assert_eq!(series(&log, 0, 0, 3), vec![4.0, 0.0, 9.0]);
        assert_eq!(series(&log, 0, 1, 3), vec![5.0, 5.0, 5.0]);
    }

    #[test]
    fn a_rate_only_record_is_one_value() {
        let mut log = FlowLog::new(vec![9, 9, 9], 2, 4);
        log.begin_sample();
        log.push(0, &[1.0; 9]);
        log.push(2, &[2.0; 9]);
        log.begin_sample();
        log.push_rate(0, 3.0);
        log.push_rate(1, 4.0);
        // Two blocks: two bitmaps each, nine values per full record, one per rate-only record.
        assert_eq!(log.log.len(), 2 * 2 + 2 * 9 + 2);
        assert_eq!(series(&log, 0, 4, 2), vec![1.0, 3.0]);
        assert_eq!(series(&log, 0, 3, 2), vec![1.0, 1.0]);
        assert_eq!(series(&log, 1, 4, 2), vec![0.0, 4.0]);
    }

    #[test]
    fn marking_a_word_writes_what_pushing_each_flow_does() {
        // Flows 1 and 3 of the first word and flow 64 of the second; flow 3 rate-only.
        let widths = vec![2; 70];
        let (mut by_flow, mut by_word) = (FlowLog::new(widths.clone(), 1, 0), FlowLog::new(widths, 1, 0));
        by_flow.begin_sample();
        by_flow.push(1, &[1.0, 2.0]);
        by_flow.push_rate(3, 3.0);
        by_flow.push(64, &[4.0, 5.0]);
        by_word.begin_sample();
        by_word.mark_word(0, 1 << 1, 1 << 3);
        by_word.append(&[1.0, 2.0]);
        by_word.append(&[3.0]);
        by_word.mark_word(1, 1, 0);
        by_word.append(&[4.0, 5.0]);
        let bits = |log: &FlowLog| log.log.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&by_word), bits(&by_flow));
    }

    #[test]
    #[should_panic(expected = "words in order")]
    fn words_are_marked_in_order() {
        let mut log = FlowLog::new(vec![2; 70], 1, 0);
        log.begin_sample();
        log.mark_word(1, 1, 0);
        log.mark_word(0, 1, 0);
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
