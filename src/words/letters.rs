//! The alphabet words are spelled in ([`Letters`]): every power of every generator of
//! the group, each with its point permutation, its inverse letter and the puzzle moves
//! it prints as, and the join of two words that merges moves of one base where they
//! meet (`R R2` is `R'`) and lets commuting moves pass each other to meet.

use crate::group::points::{compose, inverse, is_identity, Perm};
use crate::puzzle::{MoveId, Puzzle, Transform};

/// A letter's index in [`Letters::all`].
pub(crate) type Letter = u16;

/// One power of one generator.
#[derive(Clone, Debug)]
pub(crate) struct Spelled {
    /// The generator it is a power of (an index into the generator list).
    pub generator: usize,
    /// The exponent, 1 ..= the generator's order - 1.
    pub power: u32,
    pub perm: Perm,
    pub inverse: Letter,
    /// The puzzle moves it is written as: the move that is this power when the puzzle
    /// has one, else the generator repeated.
    pub moves: Vec<MoveId>,
}

/// Every letter, and how letters combine.
#[derive(Clone, Debug)]
pub(crate) struct Letters {
    pub all: Vec<Spelled>,
    /// Per generator: its order, and its letters by power (`by_power[g][p - 1]`).
    order: Vec<u32>,
    by_power: Vec<Vec<Letter>>,
    /// `commute[a * g + b]`: generators `a` and `b` commute.
    commute: Vec<bool>,
}

/// A word: its letters, and the point permutation they make (read left to right).
#[derive(Clone, Debug)]
pub(crate) struct Word {
    pub letters: Vec<Letter>,
    pub perm: Perm,
}

impl Letters {
    /// The letters of the group `gens` generate, each move's points numbered by
    /// `perm_of`.
    pub fn new(puzzle: &Puzzle, gens: &[MoveId], perm_of: impl Fn(&Transform) -> Perm) -> Letters {
        let mut all = Vec::new();
        let mut order = Vec::new();
        let mut by_power = Vec::new();
        let mut gen_perms = Vec::new();
        for (g, &m) in gens.iter().enumerate() {
            let mv = puzzle.mv(m);
            let base = &puzzle.base_moves[mv.base];
            let mut effect = mv.effect.clone();
            for (set, s) in puzzle.sets.iter().zip(&mut effect.sets) {
                for o in &mut s.ori {
                    *o %= set.orientations.max(1);
                }
            }
            let perm = perm_of(&effect);
            // The generator's order as a permutation of points.
            let mut k = 1u32;
            let mut p = perm.clone();
            while !is_identity(&p) {
                p = compose(&p, &perm);
                k += 1;
            }
            let first = all.len() as Letter;
            let mut power_perm = perm.clone();
            for power in 1..k {
                let total = mv.power * power % base.order.max(1);
                let named = (total as usize)
                    .checked_sub(1)
                    .and_then(|i| base.powers.get(i));
                let moves = match named {
                    Some(&id) if !base.directed => vec![id],
                    _ => vec![m; power as usize],
                };
                all.push(Spelled {
                    generator: g,
                    power,
                    perm: power_perm.clone(),
                    inverse: first + (k - power - 1) as Letter,
                    moves,
                });
                power_perm = compose(&power_perm, &perm);
            }
            order.push(k);
            by_power.push((first..first + (k - 1) as Letter).collect());
            gen_perms.push(perm);
        }
        let n = gens.len();
        let mut commute = vec![false; n * n];
        for a in 0..n {
            for b in 0..n {
                commute[a * n + b] =
                    compose(&gen_perms[a], &gen_perms[b]) == compose(&gen_perms[b], &gen_perms[a]);
            }
        }
        Letters {
            all,
            order,
            by_power,
            commute,
        }
    }

    /// The number of generators.
    pub fn generators(&self) -> usize {
        self.order.len()
    }

    /// Whether generators `a` and `b` commute.
    pub fn commutes(&self, a: usize, b: usize) -> bool {
        self.commute[a * self.generators() + b]
    }

    /// The puzzle moves a letter costs.
    pub fn cost(&self, l: Letter) -> usize {
        self.all[l as usize].moves.len()
    }

    /// The puzzle moves a word costs.
    pub fn length(&self, letters: &[Letter]) -> usize {
        letters.iter().map(|&l| self.cost(l)).sum()
    }

    /// The word of one letter.
    pub fn word(&self, l: Letter) -> Word {
        Word {
            letters: vec![l],
            perm: self.all[l as usize].perm.clone(),
        }
    }

    /// The inverse of a word.
    pub fn inverse(&self, w: &Word) -> Word {
        Word {
            letters: w
                .letters
                .iter()
                .rev()
                .map(|&l| self.all[l as usize].inverse)
                .collect(),
            perm: inverse(&w.perm),
        }
    }

    /// `a` then `b`, with moves of one generator merged where they meet.
    pub fn join(&self, a: &Word, b: &Word) -> Word {
        let mut letters = a.letters.clone();
        for &l in &b.letters {
            self.push(&mut letters, l);
        }
        Word {
            letters,
            perm: compose(&a.perm, &b.perm),
        }
    }

    /// Appends `l` to `out`, merging it into the last letter of its generator when
    /// only commuting letters stand between them.
    pub fn push(&self, out: &mut Vec<Letter>, l: Letter) {
        let n = self.generators();
        let s = &self.all[l as usize];
        for i in (0..out.len()).rev() {
            let t = &self.all[out[i] as usize];
            if t.generator == s.generator {
                let k = self.order[s.generator];
                let p = (t.power + s.power) % k;
                if p == 0 {
                    out.remove(i);
                } else {
                    out[i] = self.by_power[s.generator][p as usize - 1];
                }
                return;
            }
            if !self.commute[t.generator * n + s.generator] {
                break;
            }
        }
        out.push(l);
    }

    /// The puzzle moves a list of letters is written as.
    pub fn moves(&self, letters: &[Letter]) -> Vec<MoveId> {
        letters
            .iter()
            .flat_map(|&l| self.all[l as usize].moves.iter().copied())
            .collect()
    }
}
