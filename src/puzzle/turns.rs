//! What kind of turn each move is, found from the definition alone, and a solution's
//! length in the four metrics cubers count in.
//!
//! - A **rotation** turns the whole puzzle: conjugating any move by it gives a move
//!   (or a power of one) again, and it carries some move onto another (`x` takes `U` to
//!   `F`). It must also move a piece of every set of more than one piece, so that a move
//!   that merely commutes with everything (a lone move, independent parts) is not one.
//! - A **slice** is an inner layer: it leaves in place every piece of some set that each
//!   rotation moves entirely (the 3x3x3's `M` moves no corner, while `x`, `y` and `z`
//!   move them all). Without rotations in the definition nothing is a slice.
//! - Every other move is an **outer** turn (a face, or a block of layers with a face:
//!   `R`, `Rw`, `3Rw`).
//!
//! The metrics, per move (`q` is the move's quarter-turn count, [`super::qtm_cost`]):
//!
//! | metric | outer | slice | rotation |
//! |--------|-------|-------|----------|
//! | HTM (outer block turn metric) | 1 | 2 | 0 |
//! | QTM | q | 2q | 0 |
//! | STM (slice turn metric) | 1 | 1 | 0 |
//! | ETM (execution turn metric) | 1 | 1 | 1 |
//!
//! On a puzzle without rotations HTM is ksolve+'s every-move-counts-one and STM equals
//! it. These are the physical metrics of a solution; a definition's `MoveCosts` weights
//! are the search's own and are not applied here.

use super::{MoveId, Puzzle, Transform};
use std::collections::HashSet;

/// The kind of turn a base move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnKind {
    Outer,
    Slice,
    Rotation,
}

/// A solution's length in each metric.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Lengths {
    pub htm: u32,
    pub qtm: u32,
    pub stm: u32,
    pub etm: u32,
}

/// The metrics a solution can be sorted or measured by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnMetric {
    Htm,
    Qtm,
    Stm,
    Etm,
}

impl TurnMetric {
    /// Every metric, in the order they are printed.
    pub const ALL: [TurnMetric; 4] = [
        TurnMetric::Htm,
        TurnMetric::Qtm,
        TurnMetric::Stm,
        TurnMetric::Etm,
    ];

    /// The lowercase name used on the command line and in output.
    pub fn name(self) -> &'static str {
        match self {
            TurnMetric::Htm => "htm",
            TurnMetric::Qtm => "qtm",
            TurnMetric::Stm => "stm",
            TurnMetric::Etm => "etm",
        }
    }
}

impl Lengths {
    /// The length in `metric`.
    pub fn get(&self, metric: TurnMetric) -> u32 {
        match metric {
            TurnMetric::Htm => self.htm,
            TurnMetric::Qtm => self.qtm,
            TurnMetric::Stm => self.stm,
            TurnMetric::Etm => self.etm,
        }
    }
}

/// The kind of every base move of a puzzle, computed once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnKinds {
    /// Per base move.
    pub kinds: Vec<TurnKind>,
}

impl TurnKinds {
    /// Classifies the base moves of `puzzle` (see the module's documentation).
    pub fn of(puzzle: &Puzzle) -> TurnKinds {
        let sets = &puzzle.sets;
        let effects: HashSet<&Transform> = puzzle.moves.iter().map(|m| &m.effect).collect();
        let nbase = puzzle.base_moves.len();
        let rotation = |r: usize| -> bool {
            let rm = &puzzle.base_moves[r].effect;
            let moves_every_set = sets.iter().enumerate().all(|(k, set)| {
                set.size <= 1 || (0..set.size).any(|i| rm.sets[k].perm[i] as usize != i)
            });
            if !moves_every_set || puzzle.base_moves[r].directed {
                return false;
            }
            let inv = rm.inverse(sets);
            let mut carries = false;
            for g in &puzzle.base_moves {
                let conj = inv.then(&g.effect, sets).then(rm, sets);
                if !effects.contains(&conj) {
                    return false;
                }
                carries |= conj != g.effect;
            }
            carries
        };
        let is_rotation: Vec<bool> = (0..nbase).map(rotation).collect();
        // The sets every rotation moves entirely: a move fixing all their pieces is
        // an inner layer.
        let whole: Vec<usize> = (0..sets.len())
            .filter(|&k| {
                is_rotation.iter().any(|&r| r)
                    && (0..nbase).filter(|&b| is_rotation[b]).all(|b| {
                        let e = &puzzle.base_moves[b].effect.sets[k];
                        (0..sets[k].size).all(|i| e.perm[i] as usize != i)
                    })
            })
            .collect();
        let kinds = (0..nbase)
            .map(|b| {
                if is_rotation[b] {
                    return TurnKind::Rotation;
                }
                let e = &puzzle.base_moves[b].effect;
                let fixes = |k: usize| {
                    let s = &e.sets[k];
                    (0..sets[k].size).all(|i| s.perm[i] as usize == i && s.ori[i] == 0)
                };
                match whole.iter().any(|&k| fixes(k)) {
                    true => TurnKind::Slice,
                    false => TurnKind::Outer,
                }
            })
            .collect();
        TurnKinds { kinds }
    }

    /// The kinds of `narrowed`'s base moves, from those of `whole` (which this is for),
    /// by name: a puzzle narrowed to some moves ([`Puzzle::keeping`]) may have lost the
    /// rotations that tell its slices apart.
    pub fn within(&self, whole: &Puzzle, narrowed: &Puzzle) -> TurnKinds {
        TurnKinds {
            kinds: narrowed
                .base_moves
                .iter()
                .map(|b| {
                    whole
                        .base_by_name(&b.name)
                        .map_or(TurnKind::Outer, |i| self.kinds[i])
                })
                .collect(),
        }
    }

    /// Whether the puzzle has slices or rotations, where the metrics differ from
    /// counting moves.
    pub fn any_special(&self) -> bool {
        self.kinds.iter().any(|&k| k != TurnKind::Outer)
    }

    /// The length of `seq` in every metric.
    pub fn lengths(&self, puzzle: &Puzzle, seq: &[MoveId]) -> Lengths {
        let mut out = Lengths::default();
        for &m in seq {
            let mv = puzzle.mv(m);
            let q = mv.qtm;
            let (htm, qtm, stm) = match self.kinds[mv.base] {
                TurnKind::Outer => (1, q, 1),
                TurnKind::Slice => (2, 2 * q, 1),
                TurnKind::Rotation => (0, 0, 0),
            };
            out.htm += htm;
            out.qtm += qtm;
            out.stm += stm;
            out.etm += 1;
        }
        out
    }
}
