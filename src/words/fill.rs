//! Filling and shortening the table's words (Minkwitz's method).
//!
//! Three sources of words are sifted through the table ([`insert`]):
//! 1. every reduced word up to a length (breadth first, canonical: no two letters of
//!    one generator in a row, commuting generators in one order), which gives each
//!    level the shortest words that reach it directly;
//! 2. while some orbit point has no word, random walks, which reach every coset in the
//!    end (their residues are long but fill the gaps);
//! 3. products of two table words (or a table word and a letter), sifted with a length
//!    cap, which is where most short words of the deeper levels come from; the cap
//!    grows when a round finds nothing shorter.

use super::letters::{Letter, Word};
use super::{Effort, WordTable};
use crate::rng::Rng;

/// Short words sifted first, at most.
const SEEDS: usize = 30_000;

/// Products sifted per round.
const ROUND: usize = 2_000;

/// Rounds in a row without a shorter word before the table is taken as good enough.
const QUIET_ROUNDS: usize = 8;

/// Sifts `w` through the table from level 0, keeping at each level the inverse of the
/// residue when it is shorter than that level's word. A residue longer than `cap` moves
/// is dropped: uncapped, words would grow with every level they pass (a residue takes
/// on the word it is joined with), and a deep chain's would double per level. Returns whether some word got shorter (or a point got its first word).
pub(super) fn insert(table: &mut WordTable, mut w: Word, cap: usize) -> bool {
    let mut improved = false;
    for i in 0..table.levels.len() {
        let base = table.levels[i].base as usize;
        let p = w.perm[base] as usize;
        if p == base {
            continue;
        }
        let length = table.letters.length(&w.letters);
        if length > cap {
            return improved;
        }
        let old = &table.levels[i].words[p];
        let keep = match old {
            None => true,
            Some(o) => length < table.letters.length(&o.letters),
        };
        let used = if keep {
            improved = true;
            let inverse = table.letters.inverse(&w);
            match table.levels[i].words[p].replace(inverse.clone()) {
                // The point's first word: the residue is done (it is that word's
                // inverse, so applying the word leaves nothing).
                None => return true,
                Some(o) => o,
            }
        } else {
            old.clone().expect("checked above")
        };
        w = table.letters.join(&w, &used);
    }
    improved
}

/// Fills `table` with a word for every orbit point, then shortens them within `effort`.
pub(super) fn fill(table: &mut WordTable, effort: &Effort) {
    let mut sifts = 0usize;
    let longest_seed = seed(table, &mut sifts);
    let mut rng = Rng::new(effort.seed);
    let letters = table.letters.all.len();
    if letters == 0 {
        return;
    }
    let walk = 4 * table.levels.len().max(4);
    let mut cap = 2 * longest_seed.max(1);
    let mut quiet = 0usize;
    while sifts < effort.sifts || !table.full() {
        let full = table.full();
        // A hard stop, full or not, so that an unlucky group cannot hang the build.
        if sifts > 20 * effort.sifts.max(ROUND) {
            return;
        }
        let mut better = false;
        if !full {
            for _ in 0..ROUND / 4 {
                let mut w = Vec::with_capacity(walk);
                for _ in 0..walk.min(cap) {
                    table
                        .letters
                        .push(&mut w, rng.below(letters as u64) as Letter);
                }
                let word = spell(table, &w);
                better |= insert(table, word, cap);
                sifts += 1;
            }
        }
        let words: Vec<(usize, usize)> = table
            .levels
            .iter()
            .enumerate()
            .flat_map(|(i, l)| {
                l.orbit
                    .iter()
                    .filter(move |&&p| p != l.base && l.words[p as usize].is_some())
                    .map(move |&p| (i, p as usize))
            })
            .collect();
        if words.is_empty() {
            // Nothing to combine yet (or ever, in a group of one element): longer
            // random walks next round, or done.
            if full {
                return;
            }
            cap += cap / 4 + 1;
            continue;
        }
        for k in 0..ROUND {
            let (i, p) = words[rng.below(words.len() as u64) as usize];
            let a = table.levels[i].words[p].clone().expect("listed");
            let b = if k % 4 == 0 {
                table.letters.word(rng.below(letters as u64) as Letter)
            } else {
                let (j, q) = words[rng.below(words.len() as u64) as usize];
                let b = table.levels[j].words[q].clone().expect("listed");
                if rng.below(2) == 0 {
                    table.letters.inverse(&b)
                } else {
                    b
                }
            };
            let product = table.letters.join(&a, &b);
            better |= insert(table, product, cap);
            sifts += 1;
        }
        if better {
            quiet = 0;
        } else {
            quiet += 1;
            cap += cap / 4 + 1;
            if full && quiet >= QUIET_ROUNDS {
                return;
            }
        }
    }
}

/// Sifts every canonical word up to the length at which there would be more than
/// [`SEEDS`] of them; returns that length.
fn seed(table: &mut WordTable, sifts: &mut usize) -> usize {
    let letters = table.letters.clone();
    let id: Word = Word {
        letters: Vec::new(),
        perm: (0..table.layout.total as u16).collect(),
    };
    let mut frontier = vec![id];
    let mut depth = 0;
    loop {
        let mut next = Vec::new();
        for w in &frontier {
            let last = w.letters.last().map(|&l| letters.all[l as usize].generator);
            for l in 0..letters.all.len() as Letter {
                let g = letters.all[l as usize].generator;
                // Canonical: a generator never twice in a row, and of two commuting
                // generators in a row the smaller first.
                if last.is_some_and(|h| h == g || (h > g && letters.commutes(h, g))) {
                    continue;
                }
                next.push(letters.join(w, &letters.word(l)));
            }
            if next.len() > SEEDS {
                break;
            }
        }
        if next.len() > SEEDS || next.is_empty() {
            return depth.max(1);
        }
        depth += 1;
        for w in &next {
            insert(table, w.clone(), 2 * depth + 2);
            *sifts += 1;
        }
        frontier = next;
    }
}

/// The word of a list of letters.
fn spell(table: &WordTable, letters: &[Letter]) -> Word {
    let mut perm: Vec<u16> = (0..table.layout.total as u16).collect();
    for &l in letters {
        perm = crate::group::points::compose(&perm, &table.letters.all[l as usize].perm);
    }
    Word {
        letters: letters.to_vec(),
        perm,
    }
}
