//! `ksolve play`: an interactive session on any puzzle, the library half. A
//! [`Session`] is a state machine fed one line at a time ([`Session::command`]); it
//! never prints: each command returns a [`Reply`] (messages, warnings, whether to draw
//! the position) and the command line draws the position ([`Session::state`]) and the
//! status ([`Session::status`]) after it. The terminal and stdin-script front ends are
//! in `src/cli/play.rs`.
//!
//! A session is a game: it starts at a position (solved, a scramble, a loaded scramble
//! or an entered one), counts the player's moves against the move limits in force
//! ([`rules`]), and when the goal is reached compares the moves used with the optimal
//! count and with the scrambler's. Solutions are shown a move at a time: after `solve`
//! an empty line makes the next move and `go` the rest; any other command ends the
//! showing.

pub mod command;
mod game;
pub mod macros;
pub mod rules;
#[cfg(test)]
mod tests;

pub use command::{Command, CommandError};
pub use game::{Session, Setup, MAX_GAME_MOVES, MAX_LINE_MOVES};
pub use macros::{Macro, Macros};

use crate::def::DefError;
use crate::search::SearchError;
use std::path::PathBuf;

/// What a command asks the front end to show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// Messages, in order.
    pub lines: Vec<String>,
    /// Warnings (a redefined macro, a scramble that is not uniform).
    pub warnings: Vec<String>,
    /// Draw the position and the status after the messages.
    pub show: bool,
    /// The session is over.
    pub quit: bool,
}

impl Reply {
    fn say(text: impl Into<String>) -> Reply {
        Reply {
            lines: vec![text.into()],
            ..Reply::default()
        }
    }

    fn drawn(mut self) -> Reply {
        self.show = true;
        self
    }
}

/// Why a command was refused. The session is unchanged after any of these.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Command(#[from] CommandError),
    /// Moves that do not parse, or a move the position or the limits refuse, located in
    /// the line as typed.
    #[error(transparent)]
    Moves(#[from] DefError),
    /// A command that cannot apply here, with why.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}
