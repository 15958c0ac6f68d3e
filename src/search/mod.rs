//! Optimal solving: IDA* over canonical move sequences, in the components of
//! [`crate::table`], bounded by the pruning tables.
//!
//! Invariants:
//! - Solutions of one length come out in ksolve+'s order (depth-first, moves in the
//!   order of [`Puzzle::moves`]), whatever the number of threads: the top of the tree
//!   is cut into prefixes in that order, searched in parallel, and the results handed
//!   over in prefix order as they are found ([`ordered`]).
//! - Every move sequence considered is accepted by the canonical automaton for the
//!   scramble's move limits ([`canon::Canon`]),
//!   block-legal in the state it is made from ([`Puzzle::block_allows`]) and within the
//!   move limits; a sequence is a solution when its cost equals the bound and the end
//!   state is solved under the scramble's own ignore masks ([`Puzzle::is_solved`]).
//! - Every solution is replayed on the piece-level model before it is returned; a
//!   mismatch is an internal error, never an answer.
//! - The inner loop allocates nothing: node states are rows of a preallocated array of
//!   component values, advanced through move tables.

pub mod canon;
pub mod ordered;
pub mod random;

use canon::{Canon, DEAD};
use ordered::{Buffering, Emitter, Sink};

use crate::progress::Progress;
use crate::puzzle::{IgnoreMask, Metric, MoveId, MoveLimit, Puzzle, SolveSettings, State};
use crate::table::comp::{CompError, CompKind, CompSpec};
use crate::table::plan::set_specs;
use crate::table::prune::{move_costs, PruneTable, INFINITE};
use crate::table::{CompId, Tables};
use bitvec::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// What the caller wants besides the settings of the scramble file.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveOptions {
    /// Stop after this many solutions (over all lengths).
    pub count: Option<usize>,
    /// Threads to search with (default: rayon's pool size). Output is the same for any
    /// number.
    pub threads: Option<usize>,
    /// How many solutions may wait for their turn while threads search ahead.
    pub buffering: Buffering,
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// At least one solution was found.
    Solved,
    /// No solution within the scramble's `MaxDepth`.
    MaxDepth,
    /// The position can never be solved (a pruning table or an invariant says so).
    Unreachable,
}

/// The result of solving one position.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: Status,
    /// The optimal length in the scramble's metric, when solved.
    pub length: Option<u32>,
    /// Every solution printed, shortest first, in ksolve+'s order within a length.
    pub solutions: Vec<Vec<MoveId>>,
    /// Search nodes generated (moves tried that passed the legality checks).
    pub nodes: u64,
}

/// Why solving failed.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Component(#[from] CompError),
    #[error("internal error: the search returned {moves:?}, which does not solve the position")]
    Replay { moves: String },
    #[error("Block needs at most 128 base moves; this puzzle has {0}")]
    TooManyMoves(usize),
    #[error(
        "set {0} is too large to track orientations by position, and the scramble ignores \
         a piece but not its twist: not supported"
    )]
    Unsupported(String),
}

/// A solver for one puzzle: its tables and the search.
pub struct Solver<'p> {
    puzzle: &'p Puzzle,
    tables: Tables,
    /// The canonical automaton of the last move limits seen: building it composes
    /// moves, so it is kept while consecutive scrambles share their limits.
    canon: Option<(Vec<MoveLimit>, Arc<Canon>)>,
}

/// Which base moves touch each position, per set, as bit masks over base moves.
fn touched_by(puzzle: &Puzzle) -> Vec<Vec<u128>> {
    puzzle
        .sets
        .iter()
        .enumerate()
        .map(|(set, def)| {
            (0..def.size)
                .map(|pos| {
                    puzzle
                        .base_moves
                        .iter()
                        .enumerate()
                        .filter(|(_, b)| b.touched[set][pos])
                        .fold(0u128, |acc, (i, _)| acc | 1 << i)
                })
                .collect()
        })
        .collect()
}

/// Everything one search needs, fixed for the scramble: read-only, shared by threads.
struct Ctx<'a> {
    nm: usize,
    /// Values per node: components, then block pieces.
    width: usize,
    /// Move table of each slot.
    tables: Vec<&'a [u32]>,
    start: Vec<u32>,
    /// Which move may follow which (depends on the scramble's move limits).
    canon: &'a Canon,
    cost: Vec<u32>,
    base: Vec<u32>,
    prune: Vec<(Vec<(usize, u64)>, &'a PruneTable)>,
    /// Slots whose value must be in the bit set for the position to be solved.
    goal: Vec<(usize, BitVec<u64, Lsb0>)>,
    /// Per block: (slot, set) of each of its pieces.
    blocks: Vec<Vec<(usize, usize)>>,
    touched: Vec<Vec<u128>>,
    /// Per move: bit mask of the move limits it counts against.
    limit_mask: Vec<u64>,
    limit_max: Vec<u32>,
}

impl Ctx<'_> {
    /// The largest lower bound of the pruning tables for a node.
    fn heuristic(&self, vals: &[u32]) -> u32 {
        self.prune
            .iter()
            .map(|(slots, t)| {
                let idx: u64 = slots.iter().map(|&(s, st)| vals[s] as u64 * st).sum();
                t.get(idx)
            })
            .max()
            .unwrap_or(0)
    }
}

/// One item of the top of the tree: a solution shorter than the split depth, or a
/// prefix to search below.
enum Item {
    Solution(Vec<u16>),
    Prefix(Vec<u16>),
}

/// A depth-first searcher with its own stacks.
struct Worker<'c, 'a, 'e> {
    ctx: &'c Ctx<'a>,
    states: Vec<u32>,
    /// Children of the node at each level (`nm` rows per level), their moves, the cost
    /// left after them, and scratch for their table values.
    kids: Vec<u32>,
    kmove: Vec<u16>,
    kstate: Vec<u32>,
    kleft: Vec<u32>,
    h: Vec<u32>,
    path: Vec<u16>,
    counts: Vec<u32>,
    nodes: u64,
    /// Solutions of the current prefix not yet handed to the emitter.
    found: Vec<Vec<u16>>,
    /// Solutions of the current prefix so far, handed over or not.
    in_prefix: usize,
    /// Where solutions go in order (none for the top of the tree), this worker's prefix
    /// index, and whether that prefix is the head (its solutions go straight out).
    out: Option<&'c Emitter<'e>>,
    me: usize,
    is_head: bool,
}

impl<'c, 'a, 'e> Worker<'c, 'a, 'e> {
    fn new(ctx: &'c Ctx<'a>, levels: usize, out: Option<&'c Emitter<'e>>) -> Self {
        let mut states = vec![0u32; (levels + 1) * ctx.width];
        states[..ctx.width].copy_from_slice(&ctx.start);
        Worker {
            ctx,
            states,
            kids: vec![0; (levels + 1) * ctx.nm * ctx.width],
            kmove: vec![0; (levels + 1) * ctx.nm],
            kstate: vec![0; (levels + 1) * ctx.nm],
            kleft: vec![0; (levels + 1) * ctx.nm],
            h: vec![0; ctx.nm],
            path: Vec::with_capacity(levels),
            counts: vec![0; ctx.limit_max.len()],
            nodes: 0,
            found: Vec::new(),
            in_prefix: 0,
            out,
            me: 0,
            is_head: false,
        }
    }

    fn row(&self, level: usize) -> &[u32] {
        &self.states[level * self.ctx.width..(level + 1) * self.ctx.width]
    }

    fn is_goal(&self, level: usize) -> bool {
        let vals = self.row(level);
        self.ctx
            .goal
            .iter()
            .all(|(slot, bits)| bits[vals[*slot] as usize])
    }

    /// The base moves that split no block in the node at `level`.
    fn legal(&self, level: usize) -> u128 {
        let vals = self.row(level);
        let mut legal = !0u128;
        for block in &self.ctx.blocks {
            let (mut all, mut any) = (!0u128, 0u128);
            for &(slot, set) in block {
                let t = self.ctx.touched[set][vals[slot] as usize];
                all &= t;
                any |= t;
            }
            legal &= all | !any;
        }
        legal
    }

    /// Writes the child of the node at `level` by move `m` into the next row.
    #[inline]
    fn advance(&mut self, level: usize, m: usize) {
        let (w, nm) = (self.ctx.width, self.ctx.nm);
        let (cur, next) = self.states.split_at_mut((level + 1) * w);
        let cur = &cur[level * w..];
        for ((n, &c), t) in next[..w].iter_mut().zip(cur).zip(&self.ctx.tables) {
            *n = t[c as usize * nm + m];
        }
    }

    /// Tries move `m` from the node at `level` (in automaton state `state`): when it is
    /// allowed and the child may still reach the goal within the bound, the child is in
    /// the next row and the cost left after the move and the child's state are returned.
    #[inline]
    fn try_move(
        &mut self,
        level: usize,
        remaining: u32,
        state: u32,
        m: usize,
        legal: u128,
    ) -> Option<(u32, u32)> {
        let ctx = self.ctx;
        let to = self.may_try(remaining, state, m, legal);
        if to == DEAD {
            return None;
        }
        let cost = ctx.cost[m];
        self.advance(level, m);
        self.nodes += 1;
        let left = remaining - cost;
        let next = &self.states[(level + 1) * ctx.width..(level + 2) * ctx.width];
        for (slots, t) in &ctx.prune {
            let idx: u64 = slots.iter().map(|&(s, st)| next[s] as u64 * st).sum();
            if t.get(idx) > left {
                return None;
            }
        }
        Some((left, to))
    }

    fn limits_allow(&self, mut mask: u64) -> bool {
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            if self.counts[i] >= self.ctx.limit_max[i] {
                return false;
            }
            mask &= mask - 1;
        }
        true
    }

    fn push(&mut self, m: usize) {
        self.path.push(m as u16);
        let mut mask = self.ctx.limit_mask[m];
        while mask != 0 {
            self.counts[mask.trailing_zeros() as usize] += 1;
            mask &= mask - 1;
        }
    }

    fn pop(&mut self) {
        if let Some(m) = self.path.pop() {
            let mut mask = self.ctx.limit_mask[m as usize];
            while mask != 0 {
                self.counts[mask.trailing_zeros() as usize] -= 1;
                mask &= mask - 1;
            }
        }
    }

    /// The automaton state after move `m` from a node (in `state`, with `remaining`
    /// cost left and block-legal base moves `legal`), or [`DEAD`] when the move may not
    /// be made; decided before looking at the child.
    #[inline]
    fn may_try(&self, remaining: u32, state: u32, m: usize, legal: u128) -> u32 {
        let ctx = self.ctx;
        let to = ctx.canon.step(state, m);
        if to != DEAD
            && ctx.cost[m] <= remaining
            && (legal >> ctx.base[m]) & 1 == 1
            && (ctx.limit_mask[m] == 0 || self.limits_allow(ctx.limit_mask[m]))
        {
            to
        } else {
            DEAD
        }
    }

    /// Every solution below the node at `level` with exactly `remaining` cost left.
    ///
    /// All children of a node are made first, then pruned one table at a time over
    /// all of them: the table reads of different children are independent, so their
    /// cache misses overlap instead of queueing one behind the other. Survivors keep
    /// their move order, so solutions come out in ksolve+'s order.
    fn dfs(&mut self, level: usize, remaining: u32, state: u32) {
        if remaining == 0 {
            if self.is_goal(level) {
                self.record();
            }
            return;
        }
        let ctx = self.ctx;
        let (nm, w) = (ctx.nm, ctx.width);
        let legal = self.legal(level);
        let kbase = level * nm;
        let mut alive = 0;
        for m in 0..nm {
            let to = self.may_try(remaining, state, m, legal);
            if to == DEAD {
                continue;
            }
            let k = kbase + alive;
            let cur = &self.states[level * w..(level + 1) * w];
            let row = &mut self.kids[k * w..(k + 1) * w];
            for ((r, &c), t) in row.iter_mut().zip(cur).zip(&ctx.tables) {
                *r = t[c as usize * nm + m];
            }
            self.kmove[k] = m as u16;
            self.kstate[k] = to;
            self.kleft[k] = remaining - ctx.cost[m];
            alive += 1;
        }
        self.nodes += alive as u64;
        for (slots, t) in &ctx.prune {
            if alive == 0 {
                return;
            }
            for i in 0..alive {
                let row = &self.kids[(kbase + i) * w..(kbase + i + 1) * w];
                let idx: u64 = slots.iter().map(|&(s, st)| row[s] as u64 * st).sum();
                self.h[i] = t.get(idx);
            }
            let mut kept = 0;
            for i in 0..alive {
                if self.h[i] <= self.kleft[kbase + i] {
                    if kept != i {
                        let (a, b) = ((kbase + kept) * w, (kbase + i) * w);
                        self.kids.copy_within(b..b + w, a);
                        self.kmove[kbase + kept] = self.kmove[kbase + i];
                        self.kstate[kbase + kept] = self.kstate[kbase + i];
                        self.kleft[kbase + kept] = self.kleft[kbase + i];
                    }
                    kept += 1;
                }
            }
            alive = kept;
        }
        for i in 0..alive {
            let k = kbase + i;
            let next = (level + 1) * w;
            self.states[next..next + w].copy_from_slice(&self.kids[k * w..(k + 1) * w]);
            let m = self.kmove[k] as usize;
            self.push(m);
            self.dfs(level + 1, self.kleft[k], self.kstate[k]);
            self.pop();
            if self.halted() {
                return;
            }
        }
    }

    /// Keeps the solution at the end of the path: straight to the emitter when this
    /// prefix is the head, else in the buffer, which is handed over (after waiting for
    /// the head) when full.
    fn record(&mut self) {
        self.found.push(self.path.clone());
        self.in_prefix += 1;
        if let Some(out) = self.out {
            if self.in_prefix >= out.cap() {
                out.mark_full(self.me);
            }
            if self.is_head || self.found.len() >= out.buffering.per_worker {
                self.is_head = out.flush(self.me, &mut self.found);
            }
        }
    }

    /// Whether this prefix's search should stop: it alone has all the solutions still
    /// wanted, or the emitter says so.
    #[inline]
    fn halted(&self) -> bool {
        match self.out {
            Some(out) => self.in_prefix >= out.cap() || out.halted(self.me),
            None => false,
        }
    }

    /// Like [`Worker::dfs`], but stops at `split` moves and lists the prefixes there.
    fn expand(
        &mut self,
        level: usize,
        remaining: u32,
        state: u32,
        split: usize,
        out: &mut Vec<Item>,
    ) {
        if remaining == 0 {
            if self.is_goal(level) {
                out.push(Item::Solution(self.path.clone()));
            }
            return;
        }
        if level == split {
            out.push(Item::Prefix(self.path.clone()));
            return;
        }
        let legal = self.legal(level);
        for m in 0..self.ctx.nm {
            if let Some((left, to)) = self.try_move(level, remaining, state, m, legal) {
                self.push(m);
                self.expand(level + 1, left, to, split, out);
                self.pop();
            }
        }
    }

    /// Searches below `prefix` (number `me` in order), whose nodes are recomputed
    /// through the move tables, and hands its solutions to the emitter.
    fn below(&mut self, me: usize, prefix: &[u16], bound: u32) {
        self.me = me;
        self.is_head = false;
        self.in_prefix = 0;
        self.path.clear();
        self.counts.iter_mut().for_each(|c| *c = 0);
        let mut spent = 0;
        let mut state = Canon::START;
        for (level, &m) in prefix.iter().enumerate() {
            self.advance(level, m as usize);
            self.push(m as usize);
            spent += self.ctx.cost[m as usize];
            state = self.ctx.canon.step(state, m as usize);
        }
        self.dfs(prefix.len(), bound - spent, state);
        if let Some(out) = self.out {
            if !out.halted(me) {
                out.finish(me, std::mem::take(&mut self.found));
            }
            self.found.clear();
        }
    }
}

impl<'p> Solver<'p> {
    /// A solver for `puzzle` that builds or loads its tables in `tables`.
    pub fn new(puzzle: &'p Puzzle, tables: Tables) -> Solver<'p> {
        Solver {
            puzzle,
            tables,
            canon: None,
        }
    }

    /// The tables built so far.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// Builds (or loads) the pruning tables for `metric` now rather than at the first
    /// scramble that needs them.
    pub fn prepare(&mut self, metric: Metric, progress: &dyn Progress) -> Result<(), SearchError> {
        self.tables.pruning(self.puzzle, metric, progress)?;
        Ok(())
    }

    /// Solves `start`, where positions marked in `ignore` may end anything, under the
    /// scramble's `settings`, keeping every solution in [`Outcome::solutions`].
    /// `on_length` receives the solutions of each length once that length is done.
    pub fn solve(
        &mut self,
        start: &State,
        ignore: &[IgnoreMask],
        settings: &SolveSettings,
        options: SolveOptions,
        progress: &dyn Progress,
        mut on_length: impl FnMut(u32, &[Vec<MoveId>]),
    ) -> Result<Outcome, SearchError> {
        let mut all: Vec<(u32, Vec<MoveId>)> = Vec::new();
        let mut outcome =
            self.solve_each(start, ignore, settings, options, progress, &mut |len, s| {
                all.push((len, s.to_vec()))
            })?;
        for chunk in all.chunk_by(|a, b| a.0 == b.0) {
            let sols: Vec<Vec<MoveId>> = chunk.iter().map(|(_, s)| s.clone()).collect();
            on_length(chunk[0].0, &sols);
        }
        outcome.solutions = all.into_iter().map(|(_, s)| s).collect();
        Ok(outcome)
    }

    /// Like [`Solver::solve`], but hands each solution (with its length) to
    /// `on_solution` as soon as it is found and checked, in ksolve+'s order, holding
    /// only a bounded number of them ([`ordered::Buffering`]); [`Outcome::solutions`]
    /// stays empty.
    pub fn solve_each(
        &mut self,
        start: &State,
        ignore: &[IgnoreMask],
        settings: &SolveSettings,
        options: SolveOptions,
        progress: &dyn Progress,
        on_solution: &mut (dyn FnMut(u32, &[MoveId]) + Send),
    ) -> Result<Outcome, SearchError> {
        let puzzle = self.puzzle;
        if !puzzle.blocks.is_empty() && puzzle.base_moves.len() > 128 {
            return Err(SearchError::TooManyMoves(puzzle.base_moves.len()));
        }
        let canon = self.canon_for(&settings.limits);
        let unreachable = Outcome {
            status: Status::Unreachable,
            length: None,
            solutions: Vec::new(),
            nodes: 0,
        };
        // Components: what the goal test needs, then what the pruning tables read.
        let mut goal_specs: Vec<CompSpec> = Vec::new();
        for set in 0..puzzle.sets.len() {
            let (parts, ori) = set_specs(puzzle, set, ignore.get(set));
            // Parts that carry orientations only see the orientation of pieces they
            // track; a position whose piece is ignored but whose twist is not would go
            // unchecked.
            let pieces = parts
                .iter()
                .any(|p| matches!(p.kind, CompKind::Pieces { .. }));
            if pieces {
                if let Some(m) = ignore.get(set) {
                    if m.perm.iter().zip(&m.ori).any(|(&p, &o)| p && !o) {
                        return Err(SearchError::Unsupported(puzzle.sets[set].name.clone()));
                    }
                }
            }
            goal_specs.extend(parts);
            goal_specs.extend(ori);
        }
        let mut goal_ids = Vec::new();
        for spec in &goal_specs {
            goal_ids.push(self.tables.component(puzzle, spec, progress)?);
        }
        let block_sets: Vec<usize> = {
            let mut s: Vec<usize> = puzzle
                .blocks
                .iter()
                .flat_map(|b| b.pieces.iter().map(|p| p.0))
                .collect();
            s.sort_unstable();
            s.dedup();
            s
        };
        let mut pos_ids = Vec::new();
        for &set in &block_sets {
            let spec = CompSpec {
                set,
                kind: CompKind::Pos,
            };
            pos_ids.push((set, self.tables.component(puzzle, &spec, progress)?));
        }
        let prune_comps: Vec<(Vec<CompId>, usize)> = self
            .tables
            .pruning(puzzle, settings.metric, progress)?
            .iter()
            .enumerate()
            .map(|(i, p)| (p.comps.clone(), i))
            .collect();
        let tables = &self.tables;

        // Slots: every distinct component once, then one per block piece.
        let mut slot_of: Vec<CompId> = Vec::new();
        let goal_slots: Vec<usize> = goal_ids.iter().map(|&id| slot(id, &mut slot_of)).collect();
        let pruning_all = &tables_pruning(tables, settings.metric);
        let prune_slots: Vec<Vec<(usize, u64)>> = prune_comps
            .iter()
            .map(|(ids, i)| {
                let t = &pruning_all[*i].table;
                ids.iter()
                    .zip(&t.strides)
                    .map(|(&id, &st)| (slot(id, &mut slot_of), st))
                    .collect()
            })
            .collect();
        let mut start_vals = Vec::new();
        let mut slot_tables: Vec<&[u32]> = Vec::new();
        for &id in &slot_of {
            let c = tables.comp(id);
            match c.value_of(start) {
                Some(v) => start_vals.push(v.0),
                None => return Ok(unreachable),
            }
            slot_tables.push(&c.table);
        }
        let mut blocks = Vec::new();
        for block in &puzzle.blocks {
            let mut pieces = Vec::new();
            for &(set, label) in &block.pieces {
                let Some(&(_, id)) = pos_ids.iter().find(|(s, _)| *s == set) else {
                    continue;
                };
                for (pos, &l) in start.sets[set].perm.iter().enumerate() {
                    if l == label {
                        pieces.push((slot_tables.len(), set));
                        slot_tables.push(&tables.comp(id).table);
                        start_vals.push(pos as u32);
                    }
                }
            }
            blocks.push(pieces);
        }
        let goal: Vec<(usize, BitVec<u64, Lsb0>)> = goal_ids
            .iter()
            .zip(&goal_slots)
            .map(|(&id, &s)| {
                let c = tables.comp(id);
                let mut bits = bitvec![u64, Lsb0; 0; c.count as usize];
                for v in c.goal_values(puzzle, ignore.get(c.spec.set)) {
                    bits.set(v as usize, true);
                }
                (s, bits)
            })
            .collect();

        let nm = puzzle.moves.len();
        let limits = &settings.limits;
        let limit_mask: Vec<u64> = (0..nm)
            .map(|m| {
                limits
                    .iter()
                    .enumerate()
                    .take(64)
                    .filter(|(_, l)| l.matches(puzzle, MoveId(m as u16)))
                    .fold(0u64, |acc, (i, _)| acc | 1 << i)
            })
            .collect();
        let ctx = Ctx {
            nm,
            width: slot_tables.len(),
            tables: slot_tables,
            start: start_vals,
            canon: &canon,
            cost: move_costs(puzzle, settings.metric),
            base: puzzle.moves.iter().map(|m| m.base as u32).collect(),
            prune: prune_slots
                .into_iter()
                .zip(prune_comps.iter())
                .map(|(s, (_, i))| (s, &pruning_all[*i].table))
                .collect(),
            goal,
            blocks,
            touched: touched_by(puzzle),
            limit_mask,
            limit_max: limits.iter().take(64).map(|l| l.max).collect(),
        };

        let h0 = ctx.heuristic(&ctx.start);
        if h0 >= INFINITE {
            return Ok(unreachable);
        }
        let cap = options.count.unwrap_or(usize::MAX);
        let mut outcome = Outcome {
            status: Status::MaxDepth,
            length: None,
            solutions: Vec::new(),
            nodes: 0,
        };
        let threads = options
            .threads
            .unwrap_or_else(rayon::current_num_threads)
            .max(1);
        let mut total = 0usize;
        let mut bound = h0;
        while bound <= settings.max_depth && total < cap {
            progress.start(&format!("searching depth {bound}"), None);
            let want = cap - total;
            let mut seq = Vec::new();
            let mut sink = |p: &[u16]| -> Result<(), SearchError> {
                seq.clear();
                seq.extend(p.iter().map(|&m| MoveId(m)));
                replay(puzzle, &canon, start, ignore, settings, bound, &seq)?;
                on_solution(bound, &seq);
                Ok(())
            };
            let (emitted, nodes) =
                search_bound(&ctx, bound, want, threads, options.buffering, &mut sink)?;
            progress.finish();
            outcome.nodes += nodes;
            total += emitted;
            if emitted > 0 && outcome.length.is_none() {
                outcome.length = Some(bound);
                outcome.status = Status::Solved;
            }
            if outcome
                .length
                .is_some_and(|l| bound >= l.saturating_add(settings.slack))
            {
                break;
            }
            bound += 1;
        }
        Ok(outcome)
    }

    /// The canonical automaton for these move limits, rebuilt only when they change.
    fn canon_for(&mut self, limits: &[MoveLimit]) -> Arc<Canon> {
        match &self.canon {
            Some((l, c)) if l == limits => c.clone(),
            _ => {
                let c = Arc::new(Canon::new(self.puzzle, limits));
                self.canon = Some((limits.to_vec(), c.clone()));
                c
            }
        }
    }
}

/// Replays a solution on the piece-level model: the sequence canonical, block-legal, within the limits, total cost `bound`, and the end solved.
pub(crate) fn replay(
    puzzle: &Puzzle,
    canon: &Canon,
    start: &State,
    ignore: &[IgnoreMask],
    settings: &SolveSettings,
    bound: u32,
    seq: &[MoveId],
) -> Result<(), SearchError> {
    let fail = || SearchError::Replay {
        moves: puzzle.format_sequence(seq),
    };
    if !canon.accepts(seq) {
        return Err(fail());
    }
    let mut state = start.clone();
    let mut cost = 0;
    for &m in seq {
        if !puzzle.block_allows(&state, m) {
            return Err(fail());
        }
        cost += settings.metric.cost(puzzle, m);
        state = state.then(&puzzle.mv(m).effect, &puzzle.sets);
    }
    for l in &settings.limits {
        if seq.iter().filter(|&&m| l.matches(puzzle, m)).count() as u32 > l.max {
            return Err(fail());
        }
    }
    if cost != bound
        || state != puzzle.apply_sequence(start, seq)
        || !puzzle.is_solved(&state, ignore)
    {
        return Err(fail());
    }
    Ok(())
}

/// The slot of component `id`, added when new.
fn slot(id: CompId, slot_of: &mut Vec<CompId>) -> usize {
    match slot_of.iter().position(|&x| x == id) {
        Some(s) => s,
        None => {
            slot_of.push(id);
            slot_of.len() - 1
        }
    }
}

/// The pruning tables already built for `metric`.
fn tables_pruning(tables: &Tables, metric: Metric) -> &[crate::table::Pruning] {
    tables.built_pruning(metric)
}

/// Searches every sequence of cost exactly `bound`, handing at most `cap` solutions to
/// `sink` in order; returns how many it was given and the nodes generated. The top of
/// the tree is expanded until there are enough prefixes to keep every thread busy;
/// `threads` workers claim the prefixes in order and deliver through an [`Emitter`].
fn search_bound(
    ctx: &Ctx,
    bound: u32,
    cap: usize,
    threads: usize,
    buffering: Buffering,
    sink: &mut Sink<'_>,
) -> Result<(usize, u64), SearchError> {
    let levels = bound as usize;
    let mut top = Worker::new(ctx, levels, None);
    let want = 64 * threads;
    let mut items = Vec::new();
    let mut split = 1;
    loop {
        items.clear();
        top.nodes = 0;
        top.expand(0, bound, Canon::START, split, &mut items);
        // Enough prefixes, or the top of the tree is already costly: search what we have.
        if items.len() >= want || split + 2 >= levels || top.nodes > 200_000 {
            break;
        }
        split += 1;
    }
    let emitter = Emitter::new(sink, cap, buffering);
    let next = AtomicUsize::new(0);
    let nodes = AtomicU64::new(top.nodes);
    let work = || {
        let mut w = Worker::new(ctx, levels, Some(&emitter));
        loop {
            let i = next.fetch_add(1, Relaxed);
            if i >= items.len() || emitter.halted(i) {
                break;
            }
            match &items[i] {
                Item::Solution(p) => emitter.finish(i, vec![p.clone()]),
                Item::Prefix(p) => w.below(i, p, bound),
            }
        }
        nodes.fetch_add(w.nodes, Relaxed);
    };
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
    let (emitted, _, error) = emitter.into_result();
    match error {
        Some(e) => Err(e),
        None => Ok((emitted, nodes.into_inner())),
    }
}

#[cfg(test)]
mod tests;
