//! Symmetry-reduced pruning tables: one entry per symmetry class of a product of
//! components, so the same memory holds many times more positions.
//!
//! A table is over a *major* group of components (for the 3x3x3: the corners'
//! arrangement and twists) and *minor* components (the edges' flips). A symmetry `S`
//! of the definition conjugates positions, `X -> S X S⁻¹`, and keeps distances. When
//! the major group's values after conjugation are a function of their values before
//! (checked per symmetry by [`closed`]), the symmetries for which that holds form a
//! subgroup, and every major value is carried onto one representative of its class
//! ([`classes`]). A reduced entry is `(class, minor values conjugated by the symmetry
//! that took the major value to its representative)`: the distance of the conjugate,
//! which is the distance of the position itself.
//!
//! The minor components must each conjugate as a function of their own value (a small
//! table per symmetry and value). A representative fixed by several symmetries (a
//! self-symmetric class) has several reduced entries for one position class; the build
//! fills every one of them ([`table`]), so a lookup needs no canonical choice.
//!
//! The conditions for "a function of its value", per set the components read:
//! - the symmetry maps the set onto itself;
//! - an arrangement's relabelling: the image of a label's class depends only on the
//!   class (pieces the component does not tell apart stay untold), tracked pieces onto
//!   tracked pieces;
//! - twists: the offset a piece's twist gets depends only on what the group tells of
//!   the piece (its class when an arrangement of the set is in the group, nothing
//!   otherwise), and a sum rule survives (checked on a decoded value).

pub mod axes;
pub mod build;
pub mod cached;
pub mod cells;
pub mod classes;
pub mod plan;
pub mod table;

use super::comp::{CompKind, Component};
use crate::puzzle::{Puzzle, State};
use crate::symmetry::Symmetry;
use std::collections::HashMap;

/// Whether the values of `comps` (one group, read together) after conjugating by `sym`
/// are a function of their values before. See the module doc for the conditions.
pub fn closed(puzzle: &Puzzle, sym: &Symmetry, comps: &[&Component]) -> bool {
    let mut sets: Vec<usize> = comps.iter().map(|c| c.spec.set).collect();
    sets.sort_unstable();
    sets.dedup();
    for &k in &sets {
        if (0..puzzle.sets[k].size).any(|p| sym.source(k, p).0 != k) {
            return false;
        }
        let mut labels = puzzle.solved.sets[k].perm.clone();
        labels.sort_unstable();
        labels.dedup();
        let on_set: Vec<&&Component> = comps.iter().filter(|c| c.spec.set == k).collect();
        let perms: Vec<(&Vec<u16>, Option<u16>)> = on_set
            .iter()
            .filter_map(|c| match &c.spec.kind {
                CompKind::Perm { relabel } => Some((relabel, None)),
                CompKind::Pieces { relabel, tracked } => Some((relabel, Some(*tracked))),
                _ => None,
            })
            .collect();
        // Two arrangements of one set (tracked groups) do not conjugate separately.
        if perms.len() > 1 {
            return false;
        }
        let class_of = |l: u16| perms.first().map_or(0, |(r, _)| r[l as usize]);
        if let Some(&(relabel, tracked)) = perms.first() {
            let mut image: HashMap<u16, u16> = HashMap::new();
            for &l in &labels {
                let Some(to) = sym.label_image(k, l) else {
                    return false;
                };
                let (c, c2) = (relabel[l as usize], relabel[to as usize]);
                if *image.entry(c).or_insert(c2) != c2 {
                    return false;
                }
                if let Some(t) = tracked {
                    if (c < t) != (c2 < t) {
                        return false;
                    }
                }
            }
            let mut targets: Vec<u16> = image.values().copied().collect();
            targets.sort_unstable();
            targets.dedup();
            if targets.len() != image.len() {
                return false;
            }
        }
        // Twists read by an orientation component (or by the tracked pieces of a
        // `Pieces` part, each its own class) get an offset that must be the same for
        // every label the group cannot tell apart.
        let reads_ori = on_set
            .iter()
            .any(|c| matches!(c.spec.kind, CompKind::Ori { .. }));
        if reads_ori {
            let mut offset: HashMap<u16, u8> = HashMap::new();
            for &l in &labels {
                let Some(d) = sym.label_offset(k, l) else {
                    return false;
                };
                if *offset.entry(class_of(l)).or_insert(d) != d {
                    return false;
                }
            }
        }
    }
    // A sum rule (and the multiset of an arrangement) must survive: decode one value,
    // conjugate it and check that every component can still read it.
    let conj = Conjugator::new(puzzle, comps);
    let mut x = puzzle.solved.clone();
    let mut out = puzzle.solved.clone();
    conj.load(&vec![0; comps.len()], &mut x);
    sym.conjugate_into(&x, &mut out);
    comps.iter().all(|c| c.value_of(&out).is_some())
}

/// Conjugates the values of a group of components: decodes them into a state (class
/// labels replaced by one original label of the class), conjugates it, and ranks the
/// components of the result.
pub struct Conjugator<'a> {
    comps: Vec<&'a Component>,
    /// Per component: class label to an original label of that class (empty for
    /// components without an arrangement).
    rep_label: Vec<Vec<u16>>,
}

/// Per-thread room for [`Conjugator::conjugate`].
pub struct Scratch {
    x: State,
    out: State,
    labels: Vec<u16>,
}

impl<'a> Conjugator<'a> {
    /// The conjugator of `comps` (which [`closed`] accepted for the symmetries used).
    pub fn new(puzzle: &Puzzle, comps: &[&'a Component]) -> Conjugator<'a> {
        let rep_label = comps
            .iter()
            .map(|c| match &c.spec.kind {
                CompKind::Perm { relabel } | CompKind::Pieces { relabel, .. } => {
                    let classes = relabel.iter().map(|&r| r as usize + 1).max().unwrap_or(0);
                    let mut rep = vec![0u16; classes];
                    // The solved state's labels, so that every class maps to a label
                    // the symmetry has an image for.
                    for &l in puzzle.solved.sets[c.spec.set].perm.iter().rev() {
                        rep[relabel[l as usize] as usize] = l;
                    }
                    rep
                }
                _ => Vec::new(),
            })
            .collect();
        Conjugator {
            comps: comps.to_vec(),
            rep_label,
        }
    }

    /// Room for one thread's conjugations.
    pub fn scratch(&self, puzzle: &Puzzle) -> Scratch {
        let most = puzzle.sets.iter().map(|s| s.size).max().unwrap_or(0);
        Scratch {
            x: puzzle.solved.clone(),
            out: puzzle.solved.clone(),
            labels: vec![0; most],
        }
    }

    /// Writes the components' values `vals` into state `x`.
    fn load(&self, vals: &[u32], x: &mut State) {
        for ((c, &v), rep) in self.comps.iter().zip(vals).zip(&self.rep_label) {
            let s = &mut x.sets[c.spec.set];
            c.decode(v, s);
            if !rep.is_empty() {
                for l in s.perm.iter_mut() {
                    *l = rep[*l as usize];
                }
            }
        }
    }

    /// The values of the components in `sym`'s conjugate of a position with values
    /// `vals`, into `res`.
    pub fn conjugate(&self, sym: &Symmetry, vals: &[u32], sc: &mut Scratch, res: &mut [u32]) {
        self.load(vals, &mut sc.x);
        sym.conjugate_into(&sc.x, &mut sc.out);
        for (c, r) in self.comps.iter().zip(res.iter_mut()) {
            *r = c.rank_state(&sc.out, &mut sc.labels);
        }
    }
}

/// Splits a product index into its components' values (the last varies fastest).
#[inline]
pub fn split(mut raw: u64, sizes: &[u64], out: &mut [u32]) {
    for (o, &s) in out.iter_mut().zip(sizes).rev() {
        *o = (raw % s) as u32;
        raw /= s;
    }
}

#[cfg(test)]
mod tests;
