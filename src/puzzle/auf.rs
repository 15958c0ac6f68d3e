//! Adjusting a face after an algorithm (post-AUF): a goal "solved up to a last turn of
//! one move", and what that last turn is for each solution.
//!
//! Algorithm hunters ask for a case's algorithms that end with the last layer solved up
//! to a turn of `U`, and want each algorithm once, with the turn it needs. [`Auf::goal`]
//! widens a goal (the definition's `Solved` when none is set) to every position a power
//! of the move takes it to; [`Auf::dominated`] tells the solutions that only differ from
//! a shorter one by that last turn, which are left out; [`Auf::needed`] names the turn a
//! solution needs.

use super::{Goal, GoalPosition, IgnoreMask, MoveId, Puzzle, Target, Transform};

/// A move whose powers adjust a face after an algorithm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Auf {
    /// The base move, in the puzzle [`Auf::new`] was given (the one [`Auf::goal`] takes).
    pub base: usize,
    /// Its name, by which [`Auf::dominated`] finds it in a puzzle narrowed to fewer moves.
    pub name: String,
    /// The names of its powers 1 ..= order-1.
    pub powers: Vec<String>,
    /// Their effects, in the same order: positions are the same in a puzzle narrowed
    /// to fewer moves, so these apply there too.
    pub effects: Vec<Transform>,
    /// Its order: the goal has this many positions per original goal position.
    pub order: usize,
}

impl Auf {
    /// The adjusting move named `name` (a power or an alias names its base move); `Err`
    /// says why not.
    pub fn new(puzzle: &Puzzle, name: &str) -> Result<Auf, String> {
        let id = puzzle
            .move_by_name(name)
            .ok_or_else(|| format!("the puzzle has no move `{name}`"))?;
        let base = puzzle.mv(id).base;
        let b = &puzzle.base_moves[base];
        if b.directed {
            return Err(format!(
                "`{}` turns one way only (`noinverse`): an adjusting turn must have its inverse",
                b.name
            ));
        }
        Ok(Auf {
            base,
            name: b.name.clone(),
            powers: b
                .powers
                .iter()
                .map(|&m| puzzle.mv(m).name.clone())
                .collect(),
            effects: b
                .powers
                .iter()
                .map(|&m| puzzle.mv(m).effect.clone())
                .collect(),
            order: b.powers.len() + 1,
        })
    }

    /// Power `j` (0 ..= order-1) of the move, as a transformation.
    fn power(&self, puzzle: &Puzzle, j: usize) -> Transform {
        match j {
            0 => Transform::identity(&puzzle.sets),
            _ => puzzle
                .mv(puzzle.base_moves[self.base].powers[j - 1])
                .effect
                .clone(),
        }
    }

    /// `goal` (or the definition's solved state) widened to every position a power of
    /// the move makes from one of its positions: position `i * order + j` is original
    /// position `i` followed by power `j`.
    pub fn goal(&self, puzzle: &Puzzle, goal: Option<&Goal>) -> Goal {
        let originals: Vec<GoalPosition> = match goal {
            Some(g) => g.positions.clone(),
            None => Goal::solved(puzzle, "solved").positions,
        };
        let mut positions = Vec::with_capacity(originals.len() * self.order);
        for p in &originals {
            for j in 0..self.order {
                let m = self.power(puzzle, j);
                let state = p.target.state.then(&m, &puzzle.sets);
                let ignore = p
                    .target
                    .ignore
                    .iter()
                    .enumerate()
                    .map(|(k, mask)| {
                        let perm = &m.sets[k].perm;
                        // After the move, position `i` holds what stood at `perm[i]`,
                        // and whatever that position left free is free here.
                        IgnoreMask {
                            perm: (0..mask.perm.len())
                                .map(|i| mask.perm[perm[i] as usize])
                                .collect(),
                            ori: (0..mask.ori.len())
                                .map(|i| mask.ori[perm[i] as usize])
                                .collect(),
                        }
                    })
                    .collect();
                let name = match j {
                    0 => p.name.clone(),
                    _ => format!("{} {}", p.name, self.powers[j - 1]),
                };
                positions.push(GoalPosition {
                    name,
                    target: Target { state, ignore },
                    line: p.line,
                    // A class moves with its positions, as a free position does.
                    classes: p
                        .classes
                        .iter()
                        .enumerate()
                        .map(|(k, c)| {
                            let perm = &m.sets[k].perm;
                            (0..c.len()).map(|i| c[perm[i] as usize]).collect()
                        })
                        .collect(),
                });
            }
        }
        Goal::new(positions)
    }

    /// Whether `seq` is a shorter solution followed by a turn of the move (perhaps with
    /// moves that commute with it after that turn): the shorter one is printed instead.
    /// `puzzle` may be narrowed to fewer moves than the one the move was found in; one
    /// without the move has no solution that ends in it.
    pub fn dominated(&self, puzzle: &Puzzle, seq: &[MoveId]) -> bool {
        self.turn_first(puzzle, seq.iter().rev())
    }

    /// Whether the first of `moves` that does not commute with the move is a turn of
    /// it.
    fn turn_first<'a>(&self, puzzle: &Puzzle, moves: impl Iterator<Item = &'a MoveId>) -> bool {
        let Some(base) = puzzle.base_by_name(&self.name) else {
            return false;
        };
        for &m in moves {
            let b = puzzle.mv(m).base;
            if b == base {
                return true;
            }
            if !puzzle.commute(b, base) {
                return false;
            }
        }
        false
    }

    /// `start` after each power of the move (`j = 0` first: `start` itself), the
    /// positions `--pre-auf` solves a case from.
    pub fn variants(&self, puzzle: &Puzzle, start: &super::State) -> Vec<super::State> {
        std::iter::once(start.clone())
            .chain(self.effects.iter().map(|e| start.then(e, &puzzle.sets)))
            .collect()
    }

    /// Whether `seq` starts with a turn of the move (perhaps after moves that commute
    /// with it): the rest solves another variant ([`Auf::variants`]) in fewer moves.
    pub fn pre_dominated(&self, puzzle: &Puzzle, seq: &[MoveId]) -> bool {
        self.turn_first(puzzle, seq.iter())
    }

    /// The turn before variant `j` ([`Auf::variants`]), `None` for the case itself.
    pub fn before(&self, j: usize) -> Option<&str> {
        (j != 0).then(|| self.powers[j - 1].as_str())
    }

    /// The turn a solution ending on position `reached` of [`Auf::goal`] still needs:
    /// `None` when it ends on an original goal position.
    pub fn needed(&self, reached: usize) -> Option<&str> {
        let j = reached % self.order;
        (j != 0).then(|| self.powers[self.order - j - 1].as_str())
    }
}
