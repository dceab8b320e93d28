//! Simulated time: integer nanoseconds, so event order never depends on floating-point rounding.

/// A point in simulated time or a duration, in nanoseconds.
pub type Time = u64;

pub const NS_PER_SEC: u64 = 1_000_000_000;

/// Seconds as a float, for reporting and for the algorithms' arithmetic.
#[inline]
pub fn secs(t: Time) -> f64 {
    as_f64(t) / NS_PER_SEC as f64
}

/// `x as f64`, in one instruction for the usual values: x86-64 converts signed integers directly and
/// unsigned ones in several, and below 2^63 both give the same value. The other values take a call the
/// compiler cannot see through: with `x as f64` inline it merges both arms back into the unsigned
/// conversion.
#[inline]
pub fn as_f64(x: u64) -> f64 {
    if x < 1 << 63 {
        x as i64 as f64
    } else {
        big_as_f64(x)
    }
}

/// `as_f64` of a time within a run, or of a span between two: runs end long before 2^63 ns (a scenario's
/// duration is at most 10^7 s, about 2^53 ns), so the signed conversion is exact and needs no test of the
/// range. On the per-packet path it spares `as_f64` its test and branch, three times a packet. Debug
/// builds check the range.
#[inline(always)]
pub fn run_time_f64(t: Time) -> f64 {
    debug_assert!(t < 1 << 63, "a time within a run is below 2^63 ns");
    t as i64 as f64
}

#[cold]
#[inline(never)]
fn big_as_f64(x: u64) -> f64 {
    x as f64
}

/// Nanoseconds from seconds, rounded to the nearest nanosecond and saturating at the ends of the range.
/// `round_ns` rather than `round`: FAST converts its average RTT on every ACK, and libm's `round` was a
/// call of about 20 instructions each time.
#[inline]
pub fn from_secs(s: f64) -> Time {
    if s <= 0.0 || s.is_nan() {
        0
    } else if s >= u64::MAX as f64 / NS_PER_SEC as f64 {
        u64::MAX
    } else {
        round_ns(s * NS_PER_SEC as f64)
    }
}

/// `x.round() as Time` for a non-negative, finite `x`, without the libm call that `round` is on x86-64
/// without SSE4.1. For 1 <= x < 2^52 adding one half is exact, so truncating it rounds half away from
/// zero exactly as `round` does; other values take `round` itself, so the result is always identical.
#[inline]
pub fn round_ns(x: f64) -> Time {
    if (1.0..4_503_599_627_370_496.0).contains(&x) {
        (x + 0.5) as i64 as Time
    } else {
        x.round() as Time
    }
}

/// Time to serialise `bytes` at `bps`, rounded up so that a link never sends faster than its rate.
#[inline]
pub fn serialisation(bytes: u32, bps: u64) -> Time {
    // bytes * 8e9 fits in a u64 below 2^31 bytes (far above any packet size); the 64-bit division is
    // much cheaper than the 128-bit one and gives the same result.
    if bytes < 1 << 31 {
        return (bytes as u64 * 8 * NS_PER_SEC).div_ceil(bps);
    }
    let bits = bytes as u128 * 8 * NS_PER_SEC as u128;
    bits.div_ceil(bps as u128).min(u64::MAX as u128) as Time
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialisation_rounds_up_and_matches_the_wide_formula() {
        assert_eq!(serialisation(1500, 1_000_000_000), 12_000);
        assert_eq!(serialisation(1, 3), 2_666_666_667);
        for (bytes, bps) in [(1500, 7), ((1 << 31) - 1, 1), ((1 << 31) - 1, 999_999_937), (40, u64::MAX)] {
            let wide = (bytes as u128 * 8 * NS_PER_SEC as u128).div_ceil(bps as u128) as Time;
            assert_eq!(serialisation(bytes, bps), wide);
        }
        assert_eq!(serialisation(u32::MAX, 1), u64::MAX);
    }

    #[test]
    fn round_ns_is_round() {
        let edge =
            [0.0, 0.49999999999999994, 0.5, 1.0, 1.5, 2.5, 2.4999999999999996, 1e9 + 0.5, 4503599627370495.5];
        let big = [4503599627370496.0, 9.0e18, 1.8e19, 1e300];
        for x in
            edge.into_iter().chain(big).chain((0..10_000).map(|i| i as f64 * 0.37 + 1e7 * (i % 7) as f64))
        {
            assert_eq!(round_ns(x), x.round() as Time, "{x}");
        }
    }
}
