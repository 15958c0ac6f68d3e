//! God's algorithm: the number of positions at each distance from solved, the hardest
//! positions (antipodes) with an optimal solution each, and the full distance table for
//! the database method ([`database`]).
//!
//! Three searches share one contract. The indexed search (`index`, `indexed`) keeps 2
//! bits per position of a perfect index (4 or 8 when move costs or exact distances need
//! them) and expands layers in parallel; the sparse search (`hashed`) stores only
//! reached positions and handles `Block`, whose legality depends on the position. Guarded
//! moves take a third, `guarded`, over a flat perfect index of packed keys when it fits,
//! else the sparse search. All
//! count distances *to solve* (a move `m` from `x` counts when it is legal at `x`),
//! which for ordinary puzzles equals the distance from solved and for directed moves
//! (`Move NAME noinverse`) is the number of moves a player needs. Each position is
//! counted once, at its true distance in the chosen metric.
//!
//! Antipodes are chosen as ksolve+ chooses them: the deepest positions in ksolve+'s
//! index order (sets by name; within a set orientations, then the arrangement), each
//! solved greedily by the first move, in definition order, that reaches the lowest
//! distance along an optimal path.

mod checkpoint;
pub mod database;
mod dispatch;
mod dist;
mod flat_index;
mod guarded;
mod hashed;
mod index;
mod indexed;
mod net;
mod reverse;
mod run;
pub mod sample;
mod shards;
mod table;

use crate::memory;
use crate::progress::Progress;
use crate::puzzle::{Metric, MoveId, Puzzle, State, Transform};
use index::Indexer;
use run::{hashed_table, indexed_need, indexed_table};
use std::time::Instant;

pub use checkpoint::Checkpoint;
pub use dist::{compute_distributed, DistLayers, DistOptions, DistTable};
pub use index::IndexError;

/// Called after each finished layer with its depth and size (so the command line can
/// print rows as they come, as ksolve+ does).
pub type Layers = dyn Fn(usize, u64) + Sync;

/// Which search to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// The perfect index when the puzzle has no blocks and the table fits the budget,
    /// else the hash set.
    #[default]
    Auto,
    Indexed,
    Hashed,
}

/// What to compute.
#[derive(Clone, Debug)]
pub struct GodOptions {
    pub metric: Metric,
    /// How many antipodes to report (ksolve+ prints up to 5).
    pub antipodes: usize,
    /// Memory budget in bytes for the tables.
    pub memory: u64,
    /// Keep exact distances so that the table can be saved ([`database::write`]).
    pub keep_distances: bool,
    pub method: Method,
    /// Write a checkpoint after each layer (indexed search only), and maybe resume.
    pub checkpoint: Option<Checkpoint>,
    /// Internal choices, fixed by tests and benchmarks to exercise every code path.
    #[doc(hidden)]
    pub tuning: Tuning,
}

/// Overrides of the indexed search's own choices; the defaults let it choose.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Force every step backward (`Some(true)`) or forward (`Some(false)`).
    pub pull: Option<bool>,
    /// Build move tables (else every component is computed on the fly).
    pub move_tables: bool,
    /// Let forward steps start from kept layer lists instead of scanning the table.
    pub layer_lists: bool,
    /// Merge the smallest index components into one innermost coordinate.
    pub merge_components: bool,
    /// The most indices of one layer kept as a list (for the next forward step and for
    /// choosing antipodes); a larger layer is found again by scanning the table.
    pub keep_layer: u64,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            pull: None,
            move_tables: true,
            layer_lists: true,
            merge_components: true,
            keep_layer: 1 << 20,
        }
    }
}

impl Default for GodOptions {
    fn default() -> Self {
        GodOptions {
            metric: Metric::Htm,
            antipodes: 5,
            memory: memory::default_budget(),
            keep_distances: false,
            method: Method::Auto,
            checkpoint: None,
            tuning: Tuning::default(),
        }
    }
}

/// One of the deepest positions, with an optimal solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Antipode {
    pub state: State,
    pub solution: Vec<MoveId>,
}

/// A finished God's-algorithm table.
#[derive(Debug)]
pub struct GodTable {
    pub metric: Metric,
    /// `counts[d]`: positions at distance `d`.
    pub counts: Vec<u64>,
    pub antipodes: Vec<Antipode>,
    /// The search that ran.
    pub method: Method,
    /// The size of the perfect index (indexed search only).
    pub index_space: Option<u64>,
    /// Bytes of the distance table and move tables (an estimate for the hash set).
    pub table_bytes: u64,
    pub seconds: f64,
    distances: Option<Distances>,
}

impl GodTable {
    /// All positions reached.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The largest distance (God's number for this puzzle and metric).
    pub fn max_depth(&self) -> usize {
        self.counts.len() - 1
    }

    /// The exact distances of a hash-set search (computed with `keep_distances`), by
    /// packed key ([`Packer`]), sorted; `None` for the indexed search.
    pub(crate) fn into_key_distances(self) -> Option<Vec<(u128, u16)>> {
        match self.distances {
            Some(Distances::Hashed(v)) => Some(v),
            _ => None,
        }
    }

    /// Whether exact distances were kept for saving.
    pub fn has_distances(&self) -> bool {
        self.distances.is_some()
    }
}

/// Exact distances kept for the database method.
#[derive(Debug)]
pub(crate) enum Distances {
    /// One byte per index of the perfect index (255 marks an unreached index), and the
    /// fingerprint of the index layout the bytes follow.
    Indexed(Vec<u8>, u64),
    /// Every reached position's packed key, sorted, with its distance.
    Hashed(Vec<(u128, u16)>),
}

/// Why a table could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum GodError {
    #[error("the puzzle is too large for a breadth-first table: {0}")]
    TooLarge(String),
    #[error(
        "{what}: that needs {} but the memory budget is {} (raise it with --memory)",
        memory::human(*need),
        memory::human(*budget)
    )]
    OverBudget {
        what: String,
        need: u64,
        budget: u64,
    },
    #[error("{what}: that needs {} but this machine has {}", memory::human(*need), memory::human(*machine))]
    OverMachine {
        what: String,
        need: u64,
        machine: u64,
    },
    #[error("positions lie deeper than {0} moves, past what the distance table can record")]
    TooDeep(u32),
    #[error("{0}")]
    Unsupported(&'static str),
    #[error("distributed run: {0}")]
    Distributed(String),
    /// A distributed run lost its connection to another process (killed, crashed or
    /// unreachable); every process that notices stops.
    #[error("distributed run: lost process {process} ({address}): {why}; stopping")]
    Lost {
        process: usize,
        address: String,
        why: String,
    },
    #[error("checkpoint: {0}")]
    Checkpoint(String),
    /// The run stopped after writing the checkpoint of this layer, as asked.
    #[error("stopped after layer {0}, as asked; its checkpoint is written")]
    Stopped(usize),
    #[error("internal error: {0}")]
    Internal(&'static str),
    /// The layers add up to another number than the exact count of reachable
    /// positions (Schreier–Sims): a defect in a search, never a property of the puzzle.
    #[error(
        "internal error: the table counts {counted} positions but exactly {exact} are \
         reachable; refusing to give a wrong table (please report this definition)"
    )]
    Miscount { counted: u64, exact: u64 },
}

/// The exact number of positions the moves reach, where the group can tell it and the
/// searches count exactly that set: no `Block` and no guards (legal moves would then
/// depend on the position) and no goal that is a set (whose distances start from
/// several positions). `None` elsewhere, or when the count is only a bound.
pub(crate) fn exact_total(puzzle: &Puzzle) -> Option<u64> {
    if !puzzle.blocks.is_empty() || puzzle.has_guards() || puzzle.goal_is_set() {
        return None;
    }
    match crate::group::Group::new(puzzle).ok()?.reachable() {
        crate::group::Count::Exact(v) => v.to_u64(),
        crate::group::Count::UpperBound(_) => None,
    }
}

/// Refuses a finished table whose layers do not add up to `exact` (from [`exact_total`]
/// before the search): one wrong table must never be printed or saved as right.
pub(crate) fn verify_total(counts: &[u64], exact: Option<u64>) -> Result<(), GodError> {
    let counted = counts.iter().sum();
    match exact {
        Some(exact) if exact != counted => Err(GodError::Miscount { counted, exact }),
        _ => Ok(()),
    }
}

/// Keys that cannot hold a puzzle's positions make it too large for a breadth-first
/// table, in the words of [`GodError::TooLarge`].
impl From<crate::keys::KeyError> for GodError {
    fn from(e: crate::keys::KeyError) -> GodError {
        GodError::TooLarge(e.0)
    }
}

/// The moves as the searches see them: costs, inverse and quarter-turn columns.
struct MoveInfo {
    transforms: Vec<Transform>,
    costs: Vec<u32>,
    /// Per move: the transform column of its inverse.
    inverse: Vec<usize>,
    /// Per move: the cost-1 move of the same base whose repeats make it.
    quarter: Vec<usize>,
    /// Per transform column: the base move whose touched mask judges legality.
    base_of: Vec<usize>,
    directed: bool,
    /// Whether every move can be taken back by a move of the same cost, guards and all
    /// ([`reverse`]): the move graph is then undirected.
    reversible: bool,
    max_cost: u32,
}

impl MoveInfo {
    fn new(puzzle: &Puzzle, metric: Metric) -> MoveInfo {
        let nm = puzzle.moves.len();
        let directed = puzzle.base_moves.iter().any(|b| b.directed);
        let costs: Vec<u32> = (0..nm)
            .map(|i| {
                let m = &puzzle.moves[i];
                if m.effect.is_identity() {
                    0
                } else {
                    metric.cost(puzzle, MoveId(i as u16))
                }
            })
            .collect();
        let mut transforms: Vec<Transform> =
            puzzle.moves.iter().map(|m| m.effect.clone()).collect();
        let mut base_of: Vec<usize> = puzzle.moves.iter().map(|m| m.base).collect();
        let power_col = |m: usize, power: u32| -> usize {
            let mv = &puzzle.moves[m];
            let b = &puzzle.base_moves[mv.base];
            if power == 0 || power as usize > b.powers.len() {
                m
            } else {
                b.powers[power as usize - 1].index()
            }
        };
        let inverse: Vec<usize> = if directed {
            for m in &puzzle.moves {
                transforms.push(m.effect.inverse(&puzzle.sets));
                base_of.push(m.base);
            }
            (nm..2 * nm).collect()
        } else {
            (0..nm)
                .map(|m| {
                    let mv = &puzzle.moves[m];
                    let order = puzzle.base_moves[mv.base].order;
                    power_col(m, order.saturating_sub(mv.power))
                })
                .collect()
        };
        let quarter: Vec<usize> = (0..nm)
            .map(|m| {
                let mv = &puzzle.moves[m];
                let order = puzzle.base_moves[mv.base].order;
                if puzzle.base_moves[mv.base].directed || mv.power * 2 <= order {
                    power_col(m, 1)
                } else {
                    power_col(m, order - 1)
                }
            })
            .collect();
        let max_cost = costs.iter().copied().max().unwrap_or(0);
        let reversible = reverse::every_move_reversible(puzzle, &costs);
        MoveInfo {
            transforms,
            costs,
            inverse,
            quarter,
            base_of,
            directed,
            reversible,
            max_cost,
        }
    }

    /// Per cost class c (index c - 1): the (inverse column, forward move) pairs.
    fn classes(&self) -> Vec<Vec<(usize, usize)>> {
        let mut out = vec![Vec::new(); self.max_cost as usize];
        for (m, &c) in self.costs.iter().enumerate() {
            if c > 0 {
                out[c as usize - 1].push((self.inverse[m], m));
            }
        }
        out
    }
}

/// ksolve+'s index order of positions: sets by name (byte order), and within a set the
/// orientations, then the arrangement; both compared lexicographically.
fn ksolve_order(puzzle: &Puzzle, s: &State) -> Vec<u16> {
    let mut sets: Vec<usize> = (0..puzzle.sets.len()).collect();
    sets.sort_by(|&a, &b| puzzle.sets[a].name.cmp(&puzzle.sets[b].name));
    let mut key = Vec::new();
    for k in sets {
        key.extend(s.sets[k].ori.iter().map(|&o| o as u16));
        key.extend(&s.sets[k].perm);
    }
    key
}

/// The effective budget: the requested one, never more than the machine has.
fn check_memory(what: &str, need: u64, budget: u64) -> Result<(), GodError> {
    if let Some(machine) = memory::total_memory() {
        if need > machine {
            return Err(GodError::OverMachine {
                what: what.to_string(),
                need,
                machine,
            });
        }
    }
    if need > budget {
        return Err(GodError::OverBudget {
            what: what.to_string(),
            need,
            budget,
        });
    }
    Ok(())
}

/// Computes the God's-algorithm table of `puzzle`.
pub fn compute(
    puzzle: &Puzzle,
    opts: &GodOptions,
    progress: &dyn Progress,
    on_layer: &Layers,
) -> Result<GodTable, GodError> {
    let t0 = Instant::now();
    if let Some(c) = &opts.checkpoint {
        c.check_folder()?;
    }
    let expected = exact_total(puzzle);
    let info = MoveInfo::new(puzzle, opts.metric);
    let exact = info.directed || opts.keep_distances;
    let bits = if exact {
        8
    } else if info.max_cost <= 2 {
        2
    } else if info.max_cost <= 14 {
        4
    } else {
        8
    };
    let guarded = puzzle.has_guards() || puzzle.goal_is_set();
    let use_hash = match opts.method {
        Method::Hashed => true,
        Method::Indexed if !puzzle.blocks.is_empty() => {
            return Err(GodError::Unsupported(
                "the indexed search cannot follow Block (legal moves depend on the position); \
                 use the hashed search",
            ))
        }
        Method::Indexed => false,
        Method::Auto => !puzzle.blocks.is_empty() || guarded,
    };
    let budget = match memory::total_memory() {
        Some(m) => opts.memory.min(m),
        None => opts.memory,
    };
    // Guarded puzzles take the flat index when it fits (half the budget when chosen
    // automatically, leaving room for the frontiers), else the hash set.
    let flat = if guarded && opts.method != Method::Hashed {
        let share = if opts.method == Method::Indexed {
            budget
        } else {
            budget / 2
        };
        match guarded::Plan::new(puzzle, opts, &info, budget, share) {
            Ok(plan) => Some(plan),
            Err(why) if opts.method == Method::Indexed => return Err(GodError::TooLarge(why)),
            Err(_) => None,
        }
    } else {
        None
    };
    let mut table = if let Some(plan) = flat {
        guarded::table(puzzle, opts, &info, plan, budget, progress, on_layer)?
    } else if use_hash {
        hashed_table(puzzle, opts, &info, progress, on_layer)?
    } else {
        match Indexer::new(puzzle, &info.transforms, opts.tuning.merge_components) {
            Ok(ix) => {
                let need = indexed_need(&ix, bits, exact, opts.memory);
                match check_memory(
                    &format!("a table of {} positions", ix.space()),
                    need,
                    opts.memory,
                ) {
                    Ok(()) => {
                        indexed_table(puzzle, opts, &info, ix, bits, exact, progress, on_layer)?
                    }
                    Err(e) if opts.method == Method::Indexed => return Err(e),
                    Err(e) => {
                        progress.warn(&format!(
                            "{e}; searching only the reachable positions with a hash set instead"
                        ));
                        hashed_table(puzzle, opts, &info, progress, on_layer)?
                    }
                }
            }
            Err(e) if opts.method == Method::Indexed => {
                return Err(GodError::TooLarge(e.to_string()))
            }
            Err(e) => {
                progress.warn(&format!(
                    "{e}, too many for a table; searching only the reachable positions with \
                     a hash set instead"
                ));
                hashed_table(puzzle, opts, &info, progress, on_layer)?
            }
        }
    };
    verify_total(&table.counts, expected)?;
    table.seconds = t0.elapsed().as_secs_f64();
    Ok(table)
}

/// Budget share for move tables: they speed the search up but are optional.
/// Solves `state` (at distance `d`) with exact distances from `dist`: at each step the
/// first move in definition order, legal here, that reaches the lowest distance along
/// an optimal path.
pub(crate) fn solve_by_distances(
    puzzle: &Puzzle,
    costs: &[u32],
    state: &State,
    mut d: u32,
    mut dist: impl FnMut(&State) -> Option<u32>,
) -> Option<Vec<MoveId>> {
    let mut out = Vec::new();
    let mut cur = state.clone();
    let mut next = state.clone();
    while d > 0 {
        let mut best: Option<(MoveId, u32)> = None;
        for (i, &c) in costs.iter().enumerate() {
            let m = MoveId(i as u16);
            if c == 0 || c > d || best.is_some_and(|(_, e)| e <= d - c) {
                continue;
            }
            if !puzzle.block_allows(&cur, m) {
                continue;
            }
            cur.then_into(&puzzle.mv(m).effect, &puzzle.sets, &mut next);
            if dist(&next) == Some(d - c) {
                best = Some((m, d - c));
            }
        }
        let (m, e) = best?;
        cur.then_into(&puzzle.mv(m).effect, &puzzle.sets, &mut next);
        std::mem::swap(&mut cur, &mut next);
        out.push(m);
        d = e;
    }
    puzzle.is_solved(&cur, &[]).then_some(out)
}

#[cfg(test)]
mod tests;
