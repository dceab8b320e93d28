//! Deterministic random numbers: xoshiro256++ seeded through SplitMix64.
//!
//! Every source of randomness gets its own stream, derived from the scenario seed and a label that names
//! the source (a link direction's loss model, an on/off source), so adding a flow or a source never
//! shifts another one's random sequence.

#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a, used only to turn a stream label into a number; stable across platforms and releases.
fn label_hash(label: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in label.as_bytes() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// A fixed 64-bit hash of (`seed`, `label`, `salt`): ECMP's choice of next hop for the flow `label` at
/// node `salt` (`scenario/routes.rs`). Stable across platforms and releases, like the streams.
pub fn keyed_hash(seed: u64, label: &str, salt: u64) -> u64 {
    let mut st = seed ^ label_hash(label).rotate_left(17) ^ salt.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    splitmix64(&mut st);
    splitmix64(&mut st)
}

impl Rng {
    /// The stream named `label` of the run seeded with `seed`.
    pub fn stream(seed: u64, label: &str) -> Rng {
        let mut st = seed ^ label_hash(label).rotate_left(17);
        let s = [splitmix64(&mut st), splitmix64(&mut st), splitmix64(&mut st), splitmix64(&mut st)];
        Rng { s }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = (self.s[0].wrapping_add(self.s[3])).rotate_left(23).wrapping_add(self.s[0]);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1).
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    #[inline]
    pub fn bernoulli(&mut self, p: f64) -> bool {
        p > 0.0 && self.uniform() < p
    }

    /// Exponentially distributed with the given mean.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        // 1 - U is in (0, 1], so the logarithm is finite.
        -mean * (1.0 - self.uniform()).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let a: Vec<u64> = (0..4).map(|_| Rng::stream(1, "x").next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let mut x = Rng::stream(1, "x");
        let mut y = Rng::stream(1, "y");
        let mut z = Rng::stream(2, "x");
        let (vx, vy, vz) = (x.next_u64(), y.next_u64(), z.next_u64());
        assert_ne!(vx, vy);
        assert_ne!(vx, vz);
    }

    #[test]
    fn uniform_mean_is_one_half() {
        let mut r = Rng::stream(7, "mean");
        let n = 200_000;
        let m: f64 = (0..n).map(|_| r.uniform()).sum::<f64>() / n as f64;
        assert!((m - 0.5).abs() < 0.005, "mean {m}");
        let e: f64 = (0..n).map(|_| r.exponential(2.0)).sum::<f64>() / n as f64;
        assert!((e - 2.0).abs() < 0.05, "exp mean {e}");
    }
}
