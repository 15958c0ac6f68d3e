//! The hash-set breadth-first search, for puzzles the perfect index does not suit:
//! bandaged puzzles (`Block`), whose legal moves depend on where the blocks are, and
//! puzzles whose index space dwarfs the positions actually reachable.
//!
//! A position is flattened (every set's positions in definition order) and bit-packed
//! into a `u128` key: per position the label, then the orientation, in as few bits as
//! the set needs. Each breadth-first layer is a sorted vector of keys; a hash set of
//! every key seen so far rejects repeats. Expansion runs backwards from the solved
//! state exactly as in the indexed search: a position `x` joins layer `d + 1` when some
//! move `m` of cost `c`, legal at `x`, takes it to layer `d + 1 - c`. Legality is always
//! judged at `x`, the position the move is made from, so directed moves and blocks
//! give exact distances to solve.

use super::{GodError, Layers};
use crate::progress::Progress;
use crate::puzzle::{Puzzle, State, Transform};
use rayon::prelude::*;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A fast hasher for the packed keys (the keys are already well spread bit patterns;
/// this only has to fold 128 bits into 64 with good mixing).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn write_u128(&mut self, x: u128) {
        let (a, b) = (x as u64, (x >> 64) as u64);
        let h = (a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        self.0 = h ^ (h >> 32);
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01B3);
        }
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type KeySet = HashSet<u128, BuildHasherDefault<KeyHasher>>;

/// Bytes a key costs in the search: its slot in the hash set (with control byte and
/// spare capacity) and its place in a layer vector.
pub(crate) const BYTES_PER_POSITION: u64 = 48;

/// Flattens positions into packed keys and applies moves to the flat form.
pub(crate) struct Packer {
    npos: usize,
    /// Per flat position: its set, its index in the set.
    place: Vec<(usize, usize)>,
    modn: Vec<u8>,
    label_shift: Vec<u32>,
    label_bits: Vec<u32>,
    ori_shift: Vec<u32>,
    ori_bits: Vec<u32>,
    /// Per transform: flat source position and twist for each flat position.
    src: Vec<Vec<u16>>,
    twist: Vec<Vec<u8>>,
    /// Per transform: touched flat positions (for blocks), by base move.
    touched: Vec<u128>,
    /// `label_blocks[flat set offset + label]`: the blocks a piece belongs to.
    label_blocks: Vec<Vec<usize>>,
    label_base: Vec<usize>,
    nblocks: usize,
    template: State,
}

fn bits_for(max_value: u32) -> u32 {
    32 - max_value.leading_zeros()
}

impl Packer {
    /// The packer for `puzzle` with the given transforms; `touched_of[t]` is the base
    /// move whose touched mask judges `Block` legality for transform `t`.
    pub(crate) fn new(
        puzzle: &Puzzle,
        transforms: &[Transform],
        touched_of: &[usize],
    ) -> Result<Packer, GodError> {
        let mut place = Vec::new();
        let mut modn = Vec::new();
        let (mut label_shift, mut label_bits, mut ori_shift, mut ori_bits) =
            (vec![], vec![], vec![], vec![]);
        let mut shift = 0u32;
        let mut label_base = Vec::new();
        let mut nlabels = 0usize;
        for (si, def) in puzzle.sets.iter().enumerate() {
            let max_label = puzzle.solved.sets[si]
                .perm
                .iter()
                .copied()
                .max()
                .unwrap_or(0) as u32;
            label_base.push(nlabels);
            nlabels += max_label as usize + 1;
            let n = def.orientations.max(1);
            let (lb, ob) = (bits_for(max_label), bits_for(n as u32 - 1));
            for i in 0..def.size {
                place.push((si, i));
                modn.push(n);
                label_shift.push(shift);
                label_bits.push(lb);
                shift += lb;
                ori_shift.push(shift);
                ori_bits.push(ob);
                shift += ob;
            }
        }
        let npos = place.len();
        if shift > 128 || npos > 128 {
            return Err(GodError::TooLarge(format!(
                "a position needs {shift} bits over {npos} places; the hash-set search packs \
                 positions into 128 bits"
            )));
        }
        let offsets: Vec<usize> = puzzle
            .sets
            .iter()
            .scan(0, |acc, d| {
                let o = *acc;
                *acc += d.size;
                Some(o)
            })
            .collect();
        let mut src = Vec::with_capacity(transforms.len());
        let mut twist = Vec::with_capacity(transforms.len());
        for t in transforms {
            let mut s = Vec::with_capacity(npos);
            let mut w = Vec::with_capacity(npos);
            for (si, set) in t.sets.iter().enumerate() {
                let n = puzzle.sets[si].orientations.max(1);
                for i in 0..set.perm.len() {
                    s.push((offsets[si] + set.perm[i] as usize) as u16);
                    w.push(set.ori[i] % n);
                }
            }
            src.push(s);
            twist.push(w);
        }
        let touched = touched_of
            .iter()
            .map(|&b| {
                let mut mask = 0u128;
                for (si, set) in puzzle.base_moves[b].touched.iter().enumerate() {
                    for (i, &t) in set.iter().enumerate() {
                        if t {
                            mask |= 1u128 << (offsets[si] + i);
                        }
                    }
                }
                mask
            })
            .collect();
        let mut label_blocks = vec![Vec::new(); nlabels];
        for (b, block) in puzzle.blocks.iter().enumerate() {
            for &(set, label) in &block.pieces {
                // A block naming a label the set does not hold can never be split.
                let end = label_base.get(set + 1).copied().unwrap_or(nlabels);
                let slot = label_base[set] + label as usize;
                if slot < end {
                    label_blocks[slot].push(b);
                }
            }
        }
        Ok(Packer {
            npos,
            place,
            modn,
            label_shift,
            label_bits,
            ori_shift,
            ori_bits,
            src,
            twist,
            touched,
            label_blocks,
            label_base,
            nblocks: puzzle.blocks.len(),
            template: puzzle.solved.clone(),
        })
    }

    /// Bits a packed position takes.
    pub(crate) fn key_bits(&self) -> u32 {
        self.ori_shift
            .last()
            .zip(self.ori_bits.last())
            .map_or(0, |(s, b)| s + b)
    }

    /// Flattens a state.
    pub(crate) fn flatten(&self, s: &State, labels: &mut [u16], oris: &mut [u8]) {
        for (p, &(si, i)) in self.place.iter().enumerate() {
            labels[p] = s.sets[si].perm[i];
            oris[p] = s.sets[si].ori[i];
        }
    }

    /// Whether `s` is well formed for this puzzle (sizes, labels and orientations in
    /// range), so that packing it is faithful.
    pub(crate) fn fits(&self, s: &State) -> bool {
        s.sets.len() == self.template.sets.len()
            && s.sets
                .iter()
                .zip(&self.template.sets)
                .all(|(a, b)| a.perm.len() == b.perm.len() && a.ori.len() == b.ori.len())
            && self.place.iter().enumerate().all(|(p, &(si, i))| {
                (s.sets[si].perm[i] as u32) < (1u32 << self.label_bits[p])
                    && s.sets[si].ori[i] < self.modn[p]
            })
    }

    /// Packs flat labels and orientations.
    #[inline]
    pub(crate) fn pack(&self, labels: &[u16], oris: &[u8]) -> u128 {
        let mut k = 0u128;
        for p in 0..self.npos {
            k |= (labels[p] as u128) << self.label_shift[p];
            k |= (oris[p] as u128) << self.ori_shift[p];
        }
        k
    }

    /// Unpacks a key into flat labels and orientations.
    #[inline]
    pub(crate) fn unpack(&self, k: u128, labels: &mut [u16], oris: &mut [u8]) {
        for p in 0..self.npos {
            labels[p] = ((k >> self.label_shift[p]) & ((1u128 << self.label_bits[p]) - 1)) as u16;
            oris[p] = ((k >> self.ori_shift[p]) & ((1u128 << self.ori_bits[p]) - 1)) as u8;
        }
    }

    /// The state a key stands for.
    pub(crate) fn state(&self, k: u128) -> State {
        let mut labels = vec![0u16; self.npos];
        let mut oris = vec![0u8; self.npos];
        self.unpack(k, &mut labels, &mut oris);
        let mut s = self.template.clone();
        for (p, &(si, i)) in self.place.iter().enumerate() {
            s.sets[si].perm[i] = labels[p];
            s.sets[si].ori[i] = oris[p];
        }
        s
    }

    /// The key of a state.
    pub(crate) fn key(&self, s: &State) -> u128 {
        let mut labels = vec![0u16; self.npos];
        let mut oris = vec![0u8; self.npos];
        self.flatten(s, &mut labels, &mut oris);
        self.pack(&labels, &oris)
    }

    /// Applies transform `t` to flat `(labels, oris)` into the outputs.
    #[inline]
    pub(crate) fn apply(&self, t: usize, l: &[u16], o: &[u8], lo: &mut [u16], oo: &mut [u8]) {
        let (src, tw) = (&self.src[t], &self.twist[t]);
        for p in 0..self.npos {
            let f = src[p] as usize;
            lo[p] = l[f];
            oo[p] = (o[f] + tw[p]) % self.modn[p];
        }
    }

    /// Whether the move behind transform `t` may be made from the flat position
    /// `labels` without splitting a block.
    #[inline]
    pub(crate) fn legal(&self, t: usize, labels: &[u16], masks: &mut [u128]) -> bool {
        if self.nblocks == 0 {
            return true;
        }
        masks.iter_mut().for_each(|m| *m = 0);
        for (p, &(si, _)) in self.place.iter().enumerate() {
            let slot = self.label_base[si] + labels[p] as usize;
            if let Some(blocks) = self.label_blocks.get(slot) {
                for &b in blocks {
                    masks[b] |= 1u128 << p;
                }
            }
        }
        let touched = self.touched[t];
        masks.iter().all(|&m| {
            let t = m & touched;
            t == 0 || t == m
        })
    }

    /// Number of blocks (the length of the mask scratch `legal` needs).
    pub(crate) fn nblocks(&self) -> usize {
        self.nblocks
    }

    /// Number of flat positions.
    pub(crate) fn npos(&self) -> usize {
        self.npos
    }
}

/// The result of the hash-set search: every layer, sorted.
pub(crate) struct HashedRun {
    pub(crate) layers: Vec<Vec<u128>>,
}

impl HashedRun {
    /// The distance of `k`, when it was reached.
    pub(crate) fn distance(&self, k: u128) -> Option<u32> {
        self.layers
            .iter()
            .position(|l| l.binary_search(&k).is_ok())
            .map(|d| d as u32)
    }
}

/// Runs the search. `push_cols[c - 1]` lists the inverse transforms of the moves of cost
/// `c`, and `legal_col[t]` the forward transform whose legality judges inverse `t`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    packer: &Packer,
    start: u128,
    push_cols: &[Vec<(usize, usize)>],
    budget: u64,
    max_depth: u32,
    progress: &dyn Progress,
    on_layer: &Layers,
) -> Result<HashedRun, GodError> {
    let mut seen = KeySet::default();
    seen.insert(start);
    let mut layers: Vec<Vec<u128>> = vec![vec![start]];
    on_layer(0, 1);
    loop {
        let d = layers.len() - 1;
        if d as u32 >= max_depth {
            return Err(GodError::TooDeep(max_depth));
        }
        let total: u64 = (1..=push_cols.len())
            .filter(|&c| d + 1 >= c)
            .map(|c| layers[d + 1 - c].len() as u64)
            .sum();
        progress.start(&format!("depth {}", d + 1), Some(total));
        let mut found: Vec<u128> = Vec::new();
        for (ci, cols) in push_cols.iter().enumerate() {
            let c = ci + 1;
            if d + 1 < c || cols.is_empty() {
                continue;
            }
            let src = &layers[d + 1 - c];
            let seen_ref = &seen;
            let part: Vec<u128> = src
                .par_chunks(2048)
                .flat_map_iter(|chunk| {
                    let n = packer.npos();
                    let (mut l, mut o) = (vec![0u16; n], vec![0u8; n]);
                    let (mut lx, mut ox) = (vec![0u16; n], vec![0u8; n]);
                    let mut masks = vec![0u128; packer.nblocks()];
                    let mut out = Vec::new();
                    for &y in chunk {
                        packer.unpack(y, &mut l, &mut o);
                        for &(inv, fwd) in cols {
                            packer.apply(inv, &l, &o, &mut lx, &mut ox);
                            if !packer.legal(fwd, &lx, &mut masks) {
                                continue;
                            }
                            let x = packer.pack(&lx, &ox);
                            if !seen_ref.contains(&x) {
                                out.push(x);
                            }
                        }
                    }
                    progress.inc(chunk.len() as u64);
                    out
                })
                .collect();
            found.extend(part);
        }
        progress.finish();
        found.par_sort_unstable();
        found.dedup();
        if found.is_empty() {
            break;
        }
        let positions = seen.len() as u64 + found.len() as u64;
        let need = positions * BYTES_PER_POSITION;
        if need > budget {
            return Err(GodError::OverBudget {
                what: format!(
                    "the hash-set search passed {positions} positions at depth {}",
                    d + 1
                ),
                need,
                budget,
            });
        }
        seen.reserve(found.len());
        seen.extend(found.iter().copied());
        on_layer(d + 1, found.len() as u64);
        layers.push(found);
    }
    Ok(HashedRun { layers })
}
