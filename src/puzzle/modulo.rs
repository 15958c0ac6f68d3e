//! Orientations the goal knows only modulo a divisor: a KPuzzle `orientationMod` that
//! differs within an orbit, or `?` and `O%M` in a `Solved` orientation row.
//!
//! [`Puzzle::known_mod`] holds, per set and position, the modulus `m` the goal knows
//! the orientation there by. A position then counts as solved when its orientation
//! there agrees with `solved`'s modulo `m`, so the goal is a set of positions: one per
//! choice of the `n / m` orientations at every such position, where `m = 1` leaves the
//! orientation free altogether. (A modulus shared by a whole orbit is read differently:
//! the set gets `m` orientations, which is exact and cheaper, so it never reaches here.)
//!
//! Everything that judges "solved" asks this file: [`Puzzle::is_solved`] compares
//! modulo, [`Puzzle::goal_positions`] lists every member of the set (the breadth-first
//! searches start from all of them), and [`Puzzle::modulo_goal`] is the goal a search
//! uses ([`crate::puzzle::SolveSettings::for_puzzle`] puts it in force), whose pruning
//! tables are then built from every member.

use super::{Goal, Puzzle, SetDef, State};

/// The most goal positions the moduli of one definition may make: every one is a
/// source of the pruning tables and of a breadth-first search.
pub const MAX_MODULO_GOALS: u64 = 4096;

/// How many goal positions the moduli `mods` (per set and position; the set's count
/// where a twist is known exactly) make of one filling of the goal: a free twist (1)
/// makes none, since the goal leaves it unread. `None` past `u64`.
pub fn modulo_count(sets: &[SetDef], mods: &[Vec<u8>]) -> Option<u64> {
    sets.iter().zip(mods).try_fold(1u64, |c, (set, row)| {
        row.iter()
            .filter(|&&m| m > 1 && m < set.orientations)
            .try_fold(c, |c, &m| c.checked_mul((set.orientations / m) as u64))
    })
}

impl Puzzle {
    /// The modulus the goal knows the orientation at position `i` of set `k` by: the
    /// set's orientation count where it is known exactly.
    #[inline]
    pub fn ori_modulus(&self, k: usize, i: usize) -> u8 {
        let n = self.sets[k].orientations.max(1);
        self.known_mod
            .get(k)
            .and_then(|m| m.get(i))
            .map_or(n, |&m| m.clamp(1, n))
    }

    /// Whether the goal leaves the orientation at position `i` of set `k` free (known
    /// modulo 1) in a set whose pieces have several.
    #[inline]
    pub fn ori_free(&self, k: usize, i: usize) -> bool {
        self.sets[k].orientations > 1 && self.ori_modulus(k, i) == 1
    }

    /// Whether the goal knows some orientation only modulo a divisor.
    pub fn has_known_mod(&self) -> bool {
        self.modulo_places(true).next().is_some()
    }

    /// How many positions the moduli make of each filling of the goal (1 without
    /// moduli); `None` past `u64`.
    pub fn modulo_count(&self) -> Option<u64> {
        modulo_count(&self.sets, &self.known_mod)
    }

    /// The positions whose twist the goal knows only modulo a divisor (free ones, known
    /// modulo 1, only with `free`): set, position, modulus.
    fn modulo_places(&self, free: bool) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
        (0..self.sets.len()).flat_map(move |k| {
            (0..self.sets[k].size).filter_map(move |i| {
                let m = self.ori_modulus(k, i);
                ((m > 1 || free) && m < self.sets[k].orientations).then_some((k, i, m))
            })
        })
    }

    /// Whether the orientations of `state` agree with `goal`'s at position `i` of set
    /// `k`, modulo what the goal knows there.
    #[inline]
    pub fn ori_agrees(&self, k: usize, i: usize, have: u8, want: u8) -> bool {
        let m = self.ori_modulus(k, i);
        have % m == want % m
    }

    /// Every variant of `state` the moduli allow, appended to `out`: each position known
    /// modulo `m` takes, in turn, each orientation agreeing with its own modulo `m`
    /// (a free one, `m = 1`, takes every orientation). False when that would make `out`
    /// longer than `limit`.
    pub(crate) fn modulo_variants(
        &self,
        state: &State,
        out: &mut Vec<State>,
        limit: usize,
    ) -> bool {
        let places: Vec<(usize, usize, u8)> = self.modulo_places(true).collect();
        let mut s = state.clone();
        self.vary(&places, 0, &mut s, out, limit)
    }

    fn vary(
        &self,
        places: &[(usize, usize, u8)],
        at: usize,
        s: &mut State,
        out: &mut Vec<State>,
        limit: usize,
    ) -> bool {
        let Some(&(k, i, m)) = places.get(at) else {
            if out.len() >= limit {
                return false;
            }
            out.push(s.clone());
            return true;
        };
        let first = s.sets[k].ori[i] % m;
        for o in (first..self.sets[k].orientations).step_by(m as usize) {
            s.sets[k].ori[i] = o;
            if !self.vary(places, at + 1, s, out, limit) {
                return false;
            }
        }
        s.sets[k].ori[i] = first;
        true
    }

    /// The definition's goal as a [`Goal`] when it knows some orientation only modulo
    /// a divisor, for searches to use instead of `solved` alone; `None` otherwise. A
    /// free orientation (`m = 1`) is a free entry of each position, a proper divisor
    /// one position per orientation allowed.
    pub fn modulo_goal(&self, name: &str) -> Option<Goal> {
        if !self.has_known_mod() {
            return None;
        }
        let mut goal = Goal::plain(self, name);
        for (k, i, m) in self.modulo_places(false).collect::<Vec<_>>() {
            let n = self.sets[k].orientations;
            goal.positions = goal
                .positions
                .into_iter()
                .flat_map(|p| {
                    let first = p.target.state.sets[k].ori[i] % m;
                    (first..n).step_by(m as usize).map(move |o| {
                        let mut q = p.clone();
                        q.target.state.sets[k].ori[i] = o;
                        q
                    })
                })
                .collect();
        }
        for p in &mut goal.positions {
            for (k, mask) in p.target.ignore.iter_mut().enumerate() {
                for (i, o) in mask.ori.iter_mut().enumerate() {
                    *o |= self.ori_free(k, i);
                }
            }
        }
        Some(goal)
    }

    /// Whether `goal` is the definition's own goal as [`Puzzle::modulo_goal`] makes it
    /// (names and lines aside): the goal tables of the definition's goal (the exact
    /// and database tables) hold distances to it. A goal of one plain position is never
    /// this puzzle's own: searches hold none for it ([`SolveSettings::for_puzzle`]).
    ///
    /// [`SolveSettings::for_puzzle`]: super::SolveSettings::for_puzzle
    pub fn is_own_goal(&self, goal: &Goal) -> bool {
        let Some(own) = self.modulo_goal("solved") else {
            return false;
        };
        own.positions.len() == goal.positions.len()
            && own
                .positions
                .iter()
                .zip(&goal.positions)
                .all(|(a, b)| a.target == b.target && a.classes == b.classes)
    }

    /// Sets [`Puzzle::known_mod`] from a reader's moduli (per set and position, 0 or the
    /// set's orientation count where the orientation is known exactly): a free
    /// orientation (1) may be left unsolved by any scramble too, as a free position of
    /// `Solved` may.
    pub fn set_known_mod(&mut self, mods: Vec<Vec<u8>>) {
        let mods: Vec<Vec<u8>> = mods
            .into_iter()
            .zip(&self.sets)
            .map(|(row, set)| {
                let n = set.orientations.max(1);
                row.into_iter()
                    .map(|m| if m == 0 || m >= n { n } else { m })
                    .collect()
            })
            .collect();
        self.known_mod = mods;
        for k in 0..self.sets.len() {
            for i in 0..self.sets[k].size {
                if self.ori_free(k, i) {
                    if let Some(o) = self.ignore.get_mut(k).and_then(|m| m.ori.get_mut(i)) {
                        *o = true;
                    }
                }
            }
        }
        if !self.has_known_mod() {
            self.known_mod = Vec::new();
        }
    }
}
