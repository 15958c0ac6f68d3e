//! The `Board ... End` block, our extension to the definition language: a set drawn as
//! a grid of cells, as sliding puzzles and Rotate are played.
//!
//! ```text
//! Board Cells 4 5        # set, columns, rows: the set's positions row by row
//! Tiles . - - - - - - - - -   # per label: `.` empty, `-` a plain tile, else its text
//! Join 3 4 down          # a 3 with a 4 below it is one piece (no wall between)
//! End
//! ```
//!
//! Both kinds of body line are optional: without `Tiles` every label shows its number.
//! ksolve+ has no such command, so no ksolve+ file reads differently. The block is read
//! once the sets are known, and only changes how positions are drawn.

use super::lex::{Line, Source};
use super::names::known_sets;
use crate::located::{DefError, ErrorKind};
use crate::puzzle::board::{Board, Join, Side, Tile};
use crate::puzzle::Puzzle;

fn invalid(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Invalid(msg.into())
}

// The widest text a tile may show belongs to the model, which every reader holds
// boards to.
use crate::puzzle::limits::MAX_TILE_TEXT;

/// A label (1-based in the file) at word `t`, checked against the set's size.
fn label(src: &Source, line: &Line, t: usize, size: usize) -> Result<u16, DefError> {
    let word = &line.toks[t].s;
    match word.parse::<usize>() {
        Ok(v) if (1..=size).contains(&v) => Ok(v as u16 - 1),
        _ => Err(src.err(
            line,
            t,
            invalid(format!(
                "`{word}` in a `Join` line: expected a label from 1 to {size}"
            )),
        )),
    }
}

/// Reads the block into the puzzle's board.
pub(crate) fn read(
    src: &Source,
    puzzle: &Puzzle,
    opener: &Line,
    rows: &[Line],
) -> Result<Board, DefError> {
    const FORM: &str = "`Board SET COLUMNS ROWS`";
    if opener.toks.len() != 4 {
        let at = opener.toks.len().min(4);
        return Err(src.err(
            opener,
            at,
            invalid(format!(
                "{} words in a `Board` line: expected {FORM}",
                opener.toks.len()
            )),
        ));
    }
    let set_word = &opener.toks[1].s;
    let Some(set) = puzzle.set_by_name(set_word) else {
        return Err(src.err(
            opener,
            1,
            ErrorKind::UnknownSet {
                found: set_word.to_string(),
                known: known_sets(&puzzle.sets),
            },
        ));
    };
    let size = puzzle.sets[set].size;
    let dimension = |t: usize, what: &str| -> Result<u16, DefError> {
        let word = &opener.toks[t].s;
        match word.parse::<u16>() {
            Ok(v) if v >= 1 && size.is_multiple_of(v as usize) => Ok(v),
            _ => Err(src.err(
                opener,
                t,
                invalid(format!(
                    "`{word}` {what}: expected a divisor of {size}, the size of {set_word}"
                )),
            )),
        }
    };
    let columns = dimension(2, "columns")?;
    let rows_n = dimension(3, "rows")?;
    if columns as usize * rows_n as usize != size {
        return Err(src.err(
            opener,
            3,
            invalid(format!(
                "{columns} columns of {rows_n} rows make {} cells: expected {size}, the size of {set_word}",
                columns as usize * rows_n as usize
            )),
        ));
    }
    let mut tiles: Option<Vec<Tile>> = None;
    let mut joins = Vec::new();
    for line in rows {
        match line.first() {
            "Tiles" => {
                if tiles.is_some() {
                    return Err(src.err(
                        line,
                        0,
                        invalid("a second `Tiles` line: expected one per board"),
                    ));
                }
                let words = &line.toks[1..];
                if words.is_empty() || words.len() > size {
                    return Err(src.err(
                        line,
                        words.len().min(size) + 1,
                        invalid(format!(
                            "{} words in a `Tiles` line: expected one per label, from 1 to {size}",
                            words.len()
                        )),
                    ));
                }
                let mut list = Vec::new();
                for (i, w) in words.iter().enumerate() {
                    list.push(match w.s.as_str() {
                        "." => Tile::Empty,
                        "-" => Tile::Plain,
                        text if text.chars().count() > MAX_TILE_TEXT
                            || text.chars().any(char::is_control) =>
                        {
                            return Err(src.err(
                                line,
                                i + 1,
                                invalid(format!(
                                    "`{text}` as a tile's text: expected at most {MAX_TILE_TEXT} printable characters"
                                )),
                            ))
                        }
                        text => Tile::Text(text.to_string()),
                    });
                }
                tiles = Some(list);
            }
            "Join" => {
                if line.toks.len() != 4 {
                    return Err(src.err(
                        line,
                        line.toks.len().min(4),
                        invalid("expected `Join FIRST SECOND right` or `Join FIRST SECOND down`"),
                    ));
                }
                let first = label(src, line, 1, size)?;
                let second = label(src, line, 2, size)?;
                let side = match line.toks[3].s.as_str() {
                    "right" => Side::Right,
                    "down" => Side::Down,
                    other => {
                        return Err(src.err(
                            line,
                            3,
                            invalid(format!(
                                "`{other}`: expected `right` or `down`, where the second label lies from the first"
                            )),
                        ))
                    }
                };
                joins.push(Join {
                    first,
                    second,
                    side,
                });
            }
            other => {
                return Err(src.err(
                    line,
                    0,
                    invalid(format!(
                        "`{other}` in a `Board` block: expected `Tiles`, `Join` or `End`"
                    )),
                ))
            }
        }
    }
    Ok(Board {
        set,
        columns,
        rows: rows_n,
        tiles: tiles.unwrap_or_default(),
        joins,
    })
}
