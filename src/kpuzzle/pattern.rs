//! Reading a KPattern (cubing.js's pattern JSON: per orbit `pieces`, `orientation` and
//! maybe `orientationMod`) as a position to solve, on any puzzle whose sets are named
//! as the pattern's orbits. An orbit left out is solved, as a set left out of a ksolve+
//! `Scramble`; an `orientationMod` of 1 marks an orientation unknown, which, like `?`
//! in a scramble file, the definition's `Ignore` must allow there.

use super::json::{get, props, unique, Doc};
use crate::located::DefError;
use crate::puzzle::{Puzzle, Scramble, ScrambleSource, SetState, SolveSettings, Target};

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
            let mods = doc.numbers(mod_v, "`orientationMod`", set.size, u8::MAX as u64)?;
            for (t, (&m, e)) in mods.iter().zip(&doc.array(mod_v, "")?.elements).enumerate() {
                match m {
                    0 => {}
                    1 if puzzle.ignore[k].ori[t] => ignore[k].ori[t] = true,
                    1 => {
                        return Err(doc.err(
                            doc.at(e),
                            format!("an unknown orientation at position {t} of set `{orbit}`, which the definition's `Ignore` does not allow there: expected 0"),
                        ))
                    }
                    _ => {
                        return Err(doc.err(
                            doc.at(e),
                            format!("orientation modulus {m}: expected 0 (known) or 1 (unknown)"),
                        ))
                    }
                }
            }
        }
        state.sets[k] = SetState {
            perm: pieces.iter().map(|&p| p as u16).collect(),
            ori: ori.iter().map(|&x| x as u8).collect(),
        };
    }
    Ok(Scramble {
        name: name.to_string(),
        source: ScrambleSource::Position(Target { state, ignore }),
        settings: SolveSettings::for_puzzle(puzzle),
        line: 1,
    })
}
