//! `[flows.params]`: each value checked against the algorithm's schema (kind and range), then the rules
//! that tie several parameters together. `read_values` also reads a link's `queue_params`.

use crate::cc::{self, ParamKind, ParamSpec, ParamValue, Params};
use crate::scenario::check::{as_duration, as_integer, as_number, as_string, Checker};
use crate::scenario::text::join;
use crate::scenario::tree::{Node, Value};
use crate::time::NS_PER_SEC;

/// A flow's parameters: the algorithm's defaults overridden by the table at `path` (if any).
pub(super) fn params(
    alg: &'static cc::AlgorithmInfo,
    n: Option<&Node>,
    path: &str,
    ck: &mut Checker,
) -> Params {
    let mut p = alg.defaults();
    let schema: Vec<&'static ParamSpec> = alg.params().collect();
    let Some(entries) = read_values(alg.name, &schema, &mut p, n, path, ck) else { return p };
    if alg.param("flavour").is_some() && alg.param("rtt_statistic").is_some() {
        // Vegas: an unset parameter takes the chosen flavour's default (Linux's alpha 2, beta 4, ...).
        cc::vegas::resolve_flavour_defaults(&mut p, &|name| entries.iter().any(|(k, _)| k == name));
    }
    cross_checks(alg, &p, entries, path, ck);
    p
}

/// Overrides `p` with the values of the table at `path`, each checked against `schema` (the parameters of
/// `owner`, an algorithm or a queue discipline). Returns the table's entries, or None if there is no table.
pub(super) fn read_values<'n>(
    owner: &str,
    schema: &[&'static ParamSpec],
    p: &mut Params,
    n: Option<&'n Node>,
    path: &str,
    ck: &mut Checker,
) -> Option<&'n [(String, Node)]> {
    let entries = match &n?.value {
        Value::Table(e) => e,
        other => {
            ck.error(n?.line, path, format!("must be a table, not {}", other.type_name()));
            return None;
        }
    };
    for (k, v) in entries {
        let kp = join(path, k);
        let Some(spec) = schema.iter().find(|s| s.name == k) else {
            let names: Vec<&str> = schema.iter().map(|s| s.name).collect();
            let known = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            ck.error(v.line, &kp, format!("unknown parameter for '{owner}'; its parameters: {known}"));
            continue;
        };
        if let Some(value) = value(spec, v, &kp, ck) {
            p.set(spec.name, value);
        }
    }
    Some(entries)
}

/// One value checked against its schema entry.
fn value(spec: &ParamSpec, v: &Node, kp: &str, ck: &mut Checker) -> Option<ParamValue> {
    match spec.kind {
        ParamKind::Float { min, max, min_exclusive } => as_number(v, kp, ck).and_then(|x| {
            let below = if min_exclusive { x <= min } else { x < min };
            if below || x > max {
                let lo = if min_exclusive { "(" } else { "[" };
                ck.error(v.line, kp, format!("{x} is out of range {lo}{min}, {max}]"));
                None
            } else {
                Some(ParamValue::Num(x))
            }
        }),
        ParamKind::Int { min, max } => as_integer(v, kp, min, max, ck).map(|x| ParamValue::Num(x as f64)),
        ParamKind::Duration { min, max } => as_duration(v, kp, ck).and_then(|d| {
            let s = d as f64 / NS_PER_SEC as f64;
            if s < min || s > max {
                ck.error(v.line, kp, format!("{s}s is out of range [{min}s, {max}s]"));
                None
            } else {
                Some(ParamValue::Num(s))
            }
        }),
        ParamKind::Bool => match &v.value {
            Value::Bool(b) => Some(ParamValue::Bool(*b)),
            other => {
                ck.error(v.line, kp, format!("must be true or false, not {}", other.type_name()));
                None
            }
        },
        ParamKind::Choice(choices) => as_string(v, kp, ck).and_then(|s| {
            if choices.contains(&s.as_str()) {
                Some(ParamValue::Str(s))
            } else {
                ck.error(v.line, kp, format!("'{s}' is not one of {}", choices.join(", ")));
                None
            }
        }),
    }
}

/// Rules over several parameters. Vegas (and Vegas-ALT) keep the queued-packet estimate between alpha and
/// beta: with beta below alpha that band is empty and the window would oscillate, so it is refused rather
/// than silently adjusted. The values compared are the resolved ones: with `flavour = "linux"` an unset
/// alpha or beta is Linux's (2, 4).
fn cross_checks(alg: &cc::AlgorithmInfo, p: &Params, given: &[(String, Node)], path: &str, ck: &mut Checker) {
    // FAST's beta is the top of an optional dead band, where any beta <= alpha means none.
    let is_vegas =
        alg.param("alpha").is_some() && alg.param("beta").is_some() && alg.param("cadence").is_none();
    let line = |key: &str| given.iter().find(|(k, _)| k == key).and_then(|(_, n)| n.line);
    if is_vegas && given.iter().any(|(k, _)| k == "alpha" || k == "beta") {
        let (alpha, beta) = (p.num("alpha"), p.num("beta"));
        if beta < alpha {
            let at = line("beta").or(line("alpha"));
            ck.error(
                at,
                &join(path, "beta"),
                format!("{beta} is below alpha ({alpha}); Vegas needs alpha <= beta"),
            );
        }
    }
}
