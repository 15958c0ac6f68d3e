//! Errors and warnings of the definition and scramble readers. Every error carries the
//! file, line and column it is about and the text of that line, so that its display can
//! quote the line with a caret under the offending spot.

use std::fmt;

/// What is wrong with a definition or scramble file. Each message says what was found
/// and what was expected instead; [`DefError`] adds where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    #[error("cannot read the file ({0}): expected a readable ksolve+ file")]
    Io(String),
    #[error("the file is empty: expected {0}")]
    Empty(&'static str),
    #[error("this is not a text file (control byte 0x{byte:02x}): expected a ksolve+ {what} file")]
    Binary { byte: u32, what: &'static str },
    #[error("unknown command `{found}`: expected one of {expected}{hint}")]
    UnknownCommand {
        found: String,
        expected: &'static str,
        hint: String,
    },
    #[error("`{block}` (line {line}) has no `End`: expected `End` {before}")]
    MissingEnd {
        block: String,
        line: usize,
        before: String,
    },
    #[error("unknown set `{found}`: expected one of the sets declared with `Set` ({known})")]
    UnknownSet { found: String, known: String },
    #[error("set `{set}` is given twice in {within}: expected each set at most once")]
    DuplicateSet { set: String, within: String },
    #[error("wrong vector length for set `{set}`: found {found} entries, expected {expected} (one per piece, all on one line)")]
    WrongLength {
        set: String,
        found: usize,
        expected: usize,
    },
    #[error("not a permutation: {0}")]
    NotAPermutation(String),
    #[error("orientation {value} is out of range for set `{set}`: expected 0 to {max}")]
    OrientationRange { set: String, value: u64, max: u64 },
    #[error("`{found}` is not a number: expected {expected}")]
    NotANumber { found: String, expected: String },
    #[error("number `{found}` is too large: expected at most {max}")]
    TooLarge { found: String, max: u64 },
    #[error(
        "unknown move `{found}`: expected a move of the definition or a power of one ({known})"
    )]
    UnknownMove { found: String, known: String },
    #[error("`{found}` at position {pos} of set `{set}` ignores its {what}, but the definition's `Ignore` does not allow that there: expected a definite value")]
    IgnoreNotAllowed {
        found: String,
        pos: usize,
        set: String,
        what: &'static str,
    },
    #[error("bad Block: {0}")]
    BadBlock(String),
    #[error("`Set` after {0}: expected every `Set` before `Solved`, `Move`, `Ignore` and `Block`")]
    SetTooLate(String),
    /// Anything else the grammar or the puzzle's rules refuse; the text says what was
    /// found and what was expected.
    #[error("{0}")]
    Invalid(String),
}

/// A refused definition or scramble file: where, what, and the offending line.
///
/// Displays as `FILE:LINE:COL: message`, then the line quoted with a caret under the
/// column. Errors that have no line (the file cannot be read) show `FILE: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct DefError {
    pub file: String,
    /// 1-based; 0 when the error is about the file as a whole (it cannot be read).
    pub line: usize,
    /// 1-based, in characters.
    pub col: usize,
    /// Boxed to keep `Result<_, DefError>` small on the happy path.
    pub kind: Box<ErrorKind>,
    /// The text of the offending line, without its line break.
    pub text: String,
}

impl DefError {
    pub(crate) fn new(file: &str, line: usize, col: usize, text: &str, kind: ErrorKind) -> Self {
        DefError {
            file: file.to_string(),
            line,
            col,
            kind: Box::new(kind),
            text: text.to_string(),
        }
    }

    /// An error about the whole file (it cannot be read).
    pub(crate) fn io(file: &str, err: &std::io::Error) -> Self {
        DefError::new(file, 0, 0, "", ErrorKind::Io(err.to_string()))
    }

    fn render(&self) -> String {
        if self.line == 0 {
            return format!("{}: {}", self.file, self.kind);
        }
        let mut out = format!("{}:{}:{}: {}", self.file, self.line, self.col, self.kind);
        if !self.text.trim().is_empty() {
            let number = self.line.to_string();
            let pad = " ".repeat(number.len());
            // The caret line repeats the tabs of the quoted line so that it lines up
            // whatever the terminal's tab width.
            let lead: String = self
                .text
                .chars()
                .take(self.col.saturating_sub(1))
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            out.push_str(&format!(
                "\n {number} | {}\n {pad} | {lead}^",
                printable(&self.text)
            ));
        }
        out
    }
}

/// The line with control characters made visible, so that quoting binary garbage cannot
/// mess up the terminal. Tabs stay, to keep the caret aligned.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                char::REPLACEMENT_CHARACTER
            } else {
                c
            }
        })
        .collect()
}

/// Something suspicious but accepted, such as a deprecated command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub file: String,
    /// 1-based line the warning is about.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}
