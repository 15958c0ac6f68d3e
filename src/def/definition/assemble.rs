//! The last step of reading a definition: once every command is read, the gathered
//! sets, moves and blocks are checked as a whole (a set and a move exist, move names are
//! distinct, derived moves fit the guards) and assembled into the [`Puzzle`]. It lives
//! apart from the per-command reading in `definition/mod.rs` because it runs once, on the
//! whole file, and draws in the other readers (twsearch moves, `Forbidden`, `Stickers`,
//! `MoveCosts`).

use super::{invalid, no_ignore, Builder};
use crate::def::forbidden::forbidden_pairs;
use crate::def::lex::Line;
use crate::def::twsearch;
use crate::located::{DefError, Warning};
use crate::puzzle::{Puzzle, Transform};
use std::collections::HashMap;

impl Builder<'_> {
    /// Assembles the puzzle once every command is read.
    pub(super) fn finish(self, first: &Line) -> Result<(Puzzle, Vec<Warning>), DefError> {
        let src = self.src;
        if self.sets.is_empty() {
            return Err(src.err(
                first,
                0,
                invalid("the definition declares no set: expected at least one `Set NAME PIECES ORIENTATIONS`"),
            ));
        }
        if self.moves.is_empty() {
            return Err(src.err(
                first,
                0,
                invalid("the definition has no move: expected at least one `Move NAME ... End`"),
            ));
        }
        let solved = match self.solved {
            Some((s, _)) => s,
            None => Transform::identity(&self.sets),
        };
        let ignore = match self.ignore {
            Some((m, _)) => m,
            None => self.sets.iter().map(no_ignore).collect(),
        };
        let mut move_lines = Vec::with_capacity(self.moves.len());
        let mut base: Vec<_> = self
            .moves
            .into_iter()
            .map(|(name, file_form, directed, line)| {
                move_lines.push(line);
                (name, file_form, directed)
            })
            .collect();
        let mut total_moves = self.total_moves;
        let aliases = twsearch::expand(
            src,
            &self.sets,
            self.positions,
            &mut total_moves,
            &mut base,
            &mut move_lines,
            self.derived,
        )?;
        // A sequence of guarded moves would need the guards of every step, in the
        // positions between them: not a guard of one position.
        if self.guards.iter().any(Option::is_some) && base.len() > self.guards.len() {
            return Err(src.err(
                &move_lines[self.guards.len()],
                0,
                invalid(
                    "`MoveSequence` in a definition with guarded moves (`When`): a sequence has no single guard; expected each move written out with its own `When` lines",
                ),
            ));
        }
        let mut puzzle = Puzzle::new(self.name, self.sets, solved, base, ignore, self.blocks);
        for (slot, g) in puzzle.guards.iter_mut().zip(self.guards) {
            *slot = g;
        }
        if self.free.iter().flatten().any(|&f| f) {
            // A free position of the goal may be left unsolved by any scramble, too.
            for (mask, free) in puzzle.ignore.iter_mut().zip(&self.free) {
                for (m, &f) in mask.perm.iter_mut().zip(free) {
                    *m |= f;
                }
            }
            puzzle.free = self.free;
        }
        puzzle.set_known_mod(self.known_mod);
        puzzle.rules = self.rules;
        if let Some((solved, rules)) = &self.goal_lines {
            crate::def::guard::check_goal(src, &puzzle, solved, rules)?;
        }
        // Two moves with one name would make scrambles and limits ambiguous.
        let mut by_name: HashMap<&str, usize> = HashMap::new();
        for m in &puzzle.moves {
            if let Some(&other) = by_name.get(m.name.as_str()) {
                let (a, b) = (
                    &puzzle.base_moves[other].name,
                    &puzzle.base_moves[m.base].name,
                );
                return Err(src.err(
                    &move_lines[m.base],
                    1,
                    invalid(format!(
                        "the name `{}` belongs both to move `{a}` (line {}) or one of its powers and to move `{b}` or one of its powers: expected distinct names",
                        m.name, move_lines[other].no
                    )),
                ));
            }
            by_name.insert(&m.name, m.base);
        }
        twsearch::attach_aliases(src, &mut puzzle, aliases)?;
        let pairs = forbidden_pairs(src, &puzzle, &self.forbidden)?;
        for (a, b) in pairs {
            puzzle.forbid(a, b);
        }
        if let Some((line, rows)) = &self.stickers {
            puzzle.stickers = Some(crate::def::stickers::read(src, &puzzle, line, rows)?);
        }
        if let Some((line, rows)) = &self.board {
            puzzle.board = Some(crate::def::board::read(src, &puzzle, line, rows)?);
        }
        crate::def::costs::apply(src, &mut puzzle, &self.costs)?;
        if let Some(line) = &self.search_moves {
            puzzle.searched = search_moves(src, &puzzle, line)?;
        }
        Ok((puzzle, self.warnings))
    }
}

/// The base moves a `SearchMoves` line names (a power or an alias names its base move),
/// as [`Puzzle::searched`] holds them.
fn search_moves(
    src: &crate::def::lex::Source,
    puzzle: &Puzzle,
    line: &Line,
) -> Result<Vec<bool>, DefError> {
    let mut searched = vec![false; puzzle.base_moves.len()];
    for (col, tok) in line.toks.iter().enumerate().skip(1) {
        match puzzle.move_by_name(&tok.s) {
            Some(id) => searched[puzzle.mv(id).base] = true,
            None => {
                let known: Vec<&str> = puzzle.base_moves.iter().map(|b| b.name.as_str()).collect();
                return Err(src.err(
                    line,
                    col,
                    invalid(format!(
                        "`{}` is not a move of the definition: expected the names of the moves searches use, from {}",
                        tok.s,
                        known.join(", ")
                    )),
                ));
            }
        }
    }
    Ok(searched)
}
