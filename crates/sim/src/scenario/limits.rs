//! Limits that keep a valid scenario within the memory of an ordinary machine. The time series are
//! allocated up front (one value per sample per series, at most `max_samples` samples), so a large
//! `max_samples` with a fine `sample_interval`, or a great many flows, could ask for more memory than
//! exists; such a scenario is refused with what it would need, instead of being killed by the operating
//! system halfway.

use super::check::Checker;
use super::model::Scenario;
use crate::cc::FlowContext;
use crate::measure::recorder::{FLOW_METRICS, LINK_METRICS, TRAFFIC_METRICS};

/// Most time-series values a run may record: 250 million (2 GB of f64).
pub const MAX_RECORDED_VALUES: u64 = 250_000_000;

/// Values the recorder will hold at most: samples times series (every link direction counted).
pub fn recorded_values(sc: &Scenario) -> u64 {
    let samples = (sc.duration / sc.sample_interval.max(1) + 1).min(sc.max_samples as u64);
    let flow_series: u64 = sc
        .flows
        .iter()
        .map(|f| {
            let ctx = FlowContext {
                mss_bytes: sc.packet_size - sc.header_size,
                initial_window: f.transport.initial_window,
            };
            (FLOW_METRICS.len() + (f.algorithm.build)(&f.params, &ctx).extra_metrics().len()) as u64
        })
        .sum();
    let series = flow_series
        + (sc.links.len() * 2 * LINK_METRICS.len()) as u64
        + (sc.traffic.len() * TRAFFIC_METRICS.len()) as u64;
    samples.saturating_mul(series)
}

/// Reports a scenario whose time series would not fit, at `max_samples` or `sample_interval` if the file
/// sets them.
pub fn check(
    sc: &Scenario,
    sample_interval_line: Option<Option<u32>>,
    max_samples_line: Option<Option<u32>>,
    ck: &mut Checker,
) {
    let values = recorded_values(sc);
    if values <= MAX_RECORDED_VALUES {
        return;
    }
    let gb = values as f64 * 8.0 / 1e9;
    let reason = format!(
        "the run would record {values} time-series values ({gb:.1} GB), more than {MAX_RECORDED_VALUES}; \
         use a smaller max_samples or a longer sample_interval"
    );
    match (max_samples_line, sample_interval_line) {
        (Some(line), _) => ck.error(line, "max_samples", reason),
        (None, Some(line)) => ck.error(line, "sample_interval", reason),
        (None, None) => ck.error(None, "flows", format!("{reason} or fewer flows")),
    }
}
