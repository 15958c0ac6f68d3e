//! Writing a puzzle as a KPuzzle definition, which [`super::read_definition`] reads back
//! to the same puzzle: sets as orbits, the solved state as `defaultPattern` (a set
//! whose orientations the definition ignores everywhere gets an `orientationMod` of 1),
//! base moves in their order as `moves`, and aliases as `derivedMoves`. What KPuzzle
//! cannot say (guards, blocks, directed moves, costs, forbidden pairs, ignored pieces,
//! goals that are sets) is refused with its name rather than dropped, since the file
//! would describe another puzzle; the sticker map, which only draws positions, is left
//! out and said so.
//!
//! The JSON is written by hand rather than through a map, because a KPuzzle's moves are
//! an object whose order is the order ksolve searches them in.

use crate::puzzle::Puzzle;
use std::fmt::Write;

/// Why a puzzle cannot be written as a KPuzzle.
#[derive(Debug, thiserror::Error)]
#[error(
    "this puzzle cannot be written as a KPuzzle: it has {0}, which KPuzzle JSON cannot express"
)]
pub struct ExportError(pub String);

/// A written KPuzzle definition and what it leaves out.
pub struct Export {
    pub json: String,
    /// Parts of the definition the JSON does not carry, in words (the sticker map).
    pub left_out: Vec<String>,
}

/// Writes `puzzle` as KPuzzle JSON, or says which of its features KPuzzle cannot hold.
pub fn write_definition(puzzle: &Puzzle) -> Result<Export, ExportError> {
    refuse_what_kpuzzle_cannot_say(puzzle)?;
    let mut out = String::from("{\n");
    if let Some(name) = &puzzle.name {
        let _ = writeln!(out, "  \"name\": {},", quote(name));
    }
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
            .map(|(i, (set, state))| {
                // Orientations ignored at every position are known modulo 1.
                let modulus = match ori_ignored(puzzle, i) {
                    true => format!(", \"orientationMod\": {}", list(&vec![1u8; set.size])),
                    false => String::new(),
                };
                format!(
                    "    {}: {{ \"pieces\": {}, \"orientation\": {}{modulus} }}",
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
    out.push_str("\n}\n");
    let mut left_out = Vec::new();
    if puzzle.stickers.is_some() {
        left_out
            .push("the sticker map (`Stickers`), which KPuzzle JSON has no place for".to_string());
    }
    if puzzle.unsearched().next().is_some() {
        left_out.push(
            "which moves searches use (`SearchMoves`): a KPuzzle's searches use every move"
                .to_string(),
        );
    }
    Ok(Export {
        json: out,
        left_out,
    })
}

/// The first feature of `puzzle`, in words, that a KPuzzle cannot express.
fn refuse_what_kpuzzle_cannot_say(puzzle: &Puzzle) -> Result<(), ExportError> {
    let refuse = |what: &str| Err(ExportError(what.to_string()));
    // Guards and blocks first: a sliding puzzle's moves are one-way because they are
    // guarded, and the guard is what the file would lose.
    if puzzle.has_guards() {
        return refuse("guarded moves (`When`)");
    }
    if !puzzle.blocks.is_empty() {
        return refuse("blocks (`Block`)");
    }
    if let Some(b) = puzzle.base_moves.iter().find(|b| b.directed) {
        return refuse(&format!(
            "a move that cannot be undone (`{}`, `noinverse`)",
            b.name
        ));
    }
    if puzzle.has_weights() {
        return refuse("move costs (`MoveCosts`)");
    }
    if puzzle.forbidden.iter().any(|&f| f) {
        return refuse("forbidden move pairs (`ForbiddenPairs`, `ForbiddenGroups`)");
    }
    if puzzle.free.iter().flatten().any(|&f| f) || !puzzle.rules.is_empty() {
        return refuse("a goal that is a set of positions (`?N` in `Solved`, `Require`)");
    }
    for (i, mask) in puzzle.ignore.iter().enumerate() {
        if mask.perm.iter().any(|&b| b) {
            return refuse(&format!(
                "ignored pieces in set `{}` (`Ignore`)",
                puzzle.sets[i].name
            ));
        }
        if mask.ori.iter().any(|&b| b) && !ori_ignored(puzzle, i) {
            return refuse(&format!(
                "orientations ignored at some positions of set `{}` only (`Ignore`)",
                puzzle.sets[i].name
            ));
        }
    }
    Ok(())
}

/// Whether the definition ignores the orientation of every position of set `set`.
fn ori_ignored(puzzle: &Puzzle, set: usize) -> bool {
    puzzle
        .ignore
        .get(set)
        .is_some_and(|m| !m.ori.is_empty() && m.ori.iter().all(|&b| b))
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// JSON entries, one per line, separated by commas.
fn lines(entries: impl Iterator<Item = String>) -> String {
    entries.collect::<Vec<_>>().join(",\n")
}

fn list<T: std::fmt::Display>(values: &[T]) -> String {
    let items: Vec<String> = values.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(", "))
}
