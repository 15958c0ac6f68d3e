//! Macros of a play session: named move sequences, as Block Buster's `PROG: NAME moves
//! :END` programmed them.
//!
//! A macro is stored as the moves it stood for when it was defined (and the text it was
//! typed as), so a macro that uses an earlier one keeps its meaning when the earlier one
//! is redefined or forgotten, and a saved file reads back the same in any order. Macros
//! keep the order they were defined in: `forget NAME` forgets NAME and every macro
//! defined after it, as Block Buster did, and redefining a name moves it to the end.
//!
//! In a line of moves, a word (delimited by blanks and the notation's brackets, commas
//! and colons) that is a macro's name, optionally followed by a repeat count and a `'`,
//! stands for the macro's moves in parentheses; [`Macros::substitute`] rewrites the line
//! for the algorithm parser and keeps, per character, the column it came from so that
//! errors point into the line as typed.

use crate::puzzle::{MoveId, Puzzle};

/// The longest expansion a macro may have, in moves: a macro is text the parser reads
/// again at every use, so it is kept to a size a line of moves can sensibly hold.
pub const MAX_MACRO_MOVES: usize = 10_000;

/// How a macro file `save` writes begins; only a file that begins so is replaced.
pub const HEADER: &str = "# Macros for ";

/// One macro: its name, the moves it stands for and how it was typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Macro {
    pub name: String,
    pub moves: Vec<MoveId>,
    pub typed: String,
}

/// The macros of a session, in the order they were defined.
#[derive(Clone, Debug, Default)]
pub struct Macros {
    list: Vec<Macro>,
}

/// What defining a macro replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Defined {
    New,
    /// The name was in use; the old macro's moves, for the warning.
    Replaced(Vec<MoveId>),
}

/// Whether `name` may name a macro: a letter, then letters, digits or `_`.
pub fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Characters that end a word of a move line besides blanks: the notation's brackets,
/// separators and the inverse mark.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']' | ',' | ':')
}

impl Macros {
    /// Every macro, in the order defined.
    pub fn iter(&self) -> impl Iterator<Item = &Macro> {
        self.list.iter()
    }

    /// The macro called `name`.
    pub fn get(&self, name: &str) -> Option<&Macro> {
        self.list.iter().find(|m| m.name == name)
    }

    /// Defines (or redefines, moving it to the end) `name` as `moves`.
    pub fn define(&mut self, name: &str, moves: Vec<MoveId>, typed: &str) -> Defined {
        let old = self.list.iter().position(|m| m.name == name);
        let defined = match old {
            Some(i) => Defined::Replaced(self.list.remove(i).moves),
            None => Defined::New,
        };
        self.list.push(Macro {
            name: name.to_string(),
            moves,
            typed: typed.trim().to_string(),
        });
        defined
    }

    /// Forgets `name` and every macro defined after it; returns the names forgotten
    /// (empty when there is no such macro).
    pub fn forget(&mut self, name: &str) -> Vec<String> {
        match self.list.iter().position(|m| m.name == name) {
            Some(i) => self.list.drain(i..).map(|m| m.name).collect(),
            None => Vec::new(),
        }
    }

    /// The macro a word stands for, and what follows its name (a repeat count and an
    /// optional `'`), when the word is a macro's name with such a tail.
    fn split_word<'w>(&self, word: &'w str) -> Option<(&Macro, &'w str)> {
        if let Some(m) = self.get(word) {
            return Some((m, ""));
        }
        let body = word.strip_suffix('\'').unwrap_or(word);
        let name = body.trim_end_matches(|c: char| c.is_ascii_digit());
        let m = self.get(name)?;
        Some((m, &word[name.len()..]))
    }

    /// `line` with every word that names a macro replaced by the macro's moves in
    /// parentheses (a word that is a move's name stays the move), and for each
    /// character of the result the 1-based column of `line` it comes from. `Ok(None)`
    /// when no word names a macro.
    ///
    /// `Err(n)` as soon as the macros replaced so far stand for `n` > `cap` moves: the
    /// line would expand past the cap anyway, and stopping here keeps a line of a
    /// thousand uses of a long macro from being written out as text first.
    pub fn substitute(
        &self,
        puzzle: &Puzzle,
        line: &str,
        cap: usize,
        is_move: impl Fn(&str) -> bool,
    ) -> Result<Option<(String, Vec<usize>)>, usize> {
        if self.list.is_empty() {
            return Ok(None);
        }
        let mut substituted = 0usize;
        let chars: Vec<char> = line.chars().collect();
        let mut out = String::with_capacity(line.len());
        let mut cols = Vec::with_capacity(line.len());
        let mut found = false;
        let mut i = 0;
        while i < chars.len() {
            if is_delimiter(chars[i]) {
                out.push(chars[i]);
                cols.push(i + 1);
                i += 1;
                continue;
            }
            let start = i;
            while i < chars.len() && !is_delimiter(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let hit = if is_move(&word) {
                None
            } else {
                self.split_word(&word)
            };
            let kept = hit.is_none();
            let text = match hit {
                Some((m, tail)) => {
                    found = true;
                    substituted = substituted.saturating_add(m.moves.len());
                    if substituted > cap {
                        return Err(substituted);
                    }
                    format!("({}){tail}", puzzle.format_sequence(&m.moves))
                }
                None => word.clone(),
            };
            // Every character of a replacement points at the start of the word it
            // replaces; a word kept as it is keeps its own columns.
            for (k, c) in text.chars().enumerate() {
                out.push(c);
                cols.push(if kept { start + k + 1 } else { start + 1 });
            }
        }
        Ok(found.then_some((out, cols)))
    }

    /// The macros as the text `save` writes: a comment, then one `def NAME MOVES` line
    /// per macro in the order defined, with the moves written out so that the file
    /// reads back the same whatever it was defined from.
    pub fn to_text(&self, puzzle: &Puzzle, def_name: &str) -> String {
        let mut out = format!(
            "{HEADER}{def_name}, saved by `ksolve play`: one `def NAME MOVES` per line, \
             in the order they were defined.\n"
        );
        for m in &self.list {
            out.push_str(&format!(
                "def {} {}\n",
                m.name,
                puzzle.format_sequence(&m.moves)
            ));
        }
        out
    }
}
