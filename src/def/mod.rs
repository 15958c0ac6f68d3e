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

mod board;
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

use crate::puzzle::{Goal, Puzzle, Scramble};
use crate::storage::fsutil::{read_regular, MAX_INPUT_BYTES};
use std::path::Path;

// The size limits belong to the model, which every reader (this one and `kpuzzle`)
// holds input to; they keep their first names here.
pub use crate::puzzle::limits::{
    MAX_MOVES, MAX_MOVE_ENTRIES, MAX_ORIENTATIONS, MAX_POSITIONS, MAX_SET_SIZE,
};

/// Parses a definition file held in memory; `file` names it in messages.
/// A KPuzzle JSON definition (cubing.js's format) is read by [`crate::kpuzzle`].
pub fn parse_puzzle(bytes: &[u8], file: &str) -> Result<(Puzzle, Vec<Warning>), DefError> {
    if crate::kpuzzle::is_json(bytes) {
        return crate::kpuzzle::read_definition(bytes, file);
    }
    let src = lex::Source {
        file: file.to_string(),
    };
    definition::build(syntax::Reader::new(bytes, &src, "definition"))
}

/// Parses a scramble file held in memory against its puzzle. A KPattern JSON file
/// (cubing.js's pattern format) is one position, named after the file.
pub fn parse_scrambles(
    bytes: &[u8],
    file: &str,
    puzzle: &Puzzle,
) -> Result<Vec<Scramble>, DefError> {
    if crate::kpuzzle::is_json(bytes) {
        let stem = Path::new(file)
            .file_name()
            .and_then(|n| n.to_str())
            .map_or("pattern", |n| n.split('.').next().unwrap_or(n));
        return crate::kpuzzle::read_pattern(bytes, file, stem, puzzle).map(|s| vec![s]);
    }
    let src = lex::Source {
        file: file.to_string(),
    };
    scramble::build(syntax::Reader::new(bytes, &src, "scramble"), puzzle)
}

/// Parses a goal file (`--goal`): `Goal` and `GoalAlg` blocks, together one goal.
pub fn parse_goal(bytes: &[u8], file: &str, puzzle: &Puzzle) -> Result<Goal, DefError> {
    let src = lex::Source {
        file: file.to_string(),
    };
    scramble::build_goal(syntax::Reader::new(bytes, &src, "goal"), puzzle)
}

/// Reads (see [`read_file`]) and parses a goal file against its puzzle.
pub fn load_goal(path: impl AsRef<Path>, puzzle: &Puzzle) -> Result<Goal, DefError> {
    let path = path.as_ref();
    let bytes = read_file(path)?;
    parse_goal(&bytes, &path.display().to_string(), puzzle)
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
