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

use super::classes::Classes;
use super::split;
use crate::progress::Progress;
use crate::puzzle::{Metric, Puzzle};
use crate::table::comp::goal::for_each_goal_tuple;
use crate::table::comp::Component;
use crate::table::prune::{move_costs, strides_of, Entries, Format, PruneTable, UNREACHED};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

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
        allow_bytes: bool,
        what: &str,
        progress: &dyn Progress,
    ) -> SymTable {
        let major_sizes: Vec<u64> = major.iter().map(|c| c.count as u64).collect();
        let minor_sizes: Vec<u64> = minor.iter().map(|c| c.count as u64).collect();
        let minor_strides = strides_of(&minor_sizes);
        let minor_len: u64 = minor_sizes.iter().product();
        let bytes = bfs(
            puzzle, &classes, major, minor, &conj, goals, metric, what, progress,
        );
        let max_depth = bytes
            .iter()
            .copied()
            .filter(|&d| d != UNREACHED)
            .max()
            .unwrap_or(0);
        let (format, data, max_depth) = if max_depth > 14 && allow_bytes {
            (Format::Bytes, bytes, max_depth)
        } else {
            (Format::Nibbles, nibbles(&bytes), max_depth.min(14))
        };
        let mut sizes = vec![classes.count()];
        sizes.extend(&minor_sizes);
        let table =
            PruneTable::from_entries(metric, sizes, format, max_depth, Entries::Owned(data))
                .expect("the entries fill the table");
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

/// Two entries per byte, the even one low; depths above 14 as 14, unreached as 15.
fn nibbles(entries: &[u8]) -> Vec<u8> {
    let code = |d: u8| if d == UNREACHED { 15 } else { d.min(14) };
    entries
        .par_chunks(2)
        .map(|p| code(p[0]) | (p.get(1).map_or(15, |&d| code(d)) << 4))
        .collect()
}

/// What one breadth-first build reads, shared by its workers.
struct Space<'a> {
    classes: &'a Classes,
    conj: &'a [Vec<u32>],
    major_sizes: Vec<u64>,
    major_strides: Vec<u64>,
    minor_sizes: Vec<u64>,
    minor_strides: Vec<u64>,
    minor_len: u64,
    table: Vec<AtomicU8>,
}

impl Space<'_> {
    /// Lowers entry `(class, minor values m)` and every variant of it under the
    /// representative's stabiliser to `d`; whether the entry itself was lowered.
    fn place(&self, class: u32, m: &[u32], d: u8) -> bool {
        let base = class as u64 * self.minor_len;
        let idx = |s: Option<usize>| -> u64 {
            m.iter()
                .enumerate()
                .map(|(j, &v)| {
                    let v = match s {
                        None => v,
                        Some(s) => self.conj[j][s * self.minor_sizes[j] as usize + v as usize],
                    };
                    v as u64 * self.minor_strides[j]
                })
                .sum::<u64>()
                + base
        };
        let lowered = self.table[idx(None) as usize].fetch_min(d, Relaxed) > d;
        for &t in self.classes.stabiliser(class) {
            self.table[idx(Some(t as usize)) as usize].fetch_min(d, Relaxed);
        }
        lowered
    }

    /// The class and conjugating symmetry of a major tuple.
    fn classify(&self, vals: &[u32]) -> (u32, usize) {
        let raw: u64 = vals
            .iter()
            .zip(&self.major_strides)
            .map(|(&v, &s)| v as u64 * s)
            .sum();
        self.classes.of(raw)
    }
}

#[allow(clippy::too_many_arguments)]
fn bfs(
    puzzle: &Puzzle,
    classes: &Classes,
    major: &[&Component],
    minor: &[&Component],
    conj: &[Vec<u32>],
    goals: &[Vec<u32>],
    metric: Metric,
    what: &str,
    progress: &dyn Progress,
) -> Vec<u8> {
    let nm = puzzle.moves.len();
    let costs = move_costs(puzzle, metric);
    let major_sizes: Vec<u64> = major.iter().map(|c| c.count as u64).collect();
    let minor_sizes: Vec<u64> = minor.iter().map(|c| c.count as u64).collect();
    let minor_len: u64 = minor_sizes.iter().product();
    let len = classes.count() * minor_len;
    let space = Space {
        classes,
        conj,
        major_strides: strides_of(&major_sizes),
        major_sizes,
        minor_strides: strides_of(&minor_sizes),
        minor_sizes,
        minor_len,
        table: (0..len).map(|_| AtomicU8::new(UNREACHED)).collect(),
    };
    let (ka, kb) = (major.len(), minor.len());
    progress.start(what, Some(len));
    // Every tuple of goal values is a source at depth 0.
    let (mut a, mut b) = (vec![0u32; ka], vec![0u32; kb]);
    for_each_goal_tuple(goals, |tuple| {
        a.copy_from_slice(&tuple[..ka]);
        b.copy_from_slice(&tuple[ka..]);
        let (class, s) = space.classify(&a);
        for (j, v) in b.iter_mut().enumerate() {
            *v = conj[j][s * space.minor_sizes[j] as usize + *v as usize];
        }
        space.place(class, &b, 0);
        true
    });
    let step = |d: u8, cost: u32| d.saturating_add(cost.min(255) as u8).min(UNREACHED - 1);
    let max_assigned = AtomicU64::new(0);
    let mut d = 0u8;
    loop {
        let at_d = space
            .table
            .par_iter()
            .filter(|e| e.load(Relaxed) == d)
            .count() as u64;
        progress.inc(at_d);
        if at_d == 0 && d as u64 >= max_assigned.load(Relaxed) {
            break;
        }
        if d >= UNREACHED - 2 {
            space.table.par_iter().for_each(|e| {
                if e.load(Relaxed) == UNREACHED {
                    e.store(d, Relaxed);
                }
            });
            break;
        }
        let n = minor_len as usize;
        (0..classes.count() as usize)
            .into_par_iter()
            .with_min_len(4)
            .for_each_init(
                || {
                    (
                        vec![0u32; ka],
                        vec![0u32; ka],
                        vec![(0u32, 0usize); nm],
                        vec![0u32; kb],
                        vec![0u32; kb],
                    )
                },
                |(a, a2, targets, b, b2), class| {
                    let block = &space.table[class * n..(class + 1) * n];
                    if !block.iter().any(|e| e.load(Relaxed) == d) {
                        return;
                    }
                    split(classes.reps[class] as u64, &space.major_sizes, a);
                    for (m, t) in targets.iter_mut().enumerate() {
                        for ((x, &v), c) in a2.iter_mut().zip(a.iter()).zip(major) {
                            *x = c.table[v as usize * nm + m];
                        }
                        *t = space.classify(a2);
                    }
                    let mut deepest = 0u8;
                    for (i, e) in block.iter().enumerate() {
                        if e.load(Relaxed) != d {
                            continue;
                        }
                        split(i as u64, &space.minor_sizes, b);
                        for (m, &(c2, s)) in targets.iter().enumerate() {
                            for (j, (x, &v)) in b2.iter_mut().zip(b.iter()).enumerate() {
                                let next = minor[j].table[v as usize * nm + m];
                                *x = conj[j][s * space.minor_sizes[j] as usize + next as usize];
                            }
                            let nd = step(d, costs[m]);
                            if space.place(c2, b2, nd) {
                                deepest = deepest.max(nd);
                            }
                        }
                    }
                    max_assigned.fetch_max(deepest as u64, Relaxed);
                },
            );
        d += 1;
    }
    progress.finish();
    space.table.into_iter().map(AtomicU8::into_inner).collect()
}
