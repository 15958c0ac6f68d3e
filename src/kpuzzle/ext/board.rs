//! The extension's board (`board`, ksolve+'s `Board ... End`): one set drawn as a grid
//! of cells, read row by row, with how each label is drawn and which neighbouring
//! labels make one piece. It changes nothing about how the puzzle moves.
//!
//! ```text
//! "board": { "orbit": "Cells", "columns": 4, "rows": 5,
//!            "tiles": [".", "-", "A"],                       per label: empty, plain, text
//!            "joins": [{ "first": 2, "second": 3, "side": "down" }] }
//! ```
//!
//! Labels count from 0, as the rest of a KPuzzle; `tiles` and `joins` are optional. A
//! tile's text is checked as ksolve+'s `Tiles` word is (at most [`MAX_TILE_TEXT`]
//! printable characters, no blank), so that the board prints as a definition too.

use super::{object_of, orbit, Ext};
use crate::kpuzzle::json::{get, Doc};
use crate::located::DefError;
use crate::puzzle::board::{Board, Join, Side, Tile};
use crate::puzzle::limits::MAX_TILE_TEXT;
use crate::puzzle::Puzzle;
use jsonc_parser::ast::Value;

/// Reads `board` into the assembled puzzle.
pub(super) fn read(doc: &Doc<'_>, ext: &Ext<'_, '_>, puzzle: &mut Puzzle) -> Result<(), DefError> {
    let Some(v) = ext.get("board") else {
        return Ok(());
    };
    const FORM: &str = "a board (`orbit`, `columns`, `rows`, maybe `tiles` and `joins`)";
    let known = ["orbit", "columns", "rows", "tiles", "joins"];
    let o = object_of(doc, v, FORM, &known)?;
    let set = orbit(doc, doc.field(o, "orbit", FORM)?, &puzzle.sets)?;
    let size = puzzle.sets[set].size;
    let dimension = |name: &str| -> Result<u16, DefError> {
        let d = doc.field(o, name, FORM)?;
        let what = format!("the board's {name}, a divisor of {size}");
        match doc.number(d, &what, size as u64)? {
            n if n >= 1 && size.is_multiple_of(n as usize) => Ok(n as u16),
            n => Err(doc.err(
                doc.at(d),
                format!("{n} {name}: expected a divisor of {size}, the size of the board's orbit"),
            )),
        }
    };
    let columns = dimension("columns")?;
    let rows = dimension("rows")?;
    if columns as usize * rows as usize != size {
        return Err(doc.err(
            doc.at(v),
            format!(
                "{columns} columns of {rows} rows make {} cells: expected {size}, the size of the board's orbit",
                columns as usize * rows as usize
            ),
        ));
    }
    let mut tiles = Vec::new();
    if let Some(list) = get(o, "tiles") {
        let a = doc.array(list, "the tiles, one per label")?;
        if a.elements.len() > size {
            return Err(doc.err(
                doc.at(list),
                format!(
                    "{} tiles: expected at most one per label, {size}",
                    a.elements.len()
                ),
            ));
        }
        for e in &a.elements {
            tiles.push(tile(doc, e)?);
        }
    }
    let mut joins = Vec::new();
    if let Some(list) = get(o, "joins") {
        let a = doc.array(list, "the joins of neighbouring labels")?;
        for e in &a.elements {
            const JOIN: &str = "a join (`first`, `second`, `side`)";
            let j = object_of(doc, e, JOIN, &["first", "second", "side"])?;
            let label = |name: &str| -> Result<u16, DefError> {
                let what = format!("a label from 0 to {}", size - 1);
                Ok(doc.number(doc.field(j, name, JOIN)?, &what, size as u64 - 1)? as u16)
            };
            let (first, second) = (label("first")?, label("second")?);
            let side_v = doc.field(j, "side", JOIN)?;
            let side = match doc.string(side_v, "a side")? {
                "right" => Side::Right,
                "down" => Side::Down,
                other => {
                    return Err(doc.err(
                        doc.at(side_v),
                        format!("`{other}`: expected `right` or `down`, where the second label lies from the first"),
                    ))
                }
            };
            joins.push(Join {
                first,
                second,
                side,
            });
        }
    }
    puzzle.board = Some(Board {
        set,
        columns,
        rows,
        tiles,
        joins,
    });
    Ok(())
}

/// One tile: `"."` empty, `"-"` plain, else the text the label shows.
fn tile(doc: &Doc<'_>, v: &Value<'_>) -> Result<Tile, DefError> {
    Ok(match doc.string(v, "a tile")? {
        "." => Tile::Empty,
        "-" => Tile::Plain,
        text if text.is_empty()
            || text.chars().count() > MAX_TILE_TEXT
            || text.chars().any(|c| c.is_control() || c.is_whitespace()) =>
        {
            return Err(doc.err(
                doc.at(v),
                format!("{text:?} as a tile's text: expected from 1 to {MAX_TILE_TEXT} printable characters without blanks"),
            ))
        }
        text => Tile::Text(text.to_string()),
    })
}

/// The board as the extension writes it, one line.
pub fn write(puzzle: &Puzzle, board: &Board) -> String {
    use crate::kpuzzle::json::quote;
    let mut out = format!(
        "{{ \"orbit\": {}, \"columns\": {}, \"rows\": {}",
        quote(&puzzle.sets[board.set].name),
        board.columns,
        board.rows
    );
    if !board.tiles.is_empty() {
        let tiles: Vec<String> = board
            .tiles
            .iter()
            .map(|t| match t {
                Tile::Empty => quote("."),
                Tile::Plain => quote("-"),
                Tile::Text(text) => quote(text),
            })
            .collect();
        out.push_str(&format!(", \"tiles\": [{}]", tiles.join(", ")));
    }
    if !board.joins.is_empty() {
        let joins: Vec<String> = board
            .joins
            .iter()
            .map(|j| {
                format!(
                    "{{ \"first\": {}, \"second\": {}, \"side\": {} }}",
                    j.first,
                    j.second,
                    quote(j.side.word())
                )
            })
            .collect();
        out.push_str(&format!(", \"joins\": [{}]", joins.join(", ")));
    }
    out.push_str(" }");
    out
}
