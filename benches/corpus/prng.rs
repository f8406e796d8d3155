//! A seeded pseudo-random generator, so that every corpus is reproducible
//! byte for byte from its seed without pulling in the `rand` crate.

/// SplitMix64: tiny, fast, and statistically good enough to vary text.
///
/// Quality only has to hide obvious repetition from the scanner's branch
/// predictor; what matters is that a seed always yields the same corpus.
#[derive(Debug, Clone)]
pub struct Prng {
    state: u64,
}

impl Prng {
    /// A generator whose whole output is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        Prng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`; `0` when `n` is zero, so callers need no guard.
    pub fn below(&mut self, n: usize) -> usize {
        // Multiply-shift instead of `%`: unbiased enough and avoids a division.
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high.saturating_sub(low) + 1)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One item of a non-empty table, chosen uniformly.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_gives_the_same_sequence() {
        let mut a = Prng::new(7);
        let mut b = Prng::new(7);
        let first: Vec<u64> = (0..16).map(|_| a.next_u64()).collect();
        let second: Vec<u64> = (0..16).map(|_| b.next_u64()).collect();
        assert_eq!(first, second);
        assert_ne!(Prng::new(8).next_u64(), first[0]);
    }

    #[test]
    fn below_and_between_stay_in_range_and_reach_both_ends() {
        let mut rng = Prng::new(1);
        let draws: Vec<usize> = (0..2_000).map(|_| rng.between(3, 6)).collect();
        assert!(draws.iter().all(|d| (3..=6).contains(d)));
        assert!(draws.contains(&3) && draws.contains(&6));
        assert_eq!(rng.below(0), 0);
    }
}
