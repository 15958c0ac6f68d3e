//! Pictures of a set that a family of commuting moves leaves alone: the coordinates of
//! tables over the cosets of a subgroup that contains moves.
//!
//! On the 3x3x3, U and D commute; the group they generate keeps the corners in their
//! layers and the middle layer's edges where they are. A table over which corners lie in
//! the U layer (70 values), the corners' twists, which edges lie in the middle layer
//! (495) and the edges' flips sees the cosets of a subgroup that contains U and D: the
//! table of Rokicki's nxopt and of vcube. Such a table is small per position seen, and
//! its value at a position does not change when the solution's last move is one of the
//! family (see [`crate::search`]'s tight-bound rule), which an arbitrary table of the
//! same size cannot say.
//!
//! [`pictures`] finds these components from the definition alone: for every base move,
//! the base moves that commute with it form a family; on each set, the positions the
//! family's moves fix become one class, and the orbits of the others either stay
//! apart (the fine picture) or are merged into a second class (the coarse one).

use crate::puzzle::{MoveId, Puzzle};
use crate::symmetry::SymmetryGroup;
use crate::table::comp::{spec_count, CompKind, CompSpec, Component};

/// The families of base moves that commute pairwise with one base move (each family
/// holds that move and every base move commuting with it), without repeats, sorted.
/// Families of one move and families of every move (nothing outside them) are left
/// out: the first is an ordinary coordinate, the second sees nothing.
pub fn families(puzzle: &Puzzle) -> Vec<Vec<usize>> {
    let n = puzzle.base_moves.len();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for a in 0..n {
        let fam: Vec<usize> = (0..n).filter(|&b| b == a || puzzle.commute(a, b)).collect();
        if fam.len() >= 2 && fam.len() < n && !out.contains(&fam) {
            out.push(fam);
        }
    }
    out
}

/// Per set, the pictures that the commuting families see ([`set_pictures`]).
pub fn pictures(puzzle: &Puzzle) -> Vec<Vec<CompSpec>> {
    let families = families(puzzle);
    (0..puzzle.sets.len())
        .map(|set| set_pictures(puzzle, &families, set))
        .collect()
}

/// The pictures of set `set` that the commuting `families` see (see the module doc),
/// as arrangement components with merged labels, each seeing more than one value and
/// fewer than the set's whole arrangement. Sets with repeated labels or an `Ignore`
/// mask are left out: their goals already merge labels in ways a picture would have
/// to respect.
fn set_pictures(puzzle: &Puzzle, families: &[Vec<usize>], set: usize) -> Vec<CompSpec> {
    let size = puzzle.sets[set].size;
    let solved = &puzzle.solved.sets[set].perm;
    let distinct = {
        let mut s = solved.clone();
        s.sort_unstable();
        s.dedup();
        s.len() == size
    };
    let masked = puzzle
        .ignore
        .get(set)
        .is_some_and(|m| m.perm.iter().chain(&m.ori).any(|&b| b));
    if !distinct || masked || size < 3 {
        return Vec::new();
    }
    let labels = solved.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
    let mut out: Vec<CompSpec> = Vec::new();
    for fam in families {
        // The orbits of the group the family's moves generate.
        let gens: Vec<MoveId> = fam
            .iter()
            .flat_map(|&b| puzzle.base_moves[b].powers.iter().copied())
            .collect();
        let orbit = puzzle.orbit_roots(set, &gens);
        let fixed = |p: usize| orbit.iter().filter(|&&o| o == orbit[p]).count() == 1;
        for coarse in [false, true] {
            // Class of a position: the fixed positions share one, the others their
            // orbit's (or, coarse, all one more).
            let key = |p: usize| -> usize {
                match (fixed(p), coarse) {
                    (true, _) => usize::MAX,
                    (false, true) => usize::MAX - 1,
                    (false, false) => orbit[p],
                }
            };
            let mut seen: Vec<usize> = Vec::new();
            let mut relabel = vec![0u16; labels];
            for (p, &l) in solved.iter().enumerate() {
                let k = key(p);
                let c = match seen.iter().position(|&s| s == k) {
                    Some(c) => c,
                    None => {
                        seen.push(k);
                        seen.len() - 1
                    }
                };
                relabel[l as usize] = c as u16;
            }
            if seen.len() < 2 || seen.len() == size {
                continue;
            }
            let spec = CompSpec {
                set,
                kind: CompKind::Perm { relabel },
            };
            if spec_count(puzzle, &spec).is_ok_and(|c| c > 1) && !out.contains(&spec) {
                out.push(spec);
            }
        }
    }
    out
}

/// Whether a table over `comps` gets the search's tight-bound rule
/// ([`crate::search`]): some moves carry its goal onto itself, and the conjugates of
/// those moves by the symmetries of `group` are every move, so that its lookups at
/// the conjugates, all tight, leave no move to end a solution. Components whose goal
/// has several values are left to the search's own test.
pub fn tight_rule(puzzle: &Puzzle, group: &SymmetryGroup, comps: &[CompSpec]) -> bool {
    let Some(made) = comps
        .iter()
        .map(|c| Component::new(puzzle, c.clone()).ok())
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let goals: Vec<Vec<u32>> = made
        .iter()
        .map(|c| c.goal_values(puzzle, puzzle.ignore.get(c.spec.set)))
        .collect();
    if goals.iter().any(|g| g.len() != 1) {
        return false;
    }
    let fixes: Vec<bool> = puzzle
        .moves
        .iter()
        .map(|m| {
            let after = puzzle.solved.then(&m.effect, &puzzle.sets);
            m.weight > 0
                && made
                    .iter()
                    .zip(&goals)
                    .all(|(c, g)| c.value_of(&after).is_some_and(|v| v.0 == g[0]))
        })
        .collect();
    if !fixes.iter().any(|&f| f) {
        return false;
    }
    (0..puzzle.moves.len()).all(|m| {
        group
            .elements()
            .iter()
            .any(|s| fixes[s.move_image(MoveId(m as u16)).index()])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::load_puzzle;

    fn shipped(name: &str) -> Puzzle {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        load_puzzle(root.join("puzzles").join(name)).unwrap().0
    }

    #[test]
    fn the_cube_has_its_three_axes_and_their_layer_pictures() {
        let p = shipped("3x3x3.def");
        assert_eq!(families(&p).len(), 3);
        let all = pictures(&p);
        let counts = |set: usize| -> Vec<u64> {
            let mut v: Vec<u64> = all[set]
                .iter()
                .map(|s| spec_count(&p, s).unwrap())
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        // Corners: which lie in one of the two layers of an axis.
        assert_eq!(counts(0), vec![70]);
        // Edges: the middle layer's (495), or each of the three layers (34,650).
        assert_eq!(counts(1), vec![495, 34_650]);
    }
}
