//! Reading a KPattern (cubing.js's pattern JSON: per orbit `pieces`, `orientation` and
//! maybe `orientationMod`) as a position to solve, on any puzzle whose sets are named
//! as the pattern's orbits. An orbit left out is solved, as a set left out of a ksolve+
//! `Scramble`.
//!
//! In cubing.js an `orientationMod` belongs to the piece: it travels with it, and the
//! pattern is solved when every piece is home with its orientation right modulo its
//! modulus. So a modulus is applied where the piece ends, at the solved state's
//! positions of its label (each of them, for interchangeable pieces, which must then
//! share one modulus, since the pattern cannot tell which copy ends where):
//!
//! - 1 (orientation unknown) ignores the orientation there, like `?` in a scramble
//!   file, where the definition's `Ignore` allows it;
//! - a proper divisor `m` of the set's `n` orientations makes the goal a set of
//!   positions ([`Goal`]): the solved state with, at each such position, any
//!   orientation congruent to the solved one modulo `m`. The piece's true twist is the
//!   given one plus an unknown multiple of `m`, which every move carries along, so a
//!   sequence solves every position the pattern stands for exactly when it brings the
//!   given twists to such a goal position.

use super::json::{get, props, unique, Doc};
use crate::located::DefError;
use crate::puzzle::{Goal, Puzzle, Scramble, ScrambleSource, SetState, SolveSettings, Target};
use std::sync::Arc;

/// The most goal positions the moduli of one pattern may make: each is a start of the
/// goal's pruning tables and a test of every node the search reaches.
pub const MAX_PATTERN_GOALS: u64 = 4096;

/// Reads a KPattern JSON file held in memory as one scramble, named `name`, against
/// `puzzle`; `file` names the file in messages.
pub fn read_pattern(
    bytes: &[u8],
    file: &str,
    name: &str,
    puzzle: &Puzzle,
) -> Result<Scramble, DefError> {
    let (doc, root) = Doc::parse(bytes, file)?;
    let pattern = doc.object(&root, "a KPattern (per orbit: `pieces` and `orientation`)")?;
    unique(&doc, pattern, "orbit")?;
    let mut state = puzzle.solved.clone();
    let mut ignore = puzzle.no_ignores();
    // Per set, the positions whose orientation is known modulo a proper divisor, with it.
    let mut known_mod: Vec<(usize, usize, u8)> = Vec::new();
    for (orbit, at, v) in props(pattern) {
        let Some(k) = puzzle.sets.iter().position(|s| s.name == orbit) else {
            let known: Vec<&str> = puzzle.sets.iter().map(|s| s.name.as_str()).collect();
            return Err(doc.err(
                at,
                format!(
                    "unknown orbit `{orbit}`: expected one of the puzzle's sets ({})",
                    known.join(", ")
                ),
            ));
        };
        let set = &puzzle.sets[k];
        let owner = format!("orbit `{orbit}` of the pattern");
        let o = doc.object(v, &owner)?;
        let pieces_v = doc.field(o, "pieces", &owner)?;
        let pieces = doc.numbers(pieces_v, "`pieces`", set.size, set.size as u64 - 1)?;
        // The pieces must be the solved state's, interchangeable ones counted together.
        let mut left = vec![0usize; set.size];
        for &l in &puzzle.solved.sets[k].perm {
            left[l as usize] += 1;
        }
        for (&p, e) in pieces.iter().zip(&doc.array(pieces_v, "")?.elements) {
            if left[p as usize] == 0 {
                return Err(doc.err(
                    doc.at(e),
                    format!("piece {p} of orbit `{orbit}` appears more often than in the solved pattern: expected the solved pattern's pieces, each as often"),
                ));
            }
            left[p as usize] -= 1;
        }
        let n = set.orientations.max(1) as u64;
        let ori_v = doc.field(o, "orientation", &owner)?;
        let ori = doc.numbers(ori_v, "`orientation`", set.size, n - 1)?;
        if let Some(mod_v) = get(o, "orientationMod") {
            let mods = doc.numbers(mod_v, "`orientationMod`", set.size, n)?;
            let elements = &doc.array(mod_v, "")?.elements;
            // Per label, the modulus of its first copy and where that copy stands.
            let mut by_label: Vec<Option<(u64, usize)>> = vec![None; set.size];
            for (t, (&m, e)) in mods.iter().zip(elements).enumerate() {
                let m = if m == 0 { n } else { m };
                if !n.is_multiple_of(m) {
                    return Err(doc.err(
                        doc.at(e),
                        format!("orientation modulus {m} does not divide the {n} orientations of orbit `{orbit}`: expected 0 (known), 1 (unknown) or a divisor of {n}"),
                    ));
                }
                let label = pieces[t] as usize;
                match by_label[label] {
                    Some((first, at)) if first != m => {
                        return Err(doc.err(
                            doc.at(e),
                            format!("piece {label} of orbit `{orbit}` is known modulo {m} here and modulo {first} at position {at}: expected interchangeable pieces to share one modulus, since the pattern cannot tell which copy ends where"),
                        ))
                    }
                    Some(_) => continue,
                    None => by_label[label] = Some((m, t)),
                }
                if m == n {
                    continue;
                }
                for h in homes(puzzle, k, label) {
                    if m > 1 {
                        known_mod.push((k, h, m as u8));
                    } else if puzzle.ignore[k].ori[h] {
                        ignore[k].ori[h] = true;
                    } else {
                        return Err(doc.err(
                            doc.at(e),
                            format!("an unknown orientation of piece {label} of set `{orbit}`, which ends at position {h}, where the definition's `Ignore` does not allow it: expected 0 or a divisor of {n} other than 1"),
                        ));
                    }
                }
            }
        }
        state.sets[k] = SetState {
            perm: pieces.iter().map(|&p| p as u16).collect(),
            ori: ori.iter().map(|&x| x as u8).collect(),
        };
    }
    let mut settings = SolveSettings::for_puzzle(puzzle);
    if !known_mod.is_empty() {
        let count = known_mod.iter().try_fold(1u64, |c, &(k, _, m)| {
            c.checked_mul(puzzle.sets[k].orientations as u64 / m as u64)
                .filter(|&c| c <= MAX_PATTERN_GOALS)
        });
        if count.is_none() {
            return Err(doc.err(
                doc.at(&root),
                format!("the pattern's `orientationMod` values make more than {MAX_PATTERN_GOALS} goal positions (one per orientation each piece may have): expected fewer pieces known modulo a divisor"),
            ));
        }
        settings.goal = Some(Arc::new(goal_modulo(puzzle, name, &known_mod)));
    }
    Ok(Scramble {
        name: name.to_string(),
        source: ScrambleSource::Position(Target { state, ignore }),
        settings,
        line: 1,
    })
}

/// The positions of set `k` where the solved state holds `label`.
fn homes(puzzle: &Puzzle, k: usize, label: usize) -> impl Iterator<Item = usize> + '_ {
    let perm = &puzzle.solved.sets[k].perm;
    (0..perm.len()).filter(move |&h| perm[h] as usize == label)
}

/// The definition's goal with each position of `known_mod` (set, position, modulus)
/// holding any orientation congruent to the solved one modulo its modulus.
fn goal_modulo(puzzle: &Puzzle, name: &str, known_mod: &[(usize, usize, u8)]) -> Goal {
    let mut goal = Goal::solved(puzzle, name);
    for &(k, h, m) in known_mod {
        let n = puzzle.sets[k].orientations;
        let first = puzzle.solved.sets[k].ori[h] % m;
        goal.positions = goal
            .positions
            .into_iter()
            .flat_map(|p| {
                (0..n / m).map(move |j| {
                    let mut q = p.clone();
                    q.target.state.sets[k].ori[h] = first + j * m;
                    q
                })
            })
            .collect();
    }
    goal
}
