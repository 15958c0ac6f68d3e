//! Looking up sets and moves by name. Files name them over and over (a million-move
//! `ScrambleAlg`, a scramble listing tens of thousands of sets), so every lookup is a
//! hash-map probe rather than a scan of the definition's names.

use super::lex::{Line, Source};
use crate::located::{DefError, ErrorKind};
use crate::puzzle::moves::known_moves;
use crate::puzzle::{MoveId, Puzzle, SetDef};
use std::collections::HashMap;

/// The set names, for messages.
pub(crate) fn known_sets(sets: &[SetDef]) -> String {
    let names: Vec<&str> = sets.iter().map(|s| s.name.as_str()).collect();
    if names.is_empty() {
        "none declared yet".into()
    } else {
        names.join(", ")
    }
}

/// Index of a set by name; `Err` with the message for an unknown one.
pub(crate) fn set_index(
    src: &Source,
    names: &HashMap<String, usize>,
    sets: &[SetDef],
    line: &Line,
) -> Result<usize, DefError> {
    let name = line.first();
    names.get(name).copied().ok_or_else(|| {
        src.err(
            line,
            0,
            ErrorKind::UnknownSet {
                found: name.to_string(),
                known: known_sets(sets),
            },
        )
    })
}

/// The names of a puzzle's sets, to their indices.
pub(crate) fn set_names(puzzle: &Puzzle) -> HashMap<String, usize> {
    let mut out = HashMap::with_capacity(puzzle.sets.len());
    for (k, s) in puzzle.sets.iter().enumerate() {
        out.entry(s.name.clone()).or_insert(k);
    }
    out
}

/// The moves of a puzzle (powers included) by name, for ForbiddenPairs, ScrambleAlg and
/// MoveLimits.
pub(crate) struct MoveNames<'p> {
    puzzle: &'p Puzzle,
    ids: HashMap<&'p str, MoveId>,
    bases: HashMap<&'p str, usize>,
}

impl<'p> MoveNames<'p> {
    pub(crate) fn new(puzzle: &'p Puzzle) -> MoveNames<'p> {
        let mut ids = HashMap::with_capacity(puzzle.moves.len());
        for (i, m) in puzzle.moves.iter().enumerate() {
            // The first move of a name wins, as in `Puzzle::move_by_name`; the definition
            // reader refuses names given twice anyway.
            ids.entry(m.name.as_str()).or_insert(MoveId(i as u16));
        }
        for (name, id) in &puzzle.aliases {
            ids.entry(name.as_str()).or_insert(*id);
        }
        let mut bases = HashMap::with_capacity(puzzle.base_moves.len());
        for (b, m) in puzzle.base_moves.iter().enumerate() {
            bases.entry(m.name.as_str()).or_insert(b);
        }
        MoveNames { puzzle, ids, bases }
    }

    /// The base move of this name (for `BASE*` in MoveLimits); another name for a move
    /// (`MoveAlias`, a KPuzzle's derived move) names its base move, as it does in
    /// `--moves`.
    pub(crate) fn base(&self, name: &str) -> Option<usize> {
        self.bases.get(name).copied().or_else(|| {
            let alias = self.puzzle.aliases.iter().find(|(a, _)| a == name)?;
            Some(self.puzzle.mv(alias.1).base)
        })
    }

    /// Word `tok` of `line` as a move.
    pub(crate) fn resolve(
        &self,
        src: &Source,
        line: &Line,
        tok: usize,
    ) -> Result<MoveId, DefError> {
        let name = line.toks[tok].s.as_str();
        self.ids.get(name).copied().ok_or_else(|| {
            if name == "End" {
                src.err(
                    line,
                    tok,
                    ErrorKind::Invalid(
                        "`End` after moves on the same line: expected `End` alone on its line"
                            .into(),
                    ),
                )
            } else {
                src.err(
                    line,
                    tok,
                    ErrorKind::UnknownMove {
                        found: name.to_string(),
                        known: known_moves(self.puzzle),
                    },
                )
            }
        })
    }
}
