//! Time series sampled on a fixed period into one column per (object, metric). Memory is bounded by the
//! number of samples, never by the number of packets, and the number of samples by `max_samples`
//! (`resolution.rs`), never by the duration.

use super::flow_log::FlowLog;
use super::resolution::{merge_rows, merge_rule, Merge};
use super::store::SeriesStore;
use super::tiles::Tiles;
use crate::model::Scenario;
use crate::net::{LinkDir, Routes};
use crate::time::{as_f64, secs, Time, NS_PER_SEC};
use crate::transport::{Flow, Source};

pub const FLOW_METRICS: &[&str] = &[
    "cwnd_pkts",
    "rtt_s",
    "srtt_s",
    "base_rtt_s",
    "rate_bps",
    "inflight_pkts",
    "ssthresh_pkts",
    "ipd_s",
    "ipd_jitter_s",
];
/// Index of `rate_bps` among a flow's metrics.
const RATE: usize = 4;
pub const LINK_METRICS: &[&str] = &["queue_pkts", "throughput_bps", "drops"];
pub const TRAFFIC_METRICS: &[&str] = &["rate_bps"];

/// What a series is of; its values are in the recorder's `values` under the same index.
pub struct Series {
    pub kind: &'static str,
    pub id: String,
    pub metric: &'static str,
}

pub struct Recorder {
    /// Interval between recorded samples: the scenario's, doubled each time the resolution was halved.
    pub interval: Time,
    pub times: Vec<f64>,
    pub series: Vec<Series>,
    /// The values of every series (`store.rs`): `values.series(i)` belongs to `series[i]`.
    pub values: SeriesStore,
    /// Samples per series at which the resolution halves (rounded down to an even number, at least 2).
    pub max_samples: usize,
    /// Sampling instants (calls to `sample`) per recorded sample, and instants since the last one.
    stride: u64,
    since_recorded: u64,
    /// The links' and sources' values at the sample being recorded (padded to whole tiles).
    row: Vec<f64>,
    /// With `verify_untouched`: the values of the flow being read (the fast path writes them straight
    /// into the flow log).
    record: Vec<f64>,
    /// With `verify_untouched`: every flow's values at the last recorded sample, in series order.
    shadow: Vec<f64>,
    /// What happened to each flow since the last recorded sample, one byte each (`TOUCHED`, `RECEIVED`,
    /// both or neither), padded with zeros to whole words of 64 flows. With many flows most did nothing
    /// at all in 10 ms (three in five at 1000 flows): their values are the last sample's, with a rate of
    /// zero, and reading their state again cost a tenth of the run. A byte rather than a bit, because
    /// each packet marks its flow (the data once, the ACK once): a byte store or `or` is a third of the
    /// instructions of setting a bit, while the sample turns 16 bytes into bits with two instructions.
    flags: Vec<u8>,
    /// Tests set this: untouched flows are read anyway, and the recorder panics if any value differs from
    /// what it would have kept (an event changed a flow's state without `touch`).
    pub verify_untouched: bool,
    /// Link directions that appear on some route, in index order, with their first value in `row`.
    link_dirs: Vec<(u32, usize)>,
    /// First series of each flow (standard metrics, then the algorithm's extra ones).
    flow_base: Vec<usize>,
    /// Number of extra series of each flow (asked once: it is a virtual call).
    flow_extra: Vec<usize>,
    /// Whether any flow has extra series.
    any_extra: bool,
    extra_buf: Vec<f64>,
    /// The sources' first value in `row`.
    traffic_base: usize,
    /// Each flow's receiver's data bits at its last record, by words of 64 flows as `flags`: the sample
    /// indexes a word once, not each record.
    last_flow_bits: Vec<[u64; 64]>,
    last_link_bits: Vec<u64>,
    last_link_drops: Vec<u64>,
    last_traffic_bits: Vec<u64>,
    last_t: Time,
}

/// How a link direction is named in outputs: "<link id>:a->b" or "<link id>:b->a".
pub fn link_dir_name(s: &Scenario, d: u32) -> (String, &'static str) {
    let l = &s.links[(d / 2) as usize];
    (l.id.clone(), if d.is_multiple_of(2) { "a->b" } else { "b->a" })
}

impl Recorder {
    pub fn new(s: &Scenario, routes: &Routes, flows: &[Flow]) -> Recorder {
        let n_samples = ((s.duration / s.sample_interval.max(1)) as usize + 1).min(s.max_samples);
        let mut series = Vec::new();
        let mut flow_base = Vec::with_capacity(flows.len());
        let mut flow_extra = Vec::with_capacity(flows.len());
        for (f, fl) in s.flows.iter().zip(flows) {
            flow_base.push(series.len());
            flow_extra.push(fl.sender.cc.extra_metrics().len());
            for m in FLOW_METRICS.iter().chain(fl.sender.cc.extra_metrics()) {
                series.push(Series { kind: "flow", id: f.id.clone(), metric: m });
            }
        }
        let flow_series = series.len();
        let mut used = vec![false; s.links.len() * 2];
        for d in routes.all_dirs() {
            used[d as usize] = true;
        }
        let mut link_dirs = Vec::new();
        for (d, u) in used.iter().enumerate() {
            if *u {
                let (id, dir) = link_dir_name(s, d as u32);
                link_dirs.push((d as u32, series.len() - flow_series));
                for m in LINK_METRICS {
                    series.push(Series { kind: "link", id: format!("{id}:{dir}"), metric: m });
                }
            }
        }
        let traffic_base = series.len() - flow_series;
        for t in &s.traffic {
            for m in TRAFFIC_METRICS {
                series.push(Series { kind: "traffic", id: t.id.clone(), metric: m });
            }
        }
        let widths = flow_extra.iter().map(|e| FLOW_METRICS.len() + e).collect();
        let dense = Tiles::new(series.len() - flow_series, n_samples);
        let row = vec![f64::NAN; dense.row_width()];
        let values = SeriesStore::new(FlowLog::new(widths, n_samples, RATE), dense);
        Recorder {
            interval: s.sample_interval,
            times: Vec::with_capacity(n_samples),
            row,
            record: Vec::new(),
            shadow: Vec::new(),
            flags: all_touched(flows.len()),
            verify_untouched: false,
            values,
            series,
            max_samples: s.max_samples,
            stride: 1,
            since_recorded: 0,
            link_dirs,
            flow_base,
            any_extra: flow_extra.iter().any(|&e| e != 0),
            flow_extra,
            extra_buf: Vec::new(),
            traffic_base,
            last_flow_bits: vec![[0; 64]; s.flows.len().div_ceil(64)],
            last_link_bits: vec![0; s.links.len() * 2],
            last_link_drops: vec![0; s.links.len() * 2],
            last_traffic_bits: vec![0; s.traffic.len()],
            last_t: 0,
        }
    }

    /// Number of series that are the flows' (the first ones).
    pub fn flow_series(&self) -> usize {
        self.values.flow_series()
    }

    /// Flow `f`'s sender (or its controller) may have changed: every value must be read at the next
    /// sample. The simulation calls it after every event that changes a sender, and at a flow's stop.
    #[inline]
    pub fn touch(&mut self, f: u32) {
        self.flags[f as usize] = TOUCHED;
    }

    /// Flow `f`'s receiver got data and nothing else changed: at the next sample only its rate needs
    /// reading and recording (half the flows recorded at 1000 flows and 10 ms).
    #[inline]
    pub fn touch_received(&mut self, f: u32) {
        self.flags[f as usize] |= RECEIVED;
    }

    pub fn sample(&mut self, now: Time, flows: &[Flow], links: &[LinkDir], sources: &[Source]) {
        // Instants between recorded samples are skipped; the rates and drop counts of the next recorded
        // sample cover the whole interval since the last one.
        self.since_recorded += 1;
        if self.since_recorded < self.stride {
            return;
        }
        if self.times.len() >= (self.max_samples.max(2) & !1) {
            self.halve();
            self.stride *= 2;
            self.interval = self.interval.saturating_mul(2);
            // This instant falls between two instants of the doubled interval.
            return;
        }
        self.since_recorded = 0;
        let dt = secs(now - self.last_t).max(1e-12);
        self.last_t = now;
        self.times.push(secs(now));
        self.values.flows.begin_sample();
        if self.verify_untouched {
            self.sample_verifying(now, flows, dt);
        } else if self.any_extra {
            self.record_flows::<true>(flows, dt);
        } else {
            // Most runs' algorithms have no extra metrics: asked once per sample rather than per record.
            self.record_flows::<false>(flows, dt);
        }
        for &(d, b) in &self.link_dirs {
            let l = &links[d as usize];
            let bits = l.bits_finished_by(now);
            let drops = l.stats.queue_drops + l.stats.loss_drops;
            let tput = bits.saturating_sub(self.last_link_bits[d as usize]) as f64 / dt;
            let new_drops = drops - self.last_link_drops[d as usize];
            self.last_link_bits[d as usize] = bits;
            self.last_link_drops[d as usize] = drops;
            self.row[b..b + 3].copy_from_slice(&[l.queue_pkts(now) as f64, tput, new_drops as f64]);
        }
        for (i, s) in sources.iter().enumerate() {
            let rate = (s.delivered_bits - self.last_traffic_bits[i]) as f64 / dt;
            self.last_traffic_bits[i] = s.delivered_bits;
            self.row[self.traffic_base + i] = rate;
        }
        self.values.dense.push_row(&self.row);
    }

    /// The flows' part of `sample`: only the touched flows and those that received data, in order.
    /// `ANY_EXTRA`: whether any flow has extra metrics.
    #[inline(always)]
    fn record_flows<const ANY_EXTRA: bool>(&mut self, flows: &[Flow], dt: f64) {
        let log = &mut self.values.flows;
        let (words, []) = self.flags.as_chunks_mut::<64>() else { unreachable!("whole words") };
        // Whole words of 64 flows are arrays: a record indexes its word's flows without a bounds check.
        let (flow_words, flows_left) = flows.as_chunks::<64>();
        for ((w, word), last_word_bits) in words.iter_mut().enumerate().zip(&mut self.last_flow_bits) {
            let (whole, bits) = take_word(word);
            if bits == 0 {
                continue;
            }
            log.mark_word(w, whole, bits & !whole);
            let extra = &self.flow_extra[w * 64..];
            let mut word = WordRecords { log, last_word_bits, extra, extra_buf: &mut self.extra_buf, dt };
            match flow_words.get(w) {
                Some(word_flows) => word.write::<ANY_EXTRA>(word_flows, whole, bits),
                None => word.write::<ANY_EXTRA>(flows_left, whole, bits),
            }
        }
    }

    /// The flows' part of `sample` with `verify_untouched`: records exactly what the fast path records,
    /// and also reads every other flow, checking it against what the fast path assumes: a flow without
    /// a touch has its last values, with its rate read again if it received data, else a rate of 0 / dt,
    /// which is exactly 0.
    fn sample_verifying(&mut self, now: Time, flows: &[Flow], dt: f64) {
        if self.shadow.is_empty() {
            self.shadow = vec![f64::NAN; self.flow_series()];
        }
        for (i, f) in flows.iter().enumerate() {
            let at = self.flow_base[i];
            let width = FLOW_METRICS.len() + self.flow_extra[i];
            let flags = std::mem::take(&mut self.flags[i]);
            let received = flags & RECEIVED != 0;
            if flags & TOUCHED != 0 {
                self.read_flow(i, f, dt);
                self.values.flows.push(i, &self.record);
                self.shadow[at..at + width].copy_from_slice(&self.record);
                continue;
            }
            let last_bits = *self.last_bits(i);
            let rate = if received {
                let rate = self.read_rate(i, f, dt);
                self.values.flows.push_rate(i, rate);
                rate
            } else {
                0.0
            };
            self.shadow[at + RATE] = rate;
            // Read again from the same starting point: the rate must come out the same.
            *self.last_bits(i) = last_bits;
            self.read_flow(i, f, dt);
            let kept = &self.shadow[at..at + width];
            let same = kept.iter().zip(&self.record).all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(
                same,
                "flow {i} changed without a touch at t = {now} ns: kept {kept:?}, read {:?}",
                self.record
            );
        }
    }

    /// Flow `i`'s receiver's data bits at its last record.
    fn last_bits(&mut self, i: usize) -> &mut u64 {
        &mut self.last_flow_bits[i / 64][i % 64]
    }

    /// Reads only flow `i`'s rate (its sender has not changed since the last sample, so its other values
    /// are those of its last full record).
    fn read_rate(&mut self, i: usize, f: &Flow, dt: f64) -> f64 {
        rate_since(f, self.last_bits(i), dt)
    }

    /// With `verify_untouched`: reads all of flow `i`'s values into `record`.
    fn read_flow(&mut self, i: usize, f: &Flow, dt: f64) {
        self.record.clear();
        let values = read_standard(f, self.last_bits(i), dt);
        self.record.extend_from_slice(&values);
        read_extra(f, self.flow_extra[i], &mut self.extra_buf);
        self.record.extend_from_slice(&self.extra_buf);
    }

    /// Merges every two adjacent samples into one (`resolution.rs`), so memory never holds more than
    /// `max_samples` samples per series.
    fn halve(&mut self) {
        let n = merge_rows(&mut self.times, &[Merge::Last]);
        self.times.truncate(n);
        self.values.flows.halve();
        let dense = &self.series[self.flow_series()..];
        self.values.dense.merge_pairs(|i| dense.get(i).map_or(Merge::Last, |s| merge_rule(s.metric)));
    }
}

/// What `Recorder::record_flows` needs to write one word's records.
struct WordRecords<'a> {
    log: &'a mut FlowLog,
    last_word_bits: &'a mut [u64; 64],
    /// The word's flows' numbers of extra metrics (and the later words').
    extra: &'a [usize],
    extra_buf: &'a mut Vec<f64>,
    dt: f64,
}

impl WordRecords<'_> {
    /// Writes the records of the word's flows in `bits` (`word_flows[b]` is the flow of bit `b`): full
    /// records for those also in `whole`, rate-only records for the others.
    #[inline(always)]
    fn write<const ANY_EXTRA: bool>(&mut self, word_flows: &[Flow], whole: u64, mut bits: u64) {
        let dt = self.dt;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let flow = &word_flows[b];
            let last_bits = &mut self.last_word_bits[b];
            if whole & 1 << b != 0 {
                self.log.append(&read_standard(flow, last_bits, dt));
                let extra = if ANY_EXTRA { self.extra[b] } else { 0 };
                if extra != 0 {
                    read_extra(flow, extra, self.extra_buf);
                    self.log.append(self.extra_buf);
                }
            } else {
                self.log.append(&[rate_since(flow, last_bits, dt)]);
            }
        }
    }
}

/// Flow `f`'s receive rate in bits per second since its receiver had `last_bits` data bits, `dt` seconds
/// ago; moves `last_bits` on.
fn rate_since(f: &Flow, last_bits: &mut u64, dt: f64) -> f64 {
    let bits = f.receiver.data_bits;
    let rate = as_f64(bits - *last_bits) / dt;
    *last_bits = bits;
    rate
}

/// Flow `f`'s standard values (`FLOW_METRICS`), its rate since `last_bits` data bits over `dt` seconds
/// (and moves `last_bits` on). Inlined, so that the values go from registers straight to where the caller
/// writes them: returned through memory, they were stored and then reloaded 16 bytes at a time, which
/// waits on the two 8-byte stores (the CPU does not forward them to one load).
#[inline(always)]
fn read_standard(f: &Flow, last_bits: &mut u64, dt: f64) -> [f64; FLOW_METRICS.len()] {
    let s = &f.sender;
    let cc = s.cc.sample();
    let tr = cc.trace;
    let srtt = tr.srtt.or_else(|| s.rto.srtt());
    let base = tr.base_rtt.or(s.stats.rtt_min());
    let rate = rate_since(f, last_bits, dt);
    [
        cc.window,
        opt_secs(s.stats.last_rtt()),
        opt_secs(srtt),
        opt_secs(base),
        rate,
        as_f64(s.inflight()),
        ssthresh_pkts(cc.ssthresh),
        opt_secs(s.stats.ipd()),
        opt_secs(s.stats.ipd_jitter()),
    ]
}

/// The ssthresh to record: NaN while it is unset (infinite or huge). Two comparisons say what
/// `is_finite() && < 1e9` says (NaN fails both) without `is_finite`'s masking of the bits.
#[inline(always)]
fn ssthresh_pkts(ssthresh: f64) -> f64 {
    if ssthresh > f64::NEG_INFINITY && ssthresh < 1e9 {
        ssthresh
    } else {
        f64::NAN
    }
}

/// `t.map_or(NaN, secs)` in fewer instructions. A time below 2^63 (every time in practice) is converted
/// at once; `None`, taken as `u64::MAX`, falls among the rest. The statistics keep `None` as that very
/// sentinel, so for them one sign test replaces both the test for `None` and `as_f64`'s.
#[inline(always)]
fn opt_secs(t: Option<Time>) -> f64 {
    let x = t.unwrap_or(Time::MAX);
    if x < 1 << 63 {
        x as i64 as f64 / NS_PER_SEC as f64
    } else {
        t.map_or(f64::NAN, secs)
    }
}

/// Flow `f`'s `n` extra values (its algorithm's metrics) into `out`: exactly `n`, padded with NaN, so
/// the record stays aligned with the series.
fn read_extra(f: &Flow, n: usize, out: &mut Vec<f64>) {
    out.clear();
    if n != 0 {
        f.sender.cc.extra_values(out);
        out.resize(n, f64::NAN);
    }
}

/// A flow's byte in `Recorder::flags`: its sender may have changed (every value is read), and its
/// receiver got data (its rate is read). `touch` stores `TOUCHED` over whatever was there, as a full record
/// has the rate too. `TOUCHED` is the byte's sign bit, which `_mm_movemask_epi8` gathers.
const TOUCHED: u8 = 0x80;
const RECEIVED: u8 = 0x01;

/// Flags for `n` flows, every one touched (the first sample reads them all), padded to whole words.
fn all_touched(n: usize) -> Vec<u8> {
    let mut flags = vec![0; n.div_ceil(64) * 64];
    flags[..n].fill(TOUCHED);
    flags
}

/// The bitmaps of one word of 64 flows' flags: those touched, and those touched or with data received;
/// clears the flags.
#[inline(always)]
fn take_word(word: &mut [u8; 64]) -> (u64, u64) {
    let (touched, any) = word_bits(word);
    if any != 0 {
        *word = [0; 64];
    }
    (touched, any)
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn word_bits(word: &[u8; 64]) -> (u64, u64) {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_setzero_si128};
    let (mut touched, mut none) = (0, 0);
    for (k, part) in word.as_chunks::<16>().0.iter().enumerate() {
        // SAFETY: SSE2 is part of x86_64, and the load reads the 16 bytes of `part`.
        let (t, z) = unsafe {
            let v = _mm_loadu_si128(part.as_ptr().cast::<__m128i>());
            (_mm_movemask_epi8(v), _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())))
        };
        touched |= u64::from(t as u16) << (16 * k);
        none |= u64::from(z as u16) << (16 * k);
    }
    (touched, !none)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn word_bits(word: &[u8; 64]) -> (u64, u64) {
    let (mut touched, mut any) = (0, 0);
    for (k, &b) in word.iter().enumerate() {
        touched |= u64::from(b & TOUCHED != 0) << k;
        any |= u64::from(b != 0) << k;
    }
    (touched, any)
}

#[cfg(test)]
mod tests {
    use super::{FLOW_METRICS, RATE};

    #[test]
    fn the_rate_index_names_the_rate() {
        assert_eq!(FLOW_METRICS[RATE], "rate_bps");
    }
}
