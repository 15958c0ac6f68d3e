//! What the search needs for guarded moves (`When`): a guard reads the whole position,
//! which the components may not tell, so each node also carries its position packed
//! into one `u128` key (the hash-set breadth-first search's packing), moves step the key
//! field by field and guards test label fields of it. Nothing is allocated per node.
//!
//! The ordinary pruning tables are built over abstractions that ignore guards (every
//! guard counts as met), which only lowers their bounds: admissible, but weak on a sliding
//! puzzle, where any two neighbouring cells may then swap. Where the definition allows it,
//! an additive family (`table/additive/`) sees the guards and its summed bound is added
//! here, read from the node's key. Otherwise, when the positions that can reach
//! the goal fit a share of the memory budget (Klotski: 53,954; the 8-puzzle: 181,440),
//! the hashed breadth-first search lists them once per metric with their exact
//! distances, and the search prunes any node whose distance exceeds the cost left (a
//! node not listed cannot reach the goal at all). The table is to the definition's goal:
//! a scramble that ignores more than the goal's free positions is searched without it.

use super::SearchError;
use crate::gods::{self, GodError, GodOptions, Method};
use crate::keys::{KeyHasher, Packer};
use crate::progress::Progress;
use crate::puzzle::{IgnoreMask, Metric, Puzzle, State, Transform};
use crate::table::additive::Family;
use crate::table::prune::INFINITE;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Exact distances to the goal by packed key.
pub(crate) type KeyMap = HashMap<u128, u16, BuildHasherDefault<KeyHasher>>;

/// The share of the memory budget the exact table may take, and its cap: about five
/// million positions, so that a puzzle too large for it (the 15-puzzle) finds out in
/// a second or two.
fn exact_budget(budget: u64) -> u64 {
    (budget / 4).min(256 << 20)
}

/// The packing of a guarded puzzle's positions and its exact tables, kept by the solver.
pub(crate) struct GuardTables {
    packer: Packer,
    exact: Vec<(Metric, Option<KeyMap>)>,
    /// Whether searches use the exact tables (tests turn them off).
    pub(crate) use_exact: bool,
}

impl GuardTables {
    /// The packing for `puzzle`, one column per move of [`Puzzle::moves`].
    pub(crate) fn new(puzzle: &Puzzle) -> Result<GuardTables, GodError> {
        let effects: Vec<Transform> = puzzle.moves.iter().map(|m| m.effect.clone()).collect();
        let bases: Vec<usize> = puzzle.moves.iter().map(|m| m.base).collect();
        Ok(GuardTables {
            packer: Packer::new(puzzle, &effects, &bases).map_err(GodError::from)?,
            exact: Vec::new(),
            use_exact: true,
        })
    }

    /// Builds the exact table for `metric` once, when it fits; says so when it does not.
    pub(crate) fn prepare(
        &mut self,
        puzzle: &Puzzle,
        metric: Metric,
        budget: u64,
        progress: &dyn Progress,
    ) {
        if self.exact.iter().any(|(m, _)| *m == metric) {
            return;
        }
        let opts = GodOptions {
            metric,
            antipodes: 0,
            memory: exact_budget(budget),
            keep_distances: true,
            method: Method::Hashed,
            ..GodOptions::default()
        };
        let table = gods::compute(puzzle, &opts, progress, &|_, _| {}).map(|t| {
            t.into_key_distances()
                .map(|v| v.into_iter().collect::<KeyMap>())
        });
        let map = match table {
            Ok(map) => map,
            Err(e) => {
                progress.warn(&format!(
                    "no exact distance table for the guarded moves ({e}); searching with the \
                     pruning tables alone"
                ));
                None
            }
        };
        self.exact.push((metric, map));
    }
}

/// The guards as one search uses them.
pub(crate) struct Guards<'a> {
    pub(crate) packer: &'a Packer,
    /// The start's packed key.
    pub(crate) start: u128,
    /// Exact distances, when the table exists and applies to this scramble.
    pub(crate) exact: Option<&'a KeyMap>,
    /// The additive family, when there is one and it applies to this scramble.
    pub(crate) additive: Option<&'a Family>,
}

impl<'a> Guards<'a> {
    /// The guards for solving `start` with these (goal-merged) ignores in `metric`.
    pub(crate) fn new(
        g: &'a GuardTables,
        puzzle: &Puzzle,
        start: &State,
        ignore: &[IgnoreMask],
        metric: Metric,
        additive: Option<&'a Family>,
    ) -> Result<Guards<'a>, SearchError> {
        if !g.packer.fits(start) {
            return Err(SearchError::Guarded(GodError::Unsupported(
                "the position holds a label the solved state does not",
            )));
        }
        let beyond_free = ignore.iter().enumerate().any(|(k, m)| {
            let free = |i: usize| puzzle.free.get(k).is_some_and(|f| f.get(i) == Some(&true));
            m.perm.iter().enumerate().any(|(i, &p)| p && !free(i))
                || m.ori
                    .iter()
                    .enumerate()
                    .any(|(i, &o)| o && !puzzle.ori_free(k, i))
        });
        let exact = if beyond_free || !g.use_exact {
            None
        } else {
            g.exact
                .iter()
                .find(|(m, _)| *m == metric)
                .and_then(|(_, t)| t.as_ref())
        };
        // The family's tables see the definition's Ignore: a scramble that ignores
        // more of their set could be solved sooner than they say.
        let additive = additive.filter(|f| {
            let set = f.plan.shape.set;
            let def = puzzle.ignore.get(set);
            ignore.get(set).is_none_or(|m| {
                m.perm
                    .iter()
                    .enumerate()
                    .all(|(i, &p)| !p || def.is_some_and(|d| d.perm.get(i) == Some(&true)))
            })
        });
        Ok(Guards {
            packer: &g.packer,
            start: g.packer.key(start),
            exact,
            additive,
        })
    }

    /// By how much the position with `key` passes `left`: 0 when it may reach the goal
    /// within `left` (`bound(key) <= left`), else a lower bound on `bound(key) - left`,
    /// at least 1 and exact below `enough`. The additive family's sums are cut short once
    /// the excess reaches `enough`: the search asks this for every child it tries, and
    /// needs only whether the child fits and the least excess of those that do not (the
    /// next bound; on the 15-puzzle the full sums pass by 2, a sum cut short often by 1).
    #[inline]
    pub(crate) fn over(&self, key: u128, left: u32, enough: u32) -> u32 {
        match (self.exact, self.additive) {
            (None, Some(f)) => f.over_key(self.packer, key, left, enough),
            _ => self.bound(key).saturating_sub(left),
        }
    }

    /// A lower bound on the cost from the position with `key` to the goal: its exact
    /// distance from the table, `u32::MAX` when the table does not list it (it cannot
    /// reach the goal), else the additive family's sum, 0 without either.
    #[inline]
    pub(crate) fn bound(&self, key: u128) -> u32 {
        if let Some(t) = self.exact {
            return t.get(&key).map_or(u32::MAX, |&d| d as u32);
        }
        match self.additive {
            None => 0,
            Some(f) => match f.bound_key(self.packer, key) {
                INFINITE => u32::MAX,
                h => h,
            },
        }
    }
}
