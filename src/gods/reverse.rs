//! Whether every move can be taken back: the move graph is then undirected, and a
//! breadth-first search need not remember every position it has seen.
//!
//! An ordinary move is undone by a power of its own base move. A guarded or directed
//! move (`When`, `noinverse`) is used only as written, so its undoing must be another
//! move: one whose effect is the inverse, of the same cost, that is always allowed where
//! the first move lands. The last part is decided from the guards alone: the reverse
//! move's condition "position `p` holds one of `L`" reads, before the first move, the
//! label at the position `q` the first move carries to `p`, so it holds whenever the
//! first move's own guard already asks `q` for labels within `L`. A sliding tile's guard
//! ("this cell is empty") is met by the slide back (the tile's old cell is empty after
//! it), so sliding puzzles come out undirected; nothing is assumed per puzzle.

use crate::puzzle::Guard;
use crate::puzzle::{MoveId, Puzzle};

/// Whether after any move `x -> y` the position `y` has a move back to `x` of the same
/// cost (`costs[m]` per move; moves of cost 0 are not searched and not checked).
pub(crate) fn every_move_reversible(puzzle: &Puzzle, costs: &[u32]) -> bool {
    let nm = puzzle.moves.len();
    (0..nm).all(|m| {
        let mv = &puzzle.moves[m];
        let base = &puzzle.base_moves[mv.base];
        let guard = puzzle.guards.get(mv.base).and_then(Option::as_ref);
        if costs[m] == 0 || (!base.directed && guard.is_none()) {
            return true;
        }
        let inverse = mv.effect.inverse(&puzzle.sets);
        (0..nm).any(|r| {
            let back = &puzzle.moves[r];
            costs[r] == costs[m]
                && back.effect == inverse
                && (puzzle.blocks.is_empty()
                    || puzzle.base_moves[back.base].touched == base.touched)
                && puzzle
                    .guard_of(MoveId(r as u16))
                    .is_none_or(|g| implied_after(guard, g, puzzle, m))
        })
    })
}

/// Whether `after` holds in every position move `m` reaches from a position where
/// `before` holds (`None`: the move is unguarded, so nothing is known before it).
fn implied_after(before: Option<&Guard>, after: &Guard, puzzle: &Puzzle, m: usize) -> bool {
    let effect = &puzzle.moves[m].effect;
    after.conds.iter().all(|c| {
        // The label at `c.pos` after the move is the one at `from` before it.
        let from = effect.sets[c.set].perm[c.pos] as usize;
        before.is_some_and(|g| {
            g.conds.iter().any(|b| {
                b.set == c.set
                    && b.pos == from
                    && b.labels.iter().all(|l| c.labels.binary_search(l).is_ok())
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::parse_puzzle;
    use crate::puzzle::Metric;

    fn costs(p: &Puzzle) -> Vec<u32> {
        (0..p.moves.len())
            .map(|m| Metric::Htm.cost(p, MoveId(m as u16)))
            .collect()
    }

    fn puzzle(moves: &str) -> Puzzle {
        let text = format!("Name t\nSet C 3 1\nSolved\nC\n1 2 3\nEnd\n{moves}");
        parse_puzzle(text.as_bytes(), "t.def").unwrap().0
    }

    /// A blank (label 3) on a row of three cells, sliding left and right.
    const SLIDES: &str = "Move L2\nWhen C 2 3\nC\n2 1 3\nEnd\nMove R1\nWhen C 1 3\nC\n2 1 3\nEnd\n\
        Move L3\nWhen C 3 3\nC\n1 3 2\nEnd\nMove R2\nWhen C 2 3\nC\n1 3 2\nEnd\n";

    #[test]
    fn slides_with_slides_back_are_reversible() {
        let p = puzzle(SLIDES);
        assert!(every_move_reversible(&p, &costs(&p)));
    }

    #[test]
    fn a_slide_without_its_way_back_is_directed() {
        // Without R2, the blank can go from cell 3 to cell 2 but never back.
        let p = puzzle(
            "Move L2\nWhen C 2 3\nC\n2 1 3\nEnd\nMove R1\nWhen C 1 3\nC\n2 1 3\nEnd\n\
             Move L3\nWhen C 3 3\nC\n1 3 2\nEnd\n",
        );
        assert!(!every_move_reversible(&p, &costs(&p)));
    }

    #[test]
    fn a_reverse_whose_guard_may_fail_is_not_a_reverse() {
        // R2 asks cell 2 for label 1, which the slide L3 does not promise to leave there.
        let p = puzzle(
            "Move L2\nWhen C 2 3\nC\n2 1 3\nEnd\nMove R1\nWhen C 1 3\nC\n2 1 3\nEnd\n\
             Move L3\nWhen C 3 3\nC\n1 3 2\nEnd\nMove R2\nWhen C 2 1\nC\n1 3 2\nEnd\n",
        );
        assert!(!every_move_reversible(&p, &costs(&p)));
    }

    #[test]
    fn ordinary_and_noinverse_moves() {
        let p = puzzle("Move A\nC\n2 3 1\nEnd\n");
        assert!(every_move_reversible(&p, &costs(&p)));
        let p = puzzle("Move A noinverse\nC\n2 3 1\nEnd\n");
        assert!(!every_move_reversible(&p, &costs(&p)));
    }
}
