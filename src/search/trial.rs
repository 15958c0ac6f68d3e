//! Trials: tables that take long to build wait for a search without them, which gives
//! up before a bound projected to cost more nodes than building them, so a position near
//! solved is answered in seconds instead of after the builds. First the ordinary tables
//! (a trial in tables planned in a smaller budget, [`Tables::trial_budget`]), then the
//! reduced table (a trial in the ordinary tables, [`Tables::sym_deferrable`]). What a
//! trial would cost is said once per solver, not once per scramble.

use super::{SearchError, SolveOptions, Solver};
use crate::progress::{format_count, Progress};
use crate::puzzle::{Goal, Metric, Puzzle, SolveSettings};
use crate::symmetry::SymmetryGroup;
use crate::table::comp::CompError;
use crate::table::estimate::{ENTRIES_PER_TRIAL_NODE, TRIAL_FROM};
use crate::table::sym::cached::{DEFER_FROM, ENTRIES_PER_NODE};
use crate::table::Tables;

/// Which trials a solver has announced, and whether it makes any.
#[derive(Default)]
pub(super) struct Trials {
    ordinary_said: bool,
    reduced_said: bool,
    /// Set while [`Solver::build_tables`] runs: every table is built, none waits.
    off: bool,
}

impl Trials {
    /// The smaller budget the first pass plans its tables in and its node budget, when
    /// the ordinary tables have much to build. `nodes` (from [`super::Tuning`]) forces a
    /// trial of that many nodes wherever a smaller budget exists.
    pub(super) fn ordinary(
        &mut self,
        tables: &Tables,
        puzzle: &Puzzle,
        metric: Metric,
        goal: Option<&Goal>,
        nodes: Option<u64>,
        progress: &dyn Progress,
    ) -> Result<Option<(u64, u64)>, CompError> {
        if self.off {
            return Ok(None);
        }
        let from = nodes.map_or(TRIAL_FROM, |_| 1);
        let Some((small, entries)) = tables.trial_budget(puzzle, metric, goal, from)? else {
            return Ok(None);
        };
        let text = format!(
            "searching first with small tables; the planned ones ({} entries to build) are \
             built once the search shows it would take longer than building them",
            format_count(entries)
        );
        announce(&mut self.ordinary_said, &text, progress);
        Ok(Some((
            small,
            nodes.unwrap_or(entries / ENTRIES_PER_TRIAL_NODE),
        )))
    }

    /// The node budget of a pass without the reduced table, when a large one waits.
    /// `nodes` forces a trial of that many nodes whenever the table is not built.
    pub(super) fn reduced(
        &mut self,
        tables: &mut Tables,
        puzzle: &Puzzle,
        metric: Metric,
        group: &SymmetryGroup,
        nodes: Option<u64>,
        progress: &dyn Progress,
    ) -> Result<Option<u64>, CompError> {
        if self.off {
            return Ok(None);
        }
        let from = nodes.map_or(DEFER_FROM, |_| 0);
        let Some(entries) = tables.sym_deferrable(puzzle, metric, group, from)? else {
            return Ok(None);
        };
        let text = format!(
            "searching first without the symmetry-reduced table ({} entries); it is built \
             once the search shows it would take longer than building it",
            format_count(entries)
        );
        announce(&mut self.reduced_said, &text, progress);
        Ok(Some(nodes.unwrap_or(entries / ENTRIES_PER_NODE)))
    }
}

impl Solver<'_> {
    /// Builds (or loads) every table a search in `metric` to the definition's goal would
    /// end up with, none waiting for a trial: what `ksolve tables build` does ahead of
    /// time, so that later searches find them cached. The tables are the ones the search
    /// itself chooses (it is asked to solve the solved position with trials off), so what
    /// is built ahead is exactly what a search uses.
    pub fn build_tables(
        &mut self,
        metric: Metric,
        no_symmetry: bool,
        progress: &dyn Progress,
    ) -> Result<(), SearchError> {
        let settings = SolveSettings {
            metric,
            ..SolveSettings::default()
        };
        let options = SolveOptions {
            no_symmetry,
            count: Some(1),
            ..SolveOptions::default()
        };
        self.trials.off = true;
        let solved = self.puzzle.solved.clone();
        let r = self.solve_each(&solved, &[], &settings, options, progress, &mut |_, _| {});
        self.trials.off = false;
        r.map(|_| ())
    }
}

/// Says `text` the first time only.
fn announce(said: &mut bool, text: &str, progress: &dyn Progress) {
    if !std::mem::replace(said, true) {
        progress.note(text);
    }
}
