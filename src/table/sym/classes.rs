//! The symmetry classes of a major group of components: for every value of the group
//! (its product index, the "raw" value), its class and a symmetry that carries it onto
//! the class's representative; per class, the representative and the symmetries that
//! fix it (its stabiliser).
//!
//! Classes are found by walking raw values in increasing order: the first value not yet
//! seen is a representative (so a representative is the smallest of its class), and its
//! conjugates by every symmetry of the subgroup are its class. If `S` takes the
//! representative `r` to `x`, then `S⁻¹` takes `x` back to `r`, which is what a lookup
//! needs.

use super::{split, Conjugator};
use crate::progress::Progress;
use crate::puzzle::Puzzle;
use crate::symmetry::SymmetryGroup;
use std::collections::HashMap;

/// The marker of a raw value not yet given a class while building.
const UNSET: u32 = u32::MAX;

/// The classes of a major group under a subgroup of symmetries.
pub struct Classes {
    /// The subgroup, as indices into the puzzle's [`SymmetryGroup`]; the identity
    /// first.
    pub syms: Vec<usize>,
    /// Bits of a packed entry that hold the symmetry's index in `syms`.
    pub shift: u32,
    /// Per raw value: `class << shift | s`, where `syms[s]` carries the value onto the
    /// class's representative.
    /// In huge pages when large ([`crate::storage::file::huge_words`]): a lookup reads it
    /// at random.
    pub raw: Box<dyn std::ops::Deref<Target = [u32]> + Send + Sync>,
    /// Per class: its representative (a raw value).
    pub reps: Vec<u32>,
    /// Per class: an index into `stab_sets` (0: the identity alone).
    pub stab: Vec<u32>,
    /// Distinct stabilisers, as indices into `syms` (the identity left out).
    pub stab_sets: Vec<Vec<u8>>,
}

/// Why the classes could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClassError {
    #[error("{0} values are too many for a class table")]
    TooLarge(u64),
    #[error("{0} symmetries are too many for a class table")]
    TooManySymmetries(usize),
}

/// Bits needed to hold an index below `n`.
pub fn shift_for(n: usize) -> u32 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1)
}

impl Classes {
    /// The number of classes.
    pub fn count(&self) -> u64 {
        self.reps.len() as u64
    }

    /// Starts reading the entry of raw value `raw`, so that an [`Self::of`] of it soon
    /// after finds it in the cache ([`crate::table::prefetch`]).
    #[inline]
    pub fn prefetch(&self, raw: u64) {
        if let Some(p) = self.raw.get(raw as usize) {
            crate::table::prefetch::read_soon(p);
        }
    }

    /// The class of raw value `raw` and the index (into `syms`) of a symmetry that
    /// carries it onto the representative.
    #[inline]
    pub fn of(&self, raw: u64) -> (u32, usize) {
        let p = self.raw[raw as usize];
        (p >> self.shift, (p & ((1 << self.shift) - 1)) as usize)
    }

    /// The symmetries (indices into `syms`, the identity left out) that fix class
    /// `class`'s representative.
    #[inline]
    pub fn stabiliser(&self, class: u32) -> &[u8] {
        &self.stab_sets[self.stab[class as usize] as usize]
    }

    /// Finds the classes of the product of `conj`'s components (value counts `sizes`)
    /// under the symmetries `syms` of `group` (each accepted by [`super::closed`]; the
    /// identity first; closed under products and inverses). `progress` is told of the
    /// values visited (the caller starts the phase with their count as its total).
    pub fn build(
        puzzle: &Puzzle,
        group: &SymmetryGroup,
        syms: &[usize],
        conj: &Conjugator,
        sizes: &[u64],
        progress: &dyn Progress,
    ) -> Result<Classes, ClassError> {
        let n: u64 = sizes.iter().product();
        if n >= UNSET as u64 {
            return Err(ClassError::TooLarge(n));
        }
        if syms.len() > 255 {
            return Err(ClassError::TooManySymmetries(syms.len()));
        }
        let shift = shift_for(syms.len());
        let pos: HashMap<usize, usize> = syms.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        let inv: Vec<usize> = syms.iter().map(|&s| pos[&group.inverse(s)]).collect();
        let elements = group.elements();
        let mut raw = vec![UNSET; n as usize];
        let mut reps = Vec::new();
        let mut stab = Vec::new();
        let mut stab_sets: Vec<Vec<u8>> = vec![Vec::new()];
        let mut stab_index: HashMap<Vec<u8>, u32> = HashMap::new();
        stab_index.insert(Vec::new(), 0);
        let mut sc = conj.scratch(puzzle);
        let k = sizes.len();
        let (mut vals, mut out) = (vec![0u32; k], vec![0u32; k]);
        let strides = crate::table::prune::strides_of(sizes);
        // The pass visits every value once; progress is told in steps of a block of
        // values so that the bar (with its time left) costs nothing measurable.
        const STEP: u64 = 1 << 16;
        for r in 0..n {
            if r % STEP == STEP - 1 {
                progress.inc(STEP);
            }
            if raw[r as usize] != UNSET {
                continue;
            }
            let class = reps.len() as u64;
            if class >= 1 << (32 - shift) {
                return Err(ClassError::TooLarge(n));
            }
            reps.push(r as u32);
            raw[r as usize] = (class as u32) << shift;
            split(r, sizes, &mut vals);
            let mut fixed = Vec::new();
            for (i, &s) in syms.iter().enumerate().skip(1) {
                conj.conjugate(&elements[s], &vals, &mut sc, &mut out);
                let x: u64 = out
                    .iter()
                    .zip(&strides)
                    .map(|(&v, &st)| v as u64 * st)
                    .sum();
                if x == r {
                    fixed.push(i as u8);
                } else if raw[x as usize] == UNSET {
                    raw[x as usize] = (class as u32) << shift | inv[i] as u32;
                }
            }
            let next = stab_sets.len() as u32;
            let id = *stab_index.entry(fixed.clone()).or_insert(next);
            if id == next {
                stab_sets.push(fixed);
            }
            stab.push(id);
        }
        Ok(Classes {
            syms: syms.to_vec(),
            shift,
            raw: crate::storage::file::huge_words(raw),
            reps,
            stab,
            stab_sets,
        })
    }

    /// The classes as bytes, for a cache file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut word = |v: u64| out.extend_from_slice(&v.to_le_bytes());
        word(self.raw.len() as u64);
        word(self.reps.len() as u64);
        word(self.stab_sets.len() as u64);
        word(self.shift as u64);
        for &r in self.raw.iter().chain(&self.reps).chain(&self.stab) {
            out.extend_from_slice(&r.to_le_bytes());
        }
        for s in &self.stab_sets {
            out.push(s.len() as u8);
            out.extend_from_slice(s);
        }
        out
    }

    /// Classes read back from [`Classes::to_bytes`], checked for shape against what
    /// they are for (`None` when they do not fit: the file is rebuilt).
    pub fn from_bytes(bytes: &[u8], syms: &[usize], raw_len: u64) -> Option<Classes> {
        let word = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(
                bytes.get(i * 8..i * 8 + 8)?.try_into().ok()?,
            ))
        };
        let (n, classes, nstab, shift) = (word(0)?, word(1)?, word(2)?, word(3)?);
        if n != raw_len || shift != shift_for(syms.len()) as u64 || classes > n || nstab > n + 1 {
            return None;
        }
        let words = |from: usize, count: usize| -> Option<Vec<u32>> {
            let b = bytes.get(from..from.checked_add(count.checked_mul(4)?)?)?;
            Some(
                b.chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                    .collect(),
            )
        };
        let mut at = 32;
        let raw = words(at, n as usize)?;
        at += n as usize * 4;
        let reps = words(at, classes as usize)?;
        at += classes as usize * 4;
        let stab = words(at, classes as usize)?;
        at += classes as usize * 4;
        let mut stab_sets = Vec::new();
        for _ in 0..nstab {
            let len = *bytes.get(at)? as usize;
            let set = bytes.get(at + 1..at + 1 + len)?.to_vec();
            if set.iter().any(|&s| s as usize >= syms.len()) {
                return None;
            }
            stab_sets.push(set);
            at += 1 + len;
        }
        let mask = (1u32 << shift) - 1;
        let ok = raw
            .iter()
            .all(|&p| ((p >> shift) as u64) < classes && ((p & mask) as usize) < syms.len())
            && reps.iter().all(|&r| (r as u64) < n)
            && stab.iter().all(|&s| (s as u64) < nstab);
        ok.then_some(Classes {
            syms: syms.to_vec(),
            shift: shift as u32,
            raw: crate::storage::file::huge_words(raw),
            reps,
            stab,
            stab_sets,
        })
    }
}
