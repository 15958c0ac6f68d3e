//! Tables the solver keeps: the components the search works in and their move tables
//! ([`comp`]), pruning tables ([`prune`]), the choice of pruning tables under a memory
//! budget ([`plan`]), the symmetry-reduced table ([`sym`]) and the additive families of
//! sliding puzzles ([`additive`]). They are stored in the cache folder of
//! [`crate::storage`], in its container format.
//!
//! [`Tables`] owns everything built for one puzzle: components are made once per
//! distinct [`CompSpec`] and shared by every scramble and table that uses them.

pub mod additive;
pub mod comp;
pub mod estimate;
pub mod plan;
pub mod prefetch;
pub mod prune;
pub mod rank;
pub mod relabel;
pub mod sym;
#[cfg(test)]
pub(crate) mod testing;

use crate::progress::{format_count, Progress};
use crate::puzzle::{union_masks, Goal, Metric, Puzzle};
use crate::storage::cache::{self, TableCache};
use crate::storage::file;
use comp::{CompError, CompSpec, Component};
use prune::{Entries, Format, PruneTable};
use std::collections::HashMap;
use std::sync::Mutex;

/// Move tables with fewer entries than this are rebuilt on every run: that is faster
/// than reading a file.
const CACHE_MOVE_TABLES_FROM: u64 = 1 << 16;

/// Bumped whenever the contents a given set of parameters produces change (a new
/// coordinate layout, a fixed table builder), so that files built by an older ksolve
/// are rebuilt rather than trusted. Part of every table's key. Version 3 ranks a set
/// whose positions fall into several orbits orbit by orbit (`coord::Arrangement`).
pub(crate) const CONTENTS_VERSION: u8 = 3;

/// Index of a component in a [`Tables`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CompId(pub usize);

/// A pruning table with the components it is indexed by.
pub struct Pruning {
    pub comps: Vec<CompId>,
    pub table: PruneTable,
    pub name: String,
}

/// Every component and pruning table built for one puzzle.
pub struct Tables {
    cache: TableCache,
    budget: u64,
    /// Bytes held by the components' move tables and relabellings.
    used: u64,
    comps: Vec<Component>,
    index: HashMap<CompSpec, CompId>,
    /// Per metric, goal ([`goal_fingerprint`], `None` for the definition's
    /// `Solved`) and budget (`None`: the solver's own; a smaller one for a trial search,
    /// see [`Tables::trial_budget`]).
    pruning: HashMap<PruneKey, Vec<Pruning>>,
    /// The symmetry-reduced table per metric, for the definition's goal (`None`: none
    /// is worth it); see [`sym`].
    sym: HashMap<Metric, Option<sym::cached::SymPruning>>,
    /// How the budget is shared with the reduced table, once planned.
    share: Option<sym::cached::Share>,
    /// Per metric, the additive family for the definition's goal (`None`: the puzzle
    /// admits none, or it does not fit), see [`additive`].
    additive: HashMap<Metric, Option<additive::Family>>,
    /// Plan the reduced table at two bits per entry even where four fit (for tests).
    two_bits: bool,
    /// The last goal asked about, with its fingerprint: a chain's phase asks for its
    /// tables with the same goal on every search, and comparing the goal costs less
    /// than hashing it again.
    last_goal: Mutex<Option<(Goal, u64)>>,
}

/// What a set of pruning tables is kept under: metric, goal, and the budget it was
/// planned in when that is not the solver's own.
type PruneKey = (Metric, Option<u64>, Option<u64>);

impl Tables {
    /// What identifies a goal among the pruning tables: a hash of its positions
    /// ([`goal_fingerprint`]), remembered for the last goal.
    pub fn goal_id(&self, goal: Option<&Goal>) -> Option<u64> {
        let goal = goal?;
        let mut last = self.last_goal.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((known, id)) = last.as_ref() {
            if known == goal {
                return Some(*id);
            }
        }
        let id = goal_fingerprint(goal);
        *last = Some((goal.clone(), id));
        Some(id)
    }
}

/// A hash of the goal's positions as a set (order and names aside, as
/// [`Goal::key_bytes`]): each position's key hashed on its own, then the sorted hashes.
fn goal_fingerprint(goal: &Goal) -> u64 {
    let mut each: Vec<u64> = Vec::with_capacity(goal.positions.len());
    goal.for_each_position_key(|b| each.push(file::content_hash(b)));
    each.sort_unstable();
    each.dedup();
    let mut words: Vec<u8> = each.iter().flat_map(|w| w.to_le_bytes()).collect();
    // The moves that close the goal make it another set of positions.
    words.extend(goal.within.iter().flat_map(|m| m.0.to_le_bytes()));
    file::content_hash(&words)
}

/// The cache name of a planned pruning table.
fn prune_name(planned: &plan::PlannedTable, metric: Metric) -> String {
    format!("pt-{}-{}", metric.name(), planned.name)
}

/// The payload prefix of a cached pruning table: format, depth and length.
const PRUNE_PREFIX: usize = 64;

/// The stored prefix of a pruning table's payload (format, largest depth, entries, a
/// two-bit table's fallback length at bytes 16..24, the fallback then following its
/// entries; [`PRUNE_PREFIX`] bytes), which [`PruneTable::stored_parts`] follow (written from where
/// they lie, see [`cache::TableCache::load_or_build_parts`]).
pub(crate) fn prune_prefix(t: &PruneTable) -> Vec<u8> {
    let mut payload = vec![0u8; PRUNE_PREFIX];
    payload[0] = match t.format {
        Format::Nibbles => 0,
        Format::Bytes => 1,
        Format::Crumbs => 2,
    };
    payload[1] = t.max_depth;
    payload[8..16].copy_from_slice(&t.len.to_le_bytes());
    if let Some(f) = t.fallback() {
        payload[16..24].copy_from_slice(&(f.len() as u64).to_le_bytes());
    }
    payload
}

/// A pruning table of value counts `sizes` from a stored payload ([`prune_prefix`],
/// then the entries, copied into huge pages when large); `None` when the prefix does
/// not describe such a table.
pub(crate) fn prune_from_payload(
    payload: cache::Payload,
    metric: Metric,
    sizes: Vec<u64>,
) -> Option<PruneTable> {
    let head = payload.all().get(..PRUNE_PREFIX)?;
    let format = match head[0] {
        0 => Format::Nibbles,
        1 => Format::Bytes,
        2 => Format::Crumbs,
        _ => return None,
    };
    let max_depth = head[1];
    let with_fallback = u64::from_le_bytes(head[16..24].try_into().ok()?) > 0;
    let private = payload.is_private();
    let entries = Entries::Mapped(file::entries_from(payload.skip(PRUNE_PREFIX), private));
    match (with_fallback, format) {
        (true, Format::Crumbs) => {
            PruneTable::from_entries_with_fallback(metric, sizes, max_depth, entries)
        }
        (true, _) => None,
        (false, _) => PruneTable::from_entries(metric, sizes, format, max_depth, entries),
    }
}

impl Tables {
    /// Plans any reduced table at two bits per entry from now on (for tests, through
    /// [`crate::search::Tuning::two_bit_tables`]); a table already planned stays.
    pub fn set_two_bits(&mut self, on: bool) {
        self.two_bits = on;
    }

    /// An empty set of tables, caching through `cache`, with `budget` bytes for
    /// pruning tables.
    pub fn new(cache: TableCache, budget: u64) -> Tables {
        Tables {
            cache,
            budget,
            used: 0,
            comps: Vec::new(),
            index: HashMap::new(),
            pruning: HashMap::new(),
            sym: HashMap::new(),
            share: None,
            additive: HashMap::new(),
            two_bits: false,
            last_goal: Mutex::new(None),
        }
    }

    /// The memory budget, in bytes.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The component with this id.
    pub fn comp(&self, id: CompId) -> &Component {
        &self.comps[id.0]
    }

    /// The component for `spec`, built (move table included) on first use.
    pub fn component(
        &mut self,
        puzzle: &Puzzle,
        spec: &CompSpec,
        progress: &dyn Progress,
    ) -> Result<CompId, CompError> {
        if let Some(&id) = self.index.get(spec) {
            return Ok(id);
        }
        let mut c = Component::new(puzzle, spec.clone())?;
        let nm = puzzle.moves.len();
        let entries = c.count as u64 * nm as u64;
        // Every move table counts against the budget, whoever asks for it; the planner
        // and the search check the whole before they start, so this only catches what
        // they did not foresee.
        let relabel = match &spec.kind {
            comp::CompKind::Perm { relabel } | comp::CompKind::Pieces { relabel, .. } => {
                relabel.len() as u64
            }
            comp::CompKind::Ori { .. } | comp::CompKind::Pos => 0,
        };
        let bytes = entries * 4 + relabel * 4;
        if self.used.saturating_add(bytes) > self.budget {
            return Err(CompError::OverBudget {
                what: format!(
                    "the move tables built so far with that of set {} ({})",
                    puzzle.sets[spec.set].name,
                    spec.tag()
                ),
                needed: self.used.saturating_add(bytes),
                budget: self.budget,
            });
        }
        self.used += bytes;
        if entries < CACHE_MOVE_TABLES_FROM {
            c.build_table(puzzle);
        } else {
            let (name, params) = Self::move_id(puzzle, spec);
            let want = entries as usize * 4;
            // Stored as little-endian words: on a little-endian machine that is the
            // table's own memory, written and read without a conversion or a copy of
            // the whole (the Megaminx's 17 goal move tables are 560 MB).
            let native = cfg!(target_endian = "little");
            let table = self.cache.load_or_build_parts(
                "ksolve-move",
                &name,
                &params,
                progress,
                |payload| {
                    (payload.len() == want).then(|| {
                        // A mapped file's payload is aligned to words; should it not
                        // be, it is read word by word.
                        match bytemuck::try_cast_slice::<u8, u32>(&payload) {
                            Ok(words) if native => words.to_vec(),
                            _ => payload
                                .chunks_exact(4)
                                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                                .collect::<Vec<u32>>(),
                        }
                    })
                },
                || {
                    let what = format!(
                        "move table: {}, {} entries",
                        plan::describe(puzzle, std::slice::from_ref(spec)),
                        format_count(entries)
                    );
                    progress.start(&what, None);
                    c.build_table(puzzle);
                    progress.finish();
                    let bytes = match native {
                        true => Vec::new(),
                        false => c.table.iter().flat_map(|v| v.to_le_bytes()).collect(),
                    };
                    (std::mem::take(&mut c.table), bytes)
                },
                |table| match native {
                    true => vec![bytemuck::cast_slice(table)],
                    false => Vec::new(),
                },
            );
            c.table = table;
        }
        let id = CompId(self.comps.len());
        self.comps.push(c);
        self.index.insert(spec.clone(), id);
        Ok(id)
    }

    /// The pruning tables for `metric` and `goal` (`None`: the definition's `Solved`),
    /// planned and built (or loaded) on first use.
    pub fn pruning(
        &mut self,
        puzzle: &Puzzle,
        metric: Metric,
        goal: Option<&Goal>,
        progress: &dyn Progress,
    ) -> Result<&[Pruning], CompError> {
        self.pruning_in(puzzle, metric, goal, None, progress)
    }

    /// The budget the tables for `goal` are planned in: the ordinary share when a
    /// reduced table was planned beside the definition's own ([`Tables::share`]); a
    /// goal's tables have it all.
    fn ordinary_budget(&self, goal: Option<&Goal>) -> u64 {
        match (&self.share, goal) {
            (Some(share), None) => share.ordinary,
            _ => self.budget,
        }
    }

    /// The tables planned for `goal` in `budget` (`None`: the solver's own, as
    /// [`Tables::pruning_in`] takes it): the planner's choice, with its extra table
    /// ([`plan::add_extra_table`]) in the solver's own budget where no reduced table is
    /// planned beside them. A trial's smaller budget goes without: the trial is there
    /// so that a position its tables answer quickly never waits for large builds.
    fn planned(
        &self,
        puzzle: &Puzzle,
        goal: Option<&Goal>,
        budget: Option<u64>,
    ) -> Result<Vec<plan::PlannedTable>, CompError> {
        let trial = budget.is_some();
        let budget = budget.unwrap_or_else(|| self.ordinary_budget(goal));
        let mut report = plan::plan_report_with(puzzle, budget, goal.is_none())?;
        if !trial && self.extra_allowed(goal) {
            plan::add_extra_table(puzzle, &mut report, budget);
        }
        Ok(report.chosen)
    }

    /// Whether the ordinary tables for `goal` may take the planner's extra table: not
    /// where a reduced table was planned beside the definition's own, since that
    /// share was weighed without it ([`plan::add_extra_table`]).
    pub fn extra_allowed(&self, goal: Option<&Goal>) -> bool {
        !(goal.is_none() && self.share.as_ref().is_some_and(|s| s.plan.is_some()))
    }

    /// [`Tables::pruning`] planned in `budget` instead of the solver's own (`None`), as
    /// a trial search uses ([`Tables::trial_budget`]).
    pub fn pruning_in(
        &mut self,
        puzzle: &Puzzle,
        metric: Metric,
        goal: Option<&Goal>,
        budget: Option<u64>,
        progress: &dyn Progress,
    ) -> Result<&[Pruning], CompError> {
        let key = (metric, self.goal_id(goal), budget);
        if !self.pruning.contains_key(&key) {
            let mut built = Vec::new();
            let planned_all = self.planned(puzzle, goal, budget)?;
            // A build of more than a gigabyte is announced with its size, a rough time
            // and a quicker --memory, before anything is built.
            let to_build: Vec<&plan::PlannedTable> = planned_all
                .iter()
                .filter(|t| {
                    let (name, params) = self.prune_id(t, metric, goal);
                    !self.cached(&name, &params)
                })
                .collect();
            let threads = rayon::current_num_threads();
            if let Some(line) = estimate::build_notice(puzzle, &to_build, self.budget, threads) {
                progress.note(&line);
            }
            let n = planned_all.len();
            for (i, planned) in planned_all.into_iter().enumerate() {
                let ids = planned
                    .comps
                    .iter()
                    .map(|s| self.component(puzzle, s, progress))
                    .collect::<Result<Vec<_>, _>>()?;
                let what = format!(
                    "pruning table {} of {n}: {}, {} entries",
                    i + 1,
                    plan::describe(puzzle, &planned.comps),
                    format_count(planned.len)
                );
                let table =
                    self.build_pruning(puzzle, &planned, &ids, metric, goal, &what, progress);
                built.push(Pruning {
                    comps: ids,
                    table,
                    name: planned.name,
                });
            }
            self.pruning.insert(key, built);
        }
        Ok(&self.pruning[&key])
    }

    /// The pruning tables already built for `metric` and `goal` in `budget` (as given to
    /// [`Tables::pruning_in`]; none before it).
    pub fn built_pruning(
        &self,
        metric: Metric,
        goal: Option<&Goal>,
        budget: Option<u64>,
    ) -> &[Pruning] {
        self.pruning
            .get(&(metric, self.goal_id(goal), budget))
            .map_or(&[], |v| v.as_slice())
    }

    /// The entries still to fill before the tables `budget` plans for `metric` and
    /// `goal` can be used: the pruning tables neither built in this run nor in the
    /// cache folder, and the move tables of their components not yet built (nor
    /// cached). What a trial search weighs against.
    pub fn unbuilt_entries(
        &self,
        puzzle: &Puzzle,
        metric: Metric,
        goal: Option<&Goal>,
        budget: Option<u64>,
    ) -> Result<u64, CompError> {
        if self
            .pruning
            .contains_key(&(metric, self.goal_id(goal), budget))
        {
            return Ok(0);
        }
        let planned = self.planned(puzzle, goal, budget)?;
        let nm = puzzle.moves.len() as u64;
        let mut entries = 0u64;
        let mut seen: Vec<&CompSpec> = Vec::new();
        for t in &planned {
            let (name, params) = self.prune_id(t, metric, goal);
            if !self.cached(&name, &params) {
                entries = entries.saturating_add(t.len);
            }
            for c in &t.comps {
                if self.index.contains_key(c) || seen.contains(&c) {
                    continue;
                }
                seen.push(c);
                let moves = comp::spec_count(puzzle, c)
                    .unwrap_or(u64::MAX)
                    .saturating_mul(nm);
                if moves < CACHE_MOVE_TABLES_FROM || !self.cached_move(puzzle, c) {
                    entries = entries.saturating_add(moves);
                }
            }
        }
        Ok(entries)
    }

    /// A budget for a trial search: the largest of a few smaller budgets whose tables
    /// leave at most a sixteenth of what the solver's own budget still has to build
    /// ([`Tables::unbuilt_entries`]), with the entries that still has to build; `None`
    /// when there is none (every smaller budget builds as much, or cannot hold the move
    /// tables the goal test needs) or the solver's budget has fewer than `from` entries
    /// to build.
    pub fn trial_budget(
        &self,
        puzzle: &Puzzle,
        metric: Metric,
        goal: Option<&Goal>,
        from: u64,
    ) -> Result<Option<(u64, u64)>, CompError> {
        let full = self.unbuilt_entries(puzzle, metric, goal, None)?;
        if full < from.max(1) {
            return Ok(None);
        }
        let own = self.ordinary_budget(goal);
        // The move tables the goal test reads are needed whatever the budget: only what
        // is left beside them is cut.
        let goal_bytes = plan::check_goal(puzzle, &puzzle.ignore, own)?;
        for shift in 2..=16 {
            let budget = goal_bytes + ((own - goal_bytes) >> shift);
            let Ok(small) = self.unbuilt_entries(puzzle, metric, goal, Some(budget)) else {
                break;
            };
            if small <= full / 16 {
                return Ok(Some((budget, full)));
            }
        }
        Ok(None)
    }

    /// The cache file name and parameters of a planned pruning table: the parameters
    /// hold everything its contents depend on.
    fn prune_id(
        &self,
        planned: &plan::PlannedTable,
        metric: Metric,
        goal: Option<&Goal>,
    ) -> (String, Vec<u8>) {
        let allow_bytes = planned.len <= self.budget / 8;
        let mut params = vec![CONTENTS_VERSION];
        params.extend_from_slice(b"prune");
        params.push(metric as u8);
        params.push(allow_bytes as u8);
        for c in &planned.comps {
            params.extend_from_slice(&c.key_bytes());
            params.push(b'|');
        }
        // A table built for a goal holds distances to that goal: its key (and so its
        // file) differs from the definition's and from every other goal's.
        let mut name = prune_name(planned, metric);
        if let Some(g) = goal {
            let key = g.key_bytes();
            params.extend_from_slice(&key);
            name.push_str(&format!("-goal{:08x}", file::content_hash(&key) as u32));
        }
        (name, params)
    }

    /// Whether the cache folder holds a file for this table (which is then loaded, or
    /// rebuilt with a warning if it proves damaged).
    fn cached(&self, name: &str, params: &[u8]) -> bool {
        self.cache
            .path(name, self.cache.key(params))
            .is_some_and(|p| p.is_file())
    }

    /// The cache name and parameters of a component's move table.
    fn move_id(puzzle: &Puzzle, spec: &CompSpec) -> (String, Vec<u8>) {
        let mut params = vec![CONTENTS_VERSION];
        params.extend_from_slice(b"move");
        params.extend_from_slice(&spec.key_bytes());
        let name = format!(
            "mt-{}-{}-{:08x}",
            puzzle.sets[spec.set].name,
            spec.tag(),
            file::content_hash(&spec.key_bytes()) as u32
        );
        (name, params)
    }

    /// Whether the cache folder holds the move table of `spec`.
    fn cached_move(&self, puzzle: &Puzzle, spec: &CompSpec) -> bool {
        let (name, params) = Self::move_id(puzzle, spec);
        self.cached(&name, &params)
    }

    #[allow(clippy::too_many_arguments)]
    fn build_pruning(
        &self,
        puzzle: &Puzzle,
        planned: &plan::PlannedTable,
        ids: &[CompId],
        metric: Metric,
        goal: Option<&Goal>,
        what: &str,
        progress: &dyn Progress,
    ) -> PruneTable {
        let comps: Vec<&Component> = ids.iter().map(|&id| self.comp(id)).collect();
        let sizes: Vec<u64> = comps.iter().map(|c| c.count as u64).collect();
        let allow_bytes = planned.len <= self.budget / 8;
        let (name, params) = self.prune_id(planned, metric, goal);
        self.cache.load_or_build_parts(
            "ksolve-prune",
            &name,
            &params,
            progress,
            |payload| prune_from_payload(payload, metric, sizes.clone()),
            || {
                // Every goal position is a source; each frees what the definition's
                // Ignore allows, as the solved state does, so that the table is
                // admissible for any scramble's `?` marks.
                let goals: Vec<Vec<Vec<u32>>> = match goal {
                    None => vec![comps
                        .iter()
                        .map(|c| c.goal_values(puzzle, puzzle.ignore.get(c.spec.set)))
                        .collect()],
                    Some(g) => g
                        .positions
                        .iter()
                        .map(|p| {
                            let mask = union_masks(puzzle, &p.target.ignore, &puzzle.ignore);
                            comps
                                .iter()
                                .map(|c| c.goal_values_at(&p.target.state, mask.get(c.spec.set)))
                                .collect()
                        })
                        .collect(),
                };
                let sources = prune::Sources {
                    goals: &goals,
                    within: goal.map_or(&[][..], |g| &g.within[..]),
                };
                let t =
                    PruneTable::build(puzzle, &comps, sources, metric, allow_bytes, what, progress);
                let prefix = prune_prefix(&t);
                (t, prefix)
            },
            |t| vec![t.raw()],
        )
    }
}

/// The additive families, kept beside the other tables (planned by [`plan`], built by
/// [`additive`]): the store has one home, so that neither of those reaches into the other.
impl Tables {
    /// The additive family for `metric`, planned within the budget left after the goal
    /// test's move tables and built (or loaded) on first use; `None` when the puzzle
    /// admits none or it does not fit. Only for the definition's own goal.
    pub fn additive(
        &mut self,
        puzzle: &Puzzle,
        metric: Metric,
        progress: &dyn Progress,
    ) -> Option<&additive::Family> {
        if !self.additive.contains_key(&metric) {
            let family = self.build_family(puzzle, metric, progress);
            self.additive.insert(metric, family);
        }
        self.additive.get(&metric).and_then(Option::as_ref)
    }

    /// Uses `family` for its metric instead of planning one (a family of another
    /// partition, or `None` for none), as long as these tables live.
    pub fn set_additive(&mut self, family: Option<additive::Family>, metric: Metric) {
        self.additive.insert(metric, family);
    }

    /// The additive family already built for `metric` (none before [`Self::additive`]).
    pub fn built_additive(&self, metric: Metric) -> Option<&additive::Family> {
        self.additive.get(&metric).and_then(Option::as_ref)
    }

    /// The family [`plan::plan_report`] chose, built.
    fn build_family(
        &self,
        puzzle: &Puzzle,
        metric: Metric,
        progress: &dyn Progress,
    ) -> Option<additive::Family> {
        let plan = plan::plan_report(puzzle, self.budget).ok()?.additive?;
        let n = plan.groups.len();
        let mut built = Vec::new();
        for (i, group) in plan.groups.iter().enumerate() {
            let relabel = additive::group_relabel(puzzle, &plan.shape, group);
            let mut params = vec![CONTENTS_VERSION];
            params.extend_from_slice(b"additive");
            params.push(metric as u8);
            params.extend_from_slice(&(plan.shape.set as u32).to_le_bytes());
            for &l in &relabel {
                params.extend_from_slice(&l.to_le_bytes());
            }
            let name = format!(
                "at-{}-{}.a{}of{}-{:08x}",
                metric.name(),
                puzzle.sets[plan.shape.set].name,
                i + 1,
                n,
                crate::storage::file::content_hash(&params) as u32
            );
            let len = plan.lens[i];
            let what = format!(
                "additive table {} of {n}: {} pieces of {} and piece {}, {} entries",
                i + 1,
                group.len(),
                puzzle.sets[plan.shape.set].name,
                plan.shape
                    .shared
                    .iter()
                    .map(|l| (l + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                crate::progress::format_count(len)
            );
            let table = self.cache.load_or_build_parts(
                "ksolve-prune",
                &name,
                &params,
                progress,
                |payload| prune_from_payload(payload, metric, vec![len]),
                || {
                    let t =
                        additive::build_group(puzzle, &plan.shape, group, metric, &what, progress);
                    let prefix = prune_prefix(&t);
                    (t, prefix)
                },
                |t| vec![t.raw()],
            );
            built.push(table);
        }
        Some(additive::Family::new(puzzle, plan, metric, built))
    }
}
