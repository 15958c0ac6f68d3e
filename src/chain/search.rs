//! Solving phase by phase ([`Fast`]).
//!
//! The first answer solves each phase optimally in turn. Then, as two-phase solvers do,
//! the first phase's solutions are tried in order of length (its optimal ones, then one
//! move longer, and so on), each followed by the rest of the chain with the last phase
//! bounded to beat the best answer so far; every shorter answer is handed over as it is
//! found. A first-phase solution that ends in a move of the next group is skipped: the
//! same solution without that move was tried before it. The effort ([`Effort`]) says
//! when to stop: a number of first-phase solutions tried, a length reached, or a time.
//!
//! Each phase is searched by the optimal search ([`crate::search::Solver`]) over its
//! own puzzle ([`super::Phase`]), so its tables are planned, cached and bounded like any
//! puzzle's, and every phase solution is optimal for its phase.

use super::{Chain, Phase, Subgroup};
use crate::alg::simplify;
use crate::group::{Group, Verdict};
use crate::progress::Silent;
use crate::puzzle::{MoveId, Puzzle, SolveSettings, State};
use crate::search::{SearchError, SolveOptions, Solver};
use crate::table::Tables;
use crate::words::WordTable;
use std::sync::Arc;
use std::time::Instant;

/// First-phase solutions enumerated per round before the count is raised.
const ROUND: usize = 64;

/// How long to keep improving an answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Effort {
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Stop once an answer this short (or shorter) is found.
    pub max_length: Option<u32>,
    /// Stop after trying this many first-phase solutions; `None`: until the deadline,
    /// or until no first-phase solution short enough to help is left.
    pub tries: Option<u64>,
    /// With a deadline and an optimal solver ([`Fast::with_optimal`]): after a quarter
    /// of the time improving along the chain, search optimally for a shorter answer
    /// until the deadline, which proves the last answer optimal when it ends in time.
    pub prove: bool,
    /// With `prove`: first-phase solutions to try before the chain's quarter of the
    /// time may end.
    pub min_tries: u64,
}

/// What solving one position found.
#[derive(Clone, Debug, Default)]
pub struct FastOutcome {
    /// The shortest answer found, in the puzzle's moves; `None` when a phase found no
    /// solution (the position is not in the group the moves generate).
    pub solution: Option<Vec<MoveId>>,
    /// First-phase solutions tried after the first answer.
    pub tried: u64,
    /// Search nodes over every phase (and the optimal search's, when it ran).
    pub nodes: u64,
    /// Search nodes per phase, first to last: where an answer's time went.
    pub phase_nodes: Vec<u64>,
    /// Whether every first-phase solution that could still help was tried: the answer
    /// is the shortest this chain can give.
    pub exhausted: bool,
    /// Why the position cannot be solved, when the group says it cannot.
    pub unreachable: Option<String>,
    /// Whether the optimal search ended in time: the answer is optimal.
    pub optimal: bool,
    /// The moves of the answer each phase takes, in order (where the phases join, moves
    /// of one base merge, so the answer may be shorter than their sum).
    pub phase_lengths: Vec<usize>,
}

/// A chain's phases, each with its solver and tables.
pub struct Fast<'c> {
    puzzle: &'c Puzzle,
    chain: &'c Chain,
    solvers: Vec<Solver<'c>>,
    /// The group the searched moves generate, which says whether a position can be
    /// solved at all before any phase is searched.
    group: Option<Group>,
    /// The optimal search over the whole puzzle, when answers are to be proved.
    optimal: Option<Solver<'c>>,
}

impl<'c> Fast<'c> {
    /// The solver for `chain` of `puzzle`, with the tables `tables` gives each phase
    /// (built on first use).
    pub fn new(
        puzzle: &'c Puzzle,
        chain: &'c Chain,
        mut tables: impl FnMut(&Phase) -> Tables,
    ) -> Fast<'c> {
        let solvers = chain
            .phases
            .iter()
            .map(|p| Solver::new(&p.puzzle, tables(p)))
            .collect();
        Fast {
            puzzle,
            chain,
            solvers,
            group: Subgroup::searched(puzzle).group(puzzle),
            optimal: None,
        }
    }

    /// Adds the optimal search over the whole puzzle (with `tables`), which
    /// [`Effort::prove`] uses.
    pub fn with_optimal(mut self, tables: Tables) -> Self {
        self.optimal = Some(Solver::new(self.puzzle, tables));
        self
    }

    /// Builds (or loads) every phase's tables now, while another thread lists the
    /// closed goals' positions, which the first goal test of a later phase would
    /// otherwise list (the 4x4x4's pairing phase: a million positions, a second or two).
    pub fn prepare(&mut self, progress: &dyn crate::progress::Progress) -> Result<(), SearchError> {
        for phase in &self.chain.phases {
            if let Some(goal) = &phase.goal {
                let (goal, puzzle) = (Arc::clone(goal), phase.puzzle.clone());
                std::thread::spawn(move || goal.list_closure(&puzzle));
            }
        }
        for (s, phase) in self.solvers.iter_mut().zip(&self.chain.phases) {
            s.prepare(crate::puzzle::Metric::Htm, phase.goal.as_deref(), progress)?;
        }
        Ok(())
    }

    /// The tables each phase's search would build under its budget (nothing is built).
    pub fn plans(&mut self) -> Result<Vec<crate::search::PlanView>, SearchError> {
        self.solvers
            .iter_mut()
            .zip(&self.chain.phases)
            .map(|(s, phase)| s.plan(phase.goal.is_some(), false))
            .collect()
    }

    /// Solves `start`, handing every shorter answer to `on_better` as it is found.
    pub fn solve(
        &mut self,
        start: &State,
        effort: &Effort,
        on_better: &mut (dyn FnMut(&[MoveId]) + Send),
    ) -> Result<FastOutcome, SearchError> {
        let puzzle = self.puzzle;
        let phases = &self.chain.phases;
        let mut out = FastOutcome {
            phase_nodes: vec![0; phases.len()],
            ..FastOutcome::default()
        };
        if let Some(Verdict::Unreachable(why)) = self.group.as_ref().map(|g| g.check(start)) {
            out.unreachable = Some(why.to_string());
            return Ok(out);
        }
        let words = self.chain.words.as_ref().map(|w| &w.table);
        let Some((first, lengths)) = continue_from(
            puzzle,
            phases,
            words,
            &mut self.solvers,
            start,
            0,
            None,
            None,
            &mut out.phase_nodes,
        )?
        else {
            out.nodes = out.phase_nodes.iter().sum();
            return Ok(out);
        };
        // Moves of one base meeting where phases join merge (`F F2` is `F'`).
        let first = simplify(puzzle, &first);
        on_better(&first);
        let mut best = first;
        out.phase_lengths = lengths;
        let short_enough = |len: usize| effort.max_length.is_some_and(|m| len as u32 <= m);
        // With a proof to make, the chain has the first quarter of the time.
        let began = Instant::now();
        let chain_until = match (effort.deadline, effort.prove && self.optimal.is_some()) {
            (Some(d), true) => Some(began + d.saturating_duration_since(began) / 4),
            (d, _) => d,
        };
        // The quarter ends once `min_tries` first-phase solutions were tried (so that a
        // time limit never gives a worse answer than the default effort); the deadline
        // itself ends the chain whenever it comes.
        let expired = |tried: u64| {
            let now = Instant::now();
            effort.deadline.is_some_and(|d| now >= d)
                || (tried >= effort.min_tries && chain_until.is_some_and(|d| now >= d))
        };
        if phases.len() + usize::from(words.is_some()) <= 1 {
            // A chain of one phase is the optimal search itself; words alone give one
            // answer, with nothing to try instead.
            out.exhausted = true;
            out.optimal = words.is_none();
            out.nodes = out.phase_nodes.iter().sum();
            out.solution = Some(best);
            return Ok(out);
        }
        let (head, rest) = self.solvers.split_at_mut(1);
        let phase0 = &phases[0];
        let position0 = phase0.position(start);
        // The first phase's optimal length, and per slack how many of its solutions of
        // that length were tried.
        let mut optimal0: Option<u32> = None;
        let mut slack = 0u32;
        let mut tried_at_slack = 0usize;
        let mut shorter = 0usize;
        let mut stop = short_enough(best.len()) || expired(0);
        while !stop {
            let bound = best.len() as u32 - 1;
            if optimal0.is_some_and(|o| o + slack > bound) {
                out.exhausted = true;
                break;
            }
            let cap = shorter + tried_at_slack + ROUND;
            let settings = SolveSettings {
                max_depth: bound,
                slack,
                goal: phase0.goal.clone(),
                ..SolveSettings::default()
            };
            // A try in progress ends at the deadline too: one later phase's search may
            // take seconds (the 4x4x4's pairing).
            let options = SolveOptions {
                count: Some(cap),
                threads: Some(1),
                deadline: effort.deadline,
                ..SolveOptions::default()
            };
            let mut seen = 0usize;
            let mut at_slack = 0usize;
            let mut error = None;
            let nodes = &mut out.phase_nodes;
            let tried = &mut out.tried;
            let best_ref = &mut best;
            let lengths_ref = &mut out.phase_lengths;
            let outcome = head[0].solve_each(
                &position0,
                &phase0.puzzle.ignore,
                &settings,
                options,
                &Silent,
                &mut |len, sol| {
                    seen += 1;
                    let o = *optimal0.get_or_insert(len);
                    if stop || error.is_some() || len < o + slack {
                        return;
                    }
                    at_slack += 1;
                    // Solutions of this length already tried in a smaller round.
                    if at_slack <= tried_at_slack {
                        return;
                    }
                    let moves: Vec<MoveId> = sol.iter().map(|&m| phase0.translate(m)).collect();
                    if moves.last().is_some_and(|&m| phase0.in_lower(m))
                        || moves.len() >= best_ref.len()
                    {
                        return;
                    }
                    *tried += 1;
                    let state = puzzle.apply_sequence(start, &moves);
                    let room = best_ref.len() - moves.len() - 1;
                    let deadline = effort.deadline;
                    match continue_from(
                        puzzle,
                        phases,
                        words,
                        rest,
                        &state,
                        1,
                        Some(room),
                        deadline,
                        nodes,
                    ) {
                        Ok(Some((tail, lengths))) => {
                            *lengths_ref = std::iter::once(moves.len()).chain(lengths).collect();
                            let mut whole = moves;
                            whole.extend(tail);
                            let whole = simplify(puzzle, &whole);
                            if whole.len() >= best_ref.len() {
                                return;
                            }
                            *best_ref = whole;
                            on_better(best_ref);
                        }
                        Ok(None) => {}
                        Err(e) => error = Some(e),
                    }
                    if short_enough(best_ref.len())
                        || expired(*tried)
                        || effort.tries.is_some_and(|t| *tried >= t)
                    {
                        stop = true;
                    }
                },
            )?;
            out.phase_nodes[0] += outcome.nodes;
            if let Some(e) = error {
                return Err(e);
            }
            // Time is up: what this round did not reach was not tried.
            if outcome.timed_out {
                break;
            }
            if seen >= cap {
                // The round was cut short by the count: the same slack again, further.
                tried_at_slack = at_slack;
            } else {
                shorter = seen;
                tried_at_slack = 0;
                slack += 1;
                if optimal0.is_none() {
                    // No first-phase solution shorter than the best answer at all.
                    out.exhausted = true;
                    break;
                }
            }
        }
        if effort.prove && !short_enough(best.len()) {
            if let (Some(solver), Some(deadline)) = (self.optimal.as_mut(), effort.deadline) {
                let (found, optimal) = prove(
                    solver,
                    puzzle,
                    start,
                    best.len() as u32,
                    deadline,
                    &mut out.nodes,
                )?;
                if let Some(shorter) = found {
                    on_better(&shorter);
                    best = shorter;
                    out.phase_lengths.clear();
                }
                out.optimal = optimal;
            }
        }
        out.nodes += out.phase_nodes.iter().sum::<u64>();
        out.solution = Some(best);
        Ok(out)
    }
}

/// Searches the whole puzzle optimally for an answer shorter than `best` moves until
/// `deadline`: the shortest answer when there is one (optimal, since the search goes
/// by length), and whether the search ended in time (so that the answer it leaves,
/// found or `best`, is optimal).
fn prove(
    solver: &mut Solver,
    puzzle: &Puzzle,
    start: &State,
    best: u32,
    deadline: Instant,
    nodes: &mut u64,
) -> Result<(Option<Vec<MoveId>>, bool), SearchError> {
    let settings = SolveSettings {
        max_depth: best.saturating_sub(1),
        ..SolveSettings::for_puzzle(puzzle)
    };
    let options = SolveOptions {
        count: Some(1),
        deadline: Some(deadline),
        ..SolveOptions::default()
    };
    let mut found: Option<Vec<MoveId>> = None;
    let outcome = solver.solve_each(start, &[], &settings, options, &Silent, &mut |_, s| {
        if found.is_none() {
            found = Some(s.to_vec());
        }
    })?;
    *nodes += outcome.nodes;
    // A solution found is the shortest: every shorter length was searched to the end
    // before it. Without one, only a search that was not cut short proves `best`.
    let optimal = found.is_some() || !outcome.timed_out;
    Ok((found, optimal))
}

/// An answer with the moves each phase took.
type Answer = (Vec<MoveId>, Vec<usize>);

/// Solves phases `from..` in turn from `state`, each optimally (`solvers[j]` searches
/// phase `from + j`), then what is left by `words`; with `room`, the whole must take at
/// most that many moves (only the last searched phase is bounded, the others take their
/// optimal solutions). `None` when a phase has no solution within its bound. Each
/// phase's length comes with the moves (the words' last). Each phase's search nodes are
/// added to `nodes[i]`. A search still running at `deadline` gives no answer.
#[allow(clippy::too_many_arguments)]
fn continue_from(
    puzzle: &Puzzle,
    phases: &[Phase],
    words: Option<&WordTable>,
    solvers: &mut [Solver],
    state: &State,
    from: usize,
    room: Option<usize>,
    deadline: Option<Instant>,
    nodes: &mut [u64],
) -> Result<Option<Answer>, SearchError> {
    let mut state = state.clone();
    let mut moves = Vec::new();
    let mut lengths = Vec::new();
    for (i, phase) in phases.iter().enumerate().skip(from) {
        let bound = match room {
            Some(r) if r < moves.len() => return Ok(None),
            Some(r) if i + 1 == phases.len() => (r - moves.len()) as u32,
            _ => SolveSettings::default().max_depth,
        };
        let solver = &mut solvers[i - from];
        let Some(sol) = solve_phase(solver, phase, &state, bound, deadline, &mut nodes[i])? else {
            return Ok(None);
        };
        state = puzzle.apply_sequence(&state, &sol);
        lengths.push(sol.len());
        moves.extend(sol);
    }
    if let Some(table) = words {
        let Some(sol) = table.solve(puzzle, &state) else {
            return Ok(None);
        };
        lengths.push(sol.len());
        moves.extend(sol);
    }
    if room.is_some_and(|r| moves.len() > r) {
        return Ok(None);
    }
    Ok(Some((moves, lengths)))
}

/// One phase's optimal solution from `state` within `bound` moves, in the puzzle's
/// moves; `None` when there is none, or when the search was still running at
/// `deadline`.
fn solve_phase(
    solver: &mut Solver,
    phase: &Phase,
    state: &State,
    bound: u32,
    deadline: Option<Instant>,
    nodes: &mut u64,
) -> Result<Option<Vec<MoveId>>, SearchError> {
    let position = phase.position(state);
    let settings = SolveSettings {
        max_depth: bound,
        goal: phase.goal.clone(),
        ..SolveSettings::default()
    };
    // Every core: a later phase's one search may be most of the answer's time (the
    // 4x4x4's pairing), where the first phase's many short searches keep a thread each.
    let options = SolveOptions {
        count: Some(1),
        threads: None,
        deadline,
        ..SolveOptions::default()
    };
    let mut found: Option<Vec<MoveId>> = None;
    let outcome = solver.solve_each(
        &position,
        &phase.puzzle.ignore,
        &settings,
        options,
        &Silent,
        &mut |_, s| {
            if found.is_none() {
                found = Some(s.to_vec());
            }
        },
    )?;
    *nodes += outcome.nodes;
    Ok(found.map(|s| s.iter().map(|&m| phase.translate(m)).collect()))
}
