//! Sliding-block puzzles (guarded moves): the shipped definitions equal their generator,
//! and the published figures of the 8-puzzle and Klotski come out.

mod sliding_gen;

use ksolve::def::parse_puzzle;
use ksolve::gods::{compute, GodOptions, GodTable};
use ksolve::progress::Silent;
use ksolve::puzzle::{Puzzle, State};
use std::path::Path;

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
    let p = shipped("8puzzle.def", sliding_gen::tiles(3, 3));
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
    let p = shipped("klotski.def", sliding_gen::klotski(false));
    let t = god(&p);
    assert_eq!(t.total(), 53_954);
    assert_eq!(t.max_depth(), 126);
    for a in &t.antipodes {
        assert!(p.is_solved(&replay(&p, &a.state, &a.solution), &[]));
    }
}

#[test]
fn klotski_classic_start_reaches_25955() {
    let p = shipped("klotski.def", sliding_gen::klotski(false));
    let t = god(&from(&p, &KLOTSKI_START));
    assert_eq!(t.total(), 25_955);
}
