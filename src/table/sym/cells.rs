//! Entries packed two, four or eight bits to a 64-bit word, lowered atomically (or, by a
//! worker that alone writes a word, with a plain read and write), found and counted a
//! word at a time: the memory a symmetry-reduced table is built in and then stored from.
//! Two-bit entries hold codes whose depths the build moves along ([`Cells::shift_down`]).

use crate::table::prune::Format;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Entries packed into 64-bit words, `bits` (2, 4 or 8) each, the first entry lowest.
pub struct Cells {
    words: Vec<AtomicU64>,
    bits: u32,
    /// log2 of `bits`, and of the entries per word: the hot paths shift, never divide.
    bits_log: u32,
    per_log: u32,
    len: u64,
    /// One bit at the bottom of every entry of a word.
    low: u64,
}

impl Cells {
    /// `len` entries, all unset.
    pub fn new(len: u64, format: Format) -> Cells {
        let bits: u32 = match format {
            Format::Crumbs => 2,
            Format::Nibbles => 4,
            Format::Bytes => 8,
        };
        let bits_log = bits.trailing_zeros();
        let per_log = 6 - bits_log;
        // Whole 32-byte blocks of words, so that the entries can be stored as one part of
        // a cache file followed by another (a two-bit table's fallback).
        let words = (0..len.div_ceil(1 << per_log).next_multiple_of(4))
            .into_par_iter()
            .map(|_| AtomicU64::new(u64::MAX))
            .collect();
        Cells {
            words,
            bits,
            bits_log,
            per_log,
            len,
            low: u64::MAX / ((1u64 << bits) - 1),
        }
    }

    #[inline]
    pub fn per(&self) -> u64 {
        1 << self.per_log
    }

    /// The word of entry `i` and the entry's shift within it.
    #[inline]
    fn locate(&self, i: u64) -> (usize, u32) {
        (
            (i >> self.per_log) as usize,
            ((i & (self.per() - 1)) as u32) << self.bits_log,
        )
    }

    fn mask(&self) -> u64 {
        (1u64 << self.bits) - 1
    }

    /// The value of an entry never set (all its bits set).
    pub fn unset(&self) -> u8 {
        self.mask() as u8
    }

    #[inline]
    pub fn get(&self, i: u64) -> u8 {
        let (w, shift) = self.locate(i);
        ((self.words[w].load(Relaxed) >> shift) & self.mask()) as u8
    }

    /// Lowers entry `i` to `v`; whether it was above.
    #[inline]
    pub fn lower(&self, i: u64, v: u8) -> bool {
        let (w, shift) = self.locate(i);
        let word = &self.words[w];
        let mask = self.mask() << shift;
        let mut cur = word.load(Relaxed);
        loop {
            if ((cur & mask) >> shift) as u8 <= v {
                return false;
            }
            let new = (cur & !mask) | ((v as u64) << shift);
            match word.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
                Ok(_) => return true,
                Err(now) => cur = now,
            }
        }
    }

    /// [`Cells::lower`] for an entry whose word no other thread writes during the pass
    /// (see [`Space::forward`]): a plain read and write. A locked compare-and-swap per
    /// entry would serialise the cache misses of the scattered writes.
    #[inline]
    pub fn lower_owned(&self, i: u64, v: u8) -> bool {
        let (w, shift) = self.locate(i);
        let word = &self.words[w];
        let mask = self.mask() << shift;
        let cur = word.load(Relaxed);
        if ((cur & mask) >> shift) as u8 <= v {
            return false;
        }
        word.store((cur & !mask) | ((v as u64) << shift), Relaxed);
        true
    }

    /// One bit per entry of `w` (the entry's lowest bit) for the entries equal to `v`.
    #[inline]
    fn equal_bits(&self, w: u64, v: u8) -> u64 {
        let mut y = w ^ (self.low * v as u64);
        // Fold every bit of an entry onto its lowest bit (bits from the next entry
        // land above it and are masked off).
        if self.bits == 8 {
            y |= y >> 4;
        }
        if self.bits >= 4 {
            y |= y >> 2;
        }
        y |= y >> 1;
        !y & self.low
    }

    /// Reads one word of every cache line of entries `start..end`, all at once, so that
    /// the lines load in parallel instead of one miss at a time as scattered lookups
    /// reach them.
    #[inline]
    pub fn warm(&self, start: u64, end: u64) -> u64 {
        let (a, b) = (
            start >> self.per_log,
            (end.max(start + 1) - 1) >> self.per_log,
        );
        let mut x = 0u64;
        // Eight words to a 64-byte line.
        for w in (a..=b).step_by(8) {
            x ^= self.words[w as usize].load(Relaxed);
        }
        x ^= self.words[b as usize].load(Relaxed);
        std::hint::black_box(x)
    }

    /// Calls `f` with the index of every entry in `start..end` equal to `v`.
    #[inline]
    pub fn for_each_equal(&self, start: u64, end: u64, v: u8, mut f: impl FnMut(u64)) {
        if start >= end {
            return;
        }
        let per = self.per();
        for w in start >> self.per_log..=(end - 1) >> self.per_log {
            let mut bits = self.equal_bits(self.words[w as usize].load(Relaxed), v);
            let base = w << self.per_log;
            if base < start {
                bits &= u64::MAX << (((start - base) as u32) << self.bits_log);
            }
            if base + per > end {
                let keep = ((end - base) as u32) << self.bits_log;
                bits &= (1u64 << keep) - 1;
            }
            while bits != 0 {
                let b = bits.trailing_zeros();
                f(base + (b >> self.bits_log) as u64);
                bits &= bits - 1;
            }
        }
    }

    /// How many entries equal `v` (entries past `len` excluded).
    pub fn count(&self, v: u8) -> u64 {
        let total: u64 = self
            .words
            .par_iter()
            .map(|w| self.equal_bits(w.load(Relaxed), v).count_ones() as u64)
            .sum();
        let pad = self.words.len() as u64 * self.per() - self.len;
        if v == self.unset() {
            total.saturating_sub(pad)
        } else {
            total
        }
    }

    /// Sets every unset entry to `v`.
    pub fn fill_unset(&self, v: u8) {
        let unset = self.unset();
        self.words.par_iter().for_each(|w| {
            let x = w.load(Relaxed);
            let full = self.equal_bits(x, unset) * self.mask();
            w.store((x & !full) | (full & (self.low * v as u64)), Relaxed);
        });
    }

    /// Two-bit entries only: codes 1 and 2 become 0 and 1 (0 and 3 stay), so that a
    /// layer's frontier (1) joins the depths below it (0) and the layer it reached (2)
    /// becomes the next frontier.
    pub fn shift_down(&self) {
        debug_assert_eq!(self.bits, 2);
        self.words.par_iter().for_each(|w| {
            let x = w.load(Relaxed);
            let lo = x & self.low;
            let hi = (x >> 1) & self.low;
            w.store(((hi & lo) << 1) | hi, Relaxed);
        });
    }

    /// Two-bit entries only: for every group of 16 entries (half a word; the low half
    /// first) whose nibble in `fallback` (one byte per word) is still 15, sets it to
    /// `depth` (at most 14) when some entry of the group holds `code`. Swept after each
    /// layer, a group's nibble is the depth of its first entry reached: the least depth
    /// among its entries.
    pub fn mark_groups(&self, fallback: &mut [u8], code: u8, depth: u8) {
        debug_assert_eq!(self.bits, 2);
        let depth = depth.min(14);
        fallback
            .par_iter_mut()
            .zip(self.words.par_iter())
            .for_each(|(f, w)| {
                let bits = self.equal_bits(w.load(Relaxed), code);
                if bits & 0xFFFF_FFFF != 0 && *f & 15 == 15 {
                    *f = (*f & 0xF0) | depth;
                }
                if bits >> 32 != 0 && *f >> 4 == 15 {
                    *f = (*f & 0x0F) | (depth << 4);
                }
            });
    }

    /// The number of words (one fallback byte each for two-bit entries).
    pub fn words(&self) -> usize {
        self.words.len()
    }

    /// The words, little-endian, for [`crate::table::prune::Entries::Words`].
    pub fn into_words(self) -> Vec<u64> {
        self.words
            .into_iter()
            .map(|w| w.into_inner().to_le())
            .collect()
    }

    /// Bytes the entries take when stored.
    pub fn stored_len(&self) -> usize {
        (self.len * self.bits as u64).div_ceil(8) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lowering, reading, finding and counting entries agree with a plain array, in
    /// both widths, over ranges that start and end inside words.
    #[test]
    fn cells_behave_like_an_array() {
        for format in [Format::Crumbs, Format::Nibbles, Format::Bytes] {
            let len = 101u64;
            let cells = Cells::new(len, format);
            let unset = cells.unset();
            let mut plain = vec![unset; len as usize];
            for i in 0..len {
                let v = ((i * 7) % 5) as u8 % unset;
                if i % 3 != 0 {
                    assert!(cells.lower(i, v));
                    plain[i as usize] = v;
                }
            }
            assert!(!cells.lower(4, 4), "never raised");
            for i in 0..len {
                assert_eq!(cells.get(i), plain[i as usize], "entry {i}");
            }
            for v in [0u8, 3, unset] {
                let want = plain.iter().filter(|&&x| x == v).count() as u64;
                assert_eq!(cells.count(v), want, "{format:?} value {v}");
                for (start, end) in [(0, len), (3, 17), (17, 18), (5, 5), (33, 100)] {
                    let mut got = Vec::new();
                    cells.for_each_equal(start, end, v, |i| got.push(i));
                    let want: Vec<u64> = (start..end).filter(|&i| plain[i as usize] == v).collect();
                    assert_eq!(got, want, "{format:?} {v} in {start}..{end}");
                }
            }
            cells.fill_unset(unset - 1);
            assert_eq!(cells.count(unset), 0);
            let stored = cells.stored_len();
            let words = cells.into_words();
            let bytes: &[u8] = &bytemuck::cast_slice(&words)[..stored];
            let per_byte = match format {
                Format::Crumbs => 4,
                Format::Nibbles => 2,
                Format::Bytes => 1,
            };
            let bits = 8 / per_byte;
            for (i, &p) in plain.iter().enumerate() {
                let b = bytes[i / per_byte] as u32;
                let got = (b >> ((i % per_byte) * bits)) & ((1 << bits) - 1);
                assert_eq!(got as u8, if p == unset { unset - 1 } else { p });
            }
        }
    }

    /// Shifting two-bit codes down: 1 to 0, 2 to 1, 0 and 3 kept.
    #[test]
    fn two_bit_codes_shift_down() {
        let len = 77u64;
        let cells = Cells::new(len, Format::Crumbs);
        for i in 0..len {
            cells.lower(i, (i % 4) as u8);
        }
        cells.shift_down();
        for i in 0..len {
            let want = [0u8, 0, 1, 3][(i % 4) as usize];
            assert_eq!(cells.get(i), want, "entry {i}");
        }
    }
}
