//! Moves that depend on the position: guards, and the rules that say which positions
//! are well formed.
//!
//! A sliding-block puzzle is a board of cells (positions of one set) holding labelled
//! pieces, one label meaning "empty". A block may slide only into empty cells, so its
//! move carries a [`Guard`]: conditions "position `p` holds one of these labels" that
//! must all hold in the position the move is made from. A guarded move is used only as
//! written (no powers, no inverse) and is never taken to commute with another move.
//!
//! A goal may also be a set of positions (`?` in the definition's `Solved`): Klotski is
//! solved when the big block is at the bottom middle, wherever the rest lies. Breadth-first
//! searches then start from every goal position at once, and to list those they need to
//! know which fillings of the free cells are placements at all (a vertical bar's top half
//! has its bottom half below it). [`Rule`]s say so: "if `p` holds one of these labels,
//! then `q` holds one of those", or "`p` never holds these labels".

use super::{Puzzle, State};

/// One condition: position `pos` of set `set` holds one of `labels` (0-based, sorted).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cond {
    pub set: usize,
    pub pos: usize,
    pub labels: Vec<u16>,
}

impl Cond {
    /// Whether `state` meets the condition.
    #[inline]
    pub fn holds(&self, state: &State) -> bool {
        self.labels
            .binary_search(&state.sets[self.set].perm[self.pos])
            .is_ok()
    }
}

/// The conditions a guarded move needs, all of them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Guard {
    pub conds: Vec<Cond>,
}

impl Guard {
    /// Whether every condition holds in `state`.
    pub fn holds(&self, state: &State) -> bool {
        self.conds.iter().all(|c| c.holds(state))
    }
}

/// A well-formedness rule over one set: when `when` holds, `then` must hold too; with no
/// `then`, `when` may never hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    pub when: Cond,
    pub then: Option<Cond>,
}

impl Rule {
    /// Whether `state` keeps the rule.
    pub fn holds(&self, state: &State) -> bool {
        !self.when.holds(state) || self.then.as_ref().is_some_and(|t| t.holds(state))
    }
}

impl Puzzle {
    /// Whether any move carries a guard.
    pub fn has_guards(&self) -> bool {
        self.guards.iter().any(Option::is_some)
    }

    /// The guard of move `m`'s base move, if it has one.
    pub fn guard_of(&self, m: super::MoveId) -> Option<&Guard> {
        self.guards.get(self.mv(m).base).and_then(Option::as_ref)
    }

    /// Whether move `m` may be made from `state`: its guard, if any, holds there.
    pub fn guard_allows(&self, state: &State, m: super::MoveId) -> bool {
        self.guard_of(m).is_none_or(|g| g.holds(state))
    }

    /// Whether the goal is a set of positions (`?` in the definition's `Solved`, or an
    /// orientation known modulo a divisor).
    pub fn goal_is_set(&self) -> bool {
        self.has_free() || self.has_known_mod()
    }

    /// Whether `Solved` leaves some position free (`?N`).
    pub fn has_free(&self) -> bool {
        self.free.iter().flatten().any(|&f| f)
    }

    /// Whether `state` keeps every [`Rule`] of the definition.
    pub fn well_formed(&self, state: &State) -> bool {
        self.rules.iter().all(|r| r.holds(state))
    }

    /// Every goal position: the solved state with its free positions (`?` in `Solved`)
    /// refilled with the labels they hold between them in every way that keeps the
    /// rules, in lexicographic order of the free positions' labels, each with every
    /// orientation the goal's moduli allow ([`Puzzle::known_mod`]). `limit` bounds the
    /// count; `None` when there are more.
    ///
    /// The fillings are built position by position and a rule is checked as soon as
    /// both its positions are filled, so a board with shaped pieces is never enumerated
    /// as all the arrangements of its labels.
    pub fn goal_positions(&self, limit: usize) -> Option<Vec<State>> {
        let mut out = Vec::new();
        if !self.goal_is_set() {
            out.push(self.solved.clone());
            return Some(out);
        }
        if !self.has_free() {
            return self
                .modulo_variants(&self.solved, &mut out, limit)
                .then_some(out);
        }
        let free: Vec<(usize, usize)> = self
            .free
            .iter()
            .enumerate()
            .flat_map(|(s, f)| {
                f.iter()
                    .enumerate()
                    .filter(|(_, &x)| x)
                    .map(move |(p, _)| (s, p))
            })
            .collect();
        // Per set, the labels the free positions share out, with their counts.
        let mut pool: Vec<std::collections::BTreeMap<u16, usize>> =
            vec![Default::default(); self.sets.len()];
        for &(s, p) in &free {
            *pool[s].entry(self.solved.sets[s].perm[p]).or_default() += 1;
        }
        // `filled[s][p]`: whether a position has its final label (fixed ones always).
        let mut filled: Vec<Vec<bool>> = self
            .free
            .iter()
            .map(|f| f.iter().map(|&x| !x).collect())
            .collect();
        let mut state = self.solved.clone();
        let ok = self.fill(
            &free,
            0,
            &mut pool,
            &mut filled,
            &mut state,
            &mut out,
            limit,
        );
        ok.then_some(out)
    }

    /// Whether every rule whose positions are all filled holds.
    fn rules_hold_filled(&self, state: &State, filled: &[Vec<bool>]) -> bool {
        self.rules.iter().all(|r| {
            let known = |c: &Cond| filled[c.set][c.pos];
            if !known(&r.when) {
                return true;
            }
            match &r.then {
                Some(t) if !known(t) => true,
                _ => r.holds(state),
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn fill(
        &self,
        free: &[(usize, usize)],
        i: usize,
        pool: &mut [std::collections::BTreeMap<u16, usize>],
        filled: &mut [Vec<bool>],
        state: &mut State,
        out: &mut Vec<State>,
        limit: usize,
    ) -> bool {
        if i == free.len() {
            return self.modulo_variants(state, out, limit);
        }
        let (s, p) = free[i];
        let labels: Vec<u16> = pool[s]
            .iter()
            .filter(|(_, &c)| c > 0)
            .map(|(&l, _)| l)
            .collect();
        for l in labels {
            state.sets[s].perm[p] = l;
            filled[s][p] = true;
            *pool[s].get_mut(&l).expect("label in pool") -= 1;
            let go = self.rules_hold_filled(state, filled);
            let ok = !go || self.fill(free, i + 1, pool, filled, state, out, limit);
            *pool[s].get_mut(&l).expect("label in pool") += 1;
            filled[s][p] = false;
            if !ok {
                return false;
            }
        }
        true
    }
}
