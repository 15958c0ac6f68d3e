//! Reading the algorithm notation into an [`Alg`] tree, with every refusal located at its
//! line and column through [`DefError`].
//!
//! The grammar, by recursive descent:
//!
//! ```text
//! seq   := item*
//! item  := WORD-THAT-IS-A-MOVE | atom | "(" seq ")" post | "[" seq ("," | ":") seq "]" post
//! atom  := NAME DIGITS? "'"?          (NAME a move of the definition)
//! post  := DIGITS? "'"?               (directly after the bracket)
//! ```
//!
//! Blanks and line breaks separate items; `//` starts a comment to the end of the line.

use super::{invert_power, Alg, Group, Len, Node, Pos, Shape, MAX_ALG_MOVES, MAX_NESTING};
use crate::located::{DefError, ErrorKind};
use crate::puzzle::moves::known_moves;
use crate::puzzle::{MoveId, Puzzle};
use std::collections::HashMap;

/// One line of algorithm text: its 1-based number in its file (for messages) and text.
#[derive(Clone, Copy, Debug)]
pub struct AlgLine<'a> {
    pub no: usize,
    pub text: &'a str,
}

/// The moves of a puzzle by name (powers included), built once per puzzle so that a
/// million-move algorithm costs a million hash probes, not a million scans.
pub struct MoveNames<'p> {
    puzzle: &'p Puzzle,
    ids: HashMap<&'p str, MoveId>,
}

impl<'p> MoveNames<'p> {
    pub fn new(puzzle: &'p Puzzle) -> MoveNames<'p> {
        let mut ids = HashMap::with_capacity(puzzle.moves.len());
        for (i, m) in puzzle.moves.iter().enumerate() {
            // The first move of a name wins, as in `Puzzle::move_by_name`.
            ids.entry(m.name.as_str()).or_insert(MoveId(i as u16));
        }
        // Then twsearch's `MoveAlias` names (powers included), which a move's own name
        // shadows, as in `Puzzle::move_by_name`.
        for (alias, id) in &puzzle.aliases {
            ids.entry(alias.as_str()).or_insert(*id);
        }
        MoveNames { puzzle, ids }
    }

    /// The move named exactly `name`.
    pub fn get(&self, name: &str) -> Option<MoveId> {
        self.ids.get(name).copied()
    }
}

/// Parses algorithm text spread over `lines` of `file`.
pub fn parse(file: &str, lines: &[AlgLine<'_>], names: &MoveNames<'_>) -> Result<Alg, DefError> {
    let mut p = Parser {
        file,
        lines,
        names,
        puzzle: names.puzzle,
        line: 0,
        at: 0,
        col: 1,
    };
    let (nodes, len) = p.seq(0)?;
    match p.peek() {
        None => Ok(Alg { nodes, len }),
        Some(c) => Err(p.err(
            p.pos(),
            invalid(format!(
                "unexpected `{c}`: expected a move (no bracket is open here)"
            )),
        )),
    }
}

fn invalid(msg: String) -> ErrorKind {
    ErrorKind::Invalid(msg)
}

fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{b}' | '\u{c}')
}

/// Characters that end a move name (unless the whole word is a move's name).
fn is_delim(c: char) -> bool {
    matches!(c, '(' | ')' | '[' | ']' | ',' | ':')
}

struct Parser<'a, 'p> {
    file: &'a str,
    lines: &'a [AlgLine<'a>],
    names: &'a MoveNames<'p>,
    puzzle: &'p Puzzle,
    /// Index of the current line in `lines`.
    line: usize,
    /// Byte offset in the current line.
    at: usize,
    /// 1-based column (in characters) of `at`.
    col: usize,
}

impl Parser<'_, '_> {
    fn pos(&self) -> Pos {
        // Lines and columns fit: the input is at most `MAX_INPUT_BYTES` (1 GiB).
        Pos {
            line: self.line as u32,
            col: self.col as u32,
        }
    }

    fn err(&self, pos: Pos, kind: ErrorKind) -> DefError {
        let at = (pos.line as usize).min(self.lines.len().saturating_sub(1));
        let line = &self.lines[at];
        DefError::new(self.file, line.no, pos.col as usize, line.text, kind)
    }

    fn rest(&self) -> &str {
        self.lines.get(self.line).map_or("", |l| &l.text[self.at..])
    }

    /// The rest of the current blank-separated word.
    fn word(&self) -> &str {
        let r = self.rest();
        &r[..r.find(is_blank).unwrap_or(r.len())]
    }

    /// Moves past `n` bytes of the current line, counting columns.
    fn advance(&mut self, n: usize) {
        let chars = self.rest()[..n].chars().count();
        self.at += n;
        self.col += chars;
    }

    /// Skips blanks, line breaks and comments; afterwards the cursor is at the next
    /// character that means something, or past the last line.
    fn skip_space(&mut self) {
        while self.line < self.lines.len() {
            let r = self.rest();
            let blanks = r.len() - r.trim_start_matches(is_blank).len();
            self.advance(blanks);
            let r = self.rest();
            let comment = r.starts_with("//") && self.names.get(self.word()).is_none();
            if !r.is_empty() && !comment {
                return;
            }
            self.line += 1;
            self.at = 0;
            self.col = 1;
        }
    }

    /// The next meaningful character, `None` at the end of the algorithm.
    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.rest().chars().next()
    }

    /// A sequence of items, up to a closing character or the end.
    fn seq(&mut self, depth: usize) -> Result<(Vec<Node>, Len), DefError> {
        let mut nodes = Vec::new();
        let mut len = Len::default();
        while let Some(c) = self.peek() {
            if matches!(c, ')' | ']' | ',' | ':') && self.names.get(self.word()).is_none() {
                break;
            }
            let at = self.pos();
            let (node, l) = self.item(depth)?;
            len.fwd = len.fwd.saturating_add(l.fwd);
            len.inv = len.inv.saturating_add(l.inv);
            self.check_len(at, len)?;
            nodes.push(node);
        }
        Ok((nodes, len))
    }

    fn check_len(&self, at: Pos, len: Len) -> Result<(), DefError> {
        let most = len.fwd.max(len.inv);
        if most > MAX_ALG_MOVES {
            return Err(self.err(
                at,
                invalid(format!(
                    "the algorithm grows to {} moves here: expected at most {MAX_ALG_MOVES} moves in all",
                    if most == u64::MAX { "more than 2^64".to_string() } else { most.to_string() }
                )),
            ));
        }
        Ok(())
    }

    fn item(&mut self, depth: usize) -> Result<(Node, Len), DefError> {
        let at = self.pos();
        let word = self.word();
        // ksolve+ compatibility first: a word that names a move is that move, whatever
        // characters its name holds.
        if let Some(id) = self.names.get(word) {
            let n = word.len();
            self.advance(n);
            return Ok(self.leaf(id, 1, false, at));
        }
        match self.rest().chars().next() {
            Some(open @ ('(' | '[')) => {
                if depth >= MAX_NESTING {
                    return Err(self.err(
                        at,
                        invalid(format!(
                            "brackets nest more than {MAX_NESTING} deep here: expected shallower nesting"
                        )),
                    ));
                }
                self.advance(1);
                let shape = if open == '(' {
                    let (a, la) = self.seq(depth + 1)?;
                    self.expect(&[')'], at, open)?;
                    (Shape::Paren(a), la)
                } else {
                    let (a, la) = self.seq(depth + 1)?;
                    let sep = self.expect(&[',', ':'], at, open)?;
                    let (b, lb) = self.seq(depth + 1)?;
                    self.expect(&[']'], at, open)?;
                    let s = |x: u64, y: u64| x.saturating_add(y);
                    if sep == ',' {
                        let both = s(s(la.fwd, lb.fwd), s(la.inv, lb.inv));
                        let len = Len {
                            fwd: both,
                            inv: both,
                        };
                        (Shape::Commutator(a, b), len)
                    } else {
                        let len = Len {
                            fwd: s(s(la.fwd, lb.fwd), la.inv),
                            inv: s(s(la.fwd, lb.inv), la.inv),
                        };
                        (Shape::Conjugate(a, b), len)
                    }
                };
                let (shape, body) = shape;
                let (times, inverse) = self.postfix()?;
                // An empty body repeated is still empty; never loop over it.
                let times = if body.fwd == 0 { 0 } else { times };
                let (fwd, inv) = if inverse {
                    (body.inv, body.fwd)
                } else {
                    (body.fwd, body.inv)
                };
                let len = Len {
                    fwd: fwd.saturating_mul(times),
                    inv: inv.saturating_mul(times),
                };
                self.check_len(at, len)?;
                let node = Node::Group(Box::new(Group {
                    shape,
                    times,
                    inverse,
                }));
                Ok((node, len))
            }
            _ => self.atom(at),
        }
    }

    /// Checks that the next character is one of `want`, which closes or separates the
    /// bracket `open` opened at `from`.
    fn expect(&mut self, want: &[char], from: Pos, open: char) -> Result<char, DefError> {
        let list: Vec<String> = want.iter().map(|c| format!("`{c}`")).collect();
        let list = list.join(" or ");
        let opened = format!(
            "the `{open}` at line {} column {}",
            self.lines[from.line as usize].no, from.col
        );
        match self.peek() {
            Some(c) if want.contains(&c) => {
                self.advance(c.len_utf8());
                Ok(c)
            }
            Some(c) => Err(self.err(
                self.pos(),
                invalid(format!("found `{c}`: expected {list} for {opened}")),
            )),
            None => Err(self.err(
                from,
                invalid(format!(
                    "this `{open}` is never closed: expected {list} before the end of the algorithm"
                )),
            )),
        }
    }

    /// Digits and a prime directly after a bracket: how many times, and whether inverted.
    fn postfix(&mut self) -> Result<(u64, bool), DefError> {
        let times = self.digits()?.unwrap_or(1);
        let inverse = self.rest().starts_with('\'');
        if inverse {
            self.advance(1);
        }
        Ok((times, inverse))
    }

    /// A run of ASCII digits at the cursor as a number.
    fn digits(&mut self) -> Result<Option<u64>, DefError> {
        let r = self.rest();
        let n = r.len() - r.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if n == 0 {
            return Ok(None);
        }
        let text = &r[..n];
        match text.parse::<u64>() {
            Ok(v) => {
                self.advance(n);
                Ok(Some(v))
            }
            Err(_) => Err(self.err(
                self.pos(),
                ErrorKind::TooLarge {
                    found: text.to_string(),
                    max: u64::MAX,
                },
            )),
        }
    }

    /// A move name with an optional power and prime: `R`, `R2`, `R2'`, `R'`, `R13`.
    fn atom(&mut self, at: Pos) -> Result<(Node, Len), DefError> {
        let r = self.rest();
        let mut end = r
            .find(|c: char| is_blank(c) || is_delim(c))
            .unwrap_or(r.len());
        if let Some(c) = r[..end].find("//") {
            end = c;
        }
        let text = &r[..end];
        if text.is_empty() {
            // `seq` and `item` hand over only characters that start a name; this keeps
            // the reader from looping should that ever change.
            return Err(self.err(at, invalid("expected a move here".into())));
        }
        let prime = text.ends_with('\'');
        let body = text.strip_suffix('\'').unwrap_or(text);
        let stem = body.trim_end_matches(|c: char| c.is_ascii_digit());
        let digits = &body[stem.len()..];
        let id = match self.names.get(text) {
            Some(id) => Some((id, 1u64)),
            None if !stem.is_empty() && (prime || !digits.is_empty()) => {
                match self.names.get(stem) {
                    Some(id) => {
                        let k = if digits.is_empty() {
                            1
                        } else {
                            match digits.parse::<u64>() {
                                Ok(k) => k,
                                Err(_) => {
                                    let col = at.col + stem.chars().count() as u32;
                                    return Err(self.err(
                                        Pos { col, ..at },
                                        ErrorKind::TooLarge {
                                            found: digits.to_string(),
                                            max: u64::MAX,
                                        },
                                    ));
                                }
                            }
                        };
                        Some((id, k))
                    }
                    None => None,
                }
            }
            None => None,
        };
        let Some((id, k)) = id else {
            let kind = if text == "End" {
                invalid(
                    "`End` after moves on the same line: expected `End` alone on its line".into(),
                )
            } else {
                ErrorKind::UnknownMove {
                    found: text.to_string(),
                    known: known_moves(self.puzzle),
                }
            };
            return Err(self.err(at, kind));
        };
        let exact = self.names.get(text).is_some();
        let n = text.len();
        self.advance(n);
        Ok(self.leaf(id, k, prime && !exact, at))
    }

    /// Move `id` raised to `k`, inverted when `prime`, as a node and its length.
    fn leaf(&self, id: MoveId, k: u64, prime: bool, at: Pos) -> (Node, Len) {
        let m = self.puzzle.mv(id);
        let b = &self.puzzle.base_moves[m.base];
        let order = b.order.max(1) as u64;
        let mut power = ((m.power as u64 % order) * (k % order) % order) as u32;
        if prime {
            power = invert_power(power, b.order);
        }
        let back = invert_power(power, b.order);
        let len = if b.directed {
            Len {
                fwd: power as u64,
                inv: back as u64,
            }
        } else {
            Len {
                fwd: u64::from(power != 0),
                inv: u64::from(back != 0),
            }
        };
        (
            Node::Move {
                base: m.base as u16,
                power,
                at,
            },
            len,
        )
    }
}
