//! Ranking whole positions into a component's value without allocating: what the
//! search's inverse probes need at every node they look at ([`Component::value_of`]
//! checks its input and allocates, which is right once per scramble but not per node).

use super::comp::{Coder, Component};
use crate::puzzle::State;

impl Component {
    /// The value of a position known to be valid for this component (its labels are the
    /// solved multiset and its orientation sum the one every reachable position keeps,
    /// as for any position reached by moves from a valid one). `scratch` holds at least
    /// as many labels as the set has positions. Block components ([`Coder::Pos`]) are
    /// not ranked this way and give 0.
    pub fn rank_state(&self, state: &State, scratch: &mut [u16]) -> u32 {
        let s = &state.sets[self.spec.set];
        match &self.coder {
            Coder::Perm { coord, relabel } => {
                let labels = &mut scratch[..self.len];
                for (out, &l) in labels.iter_mut().zip(&s.perm) {
                    *out = relabel[l as usize];
                }
                coord.rank(labels) as u32
            }
            Coder::Ori { coord, .. } => coord.rank(&s.ori) as u32,
            Coder::Pos => 0,
            Coder::Pieces {
                coord,
                relabel,
                tracked,
                n,
                oris,
            } => {
                let labels = &mut scratch[..self.len];
                let mut ori = 0u64;
                for ((out, &l), &o) in labels.iter_mut().zip(&s.perm).zip(&s.ori) {
                    *out = relabel[l as usize];
                    if *out < *tracked {
                        ori = ori * *n as u64 + o as u64;
                    }
                }
                (coord.rank(labels) * oris + ori) as u32
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::table::comp::{CompKind, CompSpec, Component};
    use crate::table::testing::cube2;

    /// The fast rank agrees with the checked one along a walk, for every kind.
    #[test]
    fn rank_state_agrees_with_value_of() {
        let p = cube2();
        let specs = [
            CompKind::Perm {
                relabel: vec![0, 1, 2, 3, 4, 5, 6],
            },
            CompKind::Perm {
                relabel: vec![0, 1, 2, 3, 3, 3, 3],
            },
            CompKind::Ori { sum: Some(0) },
            CompKind::Pieces {
                relabel: vec![3, 3, 0, 3, 1, 2, 3],
                tracked: 3,
            },
        ];
        let mut scratch = vec![0u16; 7];
        for kind in specs {
            let c = Component::new(&p, CompSpec { set: 0, kind }).unwrap();
            let mut s = p.solved.clone();
            for step in 0..100usize {
                let m = (step * 5 + step / 3) % p.moves.len();
                s = s.then(&p.moves[m].effect, &p.sets);
                assert_eq!(c.rank_state(&s, &mut scratch), c.value_of(&s).unwrap().0);
            }
        }
    }
}
