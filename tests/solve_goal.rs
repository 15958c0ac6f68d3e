//! Goals other than solved (`Goal` / `GoalAlg` blocks): optimal lengths agree with a
//! breadth-first search from every goal position at once written here, on the 2x2x2
//! turned by U and R (several goal positions, one with `?`, one no move reaches); the
//! checkerboard on the shipped 3x3x3 with slices solves at the length a
//! meet-in-the-middle search written here finds; tables built for a goal are never
//! used for another goal or for Solved, in memory or on disk; and the command line
//! reports a position that reaches no goal position, and searches instead of using a
//! distance table built for Solved.

use ksolve::def::{parse_puzzle, parse_scrambles};
use ksolve::progress::Silent;
use ksolve::puzzle::{MoveId, Puzzle, State};
use ksolve::search::{SolveOptions, Solver, Status};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

/// The 2x2x2 of `common` turned by U and R only, with its ignores (the permutation of
/// UBL and UBR, the orientation of UBL).
fn ru_cube() -> String {
    let with_ignore = crate::common::cube2_with_ignore();
    let (head, rest) = with_ignore.split_once("Move F").unwrap();
    let ignore = &rest[rest.find("Ignore").unwrap()..];
    format!("{head}{ignore}")
}

/// A position as a scramble file writes it, with `?` at the positions `free_perm` and
/// `free_ori` name.
fn block(word: &str, name: &str, s: &State, free_perm: &[usize], free_ori: &[usize]) -> String {
    let perm: Vec<String> = s.sets[0]
        .perm
        .iter()
        .enumerate()
        .map(|(i, &l)| {
            if free_perm.contains(&i) {
                "?".into()
            } else {
                (l + 1).to_string()
            }
        })
        .collect();
    let ori: Vec<String> = s.sets[0]
        .ori
        .iter()
        .enumerate()
        .map(|(i, &o)| {
            if free_ori.contains(&i) {
                "?".into()
            } else {
                o.to_string()
            }
        })
        .collect();
    format!(
        "{word} {name}\nCORNERS\n{}\n{}\nEnd\n",
        perm.join(" "),
        ori.join(" ")
    )
}

/// The test's own goal: a state, and the positions whose piece and whose twist may be
/// anything.
struct TestGoal {
    state: State,
    free_perm: Vec<usize>,
    free_ori: Vec<usize>,
}

impl TestGoal {
    fn holds(&self, s: &State) -> bool {
        let (g, x) = (&self.state.sets[0], &s.sets[0]);
        (0..g.perm.len()).all(|i| {
            (self.free_perm.contains(&i) || g.perm[i] == x.perm[i])
                && (self.free_ori.contains(&i) || g.ori[i] == x.ori[i])
        })
    }
}

/// Every position the moves reach from solved.
fn reachable(p: &Puzzle) -> Vec<State> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([p.solved.clone()]);
    seen.insert(p.solved.clone());
    let mut out = Vec::new();
    while let Some(s) = queue.pop_front() {
        for m in &p.moves {
            let n = s.then(&m.effect, &p.sets);
            if seen.insert(n.clone()) {
                queue.push_back(n);
            }
        }
        out.push(s);
    }
    out
}

/// Distances to the nearest goal position: breadth-first from every reachable position
/// any goal accepts (every move's inverse is a move, so distances to and from agree).
fn distances_to_goal(p: &Puzzle, all: &[State], goals: &[TestGoal]) -> HashMap<State, u32> {
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    for s in all.iter().filter(|s| goals.iter().any(|g| g.holds(s))) {
        dist.insert(s.clone(), 0);
        queue.push_back(s.clone());
    }
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        for m in &p.moves {
            let n = s.then(&m.effect, &p.sets);
            if !dist.contains_key(&n) {
                dist.insert(n.clone(), d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

fn state_of(p: &Puzzle, alg: &str) -> State {
    let seq: Vec<MoveId> = alg
        .split_whitespace()
        .map(|n| p.move_by_name(n).unwrap())
        .collect();
    p.apply_sequence(&p.solved, &seq)
}

#[test]
fn goal_lengths_match_a_breadth_first_search_from_every_goal_position() {
    let all = check_against_breadth_first(&ru_cube(), 211);
    assert_eq!(all, 29_160);
}

#[test]
fn goals_with_interchangeable_pieces_match_a_breadth_first_search() {
    // The U corners look alike, and so do the D corners: a goal names colours only.
    let def = ru_cube().replace("1 2 3 4 5 6 7\nEnd", "1 1 1 1 2 2 2\nEnd");
    assert_ne!(def, ru_cube());
    let all = check_against_breadth_first(&def, 53);
    assert!(all < 29_160, "{all}");
}

/// Solves every `step`th reachable position of `def` to a goal of three positions (one
/// with `?`, one unreachable) and compares with the test's breadth-first search;
/// returns the number of reachable positions.
fn check_against_breadth_first(def: &str, step: usize) -> usize {
    let p = crate::common::puzzle(def);
    let all = reachable(&p);
    let goals = vec![
        TestGoal {
            state: state_of(&p, "R U"),
            free_perm: vec![],
            free_ori: vec![],
        },
        // `?` where the definition's Ignore allows: UBL and UBR's pieces, UBL's twist.
        TestGoal {
            state: state_of(&p, "U2 R'"),
            free_perm: vec![2, 3],
            free_ori: vec![2],
        },
    ];
    // A goal position no move reaches (one corner twisted) changes nothing.
    let mut twisted = p.solved.clone();
    twisted.sets[0].ori[0] = 1;
    let mut text = String::new();
    for (i, g) in goals.iter().enumerate() {
        text += &block(
            "Goal",
            &format!("g{i}"),
            &g.state,
            &g.free_perm,
            &g.free_ori,
        );
    }
    text += &block("Goal", "twisted", &twisted, &[], &[]);
    let dist = distances_to_goal(&p, &all, &goals);
    assert_eq!(dist.len(), all.len());
    let mut sample: Vec<&State> = all.iter().step_by(step).collect();
    sample.sort();
    for (i, s) in sample.iter().enumerate() {
        text += &block("Scramble", &format!("s{i}"), s, &[], &[]);
    }
    let scrambles = crate::common::scrambles(&p, &text);
    assert_eq!(scrambles.len(), sample.len());
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 1 << 28));
    let mut depths = HashSet::new();
    for (s, start) in scrambles.iter().zip(&sample) {
        assert_eq!(s.settings.goal.as_ref().unwrap().positions.len(), 3);
        let o = solver
            .solve(
                start,
                &[],
                &s.settings,
                SolveOptions::default(),
                &Silent,
                |_, _| {},
            )
            .unwrap();
        let want = dist[*start];
        depths.insert(want);
        assert_eq!(o.status, Status::Solved, "{}", s.name);
        assert_eq!(o.length, Some(want), "{}", s.name);
        for sol in &o.solutions {
            let end = p.apply_sequence(start, sol);
            assert!(goals.iter().any(|g| g.holds(&end)), "{}", s.name);
        }
    }
    // The sample covers near and far positions.
    assert!(depths.len() > 5, "{depths:?}");
    all.len()
}

/// The shipped 3x3x3 with slices and rotations, with `name`'s scramble file.
fn slices(name: &str) -> (Puzzle, Vec<ksolve::puzzle::Scramble>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let def = std::fs::read(root.join("puzzles/3x3x3_slices.def")).unwrap();
    let (p, _) = parse_puzzle(&def, "3x3x3_slices.def").unwrap();
    let scr = std::fs::read(root.join(format!("scrambles/{name}"))).unwrap();
    let s = parse_scrambles(&scr, name, &p).unwrap();
    (p, s)
}

/// The fewest moves from `a` to `b` (up to `2 * half`), by meeting in the middle: the
/// positions within `half` moves of each, on the piece model.
fn meet_in_the_middle(p: &Puzzle, a: &State, b: &State, half: u32) -> Option<u32> {
    let ball = |from: &State| {
        let mut d = HashMap::from([(from.clone(), 0u32)]);
        let mut frontier = vec![from.clone()];
        for k in 1..=half {
            let mut next = Vec::new();
            for s in &frontier {
                for m in &p.moves {
                    let n = s.then(&m.effect, &p.sets);
                    if !d.contains_key(&n) {
                        d.insert(n.clone(), k);
                        next.push(n);
                    }
                }
            }
            frontier = next;
        }
        d
    };
    let (da, db) = (ball(a), ball(b));
    da.iter()
        .filter_map(|(s, x)| db.get(s).map(|y| x + y))
        .min()
}

#[test]
fn the_checkerboard_solves_at_the_length_a_meet_in_the_middle_search_finds() {
    let (p, scrambles) = slices("3x3x3_slices.checkers.txt");
    let goal = scrambles[0].settings.goal.clone().unwrap();
    let checkers = &goal.positions[0].target.state;
    // The file's position is the pattern Block Buster describes: corners and centres
    // home, every edge on the far side of the cube.
    assert_eq!(checkers, &state_of(&p, "V2 H2 M2"));
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 64 << 20));
    for s in &scrambles {
        let start = crate::common::position(&p, s).0;
        let want = meet_in_the_middle(&p, &start, checkers, 3).unwrap();
        let o = solver
            .solve(
                &start,
                &[],
                &s.settings,
                SolveOptions {
                    count: Some(1),
                    ..SolveOptions::default()
                },
                &Silent,
                |_, _| {},
            )
            .unwrap();
        assert_eq!(o.length, Some(want), "{}", s.name);
        assert_eq!(
            &p.apply_sequence(&start, &o.solutions[0]),
            checkers,
            "{}",
            s.name
        );
    }
    // From solved: three slice half turns.
    let start = crate::common::position(&p, &scrambles[0]).0;
    assert_eq!(meet_in_the_middle(&p, &start, checkers, 3), Some(3));
}

#[test]
fn any_of_the_24_orientations_counts_as_solved() {
    let (p, scrambles) = slices("3x3x3_slices.orientations.txt");
    let goal = scrambles[0].settings.goal.clone().unwrap();
    let distinct: HashSet<&State> = goal.positions.iter().map(|g| &g.target.state).collect();
    assert_eq!(distinct.len(), 24);
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 64 << 20));
    let lengths: Vec<Option<u32>> = scrambles
        .iter()
        .map(|s| {
            let start = crate::common::position(&p, s).0;
            solver
                .solve(
                    &start,
                    &[],
                    &s.settings,
                    SolveOptions::default(),
                    &Silent,
                    |_, _| {},
                )
                .unwrap()
                .length
        })
        .collect();
    // A turned cube is solved; one face turned on it is one move away.
    assert_eq!(lengths, [Some(0), Some(1)]);
}

// A depth limit, so that a wrong table gives a wrong answer rather than a long search.
const SCR_GOAL: &str =
    "MaxDepth 6\nGoal target\nCORNERS\n4 1 2 3 5 6 7\nEnd\nScrambleAlg r\nR\nEnd\n";
const SCR_SOLVED: &str = "MaxDepth 6\nScrambleAlg r\nR\nEnd\n";

#[test]
fn tables_built_for_a_goal_are_never_used_for_solved() {
    let p = crate::common::puzzle(&ru_cube());
    let goal = crate::common::scrambles(&p, SCR_GOAL);
    let plain = crate::common::scrambles(&p, SCR_SOLVED);
    let start = crate::common::position(&p, &plain[0]).0;
    let solve = |solver: &mut Solver, s: &ksolve::puzzle::Scramble| {
        solver
            .solve(
                &start,
                &[],
                &s.settings,
                SolveOptions::default(),
                &Silent,
                |_, _| {},
            )
            .unwrap()
            .length
    };
    // One solver, both goals in turn, in memory: R then U' is 2 from the goal U.
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 1 << 28));
    assert_eq!(solve(&mut solver, &goal[0]), Some(2));
    assert_eq!(solve(&mut solver, &plain[0]), Some(1));
    assert_eq!(solve(&mut solver, &goal[0]), Some(2));
    // On disk: a run for the goal leaves its tables, and later runs for either goal
    // load the right ones.
    let dir = tempfile::tempdir().unwrap();
    let def = ru_cube();
    let open = || {
        let cache = TableCache::open(
            Some(dir.path().to_path_buf()),
            Path::new("ru.def"),
            "ru",
            def.as_bytes(),
            &Silent,
        );
        Solver::new(&p, Tables::new(cache, 1 << 28))
    };
    assert_eq!(solve(&mut open(), &goal[0]), Some(2));
    let files = |dir: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains(".pt-"))
            .collect();
        v.sort();
        v
    };
    let after_goal = files(dir.path());
    assert!(!after_goal.is_empty());
    assert_eq!(solve(&mut open(), &plain[0]), Some(1));
    let after_both = files(dir.path());
    assert_eq!(after_both.len(), 2 * after_goal.len(), "{after_both:?}");
    assert_eq!(solve(&mut open(), &goal[0]), Some(2));
    assert_eq!(solve(&mut open(), &plain[0]), Some(1));
}

fn ksolve(dir: &Path, def: &str, scr: &str, extra: &[&str]) -> (i32, String, String) {
    let d = dir.join("p.def");
    let s = dir.join("p.txt");
    std::fs::write(&d, def).unwrap();
    std::fs::write(&s, scr).unwrap();
    crate::common::output(
        crate::common::ksolve()
            .arg("solve")
            .arg(&d)
            .arg(&s)
            .arg("--no-cache")
            .args(extra),
    )
}

#[test]
fn a_position_that_reaches_no_goal_position_is_reported_with_each_reason() {
    let dir = tempfile::tempdir().unwrap();
    // Each goal position has one corner twisted (a different way): neither is
    // reachable from a reachable scramble.
    let scr = "Goal twisted\nCORNERS\n1 2 3 4 5 6 7\n1 0 0 0 0 0 0\nEnd\n\
               Goal twisted2\nCORNERS\n2 1 3 4 5 6 7\n0 0 2 0 0 0 0\nEnd\n\
               ScrambleAlg r\nR\nEnd\n";
    let (code, out, err) = ksolve(dir.path(), crate::common::CUBE2, scr, &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("none of the goal's 2 positions"), "{out}");
    assert!(
        out.contains("`twisted`") && out.contains("`twisted2`"),
        "{out}"
    );
}

#[test]
fn a_goal_the_moves_left_by_move_limits_cannot_reach_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    // U and R never move the DFL corner that F moves, so from R no sequence of U and R
    // reaches the position F makes; without the check the search would deepen until
    // MaxDepth.
    let scr = "MoveLimits\nF* 0\nEnd\nGoalAlg f\nF\nEnd\nScrambleAlg r\nR\nEnd\n\
               ScrambleAlg rf\nF R'\nEnd\n";
    let (code, out, err) = ksolve(dir.path(), crate::common::CUBE2, scr, &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("with only the moves MoveLimits allow"),
        "{out}"
    );
    // F R' reaches it with one R.
    assert!(out.contains("\n  R\n"), "{out}");
}

#[test]
fn a_goal_no_symmetry_keeps_is_solved_without_symmetric_or_inverse_probes() {
    // Distances to the position R makes are not kept by the cube's symmetries nor by
    // inversion: probing the goal's tables at a scramble seen through a symmetry, or at
    // its inverse, would claim more than the moves it needs (with them, `R U F` came
    // out in 9 moves instead of `F' U'`).
    let dir = tempfile::tempdir().unwrap();
    let def =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/3x3x3.def"))
            .unwrap();
    let scr = "GoalAlg r\nR\nEnd\nScrambleAlg a\nR U F\nEnd\n\
               ScrambleAlg b\nR F2 U' L\nEnd\nScrambleAlg c\nR D B2 L' U\nEnd\n";
    let (code, out, err) = ksolve(dir.path(), &def, scr, &["--memory", "200M"]);
    assert_eq!(code, 0, "{out}{err}");
    let solutions: Vec<&str> = out.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(solutions, ["  F' U'", "  L' U F2", "  U' L B2 D'"], "{out}");
}

#[test]
fn the_database_is_not_used_for_a_goal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cube2.kdb");
    let db = db.to_str().unwrap();
    let (code, out, err) = ksolve(
        dir.path(),
        crate::common::CUBE2,
        SCR_GOAL,
        &["--database", db, "-q"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("not to the scramble file's goal"), "{err}");
    // The goal's answer, not the table's (which would say `R'`).
    assert!(out.contains("\n  R' U\n"), "{out}");
    assert!(!out.contains("\n  R'\n"), "{out}");
}

#[test]
fn a_bad_goal_block_names_its_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let then = "ScrambleAlg r\nR\nEnd\n";
    // A twist beyond the set's orientations. (A goal's `?` may stand anywhere, unlike
    // a scramble's: `steps.rs` solves goals that leave most pieces free.)
    let scr = format!("Goal g\nCORNERS\n1 2 3 4 5 6 7\n0 0 5 0 0 0 0\nEnd\n{then}");
    let (code, _, err) = ksolve(dir.path(), crate::common::CUBE2, &scr, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("p.txt:4:5"), "{err}");
    // A piece twice.
    let scr = format!("Goal g\nCORNERS\n1 1 3 4 5 6 7\nEnd\n{then}");
    let (code, _, err) = ksolve(dir.path(), crate::common::CUBE2, &scr, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("p.txt:3:3") && err.contains("appears more often"),
        "{err}"
    );
    // A move the definition does not have.
    let scr = format!("GoalAlg g\nR Q\nEnd\n{then}");
    let (code, _, err) = ksolve(dir.path(), crate::common::CUBE2, &scr, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("p.txt:2:3"), "{err}");
    // A missing End.
    let scr = format!("Goal g\nCORNERS\n1 2 3 4 5 6 7\n{then}");
    let (code, _, err) = ksolve(dir.path(), crate::common::CUBE2, &scr, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("p.txt:1:1"), "{err}");
}

#[test]
fn json_names_the_goal_position_reached() {
    let dir = tempfile::tempdir().unwrap();
    // From R, the goal position R2 is one move away and U two.
    let scr = "GoalAlg u\nU\nEnd\nGoalAlg r2\nR2\nEnd\nScrambleAlg r\nR\nEnd\n";
    let (code, out, err) = ksolve(dir.path(), crate::common::CUBE2, scr, &["--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"solutions\":[\"R\"]"), "{out}");
    assert!(out.contains("\"length\":1,\"goal\":\"r2\""), "{out}");
}

/// Every position of a guarded puzzle, with its distance to `goal`: breadth-first over
/// the moves whose guards hold (every slide can be undone, so distances to and from
/// agree).
fn guarded_distances(p: &Puzzle, goal: &State) -> HashMap<State, u32> {
    let mut dist = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        for (i, m) in p.moves.iter().enumerate() {
            if p.guard_allows(&s, MoveId(i as u16)) {
                let n = s.then(&m.effect, &p.sets);
                dist.entry(n.clone()).or_insert_with(|| {
                    queue.push_back(n);
                    d + 1
                });
            }
        }
    }
    dist
}

#[test]
fn a_goal_on_a_guarded_puzzle_is_searched_for_not_bounded_by_the_table_of_solved() {
    // The exact table of the 8-puzzle holds distances to Solved; used for another goal
    // it bounded the search wrongly, which then deepened for many minutes (the 8-puzzle
    // needs at most 31 moves, so `MaxDepth 31` loses no solution).
    let def =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/8puzzle.def"))
            .unwrap();
    let p = crate::common::puzzle(&def);
    let goal_alg = "U9 L6 U5 R2 D3 D6 L9 U8 R5 U6 L3 D2";
    let goal = state_of(&p, goal_alg);
    let dist = guarded_distances(&p, &goal);
    assert_eq!(dist.len(), 181_440);
    let mut sample: Vec<(&State, &u32)> = dist.iter().collect();
    sample.sort();
    let sample: Vec<(&State, &u32)> = sample.into_iter().step_by(9_001).collect();
    let mut text = format!("MaxDepth 31\nGoalAlg far\n{goal_alg}\nEnd\nScrambleAlg zero\nEnd\n");
    for (i, (s, _)) in sample.iter().enumerate() {
        let cells: Vec<String> = s.sets[0].perm.iter().map(|l| (l + 1).to_string()).collect();
        text += &format!("Scramble s{i}\nCells\n{}\nEnd\n", cells.join(" "));
    }
    let scrambles = crate::common::scrambles(&p, &text);
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 1 << 28));
    let starts =
        std::iter::once((&p.solved, dist[&p.solved])).chain(sample.iter().map(|&(s, &d)| (s, d)));
    for (s, (start, want)) in scrambles.iter().zip(starts) {
        let o = solver
            .solve(
                start,
                &[],
                &s.settings,
                SolveOptions::default(),
                &Silent,
                |_, _| {},
            )
            .unwrap();
        assert_eq!(o.status, Status::Solved, "{}", s.name);
        assert_eq!(o.length, Some(want), "{}", s.name);
        for sol in &o.solutions {
            assert_eq!(p.apply_sequence(start, sol), goal, "{}", s.name);
        }
    }
}

#[test]
fn a_start_whose_twists_sum_otherwise_is_refused_not_misread() {
    // The corners' twists always sum to the solved state's; the tables count them by
    // that sum. A start of another sum can reach a goal of its own sum, which they
    // cannot tell from a position of the solved sum: said, not answered wrongly.
    let dir = tempfile::tempdir().unwrap();
    let scr = "Goal twisted\nCORNERS\n1 2 3 4 5 6 7\n1 0 0 0 0 0 0\nEnd\n\
               Scramble s\nCORNERS\n2 1 3 4 5 6 7\n1 0 0 0 0 0 0\nEnd\n";
    let (code, out, err) = ksolve(dir.path(), crate::common::CUBE2, scr, &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("twists of set CORNERS sum to another value"),
        "{err}"
    );
}
