//! Packed position keys: a position flattened (every set's positions in definition
//! order) and bit-packed into one `u128`, per position the label, then the orientation,
//! in as few bits as the set needs. Moves act on keys field by field ([`Packer`]), and
//! blocks (`Block`) and guards (`When`) are judged on keys too, so that a search over
//! keys allocates nothing per position.
//!
//! The sparse breadth-first search of `gods` (`gods/hashed.rs`) lists positions as keys;
//! the search's guarded moves (`search/guarded.rs`) carry a node's key beside its
//! components; the additive tables of sliding puzzles (`table/additive/`) read their
//! fields from keys. So the keys sit below all three and import only the model.

use crate::puzzle::{Puzzle, State, Transform};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Why a puzzle's positions cannot be packed into keys: the message says what does not
/// fit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(pub String);

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

/// One field a transform moves: where its label and orientation come from and go.
#[derive(Clone, Copy, Debug)]
struct Field {
    dst_label: u32,
    src_label: u32,
    label_mask: u128,
    dst_ori: u32,
    src_ori: u32,
    ori_mask: u128,
    twist: u8,
    n: u8,
}

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
    /// Per transform, the same on packed keys: the bits it leaves in place, and the
    /// fields it moves or twists.
    keep: Vec<u128>,
    moved: Vec<Vec<Field>>,
    /// Flat positions of sets holding bandaged pieces (the only ones `block_masks` reads).
    block_places: Vec<usize>,
    /// Distinct touched masks (flat positions a base move touches, for blocks), and per
    /// transform the index of its mask.
    touched: Vec<u128>,
    touched_of: Vec<usize>,
    /// `label_blocks[flat set offset + label]`: the blocks a piece belongs to.
    label_blocks: Vec<Vec<usize>>,
    label_base: Vec<usize>,
    nblocks: usize,
    /// Per transform: the guard of its forward move on packed keys, as (label shift,
    /// label mask, allowed labels as a bit set); empty when unguarded.
    guards: Vec<Vec<(u32, u128, u128)>>,
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
    ) -> Result<Packer, KeyError> {
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
            return Err(KeyError(format!(
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
        let masks_of: Vec<u128> = touched_of
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
        let mut guards = Vec::with_capacity(transforms.len());
        for &b in touched_of {
            let mut g = Vec::new();
            if let Some(Some(guard)) = puzzle.guards.get(b) {
                for c in &guard.conds {
                    let p = offsets[c.set] + c.pos;
                    let mut allowed = 0u128;
                    for &l in &c.labels {
                        // Labels past the largest the set holds can never be there.
                        if (l as u32) < (1u32 << label_bits[p]) {
                            if l >= 128 {
                                return Err(KeyError(
                                    "a guard names a label past 127; the hash-set search \
                                     tests guards on at most 128 labels"
                                        .into(),
                                ));
                            }
                            allowed |= 1u128 << l;
                        }
                    }
                    g.push((label_shift[p], (1u128 << label_bits[p]) - 1, allowed));
                }
            }
            guards.push(g);
        }
        let mut touched: Vec<u128> = Vec::new();
        let touched_of: Vec<usize> = masks_of
            .iter()
            .map(|m| match touched.iter().position(|t| t == m) {
                Some(i) => i,
                None => {
                    touched.push(*m);
                    touched.len() - 1
                }
            })
            .collect();
        if !puzzle.blocks.is_empty() && touched.len() > 64 {
            return Err(KeyError(format!(
                "{} differently bandaged moves; the search handles 64",
                touched.len()
            )));
        }
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
        let field = |p: usize| -> u128 {
            ((1u128 << label_bits[p]) - 1) << label_shift[p]
                | ((1u128 << ori_bits[p]) - 1) << ori_shift[p]
        };
        let mut keep = Vec::with_capacity(transforms.len());
        let mut moved = Vec::with_capacity(transforms.len());
        for (s, w) in src.iter().zip(&twist) {
            let mut k = 0u128;
            let mut m = Vec::new();
            for p in 0..npos {
                let f = s[p] as usize;
                if f == p && w[p] == 0 {
                    k |= field(p);
                } else {
                    m.push(Field {
                        dst_label: label_shift[p],
                        src_label: label_shift[f],
                        label_mask: (1u128 << label_bits[p]) - 1,
                        dst_ori: ori_shift[p],
                        src_ori: ori_shift[f],
                        ori_mask: (1u128 << ori_bits[p]) - 1,
                        twist: w[p],
                        n: modn[p],
                    });
                }
            }
            keep.push(k);
            moved.push(m);
        }
        let block_places = (0..npos)
            .filter(|&p| {
                let si = place[p].0;
                let end = label_base.get(si + 1).copied().unwrap_or(nlabels);
                label_blocks[label_base[si]..end]
                    .iter()
                    .any(|b| !b.is_empty())
            })
            .collect();
        Ok(Packer {
            npos,
            place,
            modn,
            label_shift,
            label_bits,
            ori_shift,
            ori_bits,
            keep,
            moved,
            block_places,
            touched,
            touched_of,
            label_blocks,
            label_base,
            nblocks: puzzle.blocks.len(),
            guards,
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

    /// Applies transform `t` straight to a packed key: the fields it leaves alone are
    /// copied with one mask, and only the moved or twisted ones are rebuilt.
    #[inline]
    pub(crate) fn step(&self, t: usize, y: u128) -> u128 {
        let mut x = y & self.keep[t];
        for f in &self.moved[t] {
            x |= ((y >> f.src_label) & f.label_mask) << f.dst_label;
            let mut o = ((y >> f.src_ori) & f.ori_mask) as u8 + f.twist;
            if o >= f.n {
                o -= f.n;
            }
            x |= (o as u128) << f.dst_ori;
        }
        x
    }

    /// The flat positions each block's pieces occupy in the position with key `y`.
    #[inline]
    pub(crate) fn block_masks_of_key(&self, y: u128, masks: &mut [u128]) {
        masks.iter_mut().for_each(|m| *m = 0);
        for &p in &self.block_places {
            let label = ((y >> self.label_shift[p]) & ((1u128 << self.label_bits[p]) - 1)) as usize;
            let slot = self.label_base[self.place[p].0] + label;
            if let Some(blocks) = self.label_blocks.get(slot) {
                for &b in blocks {
                    masks[b] |= 1u128 << p;
                }
            }
        }
    }

    /// Which base moves move every block of a position with these block masks wholly or
    /// not at all.
    ///
    /// A move permutes the positions it touches among themselves and fixes the rest, so
    /// a block is whole-or-untouched before the move exactly when it is after it: the
    /// check gives the same answer on either side of the move, and the search makes it
    /// once per known position instead of once per predecessor.
    /// Returned as a bit set over the distinct touched masks; test transform `t` with
    /// [`Packer::allows`].
    #[inline]
    pub(crate) fn legal_moves(&self, masks: &[u128]) -> u64 {
        if self.nblocks == 0 {
            return u64::MAX;
        }
        let mut ok = 0u64;
        for (k, &touched) in self.touched.iter().enumerate() {
            if masks.iter().all(|&m| {
                let t = m & touched;
                t == 0 || t == m
            }) {
                ok |= 1 << k;
            }
        }
        ok
    }

    /// Whether transform `t` is legal in a position whose [`Packer::legal_moves`] is `ok`.
    #[inline]
    pub(crate) fn allows(&self, ok: u64, t: usize) -> bool {
        self.nblocks == 0 || ok >> self.touched_of[t] & 1 == 1
    }

    /// Whether the guard of transform `t`'s forward move holds in the position with key
    /// `x` (always, for an unguarded move).
    #[inline]
    pub(crate) fn guard_holds(&self, t: usize, x: u128) -> bool {
        self.guards[t]
            .iter()
            .all(|&(shift, mask, allowed)| allowed >> ((x >> shift) & mask) & 1 == 1)
    }

    /// The guard of transform `fwd`'s forward move, read on the position `y` that
    /// transform `inv` (its inverse) is about to be applied to: a condition on position
    /// `p` of `x = step(inv, y)` reads the label `inv` brings to `p` from `y`. Testing
    /// this before stepping spares the step for every predecessor whose guard fails
    /// (most of them on a sliding board).
    pub(crate) fn guard_before(&self, inv: usize, fwd: usize) -> Vec<(u32, u128, u128)> {
        self.guards[fwd]
            .iter()
            .map(|&(shift, mask, allowed)| {
                let src = self.moved[inv]
                    .iter()
                    .find(|f| f.dst_label == shift)
                    .map_or(shift, |f| f.src_label);
                (src, mask, allowed)
            })
            .collect()
    }

    /// Whether every condition of a guard from [`Packer::guard_before`] holds in `y`.
    #[inline]
    pub(crate) fn holds(guard: &[(u32, u128, u128)], y: u128) -> bool {
        guard
            .iter()
            .all(|&(shift, mask, allowed)| allowed >> ((y >> shift) & mask) & 1 == 1)
    }

    /// Number of blocks (the length of the mask scratch `legal` needs).
    pub(crate) fn nblocks(&self) -> usize {
        self.nblocks
    }

    /// Number of flat positions.
    pub(crate) fn npos(&self) -> usize {
        self.npos
    }

    /// Where flat position `p`'s label lies in a key: (shift, bits).
    pub(crate) fn label_field(&self, p: usize) -> (u32, u32) {
        (self.label_shift[p], self.label_bits[p])
    }

    /// The set flat position `p` belongs to.
    pub(crate) fn set_of(&self, p: usize) -> usize {
        self.place[p].0
    }

    /// Whether some position has an orientation field (keys then hold more than labels).
    pub(crate) fn has_orientations(&self) -> bool {
        self.ori_bits.iter().any(|&b| b > 0)
    }
}
