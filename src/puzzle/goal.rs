//! Goals other than the definition's `Solved` state: one or more positions, any of which
//! counts as solved, each with the parts it leaves free (`?`).
//!
//! A scramble file sets a goal with `Goal NAME` (a position) and `GoalAlg NAME` (the
//! position some moves make from solved) blocks; see `def::scramble`. Everything that
//! judges "solved" reads the goal in force through [`SolveSettings::goal`]: the search's
//! goal test and replay, the pruning tables (built from every goal position at once and
//! cached under a key that includes [`Goal::key_bytes`]) and the command line's
//! reachability check.
//!
//! [`SolveSettings::goal`]: super::SolveSettings::goal

use super::closure::Closure;
use super::{IgnoreMask, MoveId, Puzzle, State, Target};

/// Per set and position, the class of a position of a goal, if it has one (see
/// [`GoalPosition::classes`]).
pub type Classes = Vec<Vec<Option<u16>>>;

/// One position of a goal, with the name its block gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalPosition {
    pub name: String,
    /// The position and what it leaves free; the masks are always within the
    /// definition's `Ignore`.
    pub target: Target,
    /// 1-based line of the block, for messages.
    pub line: usize,
    /// Per set and position, the class a goal file gave the position (a letter): it
    /// holds, in any order, one of the pieces that `target` puts at the positions of its
    /// class (`u u u u e e e e` for the U/D and E-slice edges of a domino reduction).
    /// Empty when the goal has none. Only a step puzzle ([`crate::solve::Step`]) can
    /// search a goal with classes; everything else reads `target` alone.
    pub classes: Classes,
}

impl GoalPosition {
    /// Whether some position belongs to a class.
    pub fn has_classes(&self) -> bool {
        self.classes.iter().flatten().any(Option::is_some)
    }
}

/// A set of positions, any of which counts as solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    pub positions: Vec<GoalPosition>,
    /// Moves that keep a position in the goal: the goal holds every position they reach
    /// from its positions as well (a subgroup's positions, as a chain's phase ends in;
    /// see [`Closure`]). They map the positions each goal position leaves free among
    /// themselves. Empty for goals read from files.
    pub within: Vec<MoveId>,
    /// The positions `within` reaches, listed on first use.
    closure: Closure,
}

/// Whether position `i` of a set is ignored by `mask` (permutation or orientation).
fn masked(mask: Option<&IgnoreMask>, perm: bool, i: usize) -> bool {
    mask.is_some_and(|m| {
        let v = if perm { &m.perm } else { &m.ori };
        v.get(i) == Some(&true)
    })
}

/// The union of two sets of ignore masks (either may be empty, meaning "nothing").
pub fn union_masks(puzzle: &Puzzle, a: &[IgnoreMask], b: &[IgnoreMask]) -> Vec<IgnoreMask> {
    puzzle
        .sets
        .iter()
        .enumerate()
        .map(|(k, set)| IgnoreMask {
            perm: (0..set.size)
                .map(|i| masked(a.get(k), true, i) || masked(b.get(k), true, i))
                .collect(),
            ori: (0..set.size)
                .map(|i| masked(a.get(k), false, i) || masked(b.get(k), false, i))
                .collect(),
        })
        .collect()
}

impl Goal {
    /// The goal of these positions.
    pub fn new(positions: Vec<GoalPosition>) -> Goal {
        Goal {
            positions,
            within: Vec::new(),
            closure: Closure::default(),
        }
    }

    /// The goal of these positions and every position the moves `within` reach from
    /// them (see [`Goal::within`]).
    pub fn closed(positions: Vec<GoalPosition>, within: Vec<MoveId>) -> Goal {
        Goal {
            positions,
            within,
            closure: Closure::default(),
        }
    }

    /// Whether the goal holds what moves reach from its positions ([`Goal::within`]).
    pub fn is_closed(&self) -> bool {
        !self.within.is_empty()
    }

    /// Whether some position of the goal has classes ([`GoalPosition::classes`]).
    pub fn has_classes(&self) -> bool {
        self.positions.iter().any(GoalPosition::has_classes)
    }

    /// The definition's goal, named `name`: its solved state with what `Solved` leaves
    /// free (`?N`) free, one position for every orientation the goal knows only modulo
    /// a divisor allows (see [`Puzzle::modulo_goal`]).
    pub fn solved(puzzle: &Puzzle, name: &str) -> Goal {
        puzzle
            .modulo_goal(name)
            .unwrap_or_else(|| Goal::plain(puzzle, name))
    }

    /// The definition's solved state as a goal of one position, named `name`; what
    /// `Solved` leaves free (`?N`) stays free, and orientations are as `solved` has them.
    pub(super) fn plain(puzzle: &Puzzle, name: &str) -> Goal {
        let ignore = puzzle
            .sets
            .iter()
            .enumerate()
            .map(|(k, set)| IgnoreMask {
                perm: (0..set.size)
                    .map(|i| puzzle.free.get(k).is_some_and(|f| f.get(i) == Some(&true)))
                    .collect(),
                ori: vec![false; set.size],
            })
            .collect();
        Goal::new(vec![GoalPosition {
            name: name.to_string(),
            target: Target {
                state: puzzle.solved.clone(),
                ignore,
            },
            line: 0,
            classes: Vec::new(),
        }])
    }

    /// This goal with what `masks` marks left free at every position as well
    /// (`--ignore`).
    pub fn freeing(&self, puzzle: &Puzzle, masks: &[IgnoreMask]) -> Goal {
        Goal {
            within: self.within.clone(),
            closure: Closure::default(),
            positions: self
                .positions
                .iter()
                .map(|p| GoalPosition {
                    target: Target {
                        state: p.target.state.clone(),
                        ignore: union_masks(puzzle, &p.target.ignore, masks),
                    },
                    ..p.clone()
                })
                .collect(),
        }
    }

    /// Whether `state` matches `target` at every position that neither the target's own
    /// masks nor `extra` (a scramble's `?` marks) ignore.
    pub fn matches(target: &Target, state: &State, extra: &[IgnoreMask]) -> bool {
        state
            .sets
            .iter()
            .zip(&target.state.sets)
            .enumerate()
            .all(|(k, (s, g))| {
                (0..s.perm.len()).all(|i| {
                    let free = |perm| {
                        masked(target.ignore.get(k), perm, i) || masked(extra.get(k), perm, i)
                    };
                    (free(true) || s.perm[i] == g.perm[i]) && (free(false) || s.ori[i] == g.ori[i])
                })
            })
    }

    /// The first goal position `state` matches (see [`Goal::matches`]), if any; for a
    /// goal with moves [`Goal::within`], the goal position whose closure holds it.
    pub fn reached_by(
        &self,
        puzzle: &Puzzle,
        state: &State,
        extra: &[IgnoreMask],
    ) -> Option<usize> {
        let direct = self
            .positions
            .iter()
            .position(|p| Goal::matches(&p.target, state, extra));
        if direct.is_some() || !self.is_closed() {
            return direct;
        }
        self.closure
            .holds(puzzle, &self.closure_starts(), &self.within, state, extra)
    }

    /// Lists the closure of a goal with moves [`Goal::within`] now, rather than at the
    /// first position [`Goal::reached_by`] looks up (a chain's pairing phase lists a
    /// million positions, seconds of work a caller may do while it does other things).
    pub fn list_closure(&self, puzzle: &Puzzle) {
        if !self.is_closed() {
            return;
        }
        self.closure
            .list(puzzle, &self.closure_starts(), &self.within);
    }

    /// The goal positions the closure is walked from, each with what it leaves free.
    fn closure_starts(&self) -> Vec<(&State, Vec<IgnoreMask>)> {
        self.positions
            .iter()
            .map(|p| (&p.target.state, p.target.ignore.clone()))
            .collect()
    }

    /// Bytes that identify the goal as a set of positions (names and order do not
    /// matter), for the keys of cached tables built for it.
    pub fn key_bytes(&self) -> Vec<u8> {
        let mut each: Vec<Vec<u8>> = Vec::with_capacity(self.positions.len());
        self.for_each_position_key(|b| each.push(b.to_vec()));
        each.sort();
        each.dedup();
        let mut out = b"goal".to_vec();
        for e in each {
            out.extend_from_slice(&(e.len() as u64).to_le_bytes());
            out.extend_from_slice(&e);
        }
        // The moves that close the goal make it another set of positions.
        if self.is_closed() {
            out.extend_from_slice(b"within");
            for m in &self.within {
                out.extend_from_slice(&m.0.to_le_bytes());
            }
        }
        out
    }

    /// Hands each position's part of [`Goal::key_bytes`] to `f`, in one reused buffer:
    /// what a cheaper key is hashed from (a goal may have thousands of positions, and
    /// a chain's phase asks for its tables on every search).
    pub fn for_each_position_key(&self, mut f: impl FnMut(&[u8])) {
        let mut buffer = Vec::new();
        for p in &self.positions {
            position_bytes(p, &mut buffer);
            f(&buffer);
        }
    }
}

/// The bytes of one goal position in [`Goal::key_bytes`], into `b` (cleared first).
fn position_bytes(p: &GoalPosition, b: &mut Vec<u8>) {
    b.clear();
    for (k, s) in p.target.state.sets.iter().enumerate() {
        let mask = p.target.ignore.get(k);
        for i in 0..s.perm.len() {
            // A free entry's stored value is a placeholder: leave it out.
            let (fp, fo) = (masked(mask, true, i), masked(mask, false, i));
            let perm = if fp { u16::MAX } else { s.perm[i] };
            b.extend_from_slice(&perm.to_le_bytes());
            b.push(if fo { u8::MAX } else { s.ori[i] });
            // A class makes a different goal of the same position.
            if let Some(c) = p.classes.get(k).and_then(|c| c.get(i).copied().flatten()) {
                b.push(b'c');
                b.extend_from_slice(&c.to_le_bytes());
            }
        }
        b.push(b'/');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{SetState, Transform};

    fn target(perm: &[u16], ignore: Option<Vec<bool>>) -> Target {
        let n = perm.len();
        Target {
            state: Transform {
                sets: vec![SetState {
                    perm: perm.to_vec(),
                    ori: vec![0; n],
                }],
            },
            ignore: vec![IgnoreMask {
                perm: ignore.unwrap_or_else(|| vec![false; n]),
                ori: vec![false; n],
            }],
        }
    }

    fn goal(targets: Vec<Target>) -> Goal {
        Goal::new(
            targets
                .into_iter()
                .enumerate()
                .map(|(i, target)| GoalPosition {
                    name: format!("g{i}"),
                    target,
                    line: i + 1,
                    classes: Vec::new(),
                })
                .collect(),
        )
    }

    #[test]
    fn any_position_counts_and_free_entries_match_anything() {
        let g = goal(vec![
            target(&[0, 1, 2], None),
            target(&[2, 0, 1], Some(vec![false, true, false])),
        ]);
        let s = |p: &[u16]| target(p, None).state;
        let p = three();
        assert_eq!(g.reached_by(&p, &s(&[0, 1, 2]), &[]), Some(0));
        assert_eq!(g.reached_by(&p, &s(&[2, 0, 1]), &[]), Some(1));
        assert_eq!(g.reached_by(&p, &s(&[2, 2, 1]), &[]), Some(1));
        assert_eq!(g.reached_by(&p, &s(&[1, 0, 2]), &[]), None);
        // A scramble's own `?` frees more.
        let extra = target(&[0, 1, 2], Some(vec![true, false, false])).ignore;
        assert_eq!(g.reached_by(&p, &s(&[1, 0, 2]), &extra), None);
        assert_eq!(g.reached_by(&p, &s(&[1, 1, 2]), &extra), Some(0));
    }

    /// Three pieces in a row, with one move that cycles them and one that swaps the
    /// first two.
    fn three() -> Puzzle {
        let def =
            "Set A 3 1\nSolved\nA\n1 2 3\nEnd\nMove C\nA\n2 3 1\nEnd\nMove S\nA\n2 1 3\nEnd\n";
        crate::def::parse_puzzle(def.as_bytes(), "three.def")
            .unwrap()
            .0
    }

    #[test]
    fn a_closed_goal_holds_what_its_moves_reach_and_nothing_else() {
        let p = three();
        let c = p.move_by_name("C").unwrap();
        let open = goal(vec![target(&[0, 1, 2], None)]);
        let closed = Goal::closed(open.positions.clone(), vec![c]);
        let s = |x: &[u16]| target(x, None).state;
        for x in [[0, 1, 2], [1, 2, 0], [2, 0, 1]] {
            assert_eq!(closed.reached_by(&p, &s(&x), &[]), Some(0), "{x:?}");
        }
        assert_eq!(open.reached_by(&p, &s(&[1, 2, 0]), &[]), None);
        // The odd arrangements are not products of the cycle.
        for x in [[1, 0, 2], [0, 2, 1], [2, 1, 0]] {
            assert_eq!(closed.reached_by(&p, &s(&x), &[]), None, "{x:?}");
        }
        // The moves are part of what the goal is.
        assert_ne!(open.key_bytes(), closed.key_bytes());
    }

    #[test]
    fn the_key_ignores_order_names_and_placeholders() {
        let a = goal(vec![
            target(&[0, 1, 2], None),
            target(&[2, 0, 1], Some(vec![false, true, true])),
        ]);
        let b = goal(vec![
            target(&[2, 1, 0], Some(vec![false, true, true])),
            target(&[0, 1, 2], None),
        ]);
        assert_eq!(a.key_bytes(), b.key_bytes());
        // The per-position keys (what the tables' fingerprint hashes) are the same set.
        let keys = |g: &Goal| {
            let mut k = Vec::new();
            g.for_each_position_key(|b| k.push(b.to_vec()));
            k.sort();
            k
        };
        assert_eq!(keys(&a), keys(&b));
        let c = goal(vec![target(&[0, 1, 2], None)]);
        assert_ne!(keys(&a), keys(&c));
        assert_ne!(a.key_bytes(), c.key_bytes());
    }
}
