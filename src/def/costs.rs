//! `MoveCosts`, a ksolve extension to the definition: a weight per move for the search.
//! Each row is `MOVE N` (one power) or `BASE* N` (the move and all its powers); rows
//! apply in file order, so `R* 2` then `R2 3` weighs R and R' 2 and R2 3. Moves without
//! a row weigh 1, which keeps every ksolve+ file's meaning.

use super::definition::number_in;
use super::lex::{Line, Source};
use super::names::MoveNames;
use crate::located::{DefError, ErrorKind};
use crate::puzzle::{MoveId, Puzzle};

// The largest weight belongs to the model, which every reader holds costs to.
use crate::puzzle::limits::MAX_WEIGHT;

/// Sets the weights the `MoveCosts` rows give.
pub(crate) fn apply(src: &Source, puzzle: &mut Puzzle, rows: &[Line]) -> Result<(), DefError> {
    if rows.is_empty() {
        return Ok(());
    }
    let mut weights: Vec<(Vec<MoveId>, u32)> = Vec::with_capacity(rows.len());
    {
        let names = MoveNames::new(puzzle);
        for row in rows {
            if row.toks.len() != 2 {
                return Err(src.err(
                    row,
                    2.min(row.toks.len()),
                    ErrorKind::Invalid(format!(
                        "{} words in a MoveCosts line: expected `MOVE COST` or `MOVE* COST`",
                        row.toks.len()
                    )),
                ));
            }
            let name = &row.toks[0].s;
            let moves = match name.strip_suffix('*') {
                Some(base) => match names.base(base) {
                    Some(b) => puzzle.base_moves[b].powers.clone(),
                    None => {
                        let known: Vec<&str> =
                            puzzle.base_moves.iter().map(|m| m.name.as_str()).collect();
                        return Err(src.err(
                            row,
                            0,
                            ErrorKind::UnknownMove {
                                found: name.clone(),
                                known: format!(
                                    "`*` follows a move of the definition: {}",
                                    known.join(" ")
                                ),
                            },
                        ));
                    }
                },
                None => vec![names.resolve(src, row, 0)?],
            };
            let w = number_in(
                src,
                row,
                1,
                0,
                MAX_WEIGHT,
                "a cost: a whole number from 0 to 100",
            )? as u32;
            weights.push((moves, w));
        }
    }
    for (moves, w) in weights {
        for m in moves {
            puzzle.moves[m.index()].weight = w;
        }
    }
    Ok(())
}
