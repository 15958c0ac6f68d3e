//! A symmetry-reduced pruning table: one entry per (class of the major group, minor
//! values conjugated onto the class's representative), built breadth-first over the
//! reduced space.
//!
//! Invariant: the entry for `(class, m)` is the distance (in the abstraction) of the
//! position whose major group is the class's representative and whose minor values
//! are `m`. A position's own entry is found by taking its major value to the
//! representative with a symmetry `S` (from [`Classes`]) and its minor values through
//! the same `S`; since `S` keeps distances, the entry is the position's distance. A
//! representative fixed by a symmetry `T` (a self-symmetric class) reaches the same
//! position class through `(class, m)` and `(class, T(m))`: every time an entry is set,
//! all of these variants are set with it, so any of them may be looked up.

use super::build;
use super::classes::Classes;
use crate::progress::Progress;
use crate::puzzle::{Metric, Puzzle};
use crate::table::comp::Component;
use crate::table::prune::{strides_of, Entries, Format, PruneTable};
use rayon::prelude::*;

/// Tables of this many entries or more settle their last layers
/// ([`build::Layout::settle_from`]): on the 3x3x3's corners × flips (11.3 G entries)
/// that skips two passes of about two minutes together, and leaves 4% of the entries
/// one below their depth. Smaller tables are exact.
pub const SETTLE_FROM: u64 = 1 << 31;

/// A built symmetry-reduced table with what its lookups need.
pub struct SymTable {
    pub classes: Classes,
    /// Value counts of the major group's components.
    pub major_sizes: Vec<u64>,
    pub major_strides: Vec<u64>,
    /// Value counts and strides (within the minor part) of the minor components.
    pub minor_sizes: Vec<u64>,
    pub minor_strides: Vec<u64>,
    /// Entries per class.
    pub minor_len: u64,
    /// Per minor component: `conj[s * count + v]`, the value after conjugating by the
    /// subgroup's symmetry `s`.
    pub conj: Vec<Vec<u32>>,
    /// The entries, indexed by `class * minor_len + minor index`.
    pub table: PruneTable,
}

/// The minor components' conjugation tables under the subgroup of `classes`.
pub fn minor_conj(
    puzzle: &Puzzle,
    group: &crate::symmetry::SymmetryGroup,
    syms: &[usize],
    minor: &[&Component],
) -> Vec<Vec<u32>> {
    minor
        .iter()
        .map(|c| {
            let conj = super::Conjugator::new(puzzle, std::slice::from_ref(c));
            let n = c.count as usize;
            let mut out = vec![0u32; syms.len() * n];
            out.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
                let sym = &group.elements()[syms[i]];
                let mut sc = conj.scratch(puzzle);
                let mut r = [0u32];
                for (v, slot) in row.iter_mut().enumerate() {
                    conj.conjugate(sym, &[v as u32], &mut sc, &mut r);
                    *slot = r[0];
                }
            });
            out
        })
        .collect()
}

/// How wide a reduced table's entries are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// Four bits, or eight for a table deeper than 14 when `allow_bytes`.
    Nibbles { allow_bytes: bool },
    /// Two bits, relative to the last layers ([`Format::Crumbs`]).
    Crumbs,
}

impl SymTable {
    /// A table from its parts, the entries loaded from a cache file.
    pub fn from_parts(
        classes: Classes,
        major: &[&Component],
        minor: &[&Component],
        conj: Vec<Vec<u32>>,
        table: PruneTable,
    ) -> SymTable {
        let minor_sizes: Vec<u64> = minor.iter().map(|c| c.count as u64).collect();
        SymTable {
            classes,
            major_strides: strides_of(&major.iter().map(|c| c.count as u64).collect::<Vec<_>>()),
            major_sizes: major.iter().map(|c| c.count as u64).collect(),
            minor_strides: strides_of(&minor_sizes),
            minor_len: minor_sizes.iter().product(),
            minor_sizes,
            conj,
            table,
        }
    }

    /// The bound for a position whose major components have values `major` and minor
    /// components `minor` (the search computes the same from its slots).
    pub fn bound(&self, major: &[u32], minor: &[u32]) -> u32 {
        let strides = strides_of(&self.major_sizes);
        let raw: u64 = major
            .iter()
            .zip(&strides)
            .map(|(&v, &s)| v as u64 * s)
            .sum();
        let (class, s) = self.classes.of(raw);
        let m: u64 = minor
            .iter()
            .zip(&self.conj)
            .zip(self.minor_sizes.iter().zip(&self.minor_strides))
            .map(|((&v, conj), (&n, &st))| conj[s * n as usize + v as usize] as u64 * st)
            .sum();
        self.table.get(class as u64 * self.minor_len + m)
    }

    /// Builds the table by breadth-first search over the reduced space from every
    /// tuple of goal values (`goals[j]`: component `j`'s, major components first).
    /// Every move's inverse must be a move of the same cost (the caller checks), so
    /// that walking moves forwards from the goal finds distances to it.
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        puzzle: &Puzzle,
        classes: Classes,
        major: &[&Component],
        minor: &[&Component],
        conj: Vec<Vec<u32>>,
        goals: &[Vec<u32>],
        metric: Metric,
        width: Width,
        what: &str,
        progress: &dyn Progress,
    ) -> SymTable {
        let major_sizes: Vec<u64> = major.iter().map(|c| c.count as u64).collect();
        let minor_sizes: Vec<u64> = minor.iter().map(|c| c.count as u64).collect();
        let minor_strides = strides_of(&minor_sizes);
        let minor_len: u64 = minor_sizes.iter().product();
        let len = classes.count() * minor_sizes.iter().product::<u64>();
        let run = |format, clip| {
            let layout = build::Layout {
                format,
                clip,
                settle_from: SETTLE_FROM,
            };
            build::bfs(
                puzzle, &classes, major, minor, &conj, goals, metric, layout, what, progress,
            )
        };
        // Nibbles first; a table deeper than 14 is built again in bytes when the
        // budget allows them, else its deeper entries are stored as 14 (a lower bound).
        let clipped = |r: Result<_, build::TooDeep>| {
            r.unwrap_or_else(|_| unreachable!("a clipped build always finishes"))
        };
        let (format, (cells, max_depth, fallback)) = match width {
            Width::Crumbs => (Format::Crumbs, clipped(run(Format::Crumbs, true))),
            Width::Nibbles { allow_bytes } => match run(Format::Nibbles, !allow_bytes) {
                Ok(r) => (Format::Nibbles, r),
                Err(build::TooDeep) => (Format::Bytes, clipped(run(Format::Bytes, true))),
            },
        };
        let stored = cells.stored_len();
        let data = Entries::Words {
            words: cells.into_words(),
            len: stored,
        };
        debug_assert_eq!(data.bytes().len() as u64, format.bytes(len));
        let mut sizes = vec![classes.count()];
        sizes.extend(&minor_sizes);
        let table = PruneTable::from_entries(metric, sizes, format, max_depth, data)
            .expect("the entries fill the table");
        let table = match fallback {
            Some(f) => table.with_fallback(f).expect("one fallback byte per word"),
            None => table,
        };
        SymTable {
            classes,
            major_strides: strides_of(&major_sizes),
            major_sizes,
            minor_sizes,
            minor_strides,
            minor_len,
            conj,
            table,
        }
    }
}
