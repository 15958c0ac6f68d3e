//! The set of every position seen, for the hash-set search over directed moves (which
//! can lead back to any depth), cut into shards by hash bits so that a layer's new keys
//! go in from every thread at once, each thread owning whole shards: no lock, and no
//! single thread inserting a whole layer.

use crate::keys::{KeyHasher, KeySet};
use rayon::prelude::*;
use std::hash::{BuildHasher, BuildHasherDefault};

/// log2 of the number of shards: enough to keep every thread busy.
const SHARD_BITS: u32 = 6;

/// A set of packed keys in `2^SHARD_BITS` hash sets.
pub(crate) struct ShardedSet {
    shards: Vec<KeySet>,
}

impl ShardedSet {
    pub(crate) fn new() -> ShardedSet {
        ShardedSet {
            shards: (0..1 << SHARD_BITS).map(|_| KeySet::default()).collect(),
        }
    }

    /// The shard of `k`: middle bits of its hash, since the hash set itself uses the
    /// lowest bits (bucket) and the highest seven (tag).
    #[inline]
    fn shard(k: u128) -> usize {
        let h = BuildHasherDefault::<KeyHasher>::default().hash_one(k);
        (h >> 32) as usize & ((1 << SHARD_BITS) - 1)
    }

    #[inline]
    pub(crate) fn contains(&self, k: u128) -> bool {
        self.shards[Self::shard(k)].contains(&k)
    }

    /// Inserts `keys`, in parallel over the shards (each scans the keys for its own).
    pub(crate) fn extend(&mut self, keys: &[u128]) {
        self.shards.par_iter_mut().enumerate().for_each(|(i, set)| {
            set.extend(keys.iter().copied().filter(|&k| Self::shard(k) == i));
        });
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.shards.iter().map(|s| s.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_was_inserted_and_nothing_else() {
        let mut s = ShardedSet::new();
        let keys: Vec<u128> = (0..10_000u128)
            .map(|i| i * 0x1_0000_0001 + (i << 70))
            .collect();
        s.extend(&keys[..5_000]);
        s.extend(&keys[2_500..7_500]);
        assert_eq!(s.len(), 7_500);
        assert!(keys[..7_500].iter().all(|&k| s.contains(k)));
        assert!(keys[7_500..].iter().all(|&k| !s.contains(k)));
        // The keys spread over many shards, not one.
        let used = s.shards.iter().filter(|x| !x.is_empty()).count();
        assert!(used > 1 << (SHARD_BITS - 1), "{used}");
    }
}
