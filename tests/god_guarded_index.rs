//! The flat-index breadth-first search of guarded puzzles against the hash-set search
//! and a brute-force search written here: per-depth counts, antipodes and every
//! position's saved distance agree, on boards with reversible slides, one-way slides,
//! interchangeable labels and a goal that is a set of positions.

use ksolve::def::parse_puzzle;
use ksolve::gods::database::{self, Database};
use ksolve::gods::{compute, GodError, GodOptions, GodTable, Method};
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, MoveId, Puzzle, State};
use std::collections::HashMap;

fn parse(text: &str) -> Puzzle {
    parse_puzzle(text.as_bytes(), "board.def").unwrap().0
}

/// `text` with its `Solved` labels (the line after `Solved` and the set name) replaced.
fn with_solved(text: &str, labels: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = lines.iter().position(|l| l == "Solved").unwrap();
    lines[at + 2] = labels.to_string();
    lines.join("\n") + "\n"
}

/// `text` without the moves named in `drop` (whole `Move ... End` blocks).
fn without_moves(text: &str, drop: &[&str]) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("Move ") {
            skipping = drop.contains(&name);
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
        if skipping && line == "End" {
            skipping = false;
        }
    }
    out
}

fn god(p: &Puzzle, method: Method, keep: bool) -> Result<GodTable, GodError> {
    let opts = GodOptions {
        method,
        keep_distances: keep,
        memory: 1 << 28,
        ..GodOptions::default()
    };
    compute(p, &opts, &Silent, &|_, _| {})
}

/// Every position that can reach a goal position, with its distance to the nearest:
/// breadth-first backwards over whole states, a move `m` leading from `x` to `y` when
/// its guard holds at `x`.
fn brute_force(p: &Puzzle) -> HashMap<State, u32> {
    let inverses: Vec<State> = p.moves.iter().map(|m| m.effect.inverse(&p.sets)).collect();
    let mut dist: HashMap<State, u32> = HashMap::new();
    let mut layer: Vec<State> = p.goal_positions(1 << 20).unwrap();
    for s in &layer {
        dist.insert(s.clone(), 0);
    }
    let mut d = 0;
    while !layer.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for y in &layer {
            for (m, inv) in inverses.iter().enumerate() {
                let x = y.then(inv, &p.sets);
                if p.block_allows(&x, MoveId(m as u16)) && !dist.contains_key(&x) {
                    dist.insert(x.clone(), d);
                    next.push(x);
                }
            }
        }
        layer = next;
    }
    dist
}

fn counts_of(dist: &HashMap<State, u32>) -> Vec<u64> {
    let mut counts = vec![0u64; 1 + *dist.values().max().unwrap() as usize];
    for &d in dist.values() {
        counts[d as usize] += 1;
    }
    counts
}

/// Both searches agree with brute force on `p`, and the flat index is the one `Auto`
/// takes; returns the flat index's table for further checks.
fn agree(p: &Puzzle) -> GodTable {
    let want = brute_force(p);
    let ix = god(p, Method::Indexed, false).unwrap();
    let auto = god(p, Method::Auto, false).unwrap();
    let hs = god(p, Method::Hashed, false).unwrap();
    assert_eq!(ix.counts, counts_of(&want));
    assert_eq!(hs.counts, ix.counts);
    assert_eq!(ix.method, Method::Indexed);
    assert_eq!(auto.method, Method::Indexed);
    assert_eq!(auto.counts, ix.counts);
    assert_eq!(hs.antipodes, ix.antipodes);
    assert!(!ix.antipodes.is_empty());
    // Saved distances: every reachable position, and nothing else, from both searches.
    for method in [Method::Indexed, Method::Hashed] {
        let t = god(p, method, true).unwrap();
        assert_eq!(t.method, method);
        let db = Database::in_memory("board", p, &t).unwrap();
        assert_eq!(db.positions(), want.len() as u64);
        for (s, &d) in &want {
            assert_eq!(db.distance(s), Some(d), "{method:?}");
        }
    }
    ix
}

#[test]
fn eight_puzzle_by_the_flat_index() {
    let p = parse(&crate::sliding_gen::tiles(3, 3));
    let t = agree(&p);
    assert_eq!(t.total(), 181_440);
    assert_eq!(t.index_space, Some(362_880));
    // Slides can be taken back, so entries are 2 bits: 362,880 / 4 bytes.
    assert_eq!(t.table_bytes, 362_880 / 4);
}

#[test]
fn interchangeable_tiles_and_two_blanks() {
    // 3 by 3, tiles of three kinds and two blanks (label 9): 9!/(2!3!2!2!) arrangements,
    // all of them reachable since repeated labels have no parity.
    let text = with_solved(&crate::sliding_gen::tiles(3, 3), "1 1 2 2 2 3 3 9 9");
    let t = agree(&parse(&text));
    assert_eq!(t.index_space, Some(7_560));
    assert_eq!(t.total(), 7_560);
}

#[test]
fn one_way_slides() {
    // Without the blank's moves up out of cells 4 and 5 (U4, U5), tiles slide down there
    // but never back: the moves are directed, so entries are whole bytes.
    let text = without_moves(&crate::sliding_gen::tiles(3, 2), &["U4", "U5"]);
    let p = parse(&text);
    let t = agree(&p);
    assert_eq!(t.table_bytes, 720);
    // Some position lies deeper than any two-way search could put it: the counts are
    // not those of the full board.
    let full = god(
        &parse(&crate::sliding_gen::tiles(3, 2)),
        Method::Indexed,
        false,
    )
    .unwrap();
    assert_ne!(t.counts, full.counts);
}

#[test]
fn a_goal_that_is_a_set_of_positions() {
    // 3 by 2 with tiles 1 1 2 3 and two blanks (label 6): any placement with tile 3 at
    // the bottom right and a blank beside it is solved, 4!/2! = 12 of them.
    let text = with_solved(&crate::sliding_gen::tiles(3, 2), "?1 ?1 ?2 ?6 6 3");
    let p = parse(&text);
    assert!(p.goal_is_set());
    let t = agree(&p);
    assert_eq!(t.counts[0], 12);
}

#[test]
fn klotski_is_too_large_for_the_flat_index() {
    let p = parse(&crate::sliding_gen::klotski(false));
    match god(&p, Method::Indexed, false) {
        Err(GodError::TooLarge(why)) => assert!(why.contains("flat index"), "{why}"),
        other => panic!("{:?}", other.map(|t| t.counts)),
    }
    // Auto takes the hash set, which now needs no set of every position seen.
    let t = god(&p, Method::Auto, false).unwrap();
    assert_eq!(t.method, Method::Hashed);
    assert_eq!(t.total(), 53_954);
}

/// `god --save` by the flat index, then `solve --database`: the 8-puzzle's antipodes in
/// 31 moves.
#[test]
fn saved_flat_index_tables_answer_the_database_method() {
    let p = parse(&crate::sliding_gen::tiles(3, 3));
    let t = god(&p, Method::Auto, true).unwrap();
    assert_eq!(t.method, Method::Indexed);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("8.ktb");
    database::write(&path, &p, &t).unwrap();
    let db = Database::open(&path, &p).unwrap();
    assert_eq!(db.positions(), 181_440);
    let a = &t.antipodes[0];
    let moves = database::solve(&db, &p, &a.state, Metric::Htm).unwrap();
    assert_eq!(moves.len(), 31);
    let mut s = a.state.clone();
    for m in moves {
        s = s.then(&p.mv(m).effect, &p.sets);
    }
    assert!(p.is_solved(&s, &[]));
}
