//! The breadth-first search over the perfect index, layer by layer, in parallel.
//!
//! Distances are distances *to solve*: `x` is at distance `d + 1` when some move `m` of
//! cost `c` takes it to a position at distance `d + 1 - c` and none does better. Each
//! step finds layer `d + 1` in one of two ways, whichever touches fewer entries:
//!
//! - forward ("push"): every entry holding `(d + 1 - c) mod M` is expanded through the
//!   inverses of the cost-`c` moves and each unseen predecessor is marked. Entries of
//!   older layers share that value (`d + 1 - c - M`, ...), but all their predecessors
//!   are already seen, so they only cost time.
//! - backward ("pull"): every unseen entry looks at its successors under the cost-`c`
//!   moves and joins the layer when one holds `(d + 1 - c) mod M`. A successor of an
//!   unseen position lies at distance at least `d + 1 - c`, so the value cannot belong
//!   to an older layer; this needs `M` greater than the largest cost.
//!
//! Writes in one step all store `(d + 1) mod M`, distinct from every value the step
//! reads, so workers never disturb each other's reads.

use super::index::{Cursor, Indexer, Scratch};
use super::table::PackedTable;
use super::{GodError, Layers};
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The most last-layer indices kept for choosing antipodes; a larger last layer falls
/// back to scanning the table.
const KEEP_LAST: u64 = 1 << 20;

/// What the search needs to know about moves.
pub(crate) struct Plan<'a> {
    pub(crate) ix: &'a Indexer,
    /// `push[c - 1]`: the transforms leading from a position at distance `e` to its
    /// predecessors through a move of cost `c` (inverses of the cost-`c` moves).
    pub(crate) push: Vec<Vec<usize>>,
    /// `pull[c - 1]`: the transforms of the cost-`c` moves themselves.
    pub(crate) pull: Vec<Vec<usize>>,
    /// Whether entries hold exact distances (width 8, at most 254 deep).
    pub(crate) exact: bool,
    pub(crate) bits: u32,
}

/// The finished search.
pub(crate) struct IndexedRun {
    pub(crate) table: PackedTable,
    pub(crate) counts: Vec<u64>,
    /// The indices of the deepest layer, sorted, when it was small enough to keep.
    pub(crate) last: Option<Vec<u64>>,
}

/// Runs the search from index `start` (the solved position).
pub(crate) fn run(
    plan: &Plan,
    start: u64,
    progress: &dyn Progress,
    on_layer: &Layers,
) -> Result<IndexedRun, GodError> {
    let ix = plan.ix;
    let table = PackedTable::new(ix.space(), plan.bits);
    let modulus = table.unseen() as usize;
    table.try_set(start, 0);
    let mut counts = vec![1u64];
    on_layer(0, 1);
    let mut seen = 1u64;
    let mut last = Some(vec![start]);
    let words = table.word_count();
    let threads = rayon::current_num_threads().max(1);
    let chunk = (words / (threads * 16)).clamp(64, 8192);
    let nchunks = words.div_ceil(chunk);
    let avg_pull = plan.pull.iter().map(Vec::len).sum::<usize>().max(1) as u64;
    while seen < ix.space() {
        let d = counts.len() - 1;
        if plan.exact && d + 1 >= modulus {
            return Err(GodError::TooDeep(modulus as u32 - 1));
        }
        // Work estimates: push expands every entry sharing a source value; pull visits
        // every unseen entry, which stops at its first hit or tries every move.
        let mut push_work = 0u64;
        for (ci, cols) in plan.push.iter().enumerate() {
            let c = ci + 1;
            if d + 1 < c {
                continue;
            }
            let mut e = (d + 1 - c) as i64;
            while e >= 0 {
                push_work += counts[e as usize] * cols.len() as u64;
                e -= modulus as i64;
            }
        }
        let pull_work = (ix.space() - seen) * avg_pull / 2;
        let pull = pull_work < push_work;
        progress.start(&format!("depth {}", d + 1), Some(words as u64));
        let step = Step {
            plan,
            table: &table,
            d,
            modulus,
            chunk,
            words,
            kept: AtomicU64::new(0),
            overflow: AtomicBool::new(false),
            progress,
        };
        let (found, list) = (0..nchunks)
            .into_par_iter()
            .map(|ch| {
                if pull {
                    step.pull_chunk(ch)
                } else {
                    step.push_chunk(ch)
                }
            })
            .reduce(
                || (0, Vec::new()),
                |(a, mut la), (b, lb)| {
                    la.extend(lb);
                    (a + b, la)
                },
            );
        progress.finish();
        if found == 0 {
            break;
        }
        seen += found;
        counts.push(found);
        on_layer(d + 1, found);
        last = if step.overflow.load(Ordering::Relaxed) {
            None
        } else {
            let mut list = list;
            list.sort_unstable();
            Some(list)
        };
    }
    Ok(IndexedRun {
        table,
        counts,
        last,
    })
}

struct Step<'a> {
    plan: &'a Plan<'a>,
    table: &'a PackedTable,
    d: usize,
    modulus: usize,
    chunk: usize,
    words: usize,
    kept: AtomicU64,
    overflow: AtomicBool,
    progress: &'a dyn Progress,
}

impl Step<'_> {
    fn keep(&self, list: &mut Vec<u64>, i: u64) {
        if !self.overflow.load(Ordering::Relaxed) {
            list.push(i);
        }
    }

    fn done(&self, list: &mut Vec<u64>, words: usize) {
        let total = self.kept.fetch_add(list.len() as u64, Ordering::Relaxed) + list.len() as u64;
        if total > KEEP_LAST {
            self.overflow.store(true, Ordering::Relaxed);
        }
        if self.overflow.load(Ordering::Relaxed) {
            *list = Vec::new();
        }
        self.progress.inc(words as u64);
    }

    fn push_chunk(&self, ch: usize) -> (u64, Vec<u64>) {
        let t = self.table;
        let bits = t.bits();
        let per = t.per_word();
        let new_value = ((self.d + 1) % self.modulus) as u8;
        let mut cur = Cursor::new(self.plan.ix);
        let mut found = 0u64;
        let mut list = Vec::new();
        let classes = self.plan.push.len();
        let mut masks = vec![0u64; classes];
        let (lo, hi) = (ch * self.chunk, ((ch + 1) * self.chunk).min(self.words));
        for w in lo..hi {
            let mut union = 0u64;
            for c in 1..=classes {
                masks[c - 1] = 0;
                if self.d + 1 >= c && !self.plan.push[c - 1].is_empty() {
                    let v = ((self.d + 1 - c) % self.modulus) as u8;
                    masks[c - 1] = t.matches(w, v);
                    union |= masks[c - 1];
                }
            }
            while union != 0 {
                let bit = union.trailing_zeros();
                union &= union - 1;
                let i = w as u64 * per + (bit / bits) as u64;
                cur.seek(i);
                let c = (0..classes).find(|&c| masks[c] >> bit & 1 == 1).unwrap_or(0);
                for &col in &self.plan.push[c] {
                    let nb = cur.neighbour(col);
                    if t.try_set(nb, new_value) {
                        found += 1;
                        self.keep(&mut list, nb);
                    }
                }
            }
        }
        self.done(&mut list, hi - lo);
        (found, list)
    }

    fn pull_chunk(&self, ch: usize) -> (u64, Vec<u64>) {
        let t = self.table;
        let bits = t.bits();
        let per = t.per_word();
        let unseen = t.unseen();
        let new_value = ((self.d + 1) % self.modulus) as u8;
        let mut cur = Cursor::new(self.plan.ix);
        let mut found = 0u64;
        let mut list = Vec::new();
        let (lo, hi) = (ch * self.chunk, ((ch + 1) * self.chunk).min(self.words));
        for w in lo..hi {
            let mut todo = t.matches(w, unseen);
            let mut clear = 0u64;
            while todo != 0 {
                let bit = todo.trailing_zeros();
                todo &= todo - 1;
                let i = w as u64 * per + (bit / bits) as u64;
                cur.seek(i);
                let hit = self.plan.pull.iter().enumerate().any(|(ci, cols)| {
                    let c = ci + 1;
                    if self.d + 1 < c {
                        return false;
                    }
                    let v = ((self.d + 1 - c) % self.modulus) as u8;
                    cols.iter().any(|&col| t.get(cur.neighbour(col)) == v)
                });
                if hit {
                    clear |= ((unseen ^ new_value) as u64) << bit;
                    found += 1;
                    self.keep(&mut list, i);
                }
            }
            if clear != 0 {
                t.clear_bits(w, clear);
            }
        }
        self.done(&mut list, hi - lo);
        (found, list)
    }
}

/// Reads distances back out of a finished table and walks optimal paths to solved.
pub(crate) struct Walker<'a> {
    pub(crate) ix: &'a Indexer,
    pub(crate) table: &'a PackedTable,
    pub(crate) exact: bool,
    /// Per move (forward transform): its cost (0 for moves that change nothing).
    pub(crate) costs: &'a [u32],
    /// Per move: the cost-1 move of the same base that, repeated `cost` times, makes it.
    pub(crate) quarter: &'a [usize],
    pub(crate) start: u64,
}

impl Walker<'_> {
    fn modulus(&self) -> u32 {
        self.table.unseen() as u32
    }

    /// Whether the entry of index `y` is seen and matches distance `e` (modulo M unless
    /// the table is exact). Callers only ask where the true distance is known to lie
    /// within a window narrower than M, which makes the match exact.
    fn holds(&self, y: u64, e: u32) -> bool {
        let v = self.table.get(y);
        v != self.table.unseen() && v as u32 == e % self.modulus()
    }

    /// The optimal move from `x` at distance `d` as ksolve+ chooses it (the move reaching
    /// the lowest distance, first in move order), with where it leads and the distance
    /// there.
    pub(crate) fn step(&self, x: u64, d: u32, sc: &mut Scratch) -> Option<(usize, u64, u32)> {
        let mut best: Option<(usize, u64, u32)> = None;
        for (m, &c) in self.costs.iter().enumerate() {
            if c == 0 || c > d || best.is_some_and(|(_, _, e)| e <= d - c) {
                continue;
            }
            let y = self.ix.neighbour(x, m, sc);
            let ok = if self.exact || c == 1 {
                self.holds(y, d - c)
            } else {
                // Without exact distances, a move of cost c > 1 is optimal exactly when
                // its c quarter turns each go one step closer; each of those checks is
                // unambiguous modulo M > 2.
                let q = self.quarter[m];
                let mut z = x;
                (1..=c).all(|s| {
                    z = self.ix.neighbour(z, q, sc);
                    self.holds(z, d - s)
                })
            };
            if ok {
                best = Some((m, y, d - c));
            }
        }
        best
    }

    /// The moves solving index `x`, which lies at distance `d`.
    pub(crate) fn solve(&self, mut x: u64, mut d: u32, sc: &mut Scratch) -> Option<Vec<usize>> {
        let mut out = Vec::new();
        while d > 0 {
            let (m, y, e) = self.step(x, d, sc)?;
            out.push(m);
            x = y;
            d = e;
        }
        (x == self.start).then_some(out)
    }

    /// Whether index `x`, whose entry matches `d` modulo M, lies at exactly distance `d`.
    pub(crate) fn at_distance(&self, x: u64, d: u32, sc: &mut Scratch) -> bool {
        if !self.holds(x, d) {
            return false;
        }
        if self.exact {
            return true;
        }
        // Descend with cost-1 moves only: every position at distance e > 0 has a cost-1
        // move to e - 1 (a power costing c is c quarter turns). A position really at
        // d - kM reaches solved after d - kM steps, before the count runs out.
        let (mut x, mut e) = (x, d);
        while e > 0 {
            if x == self.start {
                return false;
            }
            let next = self.costs.iter().enumerate().find_map(|(m, &c)| {
                (c == 1)
                    .then(|| self.ix.neighbour(x, m, sc))
                    .filter(|&y| self.holds(y, e - 1))
            });
            match next {
                Some(y) => {
                    x = y;
                    e -= 1;
                }
                None => return false,
            }
        }
        x == self.start
    }
}
