//! Algorithms: the move-sequence notation read wherever algorithms are read (`ScrambleAlg`
//! blocks of scramble files and `ksolve alg`), and the tools that work on them.
//!
//! The notation extends ksolve+'s plain list of move names: powers (`R2'`, `R3`, reduced
//! modulo the move's order), repeated or inverted groups (`(R U)3`, `(R U)'`),
//! commutators (`[A, B]` = A B A' B'), conjugates (`[A: B]` = A B A'), nesting, and `//`
//! comments to the end of the line. A word that is exactly the name of a move of the
//! definition is always that move, so every ksolve+ file reads as before even when its
//! move names contain digits, primes or brackets.
//!
//! `parse` turns text into an [`Alg`] (a tree whose expanded length is known and bounded
//! before anything is expanded); [`Alg::expand`] walks it, forwards or inverted, one
//! move at a time; `tools` simplifies and measures flat move sequences.

mod parse;
mod tools;

#[cfg(test)]
mod tests;

pub use parse::{parse, AlgLine, MoveNames};
pub use tools::{inverse_sequence, order, simplify};

use crate::located::{DefError, ErrorKind};
use crate::puzzle::{MoveId, Puzzle};

/// The most moves an algorithm may expand to. A plain list of one-character move names
/// in the largest input file ksolve reads has this many, so every file that read before
/// still reads; `(R U)1000000000` is refused where it is written instead of filling
/// memory.
pub const MAX_ALG_MOVES: u64 = crate::storage::fsutil::MAX_INPUT_BYTES / 2 + 1;

/// How deeply groups and brackets may nest. The tree is walked recursively, so this
/// bounds the stack any input can use.
pub const MAX_NESTING: usize = 200;

/// Where a part of an algorithm was written: the index of its line among the lines
/// given to [`parse`] and its 1-based column in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// One part of an algorithm. Kept to 16 bytes: a plain million-move `ScrambleAlg` holds
/// one per move while it is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// Base move `base` to the power `power`, already reduced modulo its order
    /// (0 is the identity and expands to nothing). Base moves number at most
    /// `MAX_MOVES`, so `u16` holds them.
    Move { base: u16, power: u32, at: Pos },
    /// A bracketed part.
    Group(Box<Group>),
}

/// A bracketed part: its shape, raised to `times` and inverted when `inverse`
/// (`(A)3'` is the inverse of A A A). `times` is 0 when the shape expands to no move, so
/// that `(R4)1000000000000` costs nothing to expand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Group {
    pub shape: Shape,
    pub times: u64,
    pub inverse: bool,
}

/// The three bracketed constructs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `(A)`.
    Paren(Vec<Node>),
    /// `[A, B]` = A B A' B'.
    Commutator(Vec<Node>, Vec<Node>),
    /// `[A: B]` = A B A'.
    Conjugate(Vec<Node>, Vec<Node>),
}

/// The number of moves a part expands to, forwards and inverted. The two differ only
/// for directed moves, whose inverse is made of order - 1 copies of the move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Len {
    pub fwd: u64,
    pub inv: u64,
}

/// A parsed algorithm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alg {
    pub(crate) nodes: Vec<Node>,
    pub(crate) len: Len,
}

impl Alg {
    /// The number of moves [`Alg::expand`] makes, forwards or inverted.
    pub fn len(&self, inverse: bool) -> u64 {
        if inverse {
            self.len.inv
        } else {
            self.len.fwd
        }
    }

    /// Whether the algorithm expands to no move at all.
    pub fn is_empty(&self) -> bool {
        self.len.fwd == 0 && self.len.inv == 0
    }

    /// Calls `f` with each move of the algorithm (of its inverse when `inverse`) and
    /// where the move was written, in order; stops at the first error `f` returns.
    pub fn expand<E>(
        &self,
        puzzle: &Puzzle,
        inverse: bool,
        f: &mut impl FnMut(MoveId, Pos) -> Result<(), E>,
    ) -> Result<(), E> {
        emit_seq(puzzle, &self.nodes, inverse, f)
    }

    /// The algorithm (or its inverse) as a flat list of moves.
    pub fn moves(&self, puzzle: &Puzzle, inverse: bool) -> Vec<MoveId> {
        let mut out = Vec::with_capacity(self.len(inverse) as usize);
        let _ = self.expand::<()>(puzzle, inverse, &mut |m, _| {
            out.push(m);
            Ok(())
        });
        out
    }
}

impl Alg {
    /// The algorithm's moves, checked against the puzzle's Blocks as they are made from
    /// the solved state (ksolve+ refuses a move that would split a Block): the first
    /// move that would is reported where it is written in `lines` of `file`, which must
    /// be the lines the algorithm was parsed from.
    pub fn legal_moves(
        &self,
        puzzle: &Puzzle,
        file: &str,
        lines: &[AlgLine<'_>],
    ) -> Result<Vec<MoveId>, DefError> {
        if puzzle.blocks.is_empty() && !puzzle.has_guards() {
            return Ok(self.moves(puzzle, false));
        }
        let mut seq = Vec::with_capacity(self.len(false) as usize);
        let mut state = puzzle.solved.clone();
        let mut next = state.clone();
        self.expand(puzzle, false, &mut |id, at| {
            let m = puzzle.mv(id);
            if !puzzle.block_allows(&state, id) {
                let line = &lines[at.line as usize];
                let why = if puzzle.guard_allows(&state, id) {
                    "it would split a Block; expected a move the bandaged position allows"
                } else {
                    "its `When` condition does not hold in the position it would be made from; expected a move the position allows"
                };
                return Err(DefError::new(
                    file,
                    line.no,
                    at.col as usize,
                    line.text,
                    ErrorKind::Invalid(format!("move `{}` is blocked here: {why}", m.name)),
                ));
            }
            state.then_into(&m.effect, &puzzle.sets, &mut next);
            std::mem::swap(&mut state, &mut next);
            seq.push(id);
            Ok(())
        })?;
        Ok(seq)
    }
}

fn emit_seq<E>(
    puzzle: &Puzzle,
    nodes: &[Node],
    inverse: bool,
    f: &mut impl FnMut(MoveId, Pos) -> Result<(), E>,
) -> Result<(), E> {
    if inverse {
        nodes
            .iter()
            .rev()
            .try_for_each(|n| emit_node(puzzle, n, true, f))
    } else {
        nodes
            .iter()
            .try_for_each(|n| emit_node(puzzle, n, false, f))
    }
}

fn emit_node<E>(
    puzzle: &Puzzle,
    node: &Node,
    inverse: bool,
    f: &mut impl FnMut(MoveId, Pos) -> Result<(), E>,
) -> Result<(), E> {
    match node {
        Node::Move { base, power, at } => {
            let b = &puzzle.base_moves[*base as usize];
            let p = if inverse {
                invert_power(*power, b.order)
            } else {
                *power
            };
            if b.directed {
                // A directed move has no generated powers: its powers are repeats.
                for _ in 0..p {
                    f(b.powers[0], *at)?;
                }
            } else if p != 0 {
                f(b.powers[p as usize - 1], *at)?;
            }
            Ok(())
        }
        Node::Group(g) => {
            let Group {
                shape,
                times,
                inverse: inv,
            } = &**g;
            let inverse = inverse != *inv;
            for _ in 0..*times {
                match shape {
                    Shape::Paren(a) => emit_seq(puzzle, a, inverse, f)?,
                    // [A, B]' = [B, A], and [A: B]' = [A: B'].
                    Shape::Commutator(a, b) => {
                        let (x, y) = if inverse { (b, a) } else { (a, b) };
                        emit_seq(puzzle, x, false, f)?;
                        emit_seq(puzzle, y, false, f)?;
                        emit_seq(puzzle, x, true, f)?;
                        emit_seq(puzzle, y, true, f)?;
                    }
                    Shape::Conjugate(a, b) => {
                        emit_seq(puzzle, a, false, f)?;
                        emit_seq(puzzle, b, inverse, f)?;
                        emit_seq(puzzle, a, true, f)?;
                    }
                }
            }
            Ok(())
        }
    }
}

/// The power that undoes `power` of a move of order `order`.
pub(crate) fn invert_power(power: u32, order: u32) -> u32 {
    let order = order.max(1);
    (order - power % order) % order
}
