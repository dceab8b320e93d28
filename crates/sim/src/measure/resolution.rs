//! Keeps the recorder's memory independent of the run's duration: when its series reach
//! `max_samples` samples, every two adjacent samples are merged into one and the sampling interval
//! doubles, so a series never holds more than `max_samples` values.
//!
//! A merged sample is what sampling at the doubled interval would have recorded: point values (window,
//! RTT, queue, cumulative counters) keep the later of the two samples, rates over the two equal
//! intervals are averaged, and per-interval counts (drops) are added.

/// Default of the scenario's `max_samples`: samples per series before the recorder halves its
/// resolution. Our choice: twice the 2000 samples of the default interval (duration / 2000), which
/// therefore never reaches it, and more points than a figure has pixels across; at 10 ms a run of up to
/// 40 s keeps every sample. Bounds memory at 32 kB per series, so a run ten times longer than one that
/// fills half the bound needs at most the bound's extra 16 kB per series.
pub const DEFAULT_MAX_SAMPLES: usize = 4_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    /// A value read at the sampling instant: keep the later one.
    Last,
    /// A rate over the interval: the rate over both is their mean.
    Mean,
    /// A count over the interval: the count over both is their sum.
    Sum,
}

pub fn merge_rule(metric: &str) -> Merge {
    match metric {
        "rate_bps" | "throughput_bps" => Merge::Mean,
        "drops" => Merge::Sum,
        _ => Merge::Last,
    }
}

impl Merge {
    #[inline]
    fn apply(self, earlier: f64, later: f64) -> f64 {
        match self {
            Merge::Last => later,
            Merge::Mean => 0.5 * (earlier + later),
            Merge::Sum => earlier + later,
        }
    }
}

/// Merges adjacent rows of a row-major table in place, column k by `rules[k]` (one row per sample, one
/// column per series; a plain series is a table with one column). The number of rows must be even. The
/// merged rows are the first half of the table; returns their length in values.
pub fn merge_rows(table: &mut [f64], rules: &[Merge]) -> usize {
    let width = rules.len();
    debug_assert!(table.len().is_multiple_of(2 * width));
    let rows = table.len() / width / 2;
    for r in 0..rows {
        for (k, rule) in rules.iter().enumerate() {
            let (earlier, later) = (table[2 * r * width + k], table[(2 * r + 1) * width + k]);
            table[r * width + k] = rule.apply(earlier, later);
        }
    }
    rows * width
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_point_values_rates_and_counts_by_their_meaning() {
        // Rows of (cwnd, rate, drops).
        let mut t = vec![1.0, 10.0, 1.0, 2.0, 20.0, 0.0, 3.0, 30.0, 2.0, f64::NAN, 50.0, 3.0];
        let rules = ["cwnd_pkts", "rate_bps", "drops"].map(merge_rule);
        let n = merge_rows(&mut t, &rules);
        t.truncate(n);
        assert_eq!(t.len(), 6);
        assert_eq!(t[..3], [2.0, 15.0, 1.0]);
        assert!(t[3].is_nan());
        assert_eq!(t[4..], [40.0, 5.0]);
    }

    #[test]
    fn merges_the_rows_of_a_table_column_by_column() {
        // Two columns (a rate and a point value), four rows.
        let mut t = vec![10.0, 1.0, 30.0, 2.0, 50.0, 3.0, 70.0, 4.0];
        let n = merge_rows(&mut t, &[Merge::Mean, Merge::Last]);
        t.truncate(n);
        assert_eq!(t, vec![20.0, 2.0, 60.0, 4.0]);
    }
}
