//! The breadth-first build of a symmetry-reduced table, in place: entries are packed
//! four or eight bits to a 64-bit word from the start and lowered atomically, so the
//! build needs no byte of scratch per entry and the stored table is the build's own
//! memory (a table may take most of the budget).
//!
//! Entries are laid out class by class (`class * minor_len + minor index`), and all
//! the moves of one class lead to the same few classes. A layer is expanded either
//! forwards (each entry at depth `d` lowers its successors) or, with unit costs and
//! once few entries are left, backwards (each unset entry looks for a neighbour at
//! `d`; a move's inverse is a move, so neighbours and predecessors coincide). Either
//! way one class's work touches one block and the blocks of its move targets, which
//! stay in cache while the block's entries are done.
//!
//! Invariant, as in [`super::table`]: whenever an entry is lowered, its variants under
//! the representative's stabiliser are lowered with it, so every variant of a position
//! class holds the same value at the end of each layer.

use super::cells::Cells;
use super::classes::Classes;
use super::split;
use crate::progress::Progress;
use crate::puzzle::{Metric, Puzzle};
use crate::table::comp::goal::for_each_goal_tuple;
use crate::table::comp::Component;
use crate::table::prune::{move_costs, strides_of, Format};
use rayon::prelude::*;

/// What one build reads, shared by its workers.
struct Space<'a> {
    classes: &'a Classes,
    major: &'a [&'a Component],
    minor: &'a [&'a Component],
    conj: &'a [Vec<u32>],
    major_sizes: Vec<u64>,
    major_strides: Vec<u64>,
    minor_sizes: Vec<u64>,
    minor_strides: Vec<u64>,
    minor_len: u64,
    nm: usize,
    cells: Cells,
    /// With one minor component: `rows[(s * nm + m) * n + v]`, the minor value after
    /// move `m` then the subgroup's symmetry `s` (a permutation of the values, so a
    /// class's work runs move by move through one row and one target block, both in
    /// the first-level cache). Empty otherwise, or when too large.
    rows: Vec<u32>,
}

/// The most entries of [`Space::rows`].
const MAX_ROWS: usize = 1 << 24;

/// One forward pass: the depth expanded, the moves' costs, the largest depth stored,
/// and the classes this worker writes.
#[derive(Clone, Copy)]
struct Pass<'c> {
    d: u8,
    costs: &'c [u32],
    cap: u8,
    region: (u32, u32),
}

/// Per-worker scratch.
struct Scratch {
    a: Vec<u32>,
    a2: Vec<u32>,
    b: Vec<u32>,
    b2: Vec<u32>,
    /// Per move: the target class, the symmetry onto its representative, and the
    /// class's stabiliser (as an index into the stabiliser sets).
    targets: Vec<(u32, usize, u32)>,
    /// The minor values of a class's entries being worked on, and of those found.
    list: Vec<u32>,
    found: Vec<u32>,
}

impl Space<'_> {
    fn scratch(&self) -> Scratch {
        Scratch {
            a: vec![0; self.major.len()],
            a2: vec![0; self.major.len()],
            b: vec![0; self.minor.len()],
            b2: vec![0; self.minor.len()],
            targets: vec![(0, 0, 0); self.nm],
            list: Vec::with_capacity(self.minor_len.min(1 << 16) as usize),
            found: Vec::with_capacity(self.minor_len.min(1 << 16) as usize),
        }
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

    /// The minor values of minor index `idx`.
    #[inline]
    fn minor_values(&self, idx: u64, b: &mut [u32]) {
        if let [only] = b {
            *only = idx as u32;
        } else {
            split(idx, &self.minor_sizes, b);
        }
    }

    /// The class (and symmetry onto its representative) each move takes `class`'s
    /// representative to.
    fn targets(&self, class: usize, sc: &mut Scratch) {
        split(
            self.classes.reps[class] as u64,
            &self.major_sizes,
            &mut sc.a,
        );
        for m in 0..self.nm {
            for ((x, &v), c) in sc.a2.iter_mut().zip(&sc.a).zip(self.major) {
                *x = c.table[v as usize * self.nm + m];
            }
            let (c2, s) = self.classify(&sc.a2);
            sc.targets[m] = (c2, s, self.classes.stab[c2 as usize]);
        }
    }

    /// The minor index of the entry that move `m` (which takes the class to a class
    /// whose representative it reaches through symmetry `s`) leads to from minor values
    /// `b`, and those minor values in `b2`.
    #[inline]
    fn step_minor(&self, b: &[u32], m: usize, s: usize, b2: &mut [u32]) -> u64 {
        let mut idx = 0;
        for (j, (x, &v)) in b2.iter_mut().zip(b).enumerate() {
            let next = self.minor[j].table[v as usize * self.nm + m];
            *x = self.conj[j][s * self.minor_sizes[j] as usize + next as usize];
            idx += *x as u64 * self.minor_strides[j];
        }
        idx
    }

    /// Lowers entry `(class, minor values b)` at minor index `idx` to `d`, and its
    /// variants under the representative's stabiliser; whether the entry was lowered.
    fn place(&self, class: u32, stab: u32, b: &[u32], idx: u64, d: u8, owned: bool) -> bool {
        let base = class as u64 * self.minor_len;
        let lower = |i: u64| {
            if owned {
                self.cells.lower_owned(i, d)
            } else {
                self.cells.lower(i, d)
            }
        };
        let lowered = lower(base + idx);
        for &t in &self.classes.stab_sets[stab as usize] {
            let t = t as usize;
            let v: u64 = b
                .iter()
                .enumerate()
                .map(|(j, &v)| {
                    self.conj[j][t * self.minor_sizes[j] as usize + v as usize] as u64
                        * self.minor_strides[j]
                })
                .sum();
            lower(base + v);
        }
        lowered
    }

    /// [`Space::forward`] with one minor component, move by move through
    /// [`Space::rows`].
    fn forward_rows(&self, pass: &Pass, sc: &mut Scratch) -> u8 {
        let Pass {
            d,
            costs,
            cap,
            region,
        } = *pass;
        let n = self.minor_len as usize;
        let mut deepest = 0u8;
        for (m, &(c2, s, stab)) in sc.targets.iter().enumerate() {
            let nd = d as u32 + costs[m];
            if nd > cap as u32 || c2 < region.0 || c2 >= region.1 {
                continue;
            }
            let nd = nd as u8;
            let row = &self.rows[(s * self.nm + m) * n..][..n];
            let base = c2 as u64 * self.minor_len;
            let variants = &self.classes.stab_sets[stab as usize];
            for &v in sc.list.iter() {
                let idx = row[v as usize];
                if self.cells.lower_owned(base + idx as u64, nd) {
                    deepest = deepest.max(nd);
                }
                for &t in variants {
                    let w = self.conj[0][t as usize * n + idx as usize];
                    self.cells.lower_owned(base + w as u64, nd);
                }
            }
        }
        deepest
    }

    /// [`Space::backward`] with one minor component: the class's unset entries are
    /// listed, then each move's neighbours are looked at for all of them, and the
    /// entries found leave the list.
    fn backward_rows(&self, class: usize, d: u8, own_stab: u32, sc: &mut Scratch) {
        let n = self.minor_len as usize;
        let start = class as u64 * self.minor_len;
        let Scratch {
            targets,
            list,
            found,
            ..
        } = sc;
        found.clear();
        for (m, &(c2, s, _)) in targets.iter().enumerate() {
            if list.is_empty() {
                break;
            }
            let row = &self.rows[(s * self.nm + m) * n..][..n];
            let base = c2 as u64 * self.minor_len;
            list.retain(|&v| {
                if self.cells.get(base + row[v as usize] as u64) == d {
                    found.push(v);
                    false
                } else {
                    true
                }
            });
        }
        let variants = &self.classes.stab_sets[own_stab as usize];
        for &v in found.iter() {
            // Another thread may write the word this block shares with the next
            // class's: a locked write.
            self.cells.lower(start + v as u64, d + 1);
            for &t in variants {
                let w = self.conj[0][t as usize * n + v as usize];
                self.cells.lower(start + w as u64, d + 1);
            }
        }
    }

    /// Lists in `list` the minor indices of `class`'s entries equal to `v`.
    fn list_equal(&self, class: usize, v: u8, list: &mut Vec<u32>) {
        let start = class as u64 * self.minor_len;
        list.clear();
        self.cells
            .for_each_equal(start, start + self.minor_len, v, |i| {
                list.push((i - start) as u32)
            });
    }

    /// Loads the blocks of a class's move targets within `region` into cache together,
    /// when `entries` of the class will reach them (below [`WARM_AT`] scattered
    /// lookups touch fewer lines than a block has).
    fn warm_targets(&self, targets: &[(u32, usize, u32)], region: (u32, u32), entries: usize) {
        if (entries as u64) < WARM_AT {
            return;
        }
        for &(c2, _, _) in targets.iter().filter(|t| region.0 <= t.0 && t.0 < region.1) {
            let start = c2 as u64 * self.minor_len;
            self.cells.warm(start, start + self.minor_len);
        }
    }

    /// Lists the entries of `class` equal to `value` and the classes its moves lead to
    /// (into `sc`), and warms those in `region`; false when there is nothing to do: no
    /// such entry, or no move into `region`.
    fn open_class(&self, class: usize, value: u8, region: (u32, u32), sc: &mut Scratch) -> bool {
        self.list_equal(class, value, &mut sc.list);
        if sc.list.is_empty() {
            return false;
        }
        self.targets(class, sc);
        if !sc.targets.iter().any(|t| region.0 <= t.0 && t.0 < region.1) {
            return false;
        }
        self.warm_targets(&sc.targets, region, sc.list.len());
        true
    }

    /// `parts` ranges of classes covering them all, each starting on a word boundary
    /// of the entries, so that no word holds entries of two ranges.
    fn regions(&self, parts: usize) -> Vec<(u32, u32)> {
        let n = self.classes.count();
        let per = self.cells.per();
        let step = per / gcd(self.minor_len % per, per);
        let mut out = Vec::new();
        let mut lo = 0u64;
        for k in 1..=parts as u64 {
            let hi = if k == parts as u64 {
                n
            } else {
                (k * n / parts as u64).next_multiple_of(step).min(n)
            };
            if hi > lo {
                out.push((lo as u32, hi as u32));
                lo = hi;
            }
        }
        out
    }
    /// Expands every entry of `class` at depth `d` forwards, into the classes of
    /// `region` only: the pass gives each thread a region of classes whose words no
    /// other thread writes (every thread reads every class), so writes need no lock.
    fn forward(&self, class: usize, pass: &Pass, sc: &mut Scratch) -> u8 {
        let Pass {
            d,
            costs,
            cap,
            region,
        } = *pass;
        if !self.open_class(class, d, region, sc) {
            return 0;
        }
        let mine = |c2: u32| region.0 <= c2 && c2 < region.1;
        if !self.rows.is_empty() {
            return self.forward_rows(pass, sc);
        }
        let mut deepest = 0u8;
        let Scratch {
            b,
            b2,
            targets,
            list,
            ..
        } = sc;
        for &v in list.iter() {
            self.minor_values(v as u64, b);
            for (m, &(c2, s, stab)) in targets.iter().enumerate() {
                let nd = d as u32 + costs[m];
                if nd > cap as u32 || !mine(c2) {
                    continue;
                }
                let idx = self.step_minor(b, m, s, b2);
                if self.place(c2, stab, b2, idx, nd as u8, true) {
                    deepest = deepest.max(nd as u8);
                }
            }
        }
        deepest
    }

    /// Sets every unset entry of `class` with a neighbour at `d` to `d + 1` (unit
    /// costs only).
    fn backward(&self, class: usize, d: u8, sc: &mut Scratch) {
        if !self.open_class(class, self.cells.unset(), (0, u32::MAX), sc) {
            return;
        }
        let own_stab = self.classes.stab[class];
        if !self.rows.is_empty() {
            return self.backward_rows(class, d, own_stab, sc);
        }
        let Scratch {
            b,
            b2,
            targets,
            list,
            ..
        } = sc;
        for &v in list.iter() {
            self.minor_values(v as u64, b);
            for (m, &(c2, s, _)) in targets.iter().enumerate() {
                let idx = self.step_minor(b, m, s, b2);
                if self.cells.get(c2 as u64 * self.minor_len + idx) == d {
                    // Another thread may write the word this block shares with the
                    // next class's: a locked write.
                    self.place(class as u32, own_stab, b, v as u64, d + 1, false);
                    break;
                }
            }
        }
    }
}

impl Space<'_> {
    /// The layers of a two-bit build, every move counted 1 (a lower bound under any
    /// metric whose moves cost at least 1). The codes are relative: 0 for the depths
    /// already expanded, 1 for the frontier, 2 for the layer it reaches, 3 for unset;
    /// after each layer 1 and 2 shift down to 0 and 1. The build stops where the 4-bit
    /// build settles its last layers (the next layer, grown by the last ratio, would
    /// cover twice what is left) or when nothing is left: then 1 is the frontier's
    /// depth `d`, 2 is `d + 1`, and 3 (the entries left) at least `d + 2`, which is
    /// returned as the table's deepest stored depth. Code 0 (depths below `d`) bounds
    /// nothing by itself; on the 3x3x3's corners × flips it holds the depths up to 8,
    /// under one entry in a hundred, but the search reaches them in every deep node. For
    /// those, `fallback` gets, per group of 16 entries, the least depth in the group
    /// ([`Cells::mark_groups`]): on the 3x3x3 the distance with four edges' flips
    /// forgotten.
    fn crumb_layers(&self, fallback: &mut [u8], progress: &dyn Progress) -> u8 {
        const FRONTIER: u8 = 1;
        const REACHED: u8 = 2;
        const UNSET: u8 = 3;
        let unit = vec![1u32; self.nm];
        let classes_n = self.classes.count() as usize;
        let mut d = 0u8;
        let mut at_d = self.cells.count(FRONTIER);
        self.cells.mark_groups(fallback, FRONTIER, 0);
        progress.inc(at_d);
        loop {
            let left = self.cells.count(UNSET);
            if at_d == 0 || left == 0 {
                return d.saturating_add(2);
            }
            if left < at_d.saturating_mul(4) {
                (0..classes_n)
                    .into_par_iter()
                    .with_min_len(16)
                    .for_each_init(|| self.scratch(), |sc, c| self.backward(c, FRONTIER, sc));
            } else {
                self.regions(rayon::current_num_threads())
                    .into_par_iter()
                    .for_each(|region| {
                        let mut sc = self.scratch();
                        let pass = Pass {
                            d: FRONTIER,
                            costs: &unit,
                            cap: REACHED,
                            region,
                        };
                        for c in 0..classes_n {
                            self.forward(c, &pass, &mut sc);
                        }
                    });
            }
            let reached = self.cells.count(REACHED);
            let left = self.cells.count(UNSET);
            self.cells.mark_groups(fallback, REACHED, d + 1);
            progress.inc(reached);
            let grown = reached as u128 * reached as u128 / at_d.max(1) as u128;
            if reached == 0 || left == 0 || grown >= 2 * left as u128 || d >= u8::MAX - 3 {
                progress.inc(left);
                return d + 2;
            }
            self.cells.shift_down();
            debug_assert_eq!(self.cells.count(REACHED), 0);
            at_d = reached;
            d += 1;
        }
    }
}

/// [`Space::rows`] for `minor`, when there is one minor component and the rows are
/// few enough.
fn rows(minor: &[&Component], conj: &[Vec<u32>], syms: usize, nm: usize) -> Vec<u32> {
    let [c] = minor else {
        return Vec::new();
    };
    let n = c.count as usize;
    if syms * nm * n > MAX_ROWS {
        return Vec::new();
    }
    let mut rows = vec![0u32; syms * nm * n];
    rows.par_chunks_mut(n).enumerate().for_each(|(k, row)| {
        let (s, m) = (k / nm, k % nm);
        for (v, slot) in row.iter_mut().enumerate() {
            *slot = conj[0][s * n + c.table[v * nm + m] as usize];
        }
    });
    rows
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

/// The entries of a class to expand (or fill backwards) from which its targets' blocks
/// are loaded whole first: below it, scattered lookups touch fewer lines than a block
/// has.
const WARM_AT: u64 = 32;

/// Why a build stopped short.
pub struct TooDeep;

/// How a build stores its entries.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub format: Format,
    /// Store depths above the format's largest value as that value, instead of
    /// stopping with [`TooDeep`].
    pub clip: bool,
    /// A table of at least this many entries may settle its last layers: once the
    /// frontier, grown by the last layer's ratio, would cover twice what is left, every
    /// entry left gets the next depth (exact for most of them, one too low for the few
    /// deeper ones: still a lower bound) and the two most expensive passes are skipped.
    pub settle_from: u64,
}

/// Builds the table by breadth-first search from every goal tuple (`goals[j]`:
/// component `j`'s values, major components first), stored as `layout` says. Returns
/// the entries, the largest depth stored and, for two-bit entries, the fallback
/// nibbles of their groups.
#[allow(clippy::too_many_arguments)]
pub fn bfs(
    puzzle: &Puzzle,
    classes: &Classes,
    major: &[&Component],
    minor: &[&Component],
    conj: &[Vec<u32>],
    goals: &[Vec<u32>],
    metric: Metric,
    layout: Layout,
    what: &str,
    progress: &dyn Progress,
) -> Result<(Cells, u8, Option<Vec<u8>>), TooDeep> {
    let Layout {
        format,
        clip,
        settle_from,
    } = layout;
    let nm = puzzle.moves.len();
    let costs = move_costs(puzzle, metric);
    let unit = costs.iter().all(|&c| c == 1);
    let major_sizes: Vec<u64> = major.iter().map(|c| c.count as u64).collect();
    let minor_sizes: Vec<u64> = minor.iter().map(|c| c.count as u64).collect();
    let minor_len: u64 = minor_sizes.iter().product();
    let len = classes.count() * minor_len;
    let space = Space {
        classes,
        major,
        minor,
        conj,
        major_strides: strides_of(&major_sizes),
        major_sizes,
        minor_strides: strides_of(&minor_sizes),
        minor_sizes,
        minor_len,
        nm,
        cells: Cells::new(len, format),
        rows: rows(minor, conj, classes.syms.len(), nm),
    };
    let unset = space.cells.unset();
    // The largest depth an entry can hold; the value above it marks "unset".
    let cap = unset - 1;
    progress.start(what, Some(len));
    let crumbs = format == Format::Crumbs;
    let (ka, kb) = (major.len(), minor.len());
    let (mut a, mut b) = (vec![0u32; ka], vec![0u32; kb]);
    for_each_goal_tuple(goals, |tuple| {
        a.copy_from_slice(&tuple[..ka]);
        b.copy_from_slice(&tuple[ka..]);
        let (class, s) = space.classify(&a);
        let mut idx = 0;
        for (j, v) in b.iter_mut().enumerate() {
            *v = conj[j][s * space.minor_sizes[j] as usize + *v as usize];
            idx += *v as u64 * space.minor_strides[j];
        }
        // Two-bit codes: the goal is the first frontier, code 1.
        let code = crumbs as u8;
        space.place(class, classes.stab[class as usize], &b, idx, code, false);
        true
    });
    if crumbs {
        // One byte per word, padded to whole 32-byte blocks for the cache file.
        let mut fallback = vec![0xFFu8; space.cells.words().next_multiple_of(32)];
        let top = space.crumb_layers(&mut fallback, progress);
        progress.finish();
        return Ok((space.cells, top, Some(fallback)));
    }
    let mut max_assigned = 0u8;
    let mut deepest = 0u8;
    let mut d = 0u8;
    let mut before = 0u64;
    loop {
        let at_d = space.cells.count(d);
        progress.inc(at_d);
        if at_d > 0 {
            deepest = d;
        }
        let left = space.cells.count(unset);
        if (at_d == 0 || left == 0) && d >= max_assigned {
            break;
        }
        let grown = at_d as u128 * at_d as u128 / before.max(1) as u128;
        if unit && len >= settle_from && before > 0 && d < cap && grown >= 2 * left as u128 {
            space.cells.fill_unset(d + 1);
            progress.inc(left);
            deepest = d + 1;
            break;
        }
        before = at_d;
        if d == cap {
            if left == 0 {
                break;
            }
            if !clip {
                progress.finish();
                return Err(TooDeep);
            }
            space.cells.fill_unset(cap);
            deepest = cap;
            break;
        }
        let classes_n = classes.count() as usize;
        // Forwards costs one placement per frontier entry and move; backwards one look
        // per unset entry and move until a neighbour at `d` turns up, which is soon for
        // most of them once the frontier is a fair share of what is left (measured on
        // the 3x3x3's corners × flips: its 3.3 G-entry layer 10 is much cheaper
        // backwards, its 0.45 G-entry layer 9 forwards).
        if unit && left < at_d.saturating_mul(4) {
            (0..classes_n)
                .into_par_iter()
                .with_min_len(16)
                .for_each_init(|| space.scratch(), |sc, c| space.backward(c, d, sc));
            max_assigned = max_assigned.max(d + 1);
        } else {
            let reached = space
                .regions(rayon::current_num_threads())
                .into_par_iter()
                .map(|region| {
                    let mut sc = space.scratch();
                    let pass = Pass {
                        d,
                        costs: &costs,
                        cap,
                        region,
                    };
                    (0..classes_n)
                        .map(|c| space.forward(c, &pass, &mut sc))
                        .max()
                        .unwrap_or(0)
                })
                .max()
                .unwrap_or(0);
            max_assigned = max_assigned.max(reached);
        }
        d += 1;
    }
    progress.finish();
    Ok((space.cells, deepest, None))
}
