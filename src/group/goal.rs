//! Reachability of a scramble file's goal: a position can be solved when it can reach
//! ANY of the goal's positions. Moves act on positions and never on which piece is
//! which, so "X reaches goal position P" is "X is in the orbit of P", the question
//! [`Group::check`] answers for the solved state; each goal position gets the group
//! built with it in the place of the solved state (built once, on first use). When
//! `MoveLimits` of 0 leave only some moves, the group is the one those moves generate
//! (as [`Group::generated_by`] builds it), so a goal they cannot reach is reported
//! rather than searched for until `MaxDepth`.

use super::{Group, Verdict};
use crate::puzzle::{union_masks, Goal, IgnoreMask, MoveId, Puzzle, State, Target};
use std::collections::HashMap;

/// What the goal check says about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalVerdict {
    /// It reaches the goal position with this index (the first one found).
    Reaches(usize),
    /// It reaches none of them; the text names each position and why.
    Unreachable(String),
    /// Not decided (a free part, blocks, or a search out of budget).
    Unknown,
}

/// The groups seen from goal positions, keyed by the position's state and the moves
/// allowed (`None`: all of them).
#[derive(Default)]
pub struct GoalGroups {
    groups: HashMap<(State, Option<Vec<MoveId>>), Option<Group>>,
}

impl GoalGroups {
    /// The group with `state` in the place of the solved state (`None` when it cannot be
    /// built: too many points, or a bad position).
    fn group(
        &mut self,
        puzzle: &Puzzle,
        state: &State,
        allowed: Option<&[MoveId]>,
    ) -> Option<&Group> {
        self.groups
            .entry((state.clone(), allowed.map(<[MoveId]>::to_vec)))
            .or_insert_with(|| {
                let mut p = puzzle.clone();
                p.solved = state.clone();
                match allowed {
                    None => Group::new(&p).ok(),
                    Some(moves) => Group::generated_by(&p, moves).ok(),
                }
            })
            .as_ref()
    }

    /// Whether `start` (free where `ignore` says) reaches some position of `goal` with
    /// the moves `allowed` (`None`: every move of the puzzle).
    pub fn verdict(
        &mut self,
        puzzle: &Puzzle,
        goal: &Goal,
        start: &State,
        ignore: &[IgnoreMask],
        allowed: Option<&[MoveId]>,
    ) -> GoalVerdict {
        let mut reasons = Vec::new();
        let mut unknown = false;
        for (i, p) in goal.positions.iter().enumerate() {
            let Some(g) = self.group(puzzle, &p.target.state, allowed) else {
                unknown = true;
                continue;
            };
            // What either side leaves free is not judged.
            let target = Target {
                state: start.clone(),
                ignore: union_masks(puzzle, &p.target.ignore, ignore),
            };
            match g.check_target(&target) {
                Verdict::Reachable => return GoalVerdict::Reaches(i),
                Verdict::Unknown(_) => unknown = true,
                Verdict::Unreachable(r) => reasons.push(format!("`{}`: {r}", p.name)),
            }
        }
        if unknown {
            return GoalVerdict::Unknown;
        }
        let one = goal.positions.len() == 1;
        GoalVerdict::Unreachable(if one {
            format!("it cannot reach the goal position {}", reasons.join(""))
        } else {
            format!(
                "it can reach none of the goal's {} positions ({})",
                goal.positions.len(),
                reasons.join("; ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::{parse_puzzle, parse_scrambles};

    const DEF: &str = "Name t\nSet A 3 1\nSolved\nA\n1 2 3\nEnd\nMove X\nA\n2 3 1\nEnd\n";

    fn verdict(scr: &str) -> GoalVerdict {
        let (p, _) = parse_puzzle(DEF.as_bytes(), "t.def").unwrap();
        let s = parse_scrambles(scr.as_bytes(), "t.txt", &p).unwrap();
        let goal = s[0].settings.goal.clone().unwrap();
        let crate::puzzle::ScrambleSource::Position(t) = &s[0].source else {
            panic!("a position")
        };
        GoalGroups::default().verdict(&p, &goal, &t.state, &t.ignore, None)
    }

    #[test]
    fn a_position_reaches_one_goal_or_says_why_for_each() {
        // The 3-cycle X reaches the even arrangements only.
        let odd = "Goal odd\nA\n2 1 3\nEnd\n";
        let even = "Goal even\nA\n3 1 2\nEnd\n";
        let scr = "Scramble s\nA\n1 2 3\nEnd\n";
        assert_eq!(verdict(&format!("{even}{scr}")), GoalVerdict::Reaches(0));
        assert_eq!(
            verdict(&format!("{odd}{even}{scr}")),
            GoalVerdict::Reaches(1)
        );
        let GoalVerdict::Unreachable(r) = verdict(&format!("{odd}{scr}")) else {
            panic!("unreachable")
        };
        assert!(r.contains("goal position `odd`"), "{r}");
        let GoalVerdict::Unreachable(r) = verdict(&format!("{odd}Goal odd2\nA\n1 3 2\nEnd\n{scr}"))
        else {
            panic!("unreachable")
        };
        assert!(
            r.contains("none of the goal's 2 positions") && r.contains("`odd2`"),
            "{r}"
        );
    }
}
