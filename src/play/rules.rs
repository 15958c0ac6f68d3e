//! The game rules of a session: the move limits in force (Rotate's one swap per game)
//! counted over the moves made so far, and the level scramble (`scramble N`), which
//! makes N random moves backwards from the goal so that N of the player's moves always
//! undo it, even where moves are directed (Rotate turns clockwise only).

use crate::puzzle::{MoveId, MoveLimit, Puzzle, State, Transform};
use crate::rng::Rng;

/// One limit with what is left of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allowance {
    /// The moves the limit names, as the scramble file wrote them.
    pub names: String,
    pub max: u32,
    pub used: u32,
}

impl Allowance {
    pub fn left(&self) -> u32 {
        self.max.saturating_sub(self.used)
    }
}

/// The names a limit covers, for messages (`SA SB SC`; a family as `F*`).
pub fn limit_names(puzzle: &Puzzle, limit: &MoveLimit) -> String {
    limit
        .keys
        .iter()
        .map(|k| match k {
            crate::puzzle::LimitKey::Move(m) => puzzle.mv(*m).name.clone(),
            crate::puzzle::LimitKey::Family(b) => format!("{}*", puzzle.base_moves[*b].name),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Each limit of `limits` with the moves of `history` it has counted.
pub fn allowances(puzzle: &Puzzle, limits: &[MoveLimit], history: &[MoveId]) -> Vec<Allowance> {
    limits
        .iter()
        .map(|l| Allowance {
            names: limit_names(puzzle, l),
            max: l.max,
            used: history.iter().filter(|&&m| l.matches(puzzle, m)).count() as u32,
        })
        .collect()
}

/// The limits with what `history` used taken off, for a search from here.
pub fn remaining(puzzle: &Puzzle, limits: &[MoveLimit], history: &[MoveId]) -> Vec<MoveLimit> {
    limits
        .iter()
        .zip(allowances(puzzle, limits, history))
        .map(|(l, a)| MoveLimit {
            keys: l.keys.clone(),
            max: a.left(),
        })
        .collect()
}

/// Why `m` may not be made under `limits`, given what each has counted so far
/// (`allowances`, one per limit), if it may not.
pub fn refusal(
    puzzle: &Puzzle,
    limits: &[MoveLimit],
    allowances: &[Allowance],
    m: MoveId,
) -> Option<String> {
    limits
        .iter()
        .zip(allowances)
        .find(|(l, a)| l.matches(puzzle, m) && a.left() == 0)
        .map(|(l, a)| {
            let shared = if l.keys.len() > 1 {
                format!("the moves {} share a limit of {}", a.names, a.max)
            } else {
                format!("{} is limited to {}", a.names, a.max)
            };
            let times = if a.max == 1 { "" } else { "s" };
            if a.max == 0 {
                format!("move `{}` is refused: {shared}", puzzle.mv(m).name)
            } else {
                format!(
                    "move `{}` is refused: {shared} per game, and {} move{times} of them \
                     {} been made",
                    puzzle.mv(m).name,
                    a.used,
                    if a.used == 1 { "has" } else { "have" }
                )
            }
        })
}

/// A level-`n` scramble: `n` random moves made backwards from `goal`, each the inverse
/// of a move the player may make (no move any limit names, so the player's allowance is
/// untouched; a move whose `Block`s and guards allow it in the position it undoes).
/// Returns the position and the player's moves that undo it, in order. The same base
/// move is not drawn twice in a row where another is possible, so that the moves do
/// not merge into fewer, nor one that goes straight back to the position before.
pub fn level_scramble(
    puzzle: &Puzzle,
    limits: &[MoveLimit],
    goal: &State,
    n: usize,
    rng: &mut Rng,
) -> (State, Vec<MoveId>) {
    let free: Vec<MoveId> = (0..puzzle.moves.len())
        .map(|m| MoveId(m as u16))
        .filter(|&m| !limits.iter().any(|l| l.matches(puzzle, m)))
        .collect();
    let inverses: Vec<Transform> = puzzle
        .moves
        .iter()
        .map(|m| m.effect.inverse(&puzzle.sets))
        .collect();
    let mut state = goal.clone();
    let mut previous: Option<State> = None;
    let mut undo: Vec<MoveId> = Vec::with_capacity(n);
    let mut choices: Vec<(MoveId, State)> = Vec::with_capacity(free.len());
    for _ in 0..n {
        choices.clear();
        for &m in &free {
            let before = state.then(&inverses[m.index()], &puzzle.sets);
            if puzzle.block_allows(&before, m) {
                choices.push((m, before));
            }
        }
        // Neither the last move's base again nor a step straight back to the position
        // before (a sliding piece pushed back), where anything else is possible.
        let last = undo.last().map(|&m| puzzle.mv(m).base);
        let fresh = |(m, before): &(MoveId, State)| {
            Some(puzzle.mv(*m).base) != last && previous.as_ref() != Some(before)
        };
        if choices.iter().any(fresh) {
            choices.retain(fresh);
        }
        if choices.is_empty() {
            break;
        }
        let k = rng.below(choices.len() as u64) as usize;
        let (m, before) = choices.swap_remove(k);
        previous = Some(std::mem::replace(&mut state, before));
        undo.push(m);
    }
    // The moves were drawn from the goal backwards; the player makes them forwards.
    undo.reverse();
    (state, undo)
}
