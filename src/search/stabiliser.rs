//! Symmetric positions: the symmetries that fix the start, and the prefixes of the top
//! of the tree they make redundant.
//!
//! When a symmetry `σ` fixes the start `P` (`σ P σ⁻¹ = P`) and carries every move onto a
//! move of the same cost and limits, it carries every solution `s` onto a solution
//! `σ(s)`, move by move. So when only one solution is wanted, a prefix `p` of the top of
//! the tree may be left out when some such `σ` makes `σ(p)` come earlier in move order:
//! take the orbit of a solution under the stabiliser, each image written in canonical
//! form, and `s*` its earliest member. The canonical automaton accepts the earliest
//! rearrangement of commuting moves, so the canonical form of `σ(s*)` comes no later than
//! `σ(s*)` itself, and would come before `s*` if `σ(p*)` came before `s*`'s prefix `p*`;
//! hence `p*` is never left out, and a solution of every length that has one is still
//! found. The same path bounds the least excess of the refused children, so no bound is
//! skipped either.
//!
//! The superflip is fixed by all 48 symmetries of the 3x3x3, so prefixes of three moves
//! are cut about 48 times; a random position is fixed by none, and nothing changes.

use crate::puzzle::{MoveId, State};
use crate::symmetry::SymmetryGroup;

/// The move maps of the symmetries (identity excepted) that fix a search's start.
#[derive(Clone, Debug, Default)]
pub(super) struct Stabiliser {
    maps: Vec<Vec<u16>>,
}

impl Stabiliser {
    /// The symmetries among `eligible` (indices into `group`, each one already known to
    /// keep the moves' costs, limits and the ignore masks) that fix `start`.
    pub(super) fn of(group: &SymmetryGroup, eligible: &[usize], start: &State) -> Stabiliser {
        let elements = group.elements();
        let maps = eligible
            .iter()
            .map(|&s| &elements[s])
            .filter(|s| !s.is_identity() && s.conjugate(start) == *start)
            .map(|s| s.move_map().iter().map(|m: &MoveId| m.0).collect())
            .collect();
        Stabiliser { maps }
    }

    /// How many symmetries other than the identity fix the start.
    pub(super) fn len(&self) -> usize {
        self.maps.len()
    }

    /// Whether some symmetry of the stabiliser carries `prefix` onto a sequence that
    /// comes earlier in move order, so that its subtree need not be searched.
    pub(super) fn is_redundant(&self, prefix: &[u16]) -> bool {
        self.maps.iter().any(|map| {
            for &m in prefix {
                let img = map[m as usize];
                if img != m {
                    return img < m;
                }
            }
            false
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_is_redundant_when_an_image_comes_earlier() {
        // One symmetry swapping moves 0 and 1 and fixing 2.
        let st = Stabiliser {
            maps: vec![vec![1, 0, 2]],
        };
        assert!(!st.is_redundant(&[0, 2]));
        assert!(st.is_redundant(&[1, 2]));
        assert!(!st.is_redundant(&[2, 0]));
        assert!(st.is_redundant(&[2, 1]));
        // Fixed throughout: kept.
        assert!(!st.is_redundant(&[2, 2]));
        assert!(!Stabiliser::default().is_redundant(&[1]));
    }
}
