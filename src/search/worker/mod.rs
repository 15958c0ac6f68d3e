//! The depth-first workers of one search bound: each owns its node stacks (nothing is
//! allocated per node), searches below one prefix of the top of the tree at a time, and
//! hands its solutions to the [`Emitter`] that keeps ksolve+'s order.

mod bounds;
mod path;

use super::canon::{Canon, DEAD};
use super::checks::{Plan, Samples};
use super::ordered::{Buffering, Emitter, Sink};
use super::{Ctx, SearchError};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Nodes a worker generates between two reports to the progress: often enough for a
/// live count several times a second, rarely enough that the shared counter behind the
/// progress is not contended.
const REPORT_EVERY: u64 = 1 << 16;

/// One item of the top of the tree: a solution shorter than the split depth, or a
/// prefix to search below.
enum Item {
    Solution(Vec<u16>),
    Prefix(Vec<u16>),
}

/// A depth-first searcher with its own stacks, grouped by what they serve.
struct Worker<'c, 'a, 'e> {
    ctx: &'c Ctx<'a>,
    /// The path from the start to the node being searched.
    path: PathRows,
    /// The children of the node at each level, made before any is searched.
    kids: Kids,
    /// Which bound checks are made, and the sample of what they cut.
    checks: Checks<'c>,
    /// Guarded moves: positions as packed keys.
    guard: GuardKeys,
    /// Lookups of the pruning tables at conjugated positions ([`super::probe`]).
    probe: ProbeRows,
    /// Lookups at the inverse position ([`super::inverse`]).
    inverse: InverseRows,
    /// Where the solutions go, in order.
    out: Output<'c, 'e>,
    nodes: u64,
    /// Nodes already reported to the search's progress.
    reported: u64,
    /// The least excess over the cost left of the children refused for their cost or
    /// their bound (`u32::MAX` while none was): the next bound that can admit one.
    over: u32,
}

/// The path being searched, one row per level.
struct PathRows {
    /// Every slot's value at each level (`width` per level).
    states: Vec<u32>,
    /// The moves made.
    moves: Vec<u16>,
    /// Per move of the path, the number of free moves (cost 0) the path ends with.
    runs: Vec<u32>,
    /// How many moves of the path count against each move limit.
    counts: Vec<u32>,
    /// The rows `0..full` of the path are whole; deeper ones hold only the plan's
    /// [`Plan::rows`] ([`Worker::fill`] makes the rest when needed).
    full: usize,
}

/// Children of the node at each level (`nm` rows per level): their slot values, moves,
/// automaton states and the cost left after them, and scratch for their bounds.
struct Kids {
    vals: Vec<u32>,
    moves: Vec<u16>,
    states: Vec<u32>,
    left: Vec<u32>,
    h: Vec<u32>,
    /// Per child, the union of the fixing sets of its tight lookups ([`super::tight`]).
    tight: Vec<u64>,
    /// The reduced table's entries for the children, found before they are read.
    idx: Vec<u64>,
}

/// The bound checks ([`super::checks`]).
struct Checks<'c> {
    /// The checks made on each batch of children, in order.
    plan: &'c Plan,
    /// The sample of what the checks cut.
    samples: Samples,
    /// Per child of a sampled batch, the checks that would cut it.
    mask: Vec<u64>,
}

/// With guarded moves: each level's position as a packed key, which the guards read,
/// and the children's keys (`nm` per level); empty otherwise.
struct GuardKeys {
    path: Vec<u128>,
    kids: Vec<u128>,
}

/// Values of the probe slots at each level of the path, and of each child's (`nm` rows
/// per level, like [`Kids`]).
struct ProbeRows {
    path: Vec<u32>,
    kids: Vec<u32>,
}

/// The inverse of the whole position at each level of the path, and ranking scratch:
/// kept only when the inverse is probed.
struct InverseRows {
    full: Vec<crate::puzzle::State>,
    inv: crate::puzzle::State,
    scratch: Vec<u16>,
    /// The reduced table's component values at the inverse.
    rrow: Vec<u32>,
    /// The inverses of a batch of children (`nm`), which move with them as the batch
    /// is cut down ([`Worker::keep_bounded`]), and their reduced table's values.
    kids: Vec<crate::puzzle::State>,
    rows: Vec<u32>,
    /// A conjugate of an inverse ([`crate::search::checks::Check::InverseReducedProbe`]).
    conj: crate::puzzle::State,
}

/// The solutions of the prefix being searched and where they go.
struct Output<'c, 'e> {
    /// Where solutions go in order (none for the top of the tree).
    emitter: Option<&'c Emitter<'e>>,
    /// This worker's prefix index.
    me: usize,
    /// Whether that prefix is the head (its solutions go straight out).
    is_head: bool,
    /// Solutions of the current prefix not yet handed to the emitter.
    found: Vec<Vec<u16>>,
    /// Solutions of the current prefix so far, handed over or not.
    in_prefix: usize,
}

impl<'c, 'a, 'e> Worker<'c, 'a, 'e> {
    fn new(ctx: &'c Ctx<'a>, plan: &'c Plan, levels: usize, out: Option<&'c Emitter<'e>>) -> Self {
        let mut states = vec![0u32; (levels + 1) * ctx.width];
        states[..ctx.width].copy_from_slice(&ctx.start);
        let (keys, kkey) = match &ctx.guards {
            Some(g) => {
                let mut k = vec![0u128; levels + 1];
                k[0] = g.start;
                (k, vec![0u128; (levels + 1) * ctx.nm])
            }
            None => (Vec::new(), Vec::new()),
        };
        let pw = ctx.sym.slots.len();
        let reduced_width = ctx
            .inverse
            .as_ref()
            .and_then(|i| i.reduced.as_ref())
            .map_or(0, |r| r.0.len());
        let mut pvals = vec![0u32; (levels + 1) * pw];
        pvals[..pw].copy_from_slice(&ctx.sym.start);
        Worker {
            ctx,
            path: PathRows {
                states,
                moves: Vec::with_capacity(levels),
                runs: Vec::with_capacity(levels),
                counts: vec![0; ctx.limit_max.len()],
                full: 1,
            },
            kids: Kids {
                vals: vec![0; (levels + 1) * ctx.nm * ctx.width],
                moves: vec![0; (levels + 1) * ctx.nm],
                states: vec![0; (levels + 1) * ctx.nm],
                left: vec![0; (levels + 1) * ctx.nm],
                h: vec![0; ctx.nm],
                tight: vec![0; (levels + 1) * ctx.nm],
                idx: vec![0; ctx.nm],
            },
            checks: Checks {
                plan,
                samples: Samples::default(),
                mask: vec![0; ctx.nm],
            },
            guard: GuardKeys {
                path: keys,
                kids: kkey,
            },
            probe: ProbeRows {
                path: pvals,
                kids: vec![0u32; (levels + 1) * ctx.nm * pw],
            },
            inverse: InverseRows {
                full: match &ctx.inverse {
                    Some(ip) => {
                        let mut inv = ctx.start_state.clone();
                        ip.invert_into(ctx.start_state, &mut inv);
                        vec![inv; levels + 1]
                    }
                    None => Vec::new(),
                },
                inv: ctx.start_state.clone(),
                scratch: vec![
                    0;
                    ctx.start_state
                        .sets
                        .iter()
                        .map(|s| s.perm.len())
                        .max()
                        .unwrap_or(0)
                ],
                rrow: vec![0; reduced_width],
                kids: match &ctx.inverse {
                    Some(_) => vec![ctx.start_state.clone(); ctx.nm],
                    None => Vec::new(),
                },
                rows: vec![0; reduced_width * ctx.nm],
                conj: ctx.start_state.clone(),
            },
            out: Output {
                emitter: out,
                me: 0,
                is_head: false,
                found: Vec::new(),
                in_prefix: 0,
            },
            nodes: 0,
            reported: 0,
            over: u32::MAX,
        }
    }

    fn row(&self, level: usize) -> &[u32] {
        &self.path.states[level * self.ctx.width..(level + 1) * self.ctx.width]
    }

    /// Makes the rows of the path whole down to `level`, from the deepest whole one:
    /// a node's children get only the slots the checks read, and the goal test and the
    /// samples read them all. Near the leaves this is a row or two.
    fn fill(&mut self, level: usize) {
        let w = self.ctx.width;
        while self.path.full <= level {
            let l = self.path.full - 1;
            let (cur, next) = self.path.states.split_at_mut((l + 1) * w);
            let m = self.path.moves[l] as usize;
            self.ctx.step_row(&cur[l * w..], m, &mut next[..w]);
            self.path.full += 1;
        }
    }

    fn is_goal(&mut self, level: usize) -> bool {
        self.fill(level);
        let vals = self.row(level);
        let seen = self.ctx.goal.iter().any(|position| {
            position
                .iter()
                .all(|(slot, allowed)| allowed.contains(vals[*slot]))
        });
        match &self.ctx.closed {
            Some(closed) if seen => closed.holds(self.ctx.start_state, &self.path.moves),
            _ => seen,
        }
    }

    /// Notes a child refused by `excess` more than the cost left (at least 1): a bound
    /// that much larger is the first that could admit it.
    #[inline]
    fn refused_by(&mut self, excess: u32) {
        self.over = self.over.min(excess.max(1));
    }

    /// Notes move `m` when it costs more than the `remaining` cost, whatever else
    /// refuses it (noting too small an excess only deepens by less).
    #[inline]
    fn note_cost(&mut self, m: usize, remaining: u32) {
        let cost = self.ctx.cost[m];
        if cost > remaining {
            self.refused_by(cost - remaining);
        }
    }

    /// Writes the child of the node at `level` by move `m` into the next row.
    #[inline]
    fn advance(&mut self, level: usize, m: usize) {
        // Only the key: the caller has checked the child's bound already.
        if let Some(g) = &self.ctx.guards {
            self.guard.path[level + 1] = g.packer.step(m, self.guard.path[level]);
        }
        let w = self.ctx.width;
        let (cur, next) = self.path.states.split_at_mut((level + 1) * w);
        self.ctx.step_row(&cur[level * w..], m, &mut next[..w]);
        // The child's row is whole when its parent's is; the rows below it are no
        // longer on the path.
        if self.path.full > level {
            self.path.full = level + 2;
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
        if to == DEAD || !self.guard_ok(level, m) {
            self.note_cost(m, remaining);
            return None;
        }
        let cost = ctx.cost[m];
        let left = remaining - cost;
        let over = self.child_key(level, m, left).1;
        if over > 0 {
            self.refused_by(over);
            return None;
        }
        self.advance(level, m);
        self.nodes += 1;
        let next = &self.path.states[(level + 1) * ctx.width..(level + 2) * ctx.width];
        let mut h = 0;
        for (slots, t) in &ctx.prune {
            let idx: u64 = slots.iter().map(|&(s, st)| next[s] as u64 * st).sum();
            h = h.max(t.get(idx));
            if h > left {
                break;
            }
        }
        if h <= left {
            h = ctx.reduced.as_ref().map_or(h, |r| h.max(r.get(next)));
        }
        if h > left {
            self.refused_by(h - left);
            return None;
        }
        Some((left, to))
    }

    /// Every solution below the node at `level` with exactly `remaining` cost left.
    /// With nothing left, the node is a solution when solved, and otherwise only free
    /// moves may follow; a solution is never extended into another of the same cost.
    ///
    /// All children of a node are made first, then pruned one table at a time over
    /// all of them: the table reads of different children are independent, so their
    /// cache misses overlap instead of queueing one behind the other. Survivors keep
    /// their move order, so solutions come out in ksolve+'s order.
    ///
    /// Moves in `forbid` are left out: the node's tight lookups at its inverse rule
    /// them out as the first move of a solution of this cost ([`super::tight`]).
    fn dfs(&mut self, level: usize, remaining: u32, state: u32, forbid: u64) {
        if remaining == 0 {
            // The node's children are left to larger bounds (a solution is not extended
            // here), and every move that is not free costs at least 1.
            if self.is_goal(level) {
                self.record();
                self.refused_by(1);
                return;
            }
            if self.ctx.zero_run == 0 {
                self.refused_by(1);
                return;
            }
        }
        let ctx = self.ctx;
        let (nm, w) = (ctx.nm, ctx.width);
        let legal = self.legal(level);
        let kbase = level * nm;
        // Only the slots the plan's checks read: the others' move tables (of tables
        // the plan leaves out, some of tens of megabytes) would each cost a miss.
        let rows = &self.checks.plan.rows;
        let mut alive = 0;
        for m in 0..nm {
            // A mask is only ever set with at most 64 moves ([`super::super::tight`]).
            if forbid != 0 && forbid >> m & 1 == 1 {
                self.refused_by(1);
                continue;
            }
            let to = self.may_try(remaining, state, m, legal);
            if to == DEAD || !self.guard_ok(level, m) {
                self.note_cost(m, remaining);
                continue;
            }
            let (key, over) = self.child_key(level, m, remaining - ctx.cost[m]);
            if over > 0 {
                self.refused_by(over);
                continue;
            }
            let k = kbase + alive;
            if ctx.guards.is_some() {
                self.guard.kids[k] = key;
            }
            let cur = &self.path.states[level * w..(level + 1) * w];
            let row = &mut self.kids.vals[k * w..(k + 1) * w];
            for &s in rows {
                row[s] = ctx.tables[s][cur[s] as usize * nm + m];
            }
            self.kids.moves[k] = m as u16;
            self.kids.states[k] = to;
            self.kids.left[k] = remaining - ctx.cost[m];
            self.kids.tight[k] = 0;
            alive += 1;
        }
        self.nodes += alive as u64;
        if self.nodes - self.reported >= REPORT_EVERY {
            self.report();
        }
        if self.sampled(level) {
            self.sample(level, kbase, alive);
        }
        alive = self.check_batch(level, kbase, alive);
        alive = self.check_inverse(level, kbase, alive);
        let keep_full = self.checks.plan.keeps_full();
        let pw = ctx.sym.slots.len();
        for i in 0..alive {
            let k = kbase + i;
            let next = (level + 1) * w;
            self.path.states[next..next + w].copy_from_slice(&self.kids.vals[k * w..(k + 1) * w]);
            self.path.full = self.path.full.min(level + 1);
            let m = self.kids.moves[k] as usize;
            if pw > 0 {
                let next = (level + 1) * pw;
                self.probe.path[next..next + pw]
                    .copy_from_slice(&self.probe.kids[k * pw..(k + 1) * pw]);
            }
            if keep_full {
                self.advance_full(level, m);
            }
            if ctx.guards.is_some() {
                self.guard.path[level + 1] = self.guard.kids[k];
            }
            self.push(m);
            let forbid = self.kids.tight[k];
            self.dfs(level + 1, self.kids.left[k], self.kids.states[k], forbid);
            self.pop();
            if self.halted() {
                return;
            }
        }
    }

    /// Hands the nodes generated since the last report to the search's progress.
    fn report(&mut self) {
        self.ctx.progress.inc(self.nodes - self.reported);
        self.reported = self.nodes;
        // The deadline is read here, every few thousand nodes, not at every node.
        if let (Some(d), Some(out)) = (self.ctx.deadline, self.out.emitter) {
            if std::time::Instant::now() >= d {
                out.halt();
            }
        }
    }

    /// Keeps the solution at the end of the path: straight to the emitter when this
    /// prefix is the head, else in the buffer, which is handed over (after waiting for
    /// the head) when full.
    fn record(&mut self) {
        self.out.found.push(self.path.moves.clone());
        self.out.in_prefix += 1;
        if let Some(out) = self.out.emitter {
            if self.out.in_prefix >= out.cap() {
                out.mark_full(self.out.me);
            }
            if self.out.is_head || self.out.found.len() >= out.buffering.per_worker {
                self.out.is_head = out.flush(self.out.me, &mut self.out.found);
            }
        }
    }

    /// Whether this prefix's search should stop: it alone has all the solutions still
    /// wanted, or the emitter says so.
    #[inline]
    fn halted(&self) -> bool {
        match self.out.emitter {
            Some(out) => self.out.in_prefix >= out.cap() || out.halted(self.out.me),
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
                out.push(Item::Solution(self.path.moves.clone()));
                self.refused_by(1);
                return;
            }
            if self.ctx.zero_run == 0 {
                self.refused_by(1);
                return;
            }
        }
        if level == split {
            out.push(Item::Prefix(self.path.moves.clone()));
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
        self.out.me = me;
        self.out.is_head = false;
        self.out.in_prefix = 0;
        self.path.full = 1;
        self.path.moves.clear();
        self.path.runs.clear();
        self.path.counts.iter_mut().for_each(|c| *c = 0);
        let mut spent = 0;
        let mut state = Canon::START;
        for (level, &m) in prefix.iter().enumerate() {
            self.advance(level, m as usize);
            // The prefix passed the probes' bounds or not, it is searched either way; only
            // the slots' values matter here.
            self.advance_probes(level, m as usize);
            self.push(m as usize);
            spent += self.ctx.cost[m as usize];
            state = self.ctx.canon.step(state, m as usize);
        }
        self.dfs(prefix.len(), bound - spent, state, 0);
        if let Some(out) = self.out.emitter {
            if !out.halted(me) {
                out.finish(me, std::mem::take(&mut self.out.found));
            }
            self.out.found.clear();
        }
    }
}

/// Searches every sequence of cost exactly `bound` with the checks of `plan`, handing
/// at most `cap` solutions to `sink` in order; returns how many it was given, the nodes
/// generated, the sample of what the checks cut and the least excess of a refused child
/// over its cost left (`u32::MAX` when none was refused): no sequence costs more than
/// `bound` and less than `bound` plus that excess, unless the search stopped early
/// (the cap reached, or the deadline). The top of
/// the tree is expanded until there are enough prefixes to keep every thread busy;
/// `threads` workers claim the prefixes in order and deliver through an [`Emitter`].
pub(super) fn search_bound(
    ctx: &Ctx,
    plan: &Plan,
    bound: u32,
    cap: usize,
    threads: usize,
    buffering: Buffering,
    sink: &mut Sink<'_>,
) -> Result<(usize, u64, Samples, u32), SearchError> {
    // Every move of the path but free ones costs at least 1, and free ones come in runs
    // of at most `zero_run` between them.
    let z = ctx.zero_run as usize;
    let levels = bound as usize + (bound as usize + 1) * z;
    let mut top = Worker::new(ctx, plan, levels, None);
    let want = 64 * threads;
    let mut items = Vec::new();
    let mut split = 1;
    loop {
        items.clear();
        top.nodes = 0;
        top.over = u32::MAX;
        top.expand(0, bound, Canon::START, split, &mut items);
        if ctx.stabiliser.len() > 0 {
            items.retain(|item| match item {
                Item::Prefix(p) => !ctx.stabiliser.is_redundant(p),
                Item::Solution(_) => true,
            });
        }
        // Enough prefixes, or the top of the tree is already costly: search what we have.
        if items.len() >= want || split + 2 >= levels || top.nodes > 200_000 {
            break;
        }
        split += 1;
    }
    let emitter = Emitter::new(sink, cap, buffering);
    let next = AtomicUsize::new(0);
    ctx.progress.inc(top.nodes);
    let nodes = AtomicU64::new(top.nodes);
    let over = AtomicU32::new(top.over);
    let samples = std::sync::Mutex::new(Samples::default());
    let work = || {
        let mut w = Worker::new(ctx, plan, levels, Some(&emitter));
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
        w.report();
        nodes.fetch_add(w.nodes, Relaxed);
        over.fetch_min(w.over, Relaxed);
        // A worker that panicked has poisoned the lock; its samples are lost, which
        // only leaves the plan as it was.
        if let Ok(mut all) = samples.lock() {
            all.merge(std::mem::take(&mut w.checks.samples));
        }
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
        None => Ok((
            emitted,
            nodes.into_inner(),
            samples.into_inner().unwrap_or_default(),
            over.into_inner(),
        )),
    }
}
