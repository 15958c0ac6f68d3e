//! A found chain kept in the table cache ([`find_cached`]).
//!
//! Finding the 4x4x4's chain counts 729 subgroups and checks the picture of each phase
//! it tries (one lists a million goal pictures): about twenty seconds, where reading it
//! back takes a few milliseconds. So a chain found is stored beside the definition's
//! tables, keyed by the definition's bytes, the moves searched and the coset limit, and
//! read back as a table is: checked by its content hash, and found again when the file
//! is missing, damaged or from another version of the finder. What is stored is what
//! the finder decided (the phases' subgroups, pictures and coset counts); everything
//! that follows from them (the phases as puzzles, the table of words) is made again.

use super::find::find;
use super::parity::Parities;
use super::{Chain, ChainError, Phase, Subgroup, Target, Words};
use crate::group::BigUint;
use crate::progress::Progress;
use crate::puzzle::{IgnoreMask, Puzzle};
use crate::storage::cache::TableCache;
use crate::words::WordTable;
use serde::{Deserialize, Serialize};

/// The kind and name of the cache file, and the version of what it holds: a finder
/// that chooses differently must change it, so that no chain of an older one is read.
const KIND: &str = "chain";
const VERSION: &str = "chain v1";

/// A chain as the finder decided it.
#[derive(Serialize, Deserialize)]
struct Stored {
    phases: Vec<StoredPhase>,
    /// The steps of the group the words answer, if the chain ends in words.
    words: Option<Vec<u32>>,
    positions: String,
}

#[derive(Serialize, Deserialize)]
struct StoredPhase {
    upper: Vec<u32>,
    lower: Vec<u32>,
    relabel: Vec<Vec<u16>>,
    free_perm: Vec<Vec<bool>>,
    free_ori: Vec<Vec<bool>>,
    goals: u64,
    cosets: String,
}

/// [`find`], through the table cache: the chain stored for this definition, moves and
/// limit when there is one, else the chain found (and stored).
pub fn find_cached(
    puzzle: &Puzzle,
    limit: &BigUint,
    cache: &TableCache,
    progress: &dyn Progress,
) -> Result<Chain, ChainError> {
    let params = format!("{VERSION} limit {limit} searched {:?}", puzzle.searched);
    cache.load_or_try_build(
        KIND,
        KIND,
        params.as_bytes(),
        progress,
        |payload| read(puzzle, payload.all()),
        || {
            let chain = find(puzzle, limit)?;
            let bytes = write(&chain);
            Ok((chain, bytes))
        },
    )
}

/// The bytes that keep `chain`.
fn write(chain: &Chain) -> Vec<u8> {
    let stored = Stored {
        phases: chain
            .phases
            .iter()
            .map(|p| {
                let t = p.target();
                StoredPhase {
                    upper: p.upper.steps.clone(),
                    lower: p.lower.steps.clone(),
                    relabel: t.relabel.clone(),
                    free_perm: t.free.iter().map(|m| m.perm.clone()).collect(),
                    free_ori: t.free.iter().map(|m| m.ori.clone()).collect(),
                    goals: t.goals,
                    cosets: p.cosets.to_string(),
                }
            })
            .collect(),
        words: chain.words.as_ref().map(|w| w.group.steps.clone()),
        positions: chain.positions.to_string(),
    };
    // A plain structure of numbers and strings always serialises.
    serde_json::to_vec(&stored).unwrap_or_default()
}

/// The chain `bytes` keep, for `real`; `None` when they do not describe one of its
/// chains.
fn read(real: &Puzzle, bytes: &[u8]) -> Option<Chain> {
    let stored: Stored = serde_json::from_slice(bytes).ok()?;
    let (copy, parities) = Parities::add(real);
    let subgroup = |steps: Vec<u32>| -> Option<Subgroup> {
        let fits = steps.len() == real.base_moves.len()
            && steps
                .iter()
                .zip(&real.base_moves)
                .all(|(&s, m)| s >= 1 && m.order.is_multiple_of(s));
        fits.then_some(Subgroup { steps })
    };
    let mut phases = Vec::with_capacity(stored.phases.len());
    for p in stored.phases {
        if p.free_perm.len() != p.free_ori.len() {
            return None;
        }
        let free = p
            .free_perm
            .into_iter()
            .zip(p.free_ori)
            .map(|(perm, ori)| IgnoreMask { perm, ori })
            .collect();
        let target = Target::from_parts(&copy, p.relabel, free, p.goals)?;
        phases.push(Phase::new(
            &copy,
            &parities,
            subgroup(p.upper)?,
            subgroup(p.lower)?,
            target,
            BigUint::from_decimal(&p.cosets)?,
        ));
    }
    let words = match stored.words {
        None => None,
        Some(steps) => {
            let group = subgroup(steps)?;
            let table =
                WordTable::build(real, &group.generators(real), &Default::default()).ok()?;
            Some(Words { group, table })
        }
    };
    Some(Chain {
        phases,
        words,
        positions: BigUint::from_decimal(&stored.positions)?,
        given: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::parse_puzzle;

    /// A chain written and read back has the same phases, pictures and counts, and a
    /// payload that is not a chain of this puzzle is refused rather than trusted.
    #[test]
    fn a_chain_reads_back_as_written() {
        let cube = parse_puzzle(include_bytes!("../../puzzles/3x3x3.def"), "3x3x3.def")
            .unwrap()
            .0;
        let chain = find(&cube, &super::super::coset_limit(1 << 30)).unwrap();
        let bytes = write(&chain);
        let back = read(&cube, &bytes).unwrap();
        assert_eq!(back.phases.len(), chain.phases.len());
        for (a, b) in chain.phases.iter().zip(&back.phases) {
            assert_eq!(a.upper, b.upper);
            assert_eq!(a.lower, b.lower);
            assert_eq!(a.cosets, b.cosets);
            assert_eq!(a.target(), b.target());
            assert_eq!(a.puzzle.solved, b.puzzle.solved);
        }
        assert_eq!(back.positions, chain.positions);
        assert!(back.words.is_none() && !back.given);
        // Another puzzle's shapes, or bytes that are not a chain at all.
        let small = parse_puzzle(include_bytes!("../../puzzles/2x2x2.def"), "2x2x2.def")
            .unwrap()
            .0;
        assert!(read(&small, &bytes).is_none());
        assert!(read(&cube, b"not a chain").is_none());
    }
}
