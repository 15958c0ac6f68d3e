//! Short words for a stabiliser chain, so that any position of a group puzzle is solved
//! at once, however large the puzzle ([`WordTable`]).
//!
//! The group's stabiliser chain (Schreier–Sims, see [`crate::group`]) has, per level, a
//! base point and its orbit. The table keeps, per level and orbit point `p`, a short
//! word of moves that carries `p` onto the base point and fixes every earlier base
//! point. A position is solved by sifting: level by level, the word for the point that
//! holds the base point's facet puts it home. The answer is every word used, in turn.
//!
//! The words are found as Minkwitz (1998) finds them: every short word and then
//! products of the table's own words are sifted through the table; at each level the
//! residue (what is left to do) offers the inverse of itself as that level's word, kept
//! when shorter, and goes on down once that level's word is applied. Random long words
//! fill what short ones do not reach, so every orbit point gets a word; how much effort
//! then goes into shortening them is the caller's ([`Effort`]).
//!
//! ```
//! # fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let (puzzle, _) = ksolve::def::parse_puzzle(
//!     include_bytes!("../../puzzles/2x2x2.def"),
//!     "2x2x2.def",
//! )?;
//! let gens: Vec<_> = puzzle.base_moves.iter().map(|b| b.powers[0]).collect();
//! let table = ksolve::words::WordTable::build(&puzzle, &gens, &Default::default())?;
//! let start = puzzle.apply_sequence(&puzzle.solved, &[puzzle.move_by_name("R").unwrap()]);
//! let answer = table.solve(&puzzle, &start).expect("the position is in the group");
//! assert!(puzzle.is_solved(&puzzle.apply_sequence(&start, &answer), &[]));
//! # Ok(()) }
//! ```
//!
//! Solutions are long (hundreds of moves on a 4x4x4 or a Megaminx), not short: the
//! table is what answers a position no search can, and the chain room ([`crate::chain`])
//! puts its optimal phases in front of it wherever a subgroup allows.

mod fill;
mod letters;
#[cfg(test)]
mod tests;

use crate::group::points::Layout;
use crate::group::{Group, GroupError};
use crate::puzzle::{MoveId, Puzzle, State};
use letters::{Letter, Letters, Word};
use std::sync::Arc;

/// How hard to work at shortening the words once every orbit point has one.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Words sifted through the table in all (short words, random fillers and
    /// products of table words).
    pub sifts: usize,
    /// The random generator's seed: the same seed builds the same table.
    pub seed: u64,
}

impl Default for Effort {
    fn default() -> Effort {
        Effort {
            sifts: 200_000,
            seed: 1,
        }
    }
}

/// Why no table could be built.
#[derive(Debug, thiserror::Error)]
pub enum WordsError {
    #[error(transparent)]
    Group(#[from] GroupError),
    #[error("some orbit points got no word within the effort (the group is too large for it)")]
    Incomplete,
}

/// One level of the chain: the base point, and per point the word that carries it onto
/// the base point (fixing every earlier base point), where the point is in the orbit.
#[derive(Clone, Debug)]
struct Level {
    base: u16,
    orbit: Vec<u16>,
    words: Vec<Option<Word>>,
}

/// A word for every coset of every level of a stabiliser chain.
#[derive(Clone, Debug)]
pub struct WordTable {
    letters: Letters,
    layout: Layout,
    levels: Vec<Level>,
    solved_colors: Vec<u32>,
    /// The puzzle's sets in the order the table's points number them.
    order: Vec<usize>,
    /// The group on those points, which finds an element making a position when the
    /// choices among interchangeable pieces lead nowhere.
    group: Arc<Group>,
}

/// The order in which the table's levels take the sets. Sifting puts the first levels
/// home first and the later words must keep them, so:
/// - sets of interchangeable pieces go last, where the choice of which piece goes home
///   is made once nothing else is left to spoil (a choice made early can leave a later
///   distinct piece unable to go home, and the sift would have to backtrack);
/// - then the sets the fewest generators move: a set only a few moves reach (the
///   Megaminx's centres, which only R++ and D++ move) is best settled by those few
///   moves before anything else, since left for last its words would have to undo
///   everything else (a random Megaminx took 1,143 moves that way, 499 this way);
/// - then the larger sets: the Megaminx's thirty edges before its twenty corners give
///   320 moves on average against 499 the other way round.
fn set_order(puzzle: &Puzzle, gens: &[MoveId]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..puzzle.sets.len()).collect();
    let alike = |k: usize| {
        let mut labels = puzzle.solved.sets[k].perm.clone();
        labels.sort_unstable();
        labels.windows(2).any(|w| w[0] == w[1])
    };
    let movers = |k: usize| {
        gens.iter()
            .filter(|&&m| {
                let s = &puzzle.mv(m).effect.sets[k];
                s.perm.iter().enumerate().any(|(i, &p)| p as usize != i)
                    || s.ori.iter().any(|&o| o != 0)
            })
            .count()
    };
    order.sort_by_key(|&k| {
        (
            alike(k),
            movers(k),
            std::cmp::Reverse(puzzle.sets[k].size),
            k,
        )
    });
    order
}

/// `t` with its sets in `order`.
fn permuted(t: &State, order: &[usize]) -> State {
    State {
        sets: order.iter().map(|&k| t.sets[k].clone()).collect(),
    }
}

/// The puzzle with its sets in `order` and the moves `gens` as its base moves.
fn reordered(puzzle: &Puzzle, gens: &[MoveId], order: &[usize]) -> Puzzle {
    let base = gens
        .iter()
        .map(|&m| {
            let mv = puzzle.mv(m);
            (
                mv.name.clone(),
                permuted(&mv.effect, order).to_ksolve(),
                true,
            )
        })
        .collect();
    Puzzle::new(
        puzzle.name.clone(),
        order.iter().map(|&k| puzzle.sets[k].clone()).collect(),
        permuted(&puzzle.solved, order),
        base,
        order.iter().map(|&k| puzzle.ignore[k].clone()).collect(),
        Vec::new(),
    )
}

/// Orbit choices tried, in all, when interchangeable pieces leave a level more than one
/// way to put its base point's colour home and the first way leads nowhere.
const CHOICE_BUDGET: usize = 100_000;

/// The node budget of the search for a group element that makes a position with
/// interchangeable pieces (see [`WordTable::solve`]).
const ELEMENT_BUDGET: u64 = 10_000_000;

impl WordTable {
    /// The table for the group `gens` (moves of `puzzle`, each standing for all its
    /// powers) generate.
    pub fn build(
        puzzle: &Puzzle,
        gens: &[MoveId],
        effort: &Effort,
    ) -> Result<WordTable, WordsError> {
        let order = set_order(puzzle, gens);
        let sub = reordered(puzzle, gens, &order);
        let all: Vec<MoveId> = sub.base_moves.iter().map(|b| b.powers[0]).collect();
        let group = Group::generated_by(&sub, &all)?;
        let layout = group.layout().clone();
        let n = layout.total;
        let levels = group
            .levels()
            .into_iter()
            .map(|(base, orbit)| {
                let mut words = vec![None; n];
                words[base as usize] = Some(Word {
                    letters: Vec::new(),
                    perm: (0..n as u16).collect(),
                });
                Level { base, orbit, words }
            })
            .collect();
        let letters = Letters::new(puzzle, gens, |t| layout.perm_of(&permuted(t, &order)));
        let mut table = WordTable {
            letters,
            layout,
            levels,
            solved_colors: group.solved_colors().to_vec(),
            order,
            group: Arc::new(group),
        };
        fill::fill(&mut table, effort);
        if !table.full() {
            return Err(WordsError::Incomplete);
        }
        Ok(table)
    }

    /// Whether every orbit point of every level has a word.
    fn full(&self) -> bool {
        self.levels
            .iter()
            .all(|l| l.orbit.iter().all(|&p| l.words[p as usize].is_some()))
    }

    /// The longest word of the table and the sum over levels of each level's longest:
    /// no answer is longer than the sum.
    pub fn longest(&self) -> (usize, usize) {
        let per_level: Vec<usize> = self
            .levels
            .iter()
            .map(|l| {
                let lengths = l.words.iter().flatten();
                lengths
                    .map(|w| self.letters.length(&w.letters))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        (
            per_level.iter().copied().max().unwrap_or(0),
            per_level.iter().sum(),
        )
    }

    /// The levels of the chain (the number of words an answer is made of, at most).
    pub fn levels(&self) -> usize {
        self.levels.len()
    }

    /// Moves that take `start` to the solved state, or `None` when it is not a position
    /// of the group (or interchangeable pieces hid the way within the choice budget).
    pub fn solve(&self, puzzle: &Puzzle, start: &State) -> Option<Vec<MoveId>> {
        let n = self.layout.total;
        let mut colors = vec![0u32; n];
        self.layout
            .coloring(&permuted(start, &self.order), &mut colors);
        let mut letters = Vec::new();
        let mut budget = CHOICE_BUDGET;
        if !self.sift(0, &colors, &mut letters, &mut budget) {
            // Interchangeable pieces whose first choices led nowhere: an element of the
            // group that makes the position fixes every choice, and sifts without any.
            let g = self
                .group
                .element_reaching(&permuted(start, &self.order), ELEMENT_BUDGET)?;
            letters = self.sift_element(g)?;
        }
        let moves = crate::alg::simplify(puzzle, &self.letters.moves(&letters));
        // Every answer is checked here too: a table that solved wrongly would be a bug.
        puzzle
            .is_solved(&puzzle.apply_sequence(start, &moves), &[])
            .then_some(moves)
    }

    /// The words that take the group element `g` to the identity, level by level.
    fn sift_element(&self, mut g: Vec<u16>) -> Option<Vec<Letter>> {
        let mut out = Vec::new();
        for level in &self.levels {
            let w = level.words[g[level.base as usize] as usize].as_ref()?;
            g = crate::group::points::compose(&g, &w.perm);
            out.extend_from_slice(&w.letters);
        }
        crate::group::points::is_identity(&g).then_some(out)
    }

    /// Puts levels `from..` home from the colouring `colors`, appending the words used
    /// to `out`. With interchangeable pieces a level's colour may stand at several
    /// orbit points: the shortest word goes first, the others when it leads nowhere.
    fn sift(&self, from: usize, colors: &[u32], out: &mut Vec<Letter>, budget: &mut usize) -> bool {
        let Some(level) = self.levels.get(from) else {
            return colors == self.solved_colors.as_slice();
        };
        let want = self.solved_colors[level.base as usize];
        if colors[level.base as usize] == want {
            return self.sift(from + 1, colors, out, budget);
        }
        let mut choices: Vec<&Word> = level
            .orbit
            .iter()
            .filter(|&&p| colors[p as usize] == want)
            .filter_map(|&p| level.words[p as usize].as_ref())
            .collect();
        choices.sort_by_key(|w| self.letters.length(&w.letters));
        for w in choices {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let mut next = vec![0u32; colors.len()];
            for (x, &c) in colors.iter().enumerate() {
                next[w.perm[x] as usize] = c;
            }
            let mark = out.len();
            out.extend_from_slice(&w.letters);
            if self.sift(from + 1, &next, out, budget) {
                return true;
            }
            out.truncate(mark);
        }
        false
    }
}
