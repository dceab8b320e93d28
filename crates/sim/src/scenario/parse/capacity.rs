//! A link direction's capacity: a fixed `bandwidth`, a packet-delivery trace (`bandwidth_trace`, a
//! mahimahi file) or two alternating rates (`bandwidth_states`); one of the three, or with `reverse_`
//! for b->a, which takes the a->b capacity unless it gives its own.

use super::fields::{line_of, positive};
use crate::model::{Capacity, DeliveryTrace, DirSpec, TwoStates};
use crate::scenario::check::{Checker, Table};
use crate::scenario::text::join;
use crate::time::Time;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Fastest link delaycc accepts (10 Tbps). A packet's serialisation is rounded up to a whole nanosecond
/// (`time::serialisation`): exact when its bits over the rate are whole nanoseconds (1000 bytes at 100
/// Gbps: 80 ns), otherwise under 1 ns long (a 40-byte ACK there: 4 ns for 3.2). At 10 Tbps a 1250-byte
/// packet takes 1 ns; faster links would be mostly rounding.
const MAX_BANDWIDTH_BPS: f64 = 1e13;

/// The nanoseconds in a trace's millisecond.
const NS_PER_MS: Time = 1_000_000;

/// A direction's rate (its mean, if it varies) and its capacity model; None if invalid (and reported).
pub(super) fn capacity(
    t: &mut Table,
    prefix: &str,
    forward: Option<&DirSpec>,
    ck: &mut Checker,
) -> Option<(f64, Capacity)> {
    let keys = ["bandwidth", "bandwidth_trace", "bandwidth_states"].map(|k| format!("{prefix}{k}"));
    let given: Vec<&String> = keys.iter().filter(|k| t.has(k)).collect();
    if given.len() > 1 {
        for k in &given {
            t.node(k);
        }
        let l = line_of(t, given[1]);
        let names: Vec<&str> = given.iter().map(|k| k.as_str()).collect();
        ck.error(l, &t.key_path(given[1]), format!("give one of {}, not several", names.join(", ")));
        return None;
    }
    match given.first().map(|k| k.as_str()) {
        Some(k) if k == keys[0] => fixed(t, k, ck).map(|b| (b, Capacity::Fixed)),
        Some(k) if k == keys[1] => {
            let trace = trace_file(t, k, ck)?;
            Some((trace.mean_bps(), Capacity::Trace(trace)))
        }
        Some(k) => {
            let states = states(t, k, ck)?;
            Some((states.mean_bps(), Capacity::States(states)))
        }
        None if !prefix.is_empty() => forward.map(|f| (f.bandwidth_bps, f.capacity.clone())),
        None => {
            ck.error(t.line, &t.key_path(&keys[0]), "is required (or bandwidth_trace or bandwidth_states)");
            None
        }
    }
}

/// A fixed rate above zero and at most 10 Tbps.
fn fixed(t: &mut Table, key: &str, ck: &mut Checker) -> Option<f64> {
    let l = line_of(t, key);
    t.rate(key, ck).filter(|b| positive(ck, t, key, l, *b)).filter(|b| {
        let ok = *b <= MAX_BANDWIDTH_BPS;
        if !ok {
            ck.error(l, &t.key_path(key), "is above 10 Tbps, beyond what delaycc simulates");
        }
        ok
    })
}

/// `bandwidth_states = { good, bad, mean_good, mean_bad }`.
fn states(t: &mut Table, key: &str, ck: &mut Checker) -> Option<TwoStates> {
    let path = t.key_path(key);
    let node = t.node(key)?;
    let mut s = Table::new(node, &path, ck)?;
    let good = s.required("good", ck).and(fixed(&mut s, "good", ck));
    let bad = s.required("bad", ck).and(fixed(&mut s, "bad", ck));
    let holding = |name: &str, s: &mut Table, ck: &mut Checker| {
        let d = s.required(name, ck).and(s.duration(name, ck))?;
        if d == 0 {
            let l = line_of(s, name);
            ck.error(l, &join(&path, name), "must be greater than zero");
            return None;
        }
        Some(d)
    };
    let mean_good = holding("mean_good", &mut s, ck);
    let mean_bad = holding("mean_bad", &mut s, ck);
    s.finish(ck, &["good", "bad", "mean_good", "mean_bad"]);
    Some(TwoStates { good_bps: good?, bad_bps: bad?, mean_good: mean_good?, mean_bad: mean_bad? })
}

/// Where a trace file named in the scenario `file` is: relative to that file's folder (or to the current
/// folder for scenarios that are not files).
fn resolve(file: &str, name: &str) -> PathBuf {
    let p = Path::new(name);
    if p.is_absolute() || file.starts_with('<') {
        return p.to_path_buf();
    }
    Path::new(file).parent().unwrap_or(Path::new("")).join(p)
}

/// Reads the mahimahi trace named by `key`.
fn trace_file(t: &mut Table, key: &str, ck: &mut Checker) -> Option<Arc<DeliveryTrace>> {
    let l = line_of(t, key);
    let name = t.string(key, ck)?;
    let path = resolve(&ck.file, &name);
    let at = t.key_path(key);
    let text = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            ck.error(l, &at, format!("cannot read trace '{}': {e}", path.display()));
            return None;
        }
    };
    match parse_trace(&text) {
        Ok((times, period)) => Some(Arc::new(DeliveryTrace { file: name, times, period })),
        Err(why) => {
            ck.error(l, &at, format!("trace '{}' {why}", path.display()));
            None
        }
    }
}

/// A mahimahi trace: one whole number of milliseconds per line, never decreasing, the last above zero
/// (it is the period). Returns the opportunities' times and the period, in nanoseconds.
pub fn parse_trace(text: &str) -> Result<(Vec<Time>, Time), String> {
    let mut times = Vec::new();
    let mut last = 0u64;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let ms: u64 = match line.parse() {
            Ok(v) if v <= u64::MAX / NS_PER_MS => v,
            _ => return Err(format!("line {}: '{line}' is not a whole number of milliseconds", i + 1)),
        };
        if ms < last {
            return Err(format!(
                "line {}: {ms} ms comes after {last} ms; timestamps must not decrease",
                i + 1
            ));
        }
        last = ms;
        times.push(ms * NS_PER_MS);
    }
    match times.last() {
        None => Err("is empty: it has no delivery opportunities".into()),
        Some(0) => Err("ends at 0 ms: its last timestamp is its period and must be above zero".into()),
        Some(&p) => Ok((times, p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traces_are_whole_ordered_milliseconds() {
        assert_eq!(
            parse_trace("1\n1\n3\n").unwrap(),
            (vec![NS_PER_MS, NS_PER_MS, 3 * NS_PER_MS], 3 * NS_PER_MS)
        );
        assert!(parse_trace("").unwrap_err().contains("is empty"));
        assert!(parse_trace("0\n0\n").unwrap_err().contains("ends at 0 ms"));
        assert!(parse_trace("2\n1\n").unwrap_err().contains("line 2: 1 ms comes after 2 ms"));
        assert!(parse_trace("1\n2.5\n").unwrap_err().contains("line 2: '2.5' is not a whole number"));
        assert!(parse_trace("-1\n").unwrap_err().contains("'-1'"));
    }
}
