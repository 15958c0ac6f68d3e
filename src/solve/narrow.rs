//! Searching a batch on the moves it may use: when every scramble limits some base moves
//! to 0 (the definition's `SearchMoves`, `--moves`, a `MoveLimits` block), the batch is
//! searched on the puzzle without them ([`Puzzle::keeping`]), so that the pruning tables
//! are built for the moves the search makes. Tables built over moves a search never
//! makes are admissible but weak: on the 3x3x3 in WCA notation, rotations and slices in
//! the tables make a face-turn search over ten times slower.
//!
//! The scrambles are translated once: their move limits and algorithms by move name,
//! and an algorithm that uses a move the narrowed puzzle lacks becomes the position it
//! makes (the verdict then judges it as a given position, as it must: the moves left may
//! not reach it).

use crate::puzzle::{LimitKey, MoveId, MoveLimit, Puzzle, Scramble, ScrambleSource, Target};

/// A batch narrowed to the moves it may use.
#[derive(Clone, Debug)]
pub struct Narrowed {
    /// The puzzle with only those moves.
    pub puzzle: Puzzle,
    /// The batch's scrambles, in the same order, in the narrowed puzzle's terms.
    pub scrambles: Vec<Scramble>,
    /// The names of the base moves kept, in order (for the keys of cached tables, which
    /// must never stand in for the whole puzzle's).
    pub kept: Vec<String>,
}

impl Narrowed {
    /// Bytes that tell the narrowed puzzle's cached tables from the whole puzzle's: to
    /// be appended to the definition's bytes where the table cache is keyed.
    pub fn key_bytes(&self) -> Vec<u8> {
        format!("\0narrowed to {}", self.kept.join(" ")).into_bytes()
    }
}

/// Per base move, whether some scramble of `scrambles` may use it (none limits it to 0),
/// or `None` when every move may be used by one of them.
fn kept_moves(puzzle: &Puzzle, scrambles: &[Scramble]) -> Option<Vec<bool>> {
    let mut keep = vec![scrambles.is_empty(); puzzle.base_moves.len()];
    for s in scrambles {
        match s.settings.allowed_moves(puzzle) {
            None => return None,
            Some(allowed) => {
                for m in allowed {
                    keep[puzzle.mv(m).base] = true;
                }
            }
        }
    }
    (!keep.iter().all(|&k| k)).then_some(keep)
}

/// `scrambles` of `puzzle` narrowed to the base moves some scramble may use, or `None`
/// when there is nothing to leave out (or nothing would be left).
pub fn narrow(puzzle: &Puzzle, scrambles: &[Scramble]) -> Option<Narrowed> {
    let keep = kept_moves(puzzle, scrambles)?;
    if !keep.iter().any(|&k| k) {
        return None;
    }
    let narrowed = puzzle.keeping(&keep);
    let id = |m: MoveId| narrowed.move_by_name(&puzzle.mv(m).name);
    let base = |b: usize| narrowed.base_by_name(&puzzle.base_moves[b].name);
    let scrambles = scrambles
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.settings.limits = s
                .settings
                .limits
                .iter()
                .filter_map(|l| {
                    let keys: Vec<LimitKey> = l
                        .keys
                        .iter()
                        .filter_map(|k| match *k {
                            LimitKey::Move(m) => id(m).map(LimitKey::Move),
                            LimitKey::Family(b) => base(b).map(LimitKey::Family),
                        })
                        .collect();
                    (!keys.is_empty()).then_some(MoveLimit { keys, max: l.max })
                })
                .collect();
            if let ScrambleSource::Alg(seq) = &s.source {
                let ids: Option<Vec<MoveId>> = seq.iter().map(|&m| id(m)).collect();
                s.source = match ids {
                    Some(ids) => ScrambleSource::Alg(ids),
                    None => ScrambleSource::Position(Target::definite(
                        puzzle,
                        puzzle.apply_sequence(&puzzle.solved, seq),
                    )),
                };
            }
            s
        })
        .collect();
    let kept = narrowed.base_moves.iter().map(|b| b.name.clone()).collect();
    Some(Narrowed {
        puzzle: narrowed,
        scrambles,
        kept,
    })
}
