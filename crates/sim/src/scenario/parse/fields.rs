//! Readers of the kinds of value several sections share: ids, byte sizes, probabilities, positive
//! quantities, and the `start`/`stop` of flows and sources.

use crate::model::Trace;
use crate::scenario::check::{Checker, Table};
use crate::time::Time;

/// Ids and node names: not empty, at most 128 characters, without spaces, commas, quotes or control
/// characters.
pub(super) fn valid_id(s: &str) -> Result<(), String> {
    if s.is_empty() {
        return Err("must not be empty".into());
    }
    if s.chars().count() > 128 {
        return Err("must be at most 128 characters".into());
    }
    if s.chars().any(|c| c.is_control() || c.is_whitespace() || c == ',' || c == '"') {
        return Err(format!(
            "'{}' may not contain spaces, commas, quotes or control characters",
            s.escape_debug()
        ));
    }
    Ok(())
}

/// The id under `key`, checked with `valid_id`, or `default` when absent or not a string.
pub(super) fn read_id(t: &mut Table, key: &str, default: String, ck: &mut Checker) -> String {
    let path = t.key_path(key);
    let line = t.node(key).and_then(|n| n.line);
    match t.string(key, ck) {
        Some(s) => {
            if let Err(e) = valid_id(&s) {
                ck.error(line, &path, e);
            }
            s
        }
        None => default,
    }
}

/// True when `v` is above zero; otherwise records "must be greater than zero" at `key`.
pub(super) fn positive(ck: &mut Checker, t: &Table, key: &str, line: Option<u32>, v: f64) -> bool {
    if v <= 0.0 {
        ck.error(line, &t.key_path(key), "must be greater than zero");
        return false;
    }
    true
}

/// The line of `key`'s value (marking the key read).
pub(super) fn line_of(t: &mut Table, key: &str) -> Option<u32> {
    t.node(key).and_then(|n| n.line)
}

/// A byte count with a default and bounds, e.g. packet_size.
pub(super) fn sized(
    t: &mut Table,
    key: &str,
    default: f64,
    min: f64,
    max: f64,
    ck: &mut Checker,
) -> Option<u32> {
    if !t.has(key) {
        return Some(default as u32);
    }
    let l = line_of(t, key);
    let v = t.size(key, ck)?;
    if v.fract() != 0.0 {
        ck.error(l, &t.key_path(key), format!("{v} is not a whole number of bytes"));
        return None;
    }
    if v < min || v > max {
        if v == 0.0 {
            ck.error(l, &t.key_path(key), "must be greater than zero");
        } else {
            ck.error(l, &t.key_path(key), format!("{v} bytes is out of range [{min}, {max}]"));
        }
        return None;
    }
    Some(v as u32)
}

/// A probability in [0, 1] under `key`: `Some(None)` when absent, `None` when invalid.
pub(super) fn probability(t: &mut Table, key: &str, ck: &mut Checker) -> Option<Option<f64>> {
    if !t.has(key) {
        return Some(None);
    }
    let l = line_of(t, key);
    let v = t.number(key, ck)?;
    if !(0.0..=1.0).contains(&v) {
        ck.error(l, &t.key_path(key), format!("{v} is not a probability in [0, 1]"));
        return None;
    }
    Some(Some(v))
}

/// `start` (default 0) and `stop` (default the run's end) of a flow or source; `stop` past the end is cut
/// to it. Both are `None` when they do not leave a time inside the run.
pub(super) fn start_stop(
    t: &mut Table,
    duration: Option<Time>,
    ck: &mut Checker,
) -> (Option<Time>, Option<Time>) {
    let sl = line_of(t, "start");
    let start = if t.has("start") { t.duration("start", ck) } else { Some(0) };
    let pl = line_of(t, "stop");
    let stop = if t.has("stop") { t.duration("stop", ck) } else { duration };
    if let (Some(s), Some(d)) = (start, duration) {
        if s >= d {
            ck.error(sl, &t.key_path("start"), "is not inside the run (it must be before `duration`)");
            return (None, None);
        }
    }
    if let (Some(s), Some(p)) = (start, stop) {
        if p <= s {
            ck.error(pl, &t.key_path("stop"), "must be after start");
            return (None, None);
        }
    }
    (start, stop.map(|p| duration.map_or(p, |d| p.min(d))))
}

/// `trace` of a link or a flow: `"pcap"`, or `"none"` (the default, also when absent). `None` when
/// absent, `"none"` or invalid (reported).
pub(super) fn trace(t: &mut Table, ck: &mut Checker) -> Option<Trace> {
    let line = line_of(t, "trace");
    match t.string("trace", ck)?.as_str() {
        "pcap" => Some(Trace::Pcap),
        "none" => None,
        other => {
            let msg = format!(
                "'{}' is not a trace format delaycc writes; use \"pcap\" or \"none\"",
                other.escape_debug()
            );
            ck.error(line, &t.key_path("trace"), msg);
            None
        }
    }
}

/// `trace` on a table that has no packet trace of its own: `reason` says where traces are set, instead of
/// "unknown key".
pub(super) fn misplaced_trace(t: &mut Table, ck: &mut Checker, reason: &str) {
    if t.has("trace") {
        let line = line_of(t, "trace");
        ck.error(line, &t.key_path("trace"), reason);
    }
}

/// Where traces are set, for `misplaced_trace`'s messages.
pub(super) const TRACES_ARE_SET: &str = "traces are set per flow (flows[].trace) or per link (links[].trace)";
