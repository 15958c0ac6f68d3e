//! [`Starts`]: the position each scramble asks about. A position given piece by piece
//! is taken as it is, an algorithm is applied to the solved state, and a random scramble
//! is drawn uniformly from the reachable positions: from the group's cosets, or, with
//! guarded moves or a goal that is a set of positions (which the group does not see),
//! from the positions a breadth-first search lists (a random walk when they are too
//! many to list, with a warning).

use super::reach::{Origin, Reachability};
use crate::gods::sample::Reachable;
use crate::progress::Progress;
use crate::puzzle::{IgnoreMask, Puzzle, Scramble, ScrambleSource, State};
use crate::rng::Rng;
use crate::search::random::{random_position, random_state, WALK_STEPS};

/// The position a scramble asks about.
#[derive(Clone, Debug)]
pub struct Start {
    /// The position.
    pub state: State,
    /// What it leaves free, per set (empty: nothing).
    pub ignore: Vec<IgnoreMask>,
    /// Whether it was given or made by moves.
    pub origin: Origin,
    /// Why a position typed as colours is none at all.
    pub impossible: Option<String>,
}

impl Start {
    /// The position to answer, borrowed.
    pub fn position(&self) -> super::Position<'_> {
        super::Position {
            start: &self.state,
            ignore: &self.ignore,
            origin: self.origin,
            impossible: self.impossible.as_deref(),
        }
    }
}

/// Turns scrambles into positions; keeps the list of reachable positions of a guarded
/// puzzle once made.
pub struct Starts<'p> {
    puzzle: &'p Puzzle,
    /// Bytes the list of reachable positions may take.
    memory: u64,
    /// The list, once tried (`None` inside: it could not be made).
    listed: Option<Option<Reachable>>,
}

impl<'p> Starts<'p> {
    /// Starts for `puzzle`, listing reachable positions within `memory` bytes when a
    /// random scramble needs them.
    pub fn new(puzzle: &'p Puzzle, memory: u64) -> Starts<'p> {
        Starts {
            puzzle,
            memory,
            listed: None,
        }
    }

    /// The position `scramble` asks about; a random one is drawn from `rng` (the group
    /// of `reach` gives uniform draws).
    pub fn start(
        &mut self,
        scramble: &Scramble,
        reach: &mut Reachability<'_>,
        rng: &mut Rng,
        progress: &dyn Progress,
    ) -> Start {
        let puzzle = self.puzzle;
        let made = |state| Start {
            state,
            ignore: Vec::new(),
            origin: Origin::Made,
            impossible: None,
        };
        match &scramble.source {
            ScrambleSource::Position(t) => Start {
                state: t.state.clone(),
                ignore: t.ignore.clone(),
                origin: Origin::Given,
                impossible: None,
            },
            ScrambleSource::Alg(moves) => made(puzzle.apply_sequence(&puzzle.solved, moves)),
            ScrambleSource::Random if puzzle.has_guards() || puzzle.goal_is_set() => {
                let memory = self.memory;
                let list = self.listed.get_or_insert_with(|| {
                    match Reachable::new(puzzle, memory, progress) {
                        Ok(r) => {
                            progress.warn(&format!(
                                "random positions are drawn uniformly from the {} positions \
                                 that can reach the goal",
                                r.len()
                            ));
                            Some(r)
                        }
                        Err(e) => {
                            progress.warn(&format!(
                                "the positions that can reach the goal cannot be listed ({e}); \
                                 random positions are {WALK_STEPS} random moves from the goal \
                                 instead, not uniform"
                            ));
                            None
                        }
                    }
                });
                made(match list {
                    Some(r) => r.draw(rng),
                    None => random_state(puzzle, rng),
                })
            }
            ScrambleSource::Random => made(random_position(puzzle, reach.group(), rng)),
            ScrambleSource::Impossible(why) => Start {
                state: puzzle.solved.clone(),
                ignore: Vec::new(),
                origin: Origin::Given,
                impossible: Some(why.clone()),
            },
        }
    }
}
