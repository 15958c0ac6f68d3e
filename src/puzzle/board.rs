//! A definition's board: one set whose positions are the cells of a rectangular grid,
//! read row by row from the top left, as a sliding puzzle's or Rotate's. It says how a
//! position looks (our `Board ... End` block); it changes nothing about how the puzzle
//! moves or is solved. Drawing it stays above the model, in `picture`.
//!
//! Each label of the set is drawn as a [`Tile`]: its number by default, a word of the
//! definition's choosing, a plain tile, or nothing (the 15-puzzle's blank). A piece that
//! covers several cells (a Klotski bar) is written as one label per cell, and a
//! [`Join`] says which neighbouring labels belong to one piece, so that the picture
//! draws no wall between them.

/// How the piece with one label is drawn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// No piece: an empty cell (written `.`).
    Empty,
    /// A piece without text (written `-`): its outline is what tells it.
    Plain,
    /// A piece showing this text.
    Text(String),
}

/// Where the second cell of a [`Join`] lies from the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Right,
    Down,
}

impl Side {
    /// The word the definition writes.
    pub fn word(self) -> &'static str {
        match self {
            Side::Right => "right",
            Side::Down => "down",
        }
    }
}

/// Two labels that make one piece where the second lies on `side` of the first
/// (labels 0-based, as in [`super::SetState::perm`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Join {
    pub first: u16,
    pub second: u16,
    pub side: Side,
}

/// A validated board: `columns × rows` equals the size of set `set`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub set: usize,
    pub columns: u16,
    pub rows: u16,
    /// Per label (0-based), how it is drawn; labels beyond the list show their number.
    pub tiles: Vec<Tile>,
    pub joins: Vec<Join>,
}

impl Board {
    /// How the piece labelled `label` (0-based) is drawn.
    pub fn tile(&self, label: u16) -> Tile {
        self.tiles
            .get(label as usize)
            .cloned()
            .unwrap_or_else(|| Tile::Text((label + 1).to_string()))
    }

    /// Whether a cell holding `first` and its neighbour on `side` holding `second` are
    /// one piece.
    pub fn joined(&self, first: u16, second: u16, side: Side) -> bool {
        self.joins
            .iter()
            .any(|j| j.first == first && j.second == second && j.side == side)
    }
}
