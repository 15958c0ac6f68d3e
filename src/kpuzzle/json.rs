//! JSON with positions: the document parsed by jsonc-parser into a tree whose every
//! node knows where it stands, and the readers' refusals located at `FILE:LINE:COL`
//! with the line quoted, as every other reader of ksolve reports; and the two small
//! helpers the writers share ([`quote`], [`list`]).
//!
//! The grammar is strict JSON (no comments, no trailing commas, quoted names), as
//! cubing.js's `JSON.parse` reads it. Nesting is limited before parsing
//! ([`MAX_NESTING`]): the parser descends recursively, and a KPuzzle never nests
//! deeper than four levels.

use crate::located::{DefError, ErrorKind};
use jsonc_parser::ast::{Array, Object, ObjectPropName, Value};
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};

/// The deepest nesting of arrays and objects read.
pub const MAX_NESTING: usize = 32;

/// A JSON document being read: its text, for locating nodes, and its file name.
pub struct Doc<'a> {
    pub file: &'a str,
    text: &'a str,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
}

impl<'a> Doc<'a> {
    /// Parses `bytes` as one JSON value; refuses what is not UTF-8, nests too deep or
    /// is not JSON, at the offending spot.
    pub fn parse(bytes: &'a [u8], file: &'a str) -> Result<(Doc<'a>, Value<'a>), DefError> {
        // A byte-order mark is not JSON; editors on some systems write one.
        let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let doc = Doc::new(
                    file,
                    std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
                );
                return Err(doc.err(
                    e.valid_up_to(),
                    "this is not UTF-8 text: expected a JSON file",
                ));
            }
        };
        let doc = Doc::new(file, text);
        doc.check_nesting()?;
        let options = ParseOptions {
            allow_comments: false,
            allow_loose_object_property_names: false,
            allow_trailing_commas: false,
        };
        let parsed = jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &options)
            .map_err(|e| doc.err(e.range().start, format!("{}: expected JSON", e.kind())))?;
        match parsed.value {
            Some(v) => Ok((doc, v)),
            None => Err(doc.err(0, "the file holds no JSON value: expected a JSON object")),
        }
    }

    fn new(file: &'a str, text: &'a str) -> Doc<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Doc {
            file,
            text,
            line_starts,
        }
    }

    /// Refuses arrays and objects nested deeper than [`MAX_NESTING`], counting brackets
    /// outside strings, so that the recursive parser never meets them.
    fn check_nesting(&self) -> Result<(), DefError> {
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        for (i, b) in self.text.bytes().enumerate() {
            if in_string {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'[' | b'{' => {
                    depth += 1;
                    if depth > MAX_NESTING {
                        return Err(self.err(
                            i,
                            format!("arrays and objects nest deeper than {MAX_NESTING} levels: expected a KPuzzle's few levels"),
                        ));
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        Ok(())
    }

    /// An error at byte offset `at`: its line and column (in characters), the line's
    /// text, and `message`, which says what was found and what was expected.
    pub fn err(&self, at: usize, message: impl Into<String>) -> DefError {
        let (line, col, text) = self.place(at);
        DefError::new(
            self.file,
            line,
            col,
            text,
            ErrorKind::Invalid(message.into()),
        )
    }

    /// Where node `v` starts.
    pub fn at(&self, v: &impl Ranged) -> usize {
        v.range().start
    }

    /// The 1-based line and column (in characters) of byte offset `at`, and that
    /// line's text.
    pub fn place(&self, at: usize) -> (usize, usize, &'a str) {
        let at = at.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= at).max(1);
        let start = self.line_starts[line - 1];
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |e| start + e);
        let col = self
            .text
            .get(start..at)
            .map_or(1, |s| s.chars().count() + 1);
        (line, col, self.text[start..end].trim_end_matches('\r'))
    }

    /// The value of property `name` of `o`, which `owner` (in words) must have.
    pub fn field<'v>(
        &self,
        o: &'v Object<'a>,
        name: &str,
        owner: &str,
    ) -> Result<&'v Value<'a>, DefError> {
        get(o, name).ok_or_else(|| {
            self.err(
                o.range.start,
                format!("{owner} has no `{name}`: expected one"),
            )
        })
    }

    /// `v` as an object, or an error naming `what` it should be.
    pub fn object<'v>(&self, v: &'v Value<'a>, what: &str) -> Result<&'v Object<'a>, DefError> {
        match v {
            Value::Object(o) => Ok(o),
            other => Err(self.err(
                self.at(other),
                format!("found {}: expected {what} (a JSON object)", kind(other)),
            )),
        }
    }

    /// `v` as an array, or an error naming `what` it should be.
    pub fn array<'v>(&self, v: &'v Value<'a>, what: &str) -> Result<&'v Array<'a>, DefError> {
        match v {
            Value::Array(a) => Ok(a),
            other => Err(self.err(
                self.at(other),
                format!("found {}: expected {what} (a JSON array)", kind(other)),
            )),
        }
    }

    /// `v` as a string, or an error naming `what` it should be.
    pub fn string<'v>(&self, v: &'v Value<'a>, what: &str) -> Result<&'v str, DefError> {
        match v {
            Value::StringLit(s) => Ok(&s.value),
            other => Err(self.err(
                self.at(other),
                format!("found {}: expected {what} (a JSON string)", kind(other)),
            )),
        }
    }

    /// `v` as a whole number from `0` to `max`, or an error naming `what` it should be.
    pub fn number(&self, v: &Value<'a>, what: &str, max: u64) -> Result<u64, DefError> {
        let found = match v {
            Value::NumberLit(n) => n.value,
            other => {
                return Err(self.err(
                    self.at(other),
                    format!(
                        "found {}: expected {what}, a whole number from 0 to {max}",
                        kind(other)
                    ),
                ))
            }
        };
        match found.parse::<u64>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(self.err(
                self.at(v),
                format!("found `{found}`: expected {what}, a whole number from 0 to {max}"),
            )),
        }
    }

    /// `v` as an array of `len` whole numbers from 0 to `max` each.
    pub fn numbers(
        &self,
        v: &Value<'a>,
        what: &str,
        len: usize,
        max: u64,
    ) -> Result<Vec<u64>, DefError> {
        let a = self.array(v, what)?;
        if a.elements.len() != len {
            return Err(self.err(
                self.at(v),
                format!(
                    "{what} has {} entries: expected {len}, one per piece",
                    a.elements.len()
                ),
            ));
        }
        a.elements
            .iter()
            .map(|e| self.number(e, &format!("an entry of {what}"), max))
            .collect()
    }
}

/// The properties of an object in file order, each with its name and where the name
/// stands.
pub fn props<'v, 'a>(o: &'v Object<'a>) -> impl Iterator<Item = (&'v str, usize, &'v Value<'a>)> {
    o.properties.iter().map(|p| {
        let (name, at) = match &p.name {
            ObjectPropName::String(s) => (&*s.value, s.range.start),
            ObjectPropName::Word(w) => (w.value, w.range.start),
        };
        (name, at, &p.value)
    })
}

/// The value of property `name` of `o`, if present (the first, should it repeat: the
/// readers refuse repeated names first, [`unique`]).
pub fn get<'v, 'a>(o: &'v Object<'a>, name: &str) -> Option<&'v Value<'a>> {
    props(o).find(|(n, _, _)| *n == name).map(|(_, _, v)| v)
}

/// Refuses an object that gives a property twice, at its second use; `what` names the
/// properties in the message (`orbit`, `move`).
pub fn unique(doc: &Doc<'_>, o: &Object<'_>, what: &str) -> Result<(), DefError> {
    let mut seen = std::collections::HashSet::new();
    match props(o).find(|(n, _, _)| !seen.insert(*n)) {
        Some((name, at, _)) => Err(doc.err(
            at,
            format!("{what} `{name}` is given twice: expected each once"),
        )),
        None => Ok(()),
    }
}

/// What kind of JSON value `v` is, in words.
fn kind(v: &Value<'_>) -> &'static str {
    match v {
        Value::StringLit(_) => "a string",
        Value::NumberLit(_) => "a number",
        Value::BooleanLit(_) => "a boolean",
        Value::Object(_) => "an object",
        Value::Array(_) => "an array",
        Value::NullKeyword(_) => "null",
    }
}

/// A string as a JSON string literal, for the writers.
pub(super) fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// Numbers as a JSON array on one line, for the writers.
pub(super) fn list<T: std::fmt::Display>(values: &[T]) -> String {
    let items: Vec<String> = values.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(", "))
}
