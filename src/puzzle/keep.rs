//! A puzzle with only some of its moves: the same pieces, positions and rules, fewer
//! moves. Searching on it builds the tables for the moves a search may use, which bound
//! far better than tables over moves it never makes (a 3x3x3 whose rotations and slices
//! are defined but not searched: see `solve::narrow`).

use super::{BaseMove, MoveId, Puzzle};

impl Puzzle {
    /// The puzzle with only the base moves `keep` marks (per base move), each with all
    /// its powers, in the same order. Forbidden pairs, guards, weights and the aliases of
    /// kept moves go along; `searched` is emptied, since what a search may use is now
    /// the puzzle's moves themselves.
    pub fn keeping(&self, keep: &[bool]) -> Puzzle {
        let mut new_id: Vec<Option<MoveId>> = vec![None; self.moves.len()];
        let mut base_moves = Vec::new();
        let mut moves = Vec::new();
        let mut guards = Vec::new();
        for (b, base) in self.base_moves.iter().enumerate() {
            if !keep.get(b).copied().unwrap_or(false) {
                continue;
            }
            let nb = base_moves.len();
            let mut powers = Vec::with_capacity(base.powers.len());
            for &id in &base.powers {
                let mut m = self.mv(id).clone();
                m.base = nb;
                let id2 = MoveId(moves.len() as u16);
                new_id[id.index()] = Some(id2);
                powers.push(id2);
                moves.push(m);
            }
            base_moves.push(BaseMove {
                powers,
                ..base.clone()
            });
            guards.push(self.guards.get(b).cloned().flatten());
        }
        let n = moves.len();
        let old_n = self.moves.len();
        let mut forbidden = vec![false; n * n];
        for a in 0..old_n {
            for b in 0..old_n {
                if let (true, Some(x), Some(y)) =
                    (self.forbidden[a * old_n + b], new_id[a], new_id[b])
                {
                    forbidden[x.index() * n + y.index()] = true;
                }
            }
        }
        let aliases = self
            .aliases
            .iter()
            .filter_map(|(name, id)| new_id[id.index()].map(|id| (name.clone(), id)))
            .collect();
        Puzzle {
            base_moves,
            moves,
            forbidden,
            aliases,
            guards,
            searched: Vec::new(),
            orbits: (0..self.sets.len())
                .map(|s| self.position_orbits(s))
                .collect(),
            ..self.clone()
        }
    }
}
