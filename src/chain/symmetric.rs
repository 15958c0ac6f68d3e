//! Moves a chain steps together: the orbits of base moves under the puzzle's
//! symmetries that keep every move on its axis ([`alike_orbits`]).
//!
//! One power step on one move rarely leads from a subgroup to a smaller one whose
//! picture is exact: on the 4x4x4 in outer block turns, squaring `Uw` alone leaves a
//! group no arrangement of pieces describes, while squaring `Uw` and `Dw` together (and
//! `Fw` with `Bw`) keeps the `R` and `L` centres on their two faces. A pair like `Uw`
//! and `Dw` is what a symmetry of the puzzle carries onto one another while it carries
//! every move onto one that commutes with it (a half turn or a mirror that keeps each
//! axis): the two moves are alike, and a step that treats them alike keeps the
//! subgroup's pieces in the same pattern on both sides. So where the subgroups of single
//! steps are too many to count, the finder counts those whose steps are the same on
//! every such orbit (729 on the 4x4x4 rather than 531,441).
//!
//! The symmetries here are read from how the moves overlap, not searched on the points
//! ([`crate::symmetry`] needs tens of seconds on a 4x4x4): a permutation of the base
//! moves that keeps each move's order and how many pieces of each set it moves, how many
//! pieces of each set any two moves both move, and which pairs commute. A true symmetry
//! does all of that; a permutation that does it without being one only proposes
//! candidates, and every candidate is counted and its picture checked exactly as any
//! other.

use super::subgroup::Subgroup;
use crate::puzzle::Puzzle;

/// The most permutations tried before the search gives up (and each move stands alone).
const SEARCH_BUDGET: usize = 200_000;

/// The orbits of the base moves `top` keeps under the permutations of them that keep
/// their overlaps, `top`'s steps, and every move on a move that commutes with it; each
/// orbit sorted, moves `top` drops left out. Every move is in its own orbit when no such
/// permutation but the identity is found (or the search runs out of budget).
pub fn alike_orbits(puzzle: &Puzzle, top: &Subgroup) -> Vec<Vec<usize>> {
    let kept: Vec<usize> = (0..top.steps.len())
        .filter(|&b| top.steps[b] < puzzle.base_moves[b].order)
        .collect();
    let n = kept.len();
    let marks: Vec<&Vec<Vec<bool>>> = kept
        .iter()
        .map(|&b| &puzzle.base_moves[b].touched)
        .collect();
    // What a move is alone: its order, whether it is directed, its step in `top`, and
    // how many positions of each set it moves.
    let colour: Vec<(u32, bool, u32, Vec<usize>)> = kept
        .iter()
        .zip(&marks)
        .map(|(&b, t)| {
            let m = &puzzle.base_moves[b];
            let per_set = t.iter().map(|s| s.iter().filter(|&&x| x).count()).collect();
            (m.order, m.directed, top.steps[b], per_set)
        })
        .collect();
    // What two moves are together: how many positions of each set both move, and
    // whether they commute.
    let mut pair: Vec<Vec<(Vec<usize>, bool)>> = vec![Vec::with_capacity(n); n];
    for i in 0..n {
        for j in 0..n {
            let both = marks[i]
                .iter()
                .zip(marks[j])
                .map(|(a, b)| a.iter().zip(b).filter(|(&x, &y)| x && y).count())
                .collect();
            pair[i].push((both, commute(puzzle, kept[i], kept[j])));
        }
    }
    let mut search = Search {
        colour: &colour,
        pair: &pair,
        image: vec![usize::MAX; n],
        used: vec![false; n],
        parent: (0..n).collect(),
        tried: 0,
    };
    if !search.run(0) {
        return kept.into_iter().map(|b| vec![b]).collect();
    }
    let mut orbits: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        let root = search.find(i);
        match orbits.iter_mut().find(|o| search.find(o[0]) == root) {
            Some(o) => o.push(i),
            None => orbits.push(vec![i]),
        }
    }
    orbits
        .into_iter()
        .map(|o| o.into_iter().map(|i| kept[i]).collect())
        .collect()
}

/// Whether base moves `a` and `b` commute.
fn commute(puzzle: &Puzzle, a: usize, b: usize) -> bool {
    let (ea, eb) = (&puzzle.base_moves[a].effect, &puzzle.base_moves[b].effect);
    ea.then(eb, &puzzle.sets) == eb.then(ea, &puzzle.sets)
}

/// A backtracking search for every permutation of the moves that keeps their colours
/// and pairs and carries each move onto one it commutes with; the orbits are joined in
/// a union-find as permutations are found.
struct Search<'a> {
    colour: &'a [(u32, bool, u32, Vec<usize>)],
    pair: &'a [Vec<(Vec<usize>, bool)>],
    image: Vec<usize>,
    used: Vec<bool>,
    parent: Vec<usize>,
    tried: usize,
}

impl Search<'_> {
    /// Assigns images from move `i` on; false when the budget ran out.
    fn run(&mut self, i: usize) -> bool {
        let n = self.image.len();
        if i == n {
            for k in 0..n {
                let (a, b) = (self.find(k), self.find(self.image[k]));
                self.parent[a] = b;
            }
            return true;
        }
        for c in 0..n {
            self.tried += 1;
            if self.tried > SEARCH_BUDGET {
                return false;
            }
            if self.used[c] || self.colour[c] != self.colour[i] || !self.pair[i][c].1 {
                continue;
            }
            if (0..i).any(|k| self.pair[k][i] != self.pair[self.image[k]][c]) {
                continue;
            }
            self.image[i] = c;
            self.used[c] = true;
            let ok = self.run(i + 1);
            self.used[c] = false;
            if !ok {
                return false;
            }
        }
        true
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::parse_puzzle;

    fn names(p: &Puzzle, orbits: &[Vec<usize>]) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = orbits
            .iter()
            .map(|o| {
                let mut n: Vec<String> = o.iter().map(|&b| p.base_moves[b].name.clone()).collect();
                n.sort();
                n
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn opposite_moves_are_alike() {
        let cube = parse_puzzle(include_bytes!("../../puzzles/3x3x3.def"), "3x3x3.def")
            .unwrap()
            .0;
        let top = Subgroup::searched(&cube);
        let orbits = alike_orbits(&cube, &top);
        assert_eq!(
            names(&cube, &orbits),
            [["B", "F"], ["D", "U"], ["L", "R"]].map(|o| o.map(String::from).to_vec())
        );
        assert_eq!(top.all_below_alike(&cube, &orbits, 1000).unwrap().len(), 27);
        // The 4x4x4 in outer block turns: a face with its opposite face, a wide turn
        // with the opposite wide turn, never a face with a wide turn.
        let big = parse_puzzle(include_bytes!("../../puzzles/4x4x4.def"), "4x4x4.def")
            .unwrap()
            .0;
        let top = Subgroup::searched(&big);
        let orbits = alike_orbits(&big, &top);
        let expected = [
            ["B", "F"],
            ["Bw", "Fw"],
            ["D", "U"],
            ["Dw", "Uw"],
            ["L", "R"],
            ["Lw", "Rw"],
        ];
        assert_eq!(
            names(&big, &orbits),
            expected.map(|o| o.map(String::from).to_vec())
        );
        let all = top.all_below_alike(&big, &orbits, 1000).unwrap();
        assert_eq!(all.len(), 729);
        assert!(top.all_below_alike(&big, &orbits, 700).is_none());
        // Every candidate steps both moves of each orbit alike.
        for g in &all {
            for o in &orbits {
                assert_eq!(g.steps[o[0]], g.steps[o[1]]);
            }
        }
    }
}
