//! Sliding-block puzzles (guarded moves): the shipped definitions equal their generator,
//! and the published figures of the 8-puzzle and Klotski come out.

use crate::common::ksolve;
use ksolve::def::{parse_puzzle, write_def};
use ksolve::gods::database::{self, Database};
use ksolve::gods::sample::Reachable;
use ksolve::gods::{compute, GodOptions, GodTable};
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, Puzzle, SolveSettings, State};
use ksolve::rng::Rng;
use ksolve::search::{SolveOptions, Solver};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::path::Path;
use std::time::Instant;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped file `puzzles/NAME`, checked against the generator's text (rewritten
/// from it with `KSOLVE_WRITE_DEFS=1`).
fn shipped(name: &str, generated: String) -> Puzzle {
    let path = root().join("puzzles").join(name);
    if std::env::var_os("KSOLVE_WRITE_DEFS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &generated).unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text == generated,
        "{name} differs from tests/sliding_gen's output; rerun with KSOLVE_WRITE_DEFS=1"
    );
    parse_puzzle(text.as_bytes(), name).unwrap().0
}

fn god(p: &Puzzle) -> GodTable {
    compute(p, &GodOptions::default(), &Silent, &|_, _| {}).unwrap()
}

/// The puzzle with `start` as its (single) solved state: `god` then counts what
/// `start` reaches.
fn from(p: &Puzzle, start: &[u16]) -> Puzzle {
    let mut q = p.clone();
    q.solved.sets[0].perm = start.iter().map(|&l| l - 1).collect();
    q.free.clear();
    q
}

/// Klotski's classic start ("horizontal general"), labels as in the definition.
pub const KLOTSKI_START: [u16; 20] = [3, 7, 8, 3, 4, 9, 10, 4, 3, 5, 6, 3, 4, 2, 2, 4, 2, 1, 1, 2];

#[test]
fn eight_puzzle_counts_are_oeis_a089473() {
    let p = shipped("8puzzle.def", crate::sliding_gen::tiles(3, 3));
    let t = god(&p);
    assert_eq!(
        t.counts,
        [
            1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638,
            9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2
        ]
    );
    assert_eq!(t.total(), 181_440);
    assert_eq!(t.antipodes.len(), 2);
    for a in &t.antipodes {
        let end = replay(&p, &a.state, &a.solution);
        assert_eq!(end, p.solved);
        assert_eq!(a.solution.len(), 31);
    }
}

/// Applies a solution checking every guard on the way.
fn replay(p: &Puzzle, start: &State, seq: &[ksolve::puzzle::MoveId]) -> State {
    let mut s = start.clone();
    for &m in seq {
        assert!(p.guard_allows(&s, m), "{} is not allowed", p.mv(m).name);
        s = s.then(&p.mv(m).effect, &p.sets);
    }
    s
}

#[test]
fn klotski_from_the_goal_set() {
    let p = shipped("klotski.def", crate::sliding_gen::klotski(false));
    let t = god(&p);
    assert_eq!(t.total(), 53_954);
    assert_eq!(t.max_depth(), 126);
    for a in &t.antipodes {
        assert!(p.is_solved(&replay(&p, &a.state, &a.solution), &[]));
    }
}

#[test]
fn klotski_classic_start_reaches_25955() {
    let p = shipped("klotski.def", crate::sliding_gen::klotski(false));
    let t = god(&from(&p, &KLOTSKI_START));
    assert_eq!(t.total(), 25_955);
}

fn distances(p: &Puzzle) -> Database {
    let opts = GodOptions {
        keep_distances: true,
        ..GodOptions::default()
    };
    let t = compute(p, &opts, &Silent, &|_, _| {}).unwrap();
    Database::in_memory("klotski", p, &t).unwrap()
}

fn start_state(p: &Puzzle) -> State {
    let mut s = p.solved.clone();
    s.sets[0].perm = KLOTSKI_START.iter().map(|&l| l - 1).collect();
    s
}

#[test]
fn klotski_classic_start_needs_116_unit_moves() {
    let p = shipped("klotski.def", crate::sliding_gen::klotski(false));
    let db = distances(&p);
    let start = start_state(&p);
    assert_eq!(db.distance(&start), Some(116));
    let moves = database::solve(&db, &p, &start, Metric::Htm).unwrap();
    assert_eq!(moves.len(), 116);
    assert!(p.is_solved(&replay(&p, &start, &moves), &[]));
}

#[test]
fn klotski_straight_moves_need_90() {
    let p = shipped("klotski_slide.def", crate::sliding_gen::klotski(true));
    let db = distances(&p);
    assert_eq!(db.distance(&start_state(&p)), Some(90));
}

/// The database method and IDA* agree on Klotski positions drawn uniformly from those
/// that can reach the goal, and the database answers each quickly.
#[test]
fn klotski_database_lengths_equal_ida() {
    let p = shipped("klotski.def", crate::sliding_gen::klotski(false));
    let db = distances(&p);
    let list = Reachable::new(&p, 1 << 28, &Silent).unwrap();
    assert_eq!(list.len(), 53_954);
    let mut rng = Rng::new(11);
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 1 << 28));
    let mut starts: Vec<State> = (0..8).map(|_| list.draw(&mut rng)).collect();
    starts.push(start_state(&p));
    for start in starts {
        let t0 = Instant::now();
        let by_db = database::solve(&db, &p, &start, Metric::Htm).unwrap();
        let took = t0.elapsed();
        assert!(p.is_solved(&replay(&p, &start, &by_db), &[]));
        let outcome = solver
            .solve(
                &start,
                &[],
                &SolveSettings::default(),
                SolveOptions {
                    count: Some(1),
                    ..SolveOptions::default()
                },
                &Silent,
                |_, _| {},
            )
            .unwrap();
        assert_eq!(outcome.length, Some(by_db.len() as u32));
        assert!(p.is_solved(&replay(&p, &start, &outcome.solutions[0]), &[]));
        // Well under a millisecond in release builds; debug builds get slack.
        crate::common::assert_quick(took, std::time::Duration::from_millis(200), "");
    }
}

#[test]
fn shipped_definitions_read_back_from_write_def() {
    for (name, text) in [
        ("klotski.def", crate::sliding_gen::klotski(false)),
        ("8puzzle.def", crate::sliding_gen::tiles(3, 3)),
        ("15puzzle.def", crate::sliding_gen::tiles(4, 4)),
        ("klotski_slide.def", crate::sliding_gen::klotski(true)),
    ] {
        let p = shipped(name, text);
        let again = parse_puzzle(write_def(&p).as_bytes(), name).unwrap().0;
        assert_eq!(again, p);
    }
}

/// `god --save` then `solve --database` on the shipped Klotski files: the classic start
/// in 116 moves.
#[test]
fn klotski_cli_database() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("klotski.ktb");
    let def = root().join("puzzles/klotski.def");
    ksolve()
        .arg("god")
        .arg(&def)
        .arg("--save")
        .arg(&table)
        .assert()
        .success()
        .stdout(predicates::str::contains("Total positions: 53954"));
    let out = ksolve()
        .arg("solve")
        .arg(&def)
        .arg(root().join("scrambles/klotski.txt"))
        .arg("--database")
        .arg(&table)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let line = text.lines().nth(1).unwrap();
    assert_eq!(line.split_whitespace().count(), 116, "{text}");
}

/// A malformed `When` or `Require` line: FILE:LINE:COL, the line, and exit 2.
#[test]
fn malformed_guards_are_refused_with_their_place() {
    let good = crate::sliding_gen::tiles(3, 2);
    let cases = [
        ("When Cells 4 6", "When Cells 9 6", "9", "is not a position"),
        ("When Cells 4 6", "When Cells 4 7", "7", "is not a label"),
        ("When Cells 4 6", "When Cells 4", "", "pairs of a position"),
        ("When Cells 4 6", "When Celts 4 6", "Celts", "Celts"),
        (
            "When Cells 4 6",
            "When Cells 4 6,x",
            "6,x",
            "is not a label",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (from, to, word, says) in cases {
        let text = good.replacen(from, to, 1);
        assert_ne!(text, good);
        let path = dir.path().join("bad.def");
        std::fs::write(&path, &text).unwrap();
        let line = text.lines().position(|l| l == to).unwrap() + 1;
        let col = if word.is_empty() {
            to.len() + 2
        } else {
            to.find(word).unwrap() + 1
        };
        let out = ksolve()
            .arg("check")
            .arg(&path)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8(out).unwrap();
        assert!(
            err.contains(&format!("bad.def:{line}:{col}:")),
            "{to}: {err}"
        );
        assert!(err.contains(says) && err.contains(to), "{to}: {err}");
    }
    let bad_rule = "Solved\nCells\n1 2 3 4 5 6\nRequire Cells 1 1 2\nEnd\n";
    let text = good.replacen("Solved\nCells\n1 2 3 4 5 6\nEnd\n", bad_rule, 1);
    assert_ne!(text, good);
    let path = dir.path().join("rule.def");
    std::fs::write(&path, &text).unwrap();
    let out = ksolve()
        .arg("check")
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    let line = text.lines().position(|l| l.starts_with("Require")).unwrap() + 1;
    assert!(err.contains(&format!("rule.def:{line}:19:")), "{err}");
    assert!(err.contains("Require"), "{err}");
}

/// A `MoveSequence` has no single guard, so it is refused where moves are guarded.
#[test]
fn move_sequences_of_guarded_moves_are_refused() {
    let def = "Set Cells 3 1\nSolved\nCells\n1 2 3\nEnd\nMove A\nWhen Cells 1 1\nCells\n2 1 3\nEnd\nMoveSequence AB A A A\n";
    let err = parse_puzzle(def.as_bytes(), "seq.def")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("seq.def:11:1:"), "{err}");
    assert!(err.contains("MoveSequence"), "{err}");
}
