//! A tiny seeded PRNG (splitmix64) and a stable string hash (FNV-1a), so the generator needs
//! no `rand`/`getrandom` and gives the same numbers on every platform.

/// 64-bit FNV-1a hash of `bytes`: stable across platforms, releases and runs.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Hash of several parts, separated so that `("ab","c")` and `("a","bc")` differ.
pub fn hash_parts(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0xff)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// FNV-1a as a [`std::hash::Hasher`]: the generator's maps hash short strings and numbers
/// it made itself, where SipHash's defence against chosen keys buys nothing and costs time.
#[derive(Clone, Copy, Debug, Default)]
pub struct FnvBuild;

/// The hasher of [`FnvBuild`].
pub struct FnvHasher(u64);

impl std::hash::BuildHasher for FnvBuild {
    type Hasher = FnvHasher;
    fn build_hasher(&self) -> FnvHasher {
        FnvHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for FnvHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        // Keys that are hashes already: one multiply spreads them.
        self.0 = (self.0 ^ n).wrapping_mul(0x0100_0000_01b3);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// splitmix64's finalizer: 64 well-mixed bits of `x` (a stateless hash of a number).
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Seeded splitmix64 generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// A generator seeded from a hash of `parts`.
    pub fn from_parts(parts: &[&str]) -> Rng {
        Rng::new(hash_parts(parts))
    }

    /// A child generator, independent of later draws from `self`.
    pub fn fork(&mut self, salt: u64) -> Rng {
        Rng::new(self.next_u64() ^ salt.wrapping_mul(0xd6e8_feb8_6659_fd93))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let z = self.0;
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(z)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        lo + self.below((hi - lo) as u64 + 1) as i64
    }

    /// Uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform float in `[lo, hi)`.
    pub fn float(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A log-uniform integer in `lo..=hi` (both ≥ 1): small values common, large ones rare.
    pub fn log_range(&mut self, lo: i64, hi: i64) -> i64 {
        let (l, h) = ((lo.max(1) as f64).ln(), (hi.max(1) as f64).ln());
        let v = self.float(l, h).exp().round() as i64;
        v.clamp(lo, hi)
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// Shuffles a slice in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// `n` lower-case alphanumeric characters.
    pub fn alnum(&mut self, n: usize) -> String {
        const A: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        (0..n).map(|_| *self.pick(A) as char).collect()
    }

    /// `n` characters of the URL-safe base64 alphabet.
    pub fn b64(&mut self, n: usize) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        (0..n).map(|_| *self.pick(A) as char).collect()
    }

    /// `n` lower-case hex digits.
    pub fn hex(&mut self, n: usize) -> String {
        const A: &[u8] = b"0123456789abcdef";
        (0..n).map(|_| *self.pick(A) as char).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_and_in_range() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..1000 {
            let x = a.range(-3, 9);
            assert_eq!(x, b.range(-3, 9));
            assert!((-3..=9).contains(&x));
            let f = a.unit();
            b.unit();
            assert!((0.0..1.0).contains(&f));
            let l = a.log_range(200, 20_000);
            b.log_range(200, 20_000);
            assert!((200..=20_000).contains(&l));
        }
        assert_ne!(hash_parts(&["ab", "c"]), hash_parts(&["a", "bc"]));
    }
}
