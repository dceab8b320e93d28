//! Writing a time series' cache lines past the caches. A sample appends one 64-byte line to each tile;
//! with many series (1125 tiles when a thousand flows' series were tiles) those lines are far apart in
//! memory, none of them in any cache. An ordinary store first reads each line from memory only to
//! overwrite all of it, and evicts the simulation's own state to make room; a non-temporal store writes
//! the whole line straight to memory. The values are read again only after the run.

/// Writes `src` over `dst`, which must be 64-byte aligned for the fast path to apply (otherwise, and
/// off x86-64, an ordinary copy).
#[inline]
pub fn store_line(dst: &mut [f64; 8], src: &[f64; 8]) {
    #[cfg(target_arch = "x86_64")]
    if (dst.as_ptr() as usize).is_multiple_of(64) {
        use std::arch::x86_64::{_mm_loadu_pd, _mm_stream_pd};
        let (d, s) = (dst.as_mut_ptr(), src.as_ptr());
        // SAFETY: SSE2 is part of x86-64; both pointers cover eight f64 (the array types say so), `d` is
        // 16-byte aligned as `_mm_stream_pd` requires (64 even), and `src` is read unaligned.
        unsafe {
            for k in (0..8).step_by(2) {
                _mm_stream_pd(d.add(k), _mm_loadu_pd(s.add(k)));
            }
        }
        return;
    }
    *dst = *src;
}

/// Orders the non-temporal stores before everything after it (another thread reading the series).
#[inline]
pub fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of x86-64; a fence has no other effect.
    unsafe {
        std::arch::x86_64::_mm_sfence();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_the_line_aligned_or_not() {
        let src: [f64; 8] = std::array::from_fn(|k| k as f64 + 0.5);
        let mut buf = [0.0; 24];
        for start in 0..8 {
            let dst: &mut [f64; 8] = (&mut buf[start..start + 8]).try_into().unwrap();
            store_line(dst, &src);
            fence();
            assert_eq!(buf[start..start + 8], src);
        }
    }
}
