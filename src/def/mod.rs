//! Reading ksolve+ definition (`.def`) and scramble files into the puzzle model, and
//! writing puzzles and positions back out.
//!
//! Reading has three layers: `lex` (nom) turns bytes into meaningful lines of words,
//! `syntax` groups them into commands and `... End` bodies, and `definition` /
//! `scramble` check their meaning and build a [`Puzzle`] or [`Scramble`]s. Every
//! refusal is a [`DefError`] naming the file, line and column; nothing here panics on
//! any input, prints, or exits.
//!
//! Beyond ksolve+: `Move NAME noinverse` defines a directed move (no powers are
//! generated; see [`crate::puzzle::BaseMove::directed`]), and a `Stickers ... End` block
//! gives the puzzle's sticker map (see `stickers` and [`crate::sticker`]). Sliding-block
//! puzzles add `When` lines in a `Move` (a guard), `Require` lines and `?N` entries in
//! `Solved` (a goal that is a set of positions); see `guard`.
//!
//! twsearch's `.tws` files (and PuzzleGeometry's) read too: move names may start with a
//! digit (`2F`), `StartState` / `MoveTransformation` / `ScrambleState` are numbered from
//! 0, and `MoveAlias` / `MoveSequence` are expanded by `twsearch`; `Illegal` is
//! refused by name.

mod costs;
mod definition;
mod forbidden;
mod guard;
mod lex;
mod names;
mod print;
mod scramble;
mod stickers;
mod syntax;
mod twsearch;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod twsearch_tests;

pub use crate::located::{DefError, ErrorKind, Warning};
pub use print::{format_state, write_def};

use crate::puzzle::{Puzzle, Scramble};
use crate::storage::fsutil::{read_regular, MAX_INPUT_BYTES};
use std::path::Path;

/// The largest set: labels are `u16`.
pub const MAX_SET_SIZE: usize = u16::MAX as usize;
/// The most pieces over all sets, which bounds the memory a definition can ask for.
pub const MAX_POSITIONS: usize = u16::MAX as usize;
/// The most orientations a piece may have: two orientations below this add up without
/// overflowing a `u8`.
pub const MAX_ORIENTATIONS: usize = 128;
/// The most moves, powers included: the forbidden-pair table is quadratic in it.
pub const MAX_MOVES: usize = 4096;
/// The most move entries (moves, powers included, times pieces over all sets): every
/// move is stored whole, so this bounds the memory a definition can ask for. A
/// 7x7x7 cube needs about 25,000.
pub const MAX_MOVE_ENTRIES: usize = 1 << 24;

/// Parses a definition file held in memory; `file` names it in messages.
pub fn parse_puzzle(bytes: &[u8], file: &str) -> Result<(Puzzle, Vec<Warning>), DefError> {
    let src = lex::Source {
        file: file.to_string(),
    };
    definition::build(syntax::Reader::new(bytes, &src, "definition"))
}

/// Parses a scramble file held in memory against its puzzle.
pub fn parse_scrambles(
    bytes: &[u8],
    file: &str,
    puzzle: &Puzzle,
) -> Result<Vec<Scramble>, DefError> {
    let src = lex::Source {
        file: file.to_string(),
    };
    scramble::build(syntax::Reader::new(bytes, &src, "scramble"), puzzle)
}

/// Reads a definition or scramble file's bytes. Only a regular file is read (a
/// directory, device or named pipe is refused before it is opened), and at most
/// [`MAX_INPUT_BYTES`](crate::storage::fsutil::MAX_INPUT_BYTES) of it.
pub fn read_file(path: &Path) -> Result<Vec<u8>, DefError> {
    read_regular(path, MAX_INPUT_BYTES).map_err(|e| DefError::io(&path.display().to_string(), &e))
}

/// Reads (see [`read_file`]) and parses a definition file.
pub fn load_puzzle(path: impl AsRef<Path>) -> Result<(Puzzle, Vec<Warning>), DefError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let bytes = read_file(path)?;
    parse_puzzle(&bytes, &name)
}

/// Reads (see [`read_file`]) and parses a scramble file against its puzzle.
pub fn load_scrambles(path: impl AsRef<Path>, puzzle: &Puzzle) -> Result<Vec<Scramble>, DefError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let bytes = read_file(path)?;
    parse_scrambles(&bytes, &name, puzzle)
}
