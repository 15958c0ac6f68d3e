//! Located errors: errors and warnings of the text readers (definitions and scrambles
//! in `def`, algorithms in `alg`, the lines of `play`). Every error carries the file,
//! line and column it is about and the text of that line, so that its display can quote
//! the line with a caret under the offending spot. It sits below both readers, so that
//! `def` can read a `ScrambleAlg` with `alg` while `alg` reports in the same form; `def`
//! re-exports the types under their first names.

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
            let (quoted, before) = excerpt(&self.text, self.col);
            // The caret line repeats the tabs of the quoted line so that it lines up
            // whatever the terminal's tab width.
            let lead: String = before
                .chars()
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            out.push_str(&format!(
                "\n {number} | {}\n {pad} | {lead}^",
                printable(&quoted)
            ));
        }
        out
    }
}

/// The most characters of a line an error quotes; a longer line (a 1 MB scramble on
/// one line) is cut around the column.
pub const MAX_QUOTE: usize = 100;

/// The part of `text` to quote for an error at 1-based column `col`, at most
/// [`MAX_QUOTE`] characters plus `…` marks where it was cut, and the quoted text that
/// comes before the column (which the caret line must skip).
fn excerpt(text: &str, col: usize) -> (String, String) {
    let chars: Vec<char> = text.chars().collect();
    let at = col.saturating_sub(1).min(chars.len());
    if chars.len() <= MAX_QUOTE {
        return (text.to_string(), chars[..at].iter().collect());
    }
    // Keep some context after the column as well as before it, more before: the words
    // leading up to an error usually explain it.
    let start = at.saturating_sub(MAX_QUOTE * 2 / 3);
    let end = (start + MAX_QUOTE).min(chars.len());
    let start = end.saturating_sub(MAX_QUOTE).min(start);
    let mut quoted = String::new();
    let mut before = String::new();
    if start > 0 {
        quoted.push('…');
        before.push('…');
    }
    quoted.extend(&chars[start..end]);
    before.extend(&chars[start..at]);
    if end < chars.len() {
        quoted.push('…');
    }
    (quoted, before)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The quoted line and the caret's column (in characters) of a rendered error.
    fn quote_and_caret(e: &DefError) -> (String, usize) {
        let text = e.to_string();
        let lines: Vec<&str> = text.lines().collect();
        let quoted = lines[1].split_once(" | ").unwrap().1.to_string();
        let caret = lines[2].split_once(" | ").unwrap().1;
        (quoted, caret.chars().count() - 1)
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        // An 800,000-character line with a bad word in the middle, near the start and
        // at the very end.
        let word = "12345 ";
        let line = word.repeat(80_000);
        for (col, bad) in [(400_001, "12345"), (7, "12345"), (line.len() + 1, "")] {
            let mut text = line.clone();
            let at = col - 1;
            text.replace_range(at.min(text.len())..(at + bad.len()).min(text.len()), "");
            text.insert_str(at.min(text.len()), &"X".repeat(bad.len()));
            let e = DefError::new("f.txt", 3, col, &text, ErrorKind::Invalid("bad".into()));
            let (quoted, caret) = quote_and_caret(&e);
            assert!(quoted.chars().count() <= MAX_QUOTE + 2, "{quoted}");
            assert!(e.to_string().len() < 500);
            let pointed = quoted.chars().nth(caret);
            if bad.is_empty() {
                // Past the end of the line: the caret sits just after the last character.
                assert_eq!(caret, quoted.chars().count(), "{quoted}");
            } else {
                assert_eq!(pointed, Some('X'), "col {col}: {quoted}");
                assert_eq!(quoted.starts_with('…'), col > MAX_QUOTE);
                assert!(quoted.ends_with('…'));
            }
        }
    }

    #[test]
    fn short_lines_are_quoted_whole() {
        let e = DefError::new("f.txt", 12, 3, "\tab cd", ErrorKind::Invalid("bad".into()));
        assert_eq!(e.to_string(), "f.txt:12:3: bad\n 12 | \tab cd\n    | \t ^");
    }
}
