//! Chains given by the user, for when they know a better one than ksolve finds: a text
//! file with one subgroup per line, each written as the moves that generate it, from
//! the largest down (the group of the searched moves before the first line, and the
//! solved state after the last, are implied; a line that repeats the group above it
//! makes no phase). `#` starts a comment.
//!
//! ```text
//! # Kociemba's two phases on the 3x3x3.
//! U D R2 L2 F2 B2
//! ```
//!
//! A move stands for the group its powers make (`R2` on the 3x3x3 for `{R2}`). Each
//! line's group must lie within the line before, and every phase is checked exactly as
//! a found chain's is; a wrong chain is refused with the line that makes it wrong.

use super::parity::Parities;
use super::target::{Step, MAX_CLOSURE};
use super::{Chain, ChainError, Phase, Subgroup, Target};
use crate::located::{DefError, ErrorKind};
use crate::puzzle::Puzzle;

impl Chain {
    /// Reads a chain for `puzzle` from `text` (the contents of `file`).
    pub fn read(real: &Puzzle, text: &str, file: &str) -> Result<Chain, ChainError> {
        super::refusal(real)?;
        // The chain is checked on a copy that can show permutation parities.
        let (copy, parities) = Parities::add(real);
        let puzzle = &copy;
        let top = Subgroup::searched(puzzle);
        let top_count = top.positions(puzzle).ok_or(ChainError::Uncounted)?;
        let err = |line: usize, col: usize, text: &str, message: String| {
            ChainError::Located(DefError::new(
                file,
                line,
                col,
                text,
                ErrorKind::Invalid(message),
            ))
        };
        // Each line's subgroup, with where it was written.
        let mut groups: Vec<(Subgroup, usize, String)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let content = raw.split('#').next().unwrap_or("");
            if content.trim().is_empty() {
                continue;
            }
            let mut g = Subgroup::trivial(puzzle);
            for word in content.split_whitespace() {
                let col = raw.find(word).map_or(1, |c| raw[..c].chars().count() + 1);
                let m = puzzle.move_by_name(word).ok_or_else(|| {
                    err(
                        i + 1,
                        col,
                        raw,
                        format!(
                            "unknown move `{word}`: expected moves of the definition, such as `{}`",
                            puzzle.mv(crate::puzzle::MoveId(0)).name
                        ),
                    )
                })?;
                let mv = puzzle.mv(m);
                let order = puzzle.base_moves[mv.base].order;
                let step = gcd(mv.power, order);
                let s = &mut g.steps[mv.base];
                *s = gcd(*s, step);
            }
            groups.push((g, i + 1, raw.to_string()));
        }
        let mut path = vec![top.clone()];
        for (g, line, raw) in &groups {
            let upper = path.last().unwrap_or(&top);
            if !g.refines(upper) {
                return Err(err(
                    *line,
                    1,
                    raw,
                    format!(
                        "{} is not within {}: expected each line's moves to be powers of the moves of the line before",
                        g.describe(puzzle),
                        upper.describe(puzzle)
                    ),
                ));
            }
            // A line that repeats the group above it (the searched moves written out,
            // say) makes no phase.
            if g != upper {
                path.push(g.clone());
            }
        }
        if path.last().is_some_and(|g| !g.is_trivial(puzzle)) {
            path.push(Subgroup::trivial(puzzle));
        }
        let mut phases = Vec::new();
        let mut upper_count = top_count.clone();
        for pair in path.windows(2) {
            let (upper, lower) = (&pair[0], &pair[1]);
            // The line that wrote the lower group (the last phase's is the last line).
            let (line, raw) = groups
                .iter()
                .find(|(g, _, _)| g == lower)
                .or(groups.last())
                .map_or((1, String::new()), |(_, l, r)| (*l, r.clone()));
            let lower_count = if lower.is_trivial(puzzle) {
                Some(crate::group::BigUint::one())
            } else {
                lower.positions(puzzle)
            };
            let exact = lower_count.as_ref().and_then(|lc| {
                Target::exact(
                    puzzle,
                    &Step {
                        upper: &upper.generators(puzzle),
                        lower: &lower.generators(puzzle),
                        upper_count: &upper_count,
                        lower_count: lc,
                        max_goals: MAX_CLOSURE,
                    },
                )
            });
            let (Some((target, cosets)), Some(lower_count)) = (exact, lower_count) else {
                return Err(err(
                    line,
                    1,
                    &raw,
                    format!(
                        "the phase from {} to {} cannot be searched: the pieces and orientations {} keeps do not tell its positions apart from the rest",
                        upper.describe(puzzle),
                        lower.describe(puzzle),
                        lower.describe(puzzle)
                    ),
                ));
            };
            phases.push(Phase::new(
                puzzle,
                &parities,
                upper.clone(),
                lower.clone(),
                target,
                cosets,
            ));
            upper_count = lower_count;
        }
        Ok(Chain {
            words: None,
            phases,
            positions: top_count,
            given: true,
        })
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
