//! Guarded moves (`When`) against brute force on a small board: the 2x3 sliding-tile
//! puzzle, solved by IDA* (with and without the exact distance table) under every rule
//! the search has (Slack, QTM, MoveLimits, ignores, Block), compared with the
//! brute-force search of `common`, which tries every canonical sequence on the piece
//! model and checks guards through `Puzzle::block_allows`.

use crate::common::{assert_same_solutions, brute_force};
use ksolve::def::parse_puzzle;
use ksolve::gods::{compute, GodOptions};
use ksolve::progress::Silent;
use ksolve::puzzle::{
    Block, IgnoreMask, LimitKey, Metric, MoveId, MoveLimit, Puzzle, SolveSettings, State,
};
use ksolve::search::{SolveOptions, Solver, Tuning};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;

fn board() -> Puzzle {
    parse_puzzle(crate::sliding_gen::tiles(3, 2).as_bytes(), "2x3.def")
        .unwrap()
        .0
}

/// A deterministic walk of `steps` legal moves from solved.
fn walk(p: &Puzzle, seed: u64, steps: usize) -> State {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut s = p.solved.clone();
    for _ in 0..steps {
        let legal: Vec<MoveId> = (0..p.moves.len())
            .map(|m| MoveId(m as u16))
            .filter(|&m| p.block_allows(&s, m))
            .collect();
        if legal.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = legal[(x % legal.len() as u64) as usize];
        s = s.then(&p.mv(m).effect, &p.sets);
    }
    s
}

fn search(
    p: &Puzzle,
    start: &State,
    ignore: &[IgnoreMask],
    settings: &SolveSettings,
    exact: bool,
) -> Vec<Vec<MoveId>> {
    let mut solver = Solver::new(p, Tables::new(TableCache::in_memory(), 1 << 26));
    solver.tune(Tuning {
        no_exact_table: !exact,
        ..Tuning::default()
    });
    solver
        .solve(
            start,
            ignore,
            settings,
            SolveOptions::default(),
            &Silent,
            |_, _| {},
        )
        .unwrap()
        .solutions
}

/// Every scramble of the run agrees with brute force, with and without the exact table.
fn agree(p: &Puzzle, ignore: &[IgnoreMask], settings: &SolveSettings) {
    for seed in 1..=6 {
        let start = walk(p, seed, 5 + seed as usize);
        let want = brute_force(p, &start, ignore, settings);
        for exact in [true, false] {
            let got = search(p, &start, ignore, settings, exact);
            assert_same_solutions(p, &got, &want, &format!("seed {seed}, exact table {exact}"));
        }
    }
}

fn settings() -> SolveSettings {
    SolveSettings {
        max_depth: 13,
        ..SolveSettings::default()
    }
}

#[test]
fn the_2x3_puzzle_has_360_positions_and_diameter_21() {
    let t = compute(&board(), &GodOptions::default(), &Silent, &|_, _| {}).unwrap();
    assert_eq!(t.total(), 360);
    assert_eq!(t.max_depth(), 21);
}

#[test]
fn optimal_solutions_match_brute_force() {
    agree(&board(), &[], &settings());
}

#[test]
fn slack_matches_brute_force() {
    let s = SolveSettings {
        slack: 2,
        ..settings()
    };
    agree(&board(), &[], &s);
}

#[test]
fn qtm_matches_brute_force() {
    let s = SolveSettings {
        metric: Metric::Qtm,
        ..settings()
    };
    agree(&board(), &[], &s);
}

#[test]
fn move_limits_match_brute_force() {
    let p = board();
    let limits = vec![
        MoveLimit {
            keys: vec![LimitKey::Move(p.move_by_name("L6").unwrap())],
            max: 0,
        },
        MoveLimit {
            keys: vec![LimitKey::Move(p.move_by_name("U5").unwrap())],
            max: 1,
        },
    ];
    let s = SolveSettings {
        limits,
        ..settings()
    };
    agree(&p, &[], &s);
}

#[test]
fn ignores_match_brute_force() {
    let p = board();
    // Cells 1 and 2 may hold anything at the end.
    let mut m = IgnoreMask {
        perm: vec![false; 6],
        ori: vec![false; 6],
    };
    m.perm[0] = true;
    m.perm[1] = true;
    agree(&p, &[m], &settings());
}

#[test]
fn blocks_match_brute_force() {
    let mut p = board();
    // Tiles 2 and 5 (cells 2 and 5, one above the other) bandaged: a move slides one
    // tile, so both stay put and the blank keeps to the right-hand column.
    p.blocks = vec![Block {
        pieces: vec![(0, 1), (0, 4)],
    }];
    agree(&p, &[], &settings());
}
