//! How a position looks: the one place that decides which picture a puzzle gets, so
//! that `show`, `solve --steps`, `play` and the Python package draw alike.
//!
//! [`text`] and [`svg`] take a puzzle and a state. A definition with a `Board` block is
//! drawn as its grid of cells ([`board`]); one with a `Stickers` block as its net
//! ([`crate::sticker::draw`]); any other as ksolve+ prints positions (text only).
//!
//! ```
//! use ksolve::def::parse_puzzle;
//! let text = "Set Cells 4 1\nSolved\nCells\n1 2 3 4\nEnd\n\
//!             Move S\nCells\n2 1 3 4\nEnd\nBoard Cells 2 2\nTiles A B C .\nEnd\n";
//! let (puzzle, _) = parse_puzzle(text.as_bytes(), "board.def").unwrap();
//! let drawn = ksolve::picture::text(&puzzle, &puzzle.solved, false);
//! assert!(drawn.contains("│ A │ B │"));
//! ```

pub mod board;

use crate::def::format_state;
use crate::puzzle::{Puzzle, State};
use crate::sticker::draw;

/// The picture of `state` as text; `ansi` draws a net's stickers in colour.
pub fn text(puzzle: &Puzzle, state: &State, ansi: bool) -> String {
    if let Some(b) = &puzzle.board {
        return board::text(b, &state.sets[b.set].perm);
    }
    match &puzzle.stickers {
        Some(map) => draw::text(map, &map.colours(&puzzle.sets, state), ansi),
        None => format_state(puzzle, state),
    }
}

/// The picture of `state` as SVG, when the definition says how it looks (a board or a
/// sticker map).
pub fn svg(puzzle: &Puzzle, state: &State) -> Option<String> {
    if let Some(b) = &puzzle.board {
        return Some(board::svg(b, &state.sets[b.set].perm));
    }
    let map = puzzle.stickers.as_ref()?;
    Some(draw::svg(map, &map.colours(&puzzle.sets, state)))
}
