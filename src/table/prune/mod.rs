//! Pruning tables: for every value of a product of components, a lower bound on the
//! number of moves (or quarter turns) to the goal, found by a breadth-first search from
//! every goal value at once.
//!
//! Invariants: entry `i` of a table over components `c_0 .. c_k` belongs to the tuple
//! `(v_0 .. v_k)` with `i = sum v_j * stride_j` (the last component varies fastest); an
//! entry never exceeds the true distance of any state whose components have those
//! values; the highest code (15 in a nibble, 255 in a byte) means "cannot reach the
//! goal" and prunes every branch. A table of crumbs (two bits per entry, only
//! symmetry-reduced tables) stores depths relative to a base: its codes 1, 2 and 3 are
//! `max_depth - 2`, `max_depth - 1` and at least `max_depth`, its code 0 a depth below
//! `max_depth - 2` that it does not tell (bound 0).

use super::comp::Component;
use crate::progress::Progress;
use crate::puzzle::{Metric, MoveId, Puzzle};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// The code of an unreached entry while building, and in a byte table.
pub const UNREACHED: u8 = 255;
/// The code of an unreached entry in a nibble table.
const NIBBLE_UNREACHED: u8 = 15;
/// The value a lookup returns for an entry that cannot reach the goal.
pub const INFINITE: u32 = u32::MAX / 2;

/// How entries are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Two entries per byte, the even entry in the low nibble; depths above 14 are
    /// stored as 14 (still a lower bound).
    Nibbles,
    /// One byte per entry.
    Bytes,
    /// Four entries per byte, the first in the lowest two bits, relative to the table's
    /// `max_depth` (see the module's docs).
    Crumbs,
}

impl Format {
    /// Bytes needed to store `len` entries.
    pub fn bytes(self, len: u64) -> u64 {
        match self {
            Format::Nibbles => len.div_ceil(2),
            Format::Bytes => len,
            Format::Crumbs => len.div_ceil(4),
        }
    }
}

/// Where a table's entries live: built in memory, or mapped from a cache file.
pub enum Entries {
    Owned(Vec<u8>),
    Mapped(Box<dyn std::ops::Deref<Target = [u8]> + Send + Sync>),
    /// Built in place as 64-bit words (little-endian, so that their bytes are the
    /// stored layout), of which the first `len` bytes are the entries.
    Words {
        words: Vec<u64>,
        len: usize,
    },
}

impl Entries {
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Entries::Owned(v) => v,
            Entries::Mapped(m) => m,
            Entries::Words { words, len } => &bytemuck::cast_slice(words)[..*len],
        }
    }

    /// The first `n` bytes, past the entries into the words' padding where they are
    /// words (which must hold them).
    fn padded(&self, n: usize) -> &[u8] {
        match self {
            Entries::Words { words, .. } => &bytemuck::cast_slice(words)[..n],
            _ => &self.bytes()[..n],
        }
    }
}

/// A built pruning table.
pub struct PruneTable {
    pub metric: Metric,
    /// Value counts of the components, in order.
    pub sizes: Vec<u64>,
    /// `strides[j]`: the weight of component `j` in the entry index.
    pub strides: Vec<u64>,
    /// Number of entries.
    pub len: u64,
    pub format: Format,
    /// The largest finite depth stored.
    pub max_depth: u8,
    entries: Entries,
    /// Nibble code to depth, with 15 to [`INFINITE`].
    nibble_depth: [u32; 16],
    /// Two-bit entries: per group of 16 entries, a nibble with the least depth in the
    /// group, read for code 0 (two nibbles per byte, the first group low).
    fallback: Option<Fallback>,
}

/// Where a two-bit table's fallback nibbles are.
enum Fallback {
    /// Beside the entries (as built).
    Owned(Vec<u8>),
    /// In the entries' own bytes from this offset on (as stored: one mapping or copy of
    /// the cache file holds both, nothing is copied twice).
    After(usize),
}

/// The strides of a product of components with these value counts.
pub fn strides_of(sizes: &[u64]) -> Vec<u64> {
    let mut strides = vec![1u64; sizes.len()];
    for j in (0..sizes.len().saturating_sub(1)).rev() {
        strides[j] = strides[j + 1] * sizes[j + 1];
    }
    strides
}

/// Bytes of `len` two-bit entries padded to whole 32-byte blocks, where their fallback
/// starts in a cache file.
fn padded_crumbs(len: u64) -> u64 {
    Format::Crumbs.bytes(len).next_multiple_of(32)
}

/// Bytes of the fallback of `len` two-bit entries: one per 32 entries, padded to whole
/// 32-byte blocks.
fn fallback_bytes(len: u64) -> u64 {
    len.div_ceil(32).next_multiple_of(32)
}

/// Crumb code to depth (the first four entries): 0 for "below the base", then the
/// base, the next depth and the deepest stored, `max_depth`.
fn crumb_depths(max_depth: u8) -> [u32; 16] {
    let top = max_depth.max(2) as u32;
    let mut t = [0u32; 16];
    t[1..4].copy_from_slice(&[top - 2, top - 1, top]);
    t
}

fn nibble_depths() -> [u32; 16] {
    let mut t = [0u32; 16];
    for (i, d) in t.iter_mut().enumerate() {
        *d = if i as u8 == NIBBLE_UNREACHED {
            INFINITE
        } else {
            i as u32
        };
    }
    t
}

impl PruneTable {
    /// A table from stored entries (checked by the caller against `sizes`).
    pub fn from_entries(
        metric: Metric,
        sizes: Vec<u64>,
        format: Format,
        max_depth: u8,
        entries: Entries,
    ) -> Option<PruneTable> {
        let len = sizes.iter().product::<u64>();
        (entries.bytes().len() as u64 == format.bytes(len))
            .then(|| Self::assemble(metric, sizes, format, max_depth, entries, None))
    }

    /// The table with `fallback` for its two-bit entries' code 0 (one byte per 32
    /// entries, padded to a whole number of 32-byte blocks so that it is stored as one
    /// part of a cache file); `None` when the sizes do not match or the table is not
    /// two-bit.
    pub fn with_fallback(mut self, fallback: Vec<u8>) -> Option<PruneTable> {
        if self.format != Format::Crumbs || fallback.len() as u64 != fallback_bytes(self.len) {
            return None;
        }
        self.fallback = Some(Fallback::Owned(fallback));
        Some(self)
    }

    /// A two-bit table from stored bytes that hold its entries, padded to a whole
    /// number of 32-byte blocks, then its fallback ([`PruneTable::stored_parts`]).
    pub fn from_entries_with_fallback(
        metric: Metric,
        sizes: Vec<u64>,
        max_depth: u8,
        entries: Entries,
    ) -> Option<PruneTable> {
        let len = sizes.iter().product::<u64>();
        let at = padded_crumbs(len);
        (entries.bytes().len() as u64 == at + fallback_bytes(len)).then(|| {
            let fallback = Some(Fallback::After(at as usize));
            Self::assemble(metric, sizes, Format::Crumbs, max_depth, entries, fallback)
        })
    }

    /// The table over `entries`, whose size the caller has checked.
    fn assemble(
        metric: Metric,
        sizes: Vec<u64>,
        format: Format,
        max_depth: u8,
        entries: Entries,
        fallback: Option<Fallback>,
    ) -> PruneTable {
        PruneTable {
            metric,
            strides: strides_of(&sizes),
            len: sizes.iter().product(),
            sizes,
            format,
            max_depth,
            entries,
            nibble_depth: match format {
                Format::Crumbs => crumb_depths(max_depth),
                _ => nibble_depths(),
            },
            fallback,
        }
    }

    /// The fallback nibbles of a two-bit table.
    pub fn fallback(&self) -> Option<&[u8]> {
        match self.fallback.as_ref()? {
            Fallback::Owned(v) => Some(v),
            Fallback::After(at) => Some(&self.entries.bytes()[*at..]),
        }
    }

    /// The stored entries.
    pub fn raw(&self) -> &[u8] {
        &self.entries.bytes()[..self.format.bytes(self.len) as usize]
    }

    /// What a cache file stores after its prefix, each part from where it lies: the
    /// entries, and for a two-bit table with a fallback the entries padded to whole
    /// 32-byte blocks and then the fallback.
    pub fn stored_parts(&self) -> Vec<&[u8]> {
        match self.fallback() {
            None => vec![self.raw()],
            Some(f) => vec![self.entries.padded(padded_crumbs(self.len) as usize), f],
        }
    }

    /// Bytes of memory the entries (and a fallback) take.
    pub fn memory(&self) -> u64 {
        let f = match self.fallback {
            Some(Fallback::Owned(ref v)) => v.len() as u64,
            _ => 0,
        };
        self.entries.bytes().len() as u64 + f
    }

    /// Starts reading the byte that holds entry `index`, so that a [`Self::get`] of it
    /// soon after finds it in the cache ([`super::prefetch`]). A two-bit table's
    /// fallback nibble, read only for code 0, is not asked for.
    #[inline]
    pub fn prefetch(&self, index: u64) {
        self.prefetch_in(self.entries.bytes(), index)
    }

    /// [`Self::prefetch`] in `bytes`, this table's entries ([`Reader`]).
    #[inline]
    fn prefetch_in(&self, bytes: &[u8], index: u64) {
        let byte = match self.format {
            Format::Nibbles => index >> 1,
            Format::Bytes => index,
            Format::Crumbs => index >> 2,
        };
        if let Some(b) = bytes.get(byte as usize) {
            super::prefetch::read_soon(b);
        }
    }

    /// The lower bound stored for entry `index` ([`INFINITE`] when unreachable).
    #[inline]
    pub fn get(&self, index: u64) -> u32 {
        self.get_in(self.entries.bytes(), index)
    }

    /// [`Self::get`] in `bytes`, this table's entries ([`Reader`]).
    #[inline]
    fn get_in(&self, bytes: &[u8], index: u64) -> u32 {
        match self.format {
            Format::Nibbles => {
                let b = bytes[(index >> 1) as usize];
                self.nibble_depth[((b >> ((index & 1) * 4)) & 15) as usize]
            }
            Format::Bytes => {
                let b = bytes[index as usize];
                if b == UNREACHED {
                    INFINITE
                } else {
                    b as u32
                }
            }
            Format::Crumbs => {
                let b = bytes[(index >> 2) as usize];
                let code = (b >> ((index & 3) * 2)) & 3;
                let byte = match (code, &self.fallback) {
                    (0, Some(Fallback::Owned(f))) => f[(index >> 5) as usize],
                    (0, Some(Fallback::After(at))) => bytes[at + (index >> 5) as usize],
                    _ => return self.nibble_depth[code as usize],
                };
                // 15: a group never reached, which holds no entry of code 0.
                ((byte >> (((index >> 4) & 1) * 4)) & 15) as u32 % 15
            }
        }
    }

    /// How many entries hold each depth, up to the deepest, and how many cannot reach
    /// the goal.
    pub fn histogram(&self) -> (Vec<u64>, u64) {
        let mut h = vec![0u64; 256];
        let mut unreachable = 0;
        for i in 0..self.len {
            match self.get(i) {
                INFINITE => unreachable += 1,
                d => h[d as usize] += 1,
            }
        }
        while h.len() > 1 && h[h.len() - 1] == 0 {
            h.pop();
        }
        (h, unreachable)
    }

    /// Builds a table over the product of `comps` (move tables built) by breadth-first
    /// search from every source at once ([`Sources`]), so an entry holds the distance
    /// to the nearest goal position, which keeps it admissible. With `Metric::Qtm` a
    /// move costs its quarter-turn cost. `allow_bytes` keeps one byte per entry when
    /// some depth exceeds 14 (otherwise such depths are stored as 14).
    pub fn build(
        puzzle: &Puzzle,
        comps: &[&Component],
        sources: Sources,
        metric: Metric,
        allow_bytes: bool,
        what: &str,
        progress: &dyn Progress,
    ) -> PruneTable {
        let sizes: Vec<u64> = comps.iter().map(|c| c.count as u64).collect();
        let entries = bfs(puzzle, comps, sources, metric, what, progress);
        let max_depth = entries
            .iter()
            .copied()
            .filter(|&d| d != UNREACHED)
            .max()
            .unwrap_or(0);
        let format = if max_depth <= 14 || !allow_bytes {
            Format::Nibbles
        } else {
            Format::Bytes
        };
        let data = match format {
            Format::Nibbles => pack_nibbles(&entries),
            _ => entries,
        };
        let len = sizes.iter().product();
        PruneTable {
            metric,
            strides: strides_of(&sizes),
            sizes,
            len,
            format,
            max_depth: if format == Format::Nibbles {
                max_depth.min(14)
            } else {
                max_depth
            },
            entries: Entries::Owned(data),
            nibble_depth: nibble_depths(),
            fallback: None,
        }
    }
}

/// Packs byte entries two to a byte, clamping depths to 14 and unreached to 15.
pub(crate) fn pack_nibbles(entries: &[u8]) -> Vec<u8> {
    let code = |d: u8| {
        if d == UNREACHED {
            NIBBLE_UNREACHED
        } else {
            d.min(14)
        }
    };
    entries
        .par_chunks(2)
        .map(|pair| code(pair[0]) | (pair.get(1).map_or(NIBBLE_UNREACHED, |&d| code(d)) << 4))
        .collect()
}

/// The cost of every move in `metric`, weights included ([`Puzzle::move_cost`]).
pub fn move_costs(puzzle: &Puzzle, metric: Metric) -> Vec<u32> {
    (0..puzzle.moves.len())
        .map(|m| puzzle.move_cost(metric, crate::puzzle::MoveId(m as u16)))
        .collect()
}

/// Where a table's breadth-first search starts, all at depth 0: every tuple of goal
/// values of every goal position (`goals[p][j]` lists component `j`'s values in goal
/// position `p`) and, for a goal that holds a subgroup's positions
/// ([`crate::puzzle::Goal::within`]), every entry the moves `within` reach from them:
/// the projection of the subgroup's positions.
#[derive(Clone, Copy)]
pub struct Sources<'g> {
    pub goals: &'g [Vec<Vec<u32>>],
    pub within: &'g [MoveId],
}

impl<'g> Sources<'g> {
    /// The tuples of `goals` alone.
    pub fn goals(goals: &'g [Vec<Vec<u32>>]) -> Sources<'g> {
        Sources { goals, within: &[] }
    }
}

/// Sets to 0 every entry that the moves `within` reach from an entry at 0 (one of the
/// goal tuples), and returns how many it set: the sources of a goal that holds every
/// position a subgroup reaches. The subgroup is finite, so its moves' inverses are
/// products of them and forward steps alone reach all of it.
fn flood(
    table: &[AtomicU8],
    comps: &[&Component],
    strides: &[u64],
    within: &[MoveId],
    nm: usize,
) -> u64 {
    if within.is_empty() {
        return 0;
    }
    let mut queue: Vec<u64> = (0..table.len() as u64)
        .filter(|&i| table[i as usize].load(Relaxed) == 0)
        .collect();
    let mut added = 0;
    let mut values = vec![0u32; comps.len()];
    while let Some(idx) = queue.pop() {
        for (c, (v, &s)) in comps.iter().zip(values.iter_mut().zip(strides)) {
            *v = ((idx / s) % c.count as u64) as u32;
        }
        for &m in within {
            let child: u64 = comps
                .iter()
                .zip(&values)
                .zip(strides)
                .map(|((c, &v), &s)| c.table[v as usize * nm + m.index()] as u64 * s)
                .sum();
            if table[child as usize].swap(0, Relaxed) != 0 {
                added += 1;
                queue.push(child);
            }
        }
    }
    added
}

/// Breadth-first search over the product of `comps`, one byte per entry.
///
/// Layer `d` is expanded either forwards (every entry at `d` sets its successors to
/// `d + cost` when that is lower) or, once most entries are known, backwards (every
/// entry still above `d + 1` looks for a neighbour at `d`; a move's inverse is a move
/// of the same cost, so neighbours and predecessors coincide). Costs can exceed 1 in
/// the quarter-turn metric and with `MoveCosts` weights, so an entry may first get a
/// tentative depth that a later layer lowers; every entry of layer `d` is final when
/// layer `d` is expanded. A weight of 0 makes a move free: its successors join layer
/// `d` itself, so the layer is expanded again until it stops growing (Dial's buckets
/// with a zero-cost closure per bucket).
///
fn bfs(
    puzzle: &Puzzle,
    comps: &[&Component],
    sources: Sources,
    metric: Metric,
    what: &str,
    progress: &dyn Progress,
) -> Vec<u8> {
    let Sources { goals, within } = sources;
    let nm = puzzle.moves.len();
    let costs = move_costs(puzzle, metric);
    let sizes: Vec<u64> = comps.iter().map(|c| c.count as u64).collect();
    let strides = strides_of(&sizes);
    let len: u64 = sizes.iter().product();
    let k = comps.len();
    let minor = comps[k - 1];
    let minor_n = minor.count as usize;
    let majors = (len / minor_n as u64) as usize;
    let major_sizes = &sizes[..k - 1];
    let major_strides: Vec<u64> = strides[..k - 1]
        .iter()
        .map(|s| s / minor_n as u64)
        .collect();
    // A table holds distances *to* the goal, so forward expansion from the goal walks
    // moves backwards: from x to every y with y * m = x. When every move's inverse is a
    // move of the same cost (no directed moves) that is the same as walking forwards;
    // otherwise each component gets the inverse of its move table. Backward expansion
    // ("is some x * m at depth d?") always uses the forward tables.
    // Weights may differ between a move and its inverse (`R 1`, `R' 2`), and then the
    // forward tables do not give predecessors at the right cost.
    let invertible = !puzzle.has_weights()
        && puzzle
            .base_moves
            .iter()
            .all(|b| !b.directed || b.order <= 2);
    let inverses: Vec<Vec<u32>> = if invertible {
        Vec::new()
    } else {
        comps
            .iter()
            .map(|c| {
                let mut inv = vec![0u32; c.table.len()];
                for (i, &to) in c.table.iter().enumerate() {
                    let (v, m) = (i / nm, i % nm);
                    inv[to as usize * nm + m] = v as u32;
                }
                inv
            })
            .collect()
    };
    let forward: Vec<&[u32]> = comps.iter().map(|c| c.table.as_slice()).collect();
    let towards_goal: Vec<&[u32]> = if invertible {
        forward.clone()
    } else {
        inverses.iter().map(|v| v.as_slice()).collect()
    };

    let unit_costs = costs.iter().all(|&c| c == 1);
    let cheapest = costs.iter().copied().min().unwrap_or(1);
    let zero_costs = cheapest == 0;
    // The depth after a move, kept below the unreached code (deeper entries are stored
    // as 254, still a lower bound).
    let step = |d: u8, cost: u32| d.saturating_add(cost.min(255) as u8).min(UNREACHED - 1);
    let table: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(UNREACHED)).collect();
    // Every tuple of goal values is a source at depth 0.
    let mut visited = 0u64;
    for goals in goals.iter().filter(|b| b.iter().all(|g| !g.is_empty())) {
        super::comp::goal::for_each_goal_tuple(goals, |tuple| {
            let idx: u64 = tuple
                .iter()
                .zip(&strides)
                .map(|(&v, &s)| v as u64 * s)
                .sum();
            if table[idx as usize].swap(0, Relaxed) != 0 {
                visited += 1;
            }
            true
        });
    }
    visited += flood(&table, comps, &strides, within, nm);
    progress.start(what, Some(len));
    progress.inc(visited);
    let max_assigned = AtomicU64::new(0);
    let decode_major = |mut j: usize, out: &mut [u32]| {
        for (c, &size) in major_sizes.iter().enumerate().rev() {
            out[c] = (j as u64 % size) as u32;
            j = (j as u64 / size) as usize;
        }
    };
    let mut d: u8 = 0;
    // Set when a free move put an entry into layer `d` while it was being expanded.
    let grew = std::sync::atomic::AtomicBool::new(false);
    // With unit costs every entry a layer reaches first lies in the next layer, so the
    // layer's size and the entries still unreached follow from the counts of new
    // entries, without reading the table (two passes per layer otherwise, as much work
    // as expanding a small layer). Two threads reaching one entry at once may both count
    // it, so the counts can run high: they only choose the direction of expansion and
    // say when a layer is empty, which a count of 0 (nothing reached) still says exactly.
    let (mut reached, mut next_layer) = (visited, visited);
    loop {
        let (at_d, unknown) = if unit_costs {
            (next_layer, len.saturating_sub(reached))
        } else {
            table
                .par_iter()
                .with_min_len(1 << 14)
                .map(|e| {
                    let v = e.load(Relaxed);
                    ((v == d) as u64, (v > d) as u64)
                })
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
        };
        if at_d == 0 && d as u64 >= max_assigned.load(Relaxed) {
            break;
        }
        if d >= UNREACHED - 2 {
            // Depths this large never occur in practice; keep the table admissible by
            // calling everything left "at least this deep".
            table.par_iter().for_each(|e| {
                if e.load(Relaxed) == UNREACHED {
                    e.store(d, Relaxed);
                }
            });
            break;
        }
        let backward = at_d > unknown / 3;
        // The lowest depth a move from layer `d` gives: an entry at or below it cannot
        // be lowered by this layer.
        let lowest = step(d, cheapest);
        grew.store(false, Relaxed);
        let tabs = if backward { &forward } else { &towards_goal };
        let minor_table = tabs[k - 1];
        let newly = AtomicU64::new(0);
        (0..majors).into_par_iter().with_min_len(16).for_each_init(
            || (vec![0u32; k.saturating_sub(1)], vec![0usize; nm]),
            |(vals, targets), j| {
                let block = &table[j * minor_n..(j + 1) * minor_n];
                let wanted = |e: u8| {
                    if backward {
                        e > lowest
                    } else {
                        e == d
                    }
                };
                if !block.iter().any(|e| wanted(e.load(Relaxed))) {
                    return;
                }
                decode_major(j, vals);
                for (m, t) in targets.iter_mut().enumerate() {
                    *t = tabs[..k - 1]
                        .iter()
                        .zip(vals.iter())
                        .zip(&major_strides)
                        .map(|((tab, &v), &s)| tab[v as usize * nm + m] as u64 * s)
                        .sum::<u64>() as usize
                        * minor_n;
                }
                // Counters stay local to the block: shared atomics updated for every
                // entry would bounce their cache line between the cores.
                let (mut found, mut deepest) = (0u64, 0u8);
                if backward && unit_costs {
                    // With unit costs an entry not yet at or below `d` is unreached, and
                    // one neighbour at `d` settles it at `d + 1`: the general loop's
                    // per-move cost and best-so-far checks are left out of the hottest
                    // pass of a build (most of a whole-puzzle table's time).
                    let next = d + 1;
                    for (v, e) in block.iter().enumerate() {
                        if e.load(Relaxed) != UNREACHED {
                            continue;
                        }
                        let row = &minor_table[v * nm..(v + 1) * nm];
                        if targets
                            .iter()
                            .zip(row)
                            .any(|(&t, &mv)| table[t + mv as usize].load(Relaxed) == d)
                        {
                            e.store(next, Relaxed);
                            found += 1;
                        }
                    }
                    if found > 0 {
                        deepest = next;
                    }
                } else if backward {
                    for (v, e) in block.iter().enumerate() {
                        let cur = e.load(Relaxed);
                        if cur <= lowest {
                            continue;
                        }
                        let mut best = cur;
                        for m in 0..nm {
                            let nd = step(d, costs[m]);
                            if nd >= best {
                                continue;
                            }
                            let t = targets[m] + minor_table[v * nm + m] as usize;
                            if table[t].load(Relaxed) == d {
                                best = nd;
                                if nd == lowest {
                                    break;
                                }
                            }
                        }
                        if best < cur {
                            e.store(best, Relaxed);
                            if best == d {
                                grew.store(true, Relaxed);
                            }
                            deepest = deepest.max(best);
                            found += (cur == UNREACHED) as u64;
                        }
                    }
                } else if unit_costs {
                    // Forwards with unit costs every entry this layer reaches is either
                    // known already or unreached and now at `d + 1`; racing plain stores
                    // of that one value agree.
                    let next = d + 1;
                    for (v, e) in block.iter().enumerate() {
                        if e.load(Relaxed) != d {
                            continue;
                        }
                        let row = &minor_table[v * nm..(v + 1) * nm];
                        for (&t, &mv) in targets.iter().zip(row) {
                            let target = &table[t + mv as usize];
                            if target.load(Relaxed) == UNREACHED {
                                target.store(next, Relaxed);
                                found += 1;
                            }
                        }
                    }
                    if found > 0 {
                        deepest = next;
                    }
                } else {
                    for (v, e) in block.iter().enumerate() {
                        if e.load(Relaxed) != d {
                            continue;
                        }
                        for m in 0..nm {
                            let nd = step(d, costs[m]);
                            let t = targets[m] + minor_table[v * nm + m] as usize;
                            let cur = table[t].load(Relaxed);
                            if cur > nd {
                                // With unit costs every write of this layer is d + 1, so
                                // racing plain stores agree; otherwise keep the minimum.
                                let before = if unit_costs {
                                    table[t].store(nd, Relaxed);
                                    cur
                                } else {
                                    table[t].fetch_min(nd, Relaxed)
                                };
                                found += (before == UNREACHED) as u64;
                                deepest = deepest.max(nd);
                                if nd == d && before > d {
                                    grew.store(true, Relaxed);
                                }
                            }
                        }
                    }
                }
                if found > 0 {
                    newly.fetch_add(found, Relaxed);
                }
                if deepest > 0 {
                    max_assigned.fetch_max(deepest as u64, Relaxed);
                }
            },
        );
        let found = newly.load(Relaxed);
        progress.inc(found);
        reached += found;
        next_layer = found;
        // Entries that free moves added to layer `d` have not all been expanded yet.
        if zero_costs && grew.load(Relaxed) {
            continue;
        }
        d += 1;
    }
    progress.finish();
    table.into_iter().map(AtomicU8::into_inner).collect()
}

mod reader;
#[cfg(test)]
mod tests;

pub use reader::Reader;
