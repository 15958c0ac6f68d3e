//! The grammar of both file kinds: lexed lines grouped into commands and their
//! `... End` bodies, with positions kept for messages. Nothing here knows a puzzle; the
//! meaning (set sizes, move names, ranges) is checked by `definition` and `scramble`.
//!
//! ksolve+ reads its files word by word; we read them line by line, which is what every
//! real file does anyway and lets errors name the line where a vector is too short.
//! The one rule this adds: a vector goes on one line.
//!
//! Commands are read one at a time, as the layer above asks for them, so that a file is
//! refused at its first bad command without the rest of it being read.

use super::lex::{Lexer, Line, Source};
use crate::located::{DefError, ErrorKind};
use crate::puzzle::names::{
    is_reserved, looks_numeric, name_problem, DEF_COMMANDS, SCRAMBLE_COMMANDS,
};

/// One set inside a position-like block: its name line and the vector lines after it
/// (permutation then orientation; for `Block`, the piece list).
#[derive(Debug)]
pub(crate) struct Section {
    pub name: Line,
    pub rows: Vec<Line>,
}

/// A command of a definition file.
#[derive(Debug)]
pub(crate) enum DefItem {
    Name(Line),
    Set(Line),
    /// `Solved`, or twsearch's `StartState` (numbered from 0; the command word tells),
    /// with its `Require` lines (see [`split_conditions`]).
    Solved(Line, Vec<Section>, Vec<Line>),
    /// `Move`, or twsearch's `MoveTransformation` (numbered from 0), with its `When`
    /// lines.
    Move(Line, Vec<Section>, Vec<Line>),
    /// twsearch's `MoveAlias NEW OLD` or `MoveSequence NAME MOVES...`, one line each.
    Derived(Line),
    Ignore(Line, Vec<Section>),
    Block(Line, Vec<Section>),
    /// `ForbiddenPairs` (`groups` false) or `ForbiddenGroups`, with their rows.
    Forbidden {
        line: Line,
        groups: bool,
        rows: Vec<Line>,
    },
    /// `Stickers`, our extension: the body lines of the sticker map.
    Stickers(Line, Vec<Line>),
    /// `Board SET COLUMNS ROWS`, our extension, with its body lines.
    Board(Line, Vec<Line>),
    /// `SearchMoves NAME...` (a ksolve extension): the moves searches use by default.
    SearchMoves(Line),
    /// `MoveCosts` (a ksolve extension), with its rows.
    MoveCosts(Vec<Line>),
    /// A command that is accepted and skipped: `Multiplicators`, `ParallelMoves`, and
    /// `MoveLimits` (which ksolve+ moved to the scramble file).
    Skipped(Line),
}

/// A command of a scramble file.
#[derive(Debug)]
pub(crate) enum ScrItem {
    /// `Scramble`, or twsearch's `ScrambleState` / `StartState` (numbered from 0).
    Scramble(Line, Vec<Section>),
    Alg(Line, Vec<Line>),
    /// `ScrambleFacelets NAME`, our extension: a position by its colours.
    Facelets(Line, Vec<Line>),
    Random(Line),
    /// `MaxDepth` or `Slack`, with their number still to read.
    Setting(Line),
    /// `QTM` (true) or `HTM`.
    Metric(bool),
    MoveLimits(Vec<Line>),
    /// `Goal NAME`: a goal position, set by set (our extension).
    Goal(Line, Vec<Section>),
    /// `GoalAlg NAME`: the goal position some moves make from solved (our extension).
    GoalAlg(Line, Vec<Line>),
}

fn invalid(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Invalid(msg.into())
}

/// Requires a command line to have exactly `n` words after the command.
fn arity(src: &Source, line: &Line, n: usize, expected: &str) -> Result<(), DefError> {
    let found = line.toks.len() - 1;
    if found == n {
        return Ok(());
    }
    let at = if found > n { n + 1 } else { found + 1 };
    let what = if found > n {
        format!("unexpected `{}`", line.toks[at].s)
    } else {
        "a missing argument".to_string()
    };
    Err(src.err(
        line,
        at,
        invalid(format!(
            "{what} in `{}`: expected `{expected}`",
            line.first()
        )),
    ))
}

/// Groups the body of a position-like block into sets: a set name alone on its line,
/// then up to `max_rows` vector lines. `rows_what` names those lines for messages.
/// Whether `line` is a goal's permutation that names classes by letters (`u u u u e e`):
/// several words, each letters, digits or `?`, and one of them letters only. A set name
/// stands alone on its line, so the two never meet.
fn class_row(line: &Line) -> bool {
    line.toks.len() > 1
        && line
            .toks
            .iter()
            .all(|t| t.s.chars().all(|c| c.is_ascii_alphanumeric() || c == '?'))
        && line
            .toks
            .iter()
            .any(|t| t.s.chars().all(|c| c.is_ascii_alphabetic()))
}

fn sections(
    src: &Source,
    body: Vec<Line>,
    max_rows: usize,
    rows_what: &str,
) -> Result<Vec<Section>, DefError> {
    let mut out: Vec<Section> = Vec::new();
    let mut body = body.into_iter().peekable();
    while let Some(line) = body.next() {
        if looks_numeric(line.first()) {
            let msg = match out.last() {
                None => "a vector before any set name: expected a set name alone on its line, then its vectors".to_string(),
                Some(s) => format!(
                    "one vector line too many for set `{}`: expected {rows_what}, each on one line, then another set name or `End`",
                    s.name.first()
                ),
            };
            return Err(src.err(&line, 0, invalid(msg)));
        }
        if line.toks.len() > 1 {
            return Err(src.err(
                &line,
                1,
                invalid(format!(
                    "unexpected `{}` after set name `{}`: expected the set name alone on its line, its vectors on the next lines",
                    line.toks[1].s,
                    line.first()
                )),
            ));
        }
        let mut rows = Vec::new();
        while rows.len() < max_rows {
            match body.next_if(|l| looks_numeric(l.first()) || class_row(l)) {
                Some(row) => rows.push(row),
                None => break,
            }
        }
        if rows.is_empty() {
            return Err(src.err(
                &line,
                1,
                invalid(format!(
                    "set `{}` has no vector: expected {rows_what} on the lines after its name",
                    line.first()
                )),
            ));
        }
        out.push(Section { name: line, rows });
    }
    Ok(out)
}

/// Splits condition lines (`When` in a move, `Require` in `Solved`: our extension for
/// sliding-block puzzles) from the rest of a block's body. A condition line starts with
/// `word` and has more words after it; a set name stands alone on its line, so a set
/// called `When` still reads as before.
pub(crate) fn split_conditions(body: Vec<Line>, word: &str) -> (Vec<Line>, Vec<Line>) {
    body.into_iter()
        .partition(|l| l.first() == word && l.toks.len() > 1)
}

/// The hint added to an unknown command that belongs to the other file kind.
fn other_kind_hint(word: &str, def: bool) -> String {
    let other = if def { SCRAMBLE_COMMANDS } else { DEF_COMMANDS };
    if other.contains(&word) {
        let kind = if def { "scramble" } else { "definition" };
        format!(" (`{word}` belongs in a {kind} file)")
    } else if word == "CPOS" {
        " (twsearch's compact positions are not supported: expected a `ScrambleState` block)"
            .to_string()
    } else if word.eq_ignore_ascii_case("end") || word == "End" {
        " (an `End` with no command to close)".to_string()
    } else {
        String::new()
    }
}

const DEF_EXPECTED: &str = "Name, Set, Solved, Move, Ignore, Block, ForbiddenPairs, ForbiddenGroups, Stickers, Board, MoveCosts, SearchMoves (or twsearch's StartState, MoveTransformation, MoveAlias, MoveSequence)";
const SCR_EXPECTED: &str =
    "Scramble, ScrambleAlg, ScrambleFacelets, RandomScramble, MaxDepth, Slack, QTM, HTM, MoveLimits, Goal, GoalAlg (or twsearch's ScrambleState)";

/// Checks the word that names a set or move in a command line.
fn check_name(src: &Source, line: &Line, what: &str) -> Result<(), DefError> {
    match name_problem(&line.toks[1].s, what == "move") {
        Some(why) => Err(src.err(line, 1, invalid(why))),
        None => Ok(()),
    }
}

/// Reads commands one at a time from a file.
pub(crate) struct Reader<'b> {
    pub src: &'b Source,
    lex: Lexer<'b>,
    /// The first meaningful line (its first word only), once read: where errors about
    /// the file as a whole point.
    pub first: Option<Line>,
    /// The line that opened the last command read, for messages about the command.
    pub last: Option<Line>,
}

impl<'b> Reader<'b> {
    /// A reader of `bytes`; `src` names the file in messages and `what` is its kind.
    pub(crate) fn new(bytes: &'b [u8], src: &'b Source, what: &'static str) -> Reader<'b> {
        Reader {
            src,
            lex: Lexer::new(bytes, &src.file, what),
            first: None,
            last: None,
        }
    }

    fn next_line(&mut self) -> Result<Option<Line>, DefError> {
        let line = self.lex.next_line()?;
        if let (None, Some(l)) = (&self.first, &line) {
            self.first = Some(Line {
                no: l.no,
                text: l.text.clone(),
                toks: l.toks[..1].to_vec(),
            });
        }
        Ok(line)
    }

    /// Reads the lines of a block up to its `End`. A line that starts with a command
    /// before any `End` means the `End` is missing.
    fn body(&mut self, opener: &Line) -> Result<Vec<Line>, DefError> {
        let title = match opener.toks.get(1) {
            Some(_) => format!("{} {}", opener.first(), opener.rest()),
            None => opener.first().to_string(),
        };
        let mut out = Vec::new();
        loop {
            let Some(line) = self.next_line()? else {
                return Err(self.src.err(
                    opener,
                    0,
                    ErrorKind::MissingEnd {
                        block: title,
                        line: opener.no,
                        before: "before the end of the file".into(),
                    },
                ));
            };
            let first = line.first();
            if first == "End" {
                if line.toks.len() > 1 {
                    return Err(self.src.err(
                        &line,
                        1,
                        invalid(format!(
                            "unexpected `{}` after `End`: expected `End` alone on its line",
                            line.toks[1].s
                        )),
                    ));
                }
                return Ok(out);
            }
            if is_reserved(first) {
                return Err(self.src.err(
                    opener,
                    0,
                    ErrorKind::MissingEnd {
                        block: title,
                        line: opener.no,
                        before: format!("before `{first}` at line {}", line.no),
                    },
                ));
            }
            out.push(line);
        }
    }

    /// The body of a position-like block, its condition lines (first word `word`) taken
    /// out, grouped into sets.
    fn sections_with(
        &mut self,
        opener: &Line,
        word: &str,
        max_rows: usize,
        rows_what: &str,
    ) -> Result<(Vec<Section>, Vec<Line>), DefError> {
        let b = self.body(opener)?;
        let (conds, b) = split_conditions(b, word);
        Ok((sections(self.src, b, max_rows, rows_what)?, conds))
    }

    /// The body of a position-like block grouped into sets.
    fn sections(
        &mut self,
        opener: &Line,
        max_rows: usize,
        rows_what: &str,
    ) -> Result<Vec<Section>, DefError> {
        let b = self.body(opener)?;
        sections(self.src, b, max_rows, rows_what)
    }

    /// The next command of a definition file, `None` at the end of the file.
    pub(crate) fn next_def(&mut self) -> Result<Option<DefItem>, DefError> {
        let Some(line) = self.next_line()? else {
            return Ok(None);
        };
        let src = self.src;
        const POSITION: &str = "a permutation and optionally an orientation";
        let item = match line.first() {
            "Name" => DefItem::Name(line),
            "Set" => {
                arity(src, &line, 3, "Set NAME PIECES ORIENTATIONS")?;
                check_name(src, &line, "set")?;
                DefItem::Set(line)
            }
            "Solved" | "StartState" => {
                arity(src, &line, 0, line.first())?;
                let (secs, conds) = self.sections_with(&line, "Require", 2, POSITION)?;
                DefItem::Solved(line, secs, conds)
            }
            "Move" | "MoveTransformation" => {
                if line.toks.len() == 3 && line.toks[2].s == "noinverse" {
                    // Our extension: a move that only turns one way.
                } else {
                    let cmd = line.first();
                    arity(src, &line, 1, &format!("{cmd} NAME` or `{cmd} NAME noinverse"))?;
                }
                check_name(src, &line, "move")?;
                let (secs, conds) = self.sections_with(&line, "When", 2, POSITION)?;
                DefItem::Move(line, secs, conds)
            }
            "MoveAlias" => {
                arity(src, &line, 2, "MoveAlias NEW EXISTING")?;
                check_name(src, &line, "move")?;
                DefItem::Derived(line)
            }
            "SearchMoves" => {
                if line.toks.len() < 2 {
                    arity(src, &line, 1, "SearchMoves MOVE MOVE...")?;
                }
                DefItem::SearchMoves(line)
            }
            "MoveSequence" => {
                if line.toks.len() < 3 {
                    arity(src, &line, 2, "MoveSequence NAME MOVE MOVE...")?;
                }
                check_name(src, &line, "move")?;
                DefItem::Derived(line)
            }
            "Illegal" => {
                return Err(src.err(
                    &line,
                    0,
                    invalid(
                        "twsearch's `Illegal` (positions a piece may never occupy) is not supported: ksolve's searches and tables have no test for illegal positions; expected a definition without it (a `Block` or `ForbiddenPairs` may express the same restriction)",
                    ),
                ))
            }
            "Ignore" => {
                arity(src, &line, 0, "Ignore")?;
                let secs = self.sections(
                    &line,
                    2,
                    "a permutation mask and optionally an orientation mask",
                )?;
                DefItem::Ignore(line, secs)
            }
            "Block" => {
                arity(src, &line, 0, "Block")?;
                let secs = self.sections(&line, 1, "one line of piece numbers")?;
                DefItem::Block(line, secs)
            }
            "ForbiddenPairs" | "ForbiddenGroups" => {
                arity(src, &line, 0, line.first())?;
                let rows = self.body(&line)?;
                let groups = line.first() == "ForbiddenGroups";
                DefItem::Forbidden { line, groups, rows }
            }
            "Stickers" => {
                arity(src, &line, 0, "Stickers")?;
                let rows = self.body(&line)?;
                DefItem::Stickers(line, rows)
            }
            "Board" => {
                let rows = self.body(&line)?;
                DefItem::Board(line, rows)
            }
            "MoveCosts" => {
                arity(src, &line, 0, "MoveCosts")?;
                let rows = self.body(&line)?;
                DefItem::MoveCosts(rows)
            }
            "Multiplicators" | "ParallelMoves" | "MoveLimits" => {
                self.body(&line)?;
                DefItem::Skipped(line)
            }
            other => {
                return Err(src.err(
                    &line,
                    0,
                    ErrorKind::UnknownCommand {
                        found: other.to_string(),
                        expected: DEF_EXPECTED,
                        hint: other_kind_hint(other, true),
                    },
                ))
            }
        };
        Ok(Some(item))
    }

    /// The next command of a scramble file, `None` at the end of the file.
    pub(crate) fn next_scramble(&mut self) -> Result<Option<ScrItem>, DefError> {
        let Some(line) = self.next_line()? else {
            return Ok(None);
        };
        self.last = Some(line.clone());
        let src = self.src;
        let item = match line.first() {
            "Scramble" | "ScrambleState" | "StartState" => {
                let secs =
                    self.sections(&line, 2, "a permutation and optionally an orientation")?;
                ScrItem::Scramble(line, secs)
            }
            "ScrambleAlg" => {
                let rows = self.body(&line)?;
                ScrItem::Alg(line, rows)
            }
            "ScrambleFacelets" => {
                let rows = self.body(&line)?;
                ScrItem::Facelets(line, rows)
            }
            "RandomScramble" => {
                let b = self.body(&line)?;
                if let Some(extra) = b.first() {
                    return Err(src.err(
                        extra,
                        0,
                        invalid(format!(
                            "unexpected `{}` in `RandomScramble`: expected `End` right after the name",
                            extra.first()
                        )),
                    ));
                }
                ScrItem::Random(line)
            }
            "MaxDepth" => {
                arity(src, &line, 1, "MaxDepth NUMBER")?;
                ScrItem::Setting(line)
            }
            "Slack" => {
                arity(src, &line, 1, "Slack NUMBER")?;
                ScrItem::Setting(line)
            }
            "QTM" | "HTM" => {
                arity(src, &line, 0, line.first())?;
                ScrItem::Metric(line.first() == "QTM")
            }
            "MoveLimits" => {
                arity(src, &line, 0, "MoveLimits")?;
                ScrItem::MoveLimits(self.body(&line)?)
            }
            "Goal" => {
                let secs =
                    self.sections(&line, 2, "a permutation and optionally an orientation")?;
                ScrItem::Goal(line, secs)
            }
            "GoalAlg" => {
                let rows = self.body(&line)?;
                ScrItem::GoalAlg(line, rows)
            }
            other => {
                return Err(src.err(
                    &line,
                    0,
                    ErrorKind::UnknownCommand {
                        found: other.to_string(),
                        expected: SCR_EXPECTED,
                        hint: other_kind_hint(other, false),
                    },
                ))
            }
        };
        Ok(Some(item))
    }
}
