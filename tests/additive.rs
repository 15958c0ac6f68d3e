//! Additive pattern tables on sliding-tile boards: on the 2x3 board and the 8-puzzle a
//! family is checked against breadth-first distances at every position (exact when one
//! table owns every tile, admissible and at least the Manhattan distance otherwise),
//! IDA* with a small family finds the breadth-first lengths, 15-puzzle positions get the
//! lengths of an independent IDA* (Manhattan distance plus linear conflicts) written
//! here, and a definition where one move carries two tiles gets no family.

use ksolve::def::parse_puzzle;
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, MoveId, Puzzle, SolveSettings, State};
use ksolve::search::{SolveOptions, Solver, Tuning};
use ksolve::storage::cache::TableCache;
use ksolve::table::additive::{family_rule, partition, Family};
use ksolve::table::plan::plan_report;
use ksolve::table::Tables;
use std::collections::{HashMap, VecDeque};

fn board(w: usize, h: usize) -> Puzzle {
    parse_puzzle(crate::sliding_gen::tiles(w, h).as_bytes(), "tiles.def")
        .unwrap()
        .0
}

/// Every position that can reach solved with its distance, by breadth-first search over
/// the piece model (a tile move's inverse is a tile move, so distances from solved are
/// distances to it).
fn distances(p: &Puzzle) -> HashMap<Vec<u16>, u32> {
    let mut seen = HashMap::new();
    let mut queue = VecDeque::new();
    seen.insert(p.solved.sets[0].perm.clone(), 0);
    queue.push_back(p.solved.clone());
    while let Some(s) = queue.pop_front() {
        let d = seen[&s.sets[0].perm];
        for m in 0..p.moves.len() {
            let m = MoveId(m as u16);
            if !p.block_allows(&s, m) {
                continue;
            }
            let t = s.then(&p.mv(m).effect, &p.sets);
            if !seen.contains_key(&t.sets[0].perm) {
                seen.insert(t.sets[0].perm.clone(), d + 1);
                queue.push_back(t);
            }
        }
    }
    seen
}

fn state(p: &Puzzle, perm: &[u16]) -> State {
    let mut s = p.solved.clone();
    s.sets[0].perm = perm.to_vec();
    s
}

/// The sum of the tiles' distances from home (0-based labels, blank = last label).
fn manhattan(w: usize, perm: &[u16]) -> u32 {
    let blank = perm.len() as u16 - 1;
    perm.iter()
        .enumerate()
        .filter(|(_, &t)| t != blank)
        .map(|(i, &t)| {
            let (r, c, hr, hc) = (i / w, i % w, t as usize / w, t as usize % w);
            (r.abs_diff(hr) + c.abs_diff(hc)) as u32
        })
        .sum()
}

#[test]
fn families_on_small_boards_are_exact_or_admissible() {
    for (w, h) in [(3, 2), (3, 3)] {
        let p = board(w, h);
        let dist = distances(&p);
        let shape = family_rule(&p).unwrap();
        assert_eq!(shape.shared, vec![(w * h - 1) as u16]);
        assert_eq!(shape.owned.len(), w * h - 1);
        for size in [w * h - 1, 3, 2] {
            let plan = partition(&p, &shape, size).unwrap();
            let family = Family::build(&p, plan, Metric::Htm, &Silent);
            let mut exact = 0usize;
            for (perm, &d) in &dist {
                let b = family.bound_state(&state(&p, perm));
                assert!(
                    b <= d,
                    "{w}x{h}, groups of {size}: {perm:?} bound {b} > {d}"
                );
                // Each table pays for every move of its own tiles, so the sum is at
                // least the Manhattan distance (a maximum of the tables would not be).
                assert!(b >= manhattan(w, perm), "{w}x{h}, {size}: {perm:?}");
                exact += (b == d) as usize;
            }
            // One table owning every tile, with the guards seen, is the puzzle itself.
            if size == w * h - 1 {
                assert_eq!(exact, dist.len(), "{w}x{h}");
            }
        }
    }
}

#[test]
fn ida_star_with_a_small_family_finds_breadth_first_lengths() {
    let p = board(3, 3);
    let dist = distances(&p);
    let shape = family_rule(&p).unwrap();
    let family = Family::build(&p, partition(&p, &shape, 3).unwrap(), Metric::Htm, &Silent);
    let mut tables = Tables::new(TableCache::in_memory(), 1 << 30);
    tables.set_additive(Some(family), Metric::Htm);
    let mut solver = Solver::new(&p, tables);
    solver.tune(Tuning {
        no_exact_table: true,
        ..Tuning::default()
    });
    let mut all: Vec<(&Vec<u16>, &u32)> = dist.iter().collect();
    all.sort();
    for (perm, &d) in all.iter().step_by(4001) {
        let options = SolveOptions {
            count: Some(1),
            ..SolveOptions::default()
        };
        let out = solver
            .solve(
                &state(&p, perm),
                &[],
                &SolveSettings::default(),
                options,
                &Silent,
                |_, _| {},
            )
            .unwrap();
        assert_eq!(out.length, Some(d), "{perm:?}");
    }
}

/// Records the bounds a search announces.
#[derive(Default)]
struct Bounds(std::sync::Mutex<Vec<u32>>);

impl ksolve::progress::Progress for Bounds {
    fn searching(&self, depth: u32) {
        self.0.lock().unwrap().push(depth);
    }
}

/// IDA* deepens by the least excess over the bound of the children it refused. On the
/// 8-puzzle every sequence from a position to the goal has one parity, which the
/// additive bound keeps, so every other bound is skipped: once each was searched, and
/// found the nodes of the bound below it again and no solution.
#[test]
fn ida_star_skips_the_bounds_of_the_other_parity() {
    let p = board(3, 3);
    let dist = distances(&p);
    let shape = family_rule(&p).unwrap();
    let family = Family::build(&p, partition(&p, &shape, 3).unwrap(), Metric::Htm, &Silent);
    let mut tables = Tables::new(TableCache::in_memory(), 1 << 30);
    tables.set_additive(Some(family), Metric::Htm);
    let mut solver = Solver::new(&p, tables);
    solver.tune(Tuning {
        no_exact_table: true,
        ..Tuning::default()
    });
    let mut all: Vec<(&Vec<u16>, &u32)> = dist.iter().collect();
    all.sort();
    let mut deepened = 0;
    for (perm, &d) in all.iter().step_by(4001) {
        let options = SolveOptions {
            count: Some(1),
            ..SolveOptions::default()
        };
        let bounds = Bounds::default();
        let out = solver
            .solve(
                &state(&p, perm),
                &[],
                &SolveSettings::default(),
                options,
                &bounds,
                |_, _| {},
            )
            .unwrap();
        assert_eq!(out.length, Some(d), "{perm:?}");
        let bounds = bounds.0.into_inner().unwrap();
        assert_eq!(bounds.last(), Some(&d), "{perm:?}");
        assert!(
            bounds.windows(2).all(|w| w[1] == w[0] + 2),
            "{perm:?}: bounds {bounds:?}"
        );
        deepened += bounds.len() - 1;
    }
    assert!(deepened > 10, "only {deepened} bounds were skipped");
}

/// The 8-puzzle with one more move that turns three cells at once, the blank among
/// them: it carries two tiles, so two tables could both count it.
#[test]
fn a_move_carrying_two_tiles_gets_no_family() {
    let mut text = crate::sliding_gen::tiles(3, 3);
    text.push_str("Move T\nWhen Cells 1 9\nCells\n2 3 1 4 5 6 7 8 9\nEnd\n");
    let p = parse_puzzle(text.as_bytes(), "turn.def").unwrap().0;
    let e = family_rule(&p).unwrap_err();
    assert!(e.0.contains("move T moves 2 pieces"), "{e}");
    let report = plan_report(&p, 1 << 30).unwrap();
    assert!(report.additive.is_none());
    assert!(report.not_additive.unwrap().contains("move T"));
    // The plain board gets one.
    let report = plan_report(&board(3, 3), 1 << 30).unwrap();
    assert_eq!(report.additive.unwrap().groups.len(), 1);
}

/// Optimal length by IDA* with Manhattan distance plus linear conflicts (two tiles in
/// their home row, or column, in reversed order: one must leave it and come back).
fn independent(w: usize, start: &[u16]) -> u32 {
    fn conflicts(w: usize, b: &[u16]) -> u32 {
        let n = b.len();
        let blank = n as u16 - 1;
        let mut extra = 0;
        for line in 0..w {
            for (a, c) in [(true, line), (false, line)] {
                // Row `line` when a, else column `line`.
                let cells: Vec<usize> = (0..w)
                    .map(|k| if a { c * w + k } else { k * w + c })
                    .collect();
                let homes: Vec<usize> = cells
                    .iter()
                    .filter(|&&i| b[i] != blank)
                    .filter(|&&i| {
                        let t = b[i] as usize;
                        if a {
                            t / w == c
                        } else {
                            t % w == c
                        }
                    })
                    .map(|&i| {
                        if a {
                            b[i] as usize % w
                        } else {
                            b[i] as usize / w
                        }
                    })
                    .collect();
                // Tiles that must leave: the line's length less its longest increasing
                // run of homes; each costs two moves.
                let mut best = vec![1usize; homes.len()];
                for i in 0..homes.len() {
                    for j in 0..i {
                        if homes[j] < homes[i] {
                            best[i] = best[i].max(best[j] + 1);
                        }
                    }
                }
                extra += 2 * (homes.len() - best.iter().copied().max().unwrap_or(0)) as u32;
            }
        }
        extra
    }
    fn h(w: usize, b: &[u16]) -> u32 {
        manhattan(w, b) + conflicts(w, b)
    }
    fn dfs(w: usize, b: &mut [u16], blank: usize, g: u32, bound: u32, prev: usize) -> bool {
        let f = g + h(w, b);
        if f > bound {
            return false;
        }
        if h(w, b) == 0 {
            return true;
        }
        let (r, c) = (blank / w, blank % w);
        let rows = b.len() / w;
        let mut next = Vec::new();
        if r > 0 {
            next.push(blank - w);
        }
        if r + 1 < rows {
            next.push(blank + w);
        }
        if c > 0 {
            next.push(blank - 1);
        }
        if c + 1 < w {
            next.push(blank + 1);
        }
        for t in next {
            if t == prev {
                continue;
            }
            b.swap(blank, t);
            let done = dfs(w, b, t, g + 1, bound, blank);
            b.swap(blank, t);
            if done {
                return true;
            }
        }
        false
    }
    let mut b = start.to_vec();
    let blank = b.iter().position(|&t| t as usize == b.len() - 1).unwrap();
    let mut bound = h(w, &b);
    while !dfs(w, &mut b, blank, 0, bound, usize::MAX) {
        bound += 2;
    }
    bound
}

/// A walk of `steps` tile moves from solved that never undoes the move before.
fn walk(w: usize, n: usize, seed: u64, steps: usize) -> Vec<u16> {
    let mut b: Vec<u16> = (0..n as u16).collect();
    let mut blank = n - 1;
    let mut prev = usize::MAX;
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for _ in 0..steps {
        let (r, c) = (blank / w, blank % w);
        let mut next = Vec::new();
        for (ok, t) in [
            (r > 0, blank.wrapping_sub(w)),
            (r + 1 < n / w, blank + w),
            (c > 0, blank.wrapping_sub(1)),
            (c + 1 < w, blank + 1),
        ] {
            if ok && t != prev {
                next.push(t);
            }
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let t = next[(x % next.len() as u64) as usize];
        b.swap(blank, t);
        prev = blank;
        blank = t;
    }
    b
}

/// 15-puzzle positions `steps` moves from solved, solved with a family of groups of
/// `size` tiles, against the independent solver.
fn fifteen(seeds: std::ops::Range<u64>, steps: usize, size: usize) {
    let p = board(4, 4);
    let shape = family_rule(&p).unwrap();
    let plan = partition(&p, &shape, size).unwrap();
    let family = Family::build(&p, plan, Metric::Htm, &Silent);
    let mut tables = Tables::new(TableCache::in_memory(), 1 << 30);
    tables.set_additive(Some(family), Metric::Htm);
    let mut solver = Solver::new(&p, tables);
    solver.tune(Tuning {
        no_exact_table: true,
        ..Tuning::default()
    });
    for seed in seeds {
        let perm = walk(4, 16, seed, steps);
        let want = independent(4, &perm);
        let options = SolveOptions {
            count: Some(1),
            ..SolveOptions::default()
        };
        let out = solver
            .solve(
                &state(&p, &perm),
                &[],
                &SolveSettings::default(),
                options,
                &Silent,
                |_, _| {},
            )
            .unwrap();
        assert_eq!(out.length, Some(want), "seed {seed}: {perm:?}");
    }
}

#[test]
fn fifteen_puzzle_lengths_match_an_independent_solver() {
    fifteen(1..4, 40, 3);
}

/// Deeper positions, with groups of five tiles (three tables of 5.8 M entries): slow in
/// a debug build (`KSOLVE_SLOW_TESTS=1`).
#[test]
fn deeper_fifteen_puzzle_positions_match_an_independent_solver() {
    if !crate::common::slow_tests() {
        return;
    }
    fifteen(10..16, 80, 5);
}

/// `solve -v` names the partition it chose, or why a guarded puzzle has none.
#[test]
fn solve_verbose_names_the_family() {
    let root = env!("CARGO_MANIFEST_DIR");
    let run = |def: &str, scr: &str| {
        let out = std::process::Command::new(crate::common::bin())
            .args([
                "solve",
                "-v",
                "--no-cache",
                "--memory",
                "256M",
                "--count",
                "1",
            ])
            .arg(format!("{root}/puzzles/{def}"))
            .arg(format!("{root}/scrambles/{scr}"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stderr).unwrap()
    };
    let err = run("8puzzle.def", "8puzzle.txt");
    assert!(
        err.contains(
            "additive tables: 8 of 8 pieces of Cells, each with piece 9 kept (363 k entries)"
        ),
        "{err}"
    );
    let err = run("klotski.def", "klotski.txt");
    assert!(
        err.contains("no additive tables: the goal is a set of positions"),
        "{err}"
    );
}

/// Groups are compact on the board: the 15-puzzle's six-tile groups are blocks of two
/// by three (the tiles' solved cells), not rows, and of the 8-puzzle's two groups of
/// four one is a square of two by two and the other the rest, an L.
/// The groups of at most `size` tiles the family takes, as tile numbers.
fn groups_of(p: &Puzzle, size: usize) -> Vec<Vec<u16>> {
    let plan = partition(p, &family_rule(p).unwrap(), size).unwrap();
    plan.groups
        .iter()
        .map(|g| g.iter().map(|l| l + 1).collect())
        .collect()
}

#[test]
fn groups_are_blocks_of_neighbouring_tiles() {
    let p = board(4, 4);
    assert_eq!(
        groups_of(&p, 6),
        [
            vec![1, 2, 5, 6, 9, 10],
            vec![3, 4, 7, 8, 11, 12],
            vec![13, 14, 15]
        ]
    );
    assert_eq!(
        groups_of(&board(3, 3), 4),
        [vec![1, 2, 3, 6], vec![4, 5, 7, 8]]
    );
}

/// Square boards with the blank in a corner have one mirror image (the reflection in the
/// diagonal through the blank's cell), and the search uses it; a board of two by three
/// has none that keeps the goal.
#[test]
fn square_boards_have_their_diagonal_mirror() {
    for (w, h, n) in [(3, 3, 1), (4, 4, 1), (3, 2, 0)] {
        let p = board(w, h);
        let found = ksolve::table::additive::mirrors(&p, 0);
        assert_eq!(found.len(), n, "{w}x{h}");
        for m in &found {
            // The diagonal: the cell in row r, column c goes to row c, column r.
            for (i, &to) in m.pos.iter().enumerate() {
                assert_eq!(to as usize, (i % w) * w + i / w, "{w}x{h}");
            }
        }
    }
}
