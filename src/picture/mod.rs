//! How a position looks: the one place that decides which picture a puzzle gets, so
//! that `show`, `solve --steps`, `play` and the Python package draw alike.
//!
//! [`text`] and [`svg`] take a puzzle, a state and a [`Look`] (colour or not, and the
//! user's own colour letters). A definition with a `Board` block is
//! drawn as its grid of cells ([`board`]); one with a `Stickers` block as its net
//! ([`crate::sticker::draw`]); any other as ksolve+ prints positions (text only).
//!
//! ```
//! use ksolve::def::parse_puzzle;
//! let text = "Set Cells 4 1\nSolved\nCells\n1 2 3 4\nEnd\n\
//!             Move S\nCells\n2 1 3 4\nEnd\nBoard Cells 2 2\nTiles A B C .\nEnd\n";
//! let (puzzle, _) = parse_puzzle(text.as_bytes(), "board.def").unwrap();
//! let drawn = ksolve::picture::text(&puzzle, &puzzle.solved, &Default::default());
//! assert!(drawn.contains("│ A │ B │"));
//! ```

pub mod board;

use crate::def::format_state;
use crate::puzzle::{Puzzle, State};
use crate::sticker::draw;
use crate::sticker::lettering::Lettering;

/// How a picture is drawn, beyond the position.
#[derive(Clone, Debug, Default)]
pub struct Look {
    /// Draw a net's stickers on their colours (ANSI).
    pub ansi: bool,
    /// The letters a user typed for the faces, shown instead of the faces' names.
    pub lettering: Option<Lettering>,
}

/// The picture of `state` as text.
pub fn text(puzzle: &Puzzle, state: &State, look: &Look) -> String {
    if let Some(b) = &puzzle.board {
        return board::text(b, &state.sets[b.set].perm);
    }
    match &puzzle.stickers {
        Some(map) => {
            let faces = map.colours(&puzzle.sets, state);
            draw::text(map, &faces, &shown(&faces, look), look.ansi)
        }
        None => format_state(puzzle, state),
    }
}

/// The picture of `state` as SVG, when the definition says how it looks (a board or a
/// sticker map).
pub fn svg(puzzle: &Puzzle, state: &State, look: &Look) -> Option<String> {
    if let Some(b) = &puzzle.board {
        return Some(board::svg(b, &state.sets[b.set].perm));
    }
    let map = puzzle.stickers.as_ref()?;
    let faces = map.colours(&puzzle.sets, state);
    Some(draw::svg(map, &faces, &shown(&faces, look)))
}

/// The letters the stickers show: the faces' names, or the user's letters for them.
fn shown(faces: &[char], look: &Look) -> Vec<char> {
    match &look.lettering {
        Some(l) => faces.iter().map(|&f| l.letter(f)).collect(),
        None => faces.to_vec(),
    }
}
