//! The extension's word on what the search may do: bandaged pieces (`blocks`, ksolve+'s
//! `Block`), pairs of moves that may not follow each other (`forbiddenPairs`), move
//! costs (`moveCosts`) and the moves searches use (`searchMoves`).
//!
//! Moves are named as anywhere else (a power or a derived move names the move it is),
//! resolved through one table of names so that a long list costs one probe a name.

use super::{find_orbit, Ext};
use crate::alg::MoveNames;
use crate::kpuzzle::json::{props, unique, Doc};
use crate::located::{DefError, Warning};
use crate::puzzle::limits::MAX_WEIGHT;
use crate::puzzle::{Block, MoveId, Puzzle};
use jsonc_parser::ast::Value;

/// Reads `blocks`, `forbiddenPairs`, `moveCosts` and `searchMoves` into the assembled
/// puzzle; a block of fewer than two pieces is warned about, as ksolve+'s reader does.
pub(super) fn read(
    doc: &Doc<'_>,
    ext: &Ext<'_, '_>,
    puzzle: &mut Puzzle,
    warnings: &mut Vec<Warning>,
) -> Result<(), DefError> {
    if let Some(v) = ext.get("blocks") {
        let list = doc.array(v, "the blocks of bandaged pieces")?;
        for e in &list.elements {
            let block = block(doc, e, puzzle)?;
            if block.pieces.len() < 2 {
                warnings.push(Warning {
                    file: doc.file.to_string(),
                    line: doc.place(doc.at(e)).0,
                    message: "this block joins fewer than two pieces, so it constrains nothing"
                        .to_string(),
                });
            }
            puzzle.blocks.push(block);
        }
    }
    let mut pairs = Vec::new();
    let mut weights = Vec::new();
    let mut searched = None;
    {
        let names = MoveNames::new(puzzle);
        let resolve = |v: &Value<'_>| -> Result<MoveId, DefError> {
            let name = doc.string(v, "a move's name")?;
            names
                .get(name)
                .ok_or_else(|| unknown_move(doc, puzzle, name, doc.at(v)))
        };
        if let Some(v) = ext.get("forbiddenPairs") {
            let list = doc.array(v, "the pairs of moves that may not follow each other")?;
            for e in &list.elements {
                let pair = doc.array(e, "a pair of moves, `[FIRST, SECOND]`")?;
                if pair.elements.len() != 2 {
                    return Err(doc.err(
                        doc.at(e),
                        format!(
                            "{} moves in a forbidden pair: expected two, `[FIRST, SECOND]` (SECOND may not follow FIRST)",
                            pair.elements.len()
                        ),
                    ));
                }
                pairs.push((resolve(&pair.elements[0])?, resolve(&pair.elements[1])?));
            }
        }
        if let Some(v) = ext.get("moveCosts") {
            let o = doc.object(v, "the moves' costs, by move")?;
            unique(doc, o, "move")?;
            for (name, at, w) in props(o) {
                let m = names
                    .get(name)
                    .ok_or_else(|| unknown_move(doc, puzzle, name, at))?;
                let w = doc.number(w, "a cost", MAX_WEIGHT)? as u32;
                weights.push((m, w));
            }
        }
        if let Some(v) = ext.get("searchMoves") {
            let list = doc.array(v, "the moves searches use, by name")?;
            let mut s = vec![false; puzzle.base_moves.len()];
            for e in &list.elements {
                s[puzzle.mv(resolve(e)?).base] = true;
            }
            searched = Some(s);
        }
    }
    for (a, b) in pairs {
        puzzle.forbid(a, b);
    }
    for (m, w) in weights {
        puzzle.moves[m.index()].weight = w;
    }
    if let Some(s) = searched {
        puzzle.searched = s;
    }
    Ok(())
}

/// One block: `{ ORBIT: [PIECE, ...], ... }`, each orbit once, each piece once.
fn block(doc: &Doc<'_>, v: &Value<'_>, puzzle: &Puzzle) -> Result<Block, DefError> {
    let o = doc.object(v, "a block: the pieces bandaged together, by orbit")?;
    unique(doc, o, "orbit")?;
    let mut pieces = Vec::new();
    for (name, at, list) in props(o) {
        let k = find_orbit(doc, name, at, &puzzle.sets)?;
        let set = &puzzle.sets[k];
        let list = doc.array(list, &format!("pieces of orbit `{name}`"))?;
        let mut seen = vec![false; set.size];
        for e in &list.elements {
            let p = doc.number(
                e,
                &format!("a piece of orbit `{name}`"),
                set.size as u64 - 1,
            )?;
            if std::mem::replace(&mut seen[p as usize], true) {
                return Err(doc.err(
                    doc.at(e),
                    format!(
                        "piece {p} of orbit `{name}` is listed twice: expected each piece once"
                    ),
                ));
            }
            pieces.push((k, p as u16));
        }
    }
    Ok(Block { pieces })
}

fn unknown_move(doc: &Doc<'_>, puzzle: &Puzzle, name: &str, at: usize) -> DefError {
    let known: Vec<&str> = puzzle.base_moves.iter().map(|b| b.name.as_str()).collect();
    doc.err(
        at,
        format!(
            "`{name}` is not a move of the definition: expected a move, a power or a derived move of {}",
            known.join(", ")
        ),
    )
}
