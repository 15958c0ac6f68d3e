//! Meaning of a definition file: checks the commands that `syntax` grouped against each
//! other (sets declared before use, vector lengths, permutations, ranges, move names)
//! and builds the [`Puzzle`].

mod assemble;
mod block;
mod modulo;

use super::lex::{entry, Entry, EntryError, Line, Source};
use super::names::set_index;
use super::syntax::{DefItem, Reader, Section};
use super::twsearch;
use super::{MAX_MOVES, MAX_MOVE_ENTRIES, MAX_ORIENTATIONS, MAX_POSITIONS, MAX_SET_SIZE};
use crate::located::{DefError, ErrorKind, Warning};
use crate::puzzle::{self, Block, IgnoreMask, Puzzle, SetDef, SetState, State, Transform};
use std::collections::HashMap;

fn invalid(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Invalid(msg.into())
}

/// Reads word `tok` of `line` as a number from `min` to `max`.
pub(crate) fn number_in(
    src: &Source,
    line: &Line,
    tok: usize,
    min: u64,
    max: u64,
    expected: &str,
) -> Result<u64, DefError> {
    let word = &line.toks[tok].s;
    let v = match entry(word) {
        Ok(Entry::Num(v)) => v,
        Ok(Entry::Unknown(_)) | Err(EntryError::NotANumber) => {
            return Err(src.err(
                line,
                tok,
                ErrorKind::NotANumber {
                    found: word.clone(),
                    expected: expected.to_string(),
                },
            ))
        }
        Err(EntryError::TooLarge) => {
            return Err(src.err(
                line,
                tok,
                ErrorKind::TooLarge {
                    found: word.clone(),
                    max,
                },
            ))
        }
    };
    if v > max {
        return Err(src.err(
            line,
            tok,
            ErrorKind::TooLarge {
                found: word.clone(),
                max,
            },
        ));
    }
    if v < min {
        return Err(src.err(
            line,
            tok,
            invalid(format!("`{word}` is too small: expected {expected}")),
        ));
    }
    Ok(v)
}

/// Checks a vector line's length against its set's size.
pub(crate) fn check_len(src: &Source, line: &Line, set: &SetDef) -> Result<(), DefError> {
    if line.toks.len() == set.size {
        return Ok(());
    }
    Err(src.err(
        line,
        set.size.min(line.toks.len()),
        ErrorKind::WrongLength {
            set: set.name.clone(),
            found: line.toks.len(),
            expected: set.size,
        },
    ))
}

/// Which position-like block is being read; they differ in what their vectors allow.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Solved,
    Move,
    Ignore,
}

impl Kind {
    fn title(self) -> &'static str {
        match self {
            Kind::Solved => "the solved state",
            Kind::Move => "this move",
            Kind::Ignore => "this Ignore",
        }
    }
}

/// What the reader has gathered so far.
struct Builder<'s> {
    src: &'s Source,
    name: Option<String>,
    sets: Vec<SetDef>,
    set_lines: Vec<usize>,
    set_names: HashMap<String, usize>,
    positions: usize,
    /// The first command that ends the `Set` section, for the "Set too late" message.
    sets_closed_by: Option<(String, usize)>,
    solved: Option<(State, usize)>,
    /// Name, file form, directed flag, and the `Move` line.
    moves: Vec<(String, Transform, bool, Line)>,
    /// Per move: its guard (`When` lines), if any.
    guards: Vec<Option<puzzle::Guard>>,
    /// The positions `Solved` leaves free (`?N`), per set, and its `Require` rules.
    free: Vec<Vec<bool>>,
    /// Per set and position, the modulus `Solved` knows the orientation by (`?`, `O%M`;
    /// see `modulo`).
    known_mod: Vec<Vec<u8>>,
    rules: Vec<puzzle::Rule>,
    /// The `Solved` line and its `Require` lines, one per rule, for the messages of
    /// [`super::guard::check_goal`].
    goal_lines: Option<(Line, Vec<Line>)>,
    move_names: HashMap<String, usize>,
    /// The number of moves, powers included, of the moves so far.
    total_moves: usize,
    ignore: Option<(Vec<IgnoreMask>, usize)>,
    blocks: Vec<Block>,
    forbidden: Vec<(bool, Vec<Line>)>,
    /// The rows of every `MoveCosts` block, in file order.
    costs: Vec<Line>,
    /// twsearch's `MoveAlias` and `MoveSequence` lines, expanded in `finish`.
    derived: Vec<Line>,
    warned_deprecated: bool,
    warnings: Vec<Warning>,
    /// Our `Stickers` block, read once the puzzle is assembled.
    stickers: Option<(Line, Vec<Line>)>,
    /// Our `Board` block, read once the puzzle is assembled.
    board: Option<(Line, Vec<Line>)>,
    /// Our `SearchMoves` line, read once every move (aliases included) is known.
    search_moves: Option<Line>,
}

impl<'s> Builder<'s> {
    fn warn(&mut self, line: &Line, message: String) {
        self.warnings.push(Warning {
            file: self.src.file.clone(),
            line: line.no,
            message,
        });
    }

    fn close_sets(&mut self, line: &Line) {
        if self.sets_closed_by.is_none() {
            self.sets_closed_by = Some((line.first().to_string(), line.no));
        }
    }

    /// What the `When` and `Require` readers need, for the block opened by `line`.
    fn guard_ctx(&self, line: &Line) -> super::guard::Ctx<'_> {
        super::guard::Ctx {
            src: self.src,
            sets: &self.sets,
            set_names: &self.set_names,
            first: twsearch::first_piece(line),
        }
    }

    fn set_index(&self, line: &Line) -> Result<usize, DefError> {
        set_index(self.src, &self.set_names, &self.sets, line)
    }

    fn add_set(&mut self, line: &Line) -> Result<(), DefError> {
        let src = self.src;
        if let Some((cmd, at)) = &self.sets_closed_by {
            return Err(src.err(
                line,
                0,
                ErrorKind::SetTooLate(format!("`{cmd}` at line {at}")),
            ));
        }
        let name = line.toks[1].s.clone();
        if let Some(&k) = self.set_names.get(&name) {
            return Err(src.err(
                line,
                1,
                ErrorKind::DuplicateSet {
                    set: name,
                    within: format!(
                        "this definition (first declared at line {})",
                        self.set_lines[k]
                    ),
                },
            ));
        }
        let size = number_in(
            src,
            line,
            2,
            1,
            MAX_SET_SIZE as u64,
            &format!("a number of pieces from 1 to {MAX_SET_SIZE}"),
        )? as usize;
        let orientations = number_in(
            src,
            line,
            3,
            1,
            MAX_ORIENTATIONS as u64,
            &format!("a number of orientations from 1 to {MAX_ORIENTATIONS}"),
        )? as u8;
        if self.positions + size > MAX_POSITIONS {
            return Err(src.err(
                line,
                2,
                invalid(format!(
                    "this set brings the puzzle to {} pieces: expected at most {MAX_POSITIONS} pieces over all sets",
                    self.positions + size
                )),
            ));
        }
        self.positions += size;
        self.set_names.insert(name.clone(), self.sets.len());
        self.sets.push(SetDef {
            name,
            size,
            orientations,
        });
        self.set_lines.push(line.no);
        Ok(())
    }

    /// Reads the sets of a Solved, Move or Ignore block. Sets left out stay `None`.
    /// `first` is the number of the first piece: 1 in ksolve+, 0 in twsearch's
    /// `StartState` and `MoveTransformation`.
    fn position(
        &self,
        sections: &[Section],
        kind: Kind,
        first: u64,
    ) -> Result<Vec<Option<SetState>>, DefError> {
        let src = self.src;
        let mut out: Vec<Option<SetState>> = vec![None; self.sets.len()];
        for sec in sections {
            let k = self.set_index(&sec.name)?;
            let set = &self.sets[k];
            if out[k].is_some() {
                return Err(src.err(
                    &sec.name,
                    0,
                    ErrorKind::DuplicateSet {
                        set: set.name.clone(),
                        within: kind.title().to_string(),
                    },
                ));
            }
            let perm = self.perm_row(&sec.rows[0], set, kind, first)?;
            let ori = match sec.rows.get(1) {
                Some(row) => self.ori_row(row, set, kind)?,
                None => vec![0; set.size],
            };
            out[k] = Some(SetState { perm, ori });
        }
        Ok(out)
    }

    /// The numbers of a vector line, refusing `?` (scramble files only) except `?N` in
    /// a `Solved` permutation (a free position of a goal that is a set), read as `N`.
    fn numbers(&self, line: &Line, set: &SetDef, expected: &str) -> Result<Vec<u64>, DefError> {
        self.numbers_of(line, set, expected, false)
    }

    fn numbers_of(
        &self,
        line: &Line,
        set: &SetDef,
        expected: &str,
        hints: bool,
    ) -> Result<Vec<u64>, DefError> {
        check_len(self.src, line, set)?;
        (0..line.toks.len())
            .map(|t| match entry(&line.toks[t].s) {
                Ok(Entry::Unknown(Some(v))) if hints => Ok(v),
                Ok(Entry::Unknown(_)) => Err(self.src.err(
                    line,
                    t,
                    invalid(format!(
                        "`{}`: `?` is only allowed in scramble files; expected {expected}",
                        line.toks[t].s
                    )),
                )),
                _ => number_in(self.src, line, t, 0, u64::MAX, expected),
            })
            .collect()
    }

    fn perm_row(
        &self,
        line: &Line,
        set: &SetDef,
        kind: Kind,
        first: u64,
    ) -> Result<Vec<u16>, DefError> {
        let src = self.src;
        let n = set.size as u64;
        if kind == Kind::Ignore {
            let v = self.numbers(line, set, "0 (solve) or 1 (may be ignored)")?;
            return mask(src, line, &v).map(|m| m.into_iter().map(u16::from).collect());
        }
        let last = n - 1 + first;
        let v = self.numbers_of(
            line,
            set,
            &format!("a piece number from {first} to {last}"),
            kind == Kind::Solved,
        )?;
        let mut first_at: HashMap<u64, usize> = HashMap::new();
        for (t, &x) in v.iter().enumerate() {
            if x < first || x > last {
                return Err(src.err(
                    line,
                    t,
                    ErrorKind::NotAPermutation(format!(
                        "`{x}` is not a piece of set `{}`: expected numbers from {first} to {last}",
                        set.name
                    )),
                ));
            }
            if kind == Kind::Move {
                if let Some(&prev) = first_at.get(&x) {
                    return Err(src.err(
                        line,
                        t,
                        ErrorKind::NotAPermutation(format!(
                            "`{x}` appears twice (also at column {}): expected each of {first} to {last} exactly once in a move (only Solved may repeat pieces)",
                            line.toks[prev].col
                        )),
                    ));
                }
                first_at.insert(x, t);
            }
        }
        Ok(v.into_iter().map(|x| (x - first) as u16).collect())
    }

    fn ori_row(&self, line: &Line, set: &SetDef, kind: Kind) -> Result<Vec<u8>, DefError> {
        let src = self.src;
        if kind == Kind::Ignore {
            let v = self.numbers(line, set, "0 (solve) or 1 (may be ignored)")?;
            return mask(src, line, &v).map(|m| m.into_iter().map(u8::from).collect());
        }
        if kind == Kind::Solved {
            check_len(src, line, set)?;
            return modulo::solved_row(src, line, set).map(|(ori, _)| ori);
        }
        let n = set.orientations as u64;
        // A move may "twist" a piece of a one-orientation set: that changes nothing but
        // marks the piece as moved, which is how ksolve+ bandages pieces to fixed centres.
        let max = if kind == Kind::Move && n == 1 {
            1
        } else {
            n - 1
        };
        let v = self.numbers(line, set, &format!("an orientation from 0 to {max}"))?;
        for (t, &x) in v.iter().enumerate() {
            if x > max {
                return Err(src.err(
                    line,
                    t,
                    ErrorKind::OrientationRange {
                        set: set.name.clone(),
                        value: x,
                        max,
                    },
                ));
            }
        }
        Ok(v.into_iter().map(|x| x as u8).collect())
    }

    fn solved(&mut self, line: &Line, sections: &[Section]) -> Result<(), DefError> {
        self.close_sets(line);
        if let Some((_, at)) = &self.solved {
            return Err(self.src.err(
                line,
                0,
                invalid(format!(
                    "`Solved` given twice (first at line {at}): expected one solved state"
                )),
            ));
        }
        let parts = self.position(sections, Kind::Solved, twsearch::first_piece(line))?;
        let state = fill(&self.sets, parts);
        self.free = self.sets.iter().map(|s| vec![false; s.size]).collect();
        self.known_mod = self.sets.iter().map(|s| vec![0; s.size]).collect();
        for sec in sections {
            let k = self.set_index(&sec.name)?;
            for (i, tok) in sec.rows[0].toks.iter().enumerate() {
                self.free[k][i] = tok.s.starts_with('?');
            }
            if let Some(row) = sec.rows.get(1) {
                let (_, mods) = modulo::solved_row(self.src, row, &self.sets[k])?;
                self.known_mod[k] = mods;
            }
        }
        modulo::check_count(self.src, line, &self.sets, &self.known_mod)?;
        self.solved = Some((state, line.no));
        Ok(())
    }

    fn add_move(
        &mut self,
        line: Line,
        sections: &[Section],
        guard: Option<puzzle::Guard>,
    ) -> Result<(), DefError> {
        self.close_sets(&line);
        let src = self.src;
        let name = line.toks[1].s.clone();
        if let Some(&prev) = self.move_names.get(&name) {
            return Err(src.err(
                &line,
                1,
                invalid(format!(
                    "move `{name}` is defined twice (first at line {}): expected each move name once",
                    self.moves[prev].3.no
                )),
            ));
        }
        // A guarded move is used only as written: its powers and inverse would need
        // guards of their own, which only the definition can give.
        let directed = line.toks.len() == 3 || guard.is_some();
        if (self.total_moves + 1) * self.positions > MAX_MOVE_ENTRIES {
            return Err(too_big(src, &line, self.total_moves + 1, self.positions));
        }
        let parts = self.position(sections, Kind::Move, twsearch::first_piece(&line))?;
        let file_form = fill(&self.sets, parts);
        let effect = Transform::from_ksolve(&self.sets, &file_form);
        // A move that only "twists" one-orientation pieces is also refused: it would be a
        // search step that changes no state.
        if effect.is_identity() {
            return Err(src.err(
                &line,
                1,
                invalid(format!(
                    "move `{name}` changes nothing: expected a move that moves or twists some piece"
                )),
            ));
        }
        // The caps are checked move by move, so that a file of a hundred thousand moves
        // is refused at the first one too many rather than after reading them all.
        let order = puzzle::order(&effect, &self.sets) as u64;
        let powers = if directed {
            1
        } else {
            order.saturating_sub(1).max(1)
        };
        let total = self.total_moves as u64 + powers;
        if total <= MAX_MOVES as u64 && total as usize * self.positions > MAX_MOVE_ENTRIES {
            return Err(too_big(src, &line, total as usize, self.positions));
        }
        if total > MAX_MOVES as u64 {
            // The order saturates at u32::MAX: say "at least" rather than print the
            // saturated value as if it were the order.
            let order = if order >= u32::MAX as u64 {
                format!("at least {order}")
            } else {
                order.to_string()
            };
            return Err(src.err(
                &line,
                1,
                invalid(format!(
                    "move `{name}` has order {order}, which takes the number of moves with their powers past {MAX_MOVES}: expected fewer or smaller moves (or `noinverse`)"
                )),
            ));
        }
        self.total_moves = total as usize;
        self.move_names.insert(name.clone(), self.moves.len());
        self.moves.push((name, file_form, directed, line));
        self.guards.push(guard);
        Ok(())
    }

    fn ignore(&mut self, line: &Line, sections: &[Section]) -> Result<(), DefError> {
        self.close_sets(line);
        if let Some((_, at)) = &self.ignore {
            return Err(self.src.err(
                line,
                0,
                invalid(format!(
                    "`Ignore` given twice (first at line {at}): expected one Ignore listing every set it concerns"
                )),
            ));
        }
        let parts = self.position(sections, Kind::Ignore, 1)?;
        let masks = self
            .sets
            .iter()
            .zip(parts)
            .map(|(set, p)| match p {
                Some(s) => IgnoreMask {
                    perm: s.perm.iter().map(|&b| b == 1).collect(),
                    ori: s.ori.iter().map(|&b| b == 1).collect(),
                },
                None => no_ignore(set),
            })
            .collect();
        self.ignore = Some((masks, line.no));
        Ok(())
    }

    fn skipped(&mut self, line: &Line) {
        if line.first() == "MoveLimits" {
            self.warn(
                line,
                "MoveLimits belongs in the scramble file since ksolve+ 1.1; ignored here".into(),
            );
        } else if !self.warned_deprecated {
            self.warned_deprecated = true;
            self.warn(
                line,
                format!(
                    "`{}` is deprecated and ignored (also any later Multiplicators or ParallelMoves): powers and commuting moves are found automatically",
                    line.first()
                ),
            );
        }
    }
}

/// The error for a puzzle whose moves would take too much memory.
fn too_big(src: &Source, line: &Line, moves: usize, pieces: usize) -> DefError {
    src.err(
        line,
        1,
        invalid(format!(
            "the puzzle is too large: {moves} moves (powers included) over {pieces} pieces make {} entries; expected at most {MAX_MOVE_ENTRIES}",
            moves * pieces
        )),
    )
}

/// Reads a 0/1 mask.
fn mask(src: &Source, line: &Line, v: &[u64]) -> Result<Vec<bool>, DefError> {
    v.iter()
        .enumerate()
        .map(|(t, &x)| match x {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(src.err(
                line,
                t,
                invalid(format!(
                    "`{}` in an Ignore mask: expected 0 (solve) or 1 (may be ignored)",
                    line.toks[t].s
                )),
            )),
        })
        .collect()
}

/// The mask that ignores nothing.
pub(crate) fn no_ignore(set: &SetDef) -> IgnoreMask {
    IgnoreMask {
        perm: vec![false; set.size],
        ori: vec![false; set.size],
    }
}

/// A whole state from the sets a block gave; the others are the identity.
fn fill(sets: &[SetDef], parts: Vec<Option<SetState>>) -> State {
    Transform {
        sets: sets
            .iter()
            .zip(parts)
            .map(|(set, p)| p.unwrap_or_else(|| SetState::identity(set.size)))
            .collect(),
    }
}

/// Builds the puzzle from the commands of `reader`, checking each as it is read.
pub(crate) fn build(mut reader: Reader<'_>) -> Result<(Puzzle, Vec<Warning>), DefError> {
    let src = reader.src;
    let mut b = Builder {
        src,
        name: None,
        sets: Vec::new(),
        set_lines: Vec::new(),
        set_names: HashMap::new(),
        positions: 0,
        sets_closed_by: None,
        solved: None,
        moves: Vec::new(),
        guards: Vec::new(),
        free: Vec::new(),
        known_mod: Vec::new(),
        rules: Vec::new(),
        goal_lines: None,
        move_names: HashMap::new(),
        total_moves: 0,
        ignore: None,
        blocks: Vec::new(),
        forbidden: Vec::new(),
        costs: Vec::new(),
        derived: Vec::new(),
        warned_deprecated: false,
        warnings: Vec::new(),
        stickers: None,
        board: None,
        search_moves: None,
    };
    while let Some(item) = reader.next_def()? {
        match item {
            DefItem::Name(line) => {
                let name = line.rest();
                if b.name.is_some() {
                    b.warn(&line, "`Name` given twice; the last one is used".into());
                }
                b.name = (!name.is_empty()).then(|| name.to_string());
            }
            DefItem::Set(line) => b.add_set(&line)?,
            DefItem::Solved(line, secs, conds) => {
                b.solved(&line, &secs)?;
                b.rules = b.guard_ctx(&line).rules(&conds)?;
                b.goal_lines = Some((line, conds));
            }
            DefItem::Move(line, secs, conds) => {
                let guard = b.guard_ctx(&line).guard(&conds)?;
                b.add_move(line, &secs, guard)?
            }
            DefItem::Ignore(line, secs) => b.ignore(&line, &secs)?,
            DefItem::Block(line, secs) => b.block(&line, &secs)?,
            DefItem::Forbidden { line, groups, rows } => {
                b.close_sets(&line);
                b.forbidden.push((groups, rows));
            }
            DefItem::Derived(line) => {
                b.close_sets(&line);
                b.derived.push(line);
            }
            DefItem::MoveCosts(rows) => b.costs.extend(rows),
            DefItem::SearchMoves(line) => {
                b.close_sets(&line);
                if let Some(first) = &b.search_moves {
                    return Err(src.err(
                        &line,
                        0,
                        invalid(format!(
                            "a second `SearchMoves` line: expected one list of the moves searches use (the first is at line {})",
                            first.no
                        )),
                    ));
                }
                b.search_moves = Some(line);
            }
            DefItem::Skipped(line) => b.skipped(&line),
            DefItem::Stickers(line, rows) => {
                b.close_sets(&line);
                only_one(src, &b.stickers, &line, "Stickers", "one sticker map")?;
                b.stickers = Some((line, rows));
            }
            DefItem::Board(line, rows) => {
                b.close_sets(&line);
                only_one(src, &b.board, &line, "Board", "one board")?;
                b.board = Some((line, rows));
            }
        }
    }
    let Some(first) = reader.first else {
        return Err(DefError::new(
            &src.file,
            1,
            1,
            "",
            ErrorKind::Empty("a definition: `Set` commands, then `Solved` and `Move` blocks"),
        ));
    };
    b.finish(&first)
}

/// Refuses a second block of a kind the definition may hold once (`Stickers`, `Board`),
/// naming the line of the first.
fn only_one(
    src: &Source,
    first: &Option<(Line, Vec<Line>)>,
    line: &Line,
    block: &str,
    expected: &str,
) -> Result<(), DefError> {
    match first {
        Some((first, _)) => Err(src.err(
            line,
            0,
            invalid(format!(
                "a second `{block}` block: expected {expected} (the first is at line {})",
                first.no
            )),
        )),
        None => Ok(()),
    }
}
