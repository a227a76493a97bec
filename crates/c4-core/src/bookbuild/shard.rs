//! [`Shard`]: which part of the deepest positions one build solves.

/// Which part of the deepest positions one build solves: those whose key hashes to `index`
/// modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 0-based.
    pub index: u32,
    /// At least 1.
    pub count: u32,
}

impl Shard {
    /// The whole set.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether the position with canonical key `key` belongs to this shard.
    pub fn owns(&self, key: u64) -> bool {
        mix(key) % u64::from(self.count) == u64::from(self.index)
    }
}

/// A 64-bit mixer (splitmix64's finaliser), so that shards get even shares of every region of
/// the tree.
pub(super) fn mix(key: u64) -> u64 {
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
