//! Uniform random positions of puzzles whose reachable positions are no group question
//! (guarded moves, goals that are sets): the hash-set breadth-first search lists every
//! position that can reach the goal, and a draw picks one of them uniformly.

use super::{compute, GodError, GodOptions, Method, MoveInfo};
use crate::keys::Packer;
use crate::progress::Progress;
use crate::puzzle::{Metric, Puzzle, State};
use crate::rng::Rng;

/// Every position that can reach the goal, packed.
pub struct Reachable {
    packer: Packer,
    keys: Vec<u128>,
}

impl Reachable {
    /// Lists the positions within `memory` bytes, or says why it cannot.
    pub fn new(
        puzzle: &Puzzle,
        memory: u64,
        progress: &dyn Progress,
    ) -> Result<Reachable, GodError> {
        let opts = GodOptions {
            antipodes: 0,
            memory,
            keep_distances: true,
            method: Method::Hashed,
            ..GodOptions::default()
        };
        let table = compute(puzzle, &opts, progress, &|_, _| {})?;
        let keys = table
            .into_key_distances()
            .ok_or(GodError::Internal("the hash-set search kept no keys"))?
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        let info = MoveInfo::new(puzzle, Metric::Htm);
        Ok(Reachable {
            packer: Packer::new(puzzle, &info.transforms, &info.base_of)?,
            keys,
        })
    }

    /// How many positions there are to draw from.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are none (never, since the goal itself is listed).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// One of the positions, uniformly.
    pub fn draw(&self, rng: &mut Rng) -> State {
        let i = rng.below(self.keys.len() as u64) as usize;
        self.packer.state(self.keys[i])
    }
}
