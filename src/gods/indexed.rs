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

use super::checkpoint::Saved;
use super::index::{Cursor, Indexer, Scratch};
use super::table::{fixed, PackedTable};
use super::{GodError, Layers};
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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
    pub(crate) tuning: super::Tuning,
}

/// The finished search.
pub(crate) struct IndexedRun {
    pub(crate) table: PackedTable,
    pub(crate) counts: Vec<u64>,
    /// The indices of the deepest layer, sorted, when it was small enough to keep.
    pub(crate) last: Option<Vec<u64>>,
}

/// Called after each new layer with the counts so far and the table.
pub(crate) type AfterLayer<'a> = dyn FnMut(&[u64], &PackedTable) -> Result<(), GodError> + 'a;

/// Runs the search from index `start` (the solved position), or from a checkpoint's
/// layers (`resume`). `after_layer` is called with the counts and the table after each
/// new layer (to write a checkpoint); an error from it ends the search.
pub(crate) fn run(
    plan: &Plan,
    start: u64,
    resume: Option<Saved>,
    progress: &dyn Progress,
    on_layer: &Layers,
    after_layer: &mut AfterLayer,
) -> Result<IndexedRun, GodError> {
    let ix = plan.ix;
    let (table, mut counts, mut lists) = match resume {
        Some(saved) => {
            // A resumed search keeps no layer lists: its push steps scan the table.
            let lists = vec![None; saved.counts.len()];
            (saved.table, saved.counts, lists)
        }
        None => {
            let table = PackedTable::new(ix.space(), plan.bits);
            table.try_set(start, 0);
            // The sorted indices of recent layers, when small enough to keep: the push
            // step then expands exactly these instead of scanning the table.
            (table, vec![1u64], vec![Some(vec![start])])
        }
    };
    let modulus = table.unseen() as usize;
    for (d, &c) in counts.iter().enumerate() {
        on_layer(d, c);
    }
    let mut seen: u64 = counts.iter().sum();
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
        // The layers a push step starts from, by cost class, when all are kept.
        let sources: Option<Vec<(usize, &[u64])>> = plan
            .push
            .iter()
            .enumerate()
            .filter(|&(ci, cols)| d > ci || (d == ci && !cols.is_empty()))
            .filter(|(_, cols)| !cols.is_empty())
            .map(|(ci, _)| lists[d - ci].as_deref().map(|l| (ci, l)))
            .collect::<Option<Vec<_>>>()
            .filter(|_| plan.tuning.layer_lists);
        // Work estimates: a scanning push expands every entry sharing a source value,
        // a list push only the source layers; pull visits every unseen entry, which
        // stops at its first hit or tries every move.
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
                if sources.is_some() {
                    break;
                }
            }
        }
        let pull_work = (ix.space() - seen) * avg_pull / 2;
        let pull = plan.tuning.pull.unwrap_or(pull_work < push_work);
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
        let (found, list) = match (&sources, pull) {
            (Some(src), false) => {
                let total = src.iter().map(|(_, l)| l.len() as u64).sum();
                progress.start(
                    &format!("positions at distance {} from solved", d + 1),
                    Some(total),
                );
                match plan.bits {
                    2 => step.push_lists::<2>(src),
                    4 => step.push_lists::<4>(src),
                    _ => step.push_lists::<8>(src),
                }
            }
            _ => {
                progress.start(
                    &format!("positions at distance {} from solved", d + 1),
                    Some(words as u64),
                );
                match plan.bits {
                    2 => step.run::<2>(nchunks, pull),
                    4 => step.run::<4>(nchunks, pull),
                    _ => step.run::<8>(nchunks, pull),
                }
            }
        };
        progress.finish();
        if found == 0 {
            break;
        }
        seen += found;
        counts.push(found);
        on_layer(d + 1, found);
        after_layer(&counts, &table)?;
        let kept = if step.overflow.load(Ordering::Relaxed) {
            None
        } else {
            let mut list = list;
            list.sort_unstable();
            Some(list)
        };
        lists.push(kept);
        // Only the layers a later push can start from are worth keeping.
        let keep_from = lists.len().saturating_sub(plan.push.len().max(1) + 1);
        for l in &mut lists[..keep_from] {
            *l = None;
        }
    }
    let last = lists.pop().flatten();
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
    fn run<const B: u32>(&self, nchunks: usize, pull: bool) -> (u64, Vec<u64>) {
        (0..nchunks)
            .into_par_iter()
            .map(|ch| {
                let blocked = self.plan.ix.inner_column(0).is_some();
                match (pull, blocked) {
                    (true, true) => self.pull_blocked::<B>(ch),
                    (true, false) => self.pull_chunk::<B>(ch),
                    (false, _) => self.push_chunk::<B>(ch),
                }
            })
            .reduce(
                || (0, Vec::new()),
                |(a, mut la), (b, lb)| {
                    la.extend(lb);
                    (a + b, la)
                },
            )
    }

    fn keep(&self, list: &mut Vec<u64>, i: u64) {
        if !self.overflow.load(Ordering::Relaxed) {
            list.push(i);
        }
    }

    fn done(&self, list: &mut Vec<u64>, words: usize) {
        let total = self.kept.fetch_add(list.len() as u64, Ordering::Relaxed) + list.len() as u64;
        if total > self.plan.tuning.keep_layer {
            self.overflow.store(true, Ordering::Relaxed);
        }
        if self.overflow.load(Ordering::Relaxed) {
            *list = Vec::new();
        }
        self.progress.inc(words as u64);
    }

    /// The push step over a scan of the table: every entry holding a source value.
    fn push_chunk<const B: u32>(&self, ch: usize) -> (u64, Vec<u64>) {
        let t = self.table;
        let per_log = fixed::per_log::<B>();
        let classes = self.plan.push.len();
        let mut masks = vec![0u64; classes];
        let mut pusher = Pusher::<B>::new(self);
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
                let i = ((w as u64) << per_log) + (bit / B) as u64;
                let c = (0..classes)
                    .find(|&c| masks[c] >> bit & 1 == 1)
                    .unwrap_or(0);
                pusher.add(i, c);
            }
        }
        let (found, mut list) = pusher.finish();
        self.done(&mut list, hi - lo);
        (found, list)
    }

    /// The push step over explicit lists of the source layers (sorted indices per cost
    /// class), when they were small enough to keep: no table scan at all.
    fn push_lists<const B: u32>(&self, sources: &[(usize, &[u64])]) -> (u64, Vec<u64>) {
        sources
            .iter()
            .flat_map(|&(c, list)| list.chunks(4096).map(move |part| (c, part)))
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|(c, part)| {
                let mut pusher = Pusher::<B>::new(self);
                for &i in part {
                    pusher.add(i, c);
                }
                let (found, mut list) = pusher.finish();
                self.done(&mut list, 0);
                self.progress.inc(part.len() as u64);
                (found, list)
            })
            .reduce(
                || (0, Vec::new()),
                |(a, mut la), (b, lb)| {
                    la.extend(lb);
                    (a + b, la)
                },
            )
    }

    /// The pull step by blocks: the unseen entries of one outer block are checked one
    /// transform at a time, dropping each entry at its first hit. Hits are marked in a
    /// bitmap over the chunk and written word by word at the end, so each table word
    /// takes one locked operation.
    fn pull_blocked<const B: u32>(&self, ch: usize) -> (u64, Vec<u64>) {
        let t = self.table;
        let per_log = fixed::per_log::<B>();
        let n_in = self.plan.ix.inner_count();
        let mut cur = Cursor::new(self.plan.ix);
        let mut pending: Vec<u32> = Vec::new();
        let (mut start, mut end) = (0u64, 0u64);
        let unseen = fixed::unseen::<B>();
        let (lo, hi) = (ch * self.chunk, ((ch + 1) * self.chunk).min(self.words));
        let first = (lo as u64) << per_log;
        let mut hits = vec![0u64; (((hi - lo) as u64) << per_log).div_ceil(64) as usize];
        for w in lo..hi {
            let mut todo = t.matches(w, unseen as u8);
            while todo != 0 {
                let bit = todo.trailing_zeros();
                todo &= todo - 1;
                let i = ((w as u64) << per_log) + (bit / B) as u64;
                if i >= end {
                    self.flush_pull::<B>(&mut cur, start, &mut pending, first, &mut hits);
                    start = i - i % n_in;
                    end = start + n_in;
                }
                pending.push((i - start) as u32);
            }
        }
        self.flush_pull::<B>(&mut cur, start, &mut pending, first, &mut hits);
        let new_value = ((self.d + 1) % self.modulus) as u64;
        let mut found = 0u64;
        let mut list = Vec::new();
        let mut word = usize::MAX;
        let mut clear = 0u64;
        for (k, &bits) in hits.iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                let i = first + (k as u64) * 64 + b.trailing_zeros() as u64;
                b &= b - 1;
                let w = fixed::word_of::<B>(i);
                if w != word {
                    if clear != 0 {
                        t.clear_bits(word, clear);
                    }
                    word = w;
                    clear = 0;
                }
                clear |= (unseen ^ new_value) << fixed::shift_of::<B>(i);
                found += 1;
                self.keep(&mut list, i);
            }
        }
        if clear != 0 {
            t.clear_bits(word, clear);
        }
        self.done(&mut list, hi - lo);
        (found, list)
    }

    fn flush_pull<const B: u32>(
        &self,
        cur: &mut Cursor,
        start: u64,
        pending: &mut Vec<u32>,
        first: u64,
        hits: &mut [u64],
    ) {
        if pending.is_empty() {
            return;
        }
        let words = self.table.words();
        cur.seek(start);
        'classes: for (ci, cols) in self.plan.pull.iter().enumerate() {
            let c = ci + 1;
            if self.d + 1 < c {
                continue;
            }
            let v = ((self.d + 1 - c) % self.modulus) as u64;
            for &col in cols {
                let base = cur.outer(col);
                let Some(column) = self.plan.ix.inner_column(col) else {
                    continue;
                };
                pending.retain(|&o| {
                    let nb = base + column[o as usize] as u64;
                    let word = words[fixed::word_of::<B>(nb)].load(Ordering::Relaxed);
                    if fixed::entry::<B>(word, nb) == v {
                        // The block may begin before the chunk; its entries here do not.
                        let h = start + o as u64 - first;
                        hits[(h / 64) as usize] |= 1 << (h % 64);
                        false
                    } else {
                        true
                    }
                });
                if pending.is_empty() {
                    break 'classes;
                }
            }
        }
        pending.clear();
    }

    fn pull_chunk<const B: u32>(&self, ch: usize) -> (u64, Vec<u64>) {
        let t = self.table;
        let words = t.words();
        let per_log = fixed::per_log::<B>();
        let unseen = fixed::unseen::<B>();
        let new_value = ((self.d + 1) % self.modulus) as u64;
        let mut cur = Cursor::new(self.plan.ix);
        let mut found = 0u64;
        let mut list = Vec::new();
        let widest = self.plan.pull.iter().map(Vec::len).max().unwrap_or(0);
        let mut nbs = vec![0u64; widest];
        let (lo, hi) = (ch * self.chunk, ((ch + 1) * self.chunk).min(self.words));
        for w in lo..hi {
            let mut todo = t.matches(w, unseen as u8);
            let mut clear = 0u64;
            while todo != 0 {
                let bit = todo.trailing_zeros();
                todo &= todo - 1;
                let i = ((w as u64) << per_log) + (bit / B) as u64;
                cur.seek(i);
                let mut hit = false;
                for (ci, cols) in self.plan.pull.iter().enumerate() {
                    let c = ci + 1;
                    if self.d + 1 < c || cols.is_empty() {
                        continue;
                    }
                    let v = ((self.d + 1 - c) % self.modulus) as u64;
                    let n = cols.len();
                    cur.fill(cols, &mut nbs[..n]);
                    hit = nbs[..n].iter().any(|&nb| {
                        let word = words[fixed::word_of::<B>(nb)].load(Ordering::Relaxed);
                        fixed::entry::<B>(word, nb) == v
                    });
                    if hit {
                        break;
                    }
                }
                if hit {
                    clear |= (unseen ^ new_value) << bit;
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

/// Expands source entries, given in increasing index order, into the next layer.
/// With a transposed inner table it gathers the entries of one outer block (all
/// components but the innermost fixed) and expands them one transform at a time, so that
/// a transform's targets all fall in one block of the table, which stays in cache;
/// without one it expands entry by entry.
struct Pusher<'a, const B: u32> {
    step: &'a Step<'a>,
    cur: Cursor<'a>,
    blocked: bool,
    n_in: u64,
    /// Per cost class: inner ranks of the gathered entries of the current block.
    lists: Vec<Vec<u32>>,
    start: u64,
    end: u64,
    nbs: Vec<u64>,
    loaded: Vec<u64>,
    found: u64,
    kept: Vec<u64>,
}

impl<'a, const B: u32> Pusher<'a, B> {
    fn new(step: &'a Step<'a>) -> Self {
        let ix = step.plan.ix;
        let widest = step.plan.push.iter().map(Vec::len).max().unwrap_or(0);
        Pusher {
            step,
            cur: Cursor::new(ix),
            blocked: ix.inner_column(0).is_some(),
            n_in: ix.inner_count(),
            lists: vec![Vec::new(); step.plan.push.len()],
            start: 0,
            end: 0,
            nbs: vec![0; widest],
            loaded: vec![0; widest],
            found: 0,
            kept: Vec::new(),
        }
    }

    #[inline]
    fn add(&mut self, i: u64, class: usize) {
        if !self.blocked {
            self.expand_one(i, class);
            return;
        }
        if i >= self.end {
            self.flush();
            self.start = i - i % self.n_in;
            self.end = self.start + self.n_in;
        }
        self.lists[class].push((i - self.start) as u32);
    }

    #[inline]
    fn mark(&mut self, nb: u64, word: u64) {
        let step = self.step;
        let new_value = ((step.d + 1) % step.modulus) as u64;
        if fixed::entry::<B>(word, nb) == fixed::unseen::<B>()
            && fixed::try_set::<B>(step.table.words(), nb, new_value)
        {
            self.found += 1;
            step.keep(&mut self.kept, nb);
        }
    }

    fn expand_one(&mut self, i: u64, class: usize) {
        let step = self.step;
        let words = step.table.words();
        self.cur.seek(i);
        let cols = &step.plan.push[class];
        let n = cols.len();
        self.cur.fill(cols, &mut self.nbs[..n]);
        // All loads first, independent of each other, so that their cache misses
        // overlap; the locked writes come after, only for unseen entries.
        for k in 0..n {
            self.loaded[k] = words[fixed::word_of::<B>(self.nbs[k])].load(Ordering::Relaxed);
        }
        for k in 0..n {
            self.mark(self.nbs[k], self.loaded[k]);
        }
    }

    fn flush(&mut self) {
        if self.lists.iter().all(Vec::is_empty) {
            return;
        }
        let step = self.step;
        let words = step.table.words();
        self.cur.seek(self.start);
        for c in 0..self.lists.len() {
            let entries = std::mem::take(&mut self.lists[c]);
            for &col in &step.plan.push[c] {
                let base = self.cur.outer(col);
                let Some(column) = step.plan.ix.inner_column(col) else {
                    continue;
                };
                for &o in &entries {
                    let nb = base + column[o as usize] as u64;
                    let word = words[fixed::word_of::<B>(nb)].load(Ordering::Relaxed);
                    self.mark(nb, word);
                }
            }
            let mut entries = entries;
            entries.clear();
            self.lists[c] = entries;
        }
    }

    fn finish(mut self) -> (u64, Vec<u64>) {
        self.flush();
        (self.found, self.kept)
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
