//! `profile` and `[transport]` (every flow's defaults), and `[flows.transport]` (one flow's overrides).

use super::fields::{line_of, misplaced_trace, TRACES_ARE_SET};
use crate::model::{PartialTimer, Profile, RecoverGuard, RtoKind, TransportConfig};
use crate::scenario::check::{Checker, Table};
use crate::scenario::tree::Node;
use crate::time::secs;

pub(super) const TRANSPORT_KEYS: &[&str] = &[
    "min_rto",
    "max_rto",
    "initial_rto",
    "delayed_ack",
    "delayed_ack_timeout",
    "initial_window",
    "receiver_window",
    "dupack_threshold",
    "receiver_clock_offset",
    "pacing",
    "syn",
    "rto",
    "rtt_tick",
    "limited_transmit",
    "newreno_timer",
    "recovery_maxburst",
    "recover_guard",
    "sack",
    "partial_ack",
    "ecn",
];

/// A string key with a fixed set of values: the value, or an error naming the key and the choices.
fn choice<T: Copy>(t: &mut Table, key: &str, options: &[(&str, T)], ck: &mut Checker) -> Option<T> {
    if !t.has(key) {
        return None;
    }
    let l = line_of(t, key);
    let v = t.string(key, ck)?;
    match options.iter().find(|(name, _)| *name == v) {
        Some((_, x)) => Some(*x),
        None => {
            let names: Vec<String> = options.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            ck.error(l, &t.key_path(key), format!("unknown value \"{v}\"; expected {}", names.join(" or ")));
            None
        }
    }
}

/// Largest receiver clock offset accepted, seconds (either sign).
const MAX_CLOCK_OFFSET_S: f64 = 1e6;

/// Every flow's defaults: the settings of `profile` (by default "ns2"), with `[transport]` over them.
pub(super) fn defaults(top: &mut Table, ck: &mut Checker) -> TransportConfig {
    // `profile` sets the transport defaults as a group; [transport] and [flows.transport] override keys.
    let profile = match top.string("profile", ck).as_deref() {
        None | Some("ns2") => Profile::Ns2,
        Some("linux") => Profile::Linux,
        Some(other) => {
            let l = line_of(top, "profile");
            ck.error(l, "profile", format!("unknown profile \"{other}\"; expected \"ns2\" or \"linux\""));
            Profile::Ns2
        }
    };
    let profile_defaults = TransportConfig::for_profile(profile);
    match top.node("transport") {
        Some(n) => transport(n, "transport", &profile_defaults, ck),
        None => profile_defaults,
    }
}

/// The settings at `path`, starting from `base` (the defaults, or the top-level table for a flow's own).
pub(super) fn transport(n: &Node, path: &str, base: &TransportConfig, ck: &mut Checker) -> TransportConfig {
    let mut c = base.clone();
    let Some(mut t) = Table::new(n, path, ck) else {
        return c;
    };
    rto_bounds(&mut t, &mut c, ck);
    if let Some(v) = t.boolean("delayed_ack", ck) {
        c.delayed_ack = v;
    }
    if let Some(v) = t.duration("delayed_ack_timeout", ck) {
        c.delayed_ack_timeout = v.max(1);
    }
    if t.has("initial_window") {
        let l = line_of(&mut t, "initial_window");
        if let Some(v) = t.number("initial_window", ck) {
            if !(1.0..=1e7).contains(&v) {
                ck.error(l, &t.key_path("initial_window"), format!("{v} is out of range [1, 1e7] packets"));
            } else {
                c.initial_window = v;
            }
        }
    }
    if let Some(v) = t.integer("receiver_window", 1, 1_000_000_000, ck) {
        c.receiver_window = v as u64;
    }
    if let Some(v) = t.integer("dupack_threshold", 1, 1000, ck) {
        c.dupack_threshold = v as u32;
    }
    // Seconds, possibly negative: the receiver's clock is this much ahead of the sender's.
    if t.has("receiver_clock_offset") {
        let l = line_of(&mut t, "receiver_clock_offset");
        if let Some(v) = t.number("receiver_clock_offset", ck) {
            if v.abs() > MAX_CLOCK_OFFSET_S {
                let msg =
                    format!("{v} is out of range [-{MAX_CLOCK_OFFSET_S:e}, {MAX_CLOCK_OFFSET_S:e}] seconds");
                ck.error(l, &t.key_path("receiver_clock_offset"), msg);
            } else {
                c.receiver_clock_offset = (v * 1e9).round() as i64;
            }
        }
    }
    if let Some(v) = t.boolean("pacing", ck) {
        c.pacing = v;
    }
    if let Some(v) = t.boolean("syn", ck) {
        c.syn = Some(v);
    }
    if let Some(v) = choice(&mut t, "rto", &[("ns2", RtoKind::Ns2), ("rfc6298", RtoKind::Rfc6298)], ck) {
        c.rto = v;
    }
    if let Some(v) = t.duration("rtt_tick", ck) {
        if v == 0 {
            let l = line_of(&mut t, "rtt_tick");
            ck.error(l, &t.key_path("rtt_tick"), "must be greater than zero");
        } else {
            c.rtt_tick = v;
        }
    }
    if let Some(v) = t.boolean("limited_transmit", ck) {
        c.limited_transmit = v;
    }
    let timers =
        [("first_partial", PartialTimer::FirstPartial), ("every_partial", PartialTimer::EveryPartial)];
    if let Some(v) = choice(&mut t, "newreno_timer", &timers, ck) {
        c.newreno_timer = v;
    }
    if let Some(v) = t.integer("recovery_maxburst", 0, 1_000_000, ck) {
        c.recovery_maxburst = v as u32;
    }
    let guards = [("ns2", RecoverGuard::Ns2), ("rfc6582", RecoverGuard::Rfc6582)];
    if let Some(v) = choice(&mut t, "recover_guard", &guards, ck) {
        c.recover_guard = v;
    }
    if let Some(v) = t.boolean("sack", ck) {
        c.sack = Some(v);
    }
    if let Some(v) = t.boolean("partial_ack", ck) {
        c.partial_ack = v;
    }
    if let Some(v) = t.boolean("ecn", ck) {
        c.ecn = v;
    }
    let reason = if path.starts_with("flows[") {
        "is not a transport setting: trace is a key of the flow itself (flows[].trace)".to_string()
    } else {
        format!("is not a transport setting: {TRACES_ARE_SET}")
    };
    misplaced_trace(&mut t, ck, &reason);
    t.finish(ck, TRANSPORT_KEYS);
    c
}

/// `min_rto`, `max_rto` and `initial_rto`: each above zero, and min_rto at most max_rto.
fn rto_bounds(t: &mut Table, c: &mut TransportConfig, ck: &mut Checker) {
    if let Some(v) = t.duration("min_rto", ck) {
        c.min_rto = v;
    }
    if let Some(v) = t.duration("max_rto", ck) {
        c.max_rto = v;
    }
    if let Some(v) = t.duration("initial_rto", ck) {
        c.initial_rto = v;
    }
    for (k, v) in [("min_rto", c.min_rto), ("initial_rto", c.initial_rto), ("max_rto", c.max_rto)] {
        if t.has(k) && v == 0 {
            let l = line_of(t, k);
            ck.error(l, &t.key_path(k), "must be greater than zero");
        }
    }
    if c.min_rto > c.max_rto {
        // Name the key this table sets (a flow may override only one of the two).
        let (key, msg) = if t.has("max_rto") {
            ("max_rto", format!("must not be below min_rto ({} s)", secs(c.min_rto)))
        } else {
            ("min_rto", format!("must not be above max_rto ({} s)", secs(c.max_rto)))
        };
        let l = line_of(t, key);
        ck.error(l, &t.key_path(key), msg);
    }
}
