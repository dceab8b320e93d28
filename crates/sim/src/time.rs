//! Simulated time: integer nanoseconds, so event order never depends on floating-point rounding.

/// A point in simulated time or a duration, in nanoseconds.
pub type Time = u64;

pub const NS_PER_SEC: u64 = 1_000_000_000;

/// Seconds as a float, for reporting and for the algorithms' arithmetic.
#[inline]
pub fn secs(t: Time) -> f64 {
    t as f64 / NS_PER_SEC as f64
}

/// Nanoseconds from seconds, rounded to the nearest nanosecond and saturating at the ends of the range.
#[inline]
pub fn from_secs(s: f64) -> Time {
    if s <= 0.0 || s.is_nan() {
        0
    } else if s >= u64::MAX as f64 / NS_PER_SEC as f64 {
        u64::MAX
    } else {
        (s * NS_PER_SEC as f64).round() as Time
    }
}

/// Time to serialise `bytes` at `bps`, rounded up so that a link never sends faster than its rate.
#[inline]
pub fn serialisation(bytes: u32, bps: u64) -> Time {
    let bits = bytes as u128 * 8 * NS_PER_SEC as u128;
    bits.div_ceil(bps as u128).min(u64::MAX as u128) as Time
}
