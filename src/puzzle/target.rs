//! What a scramble file asks for: a position to solve (with the parts it ignores), and
//! the settings in force for it (metric, depth limit, slack, move limits).

use super::{Goal, IgnoreMask, MoveId, Puzzle, State};
use std::sync::Arc;

/// How a solution's length is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Metric {
    /// Every move costs 1 (ksolve+'s default).
    #[default]
    Htm,
    /// A power costs its quarter-turn cost, `min(j, order - j)`.
    Qtm,
}

impl Metric {
    /// The cost of move `m` of `puzzle` in this metric.
    #[inline]
    pub fn cost(self, puzzle: &Puzzle, m: MoveId) -> u32 {
        match self {
            Metric::Htm => 1,
            Metric::Qtm => puzzle.mv(m).qtm,
        }
    }

    /// The lowercase name used in machine output.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
        }
    }
}

/// What a move limit counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitKey {
    /// One move (`F2 1`).
    Move(MoveId),
    /// A base move and all its powers, by base index (`F* 2`).
    Family(usize),
}

/// At most `max` moves matching any of `keys` in a solution (0 forbids them). One
/// `MoveLimits` line is one limit: with several names (`SA* SB* 1`) the moves they name
/// share the one count, and a move named twice on a line still counts once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveLimit {
    /// Never empty.
    pub keys: Vec<LimitKey>,
    pub max: u32,
}

impl LimitKey {
    /// Whether move `m` is one this key names.
    pub fn matches(self, puzzle: &Puzzle, m: MoveId) -> bool {
        match self {
            LimitKey::Move(id) => id == m,
            LimitKey::Family(b) => puzzle.mv(m).base == b,
        }
    }
}

impl MoveLimit {
    /// A limit on the moves of one key (a ksolve+ `MoveLimits` line).
    pub fn single(key: LimitKey, max: u32) -> MoveLimit {
        MoveLimit {
            keys: vec![key],
            max,
        }
    }

    /// Whether move `m` counts against this limit.
    pub fn matches(&self, puzzle: &Puzzle, m: MoveId) -> bool {
        self.keys.iter().any(|k| k.matches(puzzle, m))
    }

    /// The limits that leave only the base moves `names` name (a power or an alias
    /// names its base move): one shared limit of 0 over every other base move, which is
    /// exactly a `MoveLimits` block, so the canonical automaton and the reachability
    /// verdict treat it as they treat a file (the search counts one limit however many
    /// families a puzzle has). `Err` holds the first name the puzzle does not have.
    pub fn only<S: AsRef<str>>(puzzle: &Puzzle, names: &[S]) -> Result<Vec<MoveLimit>, String> {
        let mut keep = std::collections::BTreeSet::new();
        for name in names {
            let name = name.as_ref().trim();
            match puzzle.move_by_name(name) {
                Some(id) => keep.insert(puzzle.mv(id).base),
                None => return Err(name.to_string()),
            };
        }
        let keys: Vec<LimitKey> = (0..puzzle.base_moves.len())
            .filter(|b| !keep.contains(b))
            .map(LimitKey::Family)
            .collect();
        Ok(match keys.is_empty() {
            true => Vec::new(),
            false => vec![MoveLimit { keys, max: 0 }],
        })
    }
}

/// The settings a scramble file has in force at a scramble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveSettings {
    /// The longest solution to try, in the metric's units (ksolve+ default 999).
    pub max_depth: u32,
    /// How far past optimal to keep printing solutions.
    pub slack: u32,
    pub metric: Metric,
    pub limits: Vec<MoveLimit>,
    /// The goal set by the scramble file's `Goal` / `GoalAlg` blocks, or `None` for the
    /// definition's `Solved` state. Shared, since every scramble after the blocks
    /// carries it.
    pub goal: Option<Arc<Goal>>,
}

impl SolveSettings {
    /// The moves these limits leave, when some are limited to 0; `None` when every move
    /// may be used.
    pub fn allowed_moves(&self, puzzle: &Puzzle) -> Option<Vec<MoveId>> {
        let allowed: Vec<MoveId> = (0..puzzle.moves.len())
            .map(|m| MoveId(m as u16))
            .filter(|&m| {
                !self
                    .limits
                    .iter()
                    .any(|l| l.max == 0 && l.matches(puzzle, m))
            })
            .collect();
        (allowed.len() < puzzle.moves.len()).then_some(allowed)
    }
}

impl SolveSettings {
    /// The settings a scramble of `puzzle` starts with: ksolve+'s defaults, with the
    /// moves the definition leaves out of searches limited to 0.
    pub fn for_puzzle(puzzle: &Puzzle) -> SolveSettings {
        SolveSettings {
            limits: puzzle.default_limits(),
            goal: puzzle.modulo_goal("solved").map(std::sync::Arc::new),
            ..SolveSettings::default()
        }
    }
}

impl Puzzle {
    /// Masks, one per set, that ignore nothing.
    pub fn no_ignores(&self) -> Vec<IgnoreMask> {
        self.sets
            .iter()
            .map(|s| IgnoreMask {
                perm: vec![false; s.size],
                ori: vec![false; s.size],
            })
            .collect()
    }

    /// The base moves searches leave out unless told otherwise ([`Puzzle::searched`]).
    pub fn unsearched(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.base_moves.len()).filter(|&b| self.searched.get(b) == Some(&false))
    }

    /// The move limits every scramble starts with: one shared limit of 0 over the base
    /// moves the definition's `SearchMoves` leaves out (none without it), so that the
    /// search, its canonical automaton and the reachability verdict treat them as a
    /// `MoveLimits` block would.
    pub fn default_limits(&self) -> Vec<MoveLimit> {
        let keys: Vec<LimitKey> = self.unsearched().map(LimitKey::Family).collect();
        match keys.is_empty() {
            true => Vec::new(),
            false => vec![MoveLimit { keys, max: 0 }],
        }
    }

    /// The base moves a search may use under `limits`, when the limits do no more than
    /// forbid whole base moves (as `--moves`, the definition's `SearchMoves` and a
    /// `MoveLimits` block of `F* 0` lines write them); `None` when a limit counts moves
    /// or names single powers. A solver that chooses its own moves (the chain's phases)
    /// takes this as the set it chooses from.
    pub fn searched_under(&self, limits: &[MoveLimit]) -> Option<Vec<bool>> {
        let mut searched = vec![true; self.base_moves.len()];
        for limit in limits {
            if limit.max != 0 {
                return None;
            }
            for key in &limit.keys {
                match *key {
                    LimitKey::Family(b) => searched[b] = false,
                    LimitKey::Move(_) => return None,
                }
            }
        }
        Some(searched)
    }

    /// `limits` (a scramble file's `MoveLimits` block) with the default limit of 0 on
    /// the unsearched base moves the block does not name: naming one is what lets a
    /// search use it.
    pub fn with_default_limits(&self, mut limits: Vec<MoveLimit>) -> Vec<MoveLimit> {
        let keys: Vec<LimitKey> = self
            .unsearched()
            .filter(|&b| {
                !limits.iter().flat_map(|l| &l.keys).any(|k| match *k {
                    LimitKey::Family(f) => f == b,
                    LimitKey::Move(m) => self.mv(m).base == b,
                })
            })
            .map(LimitKey::Family)
            .collect();
        if !keys.is_empty() {
            limits.push(MoveLimit { keys, max: 0 });
        }
        limits
    }
}

impl Default for SolveSettings {
    fn default() -> Self {
        SolveSettings {
            max_depth: 999,
            slack: 0,
            metric: Metric::Htm,
            limits: Vec::new(),
            goal: None,
        }
    }
}

/// A position to solve. `state` is definite: `?N` hints are filled in, and a bare `?`
/// takes a value that keeps the state well-formed (the missing labels in ascending
/// order, orientation 0). `ignore` marks, by position, what the finished position may
/// leave unsolved; it is always within the definition's `Ignore`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub state: State,
    pub ignore: Vec<IgnoreMask>,
}

impl Target {
    /// A position given in full: nothing ignored.
    pub fn definite(puzzle: &Puzzle, state: State) -> Target {
        Target {
            state,
            ignore: puzzle.no_ignores(),
        }
    }

    /// Whether any part of the position is ignored.
    pub fn has_ignores(&self) -> bool {
        self.ignore.iter().any(IgnoreMask::any)
    }
}

/// Where a scramble's position comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScrambleSource {
    /// `Scramble NAME`: a position given set by set.
    Position(Target),
    /// `ScrambleAlg NAME`: the moves applied to the solved state.
    Alg(Vec<MoveId>),
    /// `RandomScramble NAME`: a random reachable position, drawn when solving.
    Random,
    /// `ScrambleFacelets NAME` (or `--facelets`) whose colours no real position shows,
    /// or show a position no sequence of moves reaches: why, in words. A colouring that
    /// is a reachable position becomes a `Position` instead.
    Impossible(String),
}

/// One scramble of a scramble file, with the settings in force where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scramble {
    pub name: String,
    pub source: ScrambleSource,
    pub settings: SolveSettings,
    /// 1-based line of the scramble's first line, for messages.
    pub line: usize,
}

impl Puzzle {
    /// What move `m` costs a solution in `metric`: the metric's count (1, or the quarter
    /// turns) times the move's `MoveCosts` weight, so a weight of 2 doubles a move in
    /// either metric and 0 makes it free.
    #[inline]
    pub fn move_cost(&self, metric: Metric, m: MoveId) -> u32 {
        metric.cost(self, m).max(1) * self.mv(m).weight
    }

    /// Whether the definition gives some move a weight other than 1 (`MoveCosts`).
    pub fn has_weights(&self) -> bool {
        self.moves.iter().any(|m| m.weight != 1)
    }

    /// Whether `state` counts as solved when the positions marked in `ignore` may hold
    /// anything: every other position holds the solved label and orientation. The
    /// positions the definition's goal leaves free ([`Puzzle::free`]) are always skipped,
    /// and orientations it knows modulo a divisor ([`Puzzle::known_mod`]) compared so.
    pub fn is_solved(&self, state: &State, ignore: &[IgnoreMask]) -> bool {
        state
            .sets
            .iter()
            .zip(&self.solved.sets)
            .enumerate()
            .all(|(k, (s, goal))| {
                let mask = ignore.get(k);
                (0..s.perm.len()).all(|i| {
                    let free = self.free.get(k).is_some_and(|f| f.get(i) == Some(&true));
                    let skip_p = free || mask.is_some_and(|m| m.perm.get(i) == Some(&true));
                    let skip_o = mask.is_some_and(|m| m.ori.get(i) == Some(&true));
                    (skip_p || s.perm[i] == goal.perm[i])
                        && (skip_o || self.ori_agrees(k, i, s.ori[i], goal.ori[i]))
                })
            })
    }
}
