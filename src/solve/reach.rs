//! The one reachability verdict: whether a position can reach the goal in force with
//! the moves in force, and why not. `solve`, `check`, `play` and `stats` all ask
//! [`Reachability::verdict`], so a position gets the same answer whichever command
//! looks at it.
//!
//! The checks, in order, each built once and kept:
//! - a position that could not be read as one (impossible colours) is unreachable;
//! - with a scramble file's goal, the position must reach one of the goal's positions
//!   ([`GoalGroups`]);
//! - a position given piece by piece must be in the group the moves generate
//!   ([`Group::check_target`]); one made by moves from the solved state, or drawn from
//!   the reachable positions, is in it by construction;
//! - with guarded moves (`When`) or a definition whose goal is a set of positions, the
//!   group ignores what the guards forbid and only bounds the answer: a given position
//!   is then looked up in the exact distances from the goal ([`Reachability::exact`]), a
//!   breadth-first search made once when it fits [`EXACT_BUDGET`] (and, unless asked for
//!   outright, when the group's order is at most [`EXACT_ORDER`]);
//! - moves limited to 0 are not there at all: the position must be in the group the
//!   other moves generate (with a goal: reach one of its positions with them).

use crate::gods::database::Database;
use crate::gods::{self, GodOptions, Method};
use crate::group::goal::{GoalGroups, GoalVerdict};
use crate::group::{Group, Verdict};
use crate::puzzle::{IgnoreMask, MoveId, Puzzle, SolveSettings, State};
use std::collections::HashMap;

/// Where a position comes from, which decides what needs checking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Typed piece by piece (or as colours): it may be one no moves reach.
    Given,
    /// Made by moves from the solved state, or drawn from the reachable positions: the
    /// whole group reaches it by construction.
    Made,
}

/// The memory for the exact distances of a guarded puzzle (about 1.4 million
/// positions): the verdict stays quick, so larger puzzles are left to the group's bound
/// and the search.
pub const EXACT_BUDGET: u64 = 64 << 20;

/// The largest group order (which bounds the positions the guarded moves reach) for
/// which a verdict makes the breadth-first search of [`Reachability::exact`] by itself.
pub const EXACT_ORDER: u64 = 1 << 22;

/// What the checks say about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Nothing proves it unreachable; with a goal, the goal position it reaches (the
    /// first found), when a check found one.
    Reachable { goal: Option<usize> },
    /// It cannot reach the goal; the text says why.
    Unreachable(String),
    /// The checks cannot decide (a puzzle too large for the group, `?` marks, blocks);
    /// the text says why when it can.
    Unknown(String),
}

/// The verdict's kind, as `--json` writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReachStatus {
    Reachable,
    Unreachable,
    Unknown,
}

impl Reach {
    /// The verdict's kind.
    pub fn status(&self) -> ReachStatus {
        match self {
            Reach::Reachable { .. } => ReachStatus::Reachable,
            Reach::Unreachable(_) => ReachStatus::Unreachable,
            Reach::Unknown(_) => ReachStatus::Unknown,
        }
    }

    /// Why the position cannot be reached, when a check proved it.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Reach::Unreachable(r) => Some(r),
            _ => None,
        }
    }
}

/// The groups the verdicts need, built on first use and kept for the positions that
/// follow.
pub struct Reachability<'p> {
    puzzle: &'p Puzzle,
    /// The group of every move (`None` inside: too large to build).
    group: Option<Option<Group>>,
    /// The groups seen from goal positions.
    goals: GoalGroups,
    /// The groups of the moves left by each set of limits with zeros.
    limited: HashMap<Vec<MoveId>, Option<Group>>,
    /// A guarded puzzle's exact distances from the goal, once tried (the error says
    /// why they could not be computed).
    exact: Option<Result<Database, String>>,
    /// How a refusal names what left the moves: "MoveLimits allow" unless the caller
    /// set the moves another way (`--moves`).
    limited_by: &'static str,
    /// Whether the puzzle is another's without the moves no scramble may use
    /// (`solve::narrow`): a refusal by its whole group then says which moves were left.
    narrowed: bool,
}

impl<'p> Reachability<'p> {
    /// The checks for `puzzle`; nothing is built yet.
    pub fn new(puzzle: &'p Puzzle) -> Reachability<'p> {
        Reachability {
            puzzle,
            group: None,
            goals: GoalGroups::default(),
            limited: HashMap::new(),
            exact: None,
            // A definition that leaves moves out of searches limits them itself.
            limited_by: match puzzle.unsearched().next() {
                Some(_) => "SearchMoves and MoveLimits allow",
                None => "MoveLimits allow",
            },
            narrowed: false,
        }
    }

    /// The checks for `puzzle` with its group already built (or known not to build).
    pub fn with_group(puzzle: &'p Puzzle, group: Option<Group>) -> Reachability<'p> {
        Reachability {
            group: Some(group),
            ..Reachability::new(puzzle)
        }
    }

    /// Names what left the moves in a refusal (`"--moves allows"` when the command line
    /// replaced the MoveLimits).
    pub fn limited_by(mut self, by: &'static str) -> Self {
        self.limited_by = by;
        self
    }

    /// Says that the puzzle was narrowed to the moves a batch may use, so that a
    /// refusal by its whole group names the moves left, as a refusal by limits does.
    pub fn narrowed(mut self) -> Self {
        self.narrowed = true;
        self
    }

    /// `why` a position cannot be reached, with only the moves `allowed`.
    fn with_moves_left(&self, allowed: &[MoveId], why: &str) -> String {
        let names: Vec<&str> = allowed
            .iter()
            .map(|&m| self.puzzle.mv(m).name.as_str())
            .collect();
        let names = match names.is_empty() {
            true => "none".to_string(),
            false => names.join(" "),
        };
        format!("with only the moves {} ({names}), {why}", self.limited_by)
    }

    /// The group of every move, built once (`None`: too large to build).
    pub fn group(&mut self) -> Option<&Group> {
        let puzzle = self.puzzle;
        self.group
            .get_or_insert_with(|| Group::new(puzzle).ok())
            .as_ref()
    }

    /// Whether the puzzle's reachable positions are no group question: its moves are
    /// guarded, or its goal is a set of positions.
    pub fn guarded(&self) -> bool {
        self.puzzle.has_guards() || self.puzzle.goal_is_set()
    }

    /// The exact distances from the definition's goal of a guarded puzzle, computed once
    /// by breadth-first search within [`EXACT_BUDGET`], or why they could not be.
    pub fn exact(&mut self) -> Result<&Database, &str> {
        let puzzle = self.puzzle;
        self.exact
            .get_or_insert_with(|| {
                let opts = GodOptions {
                    antipodes: 0,
                    memory: EXACT_BUDGET,
                    keep_distances: true,
                    method: Method::Hashed,
                    ..GodOptions::default()
                };
                let table = gods::compute(puzzle, &opts, &crate::progress::Silent, &|_, _| {})
                    .map_err(|e| e.to_string())?;
                Database::in_memory("the count", puzzle, &table).map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// Whether `start` (free where `ignore` says) can reach the goal of `settings`
    /// with the moves `settings` leaves, and why not; `impossible` is the reason a
    /// position typed as colours is none at all.
    pub fn verdict(
        &mut self,
        start: &State,
        ignore: &[IgnoreMask],
        origin: Origin,
        settings: &SolveSettings,
        impossible: Option<&str>,
    ) -> Reach {
        if let Some(why) = impossible {
            return Reach::Unreachable(why.to_string());
        }
        let puzzle = self.puzzle;
        // Without the whole group nothing below can be judged: the subgroups of fewer
        // moves and the goal's groups are built the same way, and would fail too.
        if self.group().is_none() {
            return Reach::Unknown("the puzzle is too large for the group check".into());
        }
        let mut reach = match (&settings.goal, origin) {
            (Some(goal), _) => goal_reach(self.goals.verdict(puzzle, goal, start, ignore, None)),
            (None, Origin::Made) => Reach::Reachable { goal: None },
            (None, Origin::Given) if self.guarded() => self.exact_reach(start, ignore),
            (None, Origin::Given) => self.group_reach(start, ignore),
        };
        let allowed = settings.allowed_moves(puzzle);
        if let Reach::Unreachable(why) = reach {
            return match self.narrowed {
                true => {
                    let all: Vec<MoveId> = (0..puzzle.moves.len() as u16).map(MoveId).collect();
                    Reach::Unreachable(
                        self.with_moves_left(allowed.as_deref().unwrap_or(&all), &why),
                    )
                }
                false => Reach::Unreachable(why),
            };
        }
        let Some(allowed) = allowed else {
            return reach;
        };
        let why = match &settings.goal {
            Some(goal) => match self
                .goals
                .verdict(puzzle, goal, start, ignore, Some(&allowed))
            {
                GoalVerdict::Unreachable(r) => Some(r),
                // The goal position reached with fewer moves is the one that counts.
                GoalVerdict::Reaches(i) => {
                    reach = Reach::Reachable { goal: Some(i) };
                    None
                }
                GoalVerdict::Unknown => None,
            },
            None => {
                let sub = self
                    .limited
                    .entry(allowed.clone())
                    .or_insert_with(|| Group::generated_by(puzzle, &allowed).ok());
                match sub.as_ref().map(|g| check_at(g, start, ignore)) {
                    Some(Verdict::Unreachable(r)) => Some(r.to_string()),
                    _ => None,
                }
            }
        };
        match why {
            Some(r) => Reach::Unreachable(self.with_moves_left(&allowed, &r)),
            None => reach,
        }
    }
}

impl Reachability<'_> {
    /// A given position of a guarded puzzle: its `Require` rules, then the exact
    /// distances when they could be computed, else the group's bound.
    fn exact_reach(&mut self, start: &State, ignore: &[IgnoreMask]) -> Reach {
        if !self.puzzle.well_formed(start) {
            return Reach::Unreachable(
                "the position breaks a `Require` rule of the definition".into(),
            );
        }
        let marked = ignore
            .iter()
            .any(|m| m.perm.iter().chain(&m.ori).any(|&b| b));
        if marked {
            return Reach::Unknown("the position leaves parts of the puzzle unspecified".into());
        }
        // The breadth-first search is made for the verdict only when the group (which
        // bounds the reachable positions) is small enough for it to finish; a larger
        // puzzle (the 15-puzzle) is left to the group and the search, as is one whose
        // search is known to fail. `check` asks for the distances outright (its count).
        let small = self
            .group()
            .is_some_and(|g| *g.order() <= crate::group::BigUint::from(EXACT_ORDER));
        if self.exact.is_none() && !small {
            return self.group_reach(start, ignore);
        }
        match self.exact() {
            Ok(db) => match db.distance(start) {
                Some(_) => Reach::Reachable { goal: None },
                None => Reach::Unreachable("no sequence of moves takes it to the goal".into()),
            },
            Err(_) => self.group_reach(start, ignore),
        }
    }

    /// The group's verdict on a given position (for a guarded puzzle, a bound: it proves
    /// some positions unreachable, and says nothing against the others).
    fn group_reach(&mut self, start: &State, ignore: &[IgnoreMask]) -> Reach {
        match self.group().map(|g| check_at(g, start, ignore)) {
            Some(Verdict::Unreachable(r)) => Reach::Unreachable(r.to_string()),
            Some(Verdict::Unknown(s)) => Reach::Unknown(s),
            _ => Reach::Reachable { goal: None },
        }
    }
}

/// `group`'s verdict on `start`, free where `ignore` says.
fn check_at(group: &Group, start: &State, ignore: &[IgnoreMask]) -> Verdict {
    group.check_target(&crate::puzzle::Target {
        state: start.clone(),
        ignore: ignore.to_vec(),
    })
}

/// A goal check's answer as a verdict.
fn goal_reach(v: GoalVerdict) -> Reach {
    match v {
        GoalVerdict::Reaches(i) => Reach::Reachable { goal: Some(i) },
        GoalVerdict::Unreachable(r) => Reach::Unreachable(r),
        GoalVerdict::Unknown => {
            Reach::Unknown("the group cannot decide which goal position it reaches".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::{parse_puzzle, parse_scrambles};
    use crate::puzzle::ScrambleSource;

    /// Two sets of three: X cycles A, Y swaps two of B.
    const DEF: &str = "Name t\nSet A 3 1\nSet B 3 1\nSolved\nA\n1 2 3\nB\n1 2 3\nEnd\n\
                       Move X\nA\n2 3 1\nEnd\nMove Y\nB\n2 1 3\nEnd\n";

    fn verdicts(scr: &str) -> Vec<Reach> {
        let (p, _) = parse_puzzle(DEF.as_bytes(), "t.def").unwrap();
        let scrambles = parse_scrambles(scr.as_bytes(), "t.txt", &p).unwrap();
        let mut r = Reachability::new(&p);
        scrambles
            .iter()
            .map(|s| match &s.source {
                ScrambleSource::Position(t) => {
                    r.verdict(&t.state, &t.ignore, Origin::Given, &s.settings, None)
                }
                ScrambleSource::Alg(seq) => {
                    let start = p.apply_sequence(&p.solved, seq);
                    r.verdict(&start, &[], Origin::Made, &s.settings, None)
                }
                ScrambleSource::Impossible(why) => {
                    r.verdict(&p.solved, &[], Origin::Given, &s.settings, Some(why))
                }
                ScrambleSource::Random => {
                    r.verdict(&p.solved, &[], Origin::Made, &s.settings, None)
                }
            })
            .collect()
    }

    #[test]
    fn an_odd_cycle_of_a_cannot_be_reached() {
        let v = verdicts("Scramble s\nA\n2 1 3\nEnd\nScramble t\nA\n3 1 2\nEnd\n");
        assert!(matches!(v[0], Reach::Unreachable(_)), "{v:?}");
        assert_eq!(v[1], Reach::Reachable { goal: None });
    }

    #[test]
    fn moves_limited_to_zero_are_not_there_at_all() {
        // B's swap needs Y; with Y limited to 0 nothing reaches it, whether the
        // position is given or made by moves.
        let v = verdicts(
            "MoveLimits\nY 0\nEnd\nScramble s\nB\n2 1 3\nEnd\nScrambleAlg t\nY\nEnd\n\
             ScrambleAlg u\nX\nEnd\n",
        );
        for r in &v[..2] {
            let Reach::Unreachable(why) = r else {
                panic!("{v:?}")
            };
            assert!(
                why.contains("with only the moves MoveLimits allow (X"),
                "{why}"
            );
        }
        assert_eq!(v[2], Reach::Reachable { goal: None });
    }

    #[test]
    fn a_goal_names_the_position_reached_with_the_moves_left() {
        let v = verdicts(
            "Goal swapped\nA\n1 2 3\nB\n2 1 3\nEnd\nScramble s\nA\n2 3 1\nB\n1 2 3\nEnd\n\
             MoveLimits\nY 0\nEnd\nScramble t\nA\n2 3 1\nB\n2 1 3\nEnd\n\
             Scramble u\nA\n2 3 1\nB\n1 2 3\nEnd\n",
        );
        assert_eq!(v[0], Reach::Reachable { goal: Some(0) });
        assert_eq!(v[1], Reach::Reachable { goal: Some(0) });
        let Reach::Unreachable(why) = &v[2] else {
            panic!("{v:?}")
        };
        assert!(why.contains("goal position `swapped`"), "{why}");
    }
}
