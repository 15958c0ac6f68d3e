//! Meaning of a scramble file: positions checked against the puzzle (pieces of the
//! solved state, orientation ranges, `?` only where the definition's `Ignore` allows),
//! algorithms resolved to moves, and the settings (`MaxDepth`, `Slack`, metric,
//! `MoveLimits`) that apply to the scrambles after them, goal included: `Goal` and
//! `GoalAlg` blocks (our extension) read one after another, with no scramble between
//! them, form one goal (any of their positions counts as solved); the next such block
//! after a scramble starts a new goal.

use super::definition::{check_len, no_ignore, number_in};
use super::lex::{entry, Entry, EntryError, Line, Source};
use super::names::{set_index, set_names, MoveNames};
use super::syntax::{Reader, ScrItem, Section};
use super::twsearch::first_piece;
use crate::alg::{self, AlgLine};
use crate::located::{DefError, ErrorKind};
use crate::puzzle::{
    Classes, Goal, GoalPosition, IgnoreMask, LimitKey, Metric, MoveId, MoveLimit, Puzzle, Scramble,
    ScrambleSource, SolveSettings, Target,
};
use std::collections::HashMap;
use std::sync::Arc;

fn invalid(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Invalid(msg.into())
}

/// One entry of a scramble vector: a definite number, or `?` with an optional hint.
fn scramble_entry(src: &Source, line: &Line, t: usize, expected: &str) -> Result<Entry, DefError> {
    let word = &line.toks[t].s;
    match entry(word) {
        Ok(e) => Ok(e),
        Err(EntryError::NotANumber) => Err(src.err(
            line,
            t,
            ErrorKind::NotANumber {
                found: word.clone(),
                expected: expected.to_string(),
            },
        )),
        Err(EntryError::TooLarge) => Err(src.err(
            line,
            t,
            ErrorKind::TooLarge {
                found: word.clone(),
                max: u16::MAX as u64,
            },
        )),
    }
}

/// Reads a `Scramble` block into a definite position and its ignore masks. `first` is
/// the number of the first piece: 1, or 0 in twsearch's `ScrambleState`. A scramble's
/// `?` must be where the definition's `Ignore` allows; a goal's (`goal`) may be
/// anywhere, since the tables and the goal test of a goal are built from its own masks
/// (a cross leaves every piece but four edges free). A goal's permutation may also
/// name classes by words of letters: the positions of a class hold, in any order, the
/// pieces solved there (see [`GoalPosition::classes`]); they come back per set and
/// position (empty for a scramble).
fn position(
    src: &Source,
    puzzle: &Puzzle,
    sets: &HashMap<String, usize>,
    name: &str,
    sections: &[Section],
    first: u64,
    goal: bool,
) -> Result<(Target, Classes), DefError> {
    let mut state = puzzle.solved.clone();
    let mut ignore: Vec<_> = puzzle.sets.iter().map(no_ignore).collect();
    let mut classes: Classes = Vec::new();
    let mut class_ids: HashMap<String, u16> = HashMap::new();
    let mut given = vec![false; puzzle.sets.len()];
    for sec in sections {
        let k = set_index(src, sets, &puzzle.sets, &sec.name)?;
        let set = &puzzle.sets[k];
        if given[k] {
            return Err(src.err(
                &sec.name,
                0,
                ErrorKind::DuplicateSet {
                    set: set.name.clone(),
                    within: format!("scramble `{name}`"),
                },
            ));
        }
        given[k] = true;
        let allowed = &puzzle.ignore[k];
        let n = set.size as u64;

        // Permutation: definite pieces and hints must come from the solved state's
        // multiset of pieces; a bare `?` takes the pieces left over, ascending.
        let row = &sec.rows[0];
        check_len(src, row, set)?;
        let mut left = vec![0usize; set.size];
        for &l in &puzzle.solved.sets[k].perm {
            left[l as usize] += 1;
        }
        let last = n - 1 + first;
        let expected = format!("a piece number from {first} to {last}, `?` or `?N`");
        let mut perm: Vec<Option<u16>> = vec![None; set.size];
        let mut has_blank = false;
        for (t, slot) in perm.iter_mut().enumerate() {
            let word = &row.toks[t].s;
            if goal && word.chars().all(|c| c.is_ascii_alphabetic()) {
                // A class: the piece solved here, and any other of its class.
                let next = class_ids.len() as u16;
                let id = *class_ids.entry(word.clone()).or_insert(next);
                if classes.is_empty() {
                    classes = puzzle.sets.iter().map(|s| vec![None; s.size]).collect();
                }
                classes[k][t] = Some(id);
                let l = puzzle.solved.sets[k].perm[t] as usize;
                if left[l] == 0 {
                    return Err(src.err(
                        row,
                        t,
                        ErrorKind::NotAPermutation(format!(
                            "the piece solved at position {} is named elsewhere in the row as well: expected each piece once, in its class or by its number",
                            t + 1
                        )),
                    ));
                }
                left[l] -= 1;
                *slot = Some(l as u16);
                continue;
            }
            let e = scramble_entry(src, row, t, &expected)?;
            let label = match e {
                Entry::Num(x) => Some(x),
                Entry::Unknown(hint) => {
                    if !goal && !allowed.perm[t] {
                        return Err(src.err(
                            row,
                            t,
                            ErrorKind::IgnoreNotAllowed {
                                found: row.toks[t].s.clone(),
                                pos: t + 1,
                                set: set.name.clone(),
                                what: "permutation",
                            },
                        ));
                    }
                    ignore[k].perm[t] = true;
                    if hint.is_none() && !puzzle.blocks.is_empty() {
                        return Err(src.err(
                            row,
                            t,
                            invalid("a bare `?` in a permutation on a puzzle with Blocks: expected a hint `?N`, so that the bandaging of the position is known"),
                        ));
                    }
                    hint
                }
            };
            if let Some(x) = label {
                if x < first || x > last {
                    return Err(src.err(
                        row,
                        t,
                        ErrorKind::NotAPermutation(format!(
                            "`{x}` is not a piece of set `{}`: expected numbers from {first} to {last}",
                            set.name
                        )),
                    ));
                }
                let l = (x - first) as usize;
                if left[l] == 0 {
                    let times = puzzle.solved.sets[k]
                        .perm
                        .iter()
                        .filter(|&&p| p as usize == l)
                        .count();
                    return Err(src.err(
                        row,
                        t,
                        ErrorKind::NotAPermutation(format!(
                            "piece {x} appears more often than in the solved state ({times} time{}): expected each piece of set `{}` as often as in the solved state",
                            if times == 1 { "" } else { "s" },
                            set.name
                        )),
                    ));
                }
                left[l] -= 1;
                *slot = Some(l as u16);
            } else {
                has_blank = true;
            }
        }
        if has_blank {
            let mut spare = left
                .iter()
                .enumerate()
                .flat_map(|(l, &c)| std::iter::repeat_n(l as u16, c));
            for p in perm.iter_mut().filter(|p| p.is_none()) {
                *p = spare.next();
            }
        }
        state.sets[k].perm = perm.into_iter().map(|p| p.unwrap_or(0)).collect();

        // Orientation: left out means all 0, except that a goal's free positions free
        // their twist too (a piece that may be anywhere may be turned any way); a bare
        // `?` means 0.
        state.sets[k].ori = vec![0; set.size];
        if goal && sec.rows.get(1).is_none() {
            ignore[k].ori = ignore[k].perm.clone();
        }
        if let Some(row) = sec.rows.get(1) {
            check_len(src, row, set)?;
            let max = set.orientations as u64 - 1;
            let expected = format!("an orientation from 0 to {max}, `?` or `?N`");
            for t in 0..row.toks.len() {
                let value = match scramble_entry(src, row, t, &expected)? {
                    Entry::Num(x) => x,
                    Entry::Unknown(hint) => {
                        if !goal && !allowed.ori[t] {
                            return Err(src.err(
                                row,
                                t,
                                ErrorKind::IgnoreNotAllowed {
                                    found: row.toks[t].s.clone(),
                                    pos: t + 1,
                                    set: set.name.clone(),
                                    what: "orientation",
                                },
                            ));
                        }
                        ignore[k].ori[t] = true;
                        hint.unwrap_or(0)
                    }
                };
                if value > max {
                    return Err(src.err(
                        row,
                        t,
                        ErrorKind::OrientationRange {
                            set: set.name.clone(),
                            value,
                            max,
                        },
                    ));
                }
                state.sets[k].ori[t] = value as u8;
            }
        }
    }
    Ok((Target { state, ignore }, classes))
}

/// Reads a `ScrambleAlg` body in the algorithm notation of [`crate::alg`] (a plain
/// ksolve+ list of move names reads as before), checking that no move splits a Block on
/// the way (ksolve+ refuses those too).
fn alg(
    src: &Source,
    puzzle: &Puzzle,
    names: &alg::MoveNames,
    rows: &[Line],
) -> Result<Vec<MoveId>, DefError> {
    let lines: Vec<AlgLine> = rows
        .iter()
        .map(|r| AlgLine {
            no: r.no,
            text: &r.text,
        })
        .collect();
    let parsed = alg::parse(&src.file, &lines, names)?;
    parsed.legal_moves(puzzle, &src.file, &lines)
}

/// Reads a `ScrambleFacelets` body: the colours, one letter per sticker in the order of
/// the definition's `Stickers` block, over any number of lines (blanks ignored). A
/// malformed string is an error at the offending letter; an impossible colouring is a
/// scramble of its own that says why (the others are still solved).
fn facelets(
    src: &Source,
    puzzle: &Puzzle,
    group: Option<&crate::group::Group>,
    opener: &Line,
    rows: &[Line],
) -> Result<ScrambleSource, DefError> {
    use crate::sticker::read::{read, FaceletError, Reading};
    let mut letters = Vec::new();
    let mut at: Vec<(&Line, usize)> = Vec::new();
    for row in rows {
        for (i, c) in row.text.chars().enumerate() {
            if !c.is_whitespace() {
                letters.push(c);
                at.push((row, i + 1));
            }
        }
    }
    let reading = read(puzzle, &letters, group).map_err(|e| {
        let place = match &e {
            FaceletError::NotALetter { index, .. } | FaceletError::UnknownLetter { index, .. } => {
                Some(at[*index])
            }
            FaceletError::Length { expected, .. } => at
                .get(*expected)
                .copied()
                .or_else(|| at.last().map(|&(l, c)| (l, c + 1))),
            FaceletError::NoMap => None,
        };
        match place {
            Some((line, col)) => src.err_col(line, col, invalid(e.to_string())),
            None => src.err(opener, 0, invalid(e.to_string())),
        }
    })?;
    Ok(match reading {
        Reading::Position(state) => ScrambleSource::Position(Target {
            state,
            ignore: puzzle.sets.iter().map(no_ignore).collect(),
        }),
        Reading::Impossible(p) => ScrambleSource::Impossible(p.to_string()),
    })
}

/// Reads a `MoveLimits` body: `MOVE N` or `BASE* N` per line, as in ksolve+, or several
/// such names and one number (`SA* SB* SC 1`), a limit the named moves share.
fn limits(
    src: &Source,
    puzzle: &Puzzle,
    names: &MoveNames,
    rows: &[Line],
) -> Result<Vec<MoveLimit>, DefError> {
    let mut out = Vec::new();
    for row in rows {
        if row.toks.len() < 2 {
            return Err(src.err(
                row,
                row.toks.len(),
                invalid(
                    "a MoveLimits line needs a limit after the moves: expected `MOVE LIMIT`, \
                     `MOVE* LIMIT` or several moves and one shared LIMIT"
                        .to_string(),
                ),
            ));
        }
        let last = row.toks.len() - 1;
        let mut keys = Vec::with_capacity(last);
        for col in 0..last {
            keys.push(limit_key(src, puzzle, names, row, col)?);
        }
        let max = number_in(
            src,
            row,
            last,
            0,
            u32::MAX as u64,
            "a limit: a number of moves, 0 or more",
        )? as u32;
        out.push(MoveLimit { keys, max });
    }
    Ok(out)
}

/// The move or family (`BASE*`) named by word `col` of a `MoveLimits` line.
fn limit_key(
    src: &Source,
    puzzle: &Puzzle,
    names: &MoveNames,
    row: &Line,
    col: usize,
) -> Result<LimitKey, DefError> {
    let name = &row.toks[col].s;
    match name.strip_suffix('*') {
        Some(base) => match names.base(base) {
            Some(b) => Ok(LimitKey::Family(b)),
            None => {
                let known: Vec<&str> = puzzle.base_moves.iter().map(|m| m.name.as_str()).collect();
                Err(src.err(
                    row,
                    col,
                    ErrorKind::UnknownMove {
                        found: name.clone(),
                        known: format!("`*` follows a move of the definition: {}", known.join(" ")),
                    },
                ))
            }
        },
        None => names
            .resolve(src, row, col)
            .map(LimitKey::Move)
            .map_err(|e| {
                // ksolve+ reads one limit per line; a number before the last word is most
                // likely a second `MOVE LIMIT` pair written on the same line.
                if name.bytes().all(|c| c.is_ascii_digit()) {
                    src.err(
                        row,
                        col,
                        invalid(format!(
                            "`{name}` is not a move: a MoveLimits line is moves and one limit at \
                         the end; put each limit on its own line"
                        )),
                    )
                } else {
                    e
                }
            }),
    }
}

/// Adds a goal block's position to the goal being read, or starts a new goal when a
/// scramble came since the last goal block, and puts the goal in force.
fn add_goal(
    goal: &mut Option<Vec<GoalPosition>>,
    settings: &mut SolveSettings,
    line: &Line,
    (target, classes): (Target, Classes),
) {
    let positions = goal.get_or_insert_with(Vec::new);
    positions.push(GoalPosition {
        name: line.rest().to_string(),
        target,
        line: line.no,
        classes,
    });
    settings.goal = Some(Arc::new(Goal::new(positions.clone())));
}

/// The position a `Goal` or `GoalAlg` block gives (any other item is the caller's).
fn goal_block(
    src: &Source,
    puzzle: &Puzzle,
    sets: &HashMap<String, usize>,
    alg_names: &alg::MoveNames,
    item: ScrItem,
) -> Result<(Line, (Target, Classes)), DefError> {
    match item {
        ScrItem::Goal(line, secs) => {
            let first = first_piece(&line);
            let target = position(src, puzzle, sets, line.rest(), &secs, first, true)?;
            Ok((line, target))
        }
        ScrItem::GoalAlg(line, rows) => {
            let seq = alg(src, puzzle, alg_names, &rows)?;
            let target = Target {
                state: puzzle.apply_sequence(&puzzle.solved, &seq),
                ignore: puzzle
                    .sets
                    .iter()
                    .map(no_ignore)
                    .collect::<Vec<IgnoreMask>>(),
            };
            Ok((line, (target, Vec::new())))
        }
        _ => unreachable!("goal_block is given goal blocks only"),
    }
}

/// Builds the goal of a goal file (`--goal`): its `Goal` and `GoalAlg` blocks, all of
/// them one goal, as consecutive blocks of a scramble file are.
pub(crate) fn build_goal(mut reader: Reader<'_>, puzzle: &Puzzle) -> Result<Goal, DefError> {
    let src = reader.src;
    let sets = set_names(puzzle);
    let alg_names = alg::MoveNames::new(puzzle);
    let mut positions = Vec::new();
    while let Some(item) = reader.next_scramble()? {
        match item {
            item @ (ScrItem::Goal(..) | ScrItem::GoalAlg(..)) => {
                let (line, (target, classes)) = goal_block(src, puzzle, &sets, &alg_names, item)?;
                positions.push(GoalPosition {
                    name: line.rest().to_string(),
                    target,
                    line: line.no,
                    classes,
                });
            }
            _ => {
                let line = reader.last.clone().expect("a command has a line");
                return Err(src.err(
                    &line,
                    0,
                    invalid("a goal file holds only `Goal` and `GoalAlg` blocks: expected one of them (scrambles and settings belong in a scramble file)"),
                ));
            }
        }
    }
    if positions.is_empty() {
        return Err(DefError::new(
            &src.file,
            1,
            1,
            "",
            ErrorKind::Empty("a goal: `Goal` or `GoalAlg` blocks"),
        ));
    }
    Ok(Goal::new(positions))
}

/// Builds the scrambles from the commands of `reader`, checking each as it is read.
pub(crate) fn build(mut reader: Reader<'_>, puzzle: &Puzzle) -> Result<Vec<Scramble>, DefError> {
    let src = reader.src;
    let sets = set_names(puzzle);
    let names = MoveNames::new(puzzle);
    let alg_names = alg::MoveNames::new(puzzle);
    let mut settings = SolveSettings::for_puzzle(puzzle);
    let mut out = Vec::new();
    // The group judges positions given by their colours; built at the first of them.
    let mut group = None;
    // The positions of the goal being read, while no scramble has followed them.
    let mut goal: Option<Vec<GoalPosition>> = None;
    while let Some(item) = reader.next_scramble()? {
        let (line, source) = match item {
            ScrItem::Scramble(line, secs) => {
                let first = first_piece(&line);
                let (target, _) = position(src, puzzle, &sets, line.rest(), &secs, first, false)?;
                (line, ScrambleSource::Position(target))
            }
            ScrItem::Alg(line, rows) => {
                let seq = alg(src, puzzle, &alg_names, &rows)?;
                (line, ScrambleSource::Alg(seq))
            }
            ScrItem::Random(line) => (line, ScrambleSource::Random),
            ScrItem::Facelets(line, rows) => {
                let group = group.get_or_insert_with(|| crate::group::Group::new(puzzle).ok());
                let source = facelets(src, puzzle, group.as_ref(), &line, &rows)?;
                (line, source)
            }
            ScrItem::Setting(line) => {
                let v = number_in(
                    src,
                    &line,
                    1,
                    0,
                    u32::MAX as u64,
                    "a number of moves, 0 or more",
                )? as u32;
                if line.first() == "MaxDepth" {
                    settings.max_depth = v;
                } else {
                    settings.slack = v;
                }
                continue;
            }
            ScrItem::Metric(qtm) => {
                settings.metric = if qtm { Metric::Qtm } else { Metric::Htm };
                continue;
            }
            ScrItem::MoveLimits(rows) => {
                settings.limits = puzzle.with_default_limits(limits(src, puzzle, &names, &rows)?);
                continue;
            }
            item @ (ScrItem::Goal(..) | ScrItem::GoalAlg(..)) => {
                let (line, target) = goal_block(src, puzzle, &sets, &alg_names, item)?;
                add_goal(&mut goal, &mut settings, &line, target);
                continue;
            }
        };
        goal = None;
        out.push(Scramble {
            name: line.rest().to_string(),
            source,
            settings: settings.clone(),
            line: line.no,
        });
    }
    let Some(first) = reader.first else {
        return Err(DefError::new(
            &src.file,
            1,
            1,
            "",
            ErrorKind::Empty("scrambles: `Scramble`, `ScrambleAlg` or `RandomScramble` blocks"),
        ));
    };
    if out.is_empty() {
        return Err(src.err(
            &first,
            0,
            invalid("the file defines no scramble: expected at least one `Scramble`, `ScrambleAlg` or `RandomScramble` block"),
        ));
    }
    Ok(out)
}
