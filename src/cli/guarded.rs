//! `ksolve check` on puzzles with guarded moves (`When`) or a goal that is a set of
//! positions. Which positions are reachable is then no group question (the group of
//! the moves ignores their guards and only bounds the answer), so it is counted by the
//! hash-set breadth-first search from the goal, when that fits a small budget, and
//! scramble positions are looked up in the distances it finds.

use ksolve::gods::database::Database;
use ksolve::gods::{self, GodOptions, Method};
use ksolve::progress::Silent;
use ksolve::puzzle::{Puzzle, Scramble, ScrambleSource};

/// The budget for counting (about 1.4 million positions): `check` stays quick, so
/// larger puzzles go uncounted.
const COUNT_BUDGET: u64 = 64 << 20;

/// What the note under "Reachable positions" says for these puzzles.
pub const NOTE: &str = "the moves are guarded, so which positions are reachable is not a \
    group question: counted by breadth-first search from the goal (the positions that can \
    reach it)";

/// The distances from the goal, or why they were not computed.
pub fn count(puzzle: &Puzzle) -> Result<Database, String> {
    let opts = GodOptions {
        antipodes: 0,
        memory: COUNT_BUDGET,
        keep_distances: true,
        method: Method::Hashed,
        ..GodOptions::default()
    };
    let table = gods::compute(puzzle, &opts, &Silent, &|_, _| {}).map_err(|e| e.to_string())?;
    Database::in_memory("the count", puzzle, &table).map_err(|e| e.to_string())
}

/// Whether a scramble's position can reach the goal, and why not.
pub fn status(
    puzzle: &Puzzle,
    db: Option<&Database>,
    s: &Scramble,
) -> (&'static str, Option<String>) {
    let ScrambleSource::Position(t) = &s.source else {
        // Algorithms are checked move by move against the guards when read, and random
        // scrambles are drawn among positions that can reach the goal.
        return ("reachable", None);
    };
    if !puzzle.well_formed(&t.state) {
        return (
            "unreachable",
            Some("the position breaks a `Require` rule of the definition".into()),
        );
    }
    if t.has_ignores() {
        return ("unknown", None);
    }
    match db.map(|db| db.distance(&t.state)) {
        Some(Some(_)) => ("reachable", None),
        Some(None) => (
            "unreachable",
            Some("no sequence of moves takes it to the goal".into()),
        ),
        None => ("unknown", None),
    }
}
