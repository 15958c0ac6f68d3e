//! The macro commands of a session (`def`, `list`, `forget`, `save`) and reading the
//! macro file at the start.

use super::{plural, Session};
use crate::def::{DefError, ErrorKind};
use crate::play::command::{self, Command, WORDS};
use crate::play::macros::{self, Defined, MAX_MACRO_MOVES};
use crate::play::{PlayError, Reply};

impl Session<'_> {
    pub(super) fn define(
        &mut self,
        name: &str,
        moves_at: usize,
        line: &str,
        file: &str,
        line_no: usize,
    ) -> Result<Reply, PlayError> {
        if !macros::valid_name(name) {
            return Err(PlayError::Refused(format!(
                "`{name}` cannot name a macro: expected a letter, then letters, digits or `_`"
            )));
        }
        if self.names.get(name).is_some() || WORDS.contains(&name) {
            return Err(PlayError::Refused(format!(
                "`{name}` is a {}: a macro needs a name of its own",
                if WORDS.contains(&name) {
                    "command"
                } else {
                    "move"
                }
            )));
        }
        let (moves, _) = self.parse_moves(file, line_no, line, moves_at)?;
        if moves.len() > MAX_MACRO_MOVES {
            return Err(PlayError::Refused(format!(
                "`{name}` would stand for {} moves: expected at most {MAX_MACRO_MOVES}",
                moves.len()
            )));
        }
        let typed: String = line.chars().skip(moves_at - 1).collect();
        let text = self.puzzle.format_sequence(&moves);
        let n = moves.len();
        let mut reply = Reply::say(format!("Defined {name}: {text} ({n} move{}).", plural(n)));
        if let Defined::Replaced(old) = self.macros.define(name, moves, &typed) {
            reply.warnings.push(format!(
                "{name} was already defined (as {}); it is redefined",
                self.puzzle.format_sequence(&old)
            ));
        }
        Ok(reply)
    }

    pub(super) fn list(&self) -> Reply {
        let mut reply = Reply::default();
        for m in self.macros.iter() {
            reply.lines.push(format!(
                "{} = {} ({} move{})",
                m.name,
                self.puzzle.format_sequence(&m.moves),
                m.moves.len(),
                plural(m.moves.len())
            ));
        }
        if reply.lines.is_empty() {
            reply.lines.push("No macros.".into());
        }
        reply
    }

    pub(super) fn forget(&mut self, name: &str) -> Result<Reply, PlayError> {
        let gone = self.macros.forget(name);
        match gone.split_first() {
            None => Err(PlayError::Refused(format!("no macro called `{name}`"))),
            Some((first, [])) => Ok(Reply::say(format!("Forgot {first}."))),
            Some((first, rest)) => Ok(Reply::say(format!(
                "Forgot {first}, and {} defined after it: {}.",
                if rest.len() == 1 {
                    "the macro"
                } else {
                    "the macros"
                },
                rest.join(", ")
            ))),
        }
    }

    pub(super) fn save(&self) -> Result<Reply, PlayError> {
        let Some(path) = &self.macro_path else {
            return Err(PlayError::Refused(
                "there is no macro file to save to".into(),
            ));
        };
        // Only a file this command wrote is replaced: a file of that name that is
        // something else is left alone.
        if let Ok(bytes) = crate::storage::fsutil::read_regular(path, 1 << 20) {
            if !bytes.starts_with(macros::HEADER.as_bytes()) {
                return Err(PlayError::Refused(format!(
                    "{} exists and was not written by `ksolve play`: not replaced",
                    path.display()
                )));
            }
        }
        let text = self.macros.to_text(self.puzzle, &self.def_name);
        crate::storage::fsutil::write_atomic(path, text.as_bytes()).map_err(|source| {
            PlayError::Io {
                what: "save the macros to",
                path: path.clone(),
                source,
            }
        })?;
        let n = self.macros.iter().count();
        Ok(Reply::say(format!(
            "Saved {n} macro{} to {}.",
            plural(n),
            path.display()
        )))
    }

    /// Reads the macro file, when there is one: `def` lines, blank lines and comments.
    pub(super) fn load_macros(&mut self) -> Result<(), PlayError> {
        let Some(path) = self.macro_path.clone() else {
            return Ok(());
        };
        if !path.exists() {
            return Ok(());
        }
        let file = path.display().to_string();
        let bytes = crate::storage::fsutil::read_regular(&path, 1 << 20).map_err(|source| {
            PlayError::Io {
                what: "read the macros from",
                path: path.clone(),
                source,
            }
        })?;
        let text = String::from_utf8_lossy(&bytes);
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            match command::parse(line) {
                Ok(Command::Def { name, moves_at }) => {
                    self.define(&name, moves_at, line, &file, i + 1)?;
                }
                _ => {
                    let col = line.len() - line.trim_start().len() + 1;
                    return Err(PlayError::Moves(DefError::new(
                        &file,
                        i + 1,
                        col,
                        line,
                        ErrorKind::Invalid(
                            "expected `def NAME MOVES`, a comment (#) or a blank line".into(),
                        ),
                    )));
                }
            }
        }
        Ok(())
    }
}
