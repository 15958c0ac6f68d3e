//! The lowest layer of both readers, written with nom: raw bytes to meaningful lines of
//! whitespace-separated tokens, and tokens to vector entries (`12`, `?`, `?3`).
//!
//! ksolve+ files in the wild have CRLF (or lone CR) line breaks, Latin-1 bytes in
//! comments, trailing blanks, blank lines anywhere and no final newline; all of that is
//! absorbed here. Blank lines and comment lines (`#` first on the line, with or without
//! a space after it) never reach the grammar.

use crate::located::{DefError, ErrorKind};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_till1};
use nom::character::complete::{char, digit1};
use nom::combinator::{all_consuming, map, opt};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

/// One whitespace-separated word of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tok {
    pub s: String,
    /// 1-based column, in characters.
    pub col: usize,
    /// Byte offset of the word in [`Line::text`].
    pub at: usize,
}

/// A line that carries something: not blank and not a comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// 1-based line number in the file.
    pub no: usize,
    /// The line without its break; bytes that are not UTF-8 are replaced.
    pub text: String,
    pub toks: Vec<Tok>,
}

impl Line {
    /// The first word (every meaningful line has one).
    pub fn first(&self) -> &str {
        &self.toks[0].s
    }

    /// Everything after the first word, trimmed: the argument of `Name` and the names of
    /// scrambles, which may contain blanks.
    pub fn rest(&self) -> &str {
        match self.toks.get(1) {
            Some(t) => self.text[t.at..].trim(),
            None => "",
        }
    }
}

/// The file being read, as far as messages need it: its name.
#[derive(Debug)]
pub(crate) struct Source {
    pub file: String,
}

impl Source {
    /// An error located at column `col` of `line`.
    pub fn err_col(&self, line: &Line, col: usize, kind: ErrorKind) -> DefError {
        DefError::new(&self.file, line.no, col, &line.text, kind)
    }

    /// An error located at word `tok` of `line` (or just past the line's end when the
    /// line has fewer words, which is where the missing word was expected).
    pub fn err(&self, line: &Line, tok: usize, kind: ErrorKind) -> DefError {
        let col = match line.toks.get(tok) {
            Some(t) => t.col,
            None => line.text.trim_end().chars().count() + 2,
        };
        self.err_col(line, col, kind)
    }
}

/// Splits off one line and its break (`\r\n`, `\n` or a lone `\r`).
fn raw_line(input: &[u8]) -> IResult<&[u8], &[u8]> {
    terminated(
        take_till(|c| c == b'\n' || c == b'\r'),
        opt(alt((tag(&b"\r\n"[..]), tag(&b"\n"[..]), tag(&b"\r"[..])))),
    )
    .parse(input)
}

fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{b}' | '\u{c}')
}

fn blanks(input: &str) -> IResult<&str, &str> {
    nom::bytes::complete::take_while(is_blank).parse(input)
}

/// The words of a line.
fn words(input: &str) -> IResult<&str, Vec<&str>> {
    all_consuming(terminated(
        many0(preceded(blanks, take_till1(is_blank))),
        blanks,
    ))
    .parse(input)
}

/// Reads a file one meaningful line at a time, so that the layers above can refuse a
/// file at its first bad line without lexing the rest of it.
pub(crate) struct Lexer<'b> {
    rest: &'b [u8],
    /// The number of the last line read.
    no: usize,
    file: &'b str,
    /// The kind of file, for the binary-data message.
    what: &'static str,
}

impl<'b> Lexer<'b> {
    /// A lexer over `bytes` (a leading byte-order mark is skipped).
    pub(crate) fn new(bytes: &'b [u8], file: &'b str, what: &'static str) -> Lexer<'b> {
        Lexer {
            rest: bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes),
            no: 0,
            file,
            what,
        }
    }

    /// The next line that carries something, `None` at the end of the file, or the error
    /// of the first line that holds binary data.
    pub(crate) fn next_line(&mut self) -> Result<Option<Line>, DefError> {
        while !self.rest.is_empty() {
            self.no += 1;
            let (next, raw) = match raw_line(self.rest) {
                Ok(ok) => ok,
                // `raw_line` accepts any input; this arm only keeps the reader total.
                Err(_) => break,
            };
            self.rest = next;
            if let Some(line) = self.line(raw)? {
                return Ok(Some(line));
            }
        }
        self.rest = &[];
        Ok(None)
    }

    /// Lexes one line without its break; `None` for a blank or comment line.
    fn line(&self, raw: &[u8]) -> Result<Option<Line>, DefError> {
        let text = String::from_utf8_lossy(raw).into_owned();
        // A NUL byte anywhere, even in a comment, means this is no text file at all;
        // other control characters are only refused where they would be read.
        let trimmed = text.trim_start_matches(is_blank);
        let comment = trimmed.is_empty() || trimmed.starts_with('#');
        let bad = text
            .char_indices()
            .find(|&(_, c)| c == '\0' || (!comment && c.is_control() && !is_blank(c)));
        if let Some((at, c)) = bad {
            let col = text[..at].chars().count() + 1;
            return Err(DefError::new(
                self.file,
                self.no,
                col,
                &text,
                ErrorKind::Binary {
                    byte: c as u32,
                    what: self.what,
                },
            ));
        }
        if comment {
            return Ok(None);
        }
        let toks = match words(&text) {
            Ok((_, ws)) => {
                // Columns are counted from the previous word, never from the start of
                // the line: that would make a long line quadratic.
                let (mut prev_at, mut prev_col) = (0, 1);
                ws.into_iter()
                    .map(|w| {
                        let at = w.as_ptr() as usize - text.as_ptr() as usize;
                        let col = prev_col + text[prev_at..at].chars().count();
                        (prev_at, prev_col) = (at, col);
                        Tok {
                            s: w.to_string(),
                            col,
                            at,
                        }
                    })
                    .collect()
            }
            // `words` accepts any text without line breaks; this arm keeps it total.
            Err(_) => Vec::new(),
        };
        Ok(Some(Line {
            no: self.no,
            text,
            toks,
        }))
    }
}

/// One entry of a vector: a number, or (in scrambles) `?` with an optional hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    Num(u64),
    Unknown(Option<u64>),
}

/// Why a word is not an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntryError {
    NotANumber,
    TooLarge,
}

/// Digits as a number; `Err` when they overflow.
fn number(input: &str) -> IResult<&str, Result<u64, ()>> {
    map(digit1, |d: &str| d.parse::<u64>().map_err(|_| ())).parse(input)
}

/// An entry before the overflow check: the numbers are still `Err` when too large.
type RawEntry = (bool, Option<Result<u64, ()>>);

fn entry_parser(input: &str) -> IResult<&str, RawEntry> {
    alt((
        map(preceded(char('?'), opt(number)), |n| (true, n)),
        map(number, |n| (false, Some(n))),
    ))
    .parse(input)
}

/// Parses a vector entry. Numbers too large for `u64` are reported as such rather than
/// wrapped, so no later check can be fooled by an overflow.
pub(crate) fn entry(word: &str) -> Result<Entry, EntryError> {
    match all_consuming(entry_parser).parse(word) {
        Ok((_, (_, Some(Err(()))))) => Err(EntryError::TooLarge),
        Ok((_, (true, Some(Ok(v))))) => Ok(Entry::Unknown(Some(v))),
        Ok((_, (true, None))) => Ok(Entry::Unknown(None)),
        Ok((_, (false, Some(Ok(v))))) => Ok(Entry::Num(v)),
        Ok((_, (false, None))) | Err(_) => Err(EntryError::NotANumber),
    }
}
