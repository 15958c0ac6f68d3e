//! `ForbiddenPairs` and `ForbiddenGroups`: their move names resolved, once the puzzle's
//! moves (powers, sequences and aliases included) are all known, into the pairs of moves
//! that may not follow each other.

use super::lex::{Line, Source};
use super::names::MoveNames;
use crate::located::{DefError, ErrorKind};
use crate::puzzle::{MoveId, Puzzle};

fn invalid(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Invalid(msg.into())
}

/// The pairs (first, then forbidden second) that the blocks ask for; each block is a
/// flag (true for `ForbiddenGroups`) and its rows.
pub(crate) fn forbidden_pairs(
    src: &Source,
    puzzle: &Puzzle,
    forbidden: &[(bool, Vec<Line>)],
) -> Result<Vec<(MoveId, MoveId)>, DefError> {
    let mut pairs: Vec<(MoveId, MoveId)> = Vec::new();
    let names = MoveNames::new(puzzle);
    for (groups, rows) in forbidden {
        for row in rows {
            let ids = (0..row.toks.len())
                .map(|t| names.resolve(src, row, t))
                .collect::<Result<Vec<MoveId>, DefError>>()?;
            if *groups {
                // A group names each move once however often the line repeats it,
                // which keeps the pairs at most quadratic in the number of moves
                // rather than in the length of the line.
                let mut seen = vec![false; puzzle.moves.len()];
                let distinct: Vec<MoveId> = ids
                    .into_iter()
                    .filter(|id| !std::mem::replace(&mut seen[id.index()], true))
                    .collect();
                for &a in &distinct {
                    for &b in &distinct {
                        pairs.push((a, b));
                    }
                }
            } else {
                if ids.len() != 2 {
                    return Err(src.err(
                        row,
                        2.min(ids.len()),
                        invalid(format!(
                            "{} move names in a ForbiddenPairs line: expected two, `FIRST SECOND` (SECOND may not follow FIRST)",
                            ids.len()
                        )),
                    ));
                }
                pairs.push((ids[0], ids[1]));
            }
        }
    }
    Ok(pairs)
}
