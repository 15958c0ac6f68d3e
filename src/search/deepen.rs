//! Iterative deepening: the search of each bound in turn, from the start position's
//! bound until solutions are found (then on through Slack) or MaxDepth is passed; each
//! solution replayed on the piece-level model before it is handed on, and the bound
//! checks re-chosen after each bound from what its sample saw ([`super::checks`]).

use super::canon::Canon;
use super::checks::Plan;
use super::limits::{UNSETTLED_DEPTHS, WARN_AFTER};
use super::worker::search_bound;
use super::{Ctx, Outcome, SearchError, SolveOptions, Status};
use crate::progress::Progress;
use crate::puzzle::{IgnoreMask, MoveId, Puzzle, SolveSettings, State};

/// What one scramble's deepening needs besides its search context.
pub(super) struct Run<'r> {
    pub puzzle: &'r Puzzle,
    pub canon: &'r Canon,
    pub start: &'r State,
    pub ignore: &'r [IgnoreMask],
    pub settings: &'r SolveSettings,
    pub options: SolveOptions,
    pub progress: &'r dyn Progress,
    /// Whether the move limits may make the position unreachable and could not be
    /// settled ([`super::limits`]): the deepening then stops
    /// [`UNSETTLED_DEPTHS`] past its first bound.
    pub bounded: bool,
    /// A trial without the stronger tables still to be built: before any solution, the
    /// deepening gives up ([`Deepened::Stronger`]) rather than start a bound projected
    /// to take more than this many nodes, the cost of building them.
    pub budget: Option<u64>,
}

/// How a deepening ended.
pub(super) enum Deepened {
    /// Solved, or every bound up to the limit searched.
    Done(Outcome),
    /// A trial stopped before a bound it projected to cost more than its budget, with
    /// no solution found: the caller builds the stronger tables and searches again. The
    /// nodes the trial generated are kept for the report.
    Stronger { nodes: u64, bound: u32 },
}

/// The growth of a bound's nodes over the last one, assumed while only one bound has
/// been searched: about the 3x3x3's branching factor, on the high side, so that a trial
/// gives up early rather than late.
const FIRST_GROWTH: u64 = 16;

impl Run<'_> {
    /// Searches bound after bound from `h0` with the checks of `plan`, filling
    /// `outcome` (nodes, status, length, the checks' report) and handing each solution
    /// to `on_solution` with its cost.
    pub fn deepen(
        &self,
        ctx: &Ctx,
        mut plan: Plan,
        h0: u32,
        mut outcome: Outcome,
        on_solution: &mut (dyn FnMut(u32, &[MoveId]) + Send),
    ) -> Result<Deepened, SearchError> {
        let (puzzle, settings, options, progress) =
            (self.puzzle, self.settings, self.options, self.progress);
        let cap = options.count.unwrap_or(usize::MAX);
        let threads = options
            .threads
            .unwrap_or_else(rayon::current_num_threads)
            .max(1);
        let mut total = 0usize;
        let mut bound = h0;
        let stop = if self.bounded {
            settings.max_depth.min(h0.saturating_add(UNSETTLED_DEPTHS))
        } else {
            settings.max_depth
        };
        // The nodes of the last two bounds, from which a trial projects the next one.
        let (mut prev, mut last): (Option<u64>, Option<u64>) = (None, None);
        let mut warned = false;
        let expired = || {
            options
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
        };
        while bound <= stop && total < cap {
            if expired() {
                outcome.timed_out = true;
                break;
            }
            if let (Some(budget), None, Some(l)) = (self.budget, outcome.length, last) {
                let growth = match prev {
                    Some(p) if p > 0 => (l / p).max(2),
                    _ => FIRST_GROWTH,
                };
                if l.saturating_mul(growth) > budget {
                    return Ok(Deepened::Stronger {
                        nodes: outcome.nodes,
                        bound,
                    });
                }
            }
            // Bounds may be skipped, so the warning comes at the first bound past it.
            if self.bounded && outcome.length.is_none() && !warned && bound >= h0 + WARN_AFTER {
                warned = true;
                progress.warn(&format!(
                    "the move limits may make this position unreachable, and it is too large \
                     to settle that; the search stops at depth {stop}"
                ));
            }
            progress.searching(bound);
            let want = cap - total;
            let mut seq = Vec::new();
            let mut found = total as u64;
            let mut sink = |p: &[u16]| -> Result<(), SearchError> {
                seq.clear();
                seq.extend(p.iter().map(|&m| MoveId(m)));
                replay(
                    puzzle,
                    self.canon,
                    self.start,
                    self.ignore,
                    settings,
                    bound,
                    &seq,
                )?;
                on_solution(bound, &seq);
                found += 1;
                progress.solutions(found);
                Ok(())
            };
            let (emitted, nodes, samples, over) = search_bound(
                ctx,
                &plan,
                bound,
                want,
                threads,
                options.buffering,
                &mut sink,
            )?;
            progress.finish();
            outcome.checks = plan.report();
            plan.adapt(&samples);
            outcome.nodes += nodes;
            (prev, last) = (last, Some(nodes));
            // A bound cut short by the deadline says nothing of the lengths it did not
            // finish: the outcome says so, whatever it found.
            if expired() {
                outcome.timed_out = true;
                if emitted > 0 && outcome.length.is_none() {
                    outcome.length = Some(bound);
                    outcome.status = Status::Solved;
                }
                break;
            }
            total += emitted;
            if emitted > 0 && outcome.length.is_none() {
                outcome.length = Some(bound);
                outcome.status = Status::Solved;
            }
            // The bound was searched to the end (a deadline that stopped it broke the
            // loop above, and a cap it reached ends the loop here) and refused children
            // that cost at least `over` more than it allowed, so no sequence costs
            // between the two: the bounds in between would search the same nodes again
            // and find nothing. On the 15-puzzle every sequence to the goal has the
            // parity of the start's bound, so every other bound is skipped.
            let next = bound.saturating_add(over.max(1));
            if outcome
                .length
                .is_some_and(|l| next > l.saturating_add(settings.slack))
            {
                break;
            }
            bound = next;
        }
        if self.bounded && outcome.length.is_none() && stop < settings.max_depth {
            outcome.status = Status::LimitsBound(stop);
        }
        Ok(Deepened::Done(outcome))
    }
}

/// Replays a solution on the piece-level model: the sequence canonical, block-legal, within the limits, total cost `bound`, and the end solved.
pub(super) fn replay(
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
        cost += puzzle.move_cost(settings.metric, m);
        state = state.then(&puzzle.mv(m).effect, &puzzle.sets);
    }
    for l in &settings.limits {
        if seq.iter().filter(|&&m| l.matches(puzzle, m)).count() as u32 > l.max {
            return Err(fail());
        }
    }
    let solved = match settings.goal.as_deref() {
        None => puzzle.is_solved(&state, ignore),
        Some(goal) => goal.reached_by(puzzle, &state, ignore).is_some(),
    };
    if cost != bound || state != puzzle.apply_sequence(start, seq) || !solved {
        return Err(fail());
    }
    Ok(())
}
