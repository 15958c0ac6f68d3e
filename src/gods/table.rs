//! The breadth-first distance table: one small entry (2, 4 or 8 bits) per index, packed
//! into atomic 64-bit words so that rayon workers can mark positions concurrently.
//!
//! An entry holds a distance modulo `M = 2^bits - 1`, and the all-ones value means
//! "not reached yet". Only unseen entries are ever written, and every write of one
//! breadth-first step writes the same value, so a racing pair of writers leaves the
//! same result whichever wins; `try_set` reports which one did the transition, so each
//! position is counted exactly once.

use std::sync::atomic::{AtomicU64, Ordering};

/// A packed array of `len` entries of `bits` bits, all starting unseen.
pub(crate) struct PackedTable {
    words: Vec<AtomicU64>,
    bits: u32,
    /// log2 of the entries per word, so that locating an entry is a shift, not a
    /// division (this is the innermost operation of the search).
    per_log: u32,
    len: u64,
}

/// Entry widths the table supports: the width must divide 64.
pub(crate) const WIDTHS: [u32; 3] = [2, 4, 8];

impl PackedTable {
    /// Bytes needed for `len` entries of `bits` bits.
    pub(crate) fn bytes_for(len: u64, bits: u32) -> u64 {
        len.div_ceil(64 / bits as u64) * 8
    }

    /// A table of `len` unseen entries.
    pub(crate) fn new(len: u64, bits: u32) -> PackedTable {
        debug_assert!(WIDTHS.contains(&bits));
        let words = len.div_ceil(64 / bits as u64) as usize;
        PackedTable {
            words: (0..words).map(|_| AtomicU64::new(u64::MAX)).collect(),
            bits,
            per_log: (64 / bits).trailing_zeros(),
            len,
        }
    }

    /// The "unseen" value, which is also the modulus distances are kept in.
    #[inline]
    pub(crate) fn unseen(&self) -> u8 {
        ((1u32 << self.bits) - 1) as u8
    }

    /// Entries per word.
    #[inline]
    pub(crate) fn per_word(&self) -> u64 {
        1 << self.per_log
    }

    /// The word holding entry `i` and the entry's bit offset in it.
    #[inline]
    fn locate(&self, i: u64) -> (usize, u32) {
        let slot = (i & ((1 << self.per_log) - 1)) as u32;
        ((i >> self.per_log) as usize, slot * self.bits)
    }

    /// Number of words.
    pub(crate) fn word_count(&self) -> usize {
        self.words.len()
    }

    /// The raw word `w`.
    #[inline]
    pub(crate) fn word(&self, w: usize) -> u64 {
        self.words[w].load(Ordering::Relaxed)
    }

    /// The entry at `i`.
    #[inline]
    pub(crate) fn get(&self, i: u64) -> u8 {
        let (w, shift) = self.locate(i);
        let w = self.words[w].load(Ordering::Relaxed);
        ((w >> shift) & self.unseen() as u64) as u8
    }

    /// Sets entry `i` to `v` if it is unseen; true when this call made the change.
    #[inline]
    pub(crate) fn try_set(&self, i: u64, v: u8) -> bool {
        let (w, shift) = self.locate(i);
        let word = &self.words[w];
        let full = self.unseen() as u64;
        // A plain load first: most attempts hit positions that are already seen, and a
        // load costs far less than a locked read-modify-write.
        if (word.load(Ordering::Relaxed) >> shift) & full != full {
            return false;
        }
        let clear = (full ^ v as u64) << shift;
        let prev = word.fetch_and(!clear, Ordering::Relaxed);
        (prev >> shift) & full == full
    }

    /// Clears the given bits of word `w` (used by the backward step, which owns the
    /// words it writes): entries go from unseen to the value the cleared bits leave.
    #[inline]
    pub(crate) fn clear_bits(&self, w: usize, clear: u64) {
        self.words[w].fetch_and(!clear, Ordering::Relaxed);
    }

    /// One bit per entry of word `w` (at the entry's lowest bit) marking the entries that
    /// equal `v`; entries past the end never match.
    #[inline]
    pub(crate) fn matches(&self, w: usize, v: u8) -> u64 {
        let low = low_bits(self.bits);
        let x = self.word(w) ^ low.wrapping_mul(v as u64);
        let mut t = x;
        let mut s = 1;
        while s < self.bits {
            t |= t >> s;
            s <<= 1;
        }
        let mut m = !t & low;
        let per = self.per_word();
        let first = w as u64 * per;
        if first + per > self.len {
            let valid = self.len - first;
            m &= (1u64 << (valid * self.bits as u64)) - 1;
        }
        m
    }

    /// The words, for the specialised accessors below.
    #[inline]
    pub(crate) fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    /// The raw words, little-endian, for a checkpoint.
    pub(crate) fn word_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.words.len() * 8);
        for w in &self.words {
            out.extend_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
        }
        out
    }

    /// A table of `len` entries of `bits` bits read back from [`Self::word_bytes`];
    /// `None` when the byte count does not fit.
    pub(crate) fn from_word_bytes(len: u64, bits: u32, bytes: &[u8]) -> Option<PackedTable> {
        if !WIDTHS.contains(&bits) || bytes.len() as u64 != Self::bytes_for(len, bits) {
            return None;
        }
        Some(PackedTable {
            words: bytes
                .chunks_exact(8)
                .map(|c| AtomicU64::new(u64::from_le_bytes(c.try_into().expect("8 bytes"))))
                .collect(),
            bits,
            per_log: (64 / bits).trailing_zeros(),
            len,
        })
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Copies the entries out as bytes (one per entry), for saving.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        (0..self.len).map(|i| self.get(i)).collect()
    }
}

/// Accessors specialised to an entry width known at compile time: the search's
/// innermost loop uses these so that every shift and mask is a constant.
pub(crate) mod fixed {
    use std::sync::atomic::{AtomicU64, Ordering};

    /// log2 of the entries per word.
    #[inline]
    pub(crate) const fn per_log<const B: u32>() -> u32 {
        (64 / B).trailing_zeros()
    }

    /// The unseen value (all ones).
    #[inline]
    pub(crate) const fn unseen<const B: u32>() -> u64 {
        (1 << B) - 1
    }

    /// The word holding entry `i`.
    #[inline]
    pub(crate) fn word_of<const B: u32>(i: u64) -> usize {
        (i >> per_log::<B>()) as usize
    }

    /// The bit offset of entry `i` in its word.
    #[inline]
    pub(crate) fn shift_of<const B: u32>(i: u64) -> u32 {
        (i as u32 & ((1 << per_log::<B>()) - 1)) * B
    }

    /// Entry `i` read out of `word` (the word holding it).
    #[inline]
    pub(crate) fn entry<const B: u32>(word: u64, i: u64) -> u64 {
        (word >> shift_of::<B>(i)) & unseen::<B>()
    }

    /// Sets entry `i` to `v` if it is unseen; true when this call made the change. The
    /// caller has already seen the entry unseen in a plain load, so this goes straight
    /// to the locked operation.
    #[inline]
    pub(crate) fn try_set<const B: u32>(words: &[AtomicU64], i: u64, v: u64) -> bool {
        let word = &words[word_of::<B>(i)];
        let shift = shift_of::<B>(i);
        let prev = word.fetch_and(!((unseen::<B>() ^ v) << shift), Ordering::Relaxed);
        (prev >> shift) & unseen::<B>() == unseen::<B>()
    }
}

/// The word with the lowest bit of every `bits`-wide entry set.
#[inline]
pub(crate) fn low_bits(bits: u32) -> u64 {
    match bits {
        2 => 0x5555_5555_5555_5555,
        4 => 0x1111_1111_1111_1111,
        _ => 0x0101_0101_0101_0101,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_match_every_width() {
        for bits in WIDTHS {
            let t = PackedTable::new(100, bits);
            let unseen = t.unseen();
            assert!(t.try_set(3, 1));
            assert!(!t.try_set(3, 2), "a seen entry is never overwritten");
            assert!(t.try_set(99, 0));
            assert_eq!(t.get(3), 1);
            assert_eq!(t.get(99), 0);
            assert_eq!(t.get(4), unseen);
            let per = t.per_word();
            let mut found = vec![];
            for w in 0..t.word_count() {
                let mut m = t.matches(w, 1);
                while m != 0 {
                    found.push(w as u64 * per + (m.trailing_zeros() / bits) as u64);
                    m &= m - 1;
                }
            }
            assert_eq!(found, vec![3]);
            let unseen_count: u32 = (0..t.word_count())
                .map(|w| t.matches(w, unseen).count_ones())
                .sum();
            assert_eq!(unseen_count, 98, "padding past the end never matches");
            assert_eq!(PackedTable::bytes_for(100, bits), t.word_count() as u64 * 8);
        }
    }
}
