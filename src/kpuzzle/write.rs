//! Writing a puzzle as a KPuzzle definition, which [`super::read_definition`] reads back
//! to the same puzzle: sets as orbits, the solved state as `defaultPattern`, base moves in their order as `moves`, and aliases as `derivedMoves`. What KPuzzle
//! cannot say (guards, blocks, directed moves, costs, forbidden pairs, ignore masks
//! (which only allow a scramble's `?`, where an `orientationMod` changes the goal), goals that are sets, searched moves, the sticker map, the board) goes into
//! the `"ksolve"` extension object (see `ext`), which cubing.js ignores; a puzzle
//! without any of it is written without the object.
//!
//! The JSON is written by hand rather than through a map, because a KPuzzle's moves are
//! an object whose order is the order ksolve searches them in. The written file is read
//! back before it is handed out, and a puzzle that would read back different (one built
//! by hand, whose name or aliases no reader makes) is refused with the first difference
//! named, so that an export never describes another puzzle.

use super::ext::write_extension;
use super::json::{list, quote};
use crate::puzzle::Puzzle;
use std::fmt::Write;

/// Why a puzzle cannot be written as a KPuzzle.
#[derive(Debug, thiserror::Error)]
#[error("this puzzle cannot be written as a KPuzzle that reads back the same: {0}")]
pub struct ExportError(pub String);

/// A written KPuzzle definition.
pub struct Export {
    pub json: String,
}

/// Writes `puzzle` as KPuzzle JSON, or says why the JSON would not read back to it.
pub fn write_definition(puzzle: &Puzzle) -> Result<Export, ExportError> {
    let json = write_json(puzzle);
    match super::read_definition(json.as_bytes(), "the written KPuzzle") {
        Ok((back, _)) if back == *puzzle => Ok(Export { json }),
        Ok((back, _)) => Err(ExportError(first_difference(puzzle, &back))),
        Err(e) => Err(ExportError(format!("the written JSON is refused: {e}"))),
    }
}

/// The first part, in words, in which `back` differs from `puzzle`.
fn first_difference(puzzle: &Puzzle, back: &Puzzle) -> String {
    let parts: [(&str, bool); 12] = [
        ("the name", puzzle.name == back.name),
        ("the sets", puzzle.sets == back.sets),
        ("the solved state", puzzle.solved == back.solved),
        (
            "the moves",
            puzzle.base_moves == back.base_moves && puzzle.moves == back.moves,
        ),
        ("the aliases", puzzle.aliases == back.aliases),
        ("the ignore masks", puzzle.ignore == back.ignore),
        ("the blocks", puzzle.blocks == back.blocks),
        ("the forbidden pairs", puzzle.forbidden == back.forbidden),
        ("the guards", puzzle.guards == back.guards),
        (
            "the goal",
            puzzle.free == back.free
                && puzzle.known_mod == back.known_mod
                && puzzle.rules == back.rules,
        ),
        ("the searched moves", puzzle.searched == back.searched),
        ("the board", puzzle.board == back.board),
    ];
    match parts.iter().find(|(_, same)| !same) {
        Some((what, _)) => format!("{what} would read back different"),
        None => "the sticker map would read back different".to_string(),
    }
}

/// The KPuzzle JSON of `puzzle`, with the extension object when it needs one.
fn write_json(puzzle: &Puzzle) -> String {
    let mut out = String::from("{\n");
    // cubing.js requires a name; an empty one reads back as none.
    let name = puzzle.name.as_deref().unwrap_or("");
    let _ = writeln!(out, "  \"name\": {},", quote(name));
    let orbits = puzzle.sets.iter().map(|set| {
        format!(
            "    {{ \"orbitName\": {}, \"numPieces\": {}, \"numOrientations\": {} }}",
            quote(&set.name),
            set.size,
            set.orientations
        )
    });
    let _ = write!(out, "  \"orbits\": [\n{}\n  ],\n", lines(orbits));
    let pattern =
        puzzle
            .sets
            .iter()
            .zip(&puzzle.solved.sets)
            .enumerate()
            .map(|(k, (set, state))| {
                // Orientations the goal knows only modulo a divisor are cubing.js's own
                // `orientationMod` (0 where known exactly).
                let n = set.orientations.max(1);
                let mods: Vec<u8> = (0..set.size)
                    .map(|i| match puzzle.ori_modulus(k, i) {
                        m if m == n => 0,
                        m => m,
                    })
                    .collect();
                let modulo = match mods.iter().any(|&m| m != 0) {
                    true => format!(", \"orientationMod\": {}", list(&mods)),
                    false => String::new(),
                };
                format!(
                    "    {}: {{ \"pieces\": {}, \"orientation\": {}{modulo} }}",
                    quote(&set.name),
                    list(&state.perm),
                    list(&state.ori)
                )
            });
    let _ = write!(out, "  \"defaultPattern\": {{\n{}\n  }},\n", lines(pattern));
    let moves = puzzle.base_moves.iter().map(|base| {
        let effect = &puzzle.mv(base.powers[0]).effect;
        let orbits = puzzle.sets.iter().zip(&effect.sets).map(|(set, s)| {
            format!(
                "      {}: {{ \"permutation\": {}, \"orientationDelta\": {} }}",
                quote(&set.name),
                list(&s.perm),
                list(&s.ori)
            )
        });
        format!("    {}: {{\n{}\n    }}", quote(&base.name), lines(orbits))
    });
    let _ = write!(out, "  \"moves\": {{\n{}\n  }}", lines(moves));
    let roots = puzzle.alias_roots();
    if !roots.is_empty() {
        let derived = roots
            .iter()
            .map(|(name, id)| format!("    {}: {}", quote(name), quote(&puzzle.mv(*id).name)));
        let _ = write!(out, ",\n  \"derivedMoves\": {{\n{}\n  }}", lines(derived));
    }
    if let Some(ext) = write_extension(puzzle) {
        let _ = write!(out, ",\n{ext}");
    }
    out.push_str("\n}\n");
    out
}

/// JSON entries, one per line, separated by commas.
fn lines(entries: impl Iterator<Item = String>) -> String {
    entries.collect::<Vec<_>>().join(",\n")
}
