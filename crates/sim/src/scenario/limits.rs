//! The one budget that can be checked before a run: the memory of its time series. The recorder reserves the
//! series up front for the worst case (one value per sample per series, at most `max_samples` samples each,
//! and every flow changing at every sample), so a scenario whose series alone could exceed its memory budget
//! (a large `max_samples` with a fine `sample_interval`, or a great many flows) is refused here with what it
//! would need, instead of being killed by the operating system halfway. Everything that grows while the run
//! goes (packets in queues, windows) is checked by the run itself (`sim/budget.rs`).

use super::check::Checker;
use crate::cc::FlowContext;
use crate::measure::recorder::{FLOW_METRICS, LINK_METRICS, TRAFFIC_METRICS};
use crate::model::Scenario;
use crate::units::format_size;

/// Memory the time series may take when the file sets no `max_memory`: 2 GiB. The run's own default
/// budget depends on the machine (`sim/budget.rs`); validity must not, so this one is fixed.
pub const DEFAULT_SERIES_MEMORY: u64 = 2 << 30;

/// The links' and sources' series are stored in tiles of this many (`measure/tiles.rs`).
const TILE: u64 = 8;

/// Samples each series will hold at most.
fn samples(sc: &Scenario) -> u64 {
    (sc.duration / sc.sample_interval.max(1) + 1).min(sc.max_samples as u64)
}

/// Bytes the recorder may use at most for `flow_series` series of flows and `dense_series` of links and
/// sources: per sample, a value per flow series (when every flow changes at every sample) and the flow
/// log's two bitmaps of one bit per flow (`measure/flow_log.rs`), the dense series in whole tiles, and
/// the sample time.
pub fn series_bytes(flow_series: u64, dense_series: u64, sc: &Scenario) -> u64 {
    let per_sample =
        flow_series + 2 * (sc.flows.len() as u64).div_ceil(64) + dense_series.div_ceil(TILE) * TILE + 1;
    per_sample.saturating_mul(samples(sc)).saturating_mul(8)
}

/// Series the recorder may create, the flows' and the others: every flow's metrics and its algorithm's
/// own; three per link direction (an upper bound: only directions some route uses are recorded), one per
/// source.
pub fn series_count(sc: &Scenario) -> (u64, u64) {
    let flow_series: u64 = sc
        .flows
        .iter()
        .map(|f| {
            let ctx = FlowContext {
                mss_bytes: sc.packet_size - sc.header_size,
                packet_bytes: sc.packet_size,
                initial_window: f.transport.initial_window,
                rng_seed: 0,
                hops: (f.path.len().saturating_sub(1)) as u32,
            };
            (FLOW_METRICS.len()
                + crate::cc::build_controller(f.algorithm, &f.params, &ctx).extra_metrics().len())
                as u64
        })
        .sum();
    let dense = (sc.links.len() * 2 * LINK_METRICS.len() + sc.traffic.len() * TRAFFIC_METRICS.len()) as u64;
    (flow_series, dense)
}

/// Reports a scenario whose time series would not fit in its memory budget: at `limits.max_memory` if the
/// file sets it, else at `max_samples` or `sample_interval` if the file sets them, else at `flows`.
pub fn check(
    sc: &Scenario,
    sample_interval_line: Option<Option<u32>>,
    max_samples_line: Option<Option<u32>>,
    max_memory_line: Option<Option<u32>>,
    ck: &mut Checker,
) {
    let (flow_series, dense) = series_count(sc);
    let series = flow_series + dense;
    let bytes = series_bytes(flow_series, dense, sc);
    let cap = sc.limits.max_memory.unwrap_or(DEFAULT_SERIES_MEMORY);
    if bytes <= cap {
        return;
    }
    let need = format!(
        "the time series would take {} ({series} series x {} samples)",
        format_size(bytes),
        samples(sc)
    );
    if let (Some(line), Some(m)) = (max_memory_line, sc.limits.max_memory) {
        ck.error(line, "limits.max_memory", format!("{} is less than {need}", format_size(m)));
        return;
    }
    let reason =
        format!("{need}, more than the {} they may take without limits.max_memory", format_size(cap));
    match (max_samples_line, sample_interval_line) {
        (Some(line), _) => ck.error(line, "max_samples", format!("{reason}; use a smaller max_samples")),
        (None, Some(line)) => {
            ck.error(line, "sample_interval", format!("{reason}; use a longer sample_interval"))
        }
        (None, None) => {
            ck.error(None, "flows", format!("{reason}; use fewer flows or set limits.max_memory"))
        }
    }
}
