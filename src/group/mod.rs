//! The group a puzzle's moves generate: its exact order, which positions are reachable
//! (and why not, in words), how many arrangements of the pieces exist and how many
//! classes they fall into, and uniformly random reachable positions.
//!
//! Every (set, position, orientation) triple is a point and every move a permutation of
//! the points (see `points.rs`); Schreier–Sims (`chain.rs`) builds a stabiliser chain of
//! the group the base moves generate. With distinct pieces a position is a group element
//! and membership is one sift through the chain. With interchangeable pieces a position
//! is a colouring of the points, reachable when some group element carries the solved
//! colouring onto it; a bounded backtrack search (`search.rs`) decides that, and the
//! stabiliser of the solved colouring gives the exact number of reachable positions.

mod abelian;
mod bigint;
mod chain;
pub mod goal;
mod invariants;
mod order;
pub(crate) mod points;
mod reason;
mod restricted;
mod search;

pub use bigint::BigUint;
pub use order::{move_order, transform_order};
pub use reason::{PieceCount, Reason};

use crate::puzzle::{IgnoreMask, Puzzle, SetDef, State, Target};
use crate::rng::Rng;
use chain::Chain;
use invariants::{shape_reason, Invariants};
use points::Layout;
use search::{OrbitTables, Outcome, Searcher};
use std::sync::OnceLock;

/// The node budget [`Group::reachable`] spends on the stabiliser of the solved state
/// when pieces are interchangeable.
pub const DEFAULT_COUNT_BUDGET: u64 = 2_000_000;

/// The node budget [`Group::check`] spends deciding a position with interchangeable
/// pieces.
pub const DEFAULT_CHECK_BUDGET: u64 = 300_000;

/// Why a puzzle's group cannot be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GroupError {
    #[error("the puzzle has {0} (set, position, orientation) points; at most 65535 are supported")]
    TooLarge(usize),
    #[error("the solved state does not fit the puzzle: {0}")]
    BadSolved(String),
    #[error("move {name} does not permute the positions of {set}")]
    BadMove { name: String, set: String },
}

/// A number of positions: exact, or only an upper bound (when counting the positions of
/// interchangeable pieces ran out of budget).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    Exact(BigUint),
    UpperBound(BigUint),
}

impl Count {
    /// The number (or the bound).
    pub fn value(&self) -> &BigUint {
        match self {
            Count::Exact(v) | Count::UpperBound(v) => v,
        }
    }

    /// Whether the number is exact.
    pub fn is_exact(&self) -> bool {
        matches!(self, Count::Exact(_))
    }
}

/// Whether a position can be reached from the solved state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Reachable,
    Unreachable(Reason),
    /// Not decided: the position ignores parts of the puzzle, or the search for an
    /// arrangement of interchangeable pieces ran out of budget. The text says which.
    Unknown(String),
}

/// All arrangements of the pieces, and how they split into classes no move connects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orbits {
    /// Every permutation (as a multiset where labels repeat) times every orientation
    /// vector, per set, multiplied together.
    pub arrangements: BigUint,
    /// The arrangements reachable from the solved state.
    pub reachable: Count,
    /// The number of classes: `arrangements / reachable` when pieces are distinct (the
    /// group then acts freely, so every class has the same size). `None` with
    /// interchangeable pieces, whose classes may differ in size, and with blocks, which
    /// split the group's classes further.
    pub classes: Option<BigUint>,
}

/// The group of a puzzle, with what it takes to answer questions about positions.
pub struct Group {
    sets: Vec<SetDef>,
    solved: State,
    layout: Layout,
    chain: Chain,
    invariants: Invariants,
    order: BigUint,
    /// Every label of every set occurs once in the solved state.
    distinct: bool,
    /// The puzzle has `Block`s: a move may be refused in some positions, so the
    /// positions reachable are only a subset of the group's orbit of the solved state.
    blocked: bool,
    solved_colors: Vec<u32>,
    tables: OnceLock<OrbitTables>,
    count: OnceLock<Count>,
}

impl std::fmt::Debug for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Group")
            .field("order", &self.order.to_string())
            .field("base_len", &self.chain.levels.len())
            .field("strong_gens", &self.chain.strong.len())
            .field("distinct", &self.distinct)
            .finish()
    }
}

impl Group {
    /// Builds the stabiliser chain of the group the puzzle's base moves generate
    /// (directed moves included: in a finite group, the moves generate their inverses).
    pub fn new(puzzle: &Puzzle) -> Result<Group, GroupError> {
        let sets = puzzle.sets.clone();
        if let Some(r) = shape_reason(&sets, &puzzle.solved) {
            return Err(GroupError::BadSolved(r.to_string()));
        }
        for (set, s) in sets.iter().zip(&puzzle.solved.sets) {
            if s.ori.iter().any(|&o| o >= set.orientations.max(1)) {
                return Err(GroupError::BadSolved(format!(
                    "an orientation of {} is out of range",
                    set.name
                )));
            }
        }
        let total: usize = sets
            .iter()
            .map(|s| s.size * s.orientations.max(1) as usize)
            .sum();
        let layout = Layout::new(&sets, &puzzle.solved).ok_or(GroupError::TooLarge(total))?;
        let mut moves = Vec::with_capacity(puzzle.base_moves.len());
        for m in &puzzle.base_moves {
            for (set, s) in sets.iter().zip(&m.effect.sets) {
                let mut seen = vec![false; set.size];
                let ok = s.perm.len() == set.size
                    && s.ori.len() == set.size
                    && s.perm.iter().all(|&p| {
                        (p as usize) < set.size && !std::mem::replace(&mut seen[p as usize], true)
                    });
                if !ok || m.effect.sets.len() != sets.len() {
                    return Err(GroupError::BadMove {
                        name: m.name.clone(),
                        set: set.name.clone(),
                    });
                }
            }
            // Twists are taken modulo the orientation count (a twist of a one-orientation
            // set means nothing), as the state arithmetic does.
            let mut eff = m.effect.clone();
            for (set, s) in sets.iter().zip(&mut eff.sets) {
                for o in &mut s.ori {
                    *o %= set.orientations.max(1);
                }
            }
            moves.push(eff);
        }
        let perms: Vec<_> = moves.iter().map(|m| layout.perm_of(m)).collect();
        let invariants = Invariants::new(&sets, &layout, &moves, &perms);
        let chain = Chain::build(layout.total, &perms, invariants.upper.as_ref());
        let order = chain.order();
        let distinct = puzzle.solved.sets.iter().all(|s| {
            let mut seen = std::collections::HashSet::new();
            s.perm.iter().all(|l| seen.insert(*l))
        });
        let mut solved_colors = vec![0u32; layout.total];
        layout.coloring(&puzzle.solved, &mut solved_colors);
        Ok(Group {
            sets,
            solved: puzzle.solved.clone(),
            layout,
            chain,
            invariants,
            order,
            distinct,
            blocked: !puzzle.blocks.is_empty(),
            solved_colors,
            tables: OnceLock::new(),
            count: OnceLock::new(),
        })
    }

    /// The stabiliser chain level by level: each base point with its orbit (the base
    /// point first). The words room spells a short word for every orbit point.
    pub(crate) fn levels(&self) -> Vec<(u16, Vec<u16>)> {
        self.chain
            .levels
            .iter()
            .map(|l| (l.base, l.orbit.clone()))
            .collect()
    }

    /// A group element `g` with `state` = the solved state followed by `g`: matched
    /// colour by colour with distinct pieces, found by the bounded search of `search.rs`
    /// with interchangeable ones. `None` when there is none or `budget` ran out.
    pub(crate) fn element_reaching(&self, state: &State, budget: u64) -> Option<Vec<u16>> {
        if shape_reason(&self.sets, state).is_some() {
            return None;
        }
        if self.distinct {
            return self.element_of(state);
        }
        match self.search_element(state, budget) {
            Outcome::Found(g) => Some(g),
            Outcome::NotFound | Outcome::OutOfBudget => None,
        }
    }

    /// The bounded search (`search.rs`) for an element that carries the solved
    /// colouring onto `state`'s.
    fn search_element(&self, state: &State, budget: u64) -> Outcome {
        let mut target = vec![0u32; self.layout.total];
        self.layout.coloring(state, &mut target);
        let mut s = Searcher::new(
            &self.chain,
            self.tables(),
            &self.solved_colors,
            self.layout.colors(),
            budget,
        );
        s.find(&target)
    }

    /// How the group numbers its points.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The colour every point shows in the solved state (see [`Layout::coloring`]).
    pub(crate) fn solved_colors(&self) -> &[u32] {
        &self.solved_colors
    }

    /// The exact order of the group the moves generate.
    pub fn order(&self) -> &BigUint {
        &self.order
    }

    /// Whether every piece is distinct (no label repeats in the solved state).
    pub fn distinct_pieces(&self) -> bool {
        self.distinct
    }

    /// Whether the group describes reachability exactly. It does not when the puzzle
    /// has blocks: a blocked move is refused in some positions, so some positions of
    /// the group's orbit may be out of reach; counts are then upper bounds, a position
    /// outside the orbit is still certainly unreachable, and one inside is undecided.
    pub fn exact(&self) -> bool {
        !self.blocked
    }

    /// The length of the stabiliser chain's base.
    pub fn base_len(&self) -> usize {
        self.chain.levels.len()
    }

    /// The number of positions reachable from the solved state: the group order over
    /// the order of the solved state's stabiliser. With distinct pieces the stabiliser
    /// is trivial; with interchangeable ones it is searched for within
    /// [`DEFAULT_COUNT_BUDGET`] nodes (the result is cached). With blocks it is the
    /// size of the group's orbit, labelled an upper bound.
    pub fn reachable(&self) -> Count {
        self.count
            .get_or_init(|| self.reachable_with_budget(DEFAULT_COUNT_BUDGET))
            .clone()
    }

    /// [`Group::reachable`] with an explicit node budget (not cached).
    pub fn reachable_with_budget(&self, budget: u64) -> Count {
        let count = self.orbit_size(budget);
        match count {
            Count::Exact(v) if self.blocked => Count::UpperBound(v),
            c => c,
        }
    }

    /// The number of pictures of the solved state the group reaches, where a picture
    /// does not look at the orientation of the positions `free` marks (per set): the
    /// group order over the order of the stabiliser of that coarser colouring of the
    /// points, searched within `budget` nodes. The chains of `solve --fast` check their
    /// phases with it.
    pub fn reachable_ignoring_twists(&self, free: &[IgnoreMask], budget: u64) -> Count {
        let mut colors = self.solved_colors.clone();
        for (k, mask) in free.iter().enumerate() {
            let n = self.sets[k].orientations.max(1) as usize;
            for (i, _) in mask.ori.iter().enumerate().filter(|(_, &f)| f) {
                let c = colors[self.layout.point(k, i, 0)];
                for q in 1..n {
                    colors[self.layout.point(k, i, q)] = c;
                }
            }
        }
        match self.colouring_orbit(&colors, budget) {
            Count::Exact(v) if self.blocked => Count::UpperBound(v),
            c => c,
        }
    }

    /// The size of the orbit of the solved state under the group.
    fn orbit_size(&self, budget: u64) -> Count {
        if self.distinct {
            return Count::Exact(self.order.clone());
        }
        self.colouring_orbit(&self.solved_colors, budget)
    }

    /// The size of the orbit of a colouring of the points: the group order over the order
    /// of the colouring's stabiliser, searched within `budget` nodes.
    fn colouring_orbit(&self, colors: &[u32], budget: u64) -> Count {
        let mut s = Searcher::new(
            &self.chain,
            self.tables(),
            colors,
            self.layout.colors(),
            budget,
        );
        let (stab, exact) = s.stabiliser_order();
        // The stabiliser's order divides the group's; with a partial stabiliser (a
        // subgroup) the quotient is still an integer and bounds the count from above.
        let q = self
            .order
            .div_rem(&stab)
            .map(|(q, _)| q)
            .unwrap_or_else(|| self.order.clone());
        if exact {
            Count::Exact(q)
        } else {
            Count::UpperBound(q)
        }
    }

    fn tables(&self) -> &OrbitTables {
        self.tables.get_or_init(|| OrbitTables::new(&self.chain))
    }

    /// Whether `state` can be reached from the solved state, and why not.
    pub fn check(&self, state: &State) -> Verdict {
        self.check_with_budget(state, DEFAULT_CHECK_BUDGET)
    }

    /// [`Group::check`] with an explicit node budget for interchangeable pieces.
    pub fn check_with_budget(&self, state: &State, budget: u64) -> Verdict {
        match self.orbit_check(state, budget) {
            Verdict::Reachable if self.blocked => Verdict::Unknown(
                "the position is in the group the moves generate, but the puzzle's blocks \
                 may forbid the moves that reach it"
                    .into(),
            ),
            v => v,
        }
    }

    /// Whether `state` is in the orbit of the solved state under the group.
    fn orbit_check(&self, state: &State, budget: u64) -> Verdict {
        if let Some(r) = shape_reason(&self.sets, state) {
            return Verdict::Unreachable(r);
        }
        if self.distinct {
            let member = self
                .element_of(state)
                .is_some_and(|mut g| self.chain.contains(&mut g));
            return if member {
                Verdict::Reachable
            } else {
                Verdict::Unreachable(self.explain(state))
            };
        }
        if let Some(r) = self
            .invariants
            .explain(&self.sets, &self.layout, &self.solved, state)
        {
            return Verdict::Unreachable(r);
        }
        match self.search_element(state, budget) {
            Outcome::Found(_) => Verdict::Reachable,
            Outcome::NotFound => Verdict::Unreachable(Reason::NotInGroup),
            Outcome::OutOfBudget => Verdict::Unknown(format!(
                "the search for an arrangement of the interchangeable pieces stopped after \
                 {budget} steps"
            )),
        }
    }

    /// [`Group::check`] for a scramble's target. When it ignores parts of the puzzle the
    /// stored values there are placeholders, so only what the given parts decide is
    /// judged: an orientation sum over positions whose orientations are all given (it
    /// does not depend on which pieces sit there). Anything else is unknown.
    pub fn check_target(&self, target: &Target) -> Verdict {
        if !target.has_ignores() {
            return self.check(&target.state);
        }
        if let Some(r) = shape_reason(&self.sets, &target.state) {
            return Verdict::Unreachable(r);
        }
        match self.invariants.orientation_sum_reason(
            &self.sets,
            &self.solved,
            &target.state,
            &target.ignore,
        ) {
            Some(r) => Verdict::Unreachable(r),
            None => Verdict::Unknown("the position leaves parts of the puzzle unspecified".into()),
        }
    }

    /// Whether `state` is reachable (an undecided search counts as not reachable).
    pub fn contains(&self, state: &State) -> bool {
        self.check(state) == Verdict::Reachable
    }

    /// The reason a state is not reachable: the first broken invariant, else the
    /// generic one.
    fn explain(&self, state: &State) -> Reason {
        self.invariants
            .explain(&self.sets, &self.layout, &self.solved, state)
            .unwrap_or(Reason::NotInGroup)
    }

    /// With distinct pieces: the point permutation `g` with `state = solved then g`,
    /// matched colour by colour. `None` when the state's pieces do not match the solved
    /// state's (a missing, repeated or unknown label, an orientation out of range).
    fn element_of(&self, state: &State) -> Option<Vec<u16>> {
        let lay = &self.layout;
        for (k, s) in state.sets.iter().enumerate() {
            if s.perm.iter().any(|&l| l as usize >= lay.label_bound[k])
                || s.ori.iter().any(|&o| o as usize >= lay.n[k])
            {
                return None;
            }
        }
        let mut colors = vec![0u32; lay.total];
        lay.coloring(state, &mut colors);
        let mut where_is = vec![u16::MAX; lay.colors()];
        for (y, &c) in colors.iter().enumerate() {
            if where_is[c as usize] != u16::MAX {
                return None;
            }
            where_is[c as usize] = y as u16;
        }
        let g: Vec<u16> = self
            .solved_colors
            .iter()
            .map(|&c| where_is[c as usize])
            .collect();
        if g.contains(&u16::MAX) {
            return None;
        }
        Some(g)
    }

    /// A uniformly random reachable position: the solved state followed by a uniformly
    /// random group element (a product of one random coset representative per level of
    /// the chain). With interchangeable pieces every reachable position is the image of
    /// equally many elements, so the position is uniform too.
    ///
    /// `None` when the puzzle has blocks: the group's orbit then holds positions the
    /// blocks make unreachable, so a draw from it could not be solved.
    pub fn random_state(&self, rng: &mut Rng) -> Option<State> {
        if self.blocked {
            return None;
        }
        let g = self.chain.random_element(rng);
        let t = self.layout.transform_of(&g);
        Some(self.solved.then(&t, &self.sets))
    }

    /// All arrangements of the pieces, the reachable ones, and the number of classes.
    pub fn orbits(&self) -> Orbits {
        let arrangements = arrangements(&self.sets, &self.solved);
        let reachable = self.reachable();
        let classes = if self.distinct && !self.blocked {
            arrangements.div_rem(&self.order).map(|(q, _)| q)
        } else {
            None
        };
        Orbits {
            arrangements,
            reachable,
            classes,
        }
    }
}

/// The number of arrangements: per set, the multinomial of its labels times the
/// orientation count to the power of its size.
fn arrangements(sets: &[SetDef], solved: &State) -> BigUint {
    let mut total = BigUint::one();
    for (set, s) in sets.iter().zip(&solved.sets) {
        let mut counts = std::collections::BTreeMap::new();
        for &l in &s.perm {
            *counts.entry(l).or_insert(0u64) += 1;
        }
        // size! / prod(count!), built as a product of binomials so it stays exact.
        let mut placed = 0u64;
        for (_, c) in counts {
            for i in 1..=c {
                placed += 1;
                total.mul_u64(placed);
                total = total.div_rem_u64(i).map(|(q, _)| q).unwrap_or_default();
            }
        }
        for _ in 0..set.size {
            total.mul_u64(set.orientations.max(1) as u64);
        }
    }
    total
}

#[cfg(test)]
mod geometry;
#[cfg(test)]
mod tests;
