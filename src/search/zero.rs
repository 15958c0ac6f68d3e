//! Moves of cost 0 (`MoveCosts` weight 0). IDA* bounds a search by cost, so a path of
//! free moves could grow without end; instead the search allows at most
//! [`longest_run`] free moves in a row. Any run of free moves is some element of the
//! group they generate, and every element is a product of at most that many of them
//! (the depth of a breadth-first walk of the group from the identity), so no cheapest
//! solution is lost. The same run could be written shorter with other free moves, so
//! a `MoveLimits` or `Block` that singles out some free moves is honoured on the path
//! the search takes, but a run it forbids is not replaced by a longer one.

use super::SearchError;
use crate::puzzle::{Puzzle, Transform};
use std::collections::HashSet;

/// The most arrangements the free moves may generate.
pub const MAX_ZERO_GROUP: usize = 1 << 16;

/// The longest run of free moves a search needs: the depth of a breadth-first walk
/// from the identity over the free moves; 0 when no move is free.
pub fn longest_run(puzzle: &Puzzle) -> Result<u32, SearchError> {
    let free: Vec<&Transform> = puzzle
        .moves
        .iter()
        .filter(|m| m.weight == 0)
        .map(|m| &m.effect)
        .collect();
    if free.is_empty() {
        return Ok(0);
    }
    let id = Transform::identity(&puzzle.sets);
    let mut seen: HashSet<Transform> = HashSet::from([id.clone()]);
    let mut layer = vec![id];
    let mut depth = 0;
    while !layer.is_empty() {
        let mut next = Vec::new();
        for t in &layer {
            for m in &free {
                let u = t.then(m, &puzzle.sets);
                if !seen.contains(&u) {
                    if seen.len() >= MAX_ZERO_GROUP {
                        let names: Vec<&str> = puzzle
                            .moves
                            .iter()
                            .filter(|m| m.weight == 0)
                            .map(|m| m.name.as_str())
                            .collect();
                        return Err(SearchError::ZeroCostGroup {
                            moves: names.join(" "),
                            limit: MAX_ZERO_GROUP,
                        });
                    }
                    seen.insert(u.clone());
                    next.push(u);
                }
            }
        }
        if !next.is_empty() {
            depth += 1;
        }
        layer = next;
    }
    Ok(depth)
}
