//! Lookups of the symmetry-reduced pruning table ([`crate::table::sym`]) from a node's
//! component values: the major components' product index gives the class and the
//! symmetry that carries the node onto the class's representative; the minor values go
//! through that symmetry's conjugation tables; one entry is read.
//!
//! The entry is the distance, in the table's abstraction under the definition's moves,
//! of a conjugate of the node, which is the node's own distance there; so the bound is
//! admissible under whatever the scramble restricts (move limits, blocks, `?` within
//! the definition's `Ignore`), like any ordinary table's.

use crate::puzzle::Metric;
use crate::table::comp::Component;
use crate::table::prune::PruneTable;
use crate::table::sym::classes::Classes;
use crate::table::sym::table::SymTable;
use crate::table::{CompId, Tables};

/// The reduced table of one search, read through the search's slots.
pub(super) struct SymLookup<'a> {
    /// (slot, stride) of each major component.
    pub major: Vec<(usize, u64)>,
    /// (slot, stride, conjugation table, value count) of each minor component.
    pub minor: Vec<(usize, u64, &'a [u32], usize)>,
    pub classes: &'a Classes,
    /// The class table's packed entries, looked through once rather than per lookup
    /// (it may be a mapped file behind a trait object).
    packed: &'a [u32],
    pub minor_len: u64,
    pub table: &'a PruneTable,
}

impl<'a> SymLookup<'a> {
    /// The lookup of `t` with the slots of its major and minor components.
    pub fn new(t: &'a SymTable, major_slots: &[usize], minor_slots: &[usize]) -> Self {
        let strides = crate::table::prune::strides_of(&t.major_sizes);
        SymLookup {
            major: major_slots.iter().copied().zip(strides).collect(),
            minor: minor_slots
                .iter()
                .zip(&t.minor_strides)
                .zip(t.conj.iter().zip(&t.minor_sizes))
                .map(|((&s, &st), (c, &n))| (s, st, c.as_slice(), n as usize))
                .collect(),
            classes: &t.classes,
            packed: &t.classes.raw,
            minor_len: t.minor_len,
            table: &t.table,
        }
    }

    /// The bound for a node whose slot values are `row`.
    #[inline]
    pub fn get(&self, row: &[u32]) -> u32 {
        self.table.get(self.index(row))
    }

    /// The entry a node whose slot values are `row` reads. Apart from [`Self::get`] so
    /// that a search can find the entries of all of a node's children first and read
    /// them after: the reads of the entries (misses, in a table of gigabytes) then
    /// overlap instead of each waiting behind its class-table read.
    #[inline]
    pub fn index(&self, row: &[u32]) -> u64 {
        self.index_of(self.raw(row), row)
    }

    /// The major group's value of a node whose slot values are `row`: where its class
    /// is read ([`Classes::prefetch`] can ask for it first).
    #[inline]
    pub fn raw(&self, row: &[u32]) -> u64 {
        self.major.iter().map(|&(s, st)| row[s] as u64 * st).sum()
    }

    /// Starts reading the class of major value `raw`, so that [`Self::index_of`] soon
    /// after finds it in the cache.
    #[inline]
    pub fn prefetch_class(&self, raw: u64) {
        if let Some(p) = self.packed.get(raw as usize) {
            crate::table::prefetch::read_soon(p);
        }
    }

    /// [`Self::index`] from the major value [`Self::raw`] gave for `row`.
    #[inline]
    pub fn index_of(&self, raw: u64, row: &[u32]) -> u64 {
        let p = self.packed[raw as usize];
        let shift = self.classes.shift;
        let (class, sym) = (p >> shift, (p & ((1 << shift) - 1)) as usize);
        let m: u64 = self
            .minor
            .iter()
            .map(|&(s, st, conj, n)| conj[sym * n + row[s] as usize] as u64 * st)
            .sum();
        class as u64 * self.minor_len + m
    }
}

/// The reduced table's lookup for the inverse probe ([`super::inverse`]): its
/// components (major `a`, then minor `b`) in the order they are ranked into a row, and a
/// lookup that reads that row at slots 0, 1, ...
pub(super) fn at_inverse<'a>(
    tables: &'a Tables,
    metric: Metric,
    a: &[CompId],
    b: &[CompId],
) -> Option<(Vec<&'a Component>, SymLookup<'a>)> {
    let t = tables.built_sym(metric)?;
    let comps: Vec<&Component> = a.iter().chain(b).map(|&id| tables.comp(id)).collect();
    let slots: Vec<usize> = (0..comps.len()).collect();
    let lookup = SymLookup::new(&t.table, &slots[..a.len()], &slots[a.len()..]);
    Some((comps, lookup))
}
