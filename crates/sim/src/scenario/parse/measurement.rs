//! How a run is measured and bounded: `sample_interval`, `max_samples`, and `[limits]` (`max_events`,
//! `max_memory`). Whether the time series fit in the memory budget is checked once the scenario is whole
//! (`scenario/limits.rs`).

use super::fields::line_of;
use crate::model::Limits;
use crate::scenario::check::{Checker, Table};
use crate::time::Time;

pub(super) const LIMITS_KEYS: &[&str] = &["max_events", "max_memory"];

/// Largest `max_memory` accepted: 1 EiB (beyond any machine; keeps byte counts far from overflow).
const MAX_MEMORY: f64 = (1u64 << 60) as f64;

/// `sample_interval` and `max_samples` as read.
pub(super) struct Sampling {
    /// The interval given, or by default 1/2000 of the run (at least 1 ms, at most the run); `None` if
    /// invalid or if the duration is.
    pub(super) interval: Option<Time>,
    /// `None` when absent or invalid.
    pub(super) max_samples: Option<usize>,
    /// When the file sets `sample_interval`, its line (for messages about the memory budget).
    pub(super) interval_given: Option<Option<u32>>,
    /// When the file sets `max_samples`, its line.
    pub(super) max_samples_given: Option<Option<u32>>,
}

/// Reads `sample_interval` and `max_samples` from the top-level table; `duration` is the run's.
pub(super) fn sampling(top: &mut Table, duration: Option<Time>, ck: &mut Checker) -> Sampling {
    let sample_interval = top.duration("sample_interval", ck);
    let si_line = line_of(top, "sample_interval");
    let interval = match (sample_interval, duration) {
        (Some(0), _) => {
            ck.error(si_line, "sample_interval", "must be greater than zero");
            None
        }
        (Some(s), Some(d)) if s > d => {
            ck.error(si_line, "sample_interval", "is longer than the run's duration");
            None
        }
        (Some(s), Some(d)) if d / s > 10_000_000 => {
            ck.error(si_line, "sample_interval", "would record more than 10 million samples per series");
            None
        }
        (Some(s), _) => Some(s),
        (None, Some(d)) => Some((d / 2000).max(1_000_000).min(d)),
        (None, None) => None,
    };

    // The upper end only keeps the product with the number of series far from overflow; memory is
    // checked by `limits::check`.
    let max_samples = top.integer("max_samples", 2, 1_000_000_000, ck).map(|m| m as usize);
    let max_samples_line = line_of(top, "max_samples");
    Sampling {
        interval,
        max_samples,
        interval_given: top.has("sample_interval").then_some(si_line),
        max_samples_given: top.has("max_samples").then_some(max_samples_line),
    }
}

/// `[limits]` as read, with the line of `max_memory` for messages about it.
pub(super) struct LimitsTable {
    pub(super) limits: Limits,
    pub(super) max_memory_line: Option<Option<u32>>,
}

/// Reads `[limits]`: `max_events` (a positive integer) and `max_memory` (a size, e.g. "2GiB").
pub(super) fn limits(top: &mut Table, ck: &mut Checker) -> LimitsTable {
    let mut out = LimitsTable { limits: Limits::default(), max_memory_line: None };
    let Some(node) = top.node("limits") else {
        return out;
    };
    let Some(mut t) = Table::new(node, "limits", ck) else {
        return out;
    };
    out.limits.max_events = t.integer("max_events", 1, i64::MAX, ck).map(|n| n as u64);
    if t.has("max_memory") {
        let line = t.node("max_memory").and_then(|n| n.line);
        out.max_memory_line = Some(line);
        if let Some(v) = t.size("max_memory", ck) {
            if v.fract() != 0.0 {
                ck.error(line, "limits.max_memory", format!("{v} is not a whole number of bytes"));
            } else if !(1.0..=MAX_MEMORY).contains(&v) {
                ck.error(line, "limits.max_memory", format!("{v} bytes is out of range [1, 2^60]"));
            } else {
                out.limits.max_memory = Some(v as u64);
            }
        }
    }
    t.finish(ck, LIMITS_KEYS);
    out
}
