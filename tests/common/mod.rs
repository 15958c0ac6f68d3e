//! Puzzle definitions written for these tests, and helpers to run the solver on them.
#![allow(dead_code)]

pub mod shell;

use ksolve::def::{parse_puzzle, parse_scrambles};
use ksolve::progress::Silent;
use ksolve::puzzle::{IgnoreMask, MoveId, Puzzle, Scramble, ScrambleSource, SolveSettings, State};
use ksolve::search::canon::{Canon, DEAD};
use ksolve::search::{Outcome, SolveOptions, Solver};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;

/// A 2x2x2 turned by U, R and F; the down-back-left corner stays put.
/// Corners: 1 UFR, 2 UFL, 3 UBL, 4 UBR, 5 DFR, 6 DFL, 7 DBR.
pub const CUBE2: &str = "Name 2x2x2 (tests)
Set CORNERS 7 3
Solved
CORNERS
1 2 3 4 5 6 7
End
Move U
CORNERS
4 1 2 3 5 6 7
End
Move R
CORNERS
5 2 3 1 7 6 4
1 0 0 2 2 0 1
End
Move F
CORNERS
2 6 3 4 1 5 7
2 1 0 0 1 2 0
End
";

/// The 2x2x2 above with ignores allowed: the permutation of the two back U corners
/// and the orientation of UBL.
pub fn cube2_with_ignore() -> String {
    format!("{CUBE2}Ignore\nCORNERS\n0 0 1 1 0 0 0\n0 0 1 0 0 0 0\nEnd\n")
}

/// The 2x2x2 above with UFR and UFL bandaged together: R alone may not turn while
/// both sit in the U layer's front.
pub fn cube2_with_block() -> String {
    format!("{CUBE2}Block\nCORNERS\n1 2\nEnd\n")
}

pub fn puzzle(def: &str) -> Puzzle {
    parse_puzzle(def.as_bytes(), "test.def").unwrap().0
}

pub fn scrambles(p: &Puzzle, text: &str) -> Vec<Scramble> {
    parse_scrambles(text.as_bytes(), "test.txt", p).unwrap()
}

/// The position a scramble asks to solve, with its ignore masks.
pub fn position(p: &Puzzle, s: &Scramble) -> (State, Vec<IgnoreMask>) {
    match &s.source {
        ScrambleSource::Position(t) => (t.state.clone(), t.ignore.clone()),
        ScrambleSource::Alg(moves) => (p.apply_sequence(&p.solved, moves), vec![]),
        ScrambleSource::Random => panic!("no random scrambles in these tests"),
        ScrambleSource::Impossible(why) => panic!("an impossible scramble: {why}"),
    }
}

/// Solves with tables in memory.
pub fn solve(
    p: &Puzzle,
    start: &State,
    ignore: &[IgnoreMask],
    settings: &SolveSettings,
) -> Outcome {
    let mut solver = Solver::new(p, Tables::new(TableCache::in_memory(), 1 << 28));
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
}

/// A brute-force search on the piece-level model: every canonical (by the automaton
/// for the scramble's limits, whose rules `solve_limits.rs` and its unit tests check on
/// their own), block-legal sequence within the move limits and costing at most the depth limit, in
/// depth-first order with moves in definition order; the solved ones, shortest first,
/// from the optimal cost up to optimal + slack.
pub fn brute_force(
    p: &Puzzle,
    start: &State,
    ignore: &[IgnoreMask],
    settings: &SolveSettings,
) -> Vec<Vec<MoveId>> {
    #[allow(clippy::too_many_arguments)]
    fn walk(
        p: &Puzzle,
        canon: &Canon,
        state: u32,
        s: &State,
        ignore: &[IgnoreMask],
        settings: &SolveSettings,
        path: &mut Vec<MoveId>,
        cost: u32,
        out: &mut Vec<(u32, Vec<MoveId>)>,
    ) {
        if p.is_solved(s, ignore) {
            out.push((cost, path.clone()));
        }
        for m in 0..p.moves.len() {
            let m = MoveId(m as u16);
            let c = settings.metric.cost(p, m);
            if cost + c > settings.max_depth {
                continue;
            }
            let next_state = canon.step(state, m.index());
            if next_state == DEAD {
                continue;
            }
            if !p.block_allows(s, m) {
                continue;
            }
            path.push(m);
            let within = settings
                .limits
                .iter()
                .all(|l| path.iter().filter(|&&x| l.matches(p, x)).count() as u32 <= l.max);
            if within {
                let next = s.then(&p.mv(m).effect, &p.sets);
                walk(
                    p,
                    canon,
                    next_state,
                    &next,
                    ignore,
                    settings,
                    path,
                    cost + c,
                    out,
                );
            }
            path.pop();
        }
    }
    let mut found = Vec::new();
    let canon = Canon::new(p, &settings.limits);
    walk(
        p,
        &canon,
        Canon::START,
        start,
        ignore,
        settings,
        &mut Vec::new(),
        0,
        &mut found,
    );
    found.sort_by_key(|(c, _)| *c);
    let Some(&(best, _)) = found.first() else {
        return Vec::new();
    };
    found
        .into_iter()
        .filter(|(c, _)| *c <= best + settings.slack)
        .map(|(_, s)| s)
        .collect()
}

/// The `ksolve` binary under test: the one this build made, or the one
/// `KSOLVE_TEST_BIN` names (`.ci/run` names the one its test build made, so that the
/// tests that build large tables run there; any other build, a release one, may be
/// named without a build of the tests to match).
pub fn bin() -> std::path::PathBuf {
    std::env::var_os("KSOLVE_TEST_BIN")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_BIN_EXE_ksolve")))
}

/// Whether the tests that make the binary build tables of tens of millions of entries
/// run: in a release build of the tests, when the binary under test is named
/// (`KSOLVE_TEST_BIN`), or when slow tests are asked for.
pub fn large_tables() -> bool {
    !cfg!(debug_assertions) || std::env::var_os("KSOLVE_TEST_BIN").is_some() || slow_tests()
}

/// The `ksolve` binary as a command to give arguments, a folder and input to: every
/// test of the command line starts here.
pub fn ksolve() -> assert_cmd::Command {
    assert_cmd::Command::new(bin())
}

/// Runs `cmd` to its end: (exit code, stdout, stderr), the code -1 when a signal ended
/// the run. Both outputs must be UTF-8 text.
pub fn output(cmd: &mut assert_cmd::Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Whether the slow tests run too (`KSOLVE_SLOW_TESTS=1`): the large tables and long
/// searches a debug build takes minutes over.
pub fn slow_tests() -> bool {
    std::env::var_os("KSOLVE_SLOW_TESTS").is_some_and(|v| v == "1")
}

/// Asserts that `took` is under `bound`, in slow runs only: how long anything takes
/// depends on the machine and its load, so the default suite never fails on a time.
/// The tests that call this check what was done in every run; the time bound catches
/// a reader or search gone quadratic when the slow tests run on a quiet machine.
pub fn assert_quick(took: std::time::Duration, bound: std::time::Duration, context: &str) {
    if slow_tests() {
        assert!(
            took < bound,
            "took {took:?}, expected under {bound:?}: {context}"
        );
    }
}

/// Asserts that two ways of solving found the same solutions, in the same order: the
/// differential tests compare the solver with itself under other options, or with
/// [`brute_force`]. A failure names every solution of both lists in the puzzle's
/// notation, with `context` (the scramble's name, the options) in front.
pub fn assert_same_solutions(p: &Puzzle, got: &[Vec<MoveId>], want: &[Vec<MoveId>], context: &str) {
    let names = |v: &[Vec<MoveId>]| v.iter().map(|x| p.format_sequence(x)).collect::<Vec<_>>();
    assert_eq!(names(got), names(want), "{context}");
}

/// Runs ksolve in the repository root with `args`, which must succeed: its standard
/// output (the error is shown when it fails).
pub fn stdout_of(args: &[&std::ffi::OsStr]) -> String {
    let out = ksolve()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The `.def` files of folder `dir`, sorted by name: the shipped puzzles, or a sample
/// folder's.
pub fn definitions_in(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut defs: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "def"))
        .collect();
    defs.sort();
    defs
}

/// An SVG picture rendered by a real SVG renderer (resvg), at its own size.
pub fn render_svg(svg: &str) -> resvg::tiny_skia::Pixmap {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
}
