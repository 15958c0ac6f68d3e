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
//!   state is solved under the scramble's own ignore masks ([`Puzzle::is_solved`]), or,
//!   when the scramble file sets a goal, matches one of the goal's positions
//!   ([`crate::puzzle::Goal::reached_by`]).
//! - Every solution is replayed on the piece-level model before it is returned; a
//!   mismatch is an internal error, never an answer.
//! - Guarded moves (`When`) are tried only where their guard holds: each node carries
//!   its labels, flat, beside its component values. The pruning tables ignore guards
//!   (every guard counts as met there), which only lowers their bounds: admissible.
//! - The inner loop allocates nothing: node states are rows of a preallocated array of
//!   component values, advanced through move tables.

pub mod canon;
mod checks;
mod ctx;
mod deepen;
mod goal_test;
mod guarded;
mod inverse;
pub mod limits;
pub mod ordered;
mod probe;
pub mod random;
mod reduced;
mod stabiliser;
mod tight;
mod trial;
mod tuning;
mod worker;
mod zero;

use canon::Canon;
pub use checks::{CheckUse, MIN_SAMPLES, SAMPLE_EVERY};
use ctx::{touched_by, with_free, Ctx};
use guarded::Guards;
use ordered::Buffering;
pub use tuning::Tuning;

use crate::progress::Progress;
use crate::puzzle::{
    union_masks, Goal, IgnoreMask, Metric, MoveId, MoveLimit, Puzzle, SolveSettings, State,
};
use crate::symmetry::SymmetryGroup;
use crate::table::comp::{CompError, CompKind, CompSpec, Component};
use crate::table::plan::set_specs;
use crate::table::prune::{move_costs, INFINITE};
use crate::table::{CompId, Tables};
use std::borrow::Cow;
use std::sync::Arc;

/// What the caller wants besides the settings of the scramble file.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveOptions {
    /// Stop after this many solutions (over all lengths).
    pub count: Option<usize>,
    /// Do not use symmetry: no symmetry-reduced table and no lookups of the pruning
    /// tables at conjugated positions
    /// ([`probe`]).
    pub no_symmetry: bool,
    /// No extra lookups of the pruning tables at all (symmetric or inverse positions),
    /// for comparisons: solutions are the same, only the node count changes.
    pub no_probes: bool,
    /// Make every bound check on every child instead of choosing them from samples of
    /// the search ([`checks`]), for comparisons: the same solutions, only the nodes and
    /// the time change.
    pub all_checks: bool,
    /// Threads to search with (default: rayon's pool size). Output is the same for any
    /// number.
    pub threads: Option<usize>,
    /// How many solutions may wait for their turn while threads search ahead.
    pub buffering: Buffering,
    /// Stop searching at this time: the outcome then says [`Outcome::timed_out`], and
    /// what it says of lengths not searched to the end means nothing.
    pub deadline: Option<std::time::Instant>,
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
    /// No sequence within the scramble's move limits reaches the goal: a breadth-first
    /// search over positions and limit counters found none ([`limits`]).
    LimitsUnreachable,
    /// The move limits may make the position unreachable and the puzzle is too large to
    /// settle that: no solution up to this depth, where the search stopped
    /// ([`limits::UNSETTLED_DEPTHS`] past its first bound).
    LimitsBound(u32),
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
    /// Extra lookups of the pruning tables the search may make per node (positions
    /// conjugated by a symmetry, or the inverse position); which it makes is in
    /// `checks`.
    pub probes: usize,
    /// Whether the symmetry-reduced table ([`crate::table::sym`]) bounded the search.
    pub reduced: bool,
    /// Every check of a child's bound the search could make, whether the last depth
    /// searched made it and what it cut in the sample ([`checks`]).
    pub checks: Vec<CheckUse>,
    /// The search stopped at [`SolveOptions::deadline`] before it was done.
    pub timed_out: bool,
    /// How many symmetries besides the identity fix the start and left redundant
    /// prefixes of the top of the tree out (0 when none did; see `stabiliser.rs`).
    pub symmetric: usize,
}

impl Outcome {
    /// The outcome of a position that cannot reach the goal: no search was made.
    pub fn unreachable() -> Outcome {
        Outcome {
            status: Status::Unreachable,
            length: None,
            solutions: Vec::new(),
            nodes: 0,
            probes: 0,
            reduced: false,
            checks: Vec::new(),
            timed_out: false,
            symmetric: 0,
        }
    }
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
    /// Move limits are counted as bits of one word per search node.
    #[error(
        "the search supports at most 64 MoveLimits lines in force at once; this scramble has {0}"
    )]
    TooManyLimits(usize),
    #[error(
        "set {0} is too large to track orientations by position, and the scramble ignores \
         a piece but not its twist: not supported"
    )]
    Unsupported(String),
    /// A start whose twists in a set sum to another value than the solved state's,
    /// which the tables assume (a scramble file's goal may be of that sum).
    #[error(
        "the twists of set {0} sum to another value than the solved state's, which every \
         move keeps and the tables count by: not supported (an `Ignore` of the set's \
         orientations in the definition lifts it)"
    )]
    OtherTwistSum(String),
    /// The moves of weight 0 make too many positions for runs of them to be bounded.
    #[error(
        "the moves of cost 0 ({moves}) reach more than {limit} arrangements by themselves; \
         expected free moves that generate a small group (such as whole-puzzle rotations)"
    )]
    ZeroCostGroup { moves: String, limit: usize },
    #[error("cannot search a puzzle with guarded moves: {0}")]
    Guarded(#[from] crate::gods::GodError),
}

/// Checks that runs of the moves of cost 0 (`MoveCosts` weight 0) can be bounded
/// ([`SearchError::ZeroCostGroup`] otherwise), as every search of `puzzle` needs: a
/// caller that streams its output asks first, so that the refusal comes before any
/// output, and `ksolve check` reports it.
pub fn check_free_moves(puzzle: &Puzzle) -> Result<(), SearchError> {
    zero::longest_run(puzzle).map(|_| ())
}

/// Whether a search may use the symmetry-reduced table: it holds distances to the
/// definition's goal under the definition's moves, so not for a scramble file's goal
/// (`has_goal`), nor with guards, nor under `--no-symmetry`. The search and `solve -v`
/// both ask here, so what `-v` shows is what the search does.
pub fn reduced_applies(puzzle: &Puzzle, has_goal: bool, no_symmetry: bool) -> bool {
    !no_symmetry && !has_goal && !puzzle.has_guards()
}

/// The tables a search plans under the solver's budget, as `solve -v` shows them.
#[derive(Clone, Debug)]
pub struct PlanView {
    /// How the budget is shared with a symmetry-reduced table, when one may be used.
    pub share: Option<crate::table::sym::cached::Share>,
    /// The budget the ordinary tables are planned in.
    pub ordinary: u64,
    /// The ordinary plans weighed in that budget, and the one chosen.
    pub report: crate::table::plan::PlanReport,
}

/// A solver for one puzzle: its tables and the search.
pub struct Solver<'p> {
    puzzle: &'p Puzzle,
    tables: Tables,
    /// The canonical automaton of the last move limits seen: building it composes
    /// moves, so it is kept while consecutive scrambles share their limits.
    canon: Option<(Vec<MoveLimit>, Arc<Canon>)>,
    /// The definition's symmetries, found at the first search that probes with them
    /// (`None` inside when they could not be found: the search then goes without).
    symmetry: Option<Option<SymmetryGroup>>,
    /// [`Ctx::zero_run`], computed at the first search.
    zero_run: Option<u32>,
    /// The groups [`limits::settle`] asks about move limits, kept between scrambles.
    limit_groups: limits::LimitGroups,
    /// For guarded puzzles: the packed-key form of the moves and the exact distance
    /// tables built so far (see [`guarded`]).
    guarded: Option<guarded::GuardTables>,
    /// Departures from the defaults that only tests ask for.
    tuning: Tuning,
    /// Which trials without large tables this solver has announced ([`trial`]).
    trials: trial::Trials,
    /// Time spent preparing searches (building or loading tables, finding the
    /// symmetries), over every search so far.
    table_time: std::time::Duration,
    /// Time spent deepening, over every search so far.
    search_time: std::time::Duration,
    /// The goal components' values under a closed goal's moves ([`goal_test`]).
    closures: goal_test::Closures,
}

impl<'p> Solver<'p> {
    /// A solver for `puzzle` that builds or loads its tables in `tables`.
    pub fn new(puzzle: &'p Puzzle, tables: Tables) -> Solver<'p> {
        Solver {
            puzzle,
            tables,
            canon: None,
            symmetry: None,
            zero_run: None,
            limit_groups: limits::LimitGroups::default(),
            guarded: None,
            tuning: Tuning::default(),
            trials: trial::Trials::default(),
            table_time: std::time::Duration::ZERO,
            search_time: std::time::Duration::ZERO,
            closures: goal_test::Closures::default(),
        }
    }

    /// Sets the switches that tests of the search itself use (see [`Tuning`]); they
    /// apply to every later search of this solver.
    pub fn tune(&mut self, tuning: Tuning) {
        self.tuning = tuning;
        self.tables.set_two_bits(tuning.two_bit_tables);
    }

    /// [`Ctx::zero_run`], computed once.
    fn free_run(&mut self) -> Result<u32, SearchError> {
        if let Some(r) = self.zero_run {
            return Ok(r);
        }
        let r = zero::longest_run(self.puzzle)?;
        self.zero_run = Some(r);
        Ok(r)
    }

    /// The puzzle this solver searches.
    pub fn puzzle(&self) -> &'p Puzzle {
        self.puzzle
    }

    /// The time spent preparing searches (building or loading tables, finding the
    /// symmetries) over every search of this solver: what the searches themselves did
    /// not spend of their time.
    pub fn table_time(&self) -> std::time::Duration {
        self.table_time
    }

    /// The tables built so far.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The symmetry-reduced table built for `metric`, if a search chose one.
    pub fn reduced_table(&self, metric: Metric) -> Option<&crate::table::sym::cached::SymPruning> {
        self.tables.built_sym(metric)
    }

    /// The plan a search with these settings follows. The symmetry group and the
    /// reduced table's share are found here once and kept for the searches that follow,
    /// so asking costs no more than the first search would spend on them anyway.
    pub fn plan(&mut self, has_goal: bool, no_symmetry: bool) -> Result<PlanView, SearchError> {
        let puzzle = self.puzzle;
        let share = match reduced_applies(puzzle, has_goal, no_symmetry)
            .then(|| ctx::group_of(&mut self.symmetry, puzzle))
            .flatten()
        {
            Some(g) => Some(self.tables.share(puzzle, g)?),
            None => None,
        };
        let ordinary = share.as_ref().map_or(self.tables.budget(), |s| s.ordinary);
        let mut report = crate::table::plan::plan_report(puzzle, ordinary)?;
        if share.as_ref().is_none_or(|s| s.plan.is_none()) {
            crate::table::plan::add_extra_table(puzzle, &mut report, ordinary);
        }
        Ok(PlanView {
            share,
            ordinary,
            report,
        })
    }

    /// Builds (or loads) the pruning tables for `metric` now rather than at the first
    /// scramble that needs them.
    pub fn prepare(
        &mut self,
        metric: Metric,
        goal: Option<&Goal>,
        progress: &dyn Progress,
    ) -> Result<(), SearchError> {
        self.tables.pruning(self.puzzle, metric, goal, progress)?;
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
        // Everything but the deepening prepares it (building or loading tables, the
        // verdicts on limits, the symmetries): counted as table time, whichever way the
        // search returns.
        let began = std::time::Instant::now();
        let searched = self.search_time;
        let r = self.search_each(start, ignore, settings, options, progress, on_solution);
        let deepening = self.search_time.saturating_sub(searched);
        self.table_time += began.elapsed().saturating_sub(deepening);
        r
    }

    /// [`Solver::solve_each`] without its accounting of time.
    fn search_each(
        &mut self,
        start: &State,
        ignore: &[IgnoreMask],
        settings: &SolveSettings,
        options: SolveOptions,
        progress: &dyn Progress,
        on_solution: &mut (dyn FnMut(u32, &[MoveId]) + Send),
    ) -> Result<Outcome, SearchError> {
        let puzzle = self.puzzle;
        // A goal that knows some orientation only modulo a divisor is a set of
        // positions: searched as one, also when the caller's settings did not put it in
        // force (`SolveSettings::for_puzzle` does).
        if settings.goal.is_none() {
            if let Some(goal) = puzzle.modulo_goal("solved") {
                let settings = SolveSettings {
                    goal: Some(std::sync::Arc::new(goal)),
                    ..settings.clone()
                };
                return self.search_each(start, ignore, &settings, options, progress, on_solution);
            }
        }
        let merged;
        let ignore = if puzzle.goal_is_set() {
            merged = with_free(puzzle, ignore);
            &merged[..]
        } else {
            ignore
        };
        if !puzzle.blocks.is_empty() && puzzle.base_moves.len() > 128 {
            return Err(SearchError::TooManyMoves(puzzle.base_moves.len()));
        }
        if settings.limits.len() > 64 {
            return Err(SearchError::TooManyLimits(settings.limits.len()));
        }
        // Limits above 0 may leave no solution at all: settled here when the puzzle is
        // small, else the deepening below is bounded.
        let reach = limits::settle(
            puzzle,
            start,
            ignore,
            settings,
            &mut self.limit_groups,
            self.tuning.settle_pairs.unwrap_or(limits::SETTLE_PAIRS),
        );
        if reach == limits::Reach::Unreachable {
            return Ok(Outcome {
                status: Status::LimitsUnreachable,
                ..Outcome::unreachable()
            });
        }
        let canon = self.canon_for(&settings.limits);
        let zero_run = self.free_run()?;
        let unreachable = Outcome::unreachable();
        // The positions that count as solved, each with what it leaves free: the
        // definition's `Solved` with the scramble's `?` marks, or every position of the
        // scramble file's goal with its own `?` marks and the scramble's.
        let goal = settings.goal.as_deref();
        // A goal position's own masks are borrowed where the scramble frees nothing
        // (a goal file may have thousands of positions).
        let frees = ignore.iter().any(IgnoreMask::any);
        let targets: Vec<(&State, Cow<[IgnoreMask]>)> = match goal {
            None => vec![(&puzzle.solved, Cow::Borrowed(ignore))],
            Some(g) => g
                .positions
                .iter()
                .map(|p| {
                    let masks = match frees {
                        true => Cow::Owned(union_masks(puzzle, &p.target.ignore, ignore)),
                        false => Cow::Borrowed(&p.target.ignore[..]),
                    };
                    (&p.target.state, masks)
                })
                .collect(),
        };
        // Where the tables count a set's twists by the solved state's sum, which every
        // move keeps, a goal position of another sum cannot be reached (and would be
        // read as one of the solved sum), and a start of another sum cannot be read.
        let mut targets = targets;
        for set in 0..puzzle.sets.len() {
            let Some(CompSpec {
                kind: CompKind::Ori { sum: Some(sum) },
                ..
            }) = crate::table::plan::ori_spec(puzzle, set)
            else {
                continue;
            };
            let n = puzzle.sets[set].orientations as u32;
            let sum_of =
                |s: &State| (s.sets[set].ori.iter().map(|&o| o as u32).sum::<u32>() % n) as u8;
            let start_sum = sum_of(start);
            if start_sum != sum {
                // Moves keep the sum: only a goal position of the start's own sum could
                // be reached, and the tables cannot read one.
                return match targets.iter().any(|(g, _)| sum_of(g) == start_sum) {
                    true => Err(SearchError::OtherTwistSum(puzzle.sets[set].name.clone())),
                    false => Ok(unreachable),
                };
            }
            targets.retain(|(g, _)| sum_of(g) == sum);
        }
        // A goal position with a piece in another orbit than the start's: no move
        // brings it there (and a set whose pieces cannot move has no component whose
        // goal test would say so).
        let orbits: Vec<_> = (0..puzzle.sets.len())
            .map(|set| puzzle.position_orbits(set))
            .collect();
        targets.retain(|(g, masks)| puzzle.keeps_orbits(&orbits, start, g, masks));
        if targets.is_empty() {
            return Ok(unreachable);
        }
        // The components of the goal test see what the masks allow. A goal's positions
        // may hold any pieces where they are free, so with a goal every piece is told
        // apart (the relabelling by mask is drawn from the solved state).
        let spec_mask = |set: usize| match goal {
            None => ignore.get(set),
            Some(_) => None,
        };
        // The move tables the goal test reads must fit the budget; say how much they
        // need before building any.
        let budget_masks = if goal.is_some() { &[][..] } else { ignore };
        crate::table::plan::check_goal(puzzle, budget_masks, self.tables.budget())?;
        // Components: what the goal test needs, then what the pruning tables read.
        let mut goal_specs: Vec<CompSpec> = Vec::new();
        for set in 0..puzzle.sets.len() {
            let (parts, ori) = set_specs(puzzle, set, spec_mask(set));
            // Parts that carry orientations only see the orientation of pieces they
            // track; a position whose piece is ignored but whose twist is not would go
            // unchecked.
            let pieces = parts
                .iter()
                .any(|p| matches!(p.kind, CompKind::Pieces { .. }));
            if pieces {
                for (_, masks) in &targets {
                    if let Some(m) = masks.get(set) {
                        if m.perm.iter().zip(&m.ori).any(|(&p, &o)| p && !o) {
                            return Err(SearchError::Unsupported(puzzle.sets[set].name.clone()));
                        }
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
        // The symmetry-reduced table holds distances to the definition's goal under the
        // definition's moves: not for a scramble file's goal, nor with guards. It is
        // planned first, since it may take most of the budget from the ordinary tables.
        let use_reduced = reduced_applies(puzzle, settings.goal.is_some(), options.no_symmetry);
        if let Some(g) = use_reduced
            .then(|| ctx::group_of(&mut self.symmetry, puzzle))
            .flatten()
        {
            self.tables.share(puzzle, g)?;
        }
        // Tables that take long to build wait for a trial search without them
        // ([`trial`]): first the ordinary tables, guarded puzzles excepted.
        let (mut tier, mut budget) = match puzzle.has_guards() {
            true => (None, None),
            false => self
                .trials
                .ordinary(
                    &self.tables,
                    puzzle,
                    settings.metric,
                    goal,
                    self.tuning.trial_nodes,
                    progress,
                )?
                .unzip(),
        };
        // The reduced table's trial comes with the first pass in the planned ordinary
        // tables; when a trial gives up, the next pass builds what it waited for and
        // searches again.
        let (mut first, mut trial_nodes) = (true, 0u64);
        loop {
            let prune_comps: Vec<(Vec<CompId>, usize)> = self
                .tables
                .pruning_in(puzzle, settings.metric, goal, tier, progress)?
                .iter()
                .enumerate()
                .map(|(i, p)| (p.comps.clone(), i))
                .collect();
            let group = match tier {
                // The small tables' trial goes without the reduced table as well.
                Some(_) => None,
                None => use_reduced
                    .then(|| ctx::group_of(&mut self.symmetry, puzzle))
                    .flatten(),
            };
            if let (Some(g), true) = (group, first) {
                let nodes = self.tuning.trial_nodes;
                let waits = self.trials.reduced(
                    &mut self.tables,
                    puzzle,
                    settings.metric,
                    g,
                    nodes,
                    progress,
                )?;
                budget = waits.or(budget);
            }
            if tier.is_none() {
                first = false;
            }
            let reduced_ids = match group {
                Some(g) if budget.is_none() => self
                    .tables
                    .sym_pruning(puzzle, settings.metric, g, progress)?
                    .map(|r| (r.major.clone(), r.minor.clone())),
                _ => None,
            };
            if puzzle.has_guards() {
                // The additive family holds distances to the definition's goal. One of
                // several tables means a puzzle whose positions are far too many to list, so
                // the exact table is not attempted (its breadth-first search would run to
                // its cap for nothing).
                let tables = match goal {
                    None => self
                        .tables
                        .additive(puzzle, settings.metric, progress)
                        .map_or(0, |f| f.tables.len()),
                    Some(_) => 0,
                };
                // The exact table holds distances to the definition's goal too: a scramble
                // file's goal is another target, for which they bound nothing.
                let own_goal = goal.is_none_or(|g| puzzle.is_own_goal(g));
                let exact = !self.tuning.no_exact_table && tables <= 1 && own_goal;
                self.guarded(settings.metric, exact, progress)?;
            }
            let guard_tables = self.guarded.as_ref().filter(|_| puzzle.has_guards());
            let tables = &self.tables;

            // Slots: every distinct component once, then one per block piece.
            let mut slot_of: Vec<CompId> = Vec::new();
            let goal_slots: Vec<usize> =
                goal_ids.iter().map(|&id| slot(id, &mut slot_of)).collect();
            let pruning_all = tables.built_pruning(settings.metric, goal, tier);
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
            let reduced = reduced_ids.as_ref().and_then(|(a, b)| {
                let t = tables.built_sym(settings.metric)?;
                let sa: Vec<usize> = a.iter().map(|&id| slot(id, &mut slot_of)).collect();
                let sb: Vec<usize> = b.iter().map(|&id| slot(id, &mut slot_of)).collect();
                Some(reduced::SymLookup::new(&t.table, &sa, &sb))
            });
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
            // Per goal position, the values each goal component may take there.
            // A closed goal's components take every value its moves reach.
            let closed = goal.filter(|g| g.is_closed());
            let closing = closed.and_then(|g| Some((tables.goal_id(Some(g))?, &g.within[..])));
            let closures = &mut self.closures;
            let goal_bits: Vec<Vec<(usize, goal_test::Allowed)>> = targets
                .iter()
                .map(|(state, masks)| {
                    goal_ids
                        .iter()
                        .zip(&goal_slots)
                        .map(|(&id, &s)| {
                            let c = tables.comp(id);
                            let values = c.goal_values_at(state, masks.get(c.spec.set));
                            let allowed = match closing {
                                Some((g, within)) => {
                                    closures.allowed(g, id, c, puzzle.moves.len(), values, within)
                                }
                                None => goal_test::Allowed::new(c.count as usize, values),
                            };
                            (s, allowed)
                        })
                        .collect()
                })
                .collect();

            let nm = puzzle.moves.len();
            let limits = &settings.limits;
            let limit_mask: Vec<u64> = (0..nm)
                .map(|m| {
                    limits
                        .iter()
                        .enumerate()
                        .filter(|(_, l)| l.matches(puzzle, MoveId(m as u16)))
                        .fold(0u64, |acc, (i, _)| acc | 1 << i)
                })
                .collect();
            // The probes' bounds hold for distances to the definition's goal under the
            // definition's moves. A scramble file's goal need not be kept by a symmetry (nor
            // by inversion), and a guard may forbid the image of a move the symmetry maps
            // onto: both go without them.
            let probes_off = options.no_probes
                || settings.goal.is_some()
                || puzzle.guards.iter().any(Option::is_some);
            let no_probes = probe::SymProbes::default();
            // Symmetries are found from the moves' effects alone; with `MoveCosts` a move's
            // image may cost another amount, so distances need not carry over.
            let sym = if options.no_symmetry || probes_off || puzzle.has_weights() {
                no_probes
            } else {
                match ctx::group_of(&mut self.symmetry, puzzle) {
                    Some(g) => {
                        let prune: Vec<(Vec<CompId>, Vec<u64>)> = prune_comps
                            .iter()
                            .map(|(ids, i)| (ids.clone(), pruning_all[*i].table.strides.clone()))
                            .collect();
                        let sym_table = reduced.as_ref().and(tables.built_sym(settings.metric));
                        let rules = (ignore, &limit_mask[..], start);
                        probe::choose(puzzle, g, tables, &prune, rules, sym_table)
                    }
                    None => no_probes,
                }
            };
            // A symmetric start needs only one prefix of each orbit of the top of the tree
            // when one solution is wanted, in the plain canonical order (no limits,
            // weights, directed or bandaged moves, forbidden pairs or slack).
            let plain = options.count == Some(1)
                && settings.slack == 0
                && limits.is_empty()
                && puzzle.blocks.is_empty()
                && !puzzle.forbidden.iter().any(|&f| f)
                && !puzzle.base_moves.iter().any(|b| b.directed);
            let stabiliser =
                if plain && !options.no_symmetry && !probes_off && !puzzle.has_weights() {
                    match ctx::group_of(&mut self.symmetry, puzzle) {
                        Some(g) => stabiliser::Stabiliser::of(
                            g,
                            &probe::eligible(puzzle, g, ignore, &limit_mask),
                            start,
                        ),
                        None => stabiliser::Stabiliser::default(),
                    }
                } else {
                    stabiliser::Stabiliser::default()
                };
            let cost = move_costs(puzzle, settings.metric);
            let inverse = if probes_off {
                None
            } else {
                let prune: Vec<Vec<(&Component, u64)>> = prune_comps
                    .iter()
                    .map(|(ids, i)| {
                        ids.iter()
                            .zip(&pruning_all[*i].table.strides)
                            .map(|(&id, &st)| (tables.comp(id), st))
                            .collect()
                    })
                    .collect();
                // The reduced table's abstraction (a set seen whole, another's twists) is
                // not one of its own inverses: the inverse position gives another bound.
                let reduced_inverse = reduced_ids
                    .as_ref()
                    .and_then(|(a, b)| reduced::at_inverse(tables, settings.metric, a, b));
                let mut ip = inverse::InverseProbe::new(
                    puzzle,
                    ignore,
                    &limit_mask,
                    &cost,
                    prune,
                    reduced_inverse,
                );
                // The reduced table's probes at the inverse too: the conjugates of the
                // inverse by the symmetries the table does not absorb (the 3x3x3's
                // corners × flips: the two other axes, as at the position itself).
                if let (Some(ip), Some(Some(g))) = (ip.as_mut(), self.symmetry.as_ref()) {
                    if ip.reduced.is_some() {
                        let elements = g.elements();
                        ip.conj = sym
                            .reduced_used
                            .iter()
                            .map(|&s| elements[s].clone())
                            .collect();
                    }
                }
                ip
            };
            // The reduced table's tight-bound rule ([`tight`]): which moves its lookups
            // rule out as a solution's last move when their bound is tight.
            let tight = match (&reduced_ids, &reduced) {
                (Some((a, b)), Some(_)) if !self.tuning.no_tight => tight::Tight::new(
                    puzzle,
                    tables,
                    &[a.as_slice(), b.as_slice()].concat(),
                    self.symmetry.as_ref().and_then(Option::as_ref),
                    &sym.reduced_used,
                    &cost,
                ),
                _ => tight::Tight::default(),
            };
            let ctx = Ctx {
                nm,
                width: slot_tables.len(),
                tables: slot_tables,
                start: start_vals,
                canon: &canon,
                cost,
                zero_run,
                undo: if settings.slack == 0 && puzzle.has_guards() {
                    ctx::undoing_moves(puzzle, settings.metric)
                } else {
                    Vec::new()
                },
                base: puzzle.moves.iter().map(|m| m.base as u32).collect(),
                stabiliser,
                prune: prune_slots
                    .into_iter()
                    .zip(prune_comps.iter())
                    .map(|(s, (_, i))| (s, &pruning_all[*i].table))
                    .collect(),
                reduced,
                tight,
                goal: goal_bits,
                closed: closed.map(|goal| goal_test::Closed {
                    puzzle,
                    goal,
                    ignore,
                }),
                blocks,
                // Only blocks read these masks, and only with blocks are base moves capped at
                // 128 (a sliding puzzle has hundreds).
                touched: if puzzle.blocks.is_empty() {
                    Vec::new()
                } else {
                    touched_by(puzzle)
                },
                limit_mask,
                limit_max: limits.iter().map(|l| l.max).collect(),
                sym,
                inverse,
                start_state: start,
                progress,
                deadline: options.deadline,
                guards: match &guard_tables {
                    Some(g) => {
                        let family = match goal {
                            None => tables.built_additive(settings.metric),
                            Some(_) => None,
                        };
                        Some(Guards::new(
                            g,
                            puzzle,
                            start,
                            ignore,
                            settings.metric,
                            family,
                        )?)
                    }
                    None => None,
                },
            };

            let mut h0 = ctx.heuristic(&ctx.start);
            if let Some(g) = &ctx.guards {
                h0 = h0.max(g.bound(g.start));
            }
            if h0 >= INFINITE {
                return Ok(unreachable);
            }
            let outcome = Outcome {
                status: Status::MaxDepth,
                length: None,
                solutions: Vec::new(),
                nodes: 0,
                probes: ctx.sym.probes.len()
                    + ctx.sym.reduced.len()
                    + ctx
                        .inverse
                        .as_ref()
                        .map_or(0, |i| i.tables.len() + i.reduced.is_some() as usize),
                reduced: ctx.reduced.is_some(),
                checks: Vec::new(),
                timed_out: false,
                symmetric: ctx.stabiliser.len(),
            };
            let names: Vec<String> = prune_comps
                .iter()
                .map(|(_, i)| pruning_all[*i].name.clone())
                .collect();
            let reduced_name = ctx
                .reduced
                .as_ref()
                .and(tables.built_sym(settings.metric))
                .map(|t| t.plan.name.clone());
            let all = checks::checks_of(&ctx, &checks::numbered(names), reduced_name.as_deref());
            let sampling = self
                .tuning
                .check_sampling
                .unwrap_or((checks::SAMPLE_EVERY, checks::MIN_SAMPLES));
            let mut plan = checks::Plan::new(all, (!options.all_checks).then_some(sampling));
            plan.pin(|c| ctx.tight.of(c) != 0);
            plan.keep_rows(ctx.blocks.iter().flatten().map(|&(slot, _)| slot));
            let run = deepen::Run {
                puzzle,
                canon: &canon,
                start,
                ignore,
                settings,
                options,
                progress,
                bounded: reach == limits::Reach::Bounded,
                budget,
            };
            let deepening = std::time::Instant::now();
            let deepened = run.deepen(&ctx, plan, h0, outcome, on_solution);
            self.search_time += deepening.elapsed();
            let deepened = deepened?;
            match deepened {
                deepen::Deepened::Done(mut outcome) => {
                    outcome.nodes += trial_nodes;
                    return Ok(outcome);
                }
                deepen::Deepened::Stronger { nodes, bound } => {
                    trial_nodes += nodes;
                    budget = None;
                    let what = match tier.take() {
                        Some(_) => "the planned tables",
                        None => "the symmetry-reduced table",
                    };
                    progress.note(&format!(
                        "no solution below {bound} after {} nodes, and the next bound would \
                         take longer than building {what}: building it",
                        crate::progress::format_count(nodes)
                    ));
                }
            }
        }
    }

    /// Prepares the guarded search's tables for `metric`.
    fn guarded(
        &mut self,
        metric: Metric,
        exact: bool,
        progress: &dyn Progress,
    ) -> Result<(), SearchError> {
        if self.guarded.is_none() {
            self.guarded = Some(guarded::GuardTables::new(self.puzzle)?);
        }
        let budget = self.tables.budget();
        if let Some(g) = &mut self.guarded {
            g.use_exact = exact;
            if exact {
                g.prepare(self.puzzle, metric, budget, progress);
            }
        }
        Ok(())
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

#[cfg(test)]
mod tests;
