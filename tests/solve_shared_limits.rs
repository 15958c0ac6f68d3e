//! Shared move limits: one `MoveLimits` line naming several moves or families caps them
//! together (`SA SB ... SO 1`: one special move per game of Rotate). Optimal lengths are
//! checked against brute forces written here, which count the limited moves by their
//! names and never ask the library which moves a limit matches.

use crate::common::*;
use ksolve::progress::Silent;
use ksolve::puzzle::{MoveId, Puzzle, SolveSettings, State};
use ksolve::search::{Outcome, SolveOptions, Solver, Status};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::collections::{HashMap, HashSet};

const ROTATE: &str = include_str!("../puzzles/rotate.def");
const ROTATE_SCRAMBLES: &str = include_str!("../scrambles/rotate.txt");

/// A Rotate board as sixteen 4-bit letters (cell `i` in bits `4i..4i+4`).
type Board = u64;

/// Where each cell's new letter comes from, for every move of the board.
fn sources(p: &Puzzle) -> Vec<[u8; 16]> {
    p.moves
        .iter()
        .map(|m| {
            let after = p.solved.then(&m.effect, &p.sets);
            let mut src = [0u8; 16];
            for (i, &l) in after.sets[0].perm.iter().enumerate() {
                src[i] = l as u8;
            }
            src
        })
        .collect()
}

fn pack(s: &State) -> Board {
    s.sets[0]
        .perm
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &l)| acc | (l as u64) << (4 * i))
}

fn cell(b: Board, i: usize) -> u64 {
    (b >> (4 * i)) & 15
}

fn forward(b: Board, src: &[u8; 16]) -> Board {
    (0..16).fold(0, |acc, i| acc | cell(b, src[i] as usize) << (4 * i))
}

fn backward(b: Board, src: &[u8; 16]) -> Board {
    (0..16).fold(0, |acc, i| acc | cell(b, i) << (4 * src[i] as usize))
}

/// The fewest moves from `start` to `goal` using at most `max_counted` of the moves
/// marked `counted` (all together), up to `max_len` moves, by meeting in the middle:
/// layers of (board, counted moves used) grown from both ends, the smaller first.
fn optimal(
    src: &[[u8; 16]],
    counted: &[bool],
    max_counted: u8,
    start: Board,
    goal: Board,
    max_len: u32,
) -> Option<u32> {
    let mut fwd: HashMap<(Board, u8), u32> = HashMap::from([((start, 0), 0)]);
    let mut bwd: HashMap<(Board, u8), u32> = HashMap::from([((goal, 0), 0)]);
    let (mut ff, mut bf) = (vec![(start, 0u8)], vec![(goal, 0u8)]);
    let (mut df, mut db) = (0, 0);
    loop {
        let mut best: Option<u32> = None;
        for (&(b, used), &d) in &bwd {
            for u in 0..=max_counted - used {
                if let Some(&e) = fwd.get(&(b, u)) {
                    best = Some(best.map_or(d + e, |x| x.min(d + e)));
                }
            }
        }
        if best.is_some() {
            return best;
        }
        if df + db >= max_len {
            return None;
        }
        let grow_forward = ff.len() <= bf.len();
        let (map, frontier, depth) = if grow_forward {
            (&mut fwd, &mut ff, &mut df)
        } else {
            (&mut bwd, &mut bf, &mut db)
        };
        *depth += 1;
        let mut next = Vec::new();
        for &(b, used) in frontier.iter() {
            for (m, s) in src.iter().enumerate() {
                let used = used + counted[m] as u8;
                if used > max_counted {
                    continue;
                }
                let t = if grow_forward {
                    forward(b, s)
                } else {
                    backward(b, s)
                };
                if let std::collections::hash_map::Entry::Vacant(e) = map.entry((t, used)) {
                    e.insert(*depth);
                    next.push((t, used));
                }
            }
        }
        *frontier = next;
    }
}

/// On the Rotate board, a position that needs 10 rotations is solved in fewer with the
/// one special move the game allows, and never with two, though two would be shorter
/// still: the twelve swaps share one limit. The solver's optimum equals the brute force
/// with at most one swap, and every solution it prints (optimal and the next length, with
/// Slack 2) uses at most one swap.
#[test]
fn rotate_allows_one_swap_in_all() {
    let p = puzzle(ROTATE);
    let src = sources(&p);
    let swap: Vec<bool> = p.moves.iter().map(|m| m.name.starts_with('S')).collect();
    assert_eq!(swap.iter().filter(|&&s| s).count(), 12);
    let rotation: Vec<usize> = (0..p.moves.len()).filter(|&m| !swap[m]).collect();
    assert_eq!(rotation.len(), 9);
    let rot_src: Vec<[u8; 16]> = rotation.iter().map(|&m| src[m]).collect();
    // The packed model moves letters as the piece model does.
    let probe = p.apply_sequence(&p.solved, &[MoveId(0), MoveId(12), MoveId(4)]);
    let packed = [0, 12, 4]
        .iter()
        .fold(pack(&p.solved), |b, &m| forward(b, &src[m]));
    assert_eq!(pack(&probe), packed);
    assert_eq!(
        backward(packed, &src[4]),
        forward(forward(pack(&p.solved), &src[0]), &src[12])
    );

    // Positions two swaps and a few rotations from solved: undone by a short sequence
    // with two swaps, but the limit allows one. Keep the first that needs exactly ten
    // rotations alone, fewer with one swap, and fewer still with two.
    let solved = pack(&p.solved);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n) as usize
    };
    let swaps: Vec<usize> = (0..p.moves.len()).filter(|&m| swap[m]).collect();
    let mut found = None;
    for tries in 1..=400 {
        let mut seq: Vec<usize> = (0..4).map(|_| rotation[next(9)]).collect();
        seq.insert(next(5), swaps[next(12)]);
        seq.insert(next(6), swaps[next(12)]);
        // The position this sequence solves.
        let start = seq.iter().rev().fold(solved, |b, &m| backward(b, &src[m]));
        let no_swap = vec![false; 9];
        if optimal(&rot_src, &no_swap, 0, start, solved, 10) != Some(10) {
            continue;
        }
        let Some(one) = optimal(&src, &swap, 1, start, solved, 9) else {
            continue;
        };
        let two = optimal(&src, &swap, 2, start, solved, 6).expect("the sequence itself");
        if two < one {
            eprintln!("candidate {tries}: {two} moves with two swaps, {one} with one");
            found = Some((start, one, two));
            break;
        }
    }
    let (start, one, two) = found.expect("no candidate position among 400");
    assert!(two < one && one < 10, "{two} {one}");

    // The position as a Scramble block under the shipped scramble file's limit.
    let head = ROTATE_SCRAMBLES
        .split("\n# The level-8")
        .next()
        .unwrap()
        .to_string();
    assert!(
        head.contains("SA SB SC SE SF SG SI SJ SK SM SN SO 1"),
        "{head}"
    );
    let board: Vec<String> = (0..16).map(|i| (cell(start, i) + 1).to_string()).collect();
    let text = format!(
        "{head}Slack 2\nScramble ten\nBOARD\n{}\nEnd\n",
        board.join(" ")
    );
    let s = &scrambles(&p, &text)[0];
    let (state, _) = position(&p, s);
    assert_eq!(pack(&state), start);
    let got = solve_board(&p, &state, &s.settings);
    assert_eq!(got.status, Status::Solved);
    assert_eq!(got.length, Some(one));
    let mut lengths = HashSet::new();
    for sol in &got.solutions {
        let swaps_used = sol.iter().filter(|m| swap[m.index()]).count();
        assert!(swaps_used <= 1, "{}", p.format_sequence(sol));
        let end = sol.iter().fold(start, |b, m| forward(b, &src[m.index()]));
        assert_eq!(end, solved);
        lengths.insert(sol.len() as u32);
    }
    // Every move permutes the letters oddly, so lengths keep their parity: Slack 2 shows
    // the next length.
    assert_eq!(lengths, HashSet::from([one, one + 2]));
}

/// A solver with room for the sixteen letters' move tables (about 130 MB with 21 moves).
fn solve_board(p: &Puzzle, start: &State, settings: &SolveSettings) -> Outcome {
    let mut solver = Solver::new(p, Tables::new(TableCache::in_memory(), 200 << 20));
    solver
        .solve(
            start,
            &[],
            settings,
            SolveOptions::default(),
            &Silent,
            |_, _| {},
        )
        .unwrap()
}

/// The optimal number of moves from `start` to solved when, for each `(counted, max)`,
/// at most `max` of the moves marked `counted` are used, by a breadth-first search over
/// (position, counts) that tries every move; `None` beyond `max_len`.
fn brute_optimal(
    p: &Puzzle,
    start: &State,
    caps: &[(Vec<bool>, u32)],
    max_len: u32,
) -> Option<u32> {
    let mut seen: HashSet<(State, Vec<u32>)> = HashSet::new();
    let mut layer = vec![(start.clone(), vec![0u32; caps.len()])];
    for depth in 0..=max_len {
        let mut next = Vec::new();
        for (s, counts) in layer {
            if p.is_solved(&s, &[]) {
                return Some(depth);
            }
            for m in 0..p.moves.len() {
                let mut c = counts.clone();
                let mut within = true;
                for (k, (counted, max)) in caps.iter().enumerate() {
                    if counted[m] {
                        c[k] += 1;
                        within &= c[k] <= *max;
                    }
                }
                let t = s.then(&p.moves[m].effect, &p.sets);
                if within && seen.insert((t.clone(), c.clone())) {
                    next.push((t, c));
                }
            }
        }
        layer = next;
    }
    None
}

/// A limit shared by two families (`R* F* N`) on the 2x2x2 caps their moves together:
/// the solver's optimum equals a brute force that counts R and F moves by name, every
/// solution keeps to the shared cap, and on some scramble the shared cap gives a longer
/// answer than separate caps of the same size would.
#[test]
fn a_limit_shared_by_two_families_matches_brute_force() {
    let p = puzzle(CUBE2);
    let family = |b: &str| -> Vec<bool> {
        p.moves
            .iter()
            .map(|m| p.base_moves[m.base].name == b)
            .collect()
    };
    let (r, f) = (family("R"), family("F"));
    let rf: Vec<bool> = r.iter().zip(&f).map(|(a, b)| a | b).collect();
    let u2: Vec<bool> = p.moves.iter().map(|m| m.name == "U2").collect();
    let text = "MaxDepth 9\nMoveLimits\nR* F* 3\nEnd\n\
                ScrambleAlg a\nR U F\nEnd\nScrambleAlg b\nR F R F\nEnd\nScrambleAlg c\nF R' U F2\nEnd\nScrambleAlg f\nR F U R F\nEnd\n\
                MoveLimits\nU2 0\nF* R* 4\nEnd\nScrambleAlg d\nR U2 F R\nEnd\nScrambleAlg e\nR F U R' F\nEnd\n";
    let mut longer_than_separate = 0;
    for s in scrambles(&p, text) {
        let (start, _) = position(&p, &s);
        let shared_max = if s.settings.limits.len() == 1 { 3 } else { 4 };
        let mut caps = vec![(rf.clone(), shared_max)];
        let mut separate = vec![(r.clone(), shared_max), (f.clone(), shared_max)];
        if s.settings.limits.len() == 2 {
            caps.push((u2.clone(), 0));
            separate.push((u2.clone(), 0));
        }
        let want = brute_optimal(&p, &start, &caps, 9);
        let got = solve(&p, &start, &[], &s.settings);
        assert_eq!(got.length, want, "scramble {}", s.name);
        let status = if want.is_some() {
            Status::Solved
        } else {
            Status::MaxDepth
        };
        assert_eq!(got.status, status, "scramble {}", s.name);
        for sol in &got.solutions {
            for (counted, max) in &caps {
                let n = sol.iter().filter(|m| counted[m.index()]).count() as u32;
                assert!(n <= *max, "{}: {}", s.name, p.format_sequence(sol));
            }
        }
        eprintln!("{}: {want:?}", s.name);
        // `None` (nothing within MaxDepth) sorts below every length: count only answers.
        let apart = brute_optimal(&p, &start, &separate, 9);
        if apart.is_some() && (want.is_none() || apart < want) {
            longer_than_separate += 1;
        }
    }
    assert!(longer_than_separate >= 2, "{longer_than_separate}");
}
