//! cubing.js's puzzle formats: KPuzzle definitions (`*.kpuzzle.json`, the format of
//! Twizzle and twips) read into the model and written from it, and KPattern JSON read
//! as a position to solve.
//!
//! [`read_definition`] turns a KPuzzle into a [`Puzzle`] (orbits as sets, moves as
//! base moves in file order, derived moves as aliases or moves of their own; see
//! `read.rs` for each rule), [`write_definition`] writes a puzzle back, what KPuzzle
//! cannot express in the `"ksolve"` extension object that cubing.js ignores (see
//! `ext`), and [`read_pattern`] reads a KPattern as a [`Scramble`].
//! Every refusal is a [`DefError`] at the file, line and column of the offending JSON
//! value, with the line quoted, as the ksolve+ reader reports. `def` hands a definition
//! or scramble file here when its first character opens a JSON object, so every command
//! that reads a definition reads a KPuzzle too.
//!
//! ```
//! let json = br#"{
//!   "name": "two swaps",
//!   "orbits": [{ "orbitName": "P", "numPieces": 3, "numOrientations": 1 }],
//!   "defaultPattern": { "P": { "pieces": [0, 1, 2], "orientation": [0, 0, 0] } },
//!   "moves": {
//!     "A": { "P": { "permutation": [1, 0, 2], "orientationDelta": [0, 0, 0] } },
//!     "B": { "P": { "permutation": [0, 2, 1], "orientationDelta": [0, 0, 0] } }
//!   },
//!   "derivedMoves": { "C": "[A: B]" }
//! }"#;
//! let (puzzle, _warnings) = ksolve::kpuzzle::read_definition(json, "swaps.kpuzzle.json").unwrap();
//! assert_eq!(puzzle.base_moves.len(), 3);
//! let again = ksolve::kpuzzle::write_definition(&puzzle).unwrap();
//! let (back, _) = ksolve::kpuzzle::read_definition(again.json.as_bytes(), "again").unwrap();
//! assert_eq!(back, puzzle);
//! ```

mod ext;
mod json;
mod pattern;
mod read;
mod write;

#[cfg(test)]
mod tests;

pub use pattern::read_pattern;
pub use read::read_definition;
pub use write::{write_definition, Export, ExportError};

#[cfg(doc)]
use crate::located::DefError;
#[cfg(doc)]
use crate::puzzle::{Puzzle, Scramble};

/// Whether `bytes` hold JSON rather than ksolve+ text: the first character that is not
/// blank (after a byte-order mark) opens an object. No ksolve+ or twsearch file starts
/// so, since a command word does.
pub fn is_json(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{')
}
